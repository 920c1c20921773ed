"""mem0 open source `search()` flattens logical keys before the vector store sees them.

mem0ai 2.x `Memory.search` (and `AsyncMemory.search`) checks the root of `filters` for
"advanced operators" (a root `AND` / `OR` / `NOT`, an operator dict, a `"*"`); when there is one,
`_process_metadata_filters` merges every element of `AND` into ONE dict (a field repeated in two
elements, or next to the same root field, keeps only the last value) and turns each element of
`OR` / `NOT` into one flat dict (a logical key inside an element becomes a field of that name).
A `$and` / `$or` / `$not` (or lowercase) key is not one of those words: it reaches the store as
written and the default store (Qdrant's `_create_filter`) reads it recursively, as MongoDB would.

So respelling a logical key into `AND` / `OR` / `NOT` on open source `search()` keeps the meaning
only when the filter, once every logical key is spelled canonically, flattens without loss.
`get_all()` does not flatten: the store reads both spellings alike.
"""

from __future__ import annotations

from mem0lint.filtertree import DictValue, FilterNode, ListValue
from mem0lint.rules.common import logical_name

FLATTENING_METHODS = frozenset({"search"})
RANGES = frozenset({"gt", "gte", "lt", "lte"})


def flattens(site) -> bool:
    return site.dialect.id == "mem0-oss" and site.method in FLATTENING_METHODS and not site.rest


def flattens_without_loss(root: FilterNode | None) -> bool:
    """Would mem0's flattening keep every condition of `root` (logical keys read canonically)?"""
    if not isinstance(root, DictValue) or not root.complete:
        return False
    logical = [e for e in root.entries if logical_name(e.key) is not None]
    if not logical:
        return True  # nothing is flattened
    seen = {e.key: _operators(e.value) for e in root.entries if logical_name(e.key) is None}
    names = [logical_name(e.key) for e in logical]
    if len(set(names)) != len(names):
        return False  # `$or` next to `OR`: the store keeps one of them
    for entry in logical:
        value = entry.value
        if not isinstance(value, ListValue) or not value.items:
            return False
        for item in value.items:
            if not isinstance(item, DictValue) or not item.complete:
                return False
            for inner in item.entries:
                if logical_name(inner.key) is not None:
                    return False  # a nested logical key becomes a field of that name
                if logical_name(entry.key) == "AND":
                    ops = _operators(inner.value)
                    if inner.key in seen:
                        # Merged into one dict: operator dicts are merged, anything else (or
                        # the same operator twice) keeps only the last value.
                        # Only ranges merge into one condition the store builds (Qdrant
                        # cannot combine a range with `in` / `ne` / ... on one field: MEM218).
                        before = seen[inner.key]
                        if before is None or ops is None or before & ops:
                            return False
                        if not (before | ops) <= RANGES:
                            return False
                        ops = before | ops
                    seen[inner.key] = ops
    return True


def logical_rename_keeps_meaning(site, root: FilterNode | None) -> bool:
    """May a logical key of this call's filter be respelled canonically (`$and` -> `AND`)?"""
    return not flattens(site) or flattens_without_loss(root)


def _operators(value: FilterNode) -> frozenset[str] | None:
    """The operators of an operator dict (`{"gte": 1, "$lt": 5}` -> gte, lt), else None."""
    if not isinstance(value, DictValue) or not value.complete or not value.entries:
        return None
    names = [e.key.lstrip("$").lower() for e in value.entries]
    return frozenset(names) if len(set(names)) == len(names) else None
