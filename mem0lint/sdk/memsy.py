"""What Memsy accepts: memsy 0.3.5 and the server it talks to, as plain data.

Read from the SDK source (`memsy/client.py`, `memsy/async_client.py`,
`memsy/resources/memories.py`, `memsy/models.py`) and the "Searching Memory" page
(https://docs.memsy.io/docs/searching-memory). Memsy has no filter language: a call is scoped by
keywords. Everything after `query` is keyword-only and no method takes `**kwargs`, so a wrong
keyword raises TypeError before any request. Signatures live in `mem0lint.sdk.dialects.MEMSY`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from mem0lint.sdk.model import Range


@dataclass(frozen=True)
class MemsyGrammar:
    # `search()` scopes by conversation with these two: each takes ONE id, and sending both
    # non-empty is rejected (HTTP 422). The server trims ids and treats "" as unset first.
    session_params: tuple[str, ...]
    # Ids whose "" the server documents as "unset" (docstring of `search()`), and ids whose ""
    # handling is undocumented.
    empty_id_unset: tuple[str, ...]
    empty_id_undocumented: tuple[str, ...]
    # Characters a searchable id may hold (a regular expression for one character) and the
    # longest id. Ingest (`EventPayload`) checks only the length.
    id_char: str
    max_id_length: int
    # Valid `limit` per method (server-side validation, HTTP 422 outside).
    limits: dict[str, Range]
    # Wrong keyword -> Memsy's keyword. A rename applies only where the method has the target
    # parameter (`memories.list` has no `threshold` or `session_id`).
    keyword_renames: dict[str, str]
    # `MemsyClient(base_url, api_key, timeout=..., max_retries=..., retry_backoff=...)`: the
    # parameters in order, and the ones without a default (no environment fallback).
    client_params: tuple[str, ...]
    client_required: tuple[str, ...]
    # mem0 methods MemsyClient lacks (AttributeError) -> the Memsy call to write instead (None:
    # Memsy has none).
    instead_of_mem0: dict[str, Optional[str]]


GRAMMAR = MemsyGrammar(
    session_params=("session_id", "exclude_session_id"),
    empty_id_unset=("session_id", "exclude_session_id"),
    empty_id_undocumented=("actor_id",),
    id_char=r"[A-Za-z0-9_\-:.@/]",
    max_id_length=256,
    # search: the server's range (docs); memories.list: "Page size (1-200, default 50)".
    limits={"search": Range(1, 100), "memories.list": Range(1, 200)},
    keyword_renames={
        "top_k": "limit",
        "k": "limit",
        "n": "limit",
        "max_results": "limit",
        "min_score": "threshold",
        "score_threshold": "threshold",
        "user_id": "actor_id",
        "agent_id": "actor_id",
        "conversation_id": "session_id",
        "thread_id": "session_id",
    },
    client_params=("base_url", "api_key", "timeout", "max_retries", "retry_backoff"),
    client_required=("base_url", "api_key"),
    instead_of_mem0={"get_all": "memories.list(actor_id=...)", "delete_all": None},
)


@dataclass(frozen=True)
class MemsyIngest:
    """`ingest(events: list[EventPayload])` (memsy 0.3.0 to 0.3.5, `memsy/client.py`,
    `memsy/models.py`): the client runs `[e.to_dict() for e in events]`, so anything but an
    iterable of `EventPayload` fails before a request (a single payload: TypeError, not
    iterable; a dict: AttributeError, no `to_dict`)."""

    method: str
    record: str
    # `EventPayload.kind`: a closed enum on the server (HTTP 422 otherwise; models.py comment and
    # https://docs.memsy.io/docs/ingesting-events). The client sends any string unchanged.
    kinds: frozenset[str]
    # A chat role written where the kind is meant -> the kind of that role's messages.
    kind_for_role: dict[str, str]
    # `EventPayload.metadata`: a JSON-serialised string (models.py); the client sends a dict
    # unchanged as a JSON object.
    string_fields: frozenset[str]


INGEST = MemsyIngest(
    method="ingest",
    record="EventPayload",
    kinds=frozenset({"user_message", "assistant_message", "tool_result", "app_event"}),
    kind_for_role={"user": "user_message", "assistant": "assistant_message", "tool": "tool_result"},
    string_fields=frozenset({"metadata"}),
)
