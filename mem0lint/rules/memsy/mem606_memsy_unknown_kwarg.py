"""MEM606: A keyword Memsy's method does not declare (mem0's own words: MEM692)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.claims import keywords_claimed_elsewhere
from mem0lint.rules.memsy.shared import MEMSY, keyword_finding
from mem0lint.rules.sdk_args import unknown_keywords


class MemsyUnknownKwarg(Rule):
    code = "MEM606"
    name = "memsy-unknown-kwarg"
    dialects = MEMSY
    methods = frozenset({"search", "memories.list", "EventPayload"})
    severity = Severity.ERROR
    summary = "A keyword Memsy's method does not declare (mem0's own words: MEM692)"
    why = (
        "Memsy methods have no `**kwargs`: an unknown keyword raises TypeError before any "
        "request. Keywords from mem0 (`top_k`, `user_id`, `filters`) are reported by MEM692."
    )
    fix_safety = (
        "safe renames: `k` / `n` / `max_results` -> `limit`, `min_score` / `score_threshold` "
        "-> `threshold`, `conversation_id` / `thread_id` -> `session_id`; unsafe beside "
        "`**kwargs` (it may hold the new keyword); no fix when two keywords would become one"
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", min_score=0.3)',
            good='client.search("q", actor_id="u1", threshold=0.3)',
            fixed='client.search("q", actor_id="u1", threshold=0.3)',
        ),
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", conversation_id="conv_7", k=5)',
            good='client.search("q", actor_id="u1", session_id="conv_7", limit=5)',
            fixed='client.search("q", actor_id="u1", session_id="conv_7", limit=5)',
        ),
        Example(
            "memsy",
            bad="""
            def search(**options):
                return client.search("q", actor_id="u1", min_score=0.3, **options)
            search()
            """,
            good="""
            def search(**options):
                return client.search("q", actor_id="u1", threshold=0.3, **options)
            search()
            """,
            fixed="""
            def search(**options):
                return client.search("q", actor_id="u1", threshold=0.3, **options)
            search()
            """,
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        claimed = keywords_claimed_elsewhere(self, site.dialect.id)  # mem0's words: MEM692
        for arg in unknown_keywords(site):
            if arg.keyword.value not in claimed:
                yield keyword_finding(site, arg, mem0_style=False)
