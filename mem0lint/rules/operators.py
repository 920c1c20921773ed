"""MEM2xx: operators inside mem0 filters."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.dialects import MEM0
from mem0lint.filtertree import DictValue, walk
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import LOGICAL, condition_dicts, logical_name

FILTER_METHODS = frozenset({"search", "get_all"})

# `$`-operators whose bare form means the same in mem0 as in MongoDB. `$not` is left out: in
# MongoDB it negates one operator expression, not a list of conditions.
DOLLAR_SAFE = {
    "$and": "AND",
    "$or": "OR",
    "$in": "in",
    "$eq": "eq",
    "$ne": "ne",
    "$gt": "gt",
    "$gte": "gte",
    "$lt": "lt",
    "$lte": "lte",
}
# Handled by their own rules: $exists (MEM206), $nin (MEM204 on Platform), $regex and
# $options (MEM205).
DOLLAR_ELSEWHERE = frozenset({"$exists", "$regex", "$options"})


class DollarOperator(Rule):
    code = "MEM201"
    name = "dollar-operator"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "MongoDB `$`-operators (`$and`, `$in`, `$gte`...) in a mem0 filter"
    why = (
        "mem0 operators are bare words. The Platform rejects `$and` with HTTP 400; open source "
        "raises ValueError or, on the raw path, depends on the vector store."
    )
    fix_safety = (
        "safe for `$and`, `$or`, `$in`, `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte` (and `$nin` on "
        "open source); `$not` is unsafe (MongoDB's `$not` negates an operator, not conditions)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q",
                filters={"$and": [{"user_id": "u_42"}, {"created_at": {"$gte": "2025-01-01"}}]},
            )
            """,
            good="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u_42"}, {"created_at": {"gte": "2025-01-01"}}]},
            )
            """,
            fixed="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u_42"}, {"created_at": {"gte": "2025-01-01"}}]},
            )
            """,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "tier": {"$nin": ["trial"]}})',
            good='memory.search("q", filters={"user_id": "u", "tier": {"nin": ["trial"]}})',
            fixed='memory.search("q", filters={"user_id": "u", "tier": {"nin": ["trial"]}})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        safe = dict(DOLLAR_SAFE)
        if "nin" in site.dialect.grammar.operators:
            safe["$nin"] = "nin"
        for node in walk(site.filters) if site.filters is not None else ():
            if not isinstance(node, DictValue):
                continue
            for entry in node.entries:
                key = entry.key
                if key is None or not key.startswith("$") or key in DOLLAR_ELSEWHERE:
                    continue
                if key == "$nin" and key not in safe:
                    continue  # MEM204 explains the Platform's missing `nin`
                bare = safe.get(key) or (LOGICAL.get(key[1:]) if key == "$not" else None)
                fix = None
                if bare is not None:
                    applicability = Applicability.SAFE if key in safe else Applicability.UNSAFE
                    fix = Fix(
                        applicability,
                        f"Replace `{key}` with `{bare}`",
                        (fixes.rename_key(entry, bare),),
                    )
                instead = f"`{bare}`" if bare else "a mem0 operator"
                yield Finding(
                    entry.key_node,
                    f"mem0 operators have no `$`: use {instead} instead of `{key}`",
                    fix,
                )


class LowercaseLogical(Rule):
    code = "MEM202"
    name = "lowercase-logical"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Logical keys spelled `and` / `or` / `not` instead of `AND` / `OR` / `NOT`"
    why = (
        "mem0 logical keys are uppercase. The Platform rejects a lowercase `and` at the top "
        "level (HTTP 400); open source treats it as a payload field named `and`, which matches "
        "nothing or is rejected by the vector store."
    )
    fix_safety = "safe"
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
                fix = Fix(
                    Applicability.SAFE,
                    f"Replace `{key}` with `{name}`",
                    (fixes.rename_key(entry, name),),
                )
                yield Finding(
                    entry.key_node, f"Logical keys are uppercase: `{name}`, not `{key}`", fix
                )
