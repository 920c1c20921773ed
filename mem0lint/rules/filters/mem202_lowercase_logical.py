"""MEM202: Logical keys spelled `and` / `or` / `not` instead of `AND` / `OR` / `NOT`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.ossflatten import logical_rename_keeps_meaning
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import LOGICAL, any_case, condition_dicts, logical_name
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class LowercaseLogical(Rule):
    code = "MEM202"
    versions = {"mem0ai": ">=2.0.0"}
    name = "lowercase-logical"
    claims_keys = frozenset(any_case(name) for name in LOGICAL.values())
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Logical keys spelled `and` / `or` / `not` instead of `AND` / `OR` / `NOT`"
    why = (
        "mem0 logical keys are uppercase. The Platform rejects a lowercase `and` at the top "
        "level (HTTP 400); open source treats it as a payload field named `and`, which matches "
        "nothing or is rejected by the vector store."
    )
    fix_safety = (
        "safe, unless the uppercase key is there (or may be: a `**spread` makes it unsafe); on "
        "open source `search()` only when mem0's flattening keeps every condition (see MEM201)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"or": [{"user_id": "a"}, {"agent_id": "b"}]})',
            good='client.search("q", filters={"OR": [{"user_id": "a"}, {"agent_id": "b"}]})',
            fixed='client.search("q", filters={"OR": [{"user_id": "a"}, {"agent_id": "b"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in condition_dicts(site.filters):
            for entry in condition.node.entries:
                key = entry.key
                name = logical_name(key)
                if name is None or key.startswith("$") or key == name:
                    continue
                fix = rename_key_fix(condition.node, entry, name, f"Replace `{key}` with `{name}`")
                if fix is not None and not logical_rename_keeps_meaning(site, site.filters):
                    fix = None
                yield Finding(
                    entry.key_node, f"Logical keys are uppercase: `{name}`, not `{key}`", fix
                )
