"""MEM311: `AND` / `OR` given one condition object (or, in open source, a tuple), not a list."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, ListValue, Scalar
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import condition_dicts, logical_name
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class LogicalValueNotList(Rule):
    code = "MEM311"
    versions = {"mem0ai": ">=2.0.0"}
    name = "logical-value-not-list"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`AND` / `OR` given one condition object (or, in open source, a tuple), not a list"
    why = (
        "`AND` and `OR` take a list of condition objects in both SDKs. Open source raises "
        '"AND operator requires a list of conditions" (ValueError); the Platform rejects the '
        "filter."
    )
    fix_safety = "safe; a single condition object is wrapped in a list, a tuple becomes a list"
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"OR": {"user_id": "u"}})',
            good='client.search("q", filters={"OR": [{"user_id": "u"}]})',
            fixed='client.search("q", filters={"OR": [{"user_id": "u"}]})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "AND": {"topic": "food"}})',
            good='memory.search("q", filters={"user_id": "u", "AND": [{"topic": "food"}]})',
            fixed='memory.search("q", filters={"user_id": "u", "AND": [{"topic": "food"}]})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "OR": ({"a": 1}, {"b": 2})})',
            good='memory.search("q", filters={"user_id": "u", "OR": [{"a": 1}, {"b": 2}]})',
            fixed='memory.search("q", filters={"user_id": "u", "OR": [{"a": 1}, {"b": 2}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        rejected_by = site.dialect.grammar.rejected_by
        for condition in condition_dicts(site.filters):
            for entry in condition.node.entries:
                name = logical_name(entry.key)
                if name is None:
                    continue
                value = entry.value
                if name == "NOT" and not isinstance(value, ListValue):
                    continue  # the object-or-list question is MEM301's
                if isinstance(value, DictValue):
                    fix = None
                    if value.entries:  # an empty one is MEM312's
                        fix = Fix(
                            Applicability.SAFE,
                            "Wrap the condition in a list",
                            ((value.node, cst.List([cst.Element(value.node)])),),
                        )
                elif isinstance(value, Scalar):
                    fix = None
                elif (
                    isinstance(value, ListValue)
                    and isinstance(value.node, cst.Tuple)
                    and site.dialect.grammar.logical_needs_list_type
                ):
                    yield self._tuple(entry, value)
                    continue
                else:
                    continue
                yield Finding(
                    value.node,
                    f"`{entry.key}` takes a list of condition objects ({rejected_by}): "
                    f"`{entry.key}: [{{...}}]`",
                    fix,
                )

    @staticmethod
    def _tuple(entry: Entry, value: ListValue) -> Finding:
        elements = list(value.node.elements)
        if len(elements) == 1:  # `(c,)`: the comma only made it a tuple
            elements[0] = fixes.strip_comma(elements[0])
        as_list = cst.List(elements)
        return Finding(
            value.node,
            f"`{entry.key}` must be a list, not a tuple: open source checks "
            "`isinstance(value, list)` and raises ValueError",
            Fix(Applicability.SAFE, "Use a list", ((value.node, as_list),)),
        )
