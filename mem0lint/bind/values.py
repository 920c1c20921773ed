"""The small value lattice the binder computes for an expression.

A value is a frozenset of SDK dialect ids (a union: the object is one of these clients), or None:
unknown. The empty set is "no client at all" (`client = None` placeholders, names not yet bound)
and joins to nothing. Unknown absorbs everything: a union with an unknown member is unknown, and
unknown stays silent.
"""

from __future__ import annotations

from typing import FrozenSet, Iterable, Optional

from mem0lint.sdk.dialects import DIALECTS, HTTP_TRANSPORT, Dialect

# Dialects are not hashable (they hold tables): values hold their ids.
Value = Optional[FrozenSet[str]]

NOTHING: FrozenSet[str] = frozenset()

_BY_ID = {**DIALECTS, HTTP_TRANSPORT.id: HTTP_TRANSPORT}


def of(dialect: Optional[Dialect]) -> Value:
    return None if dialect is None else frozenset({dialect.id})


def dialect(dialect_id: str) -> Dialect:
    return _BY_ID[dialect_id]


def join(values: Iterable[Value]) -> Value:
    """The least upper bound: the union of the members, unknown if any is unknown."""
    found: set[str] = set()
    for value in values:
        if value is None:
            return None
        found |= value
    return frozenset(found)


def join_bound(values: list[Value]) -> Value:
    """A join over the ways a name is bound: no binding at all (or only `None` placeholders)
    says nothing about the object, so it is unknown."""
    joined = join(values)
    return joined if joined else None


def only(value: Value) -> Optional[Dialect]:
    """The one dialect of a value, or None for unknown, nothing, or a union."""
    if value is not None and len(value) == 1:
        return _BY_ID[next(iter(value))]
    return None


def members(value: FrozenSet[str]) -> list[Dialect]:
    """The members in a stable order (by id), so union judging is deterministic."""
    return [_BY_ID[i] for i in sorted(value)]
