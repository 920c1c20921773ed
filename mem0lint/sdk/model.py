"""Shapes of SDK facts shared by the per-SDK modules (plain data: no libcst here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

Number = Union[int, float]


@dataclass(frozen=True)
class Range:
    """The values an SDK (or its server) accepts for a numeric argument; None: unbounded."""

    low: Union[Number, None] = None
    high: Union[Number, None] = None
    # Only int literals are judged against it (a float is another rule's business).
    integer: bool = False

    def contains(self, value: Number) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def span(self) -> str:
        """`1-100`, `>= 0` or `<= 25`, for messages."""
        if self.low is not None and self.high is not None:
            return f"{self.low}-{self.high}"
        return f">= {self.low}" if self.low is not None else f"<= {self.high}"


@dataclass(frozen=True)
class EmptyText:
    """When an SDK rejects a text argument (a search query) as empty before sending it."""

    # A whitespace-only string counts as empty (the SDK strips it: mem0's `query.strip()`).
    strips: bool
    # None counts as empty (the SDK tests truthiness: MemOS's `if not query`).
    none: bool
