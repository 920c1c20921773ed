"""MEM669: MemOS `get_memory(size=...)` above 50: the client raises ValueError."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.rules.sdk_args import argument, number
from mem0lint.sdk.memos import GRAMMAR


class MemosGetMemorySize(Rule):
    code = "MEM669"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-get-memory-size"
    dialects = MEMOS
    methods = frozenset(GRAMMAR.client_maximums)
    severity = Severity.ERROR
    summary = "MemOS `get_memory(size=...)` above 50 (ValueError)"
    why = (
        "`get_memory()` pages its results and checks the page size before sending: `size > 50` "
        "raises ValueError('size must be less than or equal to 50'). Read more with `page=`."
    )
    examples = [
        Example(
            "memos",
            bad='client.get_memory(user_id="u_1", size=100)',
            good='client.get_memory(user_id="u_1", size=50)',
        ),
        Example(
            "memos",
            bad='client.get_memory("u_1", True, 1, 200)',
            good='client.get_memory("u_1", True, 1, 50)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name, maximum in GRAMMAR.client_maximums.get(site.method, {}).items():
            arg = argument(site, name)
            value = number(arg.value) if arg is not None else None
            if value is not None and value > maximum:
                yield Finding(
                    arg,
                    f"`{site.method}()` raises ValueError for `{name}` above {maximum} (got "
                    f"{value:g}); read further pages with `page=`",
                )
