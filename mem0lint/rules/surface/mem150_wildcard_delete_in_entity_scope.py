"""MEM150: Platform `delete_all(user_id="*")` inside a function given one entity's id."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import string_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.entity_scope import entity_parameter
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_arguments import DELETE_ALL_WILDCARD, DELETE_USERS_SCOPE


class WildcardDeleteInEntityScope(Rule):
    code = "MEM150"
    name = "wildcard-delete-in-entity-scope"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"delete_all"})
    # No `versions`: the client forwards the keywords unchanged as query parameters in every
    # release (0.1.100, 1.0.3, 2.0.0, 2.2.1 read); what `"*"` selects is the server's contract.
    severity = Severity.WARNING
    summary = (
        '`delete_all(user_id="*")` in a function given one user\'s id: it deletes every '
        "user's memories"
    )
    why = (
        'On the Platform `"*"` as an entity id of `delete_all()` matches every value (openapi '
        '`DELETE /v1/memories/`: "Pass `*` to delete memories for all users"): the call deletes '
        'the memories of every user (agent, app, run) of the project, and `"*"` for all four '
        "wipes the project. Reported only inside a function that receives an entity id as a "
        "parameter and does not pass it to the call nor test it around the call: there the wide "
        "scope is most likely a mistake. A deliberate wipe can keep a `# noqa: MEM150`."
    )
    fix_safety = "none (only the author knows the scope meant)"
    examples = [
        Example(
            "mem0-platform",
            bad=(
                'def forget_user(user_id):\n    client.delete_all(user_id="*")\n\n\n'
                'forget_user("alice")'
            ),
            good=(
                "def forget_user(user_id):\n    client.delete_all(user_id=user_id)\n\n\n"
                'forget_user("alice")'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        wildcards = []
        for name, arg in site.keywords.items():
            value = arg.value
            if (
                name in DELETE_USERS_SCOPE
                and isinstance(value, cst.SimpleString)
                and string_value(value) == DELETE_ALL_WILDCARD
            ):
                wildcards.append((name, arg))
        if not wildcards:
            return
        parameter = entity_parameter(site)
        if parameter is None:
            return
        names = [name for name, _ in wildcards]
        if len(names) == len(DELETE_USERS_SCOPE):
            scope = "every memory of the project"
        else:
            scope = " and ".join(f"every {name[: -len('_id')]}'s memories" for name in names)
        spelled = ", ".join(f'`{name}="*"`' for name in names)
        yield Finding(  # one finding a call, on its first wildcard: one noqa comment silences it
            wildcards[0][1],
            f"{spelled} deletes {scope}, not only those of the `{parameter}` this function is "
            "given (a deliberate wipe: `# noqa: MEM150`)",
        )
