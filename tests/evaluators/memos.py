"""MemOS Cloud filters (spec §3.4, seed 004): does a memory match a `filter=`?

A record is a MemOS memory: `source` ("user", "agent", "public", "knowledgebase"), the fixed
fields `agent_id`, `app_id`, `tags` (a list), `create_time` / `update_time` (`YYYY-MM-DD`), and
`info` (a dict: `scene`, `biz_id`, `business_type`... ). Any of them may be missing.

`strict=True` is the Cloud: the root is one lowercase `and` / `or` group, or source keys each
holding one; a root without a lowercase `and` / `or` is not read as a condition (the filter is
dropped: every record matches); `and` and `or` side by side: `or` wins; `and`/`or` mixed with
other keys at a root is rejected. A field outside the fixed set is read from `info` by its bare
name, so `{"info": {...}}` looks for an info key named `info`, and `created_at` for an info key
named `created_at` (both absent: no match). Unknown operators are skipped.

`strict=False` reads the filter the way its author meant it: logical keys in any case (`AND`,
`$and`), bare conditions at a root AND-ed with its group, `{"info": {...}}` as its fields,
`created_at` / `updated_at` as `create_time` / `update_time`.
"""

from __future__ import annotations

from typing import Any

from . import spelling


class Rejected(Exception):
    """The MemOS API refuses this filter."""


SOURCES = ("user", "agent", "public", "knowledgebase")
FIXED_FIELDS = frozenset({"agent_id", "app_id", "related_id", "tags", "create_time", "update_time"})
MEANT_TIME_FIELDS = {"created_at": "create_time", "updated_at": "update_time"}
RANGES = {
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}
MISSING = object()


def select(filters: Any, records: list[dict], strict: bool = True) -> list[int]:
    return [i for i, record in enumerate(records) if matches(filters, record, strict)]


def matches(filters: Any, record: dict, strict: bool) -> bool:
    if filters is None:
        return True
    if not isinstance(filters, dict):
        raise Rejected(f"filter must be an object, got {filters!r}")
    if any(key in SOURCES for key in filters):
        if strict and any(key not in SOURCES for key in filters):
            raise Rejected("source groups mixed with other keys")
        group = filters.get(record.get("source", "user"))
        return True if group is None else _root(group, record, strict)
    return _root(filters, record, strict)


def _root(group: Any, record: dict, strict: bool) -> bool:
    if not isinstance(group, dict):
        raise Rejected(f"a group must be an object, got {group!r}")
    if not strict:
        return _item(group, record, strict)  # bare conditions and groups, all AND-ed
    logical = [key for key in group if key in ("and", "or")]
    if not logical:
        return True  # not a filter the Cloud reads: dropped
    if len(logical) != len(group):
        raise Rejected("`and` / `or` mixed with other keys at the root")
    name = "or" if "or" in logical else "and"  # both: `or` wins, `and` is ignored
    return _logical(name, group[name], record, strict)


def _logical(name: str, items: Any, record: dict, strict: bool) -> bool:
    if not isinstance(items, list) or not items:
        raise Rejected(f"`{name}` takes a non-empty list of conditions")
    results = [_item(item, record, strict) for item in items]
    return all(results) if name == "and" else any(results)


def _item(condition: Any, record: dict, strict: bool) -> bool:
    if not isinstance(condition, dict) or not condition:
        raise Rejected(f"a condition must be a non-empty object, got {condition!r}")
    results = []
    for key, value in condition.items():
        name = key if key in ("and", "or") else None
        if name is None and not strict and spelling.logical(key) in ("AND", "OR"):
            name = spelling.logical(key).lower()
        if name is not None:
            results.append(_logical(name, value, record, strict))
        elif not strict and key == "info" and isinstance(value, dict):
            results.append(_item(value, record, strict))
        else:
            if not strict:
                key = MEANT_TIME_FIELDS.get(key, key)
            results.append(_field(value, _stored(record, key)))
    return all(results)


def _stored(record: dict, key: str) -> Any:
    if key in FIXED_FIELDS:
        return record.get(key, MISSING)
    info = record.get("info")
    return info.get(key, MISSING) if isinstance(info, dict) else MISSING


def _field(value: Any, actual: Any) -> bool:
    if not isinstance(value, dict):
        return actual is not MISSING and actual is not None and actual == value
    results = []
    for op, argument in value.items():
        if op == "contains":
            if isinstance(actual, list):
                results.append(argument in actual)
            else:
                results.append(isinstance(actual, str) and str(argument) in actual)
        elif op in RANGES:
            results.append(isinstance(actual, str) and RANGES[op](actual, str(argument)))
        # any other operator is skipped by the server
    return all(results)
