"""MEM301: `NOT` written in the other SDK's shape (Platform: one object; open source: a list)."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, ListValue, Scalar
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import condition_dicts
from mem0lint.rules.structure.shared import logical_entries
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class NotShape(Rule):
    code = "MEM301"
    versions = {"mem0ai": ">=2.0.0"}
    name = "not-shape"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = {"mem0-platform": Severity.WARNING, "mem0-oss": Severity.ERROR}
    summary = "`NOT` written in the other SDK's shape (Platform: one object; open source: a list)"
    why = (
        "The two mem0 SDKs disagree on `NOT`. The Platform documents one condition object, "
        '`{"NOT": {...}}`; open source requires a non-empty list, `{"NOT": [{...}]}`, and raises '
        '"NOT operator requires a non-empty list of conditions" (ValueError) for an object.'
    )
    fix_safety = (
        "safe; Platform `[c]` -> `c`, open source `c` -> `[c]`; a Platform list of "
        "several conditions is reported only (its meaning is undocumented)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u", "NOT": [{"run_id": "r1"}]})',
            good='client.search("q", filters={"user_id": "u", "NOT": {"run_id": "r1"}})',
            fixed='client.search("q", filters={"user_id": "u", "NOT": {"run_id": "r1"}})',
        ),
        Example(
            "mem0-platform",
            bad="""
            client.search(
                "q",
                filters={"user_id": "u", "NOT": [{"categories": {"in": ["a"]}}, {"run_id": "r"}]},
            )
            """,
            good="""
            client.search(
                "q",
                filters={
                    "user_id": "u",
                    "NOT": {"OR": [{"categories": {"in": ["a"]}}, {"run_id": "r"}]},
                },
            )
            """,
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "NOT": {"topic": "work"}})',
            good='memory.search("q", filters={"user_id": "u", "NOT": [{"topic": "work"}]})',
            fixed='memory.search("q", filters={"user_id": "u", "NOT": [{"topic": "work"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        wants_object = site.dialect.grammar.logical["NOT"] == "object"
        for condition in condition_dicts(site.filters):
            for entry in logical_entries(condition.node, "NOT"):
                finding = self._platform(entry) if wants_object else self._open_source(site, entry)
                if finding is not None:
                    yield finding

    @staticmethod
    def _platform(entry: Entry) -> Finding | None:
        value = entry.value
        if isinstance(value, ListValue):
            if not value.items:
                return None  # MEM312
            only = value.items[0]
            if len(value.items) == 1:
                # `NOT` of an empty condition is left alone: MEM312 reports it.
                empty = isinstance(only, DictValue) and not only.entries
                fix = (
                    None
                    if empty
                    else Fix(
                        Applicability.SAFE,
                        "Unwrap the single condition",
                        ((value.node, only.node),),
                    )
                )
                return Finding(
                    value.node, "Platform `NOT` takes one condition object, not a list", fix
                )
            return Finding(
                value.node,
                "Platform `NOT` takes one condition object; to exclude any of several "
                'conditions write `{"NOT": {"OR": [...]}}`',
            )
        if isinstance(value, Scalar):
            return Finding(value.node, "Platform `NOT` takes one condition object")
        return None

    @staticmethod
    def _open_source(site: CallSite, entry: Entry) -> Finding | None:
        value = entry.value
        if isinstance(value, DictValue):
            # An empty object would become `[{}]`, which the store reads as "no condition".
            fix = None
            if value.entries:
                fix = Fix(
                    Applicability.SAFE,
                    "Wrap the condition in a list",
                    ((value.node, cst.List([cst.Element(value.node)])),),
                )
            return Finding(
                value.node,
                'open source `NOT` takes a non-empty list of conditions, `{"NOT": [{...}]}`; '
                "an object raises ValueError",
                fix,
            )
        if isinstance(value, Scalar):
            return Finding(
                value.node, "open source `NOT` takes a non-empty list of conditions (ValueError)"
            )
        return None
