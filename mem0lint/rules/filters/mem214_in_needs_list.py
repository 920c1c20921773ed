"""MEM214: `in` / `nin` with a single value instead of a list."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Scalar
from mem0lint.rule import Applicability, Example, Finding, Fix, Severity
from mem0lint.rules.filters.shared import OperatorRule, new_list, operator_entries, replace_value
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class InNeedsList(OperatorRule):
    code = "MEM214"
    versions = {"mem0ai": ">=2.0.0"}
    name = "in-needs-list"
    claims_operators = frozenset({"in", "nin"})
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`in` / `nin` with a single value instead of a list"
    why = (
        "`in` and `nin` test membership in a list. A scalar is rejected by the Platform API and, "
        "in open source, by the vector store (Qdrant, pgvector: ValueError)."
    )
    fix_safety = "safe; a literal scalar is wrapped in a list; no fix for None or a dict"
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": {"in": "u1"}})',
            good='client.get_all(filters={"user_id": {"in": ["u1"]}})',
            fixed='client.get_all(filters={"user_id": {"in": ["u1"]}})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u1", "tier": {"nin": "trial"}})',
            good='memory.search("q", filters={"user_id": "u1", "tier": {"nin": ["trial"]}})',
            fixed='memory.search("q", filters={"user_id": "u1", "tier": {"nin": ["trial"]}})',
        ),
    ]

    @staticmethod
    def claims_value(value: object) -> bool:
        return isinstance(value, (Scalar, DictValue))

    def check(self, site: CallSite) -> Iterator[Finding]:
        for op in operator_entries(site, self.code):
            fix = None
            if isinstance(op.value, Scalar) and op.value.value is not None:
                fix = Fix(
                    Applicability.SAFE,
                    "Wrap the value in a list",
                    (replace_value(op.entry, new_list([op.value.node])),),
                )
            yield Finding(
                op.entry.key_node,
                f"`{op.key}` needs a list of values ({site.dialect.grammar.rejected_by}); "
                f"write `{op.key}: [...]`",
                fix,
            )
