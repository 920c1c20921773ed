"""MEM104: `use_rerank=`, `reranking=`, `reorder=` on `search()`: the keyword is `rerank`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import not_a_parameter, rename_fix
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import RERANK_ALIASES


class UnknownRerankKwarg(Rule):
    code = "MEM104"
    versions = {"mem0ai": ">=2.0.0"}
    name = "unknown-rerank-kwarg"
    dialects = MEM0
    methods = frozenset({"search"})
    claims_keywords = frozenset(RERANK_ALIASES)
    renames = dict.fromkeys(RERANK_ALIASES, "rerank")
    severity = Severity.WARNING
    summary = "`use_rerank=`, `reranking=`, `reorder=` on `search()`: the keyword is `rerank`"
    why = (
        "mem0's `search()` ignores keywords it does not know: `use_rerank=True` returns the "
        "results unreranked, without any error."
    )
    fix_safety = (
        "safe (renamed to `rerank`, unless `rerank` is already given) for a bool literal; unsafe "
        "for a value that is not a literal; no fix for other literals"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "alice"}, use_rerank=True)',
            good='client.search("q", filters={"user_id": "alice"}, rerank=True)',
            fixed='client.search("q", filters={"user_id": "alice"}, rerank=True)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "alice"}, reranking=True)',
            good='memory.search("q", filters={"user_id": "alice"}, rerank=True)',
            fixed='memory.search("q", filters={"user_id": "alice"}, rerank=True)',
        ),
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"}, use_rerank=flag)',
            good='client.search("q", filters={"user_id": "u"}, rerank=flag)',
            fixed='client.search("q", filters={"user_id": "u"}, rerank=flag)',
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for alias in RERANK_ALIASES:
            arg = site.keyword(alias)
            if arg is None:
                continue
            yield Finding(
                arg,
                f"{not_a_parameter(site, alias)}; use `rerank=`",
                rename_fix(site, arg, "rerank", f"Rename `{alias}` to `rerank`"),
            )
