"""MEM206: `$exists` / `exists` in a mem0 filter."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import Scalar
from mem0lint.rule import Example, Finding, Severity
from mem0lint.rules.filters.shared import OperatorRule, operator_entries, presence_fix
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS, WILDCARD_MEANS_PRESENT


class ExistsOperator(OperatorRule):
    code = "MEM206"
    versions = {"mem0ai": ">=2.0.0"}
    name = "exists-operator"
    claims_operators = frozenset({"exists", "$exists"})
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`$exists` / `exists` in a mem0 filter"
    why = (
        "mem0 has no existence operator. The Platform rejects it with HTTP 400 and spells "
        '"field is set" as the wildcard `"*"` (any non-null value); open source raises ValueError, '
        'and its `"*"` is a no-op on Qdrant (it matches every record), so there is no portable '
        "presence test there."
    )
    fix_safety = (
        'unsafe on the Platform: `{f: {"$exists": True}}` becomes `{f: "*"}`, which also '
        "leaves out records where f is null; none for `$exists: False`, on `categories` / "
        "`keywords`, or on open source"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "u1", "run_id": {"$exists": True}})',
            good='client.get_all(filters={"user_id": "u1", "run_id": "*"})',
            fixed='client.get_all(filters={"user_id": "u1", "run_id": "*"})',
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "u1", "project": {"$exists": True}})',
            good='memory.get_all(filters={"user_id": "u1", "project": "apollo"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        present = WILDCARD_MEANS_PRESENT[site.dialect.id]
        for op in operator_entries(site, self.code):
            field = op.condition.field
            fix = None
            if present:
                advice = f'for "{field} is set" write `{{"{field}": "*"}}` (any non-null value)'
                if isinstance(op.value, Scalar) and op.value.value is True:
                    fix = presence_fix(site, op, "also excludes nulls")
            else:
                advice = 'there is no portable presence test (`"*"` is a no-op on Qdrant)'
            yield Finding(
                op.entry.key_node,
                f"`{op.key}` is not a mem0 operator ({site.dialect.grammar.rejected_by}); {advice}",
                fix,
            )
