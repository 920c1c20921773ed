"""Each SDK's call surface and filter grammar, written once as data.

Rules never test "is this Platform?" themselves: they ask the dialect of the call site for the
fact they need (is this keyword a parameter, what does an unknown keyword do, which operators
exist, where metadata goes). The facts come from the SDK sources (mem0ai 2.2.1, memsy 0.3.5,
MemoryOS 2.0.33) and the documents in ``shared/seeds``; see ``shared/spec/dialects.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class OnUnknownKeyword(str, Enum):
    """What a method does with a keyword it does not declare."""

    IGNORED = "silently ignored"
    TYPE_ERROR = "TypeError"
    SENT = "sent to the server, which ignores it"


@dataclass(frozen=True)
class Method:
    name: str
    # Parameters in declaration order; the first `positional` of them may be passed by position.
    params: tuple[str, ...]
    positional: int
    on_unknown: OnUnknownKeyword
    # How the method reacts to entity ids passed as keywords (None: they are ordinary params).
    entity_kwargs_error: str | None = None
    defaults: dict[str, object] = field(default_factory=dict)
    # The keyword that carries the filter dict (MemOS spells it `filter`); None: no filter.
    filter_param: str | None = "filters"


@dataclass(frozen=True)
class FilterGrammar:
    """The shape of a `filters=` value for one dialect."""

    # Logical key -> "list" (array of conditions) or "object" (one condition).
    logical: dict[str, str]
    operators: frozenset[str]
    entity_fields: frozenset[str]
    # Entity ids only count at the top level of the filter (mem0 open source).
    entities_top_level_only: bool
    # "wrapper": {"metadata": {"k": v}} (Platform); "flat": {"k": v} (open source).
    metadata_style: str
    # None: any field name is a payload key. Otherwise the only allowed top-level keys.
    allowed_top_level: frozenset[str] | None = None
    time_fields: frozenset[str] = frozenset()
    # What rejects a malformed filter, for messages ("HTTP 400", "ValueError").
    rejected_by: str = "rejected"
    # Logical keys whose empty list raises (open source: OR and NOT; an empty AND is a no-op).
    empty_logical_raises: frozenset[str] = frozenset()
    # Methods whose SDK code checks AND/OR/NOT (None: all). Open source translates logical keys
    # in `search()` only; `get_all()` hands them to the vector store untouched.
    logic_checked_in: frozenset[str] | None = None
    # The SDK validates entity values (empty / inner whitespace -> ValueError), top level only.
    validates_entity_ids: bool = False
    # `"*"` on an entity id matches everything, records without the field included.
    wildcard_entity_unscoped: bool = False
    # AND / OR / NOT values are checked with `isinstance(value, list)`: a tuple raises.
    logical_needs_list_type: bool = False


@dataclass(frozen=True)
class Dialect:
    id: str
    label: str
    # Fully qualified class names whose instances are clients of this dialect.
    classes: frozenset[str]
    # Classmethods on those classes that return an instance.
    factories: frozenset[str]
    methods: dict[str, Method]
    grammar: FilterGrammar | None
    # Request-record classes whose constructor calls are judged too (fully qualified name ->
    # the `methods` entry describing their parameters), e.g. Memsy's `EventPayload`.
    records: dict[str, str] = field(default_factory=dict)

    def method(self, name: str) -> Method | None:
        return self.methods.get(name)


MEM0_ENTITIES = frozenset({"user_id", "agent_id", "app_id", "run_id"})
OSS_ENTITIES = frozenset({"user_id", "agent_id", "run_id"})
TIME_FIELDS = frozenset({"created_at", "updated_at", "timestamp", "expiration_date"})

# Entity ids as JavaScript / REST-style names; the Python SDKs are snake_case.
ENTITY_CAMEL_CASE = {
    "userId": "user_id",
    "agentId": "agent_id",
    "appId": "app_id",
    "runId": "run_id",
    "userID": "user_id",
    "agentID": "agent_id",
    "appID": "app_id",
    "runID": "run_id",
}
# Scope names from other memory libraries (sessions, threads, conversations) and near-misses of
# the mem0 entity names, with the mem0 entity the author most likely meant.
ENTITY_ALIASES = {
    "session_id": "run_id",
    "thread_id": "run_id",
    "conversation_id": "run_id",
    "chat_id": "run_id",
    "sessionId": "run_id",
    "threadId": "run_id",
    "conversationId": "run_id",
    "runid": "run_id",
    "userid": "user_id",
    "user": "user_id",
    "agentid": "agent_id",
    "agent": "agent_id",
    "appid": "app_id",
    "app": "app_id",
}

PLATFORM_GRAMMAR = FilterGrammar(
    logical={"AND": "list", "OR": "list", "NOT": "object"},
    operators=frozenset({"eq", "ne", "gt", "gte", "lt", "lte", "in", "contains", "icontains"}),
    entity_fields=MEM0_ENTITIES,
    entities_top_level_only=False,
    metadata_style="wrapper",
    allowed_top_level=frozenset(
        {
            "AND",
            "OR",
            "NOT",
            *MEM0_ENTITIES,
            *TIME_FIELDS,
            "text",
            "categories",
            "metadata",
            "keywords_search",
            "memory_ids",
            "keywords",
        }
    ),
    time_fields=TIME_FIELDS,
    rejected_by="HTTP 400",
)

OSS_GRAMMAR = FilterGrammar(
    logical={"AND": "list", "OR": "list", "NOT": "list"},
    operators=frozenset(
        {"eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "icontains"}
    ),
    entity_fields=OSS_ENTITIES,
    entities_top_level_only=True,
    metadata_style="flat",
    time_fields=frozenset({"created_at", "updated_at"}),
    rejected_by="ValueError",
    empty_logical_raises=frozenset({"OR", "NOT"}),
    logic_checked_in=frozenset({"search"}),
    validates_entity_ids=True,
    wildcard_entity_unscoped=True,
    logical_needs_list_type=True,
)

_PLATFORM_ENTITY_ERROR = "ValueError"

PLATFORM = Dialect(
    id="mem0-platform",
    label="mem0 Platform",
    classes=frozenset(
        {
            "mem0.MemoryClient",
            "mem0.AsyncMemoryClient",
            "mem0.client.MemoryClient",
            "mem0.client.AsyncMemoryClient",
            "mem0.client.main.MemoryClient",
            "mem0.client.main.AsyncMemoryClient",
        }
    ),
    factories=frozenset(),
    methods={
        # search(query, options=None, **kwargs): every kwarg is sent verbatim; the server
        # silently ignores unknown body keys.
        "search": Method(
            "search",
            params=(
                "query",
                "options",
                "filters",
                "top_k",
                "threshold",
                "rerank",
                "reference_date",
                "show_expired",
                "fields",
                "categories",
                "metadata",
                "latest_only",
                "keyword_search",
            ),
            positional=2,
            on_unknown=OnUnknownKeyword.SENT,
            entity_kwargs_error=_PLATFORM_ENTITY_ERROR,
            defaults={"top_k": 10, "threshold": 0.1},
        ),
        "get_all": Method(
            "get_all",
            params=(
                "options",
                "filters",
                "page",
                "page_size",
                "show_expired",
                "fields",
                "categories",
                "start_date",
                "end_date",
                "keywords",
                "latest_only",
            ),
            positional=1,
            on_unknown=OnUnknownKeyword.SENT,
            entity_kwargs_error=_PLATFORM_ENTITY_ERROR,
            defaults={"page_size": 100},
        ),
        "delete_all": Method(
            "delete_all",
            params=("options", "user_id", "agent_id", "app_id", "run_id", "metadata"),
            positional=1,
            on_unknown=OnUnknownKeyword.SENT,
        ),
    },
    grammar=PLATFORM_GRAMMAR,
)

OPEN_SOURCE = Dialect(
    id="mem0-oss",
    label="mem0 open source",
    classes=frozenset(
        {
            "mem0.Memory",
            "mem0.AsyncMemory",
            "mem0.memory.main.Memory",
            "mem0.memory.main.AsyncMemory",
        }
    ),
    factories=frozenset({"from_config"}),
    methods={
        "search": Method(
            "search",
            params=(
                "query",
                "top_k",
                "filters",
                "threshold",
                "rerank",
                "explain",
                "reference_date",
                "show_expired",
            ),
            positional=1,
            on_unknown=OnUnknownKeyword.IGNORED,
            entity_kwargs_error="ValueError",
            defaults={"top_k": 20, "threshold": 0.1},
        ),
        "get_all": Method(
            "get_all",
            params=("filters", "top_k", "show_expired"),
            positional=0,
            on_unknown=OnUnknownKeyword.IGNORED,
            entity_kwargs_error="ValueError",
            defaults={"top_k": 20},
        ),
        "delete_all": Method(
            "delete_all",
            params=("user_id", "agent_id", "run_id"),
            positional=3,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
        ),
    },
    grammar=OSS_GRAMMAR,
)

MEMSY = Dialect(
    id="memsy",
    label="Memsy",
    classes=frozenset(
        {
            "memsy.MemsyClient",
            "memsy.AsyncMemsyClient",
            "memsy.client.MemsyClient",
            "memsy.async_client.AsyncMemsyClient",
        }
    ),
    factories=frozenset(),
    methods={
        "search": Method(
            "search",
            params=(
                "query",
                "actor_id",
                "session_id",
                "exclude_session_id",
                "limit",
                "threshold",
                "include_source_events",
                "role_ids",
                "team_ids",
            ),
            positional=1,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            defaults={"limit": 10, "threshold": 0.0},
            filter_param=None,
        ),
        "memories.list": Method(
            "memories.list",
            params=("actor_id", "kind", "type", "status", "sort", "search", "limit", "offset"),
            positional=0,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            defaults={"limit": 50},
            filter_param=None,
        ),
        # A dataclass: every field may be passed by position.
        "EventPayload": Method(
            "EventPayload",
            params=(
                "actor_id",
                "session_id",
                "kind",
                "content",
                "role_id",
                "team_id",
                "ts",
                "metadata",
            ),
            positional=8,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            filter_param=None,
        ),
        # `ingest(events: list[EventPayload])` (memsy 0.3.0 to 0.3.5): judged by MEM611/MEM612.
        "ingest": Method(
            "ingest",
            params=("events",),
            positional=1,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            filter_param=None,
        ),
    },
    grammar=None,
    records={"memsy.EventPayload": "EventPayload", "memsy.models.EventPayload": "EventPayload"},
)

MEMOS = Dialect(
    id="memos",
    label="MemOS",
    classes=frozenset({"memos.api.client.MemOSClient"}),
    factories=frozenset(),
    methods={
        "search_memory": Method(
            "search_memory",
            params=(
                "query",
                "user_id",
                "conversation_id",
                "agent_id",
                "memory_limit_number",
                "include_preference",
                "knowledgebase_ids",
                "filter",
                "source",
                "include_tool_memory",
                "preference_limit_number",
                "tool_memory_limit_number",
                "relativity",
                "include_skill",
                "skill_limit_number",
                "include_memory_view",
                "context_format",
            ),
            # No `*` in the signature: every parameter may be passed by position.
            positional=17,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            defaults={"memory_limit_number": 6, "relativity": 0.45},
            filter_param="filter",
        ),
        "get_memory": Method(
            "get_memory",
            params=(
                "user_id",
                "include_preference",
                "page",
                "size",
                "agent_id",
                "include_tool_memory",
                "include_memory_view",
                "filter",
            ),
            positional=8,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            defaults={"size": 10},
            filter_param="filter",
        ),
        # Write calls: judged for their keywords only (same signatures from 2.0.24 to 2.0.33).
        "add_message": Method(
            "add_message",
            params=(
                "messages",
                "user_id",
                "conversation_id",
                "info",
                "source",
                "app_id",
                "agent_id",
                "async_mode",
                "tags",
                "allow_public",
                "allow_knowledgebase_ids",
                "allow_memory_view",
            ),
            positional=12,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            filter_param=None,
        ),
        "delete_memory": Method(
            "delete_memory",
            params=("user_ids", "memory_ids", "user_id", "agent_id", "filter", "memory_type"),
            positional=2,  # `*` after memory_ids
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            filter_param=None,
        ),
        "update_memory": Method(
            "update_memory",
            params=("memory_id", "content", "title", "status"),
            positional=4,
            on_unknown=OnUnknownKeyword.TYPE_ERROR,
            filter_param=None,
        ),
    },
    grammar=None,
)

DIALECTS: dict[str, Dialect] = {d.id: d for d in (PLATFORM, OPEN_SOURCE, MEMSY, MEMOS)}
MEM0 = frozenset({PLATFORM.id, OPEN_SOURCE.id})

# Fully qualified client class name -> dialect.
CLASS_DIALECT: dict[str, Dialect] = {cls: d for d in DIALECTS.values() for cls in d.classes}

# Fully qualified request-record class name -> (dialect, method entry), e.g. Memsy EventPayload.
RECORD_CLASSES: dict[str, tuple[Dialect, str]] = {
    cls: (d, method) for d in DIALECTS.values() for cls, method in d.records.items()
}

# Names of methods worth looking at, over all dialects (the call-site extractor's first filter).
# `list`, `all` and `get_memories` are wrong spellings of `get_all` (MEM123). Methods of one SDK
# called on another SDK's client are cross-SDK confusion (MEM690-MEM692).
WRONG_LIST_METHODS = frozenset({"list", "all", "get_memories", "list_memories"})
# mem0 methods judged only by the client-surface rules (rules/surface/): sites without a spec.
SURFACE_METHODS = frozenset({"add", "update"})
# MEM136 (id-based calls), MEM137 (batch items).
SURFACE_METHODS |= frozenset({"get", "delete", "history", "batch_delete", "batch_update"})
# MEM151 (calls that delete every entity: `reset()`, `delete_users()`).
SURFACE_METHODS |= frozenset({"reset", "delete_users"})
_RECORD_METHODS = frozenset(m for d in DIALECTS.values() for m in d.records.values())
CALL_METHODS = (
    frozenset(
        {
            name.rsplit(".", 1)[-1]
            for d in DIALECTS.values()
            for name in d.methods
            if name not in _RECORD_METHODS
        }
    )
    | WRONG_LIST_METHODS
    | SURFACE_METHODS
)

# Objects that send raw HTTP requests: a `.post(...)` on one of them to a mem0 endpoint is judged
# with the Platform grammar. Module-level functions (`requests.post`) and client classes.
HTTP_POST_FUNCTIONS = frozenset({"requests.post", "httpx.post"})
HTTP_CLIENT_CLASSES = frozenset(
    {
        "requests.Session",
        "requests.session",
        "requests.sessions.Session",
        "httpx.Client",
        "httpx.AsyncClient",
        "aiohttp.ClientSession",
    }
)
# Not an SDK: lets the receiver resolver recognise HTTP clients the same way it recognises SDK
# clients (constructions, `with ... as`, annotations). No rule is registered for it.
HTTP_TRANSPORT = Dialect(
    id="http",
    label="HTTP client",
    classes=HTTP_CLIENT_CLASSES,
    factories=frozenset(),
    methods={},
    grammar=None,
)
# Every class the receiver resolver knows: SDK clients and HTTP clients.
RESOLVABLE_CLASSES: dict[str, Dialect] = {
    **CLASS_DIALECT,
    **{cls: HTTP_TRANSPORT for cls in HTTP_CLIENT_CLASSES},
}

# mem0 REST endpoints (path suffix of the URL) -> the SDK method with the same body grammar.
REST_ENDPOINTS = {"/v3/memories/search/": "search", "/v3/memories/": "get_all"}
# A raw REST call is judged only when its URL's literal head names the Platform's host: the same
# paths are served by users' own proxies, whose grammar is theirs.
PLATFORM_HOST = "mem0.ai"

# MemOS keywords on a mem0 `search()` -> the mem0 keyword, with the literal range that keeps the
# rename valid (None: report without a fix). MEM691 reports them; MEM107 leaves them alone.
MEMOS_KEYWORDS = {
    "memory_limit_number": ("top_k", (1, 25)),
    "relativity": ("threshold", (0, 1)),
    "conversation_id": (None, None),
    "knowledgebase_ids": (None, None),
}

# The SDK classes a documentation page may use without importing them, by their bare name
# (bind/implicit.py): names no other library uses. `Memory` and `MemoryClient` are not here.
DOCS_IMPLICIT_CLASSES = {
    "MemOSClient": "memos.api.client.MemOSClient",
    "MemsyClient": "memsy.MemsyClient",
    "AsyncMemsyClient": "memsy.AsyncMemsyClient",
}
