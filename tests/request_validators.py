"""What the servers reject, as functions over the request an SDK sent.

Only documented rejections are checked (spec §2 and §3): a key the server silently ignores is
not an error here, because the SDK call succeeds.
"""

from __future__ import annotations

import json
import re
from typing import Any

from evaluators import platform
from sdk_harness import Sent

ENTITIES = ("user_id", "agent_id", "app_id", "run_id")


class Invalid(Exception):
    pass


def validate(sent: Sent) -> None:
    """Raise Invalid when the server would reject this request."""
    path = sent.path
    if path.endswith("/v1/ping/"):
        return
    if path.endswith("/v3/memories/search/") or path.endswith("/v3/memories/"):
        _platform_query(sent, search=path.endswith("/search/"))
    elif path.endswith("/v1/memories/") and sent.method == "DELETE":
        _platform_delete_all(sent)
    elif path.endswith("/v1/batch/"):
        _platform_batch(sent)
    elif path.endswith("/search/memory"):
        _memos_search(sent.body)
    elif path.endswith("/search") or path.endswith("/memories"):
        _memsy(sent)
    elif path.endswith("/ingest"):
        _memsy_ingest(sent.body)


def _platform_query(sent: Sent, search: bool) -> None:
    body = sent.body if isinstance(sent.body, dict) else {}
    if search and not (isinstance(body.get("query"), str) and body["query"].strip()):
        raise Invalid("query must be a non-empty string")
    top_level = [k for k in ENTITIES if k in body]
    if top_level:
        raise Invalid(f"400: entity ids {top_level} at the top level; put them in filters")
    if "filters" not in body:
        raise Invalid("400: filters is required")
    if search and '"keywords"' in json.dumps(body["filters"]):
        raise Invalid("500: a keywords filter in search (MEM-5746)")
    try:
        platform.select(body["filters"], [{}], strict=True)
    except platform.Rejected as error:
        raise Invalid(f"400: {error}") from None
    top_k = body.get("top_k")
    if search and top_k is not None and not (isinstance(top_k, int) and 1 <= top_k <= 1000):
        raise Invalid(f"top_k {top_k!r} outside 1..1000")
    threshold = body.get("threshold")
    if threshold is not None and not (isinstance(threshold, (int, float)) and 0 <= threshold <= 1):
        raise Invalid(f"threshold {threshold!r} outside 0..1")


def _platform_delete_all(sent: Sent) -> None:
    if "filters" in sent.params:
        raise Invalid("filters is not a delete_all parameter (sent as a stringified query param)")
    if not any(k in sent.params for k in ENTITIES):
        raise Invalid("delete_all needs at least one entity id")


def _platform_batch(sent: Sent) -> None:
    """openapi `/v1/batch/`: `memories`, 1..1000 objects, each with a required `memory_id`."""
    memories = sent.body.get("memories") if isinstance(sent.body, dict) else None
    if not isinstance(memories, list) or not 1 <= len(memories) <= 1000:
        raise Invalid("400: memories must be a list of 1 to 1000 items")
    for item in memories:
        if not isinstance(item, dict) or "memory_id" not in item:
            raise Invalid(f"400: batch item {item!r} has no memory_id")


SESSION_ID = re.compile(r"^[A-Za-z0-9_\-:.@/]{1,256}$")


def _memsy(sent: Sent) -> None:
    body: Any = sent.body if isinstance(sent.body, dict) else sent.params
    limit = body.get("limit")
    high = 100 if sent.path.endswith("/search") else 200
    if limit is not None and not (1 <= int(limit) <= high):
        raise Invalid(f"422: limit {limit} outside 1..{high}")
    session, exclude = body.get("session_id"), body.get("exclude_session_id")
    for name, value in (("session_id", session), ("exclude_session_id", exclude)):
        if value is None or value == "":
            continue
        if not isinstance(value, str) or not SESSION_ID.match(value):
            raise Invalid(f"422: {name} {value!r} is not one id of [A-Za-z0-9_-:.@/]")
    if session and exclude:
        raise Invalid("422: session_id and exclude_session_id are mutually exclusive")


# docs.memsy.io "Ingesting events": `kind` is a closed enum (HTTP 422 otherwise).
MEMSY_KINDS = {"user_message", "assistant_message", "tool_result", "app_event"}


def _memsy_ingest(body: Any) -> None:
    events = body.get("events") if isinstance(body, dict) else None
    if not isinstance(events, list):
        raise Invalid("422: events must be a list")
    for event in events:
        if event.get("kind") not in MEMSY_KINDS:
            raise Invalid(f"422: kind {event.get('kind')!r} is not one of {sorted(MEMSY_KINDS)}")


MEMOS_SOURCES = {"user", "agent", "public", "knowledgebase"}


def _memos_search(body: dict) -> None:
    relativity = body.get("relativity")
    if relativity is not None and not (0 <= relativity <= 1):
        raise Invalid(f"relativity {relativity} outside 0..1")
    filters = body.get("filter")
    if filters == {}:  # MemTensor/MemOS#1718
        raise Invalid("400: Invalid request parameters: filter object cannot be empty")
    if isinstance(filters, dict) and filters:
        keys = set(filters)
        global_mode = keys & {"and", "or"}
        if global_mode and keys - {"and", "or"}:
            raise Invalid("do not mix a global and/or with other keys")
