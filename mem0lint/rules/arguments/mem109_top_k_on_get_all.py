"""MEM109: `top_k=` (or `limit=`...) on Platform `get_all()`, which paginates instead."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import ignored_by, in_range, number, rename_fix
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_arguments import PAGE_SIZE_RANGE, RESULT_CAP_ALIASES


class TopKOnGetAll(Rule):
    code = "MEM109"
    versions = {"mem0ai": ">=2.0.0"}
    name = "top-k-on-get-all"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"get_all"})
    claims_keywords = frozenset({"top_k", *RESULT_CAP_ALIASES})
    renames = dict.fromkeys(("top_k", *RESULT_CAP_ALIASES), "page_size")
    severity = Severity.WARNING
    summary = "`top_k=` (or `limit=`...) on Platform `get_all()`, which paginates instead"
    why = (
        "Platform `get_all()` has no result cap: `top_k` is sent and silently ignored, and the "
        "call returns a full first page (100 memories). Its size is `page_size` (1-200)."
    )
    fix_safety = (
        "unsafe (renamed to `page_size`: you get the first page of that size; only for a value "
        "that is not a literal or a literal in 1-200)"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.get_all(filters={"user_id": "alice"}, top_k=20)',
            good='client.get_all(filters={"user_id": "alice"}, page_size=20)',
            fixed='client.get_all(filters={"user_id": "alice"}, page_size=20)',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in ("top_k", *RESULT_CAP_ALIASES):
            arg = site.keyword(name)
            if arg is None:
                continue
            value = number(arg)
            is_literal, _ = literal_value(arg.value)
            fix = None
            if (value is not None and in_range(value, PAGE_SIZE_RANGE)) or not is_literal:
                fix = rename_fix(
                    site, arg, "page_size", f"Rename `{name}` to `page_size`", safe=False
                )
            yield Finding(
                arg,
                f"Platform `get_all()` ignores `{name}=` ({ignored_by(site)}); it "
                "paginates with `page` / `page_size` (page_size 1-200, default 100)",
                fix,
            )
