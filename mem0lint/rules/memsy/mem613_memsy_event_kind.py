"""MEM613: An `EventPayload.kind` outside Memsy's closed set of kinds."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.rules.sdk_args import argument, literal
from mem0lint.sdk.memsy import INGEST


class MemsyEventKind(Rule):
    code = "MEM613"
    name = "memsy-event-kind"
    dialects = MEMSY
    methods = frozenset({INGEST.record})
    severity = Severity.ERROR
    summary = "An `EventPayload.kind` outside Memsy's kinds (`user_message`, `tool_result`...)"
    why = (
        "`kind` is a closed enum on the server: `user_message`, `assistant_message`, "
        "`tool_result`, `app_event` (memsy/models.py; docs.memsy.io 'Ingesting events'). The "
        "client sends any string unchanged and the whole batch is rejected with HTTP 422. A chat "
        "role (`user`, `assistant`) is not a kind."
    )
    fix_safety = (
        "unsafe: a chat role becomes the kind of that role's messages (`user` -> "
        "`user_message`, `assistant` -> `assistant_message`, `tool` -> `tool_result`), which "
        "is the usual intent but a guess; other values have no fix"
    )
    examples = [
        Example(
            "memsy",
            bad="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            event = EventPayload(actor_id="u1", session_id="s1", kind="user", content="hi")
            client.ingest([event])
            """,
            good="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            event = EventPayload(actor_id="u1", session_id="s1", kind="user_message", content="hi")
            client.ingest([event])
            """,
            fixed="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            event = EventPayload(actor_id="u1", session_id="s1", kind="user_message", content="hi")
            client.ingest([event])
            """,
            unsafe=True,
        ),
        Example(
            "memsy",
            bad="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            client.ingest([EventPayload("u1", "s1", "message", "hi")])
            """,
            good="""
            from memsy import EventPayload, MemsyClient

            client = MemsyClient(base_url="https://memsy.example", api_key="key")
            client.ingest([EventPayload("u1", "s1", "user_message", "hi")])
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = argument(site, "kind")
        if arg is None:
            return
        value = literal(arg.value)
        if not isinstance(value, str) or value in INGEST.kinds:
            return
        target = INGEST.kind_for_role.get(value)
        fix = None
        if target is not None:
            fix = Fix(
                Applicability.UNSAFE,
                f'Use kind "{target}"',
                ((arg.value, fixes.string_like(arg.value, target)),),
            )
        kinds = ", ".join(f"`{k}`" for k in sorted(INGEST.kinds))
        message = f"`kind={value!r}` is not a Memsy event kind ({kinds}): HTTP 422"
        if target is not None:
            message += f"; `{value}` is a chat role, its messages are `{target}`"
        yield Finding(arg, message, fix)
