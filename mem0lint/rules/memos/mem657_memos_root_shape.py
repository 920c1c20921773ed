"""MEM657: A bare condition at the root of a MemOS filter (or of a source group)."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import Entry, ListValue
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS, SOURCE_KEYS, Group, groups


class MemosRootShape(Rule):
    code = "MEM657"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-root-shape"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "A bare condition at the root of a MemOS filter (or of a source group)"
    why = (
        "The root must be one `and` / `or` group, or source keys (`user`, `agent`, `public`, "
        '`knowledgebase`) each holding such a group. A bare `{"scene": "chat"}` root is '
        "not read as a condition and the filter is ignored."
    )
    fix_safety = "safe (the bare conditions are wrapped in, or moved into, the `and` group)"
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u", filter={"scene": "chat", "biz_id": "b1"})',
            good=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}, '
                '{"biz_id": "b1"}]})'
            ),
            fixed=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}, '
                '{"biz_id": "b1"}]})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for group in groups(site.filters):
            if group.role == "item":
                continue
            node = group.node
            if group.role == "root" and SOURCE_KEYS.intersection(node.keys()):
                continue  # per-source mode; a bare key next to source keys is MEM661's
            bare = group.field_entries()
            if not bare:
                continue
            yield Finding(
                bare[0].element,
                "a bare condition at the filter root is ignored by MemOS; put the conditions "
                'in an `"and"` list',
                self._fix(group, bare),
            )

    @staticmethod
    def _fix(group: Group, bare: list[Entry]) -> Fix | None:
        node = group.node
        if not node.complete:
            return None
        logical = group.logical_entries()
        conditions = [
            cst.Element(fixes.single_line_dict([fixes.strip_comma(e.element)])) for e in bare
        ]
        if not logical:
            new = node.node.with_changes(
                elements=[fixes.dict_element("and", cst.List(conditions), like=bare[0].key_node)]
            )
        elif len(logical) == 1 and logical[0].key == "and" and len(bare) + 1 == len(node.entries):
            # Siblings of the root `and` are ANDed with it: moving them inside keeps the meaning.
            items = logical[0].value
            if not isinstance(items, ListValue) or not isinstance(items.node, cst.List):
                return None
            new_list = fixes.with_elements(items.node, [*items.node.elements, *conditions])
            new = node.node.with_changes(
                elements=fixes.normalise_commas(
                    node.node.elements, [logical[0].element.with_changes(value=new_list)]
                )
            )
        else:
            return None
        return Fix(
            Applicability.SAFE, 'Wrap the conditions in an `"and"` list', ((node.node, new),)
        )
