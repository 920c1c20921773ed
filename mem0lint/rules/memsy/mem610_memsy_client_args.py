"""MEM610: `MemsyClient()` without `base_url` or `api_key`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CONSTRUCTOR, CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.sdk.memsy import GRAMMAR


class MemsyClientArgs(Rule):
    code = "MEM610"
    name = "memsy-client-args"
    dialects = MEMSY
    methods = frozenset({CONSTRUCTOR})
    severity = Severity.ERROR
    summary = "`MemsyClient()` without `base_url` or `api_key`"
    why = (
        "Both are required positional-or-keyword parameters with no environment fallback "
        "(unlike mem0's `MEM0_API_KEY`): leaving one out raises TypeError."
    )
    examples = [
        Example(
            "memsy",
            bad="""
            import os

            from memsy import MemsyClient

            client = MemsyClient(api_key=os.environ["MEMSY_API_KEY"])
            """,
            good="""
            import os

            from memsy import MemsyClient

            client = MemsyClient(os.environ["MEMSY_BASE_URL"], os.environ["MEMSY_API_KEY"])
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args:
            return
        given = set(GRAMMAR.client_params[: len(site.positional)]) | set(site.keywords)
        missing = [p for p in GRAMMAR.client_required if p not in given]
        if missing:
            names = " and ".join(f"`{p}`" for p in missing)
            yield Finding(
                site.call,
                f"`MemsyClient` requires {names} (no environment fallback): TypeError",
            )
