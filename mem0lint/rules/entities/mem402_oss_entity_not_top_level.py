"""MEM402: Open source: the only entity ids of the filter sit inside `AND` / `OR` / `NOT`."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, ListValue, Opaque, Scalar
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import FieldCondition, logical_name
from mem0lint.rules.entities.shared import entity_conditions, oss_scope_missing
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class OssEntityNotTopLevel(Rule):
    code = "MEM402"
    versions = {"mem0ai": ">=2.0.0"}
    name = "oss-entity-not-top-level"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "Open source: the only entity ids of the filter sit inside `AND` / `OR` / `NOT`"
    why = (
        "Open source checks `user_id`, `agent_id` and `run_id` with `key in filters` on the top "
        'level only, so `{"AND": [{"user_id": u}, ...]}` raises ValueError ("filters must '
        'contain at least one of: user_id, agent_id, run_id"). Put the entity id next to `AND`.'
    )
    fix_safety = (
        "safe for a scalar entity condition that is a direct child of the root `AND` (the "
        "two forms are the same conjunction); unsafe when its value is a variable (a non-scalar "
        "value would turn into an entity-id error); none inside `OR` / `NOT`"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"AND": [{"user_id": "u"}, {"topic": "food"}]})',
            good='memory.search("q", filters={"user_id": "u", "AND": [{"topic": "food"}]})',
            fixed='memory.search("q", filters={"user_id": "u", "AND": [{"topic": "food"}]})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"OR": [{"user_id": "a"}, {"user_id": "b"}]})',
            good="""
            for user in ("a", "b"):
                memory.search("q", filters={"user_id": user})
            """,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"AND": [{"user_id": user}, {"topic": "food"}]})',
            good='memory.search("q", filters={"user_id": user, "AND": [{"topic": "food"}]})',
            fixed='memory.search("q", filters={"user_id": user, "AND": [{"topic": "food"}]})',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        root = site.filters
        if not oss_scope_missing(site):
            return
        nested = entity_conditions(site)
        if not nested:
            return
        fix = self._fix(site, root, nested)
        for condition in nested:
            where = condition.owner.path[0]
            hoistable = fix is not None and self._hoistable(root, condition)
            advice = (
                f"hoist `{condition.field}` out of `{where}`"
                if hoistable or where == "AND"
                else f"an entity id inside `{where}` is not a scope: run one call per id"
            )
            yield Finding(
                condition.entry.key_node,
                "open source only sees entity ids at the top level of `filters` (ValueError "
                f'"filters must contain at least one of: user_id, agent_id, run_id"); {advice}',
                fix if hoistable else None,
            )

    @staticmethod
    def _root_and(root: DictValue) -> Entry | None:
        ands = [e for e in root.entries if logical_name(e.key) == "AND"]
        return ands[0] if len(ands) == 1 and isinstance(ands[0].value, ListValue) else None

    def _hoistable(self, root: DictValue, condition: FieldCondition) -> bool:
        and_entry = self._root_and(root)
        owner = condition.owner
        return (
            and_entry is not None
            and owner.parent_list is and_entry.value
            and owner.node.complete
            and isinstance(condition.entry.value, (Scalar, Opaque))
            and not (
                isinstance(condition.entry.value, Scalar)
                and (
                    not isinstance(condition.entry.value.value, (str, int))
                    or isinstance(condition.entry.value.value, bool)
                )
            )
        )

    def _fix(self, site: CallSite, root: DictValue, nested: list[FieldCondition]) -> Fix | None:
        and_entry = self._root_and(root)
        if and_entry is None or not root.complete:
            return None
        hoisted = [c for c in nested if self._hoistable(root, c)]
        if not hoisted:
            return None
        names = [c.field for c in hoisted]
        if len(set(names)) != len(names):
            return None  # the same id twice: the author must choose
        lifted = {id(c.entry.element) for c in hoisted}
        kept_items = []
        for item in and_entry.value.items:
            element = next(e for e in and_entry.value.node.elements if e.value is item.node)
            if not isinstance(item, DictValue) or not any(
                id(e.element) in lifted for e in item.entries
            ):
                kept_items.append(element)
                continue
            rest = [e.element for e in item.entries if id(e.element) not in lifted]
            if rest:
                kept_items.append(element.with_changes(value=fixes.with_elements(item.node, rest)))
        new_entries = [fixes.strip_comma(c.entry.element) for c in hoisted]
        elements = []
        for element in root.node.elements:
            if element is and_entry.element:
                elements.extend(new_entries)
                if kept_items:
                    new_list = fixes.with_elements(and_entry.value.node, kept_items)
                    elements.append(element.with_changes(value=new_list))
            else:
                elements.append(element)
        unsafe = any(isinstance(c.entry.value, Opaque) for c in hoisted)
        listed = ", ".join(f"`{n}`" for n in names)
        return Fix(
            Applicability.UNSAFE if unsafe else Applicability.SAFE,
            f"Hoist {listed} to the top level"
            + (" (assumes the variable holds one plain id)" if unsafe else ""),
            ((root.node, fixes.with_elements(root.node, elements)),),
        )
