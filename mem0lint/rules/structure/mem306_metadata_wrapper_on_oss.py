"""MEM306: `{"metadata": {...}}` in an open-source filter."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import ConditionDict, condition_dicts, logical_name
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class MetadataWrapperOnOss(Rule):
    code = "MEM306"
    versions = {"mem0ai": ">=2.0.0"}
    name = "metadata-wrapper-on-oss"
    dialects = frozenset({"mem0-oss"})
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = '`{"metadata": {...}}` in an open-source filter'
    why = (
        "Open source stores metadata flattened into the payload, so metadata keys are top-level "
        'filter keys. A `{"metadata": {"k": v}}` wrapper is read as field `metadata` with '
        'operator `k`: ValueError ("Unsupported metadata filter operator" in `search()`, '
        '"Unsupported filter operator(s)" from the Qdrant store).'
    )
    fix_safety = "safe; the inner keys move up one level when none of them is taken"
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "metadata": {"topic": "food"}})',
            good='memory.search("q", filters={"user_id": "u", "topic": "food"})',
            fixed='memory.search("q", filters={"user_id": "u", "topic": "food"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        grammar = site.dialect.grammar
        for condition in condition_dicts(site.filters):
            entry = condition.node.get("metadata")
            inner = entry.value if entry is not None else None
            if not isinstance(inner, DictValue):
                continue
            if any(e.key in grammar.operators for e in inner.entries):
                continue  # an operator on a payload field that happens to be named `metadata`
            yield Finding(
                entry.key_node,
                "open source metadata keys are top-level filter keys; the `metadata` wrapper "
                "raises ValueError: write the inner keys directly",
                self._fix(site, condition, entry, inner),
            )

    @staticmethod
    def _fix(site: CallSite, condition: ConditionDict, entry: Entry, inner: DictValue):
        grammar = site.dialect.grammar
        siblings = set(condition.node.keys()) - {"metadata"}
        keys = inner.keys()
        if (
            not inner.entries
            or not inner.complete
            or not condition.node.complete
            or len(set(keys)) != len(keys)
            or any(
                k in siblings
                or k in grammar.entity_fields
                or k == "metadata"
                or logical_name(k) is not None
                or k.startswith("$")
                for k in keys
            )
        ):
            return None
        elements = []
        for element in condition.node.node.elements:
            if element is entry.element:
                moved = [fixes.strip_comma(e.element) for e in inner.entries]
                moved[-1] = moved[-1].with_changes(comma=element.comma)
                elements.extend(moved)
            else:
                elements.append(element)
        new = fixes.with_elements(condition.node.node, elements)
        return Fix(
            Applicability.SAFE,
            "Move the metadata keys to the top level of this condition",
            ((condition.node.node, new),),
        )
