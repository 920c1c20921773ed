"""MEM218: Range and non-range operators on one field in one open-source condition."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.filters.shared import operator_fields, owner
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_filters import FILTER_METHODS, RANGE_OPERATORS


class MixedRangeAndMatchOss(Rule):
    code = "MEM218"
    versions = {"mem0ai": ">=2.0.0"}
    name = "mixed-range-and-match-oss"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Range and non-range operators on one field in one open-source condition"
    why = (
        "Qdrant (the default open-source vector store) builds one condition per field and "
        "raises ValueError when a range (gt, gte, lt, lte) shares an operator dict with eq, ne, "
        "in, nin, contains or icontains. Splitting the dict into two AND-ed conditions does not "
        "help: `Memory.search()` merges AND-ed conditions on the same field back into one dict."
    )
    fix_safety = "none (the AND split of the spec is merged back by the SDK)"
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u1", "score": {"gte": 3, "ne": 5}})',
            good='memory.search("q", filters={"user_id": "u1", "score": {"gte": 3}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in operator_fields(site):
            ops = condition.operators
            if ops is None:
                continue
            valid = [
                e.key
                for e in ops.entries
                if e.key is not None and owner(e.key, e.value, site) in (None, "MEM214")
            ]
            ranges = [k for k in valid if k in RANGE_OPERATORS]
            others = [k for k in valid if k not in RANGE_OPERATORS]
            if ranges and others:
                yield Finding(
                    condition.entry.key_node,
                    f"Qdrant cannot combine {', '.join(ranges)} with {', '.join(others)} on "
                    f"`{condition.field}` in one condition (ValueError); keep the range and "
                    "check the rest on the results",
                )
