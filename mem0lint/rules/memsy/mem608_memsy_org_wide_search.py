"""MEM608: A Memsy search scoped to a conversation but not to an actor."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.sdk.memsy import GRAMMAR


class MemsyOrgWideSearch(Rule):
    code = "MEM608"
    versions = {"memsy": ">=0.3.5"}
    name = "memsy-org-wide-search"
    dialects = MEMSY
    methods = frozenset({"search"})
    severity = Severity.INFO
    summary = "A Memsy search scoped to a conversation but not to an actor"
    why = (
        "Without `actor_id` a search runs across every actor in the organisation. Alone that is "
        "a deliberate admin search, so it is not reported; next to `session_id` / "
        "`exclude_session_id` it is an end-user flow that forgot the actor: session-less "
        "memories of every actor pass the conversation scope."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", session_id="conv_7")',
            good='client.search("q", actor_id="user_42", session_id="conv_7")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args or site.keyword("actor_id") is not None:
            return
        scoped = any(site.keyword(p) is not None for p in GRAMMAR.session_params)
        # `user_id=` / `agent_id=` meant the actor: MEM692 already says to rename it.
        meant_actor = any(site.keyword(k) is not None for k in ("user_id", "agent_id"))
        if scoped and not meant_actor:
            yield Finding(
                site.call.func,
                "no `actor_id`: this search runs across every actor in the organisation "
                "(session-less memories of all actors pass the conversation scope)",
            )
