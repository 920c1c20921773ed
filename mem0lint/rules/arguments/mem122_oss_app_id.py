"""MEM122: `app_id=` on open source `search()` / `get_all()`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import not_a_parameter


class OssAppId(Rule):
    code = "MEM122"
    versions = {"mem0ai": ">=2.0.0"}
    name = "oss-app-id"
    dialects = frozenset({"mem0-oss"})
    methods = frozenset({"search", "get_all"})
    claims_keywords = frozenset({"app_id"})
    severity = Severity.WARNING
    summary = "`app_id=` on open source `search()` / `get_all()`"
    why = (
        "Open source mem0 scopes memories by `user_id`, `agent_id` and `run_id` only. An "
        "`app_id=` keyword is not rejected like the other entity ids: it is silently ignored, "
        "so the call is not scoped to the app."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u"}, app_id="shop")',
            good='memory.search("q", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("app_id")
        if arg is None:
            return
        yield Finding(
            arg,
            f"{not_a_parameter(site, 'app_id')}: mem0 open source has no app scope; scope the "
            "call by `user_id` / `agent_id` / `run_id` in `filters`",
        )
