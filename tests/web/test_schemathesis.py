"""Schemathesis against the live party app: every generated request to the JSON API is
answered without a server error (5xx), in the shape its description promises, under
every check Schemathesis has (its ``--checks all``); the
stateful run follows the description's links (create a room, then look it up, show its QR,
join it). Bounded: a few dozen examples an operation, a few short scenarios, a fresh
temporary database each; numbers jobs are real but small (the server's limits lowered)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS as REGISTERED
from schemathesis.checks import load_all_checks
from schemathesis.config import SchemathesisConfig

from raceday.web.app import create_app
from raceday.web.numbers import Jobs, Limits

ORIGIN = "http://party.schemathesis.test"  # an allowed origin, sent with every request
load_all_checks()
# every check Schemathesis has (the CLI's --checks all): no 5xx, answers as described (status,
# content type, headers, body), bad data refused and good data taken, 405 with Allow for a
# method a path does not take, ...
CHECKS = list(REGISTERED.get_all())
# ... but where the body's schema cannot say all the server checks, a schema-valid body may
# be refused (400, in words):
# * a room's options are checked by its game (each game's own schema is at
#   /api/games/{game}/options); a name must be printable, not a computer's and not taken;
# * a seed is a whole number up to 2**63 - 1: the generator bounds integers by a float
#   (2**63 passes) and counts 96593460240.0 as an integer, which the server refuses;
# * numbers jobs: this test lowers the server's limits below the described ones (SMALL_JOBS),
#   so a job the description allows may be refused; and a mode does not read the fields
#   it has no use for (the KEIRIN odds draw no races: their ``n`` is not looked at).
# * a game's record (POST /api/replay/record, /api/rooms/from-record) is any text to the
#   description, but its moves must be legal by its game's rules (400 naming the line).
# Those operations run every other check.
POSITIVE, NEGATIVE = "positive_data_acceptance", "negative_data_rejection"
BEYOND_SCHEMA = {("POST", "/api/rooms"): {POSITIVE},
                 ("POST", "/api/rooms/{code}/join"): {POSITIVE},
                 ("POST", "/api/wielersim/race"): {POSITIVE},
                 ("POST", "/api/wielersim/campaigns"): {POSITIVE},
                 ("POST", "/api/numbers"): {POSITIVE, NEGATIVE},
                 ("POST", "/api/replay/record"): {POSITIVE},
                 ("POST", "/api/rooms/from-record"): {POSITIVE}}
# A body over 4 KB is refused with 413, which Schemathesis does not count as a refusal of
# schema-violating data unless told.
CONFIG = SchemathesisConfig.from_dict({"checks": {NEGATIVE: {"expected-statuses": [
    400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429, "5xx"]}}})


def checks_for(case: Any) -> list[Any]:
    """Every check, less those :data:`BEYOND_SCHEMA` names for the case's operation."""
    left_out = BEYOND_SCHEMA.get((case.method.upper(), case.path), set())
    return [check for check in CHECKS if check.__name__ not in left_out]
LIMITS = {"rest_burst": 1e9, "rest_rate": 1e9, "lookup_burst": 1e9, "lookup_rate": 1e9,
          "create_burst": 1e9, "create_rate": 1e9}
# Generated jobs run (two at a time), so they are kept short: a larger n or a longer KEIRIN
# track is refused with a 400 like any other out-of-range value.
SMALL_JOBS = Limits({"wielersim": {"races": 20}, "keirin": {"races": 2_000, "length": 60},
                     "derby": {"races": 2_000}})
BOUNDED = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck),
                   database=None)


def live_schema(db: Path) -> Any:
    app = create_app(db, allowed_origins=[ORIGIN], **LIMITS)
    app.state.numbers_jobs = Jobs(SMALL_JOBS)
    return schemathesis.openapi.from_asgi("/openapi.json", app, config=CONFIG)


# The schema is loaded when the module is, so its app gets a temporary directory of its own
# (removed when the test run ends) rather than pytest's tmp_path.
_HOME = tempfile.TemporaryDirectory(prefix="raceday-schemathesis-")
schema = live_schema(Path(_HOME.name) / "party.sqlite")


@schema.parametrize()
@BOUNDED
def test_no_request_makes_a_server_error(case: Any) -> None:
    case.call_and_validate(headers={"Origin": ORIGIN}, checks=checks_for(case))


def test_stateful_links_never_make_a_server_error(tmp_path: Path) -> None:
    base = live_schema(tmp_path / "party.sqlite").as_state_machine()

    class Party(base):  # type: ignore[misc, valid-type]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": {"Origin": ORIGIN}}

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None,
                              **kwargs: Any) -> None:
            case.validate_response(response, checks=checks_for(case))

    Party.run(settings=settings(max_examples=8, stateful_step_count=6, deadline=None,
                                suppress_health_check=list(HealthCheck), database=None))
