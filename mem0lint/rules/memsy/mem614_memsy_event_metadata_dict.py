"""MEM614: A dict as `EventPayload(metadata=...)`, which Memsy takes as a JSON string."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.rules.sdk_args import argument
from mem0lint.sdk.memsy import INGEST


class MemsyEventMetadataDict(Rule):
    code = "MEM614"
    name = "memsy-event-metadata-dict"
    dialects = MEMSY
    methods = frozenset({INGEST.record})
    severity = Severity.WARNING
    summary = "A dict as `EventPayload(metadata=...)` (Memsy takes a JSON-serialised string)"
    why = (
        "`EventPayload.metadata` is `str | None`, 'JSON-serialised string' (memsy/models.py; "
        "docs.memsy.io 'Events and memories'). The dataclass does not check it and the client "
        "sends a dict as a JSON object, which the documented API does not accept as metadata. "
        "Serialise it with `json.dumps(...)`."
    )
    examples = [
        Example(
            "memsy",
            bad="""
            from memsy import EventPayload

            event = EventPayload("u1", "s1", "user_message", "hi", metadata={"channel": "web"})
            """,
            good="""
            import json

            from memsy import EventPayload

            event = EventPayload(
                "u1", "s1", "user_message", "hi", metadata=json.dumps({"channel": "web"})
            )
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in sorted(INGEST.string_fields):
            arg = argument(site, name)
            if arg is None:
                continue
            value = arg.value
            if isinstance(value, (cst.Dict, cst.DictComp)):
                yield Finding(
                    arg,
                    f"`{name}` is a JSON-serialised string in Memsy, not a dict: the dict is sent "
                    f"as an object; pass `json.dumps(...)`",
                )
