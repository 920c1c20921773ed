"""MEM112: A literal `top_k` outside the accepted range."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import in_range, number
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import RANGE_REJECTED_BY, TOP_K_RANGE


def describe_range(bounds: tuple) -> str:
    low, high = bounds
    return f"{low}-{high}" if high is not None else f">= {low}"


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
        arg = site.keyword("top_k")
        value = number(arg) if arg is not None else None
        if not isinstance(value, int):
            return  # floats, strings, bools: MEM503
        bounds = TOP_K_RANGE[site.dialect.id]
        if in_range(value, bounds):
            return
        yield Finding(
            arg,
            f"`top_k={value}` is invalid: `{site.method}()` accepts an int "
            f"{describe_range(bounds)} ({RANGE_REJECTED_BY[site.dialect.id]})",
        )
