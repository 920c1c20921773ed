"""MEM112: A literal `top_k` outside the accepted range."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import RANGE_REJECTED_BY, TOP_K_RANGE
from mem0lint.sdk.model import Range


class TopKOutOfRange(Rule):
    code = "MEM112"
    versions = {"mem0ai": ">=2.0.0"}
    name = "top-k-out-of-range"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.ERROR
    summary = "A literal `top_k` outside the accepted range"
    why = (
        "The Platform API accepts `top_k` 1-1000 and rejects other values; open source "
        "`Memory.search()` / `get_all()` raise ValueError for a negative `top_k`."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, top_k=0)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=1)',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, top_k=-1)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=0)',
        ),
    ]

    def applies_to(self, site: CallSite) -> bool:
        # Platform get_all() has no top_k at all (MEM109).
        return super().applies_to(site) and "top_k" in site.spec.params

    def check(self, site: CallSite) -> Iterator[Finding]:
        # Only ints are judged here: floats, strings and bools are MEM503's.
        bounds = Range(*TOP_K_RANGE[site.dialect.id], integer=True)
        yield from mirrors.out_of_range(
            site,
            "top_k",
            bounds,
            lambda value: (
                f"`top_k={value}` is invalid: `{site.method}()` accepts an int "
                f"{bounds.span()} ({RANGE_REJECTED_BY[site.dialect.id]})"
            ),
        )
