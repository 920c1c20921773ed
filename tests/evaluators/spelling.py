"""How the wrong spellings the rules fix read: what the author evidently meant by them."""

from __future__ import annotations

LOGICAL = {"and": "AND", "or": "OR", "not": "NOT"}

# Operator spellings -> the mem0 operator they stand for.
OPERATORS = {
    "eq": "eq",
    "ne": "ne",
    "gt": "gt",
    "gte": "gte",
    "lt": "lt",
    "lte": "lte",
    "in": "in",
    "nin": "nin",
    "contains": "contains",
    "icontains": "icontains",
    "==": "eq",
    "=": "eq",
    "!=": "ne",
    "<>": "ne",
    ">": "gt",
    ">=": "gte",
    "<": "lt",
    "<=": "lte",
}

CAMEL_ENTITIES = {"userId": "user_id", "agentId": "agent_id", "appId": "app_id", "runId": "run_id"}
# MemOS Cloud's time field names, written in a mem0 filter: the author meant mem0's.
MEMOS_TIME_FIELDS = {"create_time": "created_at", "update_time": "updated_at"}


def logical(key: str) -> str | None:
    """'AND'/'OR'/'NOT' for any spelling of a logical key ($and, and, Or), else None."""
    return LOGICAL.get(key.lstrip("$").lower()) if isinstance(key, str) else None


def operator(key: str) -> str | None:
    """The mem0 operator a key spells ($gte, >=, gte), or None."""
    if not isinstance(key, str):
        return None
    return OPERATORS.get(key[1:] if key.startswith("$") else key)


def field(key: str) -> str:
    return CAMEL_ENTITIES.get(key) or MEMOS_TIME_FIELDS.get(key, key)
