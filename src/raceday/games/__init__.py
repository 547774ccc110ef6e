"""The five games; each subpackage registers itself with raceday.core.registry.

Their rules refuse with :func:`raceday.core.errors.refusal` and never import the
presentation layer; importing it here installs its English wording of those refusals, so
a refusal raised by any game's rules reads as the tables word it, whatever was imported
first."""

import raceday.present.messages  # noqa: F401  (installs the wording of refusals)
