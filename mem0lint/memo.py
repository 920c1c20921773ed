"""What is computed from one top-level statement alone, kept while the statement is.

The language server re-parses only the statements an edit touched (incremental.py): every other
top-level statement of the new module is the very node object of the last version. libcst nodes
never change, so anything computed from a statement's own subtree (and nothing else) is the same
for the same object; the server keeps such results between lints of a document (`active`), and
drops those of statements that are gone (`keep_only`). The memo holds each statement it keys by,
so an id is never reused while its entry lives. Outside the server nothing is kept: `get` then
just computes.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Hashable, Iterable, Iterator, TypeVar, Union

import libcst as cst

T = TypeVar("T")


class StatementMemo:
    """(purpose, statement) -> what `compute(statement)` gave, for the statements still alive."""

    def __init__(self) -> None:
        self._kept: dict[tuple[Hashable, int], tuple[cst.CSTNode, object]] = {}
        self.hits = 0  # results reused (for tests)

    def get(
        self, purpose: Hashable, statement: cst.CSTNode, compute: Callable[[cst.CSTNode], T]
    ) -> T:
        key = (purpose, id(statement))
        found = self._kept.get(key)
        if found is not None and found[0] is statement:
            self.hits += 1
            return found[1]  # type: ignore[return-value]
        value = compute(statement)
        self._kept[key] = (statement, value)
        return value

    def keep_only(self, statements: Iterable[cst.CSTNode]) -> None:
        """Forget every result of a statement not among `statements` (the current module's)."""
        alive = {id(statement) for statement in statements}
        for key in [key for key in self._kept if key[1] not in alive]:
            del self._kept[key]

    def __len__(self) -> int:
        return len(self._kept)


_ACTIVE: ContextVar[Union[StatementMemo, None]] = ContextVar("mem0lint_memo", default=None)


@contextmanager
def active(memo: StatementMemo) -> Iterator[StatementMemo]:
    """`statement_result` keeps its results in `memo` within."""
    token = _ACTIVE.set(memo)
    try:
        yield memo
    finally:
        _ACTIVE.reset(token)


def statement_result(
    purpose: Hashable, statement: cst.CSTNode, compute: Callable[[cst.CSTNode], T]
) -> T:
    """`compute(statement)`, kept in the active memo when there is one. `compute` must read
    nothing but the statement's own subtree."""
    memo = _ACTIVE.get()
    return compute(statement) if memo is None else memo.get(purpose, statement, compute)
