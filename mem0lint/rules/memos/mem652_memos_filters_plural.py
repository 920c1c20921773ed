"""MEM652: `filters=` (mem0's spelling) on MemOS, which takes `filter=`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS
from mem0lint.rules.sdk_args import rename_fix


class MemosFiltersPlural(Rule):
    code = "MEM652"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-filters-plural"
    dialects = MEMOS
    methods = FILTER_METHODS
    claims_keywords = frozenset({"filters"})
    severity = Severity.ERROR
    summary = "`filters=` (mem0's spelling) on MemOS, which takes `filter=`"
    why = (
        "MemOS methods have no `**kwargs`: `filters=` raises TypeError. The singular `filter=` "
        "is MemOS's name; `filters=` is mem0's."
    )
    fix_safety = "safe (renamed to `filter`, unless `filter` is already given)"
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", filters={"and": [{"scene": "chat"}]})',
            good='client.search_memory("q", user_id="u_1", filter={"and": [{"scene": "chat"}]})',
            fixed='client.search_memory("q", user_id="u_1", filter={"and": [{"scene": "chat"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        yield from mirrors.other_filter_keyword(
            site,
            lambda both: (
                f"MemOS `{site.method}()` takes `filter=`, not mem0's `filters=` (TypeError)"
            ),
            lambda arg, right: rename_fix(site, arg, right, {arg.keyword.value: right}),
        )
