"""The `raceday` command line: one sub-command group per game."""
