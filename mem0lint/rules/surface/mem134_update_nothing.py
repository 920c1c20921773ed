"""MEM134: `update(memory_id)` with nothing to change."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.sdk.dialects import MEM0, PLATFORM
from mem0lint.sdk.mem0_arguments import UPDATE_CHANGES


def _none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


class UpdateNothing(Rule):
    code = "MEM134"
    name = "update-nothing"
    dialects = MEM0
    methods = frozenset({"update"})
    # Open source: `data` became optional in 2.0.10 (before, `update(mid)` was a TypeError).
    versions = {"mem0ai": ">=2.0.10"}
    severity = Severity.ERROR
    summary = "`update(memory_id)` without any text, metadata or expiration date"
    why = (
        "Both clients refuse an update with nothing to change: `ValueError: At least one of "
        "text, metadata, ... must be provided` (keywords passed as `None` count as not given, "
        "except the Platform's `expiration_date=None`, which clears the date)."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.update("mem-1")',
            good='client.update("mem-1", text="Likes tennis")',
        ),
        Example(
            "mem0-oss",
            bad='memory.update("mem-1", text=None)',
            good='memory.update("mem-1", text="Likes tennis")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args or len(site.positional) != 1 or site.keyword("memory_id"):
            return
        # A keyword outside these (or any `**spread`) keeps the rule silent.
        changes = UPDATE_CHANGES[site.dialect.id]
        for name, arg in site.keywords.items():
            if name not in changes:
                return  # unknown keywords: other rules; they may be what the author meant
            if name == "expiration_date" or not _none(arg.value):
                return
        yield Finding(
            site.call,
            "`update()` with nothing to change raises ValueError: pass `text=`, `metadata=` or "
            "`expiration_date=`" + (" (or `timestamp=`)" if site.dialect.id == PLATFORM.id else ""),
        )
