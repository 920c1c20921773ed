"""What the mem0 SDKs accept as call arguments, beyond the signatures in `dialects.py`.

Wrong keyword spellings, literal value ranges, the options models and removed keywords of mem0ai
2.x, as plain data (no libcst): the argument rules (`rules/arguments/`, `rules/client/`) read these
tables instead of spelling SDK knowledge inline. Sources: mem0ai 2.2.1, `mem0/client/main.py`
(Platform) and `mem0/memory/main.py` (open source), and the Platform's API reference
(https://docs.mem0.ai/api-reference).
"""

from __future__ import annotations

from mem0lint.sdk.dialects import DIALECTS, MEM0, MEM0_ENTITIES, Dialect, OnUnknownKeyword
from mem0lint.sdk.model import EmptyText

# Wrong keyword spellings, all silently ignored by mem0 `search()` (the SDKs take **kwargs).
RESULT_CAP_ALIASES = ("limit", "k", "n", "max_results", "count", "size")
THRESHOLD_ALIASES = (
    "min_score",
    "score_threshold",
    "similarity_threshold",
    "min_relevance",
    "cutoff",
)
RERANK_ALIASES = ("use_rerank", "reranking", "reorder")
# Paging keywords: `search()` has no pages on either dialect (MEM111).
SEARCH_PAGING = ("page", "page_size", "offset")

# Accepted literal ranges, per dialect: (low, high); None = unbounded. Platform: server-side
# validation (openapi); open source: `_validate_search_params` in mem0/memory/main.py.
TOP_K_RANGE = {"mem0-platform": (1, 1000), "mem0-oss": (0, None)}
THRESHOLD_RANGE = (0, 1)
# Platform `get_all()` paginates; `page_size` is 1-200 (openapi).
PAGE_SIZE_RANGE = (1, 200)
# Who rejects an out-of-range value (Platform: server validation; open source: the SDK). Not the
# grammar's `rejected_by` ("HTTP 400"): the Platform's range checks answer with some 4xx.
RANGE_REJECTED_BY = {"mem0-platform": "HTTP 4xx", "mem0-oss": "ValueError"}

# How a method that does not declare a keyword treats it (`Method.on_unknown`), for messages.
UNKNOWN_KEYWORD_FATE = {
    OnUnknownKeyword.SENT: "sent to the API, which silently ignores it",
    OnUnknownKeyword.IGNORED: "silently ignored",
}

# Every snake_case keyword some mem0 method knows: the targets of camelCase spellings (MEM124).
KNOWN_SNAKE = frozenset(
    {p for d in MEM0 for m in DIALECTS[d].methods.values() for p in m.params} | MEM0_ENTITIES
)

# The index of the positional argument an author may have meant as the filter dict.
FILTER_POSITION = {"search": 1, "get_all": 0}
# Typed options models of the Platform, which sit in the positional slot after the query.
OPTIONS_MODEL = {"search": "SearchMemoryOptions", "get_all": "GetAllMemoryOptions"}
# Keys that make a positional dict a set of options (`{"filters": ..., "top_k": 5}`), not a filter.
# The fields of SearchMemoryOptions / GetAllMemoryOptions (mem0/client/types.py) less `categories`
# and `metadata`, which are filter keys too, plus open source's `explain`.
OPTION_KEYS = frozenset(
    {
        "filters",
        "top_k",
        "threshold",
        "rerank",
        "page",
        "page_size",
        "fields",
        "show_expired",
        "latest_only",
        "reference_date",
        "keyword_search",
        "start_date",
        "end_date",
        "explain",
    }
)

# Keywords of mem0ai 1.x whose value asks for what 2.x does anyway (None: any value). Passing
# them is dead code that changes nothing: not reported on the Platform, which sends them as JSON
# keys nobody reads (open source add()/update() still raise TypeError on them).
HARMLESS_REMOVED = {
    "version": frozenset({"v2"}),
    "output_format": frozenset({"v1.1"}),
    "api_version": None,
    "async_mode": frozenset({True}),
    "enable_graph": frozenset({False}),
}

# Keywords mem0ai 2.0 removed from add() and update().
REMOVED_WRITE_KEYWORDS = frozenset(
    {
        "output_format",
        "version",
        "api_version",
        "async_mode",
        "enable_graph",
        "filter_memories",
        "immutable",
        "includes",
        "excludes",
        "batch_size",
        "force_add_only",
        "org_id",
        "project_id",
        "org_name",
        "project_name",
    }
)
# Still in the v3 add request body (the server may read them): never reported on Platform add.
PLATFORM_ADD_BODY = frozenset(
    {"enable_graph", "immutable", "includes", "excludes", "output_format"}
)

