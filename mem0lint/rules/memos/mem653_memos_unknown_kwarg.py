"""MEM653: A keyword MemOS's method does not declare (`top_k`, `limit`, `metadata`...)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.memos.shared import FILTER_METHODS, MAX_LIMIT, MEMOS
from mem0lint.rules.sdk_args import number, rename_fix, unknown_keywords

# Wrong keyword -> MemOS keyword (spec R51-R53), with the literal range the rename keeps valid.
RENAMES = {
    "top_k": "memory_limit_number",
    "limit": "memory_limit_number",
    "threshold": "relativity",
    "min_score": "relativity",
    "session_id": "conversation_id",
}


RENAME_RANGE = {"memory_limit_number": (0, MAX_LIMIT), "relativity": (0, 1)}


class MemosUnknownKwarg(Rule):
    code = "MEM653"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-unknown-kwarg"
    dialects = MEMOS
    methods = FILTER_METHODS | {"add_message", "delete_memory", "update_memory"}
    severity = Severity.ERROR
    summary = "A keyword MemOS's method does not declare (`top_k`, `limit`, `metadata`...)"
    why = (
        "MemOS methods have no `**kwargs`: an unknown keyword raises TypeError. The result cap "
        "is `memory_limit_number`, the score floor `relativity`, the conversation "
        "`conversation_id` (it prioritises, it does not filter)."
    )
    fix_safety = (
        "safe renames: `top_k` / `limit` -> `memory_limit_number` (value <= 25), `threshold` / "
        "`min_score` -> `relativity` (value in [0, 1]), `session_id` -> `conversation_id`; "
        "unsafe beside `**kwargs` (it may hold the new keyword)"
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", top_k=9, threshold=0.8)',
            good='client.search_memory("q", user_id="u_1", memory_limit_number=9, relativity=0.8)',
            fixed='client.search_memory("q", user_id="u_1", memory_limit_number=9, relativity=0.8)',
        ),
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", session_id="0928")',
            good='client.search_memory("q", user_id="u_1", conversation_id="0928")',
            fixed='client.search_memory("q", user_id="u_1", conversation_id="0928")',
        ),
        Example(
            "memos",
            bad='client.add_message(messages, user_id="u_1", metadata={"k": "v"})',
            good='client.add_message(messages, user_id="u_1", info={"k": "v"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for arg in unknown_keywords(site):
            name = arg.keyword.value
            if name == "filters":
                continue  # MEM652
            target = RENAMES.get(name)
            if target is not None and target not in site.spec.params:
                target = None
            fix = None
            if target is not None:
                value = number(arg.value)
                low, high = RENAME_RANGE.get(target, (None, None))
                if value is None or low is None or low <= value <= high:
                    fix = rename_fix(site, arg, target, RENAMES)
            message = f"`{name}` is not a MemOS `{site.method}()` parameter (TypeError)"
            if target is not None:
                message += f"; use `{target}`"
            yield Finding(arg, message, fix)
