"""MEM151: `reset()` / `delete_users()` with no id inside a function given one entity's id."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import string_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.entity_scope import entity_parameter
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import DELETE_USERS_SCOPE, WIPE_ALL, client_class


def _falsy_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name):
        return node.value in ("None", "False")
    if isinstance(node, cst.SimpleString):
        return string_value(node) == ""
    return False


class WipeAllInEntityScope(Rule):
    code = "MEM151"
    name = "wipe-all-in-entity-scope"
    dialects = MEM0
    methods = frozenset({"reset", "delete_users"})
    # No `versions`: `reset()` and an id-less `delete_users()` delete everything in every
    # release that has them (0.1.100, 1.0.3, 2.0.0, 2.2.1 read).
    severity = Severity.WARNING
    summary = (
        "`reset()` or `delete_users()` with no id in a function given one user's id: it deletes "
        "every user's memories"
    )
    why = (
        "The Platform's `delete_users()` with no (or only empty) ids lists `users()` and deletes "
        "every user, agent, app and run of the project; `MemoryClient.reset()` calls it. Open "
        "source `Memory.reset()` drops the whole vector collection and the history database. "
        "Reported only inside a function that receives an entity id as a parameter, does not "
        "pass it and does not test it around the call: a function handed one user's id that "
        "erases everyone's memories is most likely a mistake (`delete_all(user_id=...)` / "
        "`delete_users(user_id=...)` scope it). A deliberate wipe can keep a `# noqa: MEM151`."
    )
    fix_safety = "none (only the author knows the scope meant)"
    examples = [
        Example(
            "mem0-oss",
            bad='def clear_memories(user_id):\n    memory.reset()\n\n\nclear_memories("alice")',
            good=(
                "def clear_memories(user_id):\n    memory.delete_all(user_id=user_id)\n\n\n"
                'clear_memories("alice")'
            ),
        ),
        Example(
            "mem0-platform",
            bad=(
                "def remove_account(user_id):\n    client.delete_users()\n\n\n"
                'remove_account("alice")'
            ),
            good=(
                "def remove_account(user_id):\n    client.delete_users(user_id=user_id)\n\n\n"
                'remove_account("alice")'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        what = WIPE_ALL.get((site.dialect.id, site.method))
        if what is None or site.has_star_args:
            return
        if site.method == "delete_users":
            params = DELETE_USERS_SCOPE
            given = [a.value for a in site.positional[: len(params)]]
            given += [a.value for n, a in site.keywords.items() if n in params]
            if len(site.positional) > len(params) or not all(_falsy_literal(v) for v in given):
                return
        elif site.call.args:
            return
        parameter = entity_parameter(site)
        if parameter is None:
            return
        yield Finding(
            site.call,
            f"`{client_class(site.dialect)}.{site.method}()` {what}, not only the memories of "
            f"the `{parameter}` this function is given (a deliberate wipe: `# noqa: MEM151`)",
        )
