"""MEM601: Memsy `search()` with both `session_id` and `exclude_session_id`."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memsy.shared import MEMSY
from mem0lint.rules.sdk_args import certainly_non_empty
from mem0lint.sdk.memsy import GRAMMAR


class MemsySessionAndExclude(Rule):
    code = "MEM601"
    versions = {"memsy": ">=0.3.5"}
    name = "memsy-session-and-exclude"
    dialects = MEMSY
    methods = frozenset({"search"})
    severity = Severity.ERROR
    summary = "Memsy `search()` with both `session_id` and `exclude_session_id`"
    why = (
        "The two scopes are mutually exclusive: sending both non-empty is rejected with HTTP "
        "422. They do not cancel out into 'search everything'; for that, send neither."
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", actor_id="u1", session_id="conv_7", exclude_session_id="c_6")',
            good='client.search("q", actor_id="u1", exclude_session_id="conv_6")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        args = [site.keyword(p) for p in GRAMMAR.session_params]
        # Only when both are certainly non-empty: a variable may be None, "" counts as unset.
        if all(a is not None and certainly_non_empty(a.value) for a in args):
            yield Finding(
                args[1],
                "`session_id` and `exclude_session_id` are mutually exclusive (HTTP 422); keep "
                "one, or send neither to search all conversations",
            )
