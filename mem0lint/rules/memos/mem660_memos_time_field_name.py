"""MEM660: `created_at` / `updated_at` in a MemOS Cloud filter."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS, groups
from mem0lint.sdk.memos import GRAMMAR


# A self-hosted MemOS server names its time fields `created_at` / `updated_at`.
def _may_be_self_hosted(site: CallSite) -> bool:
    """Does the file make a MemOSClient with a `base_url=` that is not MemOS Cloud's? Then which
    server a call reaches, and so its time field names, cannot be told."""
    from mem0lint.filtertree import literal_value

    resolver = site.resolver
    for call, scope in resolver.collector.calls:
        if resolver.qualified_name(call.func, scope) != "memos.api.client.MemOSClient":
            continue
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "base_url":
                ok, value = literal_value(arg.value)
                if not (
                    ok and isinstance(value, str) and any(h in value for h in GRAMMAR.cloud_hosts)
                ):
                    return True
    return False


class MemosTimeFieldName(Rule):
    code = "MEM660"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-time-field-name"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`created_at` / `updated_at` in a MemOS Cloud filter"
    why = (
        "MemOS Cloud time fields are `create_time` / `update_time`; `created_at` is mem0's (and "
        "self-hosted MemOS's) name and matches nothing on the Cloud."
    )
    fix_safety = "safe"
    examples = [
        Example(
            "memos",
            bad=(
                'client.search_memory("q", user_id="u", '
                'filter={"and": [{"created_at": {"gte": "2025-01-01"}}]})'
            ),
            good=(
                'client.search_memory("q", user_id="u", '
                'filter={"and": [{"create_time": {"gte": "2025-01-01"}}]})'
            ),
            fixed=(
                'client.search_memory("q", user_id="u", '
                'filter={"and": [{"create_time": {"gte": "2025-01-01"}}]})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        self_hosted = None  # asked at the first time field: it reads every call of the file
        for group in groups(site.filters):
            for entry in group.field_entries():
                target = GRAMMAR.time_fields.get(entry.key)
                if target is None:
                    continue
                if self_hosted is None:
                    self_hosted = _may_be_self_hosted(site)
                if self_hosted:
                    return
                fix = rename_key_fix(
                    group.node, entry, target, f"Rename `{entry.key}` to `{target}`"
                )
                yield Finding(
                    entry.key_node,
                    f"MemOS Cloud time fields are `create_time` / `update_time`: use `{target}`",
                    fix,
                )
