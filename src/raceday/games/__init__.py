"""The five games; each subpackage registers itself with raceday.core.registry."""
