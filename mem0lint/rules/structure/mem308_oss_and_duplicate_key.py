"""MEM308: Open source `search()`: the same field twice across the root and its `AND`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, ListValue
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.common import logical_name


class OssAndDuplicateKey(Rule):
    code = "MEM308"
    versions = {"mem0ai": ">=2.0.0"}
    name = "oss-and-duplicate-key"
    dialects = frozenset({"mem0-oss"})
    methods = frozenset({"search"})
    severity = Severity.WARNING
    summary = "Open source `search()`: the same field twice across the root and its `AND`"
    why = (
        "`Memory.search()` flattens the root `AND` list and the root's own keys into one dict. "
        "A field that appears twice keeps only the last value, silently: "
        '`{"user_id": "u", "AND": [{"user_id": "v"}]}` searches user v. Two operator dicts '
        "are merged, so `gte` in one and `lte` in another is fine."
    )
    examples = [
        Example(
            "mem0-oss",
            bad=(
                'memory.search("q", filters={"user_id": "u", '
                '"AND": [{"topic": "food"}, {"topic": "travel"}]})'
            ),
            good=(
                'memory.search("q", filters={"user_id": "u", "topic": {"in": ["food", "travel"]}})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        root = site.filters
        if not isinstance(root, DictValue) or not root.complete:
            return
        if not any(e.key in site.dialect.grammar.entity_fields for e in root.entries):
            return  # the call raises before flattening (MEM401 / MEM402)
        # Only the exact key `AND` is flattened; the rest reaches the store as written.
        seen: dict[str, Entry] = {}
        for entry in root.entries:
            if entry.key == "AND" and isinstance(entry.value, ListValue):
                for item in entry.value.items:
                    if not isinstance(item, DictValue):
                        return  # a hidden key could be anywhere
                    for inner in item.entries:
                        yield from self._merge(seen, inner)
            elif logical_name(entry.key) is None:
                yield from self._merge(seen, entry)

    @staticmethod
    def _merge(seen: dict[str, Entry], entry: Entry) -> Iterator[Finding]:
        if entry.key is None:
            return
        earlier = seen.get(entry.key)
        seen[entry.key] = entry
        if earlier is None:
            return
        a, b = earlier.value, entry.value
        if (
            isinstance(a, DictValue)
            and isinstance(b, DictValue)
            and a.complete
            and b.complete
            and not set(a.keys()) & set(b.keys())
        ):
            return  # operator dicts with different operators merge into one condition
        yield Finding(
            entry.key_node,
            f"open source `search()` flattens `AND`: this `{entry.key}` silently replaces the "
            "earlier one (last wins); combine them in one condition",
        )
