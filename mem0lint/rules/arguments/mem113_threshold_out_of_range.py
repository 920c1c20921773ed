"""MEM113: A literal `threshold` outside [0, 1]."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules import mirrors
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import RANGE_REJECTED_BY, THRESHOLD_RANGE
from mem0lint.sdk.model import Range


class ThresholdOutOfRange(Rule):
    code = "MEM113"
    versions = {"mem0ai": ">=2.0.0"}
    name = "threshold-out-of-range"
    dialects = MEM0
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "A literal `threshold` outside [0, 1]"
    why = (
        "mem0 scores are in [0, 1]. Open source `search()` raises ValueError for any threshold "
        "outside that range; the Platform API rejects it. A percentage (`threshold=70`) is the "
        "usual cause."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, threshold=70)',
            good='client.search("q", filters={"user_id": "alice"}, threshold=0.7)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, threshold=1.5)',
            good='memory.search("q", filters={"user_id": "alice"}, threshold=1.0)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        bounds = Range(*THRESHOLD_RANGE)
        yield from mirrors.out_of_range(
            site,
            "threshold",
            bounds,
            lambda value: (
                f"`threshold={value}` must be a number in [{bounds.low}, {bounds.high}] "
                f"({RANGE_REJECTED_BY[site.dialect.id]})"
            ),
        )