# `MemoryClient.__init__(api_key=None, host=None, client=None)` has no **kwargs since mem0ai 2.x:
# these former parameters raise TypeError (organisation and project now come from the key).
REMOVED_CLIENT_PARAMS = ("org_id", "project_id", "org_name", "project_name")
# What `MemoryClient.__init__` takes in 2.x (a user passing them to the open-source `Memory()`
# meant the Platform client: MEM125).
PLATFORM_CLIENT_PARAMS = ("api_key", "host", "client")

# What an unscoped delete_all() runs into, and how to delete everything on purpose.
UNSCOPED_DELETE_ALL = {
    "mem0-platform": (
        'is rejected by the API; pass `user_id=` / `agent_id=` / `app_id=` / `run_id=` (`"*"` '
        "for one of them deletes all memories of that entity type)"
    ),
    "mem0-oss": (
        "raises ValueError; pass `user_id=` / `agent_id=` / `run_id=` (`reset()` wipes every "
        "memory on purpose)"
    ),
}


def client_class(dialect: Dialect) -> str:
    """The synchronous client class a user of `dialect` holds (`MemoryClient`, `Memory`)."""
    names = {name.rsplit(".", 1)[-1] for name in dialect.classes}
    return min(name for name in names if not name.startswith("Async"))


# What `search()` rejects as an empty query: `query.strip()` empty (ValueError); None is not
# judged (a missing query is another error).
EMPTY_QUERY = EmptyText(strips=True, none=False)


# The parameters each client declares (no `**kwargs`), read from mem0ai 0.1.0, 0.1.20, 0.1.50,
# 0.1.88, 0.1.100, 0.1.115, 1.0.3, 1.0.11, 2.0.0, 2.0.4 and 2.2.1 (`mem0/client/main.py`,
# `mem0/memory/main.py`;
# the async classes have the same signatures). The Platform's `delete_linked` first ships in
# 2.0.4; it is accepted here on every release so that an older pin never makes it a finding
# (unknown stays silent).
ID_CALL_PARAMS = {
    "mem0-platform": {
        "get": ("memory_id",),
        "delete": ("memory_id", "delete_linked"),
        "history": ("memory_id",),
    },
    "mem0-oss": {
        "get": ("memory_id",),
        "delete": ("memory_id",),
        "history": ("memory_id",),
    },
}

# What `update()` can change on each client (`mem0/client/main.py`, `mem0/memory/main.py`).
UPDATE_CHANGES = {
    "mem0-platform": ("text", "metadata", "timestamp", "expiration_date"),
    "mem0-oss": ("text", "metadata", "expiration_date", "data"),
}
# Every parameter open source `Memory.update()` / `AsyncMemory.update()` has had, read from the
# wheels of 0.1.0, 0.1.29, 0.1.65, 0.1.100, 0.1.118, 1.0.0, 1.0.11, 2.0.0, 2.0.10 and 2.2.1
# (`mem0/memory/main.py`): `(memory_id, data)` to 1.0.0, `metadata` by 1.0.11, `expiration_date`
# in 2.0.10, `text` (with `data` its deprecated alias) in 2.0.12; never `**kwargs`, no decorator.
# A keyword outside this set raises TypeError on every release.
OSS_UPDATE_PARAMS = ("memory_id", *UPDATE_CHANGES["mem0-oss"])


