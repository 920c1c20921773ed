"""MEM653: A keyword MemOS's method does not declare (`top_k`, `limit`, `metadata`...)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.claims import keywords_claimed_elsewhere
from mem0lint.rules.memos.shared import FILTER_METHODS, MEMOS
from mem0lint.rules.sdk_args import number, rename_fix, unknown_keywords
from mem0lint.sdk.memos import GRAMMAR


class MemosUnknownKwarg(Rule):
    code = "MEM653"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-unknown-kwarg"
    dialects = MEMOS
    methods = FILTER_METHODS | {"add_message", "delete_memory", "update_memory"}
    severity = Severity.ERROR
    summary = "A keyword MemOS's method does not declare (`top_k`, `limit`, `metadata`...)"
    why = (
        "MemOS methods have no `**kwargs`: an unknown keyword raises TypeError. The result cap "
        "is `memory_limit_number`, the score floor `relativity`, the conversation "
        "`conversation_id` (it prioritises, it does not filter)."
    )
    fix_safety = (
        "safe renames: `top_k` / `limit` -> `memory_limit_number` (value <= 25), `threshold` / "
        "`min_score` -> `relativity` (value in [0, 1]), `session_id` -> `conversation_id`, "
        "`metadata` -> `info` (`add_message`); "
        "unsafe beside `**kwargs` (it may hold the new keyword)"
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", top_k=9, threshold=0.8)',
            good='client.search_memory("q", user_id="u_1", memory_limit_number=9, relativity=0.8)',
            fixed='client.search_memory("q", user_id="u_1", memory_limit_number=9, relativity=0.8)',
        ),
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", session_id="0928")',
            good='client.search_memory("q", user_id="u_1", conversation_id="0928")',
            fixed='client.search_memory("q", user_id="u_1", conversation_id="0928")',
        ),
        Example(
            "memos",
            bad='client.add_message(messages, user_id="u_1", metadata={"k": "v"})',
            good='client.add_message(messages, user_id="u_1", info={"k": "v"})',
            fixed='client.add_message(messages, user_id="u_1", info={"k": "v"})',
        ),
        Example(
            "memos",
            bad="""
            def search(**options):
                return client.search_memory("q", user_id="u_1", top_k=9, **options)
            search()
            """,
            good="""
            def search(**options):
                return client.search_memory("q", user_id="u_1", memory_limit_number=9, **options)
            search()
            """,
            fixed="""
            def search(**options):
                return client.search_memory("q", user_id="u_1", memory_limit_number=9, **options)
            search()
            """,
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        claimed = keywords_claimed_elsewhere(self, site.dialect.id)  # `filters`: MEM652
        for arg in unknown_keywords(site):
            name = arg.keyword.value
            if name in claimed:
                continue
            target = GRAMMAR.keyword_renames.get(name)
            if target is not None and target not in site.spec.params:
                target = None
            fix = None
            if target is not None:
                value = number(arg.value)
                bounds = GRAMMAR.rename_ranges.get(target)
                if value is None or bounds is None or bounds.contains(value):
                    fix = rename_fix(site, arg, target, GRAMMAR.keyword_renames)
            message = f"`{name}` is not a MemOS `{site.method}()` parameter (TypeError)"
            if target is not None:
                message += f"; use `{target}`"
            yield Finding(arg, message, fix)
