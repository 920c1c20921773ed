"""MEM312: An empty `AND` / `OR` / `NOT` list."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, ListValue
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import condition_dicts, logical_name
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class EmptyLogical(Rule):
    code = "MEM312"
    versions = {"mem0ai": ">=2.0.0"}
    name = "empty-logical"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = {"mem0-platform": Severity.WARNING, "mem0-oss": Severity.ERROR}
    summary = "An empty `AND` / `OR` / `NOT` list"
    why = (
        "An empty logical list states no condition. Open source `search()` raises ValueError for "
        "an empty `OR` or `NOT` (an empty `AND` is silently a no-op); on the Platform the meaning "
        "of an empty list is undocumented. Usually a list built for conditions that never came."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "OR": []})',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "AND": []})',
            good='client.search("q", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        checked = grammar.logic_checked_in is None or site.method in grammar.logic_checked_in
        for condition in condition_dicts(site.filters):
            for entry in condition.node.entries:
                name = logical_name(entry.key)
                if name is None:
                    continue
                value = entry.value
                empty = (isinstance(value, ListValue) and not value.items) or (
                    isinstance(value, DictValue) and not value.entries
                )
                if not empty:
                    continue
                raises = checked and condition.is_root and name in grammar.empty_logical_raises
                if raises:
                    yield Finding(
                        value.node,
                        f"`{entry.key}` needs at least one condition ({grammar.rejected_by}); "
                        "remove it or fill it",
                    )
                else:
                    yield Finding(
                        value.node,
                        f"empty `{entry.key}` states no condition; remove it or fill it",
                        severity=Severity.WARNING,
                    )
