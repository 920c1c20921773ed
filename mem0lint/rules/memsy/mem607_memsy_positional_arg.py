"""MEM607: A positional argument after `query` in a Memsy call."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY


class MemsyPositionalArg(Rule):
    code = "MEM607"
    name = "memsy-positional-arg"
    dialects = MEMSY
    methods = frozenset({"search", "memories.list"})
    severity = Severity.ERROR
    summary = "A positional argument after `query` in a Memsy call"
    why = (
        "Everything after `query` is keyword-only (`search(query, *, actor_id=..., ...)`); an "
        "extra positional argument raises TypeError."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", "user_42")',
            good='client.search("q", actor_id="user_42")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        extra = site.positional[site.spec.positional :]
        if extra:
            where = "after `query`" if site.spec.positional else "to `memories.list()`"
            yield Finding(
                extra[0],
                f"arguments {where} are keyword-only (TypeError); pass them by name",
            )
