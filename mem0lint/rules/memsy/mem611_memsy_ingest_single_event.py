"""MEM611: Memsy `ingest()` given one event instead of a list of events."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memsy.ingest import events_arg, is_payload
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.sdk.memsy import INGEST


class MemsyIngestSingleEvent(Rule):
    code = "MEM611"
    name = "memsy-ingest-single-event"
    dialects = MEMSY
    methods = frozenset({INGEST.method})
    severity = Severity.ERROR
    summary = "Memsy `ingest()` given one event instead of a list of events"
    why = (
        "`ingest(events: list[EventPayload])` runs `[e.to_dict() for e in events]` before "
        "sending: one `EventPayload` raises TypeError ('EventPayload' object is not iterable) "
        "and nothing is stored. (A dict in its place: MEM612.)"
    )
    fix_safety = (
        "safe for an `EventPayload(...)` written in the call: wrapped in a list, the same event "
        "is sent (before, the call raised without sending anything)"
    )
    examples = [
        Example(
            "memsy",
            bad="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            client.ingest(EventPayload("u1", "s1", "user_message", "I like tea"))
            """,
            good="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            client.ingest([EventPayload("u1", "s1", "user_message", "I like tea")])
            """,
            fixed="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            client.ingest([EventPayload("u1", "s1", "user_message", "I like tea")])
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = events_arg(site)
        if arg is None:
            return
        value = arg.value
        if is_payload(site, value):
            wrapped = cst.List([cst.Element(value)])
            fix = Fix(
                Applicability.SAFE,
                "Wrap the event in a list",
                ((value, wrapped),),
            )
            yield Finding(
                value,
                "`ingest()` takes a list of `EventPayload`; one payload raises TypeError (not "
                "iterable): pass `[payload]`",
                fix,
            )