# --- open source `Memory.add()` / `AsyncMemory.add()` and `from_config` (MEM143-MEM149) ----------
# The keyword-only parameters of open source add(), read from the wheels of 0.1.20 to 2.2.1
# (`mem0/memory/main.py`): 0.1.0-0.1.99 took `user_id` ... `filters` by position or keyword;
# from 0.1.100 everything after `messages` is keyword-only, with no `**kwargs`, and `filters`
# is gone. 2.0.6 adds `timestamp` (which raises ValueError: Platform-only), 2.0.10
# `expiration_date`. AsyncMemory.add() also takes `llm`. Every release from 0.1.100 to 2.2.1
# takes a subset of this set, so a keyword outside it raises TypeError on all of them.
OSS_ADD_PARAMS = (
    "messages",
    "user_id",
    "agent_id",
    "run_id",
    "metadata",
    "timestamp",
    "expiration_date",
    "infer",
    "memory_type",
    "prompt",
    "llm",
)
# The roles the extraction reads (`parse_messages` in mem0/memory/utils.py): a message with any
# other role is left out of the text the LLM sees.
OSS_ADD_ROLES = ("user", "assistant", "system")
# The only `memory_type` add() accepts (`MemoryType.PROCEDURAL`); any other value raises
# Mem0ValidationError (VALIDATION_002). The procedural path runs only `if agent_id is not None`.
OSS_MEMORY_TYPES = ("procedural_memory",)
# Keys add() strips from `metadata=` with a warning since 2.0.16 (`_IDENTITY_KEYS`,
# `_build_filters_and_metadata`): scope comes from the entity keywords only.
OSS_METADATA_IDENTITY_KEYS = ("user_id", "agent_id", "run_id", "actor_id")
# The fields of `MemoryConfig` (mem0/configs/base.py), the same in 2.0.0 to 2.2.1. The model
# keeps pydantic's default `extra="ignore"`: any other top-level key of a `from_config` dict is
# dropped without a word.
OSS_CONFIG_FIELDS = (
    "vector_store",
    "llm",
    "embedder",
    "history_db_path",
    "reranker",
    "version",
    "custom_instructions",
)
# 1.x config keys that 2.0 removed, and what (if anything) took their place. The replacement is
# not the same contract (a full extraction prompt vs. instructions added to mem0's prompt).
# (`enable_graph` was never a `MemoryConfig` field: an unknown key in every release.)
OSS_CONFIG_REMOVED = {
    "custom_fact_extraction_prompt": "custom_instructions",
    "custom_update_memory_prompt": None,
    "graph_store": None,
}
# Destructive scope (MEM150-MEM152) ------------------------------------------------------------
# Platform `delete_all()`: `"*"` as an entity id matches every value of that id (openapi
# `DELETE /v1/memories/`: "Pass `*` to delete memories for all users"); the client forwards it
# unchanged as a query parameter in every release (0.1.100, 1.0.3, 2.0.0, 2.2.1 read).
DELETE_ALL_WILDCARD = "*"
# Platform `delete_users(user_id=None, agent_id=None, app_id=None, run_id=None)`: when none is
# truthy it lists `users()` and deletes every user, agent, app and run of the project;
# `reset()` calls it with no argument. Open source `Memory.reset()` drops the vector collection
# and the history database. Read in 0.1.100, 1.0.3, 2.0.0 and 2.2.1 (`mem0/client/main.py`,
# `mem0/memory/main.py`).
DELETE_USERS_SCOPE = ("user_id", "agent_id", "app_id", "run_id")
WIPE_ALL = {
    ("mem0-platform", "reset"): (
        "deletes every user, agent, app and run of the project (it calls `delete_users()` "
        "with no id)"
    ),
    ("mem0-platform", "delete_users"): (
        "with no id deletes every user, agent, app and run of the project (it lists `users()` "
        "and deletes each)"
    ),
    ("mem0-oss", "reset"): "drops the whole vector collection and the history database",
}
# `batch_update` / `batch_delete`: openapi `/v1/batch/` `memories.maxItems`; the server answers
# 400 "Maximum of 1000 memories can be updated in a single request". The client sends the list
# unchanged.
BATCH_MAX_ITEMS = 1000

# Silent caps after the v3 defaults (MEM153) ---------------------------------------------------
# The keywords that set how many memories `get_all()` returns: open source `top_k` (default 20
# since 2.0.0; 1.x had `limit=100`), Platform `page` / `page_size` (`POST /v3/memories/` answers
# one page, `page_size` default 100, max 200, with `count`/`next`/`previous`).
GET_ALL_CAP_KEYWORDS = {"mem0-platform": ("page", "page_size"), "mem0-oss": ("top_k",)}
# The keys of the Platform's paginated answer that show the code knows about pages.
GET_ALL_PAGE_KEYS = ("count", "next", "previous")

# Placeholder memory ids (MEM155) --------------------------------------------------------------
# Memory ids are UUIDs on both clients (open source: `uuid.uuid4()` in `_create_memory`; the
# Platform's openapi: `memory_id` `format: uuid`). These spellings are what the docs and
# tutorials put where an id goes (mem0 #1522 "memory_id is not m1 like the tutorial", #1547
# `update(memory_id="m1")`): `m1`, `mem_123`, `<memory_id>`, `your_memory_id`, `memory_id`.
PLACEHOLDER_MEMORY_ID = (
    r"^(?:m\d{1,4}|mem_\d{1,4}|<[^<>\s]+>|your[-_ ]?(?:memory[-_ ]?)?id|memory[-_ ]?id)$"
)
# What a non-existent id does: the Platform answers 4xx (`MemoryNotFoundError` / a
# `ValidationError` for a malformed UUID); open source `get()` returns None, `update()` and
# `delete()` raise ValueError ("Memory with id ... not found"), `history()` returns [].
ID_METHODS = ("get", "delete", "history", "update")
