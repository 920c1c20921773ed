"""MEM658: An operator MemOS filters do not support (`ne`, `in`, `nin`, `icontains`, `$gte`...)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS, fields
from mem0lint.sdk.memos import GRAMMAR


class MemosUnsupportedOp(Rule):
    code = "MEM658"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-unsupported-op"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "An operator MemOS filters do not support (`ne`, `in`, `nin`, `icontains`, `$gte`...)"
    why = (
        "MemOS Cloud filters support equality (a bare value), `contains` (tags) and "
        "`gt` / `gte` / `lt` / `lte` (times). Unknown operators are skipped: the condition "
        "silently stops filtering."
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u", filter={"and": [{"scene": {"ne": "x"}}]})',
            good='client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for entry in fields(site.filters):
            if entry.key == "info" or not isinstance(entry.value, DictValue):
                continue
            for op in entry.value.entries:
                if op.key is not None and op.key not in GRAMMAR.operators:
                    yield Finding(
                        op.key_node,
                        f"`{op.key}` is not supported in MemOS filters (only a bare value, "
                        "`contains`, `gt`, `gte`, `lt`, `lte`); the condition is skipped",
                    )
