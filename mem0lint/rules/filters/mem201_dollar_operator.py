"""MEM201: MongoDB `$`-operators (`$and`, `$in`, `$gte`...) in a mem0 filter."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, walk
from mem0lint.ossflatten import logical_rename_keeps_meaning
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Rule, Severity
from mem0lint.rules.common import LOGICAL, logical_name
from mem0lint.rules.filters.shared import owner
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import DOLLAR_CHANGES_MEANING, DOLLAR_SAFE, FILTER_METHODS


class DollarOperator(Rule):
    code = "MEM201"
    versions = {"mem0ai": ">=2.0.0"}
    name = "dollar-operator"
    claims_keys = frozenset({"$*"})  # every `$`-spelling, logical keys included
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "MongoDB `$`-operators (`$and`, `$in`, `$gte`...) in a mem0 filter"
    why = (
        "mem0 operators are bare words. The Platform rejects `$and` with HTTP 400; open source "
        "raises ValueError or, on the raw path, depends on the vector store."
    )
    fix_safety = (
        "safe for `$and`, `$or`, `$in`, `$eq`, `$gt`, `$gte`, `$lt`, `$lte`, and for `$ne` on the "
        "Platform (its `ne` matches missing and null fields, as MongoDB's `$ne` does); unsafe for "
        "`$ne` and `$nin` on open source (MongoDB's match records where the field is missing or "
        "null, open source's `ne` / `nin` on Qdrant never do); unsafe for `$not` (MongoDB's "
        "`$not` negates an operator, not conditions). A logical key on open source `search()` "
        "is respelled only when mem0's flattening of `AND` / `OR` / `NOT` keeps every condition "
        "(no field twice in the `AND` elements and the root, no logical key inside an element); "
        "no fix otherwise. Beside a `**spread`: unsafe"
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
            bad='memory.search("q", filters={"user_id": "u", "tier": {"$in": ["gold", "pro"]}})',
            good='memory.search("q", filters={"user_id": "u", "tier": {"in": ["gold", "pro"]}})',
            fixed='memory.search("q", filters={"user_id": "u", "tier": {"in": ["gold", "pro"]}})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "tier": {"$nin": ["trial"]}})',
            good='memory.search("q", filters={"user_id": "u", "tier": {"nin": ["trial"]}})',
            fixed='memory.search("q", filters={"user_id": "u", "tier": {"nin": ["trial"]}})',
            unsafe=True,  # records without a `tier` no longer match
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        safe = dict(DOLLAR_SAFE)
        if "nin" in site.dialect.grammar.operators:
            safe["$nin"] = "nin"
        changes_meaning = DOLLAR_CHANGES_MEANING.get(site.dialect.id, frozenset())
        for node in walk(site.filters) if site.filters is not None else ():
            if not isinstance(node, DictValue):
                continue
            for entry in node.entries:
                key = entry.key
                if key is None or not key.startswith("$"):
                    continue
                if owner(key, entry.value, site) != self.code:
                    continue  # $exists, $regex, $nin on Platform, $ne: None: see `owner`
                bare = safe.get(key) or (LOGICAL.get(key[1:]) if key == "$not" else None)
                fix = None
                # Renaming next to an existing `bare` key would make a duplicate key, and Python
                # keeps only the last one: no fix then (renames.py).
                if bare is not None:
                    same = key in safe and key not in changes_meaning
                    applicability = Applicability.SAFE if same else Applicability.UNSAFE
                    fix = rename_key_fix(
                        node, entry, bare, f"Replace `{key}` with `{bare}`", applicability
                    )
                if (
                    fix is not None
                    and logical_name(key) is not None
                    and not logical_rename_keeps_meaning(site, site.filters)
                ):
                    fix = None  # open source search() would flatten a condition away
                instead = f"`{bare}`" if bare else "a mem0 operator"
                yield Finding(
                    entry.key_node,
                    f"mem0 operators have no `$`: use {instead} instead of `{key}`",
                    fix,
                )
