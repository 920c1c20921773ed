"""MEM154: `reset(user_id=...)`: `reset()` takes no arguments, and deletes everything."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import WIPE_ALL, client_class


class ResetWithArguments(Rule):
    code = "MEM154"
    name = "reset-with-arguments"
    dialects = MEM0
    methods = frozenset({"reset"})
    # No `versions`: `reset(self)` on all four clients in every wheel read (0.1.32, 0.1.55,
    # 0.1.114, 1.0.0, 1.0.1, 2.2.1).
    severity = Severity.ERROR
    summary = "`reset(user_id=...)`: `reset()` takes no arguments, and deletes everything"
    why = (
        "`reset()` declares no parameter on any mem0 client: an argument raises `TypeError`. "
        "The call reads as a scoped delete, but `reset()` has no scope: without the argument it "
        "deletes every user's memories (Platform: every user, agent, app and run of the "
        "project; open source: the whole vector collection and the history database). "
        "One entity's memories go with `delete_all(user_id=...)`."
    )
    fix_safety = "none (removing the argument would turn the error into a wipe of everything)"
    examples = [
        Example(
            "mem0-oss",
            bad='memory.reset(user_id="alice")',
            good='memory.delete_all(user_id="alice")',
        ),
        Example(
            "mem0-platform",
            bad='client.reset(user_id="alice")',
            good='client.delete_all(user_id="alice")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if not site.call.args:
            return
        what = WIPE_ALL[(site.dialect.id, "reset")]
        scope = next((a for a in site.call.args if a.keyword is not None), None)
        hint = (
            f"`delete_all({scope.keyword.value}=...)` deletes one entity's memories"
            if scope is not None and scope.keyword.value in site.dialect.grammar.entity_fields
            else "it has no scope"
        )
        yield Finding(
            site.call,
            f"`{client_class(site.dialect)}.reset()` takes no arguments (TypeError); without "
            f"them it {what}; {hint}",
        )
