"""The presentation layer: message tables per language and the renderers of message keys,
events, outcomes and actions that the terminal, the browser, replays and commentary share.

A face never writes a game's words itself: it takes a :class:`~raceday.core.events.Message`
(from an event, an outcome or :meth:`State.action_message`) and renders it here, in English
or Japanese. The browser loads the same tables from the server (``/api/messages/<lang>``)
and renders them with the same rules (``static/js/present.js``).
"""

from __future__ import annotations

from raceday.present.messages import (
    LANGUAGES,
    MessageTable,
    describe_action,
    describe_event,
    describe_events,
    describe_outcome,
    describe_result,
    outcome_message,
    refusal,
    render,
    table,
)

__all__ = [
    "LANGUAGES",
    "MessageTable",
    "describe_action",
    "describe_event",
    "describe_events",
    "describe_outcome",
    "describe_result",
    "outcome_message",
    "refusal",
    "render",
    "table",
]
