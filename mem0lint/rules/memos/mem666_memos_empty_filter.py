"""MEM666: `filter={}` on MemOS `search_memory()`: the Cloud answers HTTP 400."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.sdk.memos import WRITES


class MemosEmptyFilter(Rule):
    code = "MEM666"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-empty-filter"
    dialects = MEMOS
    methods = WRITES.empty_filter_rejected_in
    severity = Severity.ERROR
    summary = "`filter={}` on MemOS `search_memory()` (HTTP 400: the filter cannot be empty)"
    why = (
        "`MemOSClient` sends `filter` unchanged, and the Cloud rejects an empty object: HTTP 400 "
        '"Invalid request parameters: filter object cannot be empty" (MemTensor/MemOS#1718). '
        "Leaving the keyword out sends `null`, which means no filter."
    )
    fix_safety = (
        "safe: removing `filter={}` makes the client send `null`, the value of a call without a "
        "filter (an empty filter and no filter mean the same: MemTensor/MemOS#1788); only a `{}` "
        "written in the call is removed"
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", filter={})',
            good='client.search_memory("q", user_id="u_1")',
            fixed='client.search_memory("q", user_id="u_1")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("filter")
        if arg is None:
            return
        value = site.follow(arg.value)
        if not (isinstance(value, cst.Dict) and not value.elements):
            return
        fix = None
        if value is arg.value:
            rest = [a for a in site.call.args if a is not arg]
            fix = Fix(
                Applicability.SAFE,
                "Remove `filter={}`",
                ((site.call, fixes.with_args(site.call, rest)),),
            )
        yield Finding(
            arg,
            "`filter={}` is sent as an empty object, which the MemOS Cloud rejects (HTTP 400: "
            "filter object cannot be empty); leave `filter` out for no filter",
            fix,
        )
