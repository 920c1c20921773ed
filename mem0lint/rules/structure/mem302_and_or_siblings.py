"""MEM302: `AND` and `OR` as keys of the same dict: the Platform drops the `OR`."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import Entry, ListValue
from mem0lint.fixbuilders import filters as filter_fixes
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import ConditionDict, condition_dicts
from mem0lint.rules.structure.shared import logical_entries, replace_entries
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class AndOrSiblings(Rule):
    code = "MEM302"
    versions = {"mem0ai": ">=2.0.0"}
    name = "and-or-siblings"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`AND` and `OR` as keys of the same dict: the Platform drops the `OR`"
    why = (
        "Sibling keys of a filter dict are ANDed, so `{AND: [a, b], OR: [c, d]}` reads as "
        "a and b and (c or d). The Platform silently drops the `OR` branch instead and returns "
        "results that ignore it. Nesting the `OR` inside the `AND` list says the same thing in a "
        "form the Platform evaluates."
    )
    fix_safety = (
        "safe: the `OR` object moves into the `AND` list; an `OR` held by a variable: "
        "safe when it is bound once to a non-empty list of conditions, else unsafe"
    )
    examples = [
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u"}], "OR": [{"run_id": "a"}, {"run_id": "b"}]},
            )
            """,
            good="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u"}, {"OR": [{"run_id": "a"}, {"run_id": "b"}]}]},
            )
            """,
            fixed="""
            client.search(
                "q",
                filters={"AND": [{"user_id": "u"}, {"OR": [{"run_id": "a"}, {"run_id": "b"}]}]},
            )
            """,
        ),
        Example(
            "mem0-platform",
            bad="""
            def search(alternatives):
                return client.search("q", filters={"AND": [{"user_id": "u"}], "OR": alternatives})
            search([{"agent_id": "a"}])
            """,
            good="""
            def search(alternatives):
                return client.search("q", filters={"AND": [{"user_id": "u"}, {"OR": alternatives}]})
            search([{"agent_id": "a"}])
            """,
            fixed="""
            def search(alternatives):
                return client.search("q", filters={"AND": [{"user_id": "u"}, {"OR": alternatives}]})
            search([{"agent_id": "a"}])
            """,
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in condition_dicts(site.filters):
            ands = logical_entries(condition.node, "AND")
            ors = logical_entries(condition.node, "OR")
            if not ands or not ors:
                continue
            fix = None
            if len(ands) == 1 and len(ors) == 1:
                fix = self._fix(condition, ands[0], ors[0])
                fix = fix or filter_fixes.or_variable_into_and(site, condition, ands[0], ors[0])
            yield Finding(
                ors[0].key_node,
                f"`{ors[0].key}` next to `{ands[0].key}` is silently dropped by the Platform; "
                f"move the `{ors[0].key}` object into the `{ands[0].key}` list",
                fix,
            )

    @staticmethod
    def _fix(condition: ConditionDict, and_entry: Entry, or_entry: Entry) -> Fix | None:
        and_list, or_list = and_entry.value, or_entry.value
        if not isinstance(and_list, ListValue) or not and_list.items:
            return None
        if not isinstance(or_list, ListValue) or not or_list.items:
            return None
        moved = cst.Element(fixes.single_line_dict([or_entry.element]))
        new_list = fixes.with_elements(and_list.node, [*and_list.node.elements, moved])
        new_dict = replace_entries(
            condition.node,
            {
                id(and_entry.element): and_entry.element.with_changes(value=new_list),
                id(or_entry.element): None,
            },
        )
        return Fix(
            Applicability.SAFE,
            f"Move `{or_entry.key}` into the `{and_entry.key}` list",
            ((condition.node.node, new_dict),),
        )
