"""Schemathesis against the live party app: every generated request to the JSON API is
answered without a server error (5xx), in the shape its description promises; the
stateful run follows the description's links (create a room, then look it up, show its QR,
join it). Bounded: a few dozen examples an operation, a few short scenarios, a fresh
temporary database each; numbers jobs are real but small (the server's limits lowered)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from raceday.web.app import create_app
from raceday.web.numbers import Jobs, Limits

ORIGIN = "http://party.schemathesis.test"  # an allowed origin, sent with every request
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
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
    return schemathesis.openapi.from_asgi("/openapi.json", app)


# The schema is loaded when the module is, so its app gets a temporary directory of its own
# (removed when the test run ends) rather than pytest's tmp_path.
_HOME = tempfile.TemporaryDirectory(prefix="raceday-schemathesis-")
schema = live_schema(Path(_HOME.name) / "party.sqlite")


@schema.parametrize()
@BOUNDED
def test_no_request_makes_a_server_error(case: Any) -> None:
    case.call_and_validate(headers={"Origin": ORIGIN}, checks=CHECKS)


def test_stateful_links_never_make_a_server_error(tmp_path: Path) -> None:
    base = live_schema(tmp_path / "party.sqlite").as_state_machine()

    class Party(base):  # type: ignore[misc, valid-type]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": {"Origin": ORIGIN}}

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None,
                              **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Party.run(settings=settings(max_examples=8, stateful_step_count=6, deadline=None,
                                suppress_health_check=list(HealthCheck), database=None))
