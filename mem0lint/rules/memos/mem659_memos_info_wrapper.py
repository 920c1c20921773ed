"""MEM659: Info fields wrapped in `{"info": {...}}` in a MemOS filter."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS, groups


class MemosInfoWrapper(Rule):
    code = "MEM659"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-info-wrapper"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = 'Info fields wrapped in `{"info": {...}}` in a MemOS filter'
    why = "MemOS Cloud filters address `info` fields by their bare name (`scene`, `biz_id`)."
    fix_safety = "safe"
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u", filter={"and": [{"info": {"a": "x"}}]})',
            good='client.search_memory("q", user_id="u", filter={"and": [{"a": "x"}]})',
            fixed='client.search_memory("q", user_id="u", filter={"and": [{"a": "x"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for group in groups(site.filters):
            for entry in group.field_entries():
                if entry.key != "info" or not isinstance(entry.value, DictValue):
                    continue
                inner = entry.value
                fix = None
                clash = set(group.node.keys()).intersection(inner.keys())
                if inner.complete and inner.entries and not clash:
                    elements = []
                    for element in group.node.node.elements:
                        if element is entry.element:
                            elements.extend(inner.node.elements)
                        else:
                            elements.append(element)
                    new = fixes.with_elements(group.node.node, elements)
                    fix = Fix(
                        Applicability.SAFE, "Unwrap the `info` fields", ((group.node.node, new),)
                    )
                yield Finding(
                    entry.key_node,
                    "write info fields by their bare name, not under `info`",
                    fix,
                )
