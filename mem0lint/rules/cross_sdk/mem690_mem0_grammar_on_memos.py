"""MEM690: mem0's `search()` / `get_all()` / `delete_all()` called on a MemOS client."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.sdk.memos import GRAMMAR


class Mem0GrammarOnMemos(Rule):
    code = "MEM690"
    versions = {"memoryos": ">=2.0.24"}
    name = "mem0-grammar-on-memos"
    dialects = frozenset({"memos"})
    severity = Severity.ERROR
    summary = "mem0's `search()` / `get_all()` / `delete_all()` called on a MemOS client"
    why = (
        "`MemOSClient` has no `search`, `get_all` or `delete_all` (AttributeError): those are "
        "mem0's methods. MemOS searches with `search_memory(query, user_id=..., filter=...)`."
    )
    examples = [
        Example(
            "memos",
            bad='client.search("trip plans", filters={"user_id": "u_1"})',
            good='client.search_memory("trip plans", user_id="u_1")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        instead = GRAMMAR.instead_of_mem0.get(site.method)
        if instead is not None:
            yield Finding(
                site.call.func,
                f"`MemOSClient` has no `{site.method}()` (AttributeError): that is mem0's API; "
                f"MemOS uses `{instead}`",
            )
