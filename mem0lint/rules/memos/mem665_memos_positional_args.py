"""MEM665: More than three positional arguments to MemOS `search_memory()`."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.rules.sdk_args import argument, literal


class MemosPositionalArgs(Rule):
    code = "MEM665"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-positional-args"
    dialects = MEMOS
    methods = frozenset({"search_memory"})
    severity = Severity.WARNING
    summary = "More than three positional arguments to MemOS `search_memory()`"
    why = (
        "Every parameter is positional-or-keyword, in the order query, user_id, "
        "conversation_id, agent_id, memory_limit_number...: a 4th positional argument meant as "
        "a limit becomes `agent_id`."
    )
    fix_safety = (
        "safe: each positional argument past the third gets the keyword it binds to; none when "
        "`user_id` is given too (then the 4th was surely meant as a limit, and the call raises "
        "ValueError with both ids: MEM651)"
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", None, "0928", "agent_7")',
            good='client.search_memory("q", conversation_id="0928", agent_id="agent_7")',
            fixed='client.search_memory("q", None, "0928", agent_id="agent_7")',
        ),
        Example(
            "memos",
            bad='client.search_memory("q", "u_1", "0928", 10)',
            good='client.search_memory("q", "u_1", "0928", memory_limit_number=10)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        positional = site.positional
        if len(positional) <= 3 or site.has_star_args:
            return
        params = site.spec.params
        fix = None
        user = argument(site, "user_id")
        user_given = user is not None and literal(user.value) not in (None, "")
        if len(positional) <= len(params) and not user_given:
            args = [
                a.with_changes(
                    keyword=cst.Name(params[i]),
                    equal=cst.AssignEqual(
                        whitespace_before=cst.SimpleWhitespace(""),
                        whitespace_after=cst.SimpleWhitespace(""),
                    ),
                )
                if 3 <= i < len(positional)
                else a
                for i, a in enumerate(site.call.args)
            ]
            fix = Fix(
                Applicability.SAFE,
                "Pass the arguments past the third by keyword",
                ((site.call, fixes.with_args(site.call, args)),),
            )
        for index, arg in enumerate(positional[3:], start=3):
            if index >= len(params):
                break
            yield Finding(
                arg,
                f"positional argument #{index + 1} binds to `{params[index]}`"
                + (" (the 4th is `agent_id`, not a limit)" if index == 3 else ""),
                fix,
            )
