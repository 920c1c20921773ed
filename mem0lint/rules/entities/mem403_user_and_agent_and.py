"""MEM403: `user_id` AND `agent_id` in one conjunction: matches almost nothing on the Platform."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, ListValue, Opaque, Scalar
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import ConditionDict, condition_dicts, logical_name
from mem0lint.rules.entities.shared import equality_value
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class UserAndAgentAnd(Rule):
    code = "MEM403"
    versions = {"mem0ai": ">=2.0.0"}
    name = "user-and-agent-and"
    dialects = frozenset({PLATFORM.id})
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`user_id` AND `agent_id` in one conjunction: matches almost nothing on the Platform"
    why = (
        "A memory added by the Platform carries either a user id or an agent id, not both "
        "(only Direct Import with `infer=False` writes both). Requiring both returns an empty "
        "result; to search a user's and an agent's memories use `OR`."
    )
    fix_safety = (
        "unsafe, since `OR` asks a different question; right unless the data came from Direct "
        "Import"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "agent_id": "a"})',
            good='client.search("q", filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
            fixed='client.search("q", filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
            unsafe=True,
        ),
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"AND": [{"user_id": "u"}, {"agent_id": "a"}]})',
            good='client.get_all(filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
            fixed='client.get_all(filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
            unsafe=True,
        ),
    ]

    PAIR = ("user_id", "agent_id")

    def check(self, site: CallSite) -> Iterator[Finding]:
        for condition in condition_dicts(site.filters):
            if "NOT" in condition.path:
                continue  # excluding records with both ids is a different question
            if condition.path and condition.path[-1] == "AND":
                continue  # judged with the dict that holds the AND
            found = self._conjunction(condition.node)
            if all(found.get(name) for name in self.PAIR):
                user, agent = found["user_id"][0], found["agent_id"][0]
                yield Finding(
                    agent[0].key_node,
                    "`user_id` AND `agent_id` together match only memories carrying both ids "
                    "(Direct Import); memories added normally carry one of them: did you mean "
                    '`{"OR": [{"user_id": ...}, {"agent_id": ...}]}`?',
                    self._fix(condition, user, agent),
                )

    def _conjunction(self, node: DictValue) -> dict[str, list[tuple[Entry, DictValue]]]:
        """Entity equality conditions ANDed together in `node`: its keys and its AND lists."""
        found: dict[str, list] = {}
        for entry in node.entries:
            if entry.key in self.PAIR and self._is_id(entry.value):
                found.setdefault(entry.key, []).append((entry, node))
            elif logical_name(entry.key) == "AND" and isinstance(entry.value, ListValue):
                for item in entry.value.items:
                    if isinstance(item, DictValue):
                        for key, hits in self._conjunction(item).items():
                            found.setdefault(key, []).extend(hits)
        return found

    @staticmethod
    def _is_id(value) -> bool:
        compared = equality_value(value)
        if isinstance(compared, Scalar):
            value = compared.value
            return isinstance(value, (str, int)) and not isinstance(value, bool) and value != "*"
        return isinstance(compared, Opaque)

    @staticmethod
    def _fix(condition: ConditionDict, user, agent) -> Fix | None:
        (user_entry, user_owner), (agent_entry, agent_owner) = user, agent
        node = condition.node
        if not node.complete:
            return None
        pair = [
            cst.Element(fixes.single_line_dict([user_entry.element])),
            cst.Element(fixes.single_line_dict([agent_entry.element])),
        ]
        or_list = fixes.with_elements(cst.List([]), pair)
        if user_owner is node and agent_owner is node:
            # Flat: {"user_id": u, "agent_id": a, ...} -> {"OR": [...], ...}, unless another
            # logical key would end up next to the new OR (MEM302).
            if any(logical_name(e.key) for e in node.entries):
                return None
            or_entry = fixes.dict_element("OR", or_list, like=user_entry.key_node)
            elements = []
            for element in node.node.elements:
                if element is user_entry.element:
                    elements.append(or_entry.with_changes(comma=element.comma))
                elif element is not agent_entry.element:
                    elements.append(element)
            new = fixes.with_elements(node.node, elements)
        else:
            # {"AND": [{"user_id": u}, {"agent_id": a}]}: both single-key children of one AND.
            ands = [e for e in node.entries if logical_name(e.key) == "AND"]
            if (
                len(node.entries) != 1
                or len(ands) != 1
                or not isinstance(ands[0].value, ListValue)
                or len(ands[0].value.items) != 2
                or {id(user_owner), id(agent_owner)} != {id(i) for i in ands[0].value.items}
                or len(user_owner.entries) != 1
                or len(agent_owner.entries) != 1
            ):
                return None
            # The AND list is the pair: only its key changes (its layout and comments stay).
            new = ands[0].key_node, fixes.string_like(ands[0].key_node, "OR")
            return Fix(Applicability.UNSAFE, "Match memories of the user OR the agent", (new,))
        return Fix(
            Applicability.UNSAFE,
            "Match memories of the user OR the agent",
            ((node.node, new),),
        )
