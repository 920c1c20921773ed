"""MEM119: `MemoryClient(org_id=..., project_id=...)`: parameters removed in mem0ai 2.x."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CONSTRUCTOR, CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_arguments import REMOVED_CLIENT_PARAMS


class RemovedClientParam(Rule):
    code = "MEM119"
    versions = {"mem0ai": ">=2.0.0"}
    name = "removed-client-param"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({CONSTRUCTOR})
    severity = Severity.ERROR
    summary = "`MemoryClient(org_id=..., project_id=...)`: parameters removed in mem0ai 2.x"
    why = (
        "`MemoryClient` and `AsyncMemoryClient` take only `api_key`, `host` and `client`; the "
        "organisation and project are derived from the API key. The old `org_id` / "
        "`project_id` (and `org_name` / `project_name`) keywords raise TypeError."
    )
    fix_safety = "safe (the removed keywords are deleted)"
    examples = [
        Example(
            "mem0-platform",
            bad="""
            from mem0 import MemoryClient

            client = MemoryClient(api_key=key, org_id="org-1", project_id="proj-1")
            """,
            good="""
            from mem0 import MemoryClient

            client = MemoryClient(api_key=key)
            """,
            fixed="""
            from mem0 import MemoryClient

            client = MemoryClient(api_key=key)
            """,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        removed = [a for name, a in site.keywords.items() if name in REMOVED_CLIENT_PARAMS]
        if not removed:
            return
        kept = [a for a in site.call.args if not any(a is r for r in removed)]
        names = ", ".join(f"`{a.keyword.value}`" for a in removed)
        fix = Fix(
            Applicability.SAFE,
            f"Remove {names}",
            ((site.call, fixes.with_args(site.call, kept)),),
        )
        for arg in removed:
            yield Finding(
                arg,
                f"`{arg.keyword.value}=` was removed in mem0ai 2.x (TypeError); the organisation "
                "and project come from the API key",
                fix,
            )
