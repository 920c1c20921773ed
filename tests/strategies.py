"""Hypothesis strategies: memory records, and mem0 filters written right (canonical trees).

The equivalence tests (tests/test_equivalence.py) start from a canonical filter and spell parts
of it the wrong way a rule fixes. Values come from small pools with mixed case so that filters
and records actually meet: a filter that selects nothing proves little.
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as st

# Strategy factories are called inside composites, once per draw: returning the same strategy
# object for the same arguments spares hypothesis validating a new one every time.
reuse = lru_cache(maxsize=1024)

USERS = ["alice", "Alice", "bob"]
AGENTS = ["helper", "Helper"]
APPS = ["web", "mobile"]
RUNS = ["r1", "r2"]
ENTITY_POOLS = {"user_id": USERS, "agent_id": AGENTS, "app_id": APPS, "run_id": RUNS}
OSS_ENTITY_POOLS = {k: v for k, v in ENTITY_POOLS.items() if k != "app_id"}
# One ISO format everywhere, as mem0 writes it; Mongo compares these strings in time order.
DATES = [f"2024-0{m}-1{d}T12:00:00Z" for m in (1, 6) for d in (0, 5)]
CATEGORIES = ["food", "Food", "travel", "TRAVEL_plans", "sports"]
CATEGORY_TEXT = ["foo", "FOOD", "travel", "plans", "Sport"]
WORDS = ["food", "Food", "gold", "trial", "food court", "en"]
# Metadata keys and the values they hold (strings, ints, nulls).
METADATA = {
    "topic": WORDS,
    "tier": ["gold", "trial", "Gold"],
    "priority": [1, 2],
    "lang": ["en", "de"],
}
ABSENT = object()


def _maybe(values) -> st.SearchStrategy:
    """Missing, null, or (more often) one of the values."""
    return st.sampled_from([ABSENT, None, *values, *values])


def mentioned(filters) -> dict[str, list]:
    """Field -> the values a filter compares it with (records drawn from them meet the filter)."""
    found: dict[str, list] = {}

    def field_name(key: str) -> str:
        key = key.split(".", 1)[1] if key.startswith("metadata.") else key
        return {
            "userId": "user_id",
            "agentId": "agent_id",
            "appId": "app_id",
            "runId": "run_id",
        }.get(key, key)

    def values(node) -> list:
        if isinstance(node, dict):
            return [v for item in node.values() for v in values(item)]
        if isinstance(node, list):
            return [v for item in node for v in values(item)]
        return [node] if node != "*" and node is not None else []

    def walk(node) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for key, value in node.items():
                if not isinstance(key, str):
                    continue
                logical = key.lstrip("$").upper() in ("AND", "OR", "NOT")
                if logical or (key == "metadata" and isinstance(value, dict)):
                    walk(value)
                else:
                    found.setdefault(field_name(key), []).extend(values(value))

    walk(filters)
    return found


@st.composite
def record(draw, bias: dict | None = None) -> dict:
    """A memory record; with `bias`, field values come mostly from those the filter mentions."""
    bias = bias or {}

    def pool_for(field, default):
        wanted = [v for v in bias.get(field, []) if isinstance(v, (str, int))]
        return default + wanted * 2

    memory: dict = {}
    pools = {**ENTITY_POOLS, "created_at": DATES, "updated_at": DATES}
    for field, pool in pools.items():
        value = draw(_maybe(pool_for(field, pool)))
        if value is not ABSENT:
            memory[field] = value
    categories = draw(
        st.one_of(
            st.sampled_from([ABSENT, None]), st.lists(st.sampled_from(CATEGORIES), max_size=3)
        )
    )
    if categories is not ABSENT:
        memory["categories"] = categories
    if draw(st.integers(0, 3)):
        metadata = {}
        for key, pool in METADATA.items():
            value = draw(_maybe(pool_for(key, pool)))
            if value is not ABSENT:
                metadata[key] = value
        memory["metadata"] = metadata
    return memory


records = st.lists(record(), min_size=1, max_size=12)


def records_for(filters, max_size: int = 12) -> st.SearchStrategy:
    return st.lists(record(mentioned(filters)), min_size=1, max_size=max_size)


def _one_of_pool(pool):
    return st.sampled_from(pool)


# --- Platform (§3.1): conditions the Platform accepts --------------------------------------------


@reuse
@st.composite
def p_entity_entry(draw, ops=("bare", "eq", "ne", "in", "*")) -> tuple[str, object]:
    field = draw(st.sampled_from(sorted(ENTITY_POOLS)))
    pool = ENTITY_POOLS[field]
    form = draw(st.sampled_from(ops))
    if form == "bare":
        return field, draw(_one_of_pool(pool))
    if form == "*":
        return field, "*"
    if form == "in":
        return field, {"in": draw(st.lists(_one_of_pool(pool), min_size=1, max_size=3))}
    return field, {form: draw(_one_of_pool(pool))}


@reuse
@st.composite
def p_time_entry(draw, ops=("bare", "gt", "gte", "lt", "lte", "ne", "in", "range")):
    field = draw(st.sampled_from(["created_at", "updated_at"]))
    form = draw(st.sampled_from(ops))
    if form == "bare":
        return field, draw(_one_of_pool(DATES))
    if form == "in":
        return field, {"in": draw(st.lists(_one_of_pool(DATES), min_size=1, max_size=2))}
    if form == "range":
        low, high = sorted(draw(st.lists(_one_of_pool(DATES), min_size=2, max_size=2)))
        return field, {"gte": low, "lte": high}
    return field, {form: draw(_one_of_pool(DATES))}


@reuse
@st.composite
def p_categories_entry(draw, ops=("in", "contains")):
    if draw(st.sampled_from(ops)) == "in":
        return "categories", {
            "in": draw(st.lists(_one_of_pool(CATEGORIES), min_size=1, max_size=3))
        }
    return "categories", {"contains": draw(_one_of_pool(CATEGORY_TEXT))}


@reuse
@st.composite
def p_metadata_entry(draw, ops=("bare", "eq", "ne", "contains")):
    key = draw(st.sampled_from(sorted(METADATA)))
    form = draw(st.sampled_from(ops))
    if form == "contains":
        key = draw(st.sampled_from(["topic", "tier"]))
        value = {"contains": draw(_one_of_pool(["food", "Food", "old", "en"]))}
    else:
        value = draw(_one_of_pool(METADATA[key]))
        if form != "bare":
            value = {form: value}
    return "metadata", {key: value}


@reuse
def p_entry(kinds=("entity", "time", "categories", "metadata")):
    makers = {
        "entity": p_entity_entry(),
        "time": p_time_entry(),
        "categories": p_categories_entry(),
        "metadata": p_metadata_entry(),
    }
    return st.one_of([makers[k] for k in kinds])


@reuse
@st.composite
def condition_dict(draw, entries, max_entries: int = 2) -> dict:
    pairs = draw(st.lists(entries, min_size=1, max_size=max_entries, unique_by=lambda p: p[0]))
    return dict(pairs)


@reuse
def tree(leaf: st.SearchStrategy, logical=("AND", "OR", "NOT"), not_shape="object"):
    """Filters built from `leaf` conditions with nested AND / OR lists and NOT."""

    def extend(children):
        options = []
        if "AND" in logical:
            options.append(st.lists(children, min_size=1, max_size=3).map(lambda c: {"AND": c}))
        if "OR" in logical:
            options.append(st.lists(children, min_size=1, max_size=3).map(lambda c: {"OR": c}))
        if "NOT" in logical:
            if not_shape == "object":
                options.append(children.map(lambda c: {"NOT": c}))
            else:
                options.append(st.lists(children, min_size=1, max_size=2).map(lambda c: {"NOT": c}))
        return st.one_of(options)

    return st.recursive(leaf, extend, max_leaves=5)


def mentions_entity(node, entities=frozenset(ENTITY_POOLS)) -> bool:
    if isinstance(node, dict):
        return any(k in entities or mentions_entity(v, entities) for k, v in node.items())
    if isinstance(node, list):
        return any(mentions_entity(item, entities) for item in node)
    return False


@reuse
@st.composite
def p_scoped(draw, filters: st.SearchStrategy) -> dict:
    """A Platform filter with an entity id (the Platform rejects a filter without one)."""
    result = draw(filters)
    if not mentions_entity(result):
        entity = dict([draw(p_entity_entry(ops=("bare", "in")))])
        result = {"AND": [entity, result]}
    return result


@reuse
def p_filter(kinds=("entity", "time", "categories", "metadata"), logical=("AND", "OR", "NOT")):
    return p_scoped(tree(condition_dict(p_entry(kinds)), logical))


# --- open source (§3.2): flat payload keys, a top-level entity id --------------------------------


@reuse
@st.composite
def o_entry(draw, ops=("bare", "eq", "ne", "in", "nin", "range", "contains", "*", "list")):
    key = draw(st.sampled_from(["topic", "tier", "priority", "lang", "created_at"]))
    pool = DATES if key == "created_at" else METADATA[key]
    form = draw(st.sampled_from(ops))
    if form == "bare":
        return key, draw(_one_of_pool(pool))
    if form == "*":
        return key, "*"
    if form == "list":
        return key, draw(st.lists(_one_of_pool(pool), min_size=1, max_size=3))
    if form in ("in", "nin"):
        return key, {form: draw(st.lists(_one_of_pool(pool), min_size=1, max_size=3))}
    if form == "range":
        key = draw(st.sampled_from(["priority", "created_at"]))
        pool = DATES if key == "created_at" else METADATA[key]
        ops = draw(st.lists(st.sampled_from(["gt", "gte", "lt", "lte"]), min_size=1, max_size=2))
        return key, {op: draw(_one_of_pool(pool)) for op in ops}
    if form == "contains":
        op = draw(st.sampled_from(["contains", "icontains"]))
        return draw(st.sampled_from(["topic", "tier"])), {op: draw(_one_of_pool(WORDS))}
    return key, {form: draw(_one_of_pool(pool))}


@reuse
def o_nested_entry():
    """Conditions for inside AND / OR / NOT on open source (no wildcard: see o_filter)."""
    return o_entry(ops=("bare", "eq", "ne", "in", "nin", "range", "contains", "list"))


@reuse
@st.composite
def o_entity(draw) -> tuple[str, str]:
    field = draw(st.sampled_from(sorted(OSS_ENTITY_POOLS)))
    return field, draw(_one_of_pool(OSS_ENTITY_POOLS[field]))


def _keys(node) -> set:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in _keys(v)}
    if isinstance(node, list):
        return {k for item in node for k in _keys(item)}
    return set()


@reuse
@st.composite
def o_filter(draw, entries=None, logical=("AND", "OR", "NOT"), min_logical=0) -> dict:
    """A filter mem0 open source accepts: a top-level entity id, flat keys, logical lists.

    Keys stay distinct across the root and its AND (the SDK flattens a root AND into one dict,
    so a repeated key would be overwritten: MEM308's business, not a fix's).
    """
    entries = o_entry() if entries is None else entries
    # A "*" inside AND/OR/NOT is dropped by mem0's Qdrant translation (the branch builds no
    # condition), so `{"OR": [{"k": "*"}, c]}` means `c` there: keep wildcards at the root.
    nested = entries.filter(lambda entry: entry[1] != "*")
    root = dict([draw(o_entity())])
    for key, value in draw(st.lists(entries, max_size=2, unique_by=lambda p: p[0])):
        root.setdefault(key, value)
    names = (
        draw(st.lists(st.sampled_from(logical), min_size=min_logical, max_size=2, unique=True))
        if logical
        else []
    )
    for name in names:
        children = draw(st.lists(condition_dict(nested), min_size=1, max_size=3))
        if name == "AND":
            children = _distinct(children, root)
        root[name] = children
    return root


def _distinct(children: list[dict], root: dict) -> list[dict]:
    """The children without keys already used by the root or an earlier child. Never empty:
    when nothing is left, the first child keeps its keys and the root gives them up."""
    seen = set(root)
    kept = []
    for child in children:
        child = {k: v for k, v in child.items() if k not in seen}
        if child:
            kept.append(child)
            seen |= set(child)
    if not kept:  # every key was the root's: move the first child's keys out of the root
        first = children[0]
        for key in first:
            root.pop(key, None)
        kept = [first]
    return kept


# --- MemOS Cloud (§3.4): global `and` / `or` groups, or per-source groups -----------------------

MEMOS_INFO = {"scene": ["chat", "email", "Chat"], "biz_id": ["b1", "b2"], "business_type": ["crm"]}
MEMOS_TAGS = ["reading", "travel", "work", "notice"]
MEMOS_DATES = ["2025-01-01", "2025-03-15", "2025-06-30", "2025-12-31"]
MEMOS_AGENTS = ["bot_a", "bot_b"]
MEMOS_SOURCES = ("user", "public", "knowledgebase")


@st.composite
def memos_record(draw) -> dict:
    """A MemOS memory: its source, fixed fields, and `info` fields (any may be missing)."""
    memory: dict = {"source": draw(st.sampled_from(MEMOS_SOURCES))}
    for field, pool in (
        ("agent_id", MEMOS_AGENTS),
        ("create_time", MEMOS_DATES),
        ("update_time", MEMOS_DATES),
    ):
        value = draw(_maybe(pool))
        if value is not ABSENT:
            memory[field] = value
    if draw(st.booleans()):
        memory["tags"] = draw(st.lists(st.sampled_from(MEMOS_TAGS), max_size=3))
    info = {}
    for key, pool in MEMOS_INFO.items():
        value = draw(_maybe(pool))
        if value is not ABSENT:
            info[key] = value
    if info or draw(st.booleans()):
        memory["info"] = info
    return memory


def memos_records(max_size: int = 12) -> st.SearchStrategy:
    return st.lists(memos_record(), min_size=1, max_size=max_size)


@reuse
@st.composite
def memos_condition(draw, times=("create_time", "update_time")) -> tuple[str, object]:
    """One field condition as MemOS Cloud reads it: (key, value)."""
    kind = draw(st.sampled_from(["info", "agent", "tags", "time"]))
    if kind == "info":
        key = draw(st.sampled_from(sorted(MEMOS_INFO)))
        return key, draw(st.sampled_from(MEMOS_INFO[key]))
    if kind == "agent":
        return "agent_id", draw(st.sampled_from(MEMOS_AGENTS))
    if kind == "tags":
        return "tags", {"contains": draw(st.sampled_from(MEMOS_TAGS))}
    ops = draw(st.lists(st.sampled_from(["gt", "gte", "lt", "lte"]), min_size=1, max_size=2))
    return draw(st.sampled_from(times)), {op: draw(st.sampled_from(MEMOS_DATES)) for op in ops}


@reuse
def memos_item(times=("create_time", "update_time")) -> st.SearchStrategy:
    """An item of an `and` / `or` list: one or two conditions, or a nested group."""
    leaf = condition_dict(memos_condition(times))

    def extend(children):
        return st.tuples(
            st.sampled_from(["and", "or"]), st.lists(children, min_size=1, max_size=3)
        ).map(lambda group: {group[0]: group[1]})

    return st.recursive(leaf, extend, max_leaves=4)


@reuse
def memos_group(times=("create_time", "update_time")) -> st.SearchStrategy:
    """A root group: `{"and": [...]}` or `{"or": [...]}`."""
    return st.tuples(
        st.sampled_from(["and", "or"]), st.lists(memos_item(times), min_size=1, max_size=3)
    ).map(lambda group: {group[0]: group[1]})


@reuse
def memos_filter(times=("create_time", "update_time")) -> st.SearchStrategy:
    """A filter MemOS Cloud reads: one global group, or groups per source."""
    per_source = st.dictionaries(
        st.sampled_from(MEMOS_SOURCES), memos_group(times), min_size=1, max_size=2
    )
    return st.one_of(memos_group(times), per_source)
