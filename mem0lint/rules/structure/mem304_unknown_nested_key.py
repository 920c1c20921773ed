"""MEM304: A field inside `AND` / `OR` / `NOT` that is not a Platform filter field."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import condition_dicts
from mem0lint.rules.structure.shared import owned_by_other_rules
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class UnknownNestedKey(Rule):
    code = "MEM304"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-nested-key"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "A field inside `AND` / `OR` / `NOT` that is not a Platform filter field"
    why = (
        "Inside logical keys the Platform documents the same fields as at the top level. Any "
        "other name is not a stored field, so the condition cannot match as intended; custom "
        'fields are metadata: `{"metadata": {k: v}}`.'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"AND": [{"user_id": "u"}, {"tier": "gold"}]})',
            good=(
                'client.search("q", filters={"AND": [{"user_id": "u"}, '
                '{"metadata": {"tier": "gold"}}]})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        allowed = site.dialect.grammar.allowed_top_level
        for condition in condition_dicts(site.filters):
            if condition.is_root:
                continue
            for entry in condition.node.entries:
                key = entry.key
                if key is None or key in allowed or owned_by_other_rules(key, site.dialect.id):
                    continue
                yield Finding(
                    entry.key_node,
                    f"`{key}` is not a Platform filter field; the condition cannot match as "
                    f'intended (custom fields go under `{{"metadata": {{...}}}}`)',
                )
