"""MEM612: Memsy `ingest()` given a dict or dicts where it takes `EventPayload` objects."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memsy.ingest import events_arg
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.sdk.memsy import INGEST


class MemsyIngestDictEvents(Rule):
    code = "MEM612"
    name = "memsy-ingest-dict-events"
    dialects = MEMSY
    methods = frozenset({INGEST.method})
    severity = Severity.ERROR
    summary = "Memsy `ingest()` given a dict or dicts where it takes `EventPayload` objects"
    why = (
        "The Python client calls `e.to_dict()` on every event before sending: a dict raises "
        "AttributeError ('dict' object has no attribute 'to_dict'), and one dict in place of "
        "the list is iterated as its keys ('str' object has no attribute 'to_dict'). The JSON "
        "shape of the REST API is built by `EventPayload`; construct one per event."
    )
    examples = [
        Example(
            "memsy",
            bad="""
            client.ingest(
                {"actor_id": "u1", "session_id": "s1", "kind": "user_message", "content": "hi"}
            )
            """,
            good="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            event = EventPayload(actor_id="u1", session_id="s1", kind="user_message", content="hi")
            client.ingest([event])
            """,
        ),
        Example(
            "memsy",
            bad="""
            client.ingest(
                [{"actor_id": "u1", "session_id": "s1", "kind": "user_message", "content": "hi"}]
            )
            """,
            good="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            event = EventPayload(actor_id="u1", session_id="s1", kind="user_message", content="hi")
            client.ingest([event])
            """,
        ),
        Example(
            "memsy",
            bad="""
            turns = [("user_message", "hi"), ("assistant_message", "hello")]
            client.ingest(
                [{"actor_id": "u1", "session_id": "s1", "kind": k, "content": c} for k, c in turns]
            )
            """,
            good="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            turns = [("user_message", "hi"), ("assistant_message", "hello")]
            client.ingest([EventPayload("u1", "s1", k, c) for k, c in turns])
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = events_arg(site)
        if arg is None:
            return
        value = arg.value
        if isinstance(value, cst.Dict):
            yield Finding(
                value,
                "`ingest()` takes a list of `EventPayload`, not a dict: iterating the dict gives "
                "its keys, and `str.to_dict` raises AttributeError",
            )
            return
        if isinstance(value, (cst.List, cst.Tuple)):
            items = [e.value for e in value.elements if isinstance(e, cst.Element)]
        elif isinstance(value, cst.ListComp):
            items = [value.elt]
        else:
            return
        for item in items:
            if isinstance(item, cst.Dict):
                yield Finding(
                    item,
                    "`ingest()` calls `.to_dict()` on each event: a dict raises AttributeError; "
                    "build an `EventPayload(...)`",
                )
