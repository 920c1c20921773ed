"""MEM651: MemOS `search_memory()` / `get_memory()` without exactly one `user_id` / `agent_id`."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.rules.sdk_args import argument, certainly_non_empty, literal
from mem0lint.sdk.memos import GRAMMAR


class MemosSubjectExactlyOne(Rule):
    code = "MEM651"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-subject-exactly-one"
    dialects = MEMOS
    methods = GRAMMAR.subject_methods
    severity = Severity.ERROR
    summary = "MemOS `search_memory()` / `get_memory()` without exactly one `user_id` / `agent_id`"
    why = (
        "The client raises ValueError('exactly one of user_id or agent_id is required') before "
        "sending when both or neither is given (an empty string counts as absent). One user per "
        "request; agent-wide memory goes through `agent_id` alone."
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory(query="trip plans", conversation_id="0928")',
            good='client.search_memory(query="trip plans", user_id="memos_user_123")',
        ),
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", agent_id="travel_bot")',
            good='client.search_memory("q", agent_id="travel_bot")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args:
            return
        states = [_presence(argument(site, p)) for p in GRAMMAR.subject_params]
        if states == ["absent", "absent"] or states == ["present", "present"]:
            what = "neither is given" if states[0] == "absent" else "both are given"
            yield Finding(
                site.call.func,
                f"`{site.method}()` needs exactly one of `user_id` / `agent_id`, but {what} "
                "(ValueError)",
            )


def _presence(arg: cst.Arg | None) -> str:
    """ "absent" (missing, None or ""), "present" (a non-empty literal) or "unknown"."""
    if arg is None or literal(arg.value) in (None, ""):
        return "absent"
    return "present" if certainly_non_empty(arg.value) else "unknown"
