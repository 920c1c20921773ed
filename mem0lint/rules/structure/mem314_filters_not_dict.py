"""MEM314: `filters=` given a list, string or number instead of a dict."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import ListValue, Scalar
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_filters import FILTER_METHODS


class FiltersNotDict(Rule):
    code = "MEM314"
    versions = {"mem0ai": ">=2.0.0"}
    name = "filters-not-dict"
    dialects = MEM0
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`filters=` given a list, string or number instead of a dict"
    why = (
        "`filters` is one JSON object. Open source fails on anything else (a list has no entity "
        "key: ValueError; a string has no `.copy()`: AttributeError); the Platform rejects it."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters=[{"user_id": "u"}, {"run_id": "r"}])',
            good='client.search("q", filters={"AND": [{"user_id": "u"}, {"run_id": "r"}]})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters="u")',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        value = site.filters
        if isinstance(value, ListValue):
            kind = "list" if isinstance(value.node, cst.List) else "tuple"
        elif isinstance(value, Scalar) and value.value is not None:
            kind = type(value.value).__name__
        else:
            return
        yield Finding(
            value.node,
            f"`filters` must be a dict (got {kind}); for several conditions use "
            '`{"AND": [...]}` or `{"OR": [...]}`',
        )
