"""MEM668: MemOS `delete_memory()` without exactly one delete condition."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.rules.memos.writes import presence
from mem0lint.rules.sdk_args import argument, literal
from mem0lint.sdk.memos import WRITES


class MemosDeleteConditions(Rule):
    code = "MEM668"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-delete-conditions"
    dialects = MEMOS
    methods = frozenset({"delete_memory"})
    severity = Severity.ERROR
    summary = "MemOS `delete_memory()` without exactly one delete condition"
    why = (
        "The client counts the delete conditions (`memory_ids`, `user_id`, `agent_id`, and "
        "`filter` when it is not None) and raises ValueError('exactly one delete condition is "
        "required') before sending unless exactly one holds. mem0's habit of scoping a delete "
        "by user (`memory_ids=[...], user_id=...`) is two conditions."
    )
    examples = [
        Example(
            "memos",
            bad='client.delete_memory(memory_ids=["mem_1"], user_id="u_1")',
            good='client.delete_memory(memory_ids=["mem_1"])',
        ),
        Example(
            "memos",
            bad="client.delete_memory()",
            good='client.delete_memory(user_id="u_1")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args:
            return
        states = {
            name: presence(_value(site, name), name in WRITES.delete_counts_when_not_none)
            for name in WRITES.delete_conditions
        }
        # `user_ids` (the first positional) stands for `user_id` when `user_id` is None and no
        # `memory_ids` is given (`if user_id is None and user_ids:`: an empty string is not None).
        users = argument(site, WRITES.delete_user_list)
        user_id = site.keyword("user_id")
        if users is not None and (user_id is None or literal(user_id.value) is None):
            if states["memory_ids"] == "absent":
                states["user_id"] = presence(users.value)
            elif states["memory_ids"] == "unknown":
                states["user_id"] = "unknown" if presence(users.value) != "absent" else "absent"
        present = [name for name, state in states.items() if state == "present"]
        if len(present) >= 2:
            what = " and ".join(f"`{n}`" for n in present)
        elif all(state == "absent" for state in states.values()):
            what = "none of them"
        else:
            return
        yield Finding(
            site.call.func,
            "`delete_memory()` needs exactly one of `memory_ids` / `user_id` / `agent_id` / "
            f"`filter`, but gets {what} (ValueError)",
        )


def _value(site: CallSite, name: str):
    arg = argument(site, name)
    return arg.value if arg is not None else None
