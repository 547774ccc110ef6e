"""The research kit that a game's ``adapter`` face builds on: the tensor shapes and the
:class:`Adapter` base that the OpenSpiel, PettingZoo and Gymnasium wrappers drive."""

from raceday.research.adapter import Adapter, ParamValue, Shape

__all__ = ["Adapter", "ParamValue", "Shape"]
