"""What MemOS Cloud accepts: MemoryOS 2.0.33's `MemOSClient` and the Cloud API, as plain data.

Read from the SDK source (`memos/api/client.py`: every parameter of `search_memory` is
positional-or-keyword, there is no `**kwargs`, and the client checks `query` and "exactly one of
user_id / agent_id" before sending) and the MemOS Cloud API documents (filter page, `api.json`).
`from memos import MOS` (the local orchestrator) is another API and is never judged. Signatures
live in `mem0lint.sdk.dialects.MEMOS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mem0lint.sdk.model import EmptyText, Range


@dataclass(frozen=True)
class MemosGrammar:
    # Methods taking a `filter=` dict (the singular: mem0 spells it `filters`).
    filter_methods: frozenset[str]
    # Logical keys (lowercase) -> "list": each holds a list of conditions.
    logical: dict[str, str]
    # Keys of a per-source filter root, each holding one logical group.
    source_keys: frozenset[str]
    # Operators of a field condition (a bare value means equality).
    operators: frozenset[str]
    # Field names of self-hosted MemOS (and mem0) -> the Cloud's names.
    time_fields: dict[str, str]
    # The hosts of MemOS Cloud (`MemOSClient`'s default base URLs).
    cloud_hosts: tuple[str, ...]
    # `_validate_profile_subject`: exactly one of these is truthy, or ValueError.
    subject_params: tuple[str, ...]
    subject_methods: frozenset[str]
    # `_validate_required_params(query=query)`: a falsy query raises ValueError (whitespace
    # passes: it is truthy).
    query_required_in: frozenset[str]
    empty_query: EmptyText
    # Documented server ranges of `search_memory` arguments.
    ranges: dict[str, Range]
    # Wrong keyword -> MemOS keyword, and the literal range a renamed value must keep.
    keyword_renames: dict[str, str]
    rename_ranges: dict[str, Range]
    # mem0 methods MemOSClient lacks (AttributeError) -> the MemOS call to write instead, and
    # MemOS methods mem0's clients lack -> the mem0 call.
    instead_of_mem0: dict[str, str]
    mem0_equivalents: dict[str, str]
    # Limits the client itself enforces with ValueError (`get_memory`: `size > 50`). No rule
    # reads this yet.
    client_maximums: dict[str, dict[str, int]]


LIMIT_MAX = 25
LIMIT_PARAMS = (
    "memory_limit_number",
    "preference_limit_number",
    "tool_memory_limit_number",
    "skill_limit_number",
)

GRAMMAR = MemosGrammar(
    filter_methods=frozenset({"search_memory", "get_memory"}),
    logical={"and": "list", "or": "list"},
    source_keys=frozenset({"user", "agent", "public", "knowledgebase"}),
    operators=frozenset({"contains", "gt", "gte", "lt", "lte"}),
    time_fields={"created_at": "create_time", "updated_at": "update_time"},
    cloud_hosts=("memos.memtensor.cn", "api.memt.ai"),
    subject_params=("user_id", "agent_id"),
    subject_methods=frozenset({"search_memory", "get_memory"}),
    query_required_in=frozenset({"search_memory"}),
    empty_query=EmptyText(strips=False, none=True),
    # `relativity`: a similarity floor (default 0.45, 0 disables it); every `*_limit_number`:
    # "max 25" (api.json). The SDK sends 6 for each limit unless told otherwise.
    ranges={"relativity": Range(0, 1), **{p: Range(None, LIMIT_MAX) for p in LIMIT_PARAMS}},
    keyword_renames={
        "top_k": "memory_limit_number",
        "limit": "memory_limit_number",
        "threshold": "relativity",
        "min_score": "relativity",
        "session_id": "conversation_id",
        # mem0's `add(..., metadata=)`: MemOS's `add_message` calls the same dict `info` (its
        # keys are filterable in search, like mem0's metadata).
        "metadata": "info",
    },
    rename_ranges={"memory_limit_number": Range(0, LIMIT_MAX), "relativity": Range(0, 1)},
    instead_of_mem0={
        "search": "search_memory(query, user_id=..., filter=...)",
        "get_all": "get_memory(user_id=..., filter=...)",
        "delete_all": "delete_memory(user_id=...)",
    },
    mem0_equivalents={
        "search_memory": "search(query, filters={...})",
        "get_memory": "get_all(filters={...})",
    },
    client_maximums={"get_memory": {"size": 50}},
)


@dataclass(frozen=True)
class MemosWrites:
    """The write calls of `MemOSClient` (MemoryOS >= 2.0.24, `memos/api/client.py`): what the
    client checks before sending, and what the Cloud rejects after."""

    # `delete_memory(user_ids=None, memory_ids=None, *, user_id, agent_id, filter, memory_type)`:
    # exactly one of these conditions must hold, or ValueError("exactly one delete condition is
    # required"). A truthy value counts; `filter` counts whenever it is not None.
    delete_conditions: tuple[str, ...]
    delete_counts_when_not_none: frozenset[str]
    # The first positional parameter: a list of user ids. Without `memory_ids` (and without
    # `user_id=`) its only item becomes `user_id` (the whole user's memories are deleted); more
    # than one item raises ValueError("current API supports a single user_id...").
    delete_user_list: str
    delete_memory_list: str
    # `update_memory(memory_id, content=None, title=None, status=None)`: none truthy ->
    # ValueError("content, title or status is required").
    update_fields: tuple[str, ...]
    # Methods whose `filter={}` the Cloud rejects with HTTP 400 ("Invalid request parameters:
    # filter object cannot be empty", MemTensor/MemOS#1718); the client sends `{}` unchanged and
    # `null` when the keyword is left out.
    empty_filter_rejected_in: frozenset[str]


WRITES = MemosWrites(
    delete_conditions=("memory_ids", "user_id", "agent_id", "filter"),
    delete_counts_when_not_none=frozenset({"filter"}),
    delete_user_list="user_ids",
    delete_memory_list="memory_ids",
    update_fields=("content", "title", "status"),
    empty_filter_rejected_in=frozenset({"search_memory"}),
)
