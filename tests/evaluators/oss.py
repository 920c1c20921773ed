"""Open-source mem0 on its default vector store, Qdrant (spec §3.2).

Two readings of a filter over a record's payload (entity ids, dates and the metadata keys,
flattened into one dict: `payload(record)`):

- `select_real`: what the SDK does. `Memory.search()` itself validates and translates the filter
  (a `Memory` whose vector-store call is captured), mem0's `Qdrant._create_filter` builds the
  Qdrant filter, and qdrant-client's local mode (Qdrant's own Python implementation of payload
  filtering) decides each record. Any ValueError on the way is `Rejected`.
- `select_intended`: the meaning the author wrote, with Qdrant's semantics for each operator,
  written out by hand: `AND`/`OR`/`NOT` any spelling, `NOT` object or list (= none of), entity ids
  anywhere, `{"metadata": {...}}` and `"metadata.k"` read as the flat keys, `$gte`/`>=` as `gte`,
  a scalar `in` as a one-element list, `"*"` a no-op (as on Qdrant).

The two agree on filters the SDK accepts; tests/test_equivalence.py checks that they do.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timezone
from typing import Any

from . import spelling

os.environ.setdefault("MEM0_TELEMETRY", "False")


class Rejected(Exception):
    """mem0 open source (or Qdrant) raises for this filter."""


ENTITIES = ("user_id", "agent_id", "run_id")
MISSING = object()


def payload(record: dict) -> dict:
    """How mem0 open source stores a memory: metadata keys sit beside the entity ids."""
    flat = {k: v for k, v in record.items() if k not in ("metadata", "categories")}
    metadata = record.get("metadata")
    if isinstance(metadata, dict):
        for key, value in metadata.items():
            flat.setdefault(key, value)
    return flat


# --- what the SDK does --------------------------------------------------------------------------


def translate(filters: Any) -> Any:
    """The filter `Memory.search()` hands to the vector store (raises Rejected like the SDK)."""
    from mem0 import Memory

    memory = Memory.__new__(Memory)  # no embedder, store or LLM: only the filter path runs
    memory.api_version = "v1.1"
    captured = {}

    def capture(query, effective_filters, *args, **kwargs):
        captured["filters"] = effective_filters
        return []

    memory._search_vector_store = capture
    try:
        memory.search("q", filters=filters)
    except (ValueError, TypeError, AttributeError) as error:
        raise Rejected(str(error)) from None
    return captured["filters"]


def qdrant_filter(store_filters: dict):
    from mem0.vector_stores.qdrant import Qdrant

    try:
        return Qdrant._create_filter(Qdrant.__new__(Qdrant), store_filters)
    except (ValueError, TypeError) as error:  # pydantic's ValidationError is a ValueError
        raise Rejected(str(error)) from None


def select_real(filters: Any, records: list[dict]) -> list[int]:
    from qdrant_client.local.payload_filters import check_filter

    built = qdrant_filter(translate(filters))
    if built is None:
        return list(range(len(records)))
    return [
        i
        for i, record in enumerate(records)
        if check_filter(built, payload(record), point_id=i, has_vector={})
    ]


# --- what the author meant ----------------------------------------------------------------------


def select_intended(filters: Any, records: list[dict]) -> list[int]:
    return [i for i, record in enumerate(records) if matches(filters, payload(record))]


def matches(condition: Any, flat: dict) -> bool:
    if not isinstance(condition, dict):
        raise Rejected(f"a condition must be a dict, got {condition!r}")
    return all(_entry(key, value, flat) for key, value in condition.items())


def _entry(key: str, value: Any, flat: dict) -> bool:
    name = spelling.logical(key)
    if name == "NOT":
        items = value if isinstance(value, list) else [value]
        return not any(matches(c, flat) for c in items)
    if name is not None:
        items = value if isinstance(value, list) else [value]
        results = [matches(c, flat) for c in items]
        return all(results) if name == "AND" else any(results)
    if key == "metadata" and isinstance(value, dict):
        return matches(value, flat)
    if isinstance(key, str) and key.startswith("metadata."):
        key = key[len("metadata.") :]
    return _field(value, flat.get(spelling.field(key), MISSING))


def _field(value: Any, actual: Any) -> bool:
    if value == "*":
        return True  # Qdrant: the wildcard adds no condition at all
    if isinstance(value, list):
        return _match_any(actual, value)
    if not isinstance(value, dict):
        return _match_any(actual, [value])
    ops = {spelling.operator(k) or k: v for k, v in value.items()}
    ranges = {op: v for op, v in ops.items() if op in ("gt", "gte", "lt", "lte")}
    results = [_range(actual, ranges)] if ranges else []
    for op, argument in ops.items():
        if op in ranges:
            continue
        if op in ("in", "nin") and not isinstance(argument, list):
            argument = [argument]
        if op == "eq":
            results.append(_match_any(actual, [argument]))
        elif op == "in":
            results.append(_match_any(actual, argument))
        elif op == "ne":
            results.append(_match_except(actual, [argument]))
        elif op == "nin":
            results.append(_match_except(actual, argument))
        elif op in ("contains", "icontains"):
            results.append(_match_text(actual, argument))
        else:
            raise Rejected(f"unknown operator {op!r}")
    return all(results)


def _values(actual: Any) -> list:
    if actual is MISSING:
        return []
    return actual if isinstance(actual, list) else [actual]


def _same(value: Any, other: Any) -> bool:
    """Qdrant keeps bool, int and float apart where Python would not."""
    if isinstance(value, bool) != isinstance(other, bool):
        return False
    if isinstance(value, float) != isinstance(other, float):
        return False
    return value == other


def _match_any(actual: Any, wanted: list) -> bool:
    return any(_same(v, w) for v in _values(actual) for w in wanted)


def _match_except(actual: Any, unwanted: list) -> bool:
    """Qdrant `except`: some stored value, not null, differs from all of them (missing: no)."""
    return any(v is not None and not any(_same(v, u) for u in unwanted) for v in _values(actual))


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in re.findall(r"[^\W_]+", text)]


def _match_text(actual: Any, text: Any) -> bool:
    """Qdrant text match without a text index: every query word is a word of the value."""
    query = _tokens(text) if isinstance(text, str) else []
    return any(
        isinstance(v, str) and query and set(query) <= set(_tokens(v)) for v in _values(actual)
    )


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$")


def _range(actual: Any, bounds: dict) -> bool:
    if all(isinstance(b, str) and _ISO.match(b) for b in bounds.values()):
        wanted = {op: _when(b) for op, b in bounds.items()}
        values = [_when(v) for v in _values(actual) if isinstance(v, str)]
    elif all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in bounds.values()):
        wanted = dict(bounds)
        values = [
            v for v in _values(actual) if isinstance(v, (int, float)) and not isinstance(v, bool)
        ]
    else:
        raise Rejected(f"range bounds must be numbers or ISO dates: {bounds!r}")
    checks = {
        "gt": lambda a, b: a > b,
        "gte": lambda a, b: a >= b,
        "lt": lambda a, b: a < b,
        "lte": lambda a, b: a <= b,
    }
    return any(v is not None and all(checks[op](v, b) for op, b in wanted.items()) for v in values)


def _when(value: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00").replace(" ", "T"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)
