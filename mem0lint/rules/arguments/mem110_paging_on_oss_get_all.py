"""MEM110: `limit=`, `page=`, `page_size=` on open source `Memory.get_all()`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import rename_fix
from mem0lint.sdk.mem0_arguments import RESULT_CAP_ALIASES


class PagingOnOssGetAll(Rule):
    code = "MEM110"
    versions = {"mem0ai": ">=2.0.0"}
    name = "paging-on-oss-get-all"
    dialects = frozenset({"mem0-oss"})
    methods = frozenset({"get_all"})
    claims_keywords = frozenset({*RESULT_CAP_ALIASES, "page_size", "page"})
    renames = dict.fromkeys((*RESULT_CAP_ALIASES, "page_size"), "top_k")
    severity = Severity.WARNING
    summary = "`limit=`, `page=`, `page_size=` on open source `Memory.get_all()`"
    why = (
        "Open source `get_all()` has no paging: `limit`, `page` and `page_size` are silently "
        "ignored and the call returns up to `top_k` memories (default 20)."
    )
    fix_safety = (
        "safe for `limit=` and the other result-cap spellings (renamed to `top_k`) with an int "
        "literal >= 0 (`None`, a bool, a float or a negative number raise); unsafe for a value "
        "that is not a literal and for "
        "`page_size=` (renamed to `top_k`: one page of that size, no later pages); no fix for "
        "`page=`"
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, limit=100)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=100)',
            fixed='memory.get_all(filters={"user_id": "alice"}, top_k=100)',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, page_size=50)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=50)',
            fixed='memory.get_all(filters={"user_id": "alice"}, top_k=50)',
            unsafe=True,
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "alice"}, page=2)',
            good='memory.get_all(filters={"user_id": "alice"}, top_k=200)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        default = site.spec.defaults["top_k"]
        for name in (*RESULT_CAP_ALIASES, "page_size", "page"):
            arg = site.keyword(name)
            if arg is None:
                continue
            fix = None
            if name != "page":
                fix = rename_fix(
                    site, arg, "top_k", f"Rename `{name}` to `top_k`", safe=name != "page_size"
                )
            yield Finding(
                arg,
                f"`Memory.get_all()` has no paging: `{name}=` is silently ignored; the cap is "
                f"`top_k` (default {default})",
                fix,
            )
