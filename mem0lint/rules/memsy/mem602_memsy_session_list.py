"""MEM602: A list passed as a Memsy `session_id` / `exclude_session_id`."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.sdk.memsy import GRAMMAR


class MemsySessionList(Rule):
    code = "MEM602"
    versions = {"memsy": ">=0.3.5"}
    name = "memsy-session-list"
    dialects = MEMSY
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "A list passed as a Memsy `session_id` / `exclude_session_id`"
    why = (
        "Both take a single conversation id, unlike `role_ids` / `team_ids`; a list is rejected "
        "with HTTP 422. There is no multi-conversation search: run one search per conversation."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", session_id=["conv_7", "conv_8"])',
            good='client.search("q", actor_id="u1", session_id="conv_7")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in GRAMMAR.session_params:
            arg = site.keyword(name)
            if arg is not None and isinstance(
                arg.value, (cst.List, cst.Tuple, cst.Set, cst.ListComp, cst.SetComp)
            ):
                yield Finding(
                    arg,
                    f"`{name}` takes a single id, not a list (HTTP 422); run one search per "
                    "conversation",
                )
