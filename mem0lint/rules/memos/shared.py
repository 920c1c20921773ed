"""What several MemOS rules share: the family's methods, and how a MemOS filter is read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from mem0lint.filtertree import DictValue, Entry, FilterNode, ListValue
from mem0lint.rules.common import logical_name
from mem0lint.sdk.memos import GRAMMAR

MEMOS = frozenset({"memos"})
FILTER_METHODS = GRAMMAR.filter_methods
SOURCE_KEYS = GRAMMAR.source_keys
# The grammar's logical keys, normalised (`AND`, `OR`) as `logical_name` spells them.
LOGICAL = frozenset(logical_name(k) for k in GRAMMAR.logical)


@dataclass(eq=False)
class Group:
    """A dict in condition position: the root, a source group, or an item of an and/or list."""

    node: DictValue
    # "root", "source" (the value of `user`/`agent`/...), or "item" (inside an and/or list).
    role: str

    def logical_entries(self) -> list[Entry]:
        return [e for e in self.node.entries if logical_name(e.key) in LOGICAL]

    def field_entries(self) -> list[Entry]:
        return [
            e
            for e in self.node.entries
            if e.key is not None
            and logical_name(e.key) is None
            and not (self.role == "root" and e.key in SOURCE_KEYS)
        ]


def groups(root: FilterNode | None) -> Iterator[Group]:
    if not isinstance(root, DictValue):
        return
    yield from _groups(root, "root")


def _groups(node: DictValue, role: str) -> Iterator[Group]:
    group = Group(node, role)
    yield group
    for entry in node.entries:
        if role == "root" and entry.key in SOURCE_KEYS and isinstance(entry.value, DictValue):
            yield from _groups(entry.value, "source")
        elif logical_name(entry.key) in LOGICAL and isinstance(entry.value, ListValue):
            for item in entry.value.items:
                if isinstance(item, DictValue):
                    yield from _groups(item, "item")


def fields(root: FilterNode | None) -> Iterator[Entry]:
    """Field conditions (`scene: "chat"`, `create_time: {...}`), inside `info` wrappers too."""
    for group in groups(root):
        for entry in group.field_entries():
            yield entry
            if entry.key == "info" and isinstance(entry.value, DictValue):
                yield from (e for e in entry.value.entries if e.key is not None)
