"""MEM667: Memory ids passed by position to MemOS `delete_memory()`: they bind to `user_ids`."""

from __future__ import annotations

from typing import Iterator

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memos.shared import MEMOS
from mem0lint.rules.memos.writes import names_memory_ids
from mem0lint.rules.sdk_args import argument, literal
from mem0lint.sdk.memos import WRITES


class MemosDeleteIdsAsUserIds(Rule):
    code = "MEM667"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-delete-ids-as-user-ids"
    dialects = MEMOS
    methods = frozenset({"delete_memory"})
    severity = Severity.ERROR
    summary = "Memory ids passed by position to MemOS `delete_memory()` (they bind to `user_ids`)"
    why = (
        "The signature is `delete_memory(user_ids=None, memory_ids=None, *, user_id=..., ...)`: "
        "a lone positional list is `user_ids`. With one id the client sends it as `user_id` and "
        "the Cloud deletes every memory of a user named like the memory id (a success, and the "
        "memory stays); with several it raises ValueError (a single user_id only); beside "
        "`user_id=` the list is ignored and ALL of that user's memories are deleted."
    )
    fix_safety = (
        "unsafe: passing the list as `memory_ids=` deletes those memories instead (what the "
        "names say was meant, but a different request)"
    )
    examples = [
        Example(
            "memos",
            bad='client.delete_memory(["mem_1", "mem_2"])',
            good='client.delete_memory(memory_ids=["mem_1", "mem_2"])',
            fixed='client.delete_memory(memory_ids=["mem_1", "mem_2"])',
            unsafe=True,
        ),
        Example(
            "memos",
            bad="""
            def forget(memory_ids):
                client.delete_memory(memory_ids)
            forget(["mem_1", "mem_2"])
            """,
            good="""
            def forget(memory_ids):
                client.delete_memory(memory_ids=memory_ids)
            forget(["mem_1", "mem_2"])
            """,
            fixed="""
            def forget(memory_ids):
                client.delete_memory(memory_ids=memory_ids)
            forget(["mem_1", "mem_2"])
            """,
            unsafe=True,
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        positional = site.positional
        if len(positional) != 1 or site.has_star_args or site.call.args[0] is not positional[0]:
            return
        arg = positional[0]
        if not names_memory_ids(arg.value):
            return
        if argument(site, WRITES.delete_memory_list) is not None:
            return
        user_id = site.keyword("user_id")
        if user_id is not None and literal(user_id.value) is None:
            user_id = None  # `user_id=None`: the list stands for the user, as without it
        if user_id is not None:
            effect = "it is ignored beside `user_id=`, and ALL of that user's memories are deleted"
        else:
            effect = (
                "one id is sent as a user id (that user's memories are deleted, not this "
                "memory); several raise ValueError"
            )
        fix = None
        if user_id is None:  # beside `user_id=`, `memory_ids=` would be a second condition
            named = fixes.keyword_arg(WRITES.delete_memory_list, arg.value)
            fix = Fix(
                Applicability.UNSAFE,
                "Pass the ids as `memory_ids=`",
                ((arg, named.with_changes(comma=arg.comma)),),
            )
        yield Finding(
            arg,
            f"the first positional argument of `delete_memory()` is `{WRITES.delete_user_list}`, "
            f"not memory ids: {effect}; pass `memory_ids=`",
            fix,
        )
