"""The research kit that a game's ``adapter`` face builds on: the tensor shapes and the
:class:`Adapter` base that the OpenSpiel, PettingZoo and Gymnasium wrappers drive."""

from raceday.research.adapter import Adapter, Shape, Shared
from raceday.research.params import ParamValue, ResearchOptions, model_params

__all__ = ["Adapter", "ParamValue", "ResearchOptions", "Shape", "Shared", "model_params"]
