"""MEM102: `limit=`, `k=`, `max_results=`... on `search()`: the cap is `top_k`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import rename_fix
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import RESULT_CAP_ALIASES


class UnknownResultCapKwarg(Rule):
    code = "MEM102"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-result-cap-kwarg"
    dialects = MEM0
    methods = frozenset({"search"})
    claims_keywords = frozenset(RESULT_CAP_ALIASES)
    renames = dict.fromkeys(RESULT_CAP_ALIASES, "top_k")
    severity = Severity.WARNING
    summary = "`limit=`, `k=`, `max_results=`... on `search()`: the cap is `top_k`"
    why = (
        "mem0's `search()` accepts unknown keywords and ignores them: `limit=5` returns the "
        "default number of results (Platform 10, open source 20) without any error."
    )
    fix_safety = (
        "safe (renamed to `top_k`) for a literal `top_k` accepts (an int, not a bool: Platform "
        "1-1000, open source >= 0), unless `top_k` is already given; unsafe for a value that is "
        "not a literal (`None` raises on open source); no fix for other literals"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, limit=5)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=5)',
            fixed='client.search("q", filters={"user_id": "alice"}, top_k=5)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, k=3)',
            good='memory.search("q", filters={"user_id": "alice"}, top_k=3)',
            fixed='memory.search("q", filters={"user_id": "alice"}, top_k=3)',
        ),
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"}, limit=n)',
            good='client.search("q", filters={"user_id": "u"}, top_k=n)',
            fixed='client.search("q", filters={"user_id": "u"}, top_k=n)',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        default = site.spec.defaults["top_k"]
        for alias in RESULT_CAP_ALIASES:
            arg = site.keyword(alias)
            if arg is None:
                continue
            fix = rename_fix(site, arg, "top_k", f"Rename `{alias}` to `top_k`")
            yield Finding(
                arg,
                f"`{alias}=` is silently ignored by `{site.method}()`; the result cap is "
                f"`top_k` (default {default})",
                fix,
            )
