"""The mem0 Platform filter grammar (spec §3.1), as a function: does a record match a filter?

A record is the memory as the Platform stores it: entity ids (`user_id`, `agent_id`, `app_id`,
`run_id`), `created_at` / `updated_at` (ISO strings), `categories` (a list of strings) and
`metadata` (a dict). Any of them may be missing or null.

`strict=True` is the Platform itself: whatever its documentation says is rejected raises
`Rejected` (the HTTP 400), and the documented silent behaviours are reproduced (an `OR` beside an
`AND` at one level is dropped). `strict=False` reads the filter the way its author meant it:
wrong spellings (`$gte`, `>=`, `and`, `metadata.k`, `userId`, a one-element `NOT` list, a scalar
`in`) count as what they evidently say, and `AND` beside `OR` means both.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from . import spelling


class Rejected(Exception):
    """The Platform answers HTTP 400 (or the SDK raises) for this filter."""


MISSING = object()

ENTITIES = frozenset({"user_id", "agent_id", "app_id", "run_id"})
TIMES = frozenset({"created_at", "updated_at", "timestamp", "expiration_date"})
LOGICAL = frozenset({"AND", "OR", "NOT"})

# Field kind -> operators the Platform accepts on it (spec §3.1 "Fields x operators").
KIND_OPERATORS = {
    "entity": frozenset({"eq", "ne", "in"}),
    "time": frozenset({"gt", "gte", "lt", "lte", "ne", "in"}),
    "categories": frozenset({"in", "contains"}),
    "metadata": frozenset({"eq", "ne", "contains"}),
    "memory_ids": frozenset({"in"}),
    # A text match on the memory itself (`get_all` only; `search` answers 500, MEM212).
    "keywords": frozenset({"contains", "icontains"}),
}


def kind_of(field: str) -> str | None:
    if field in ENTITIES:
        return "entity"
    if field in TIMES:
        return "time"
    if field in ("categories", "memory_ids", "keywords"):
        return field
    return None


def select(filters: Any, records: list[dict], strict: bool = True) -> list[int]:
    """Indices of the records the filter selects (raises Rejected for an invalid filter)."""
    if strict:
        validate_scope(filters)
    return [i for i, record in enumerate(records) if matches(filters, record, strict)]


def validate_scope(filters: Any) -> None:
    """The Platform needs at least one entity id somewhere in `filters`."""
    if not isinstance(filters, dict):
        raise Rejected("filters must be an object")
    if not _mentions_entity(filters):
        raise Rejected("filters need at least one of user_id, agent_id, app_id, run_id")


def _mentions_entity(node: Any) -> bool:
    if isinstance(node, dict):
        return any(k in ENTITIES or _mentions_entity(v) for k, v in node.items())
    if isinstance(node, list):
        return any(_mentions_entity(item) for item in node)
    return False


def matches(condition: Any, record: dict, strict: bool = True) -> bool:
    if not isinstance(condition, dict) or not condition:
        raise Rejected(f"a condition must be a non-empty object, got {condition!r}")
    keys = list(condition)
    # Documented pitfall: `AND` and `OR` side by side, the `OR` branch is silently dropped.
    if strict and "AND" in keys and "OR" in keys:
        keys.remove("OR")
    # Every part is evaluated (no short cut), so an invalid part is always rejected.
    return all([_entry(key, condition[key], record, strict) for key in keys])


def _entry(key: str, value: Any, record: dict, strict: bool) -> bool:
    name = key if key in LOGICAL else None
    if name is None and not strict:
        name = spelling.logical(key)
    if name is not None:
        return _logical(name, value, record, strict)
    if strict and spelling.logical(key) is not None:
        raise Rejected(f"{key!r} is not a logical operator (uppercase, no $)")
    if not strict and isinstance(key, str) and key.startswith("metadata."):
        return _metadata({key[len("metadata.") :]: value}, record, strict)
    field = key if strict else spelling.field(key)
    if field == "metadata":
        return _metadata(value, record, strict)
    kind = kind_of(field)
    if kind is None:
        raise Rejected(f"{key!r} is not an allowed filter field")
    stored = record.get("memory", MISSING) if kind == "keywords" else record.get(field, MISSING)
    return _field(kind, value, stored, strict)


def _logical(name: str, value: Any, record: dict, strict: bool) -> bool:
    if name == "NOT":
        if isinstance(value, dict):
            return not matches(value, record, strict)
        if strict or not isinstance(value, list) or not value:
            raise Rejected("NOT takes one condition object")
        return not any(matches(c, record, strict) for c in value)  # what a NOT list says
    if not isinstance(value, list) or not value:
        if strict or not isinstance(value, dict):
            raise Rejected(f"{name} takes a non-empty list of conditions")
        value = [value]
    results = [matches(c, record, strict) for c in value]
    return all(results) if name == "AND" else any(results)


def _metadata(value: Any, record: dict, strict: bool) -> bool:
    if not isinstance(value, dict) or not value:
        raise Rejected("metadata takes an object of key: condition")
    stored = record.get("metadata")
    stored = stored if isinstance(stored, dict) else {}
    return all([_field("metadata", v, stored.get(k, MISSING), strict) for k, v in value.items()])


def _operators(value: Any, strict: bool) -> dict[str, Any] | None:
    """{op: argument} when `value` is an operator object, else None (a bare value)."""
    if not isinstance(value, dict) or not value:
        return None
    names = {k: (k if strict else spelling.operator(k)) for k in value}
    if all(n in spelling.OPERATORS.values() and n == k for k, n in names.items()):
        return dict(value)
    if not strict and all(n is not None for n in names.values()):
        return {names[k]: v for k, v in value.items()}
    raise Rejected(f"unknown operator in {value!r}")


def _field(kind: str, value: Any, actual: Any, strict: bool) -> bool:
    if value == "*":
        return actual is not MISSING and actual is not None
    ops = _operators(value, strict)
    if ops is None:
        if kind == "categories" and strict:
            raise Rejected("categories accept only `in` and `contains`")
        if kind == "keywords" and strict:
            raise Rejected("keywords needs `contains` or `icontains`")
        if kind == "memory_ids" and isinstance(value, list):
            return _op(kind, "in", value, actual, strict)
        return _op(kind, "eq", value, actual, strict, bare=True)
    return all([_op(kind, op, argument, actual, strict) for op, argument in ops.items()])


def _op(kind: str, op: str, argument: Any, actual: Any, strict: bool, bare: bool = False) -> bool:
    if strict and not bare and op not in KIND_OPERATORS[kind]:
        raise Rejected(f"`{op}` is not accepted on a {kind} field")
    if op == "in" or op == "nin":
        if not isinstance(argument, list):
            if strict:
                raise Rejected("`in` takes a list")
            argument = [argument]
        found = any(_equal(kind, actual, item) for item in argument)
        return found if op == "in" else not found
    if op == "eq":
        return _equal(kind, actual, argument)
    if op == "ne":
        return not _equal(kind, actual, argument)
    if op in ("contains", "icontains"):
        return _contains(kind, actual, argument, op)
    return _compare(kind, op, actual, argument, strict)


def _equal(kind: str, actual: Any, expected: Any) -> bool:
    if actual is MISSING or actual is None:
        return False
    if kind == "categories":  # membership: one of the record's categories
        return isinstance(actual, list) and expected in actual
    if kind == "time":
        return _when(actual) is not None and _when(actual) == _when(expected)
    return type(actual) is type(expected) and actual == expected


def _contains(kind: str, actual: Any, text: Any, op: str) -> bool:
    if actual is MISSING or actual is None or not isinstance(text, str):
        return False
    if kind == "categories":  # documented: case-insensitive
        return isinstance(actual, list) and any(
            isinstance(c, str) and text.lower() in c.lower() for c in actual
        )
    if isinstance(actual, list):
        return text in actual
    if not isinstance(actual, str):
        return False
    return text.lower() in actual.lower() if op == "icontains" else text in actual


def _compare(kind: str, op: str, actual: Any, bound: Any, strict: bool) -> bool:
    if strict and kind != "time":
        raise Rejected(f"`{op}` is accepted on time fields only")
    left, right = _when(actual), _when(bound)
    if right is None:
        raise Rejected(f"{bound!r} is not an ISO-8601 date")
    if left is None:
        return False
    return {
        "gt": left > right,
        "gte": left >= right,
        "lt": left < right,
        "lte": left <= right,
    }[op]


def _when(value: Any) -> datetime | None:
    """An ISO-8601 string (`YYYY-MM-DD` or with a time, `Z` allowed) as an aware datetime."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)
