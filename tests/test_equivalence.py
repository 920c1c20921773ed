"""Every safe fix keeps the meaning the author wrote: proved on generated filters and records.

For each fix kind (a rule code) hypothesis writes calls in the wrong form the rule fixes. A
hypothesis example is a batch of BATCH distinct cases (and, for filters, one set of records for
the whole batch): the cases are rendered as the calls of ONE program (the dialect's client set-up,
then one statement per case), `engine.fix` runs once with safe fixes only (every registered rule,
so fixes that chain are proved together), and each fixed statement is read back with
`ast.literal_eval` and checked:

    records selected before  (the meaning the author wrote: MongoDB's, via mongomock, for
                              `$`-operators; otherwise the filter read as its author meant it)
 == records selected after   (the dialect itself: the Platform grammar, mem0 open source's own
                              filter path and Qdrant's local filter check, or MemOS Cloud's).

Fixes that change call arguments rather than filters (`limit=` -> `top_k=`) are proved the same
way on the arguments the call binds: what the author meant by the wrong keyword is what the
fixed call passes.

A case the rule reports without offering a safe fix (a key collision, a value it cannot read)
is neither a counterexample nor a proof: it is not counted. A case counts as proved only when
the rule fired, its fix was applied (the rule no longer reports the statement) and the meaning
was kept; each fix kind needs MEM0LINT_PROOF_EXAMPLES distinct proved cases (default 500; e.g.
5000 for the large profile), and skipped cases may not outnumber proved ones.

`PROOFS` (filters) and `ARGUMENT_PROOFS` (arguments) are the tables: rule code -> strategy of
cases. Every rule registered with a safe fix must have an entry
(test_every_safe_fix_kind_has_a_proof); entries whose rule is not registered yet are ready and
simply wait. A strategy may yield None (a void case: nothing to respell); it is dropped from its
batch rather than rejecting the whole batch.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import pprint
import re
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest
import real_sdk_path
from evaluators import memos, mongo, oss, platform
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from strategies import (
    CATEGORY_TEXT,
    DATES,
    ENTITY_POOLS,
    MEMOS_AGENTS,
    MEMOS_INFO,
    MEMOS_SOURCES,
    MEMOS_TAGS,
    METADATA,
    OSS_ENTITY_POOLS,
    condition_dict,
    memos_condition,
    memos_filter,
    memos_group,
    memos_item,
    memos_records,
    o_entity,
    o_entry,
    o_filter,
    o_nested_entry,
    p_categories_entry,
    p_entity_entry,
    p_entry,
    p_filter,
    p_metadata_entry,
    p_scoped,
    p_time_entry,
    records_for,
    tree,
)

from mem0lint import engine
from mem0lint.rule import PREAMBLES
from mem0lint.rules import all_rules

EXAMPLES = int(os.environ.get("MEM0LINT_PROOF_EXAMPLES", "500"))
# Cases per hypothesis example: rendered as calls of one program, fixed by one `engine.fix`.
BATCH = 20
# Records per batch: every case of the batch is evaluated on the same records, drawn from the
# values the batch's filters mention.
MAX_RECORDS = 24
# A run that proves fewer cases than EXAMPLES is repeated (fresh random cases) at most this often.
MAX_RUNS = 8  # hypothesis may repeat cases; run again until EXAMPLES distinct ones are proved
PLATFORM, OSS, MEMOS = "mem0-platform", "mem0-oss", "memos"
RULES = all_rules()
# Each program starts with the dialect's client set-up (plus the async class, for MEM121).
HEADS = {**PREAMBLES, OSS: PREAMBLES[OSS] + "from mem0 import AsyncMemory\n"}
HEADS["memsy"] = PREAMBLES["memsy"] + "from memsy import EventPayload\n"  # MEM611
SAFE_FIXES = engine.RuleSet(engine.Settings())
# Records for argument cases run through the real SDK (filter cases bring their own).
REAL_RECORDS = [
    {"user_id": "alice", "agent_id": "helper", "metadata": {"topic": "food", "priority": 1}},
    {"user_id": "bob", "run_id": "r1", "metadata": {"topic": "gold", "priority": 2}},
]


@dataclass
class FilterCase:
    """A `search()` call whose filter (and entity keywords) the author wrote in a wrong form."""

    dialect: str
    filters: Any  # the written `filters=` value; None: no `filters=`
    meaning: str  # "mongo": MongoDB's meaning; "intended": the evident reading
    keywords: dict = field(default_factory=dict)  # other keyword arguments as written
    style: int = 0  # how the dict is laid out in the source

    def statement(self) -> str:
        parts = ['"q"']
        if self.dialect == MEMOS:  # MemOS scopes by argument; its filter keyword is singular
            parts += ['user_id="u_1"', f"filter={render(self.filters, self.style)}"]
            return f"{receiver(self.dialect)}.search_memory({', '.join(parts)})\n"
        if self.filters is not None:
            parts.append(f"filters={render(self.filters, self.style)}")
        parts += [f"{k}={v!r}" for k, v in self.keywords.items()]
        return f"{receiver(self.dialect)}.search({', '.join(parts)})\n"


@dataclass
class FilterBatch:
    cases: list
    records: list


@dataclass
class ArgumentCase:
    """A statement with arguments spelled wrong, and what its author meant it to do.

    `intended`: the call's {parameter: value} (plus "<method>"), compared with what the fixed
    call binds (`bound`). `check`, when given, replaces that comparison: it receives the case,
    the fixed statement (ast) and the fixed statement's source.
    """

    dialect: str
    call: str  # the statement's source text (one top-level statement), receiver included
    intended: dict = field(default_factory=dict)
    check: Any = None  # check(case, fixed statement, its source, (findings before, after))

    def statement(self) -> str:
        return self.call


def render(value: Any, style: int) -> str:
    """Python source for a dict literal: one line, or pretty-printed over several lines."""
    return repr(value) if style == 0 else pprint.pformat(value, width=40)


def receiver(dialect: str) -> str:
    return re.findall(r"^(\w+) = ", PREAMBLES[dialect], re.M)[-1]


def statement_call(statement: ast.stmt) -> ast.Call:
    """The call a statement makes: `x.m(...)`, `await x.m(...)`, `y = x.m(...)`."""
    node = statement.value if isinstance(statement, (ast.Expr, ast.Assign)) else None
    if isinstance(node, ast.Await):
        node = node.value
    assert isinstance(node, ast.Call), ast.unparse(statement)
    return node


def last_call(code: str) -> ast.Call:
    return statement_call(ast.parse(code).body[-1])


def call_arguments(call: ast.Call) -> tuple[list, dict]:
    args = [ast.literal_eval(a) for a in call.args]
    keywords = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    return args, keywords


# --- one batch: render, fix once, read every call back ------------------------------------------


@dataclass
class Tally:
    """Per fix kind: distinct cases proved (the fix applied and kept the meaning), and cases
    the rule reported without offering a safe fix (neither proof nor counterexample)."""

    proved: set = field(default_factory=set)
    unfixable: int = 0
    # Of those, the cases also run before and after through the real SDK (real_sdk_path.py):
    # ran cleanly before (and after, selecting the same), or rejected by the SDK before.
    real: set = field(default_factory=set)
    real_rejected: set = field(default_factory=set)


def prove_batch(code: str, cases: list, prove: Callable, tally: Tally, records=None) -> None:
    for dialect in sorted({case.dialect for case in cases}):
        group = [case for case in cases if case.dialect == dialect]
        preamble = HEADS[dialect]
        program = preamble + "".join(case.statement() for case in group)
        # `first`: what every rule reports on the program as written
        first, result = real_sdk_path.fixed_program(program, SAFE_FIXES)
        skip = len(ast.parse(preamble).body)
        written = ast.parse(program).body[skip:]
        fixed_code = result.code or program
        fixed = ast.parse(fixed_code).body[skip:]
        assert len(written) == len(fixed) == len(group), fixed_code
        for case, before, after in zip(group, written, fixed):
            fired = [d for d in first if d.code == code and within(d, before)]
            assert fired, f"{code} does not fire on:\n{preamble}{case.statement()}"
            left = [d for d in result.diagnostics if d.code == code and within(d, after)]
            # The statement's whole lines, so that trailing noqa comments are included.
            after_source = "\n".join(fixed_code.splitlines()[after.lineno - 1 : after.end_lineno])
            if left:
                assert not any(engine.applicable(d, unsafe=False) for d in left), (
                    f"{code} left unfixed although it offers a safe fix:\n{after_source}"
                )
                tally.unfixable += 1  # reported without a safe fix: not a proof
                continue
            if records is None:
                findings = (
                    sorted((d.code, d.message) for d in first if within(d, before)),
                    sorted((d.code, d.message) for d in result.diagnostics if within(d, after)),
                )
                prove(case, after, after_source, findings)
            else:
                prove(case, after, after_source, records)
            tally.proved.add((dialect, case.statement(), repr(records)))
            # The same case through the installed SDK: a call that ran cleanly still does, and
            # (open source) the store selects the same records; (Platform) a request the server
            # accepted is still accepted.
            intended = None
            if isinstance(case, FilterCase):
                intended = tuple(selected_before(case, records))
            problem = real_sdk_path.compare(
                dialect,
                case.statement(),
                after_source,
                REAL_RECORDS if records is None else records,
                intended=intended,
            )
            assert problem in (None, "", real_sdk_path.REJECTED), problem
            if problem == "":
                tally.real.add((dialect, case.statement(), repr(records)))
            elif problem == real_sdk_path.REJECTED:
                tally.real_rejected.add((dialect, case.statement(), repr(records)))


def within(diagnostic, statement: ast.stmt) -> bool:
    return statement.lineno <= diagnostic.start[0] <= statement.end_lineno


# --- meaning before and after -------------------------------------------------------------------


def selected_before(case: FilterCase, records: list) -> list[int]:
    filters = case.filters
    entities = {k: v for k, v in case.keywords.items() if k in ENTITY_POOLS}
    if case.meaning == "mongo":
        documents = records if case.dialect == PLATFORM else list(map(oss.payload, records))
        return mongo.select(filters, documents)
    # Entity keywords meant: these ids, and the filter.
    if entities:
        filters = {"AND": [*([filters] if filters else []), *({k: v} for k, v in entities.items())]}
    if case.dialect == PLATFORM:
        return platform.select(filters, records, strict=False)
    if case.dialect == MEMOS:
        return memos.select(filters, records, strict=False)
    return oss.select_intended(filters, records)


def selected_after(dialect: str, call: ast.Call, records: list) -> list[int]:
    args, keywords = call_arguments(call)
    assert args == ["q"], ast.unparse(call)
    if dialect == MEMOS:
        return memos.select(keywords.get("filter"), records, strict=True)
    left = sorted(set(keywords) & set(ENTITY_POOLS) - ({"app_id"} if dialect == OSS else set()))
    assert not left, f"entity keywords still outside filters: {left}"
    filters = keywords.get("filters")
    if dialect == PLATFORM:
        return platform.select(filters, records, strict=True)
    real = oss.select_real(filters, records)
    # The hand-written reading of open source agrees with the SDK + Qdrant on what it accepts.
    assert oss.select_intended(filters, records) == real, "oss evaluator disagrees with Qdrant"
    return real


def prove_filter(case: FilterCase, after: ast.stmt, after_source: str, records: list) -> None:
    before = selected_before(case, records)
    try:
        selected = selected_after(case.dialect, statement_call(after), records)
    except (platform.Rejected, oss.Rejected, memos.Rejected) as error:
        pytest.fail(f"the fixed call is rejected ({error}):\n{after_source}")
    assert before == selected, (
        f"meaning changed: before {before}, after {selected}\n{case.statement()}--- fixed ---\n"
        f"{after_source}\nrecords: {records}"
    )


def prove_argument(case: ArgumentCase, after: ast.stmt, after_source: str, findings) -> None:
    """`findings`: (code, message) of every finding on the statement, before and after."""
    if case.check is not None:
        case.check(case, after, after_source, findings)
        return
    got = bound(case.dialect, statement_call(after))
    assert got == case.intended, f"{case.call}--- fixed ---\n{after_source}\n{got}"


def bound(dialect: str, call: ast.Call) -> dict:
    """{parameter: value} of a call, positionals named by the dialect's method table."""
    from mem0lint.sdk.dialects import DIALECTS

    function = call.func
    method = ast.unparse(function).split(".", 1)[-1] if isinstance(function, ast.Attribute) else ""
    args, keywords = call_arguments(call)
    spec = DIALECTS[dialect].method(method)
    named = dict(zip(spec.params, args)) if spec else {f"#{i}": a for i, a in enumerate(args)}
    return {"<method>": method, **named, **keywords}


# --- wrong spellings ----------------------------------------------------------------------------

LOGICAL = ("AND", "OR", "NOT")


def respell(filters: Any, choose: Callable[[str, str, str | None], str | None], mask) -> Any:
    """Rebuild `filters`, offering every key to `choose(role, key, field)`; role is "logical",
    "field", "metafield" or "operator". `mask(i)` says whether the i-th offered rename is taken.
    """
    counter = [0]

    def offer(role, key, field_name):
        new = choose(role, key, field_name)
        if new is None:
            return key
        index = counter[0]
        counter[0] += 1
        return new if mask(index) else key

    def condition(node):
        if not isinstance(node, dict):
            return node
        out = {}
        for key, value in node.items():
            if key in LOGICAL:
                items = (
                    [condition(c) for c in value] if isinstance(value, list) else condition(value)
                )
                out[offer("logical", key, None)] = items
            elif key == "metadata" and isinstance(value, dict):
                inner = {offer("metafield", k, k): operand(v, k) for k, v in value.items()}
                out[offer("field", key, None)] = inner
            else:
                out[offer("field", key, None)] = operand(value, key)
        return out

    def operand(value, field_name):
        if isinstance(value, dict):
            return {offer("operator", op, field_name): v for op, v in value.items()}
        return value

    return condition(filters), counter[0]


@st.composite
def respelled(draw, filters_strategy, choose, every=False):
    """A filter from the strategy with some (at least one; or every) offered key respelled."""
    filters = draw(filters_strategy)
    if filters is None:
        return None
    _, offered = respell(filters, choose, lambda i: False)
    if offered == 0:
        return None  # nothing to respell: a void case, dropped from its batch
    if every:
        chosen = set(range(offered))
    else:
        chosen = set(draw(st.lists(st.integers(0, offered - 1), min_size=1, unique=True)))
    return respell(filters, choose, lambda i: i in chosen)[0]


@st.composite
def filter_cases(draw, dialect, filters_strategy, meaning="intended"):
    filters = draw(filters_strategy)
    if filters is None:
        return None  # void: dropped from its batch (an `assume` would reject the whole batch)
    return FilterCase(dialect, filters, meaning, style=draw(st.integers(0, 1)))


# MEM201: MongoDB `$`-operators. Every logical key and operator is spelled the Mongo way, so the
# whole filter is MongoDB input and mongomock decides what it meant.
MONGO_SAFE = {"AND": "$and", "OR": "$or"}
MONGO_OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "nin")


def dollar(role, key, field_name):
    if role == "logical":
        return MONGO_SAFE.get(key)
    if role == "operator" and key in MONGO_OPERATORS:
        return "$" + key
    return None


def p_dollar_filters():
    # No NOT (MongoDB's $not negates an operator), no contains (no Mongo twin), no "*", no
    # metadata wrapper (in MongoDB {"metadata": {...}} is whole-document equality).
    entries = st.one_of(
        p_entity_entry(ops=("bare", "eq", "ne", "in")),
        p_time_entry(ops=("bare", "gt", "gte", "lt", "lte", "ne", "in", "range")),
        p_categories_entry(ops=("in",)),
    )
    return respelled(p_scoped(tree(condition_dict(entries), ("AND", "OR"))), dollar, every=True)


def o_dollar_filters(ops=("bare", "eq", "in", "range")):
    entries = o_entry(ops=ops)
    return respelled(o_filter(entries, logical=("AND", "OR")), dollar, every=True)


# MEM202: logical keys in lower or mixed case.
def lowercase(role, key, field_name):
    return {"AND": "and", "OR": "or", "NOT": "not"}[key] if role == "logical" else None


def capitalised(role, key, field_name):
    return key.capitalize() if role == "logical" else None


# MEM203: SQL comparison symbols as operator keys.
SQL = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "ne": "!=", "eq": "=="}


def sql(role, key, field_name):
    return SQL.get(key) if role == "operator" else None


def camel(role, key, field_name):
    camel_names = {"user_id": "userId", "agent_id": "agentId", "app_id": "appId", "run_id": "runId"}
    return camel_names.get(key) if role == "field" else None


def p_logical_filter(not_shape="object"):
    return p_scoped(
        tree(condition_dict(p_entry()), not_shape=not_shape).map(
            lambda f: f if any(k in LOGICAL for k in f) else {"AND": [f]}
        )
    )


def o_logical_filter():
    return o_filter(min_logical=1)


def flat_keys(condition: dict) -> set:
    """A condition's field names as open source stores them (`metadata.k`, `{"metadata": {k}}`:
    `k`)."""
    keys = set()
    for key, value in condition.items():
        if key == "metadata" and isinstance(value, dict):
            keys |= set(value)
        else:
            keys.add(key[len("metadata.") :] if key.startswith("metadata.") else key)
    return keys


@st.composite
def inject(draw, dialect, wrong_condition, alongside=None):
    """A scoped filter holding `wrong_condition` as an AND or OR element beside others."""
    wrong = draw(wrong_condition)
    if dialect == PLATFORM:
        entity = dict([draw(p_entity_entry(ops=("bare", "in")))])
        others = draw(st.lists(alongside or condition_dict(p_entry()), max_size=2))
        if draw(st.booleans()):
            return {"AND": [entity, wrong, *others]}
        return {"AND": [entity, {"OR": [wrong, *others]}]}
    root = draw(o_filter(logical=()))
    # Beside the root's own keys only where no key would collide once flattened (the rules
    # offer no fix for `{"topic": a, "metadata.topic": b}`: which one was meant?).
    if draw(st.booleans()) and not flat_keys(wrong) & flat_keys(root):
        return {**root, **wrong}
    others = draw(st.lists(alongside or condition_dict(o_nested_entry()), max_size=2))
    name = draw(st.sampled_from(["OR", "NOT"]))
    return {**root, name: [wrong, *others]}


@st.composite
def mem101_cases(draw, dialect):
    """Entity ids passed as keywords; the filter (if any) lacks them."""
    pools = ENTITY_POOLS if dialect == PLATFORM else OSS_ENTITY_POOLS
    names = draw(st.lists(st.sampled_from(sorted(pools)), min_size=1, max_size=2, unique=True))
    keywords = {n: draw(st.sampled_from(pools[n])) for n in names}
    if dialect == PLATFORM:
        filters = draw(st.one_of(st.none(), tree(condition_dict(p_entry()))))
    else:
        filters = draw(st.one_of(st.none(), o_filter()))
    if filters is not None:
        filters = {k: v for k, v in filters.items() if k not in keywords}
        if dialect == OSS:
            filters = {k: v for k, v in filters.items() if k not in OSS_ENTITY_POOLS} or None
    return FilterCase(
        dialect,
        filters,
        "intended",
        keywords={**keywords, **draw(st.sampled_from([{}, {"top_k": 5}]))},
        style=draw(st.integers(0, 1)),
    )


@st.composite
def dotted_p(draw):
    key, value = draw(p_metadata_entry())
    ((name, inner),) = value.items()
    return {f"metadata.{name}": inner}


@st.composite
def dotted_o(draw):
    key, value = draw(o_entry(ops=("bare", "eq", "ne", "in", "nin", "range", "contains")))
    return {f"metadata.{key}": value}


@st.composite
def wrapped_o(draw):
    entries = draw(st.lists(o_nested_entry(), min_size=1, max_size=2, unique_by=lambda p: p[0]))
    return {"metadata": dict(entries)}


@st.composite
def not_list_p(draw):
    inner = draw(condition_dict(p_entry()))
    return {"NOT": [inner]}


@st.composite
def not_object_o(draw):
    root = draw(o_filter(logical=("AND", "OR")))
    root["NOT"] = draw(condition_dict(o_nested_entry()))
    return root


@st.composite
def and_or_siblings_p(draw):
    entity = dict([draw(p_entity_entry(ops=("bare", "in")))])
    conditions = draw(st.lists(condition_dict(p_entry()), max_size=2))
    alternatives = draw(st.lists(condition_dict(p_entry()), min_size=1, max_size=3))
    filters = {"AND": [entity, *conditions], "OR": alternatives}
    if draw(st.booleans()):  # the pair may sit one level down, too
        return {"AND": [dict([draw(p_entity_entry(ops=("bare",)))]), filters]}
    return filters


@st.composite
def logical_not_list(draw, dialect):
    name = draw(st.sampled_from(["AND", "OR"]))
    if dialect == PLATFORM:
        inner = draw(condition_dict(p_entry()))
        return {**dict([draw(p_entity_entry(ops=("bare",)))]), name: inner}
    root = draw(o_filter(logical=()))
    inner = draw(condition_dict(o_nested_entry()))
    root = {k: v for k, v in root.items() if k not in inner}
    return {**root, name: inner}


@st.composite
def entity_in_and_o(draw):
    field_name, value = draw(o_entity())
    others = draw(st.lists(condition_dict(o_nested_entry()), min_size=1, max_size=2))
    keys = [k for other in others for k in other]
    if len(keys) != len(set(keys)):
        others = others[:1]
    return {"AND": [{field_name: value}, *others]}


@st.composite
def scalar_in_p(draw):
    kind = draw(st.sampled_from(["entity", "time", "categories"]))
    if kind == "entity":
        field_name = draw(st.sampled_from(sorted(ENTITY_POOLS)))
        return {field_name: {"in": draw(st.sampled_from(ENTITY_POOLS[field_name]))}}
    if kind == "time":
        return {"created_at": {"in": draw(st.sampled_from(DATES))}}
    return {"categories": {"in": draw(st.sampled_from(["food", "travel", "Food"]))}}


@st.composite
def scalar_in_o(draw):
    key = draw(st.sampled_from(sorted(METADATA)))
    op = draw(st.sampled_from(["in", "nin"]))
    return {key: {op: draw(st.sampled_from(METADATA[key]))}}


def metadata_in_p():
    key = st.sampled_from(["topic", "tier", "lang"])
    return st.tuples(
        key, st.lists(st.sampled_from(METADATA["tier"] + METADATA["lang"]), min_size=1, max_size=3)
    ).map(lambda kv: {"metadata": {kv[0]: {"in": kv[1]}}})


# MEM215: an open-source entity id given as a one-id operator dict or list.
@st.composite
def entity_operator_o(draw):
    filters = draw(o_filter())
    entity = next(k for k in filters if k in OSS_ENTITY_POOLS)
    plain = filters[entity]
    filters[entity] = draw(st.sampled_from([{"eq": plain}, {"in": [plain]}, [plain]]))
    return filters


# MEM691: MemOS's time field names in a mem0 filter.
def memos_time_names(role, key, field_name):
    names = {"created_at": "create_time", "updated_at": "update_time"}
    return names.get(key) if role == "field" else None


# MemOS (MEM656-MEM660): wrong forms of filters MemOS Cloud reads.
def memos_respell(filters: Any, choose: Callable[[str, str], str | None], mask) -> tuple:
    """Like `respell`, over a MemOS filter: roles "logical" (`and` / `or`) and "field"."""
    counter = [0]

    def offer(role, key):
        new = choose(role, key)
        if new is None:
            return key
        index = counter[0]
        counter[0] += 1
        return new if mask(index) else key

    def group(node):
        out = {}
        for key, value in node.items():
            if key in ("and", "or"):
                out[offer("logical", key)] = [group(item) for item in value]
            else:
                out[offer("field", key)] = value
        return out

    if any(key in MEMOS_SOURCES for key in filters):
        return {key: group(value) for key, value in filters.items()}, counter[0]
    return group(filters), counter[0]


LOGIC_SPELLINGS = {"and": ("AND", "And", "$and"), "or": ("OR", "Or", "$or")}


@st.composite
def uppercase_logic(draw):
    """MemOS filters with some `and` / `or` keys spelled the mem0 or MongoDB way."""
    filters = draw(memos_filter())
    _, offered = memos_respell(filters, lambda role, key: role == "logical" or None, lambda i: 0)
    chosen = draw(st.lists(st.integers(0, offered - 1), min_size=1, unique=True))
    spellings = [draw(st.integers(0, 2)) for _ in range(offered)]

    def choose(role, key):
        return LOGIC_SPELLINGS[key] if role == "logical" else None

    taken = iter(range(offered))

    def pick(role, key):
        options = choose(role, key)
        return None if options is None else options[spellings[next(taken)]]

    return memos_respell(filters, pick, lambda i: i in chosen)[0]


def memos_case(filters_strategy) -> st.SearchStrategy:
    return filter_cases(MEMOS, filters_strategy)


@st.composite
def bare_root(draw):
    """Conditions written at a root (or a source group's root) without the `and` list."""
    bare = draw(condition_dict(memos_condition(), max_entries=3))
    if draw(st.booleans()):  # beside an existing `and` group: moved into it
        bare = {"and": draw(st.lists(memos_item(), min_size=1, max_size=2)), **bare}
    if draw(st.booleans()):
        sources = draw(
            st.lists(st.sampled_from(MEMOS_SOURCES), min_size=1, max_size=2, unique=True)
        )
        return {sources[0]: bare, **{s: draw(memos_group()) for s in sources[1:]}}
    return bare


@st.composite
def info_wrapped(draw):
    """Info fields wrapped in `{"info": {...}}` inside an `and` / `or` list."""
    keys = draw(st.lists(st.sampled_from(sorted(MEMOS_INFO)), min_size=1, max_size=2, unique=True))
    item = {"info": {key: draw(st.sampled_from(MEMOS_INFO[key])) for key in keys}}
    if draw(st.booleans()):
        other = draw(st.sampled_from(["agent_id", "tags"]))
        item[other] = (
            draw(st.sampled_from(MEMOS_AGENTS))
            if other == "agent_id"
            else {"contains": draw(st.sampled_from(MEMOS_TAGS))}
        )
    ((name, items),) = draw(memos_group()).items()
    items = list(items)
    items.insert(draw(st.integers(0, len(items))), item)
    return {name: items}


def memos_time_filter():
    """Filters written with self-hosted / mem0 time names (`created_at`, `updated_at`)."""
    return memos_filter(times=("created_at", "updated_at")).map(
        lambda f: f if {"created_at", "updated_at"} & all_keys(f) else None
    )


def all_keys(node: Any) -> set:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in all_keys(v)}
    if isinstance(node, list):
        return {k for item in node for k in all_keys(item)}
    return set()


PROOFS: dict[str, st.SearchStrategy] = {
    # --- filters ---
    "MEM101": st.one_of(mem101_cases(PLATFORM), mem101_cases(OSS)),
    "MEM201": st.one_of(
        filter_cases(PLATFORM, p_dollar_filters(), meaning="mongo"),
        filter_cases(OSS, o_dollar_filters(), meaning="mongo"),
    ),
    "MEM202": st.one_of(
        filter_cases(PLATFORM, respelled(p_logical_filter(), lowercase)),
        filter_cases(PLATFORM, respelled(p_logical_filter(), capitalised)),
        filter_cases(OSS, respelled(o_logical_filter(), lowercase)),
    ),
    "MEM203": st.one_of(
        filter_cases(PLATFORM, respelled(p_filter(kinds=("entity", "time", "metadata")), sql)),
        filter_cases(OSS, respelled(o_filter(), sql)),
    ),
    "MEM208": filter_cases(PLATFORM, inject(PLATFORM, metadata_in_p())),
    "MEM209": filter_cases(
        PLATFORM,
        inject(
            PLATFORM, st.sampled_from(CATEGORY_TEXT).map(lambda s: {"categories": {"icontains": s}})
        ),
    ),
    "MEM210": filter_cases(
        PLATFORM,
        inject(PLATFORM, st.sampled_from(DATES).map(lambda d: {"created_at": {"eq": d}})),
    ),
    "MEM214": st.one_of(
        filter_cases(PLATFORM, inject(PLATFORM, scalar_in_p())),
        filter_cases(OSS, inject(OSS, scalar_in_o())),
    ),
    "MEM301": st.one_of(
        filter_cases(PLATFORM, inject(PLATFORM, not_list_p())),
        filter_cases(OSS, not_object_o()),
    ),
    "MEM302": filter_cases(PLATFORM, and_or_siblings_p()),
    "MEM305": st.one_of(
        filter_cases(PLATFORM, inject(PLATFORM, dotted_p())),
        filter_cases(OSS, inject(OSS, dotted_o())),
    ),
    "MEM306": filter_cases(OSS, inject(OSS, wrapped_o())),
    "MEM311": st.one_of(
        filter_cases(PLATFORM, logical_not_list(PLATFORM)),
        filter_cases(OSS, logical_not_list(OSS)),
    ),
    "MEM402": filter_cases(OSS, entity_in_and_o()),
    "MEM404": st.one_of(
        filter_cases(PLATFORM, respelled(p_filter(), camel)),
        filter_cases(OSS, respelled(o_filter(), camel)),
    ),
    "MEM215": filter_cases(OSS, entity_operator_o()),
    "MEM656": memos_case(uppercase_logic()),
    "MEM657": memos_case(bare_root()),
    "MEM659": memos_case(info_wrapped()),
    "MEM660": memos_case(memos_time_filter()),
    "MEM691": st.one_of(
        filter_cases(PLATFORM, respelled(p_filter(kinds=("entity", "time")), memos_time_names)),
        filter_cases(OSS, respelled(o_filter(), memos_time_names)),
    ),
}


# --- arguments ----------------------------------------------------------------------------------


# Queries and ids from large pools, so that 500 generated calls are 500 different calls.
QUERY_WORDS = ["trip", "plans", "food", "likes", "diet", "hotel", "budget", "team", "notes", "q"]
QUERIES = st.lists(st.sampled_from(QUERY_WORDS), min_size=1, max_size=4).map(" ".join)


def ids(prefix: str) -> st.SearchStrategy:
    return st.integers(0, 9999).map(lambda n: f"{prefix}{n}")


SCOPE = ids("u_").map(lambda u: {"filters": {"user_id": u}})
MEMOS_SUBJECT = ids("u_").map(lambda u: {"user_id": u})
NO_BASE = st.just({})
MEMSY_BASE = st.one_of(NO_BASE, ids("team_").map(lambda t: {"team_ids": [t]}))


@st.composite
def renamed_keyword(draw, dialect, method, aliases, canonical, values, base=NO_BASE, query=True):
    """`receiver.method(<query,> <base>, alias=value)` meaning `canonical=value`."""
    alias, value, keywords = draw(st.sampled_from(aliases)), draw(values), draw(base)
    intended = {"<method>": method, **keywords, canonical: value}
    parts = [f"{k}={v!r}" for k, v in keywords.items()] + [f"{alias}={value!r}"]
    if query:
        text = draw(QUERIES)
        intended["query"] = text
        parts.insert(0, repr(text))
    return ArgumentCase(dialect, f"{receiver(dialect)}.{method}({', '.join(parts)})\n", intended)


CAP_ALIASES = ["limit", "k", "n", "max_results", "count", "size"]
THRESHOLD_ALIASES = [
    "min_score",
    "score_threshold",
    "similarity_threshold",
    "min_relevance",
    "cutoff",
]


def mem0_both(make):
    return st.one_of(make(PLATFORM), make(OSS))


@st.composite
def positional_filters(draw, dialect):
    filters = draw(p_filter() if dialect == PLATFORM else o_filter())
    text = draw(QUERIES)
    call = f"{receiver(dialect)}.search({text!r}, {render(filters, draw(st.integers(0, 1)))})\n"
    return ArgumentCase(dialect, call, {"<method>": "search", "query": text, "filters": filters})


@st.composite
def singular_filter(draw, dialect):
    filters = draw(p_filter() if dialect == PLATFORM else o_filter())
    text = draw(QUERIES)
    shown = render(filters, draw(st.integers(0, 1)))
    call = f"{receiver(dialect)}.search({text!r}, filter={shown})\n"
    return ArgumentCase(dialect, call, {"<method>": "search", "query": text, "filters": filters})


@st.composite
def delete_all_filters(draw, dialect):
    pools = ENTITY_POOLS if dialect == PLATFORM else OSS_ENTITY_POOLS
    names = draw(st.lists(st.sampled_from(sorted(pools)), min_size=1, max_size=3, unique=True))
    scope = {n: draw(st.one_of(st.sampled_from(pools[n]), ids(n[0] + "_"))) for n in names}
    call = f"{receiver(dialect)}.delete_all(filters={scope!r})\n"
    return ArgumentCase(dialect, call, {"<method>": "delete_all", **scope})


# Client set-up: MEM119 (removed constructor keywords), MEM120 (a dict to Memory()), MEM121
# (awaiting the synchronous factory). The proofs bind the fixed call against the real SDK
# signatures (inspect.signature(...).bind raises TypeError where the SDK would).
REMOVED_PARAMS = ("org_id", "project_id", "org_name", "project_name")


def sdk_signature(dotted: str):
    module, _, name = dotted.rpartition(".")
    owner, _, attribute = name.partition(":")
    target = getattr(importlib.import_module(module), owner)
    return inspect.signature(getattr(target, attribute) if attribute else target)


@st.composite
def removed_client_params(draw):
    """`MemoryClient(<api_key, host>, org_id=..., project_id=...)`: the organisation and
    project come from the key, so the client the author meant is the one built from the rest."""
    kept = {"api_key": draw(ids("m0-key-"))}
    if draw(st.booleans()):
        kept["host"] = draw(st.sampled_from(["https://api.mem0.ai", "http://localhost:8000"]))
    removed = draw(st.lists(st.sampled_from(REMOVED_PARAMS), min_size=1, max_size=4, unique=True))
    arguments = [f"{k}={v!r}" for k, v in kept.items()]
    for name in removed:
        arguments.insert(draw(st.integers(0, len(arguments))), f"{name}={draw(ids('x_'))!r}")
    if draw(st.booleans()) and arguments[0].startswith("api_key="):
        arguments[0] = repr(kept["api_key"])  # the key positionally
    call = f"client = MemoryClient({', '.join(arguments)})\n"
    return ArgumentCase(PLATFORM, call, kept, check=binds_to("mem0.MemoryClient"))


def binds_to(dotted: str, method: str | None = None):
    """A check: the fixed call binds to the SDK callable and passes `case.intended`."""

    def check(case, after, after_source, findings):
        call = statement_call(after)
        if method is not None:
            assert isinstance(call.func, ast.Attribute) and call.func.attr == method, after_source
        args, keywords = call_arguments(call)
        signature = sdk_signature(dotted)
        self_ = [None] if "self" in signature.parameters else []
        bound = signature.bind(*self_, *args, **keywords).arguments
        bound.pop("self", None)
        assert dict(bound) == case.intended, f"{case.call}--- fixed ---\n{after_source}"

    return check


def _intended(dialect: str, positional: dict, keywords: dict) -> dict:
    """What a call binds: open source names every keyword; the Platform's land in **kwargs."""
    if dialect == PLATFORM:
        return {**positional, "kwargs": keywords} if keywords else dict(positional)
    return {**positional, **keywords}


@st.composite
def update_data(draw, dialect, dotted):
    """`update(<id>, data=<text>)`: the author meant the new text (MEM132)."""
    memory_id, text = draw(ids("mem-")), draw(QUERIES)
    call = f"{receiver(dialect)}.update({memory_id!r}, data={text!r})\n"
    intended = _intended(dialect, {"memory_id": memory_id}, {"text": text})
    return ArgumentCase(dialect, call, intended, check=binds_to(dotted, "update"))


@st.composite
def id_keyword(draw, dialect, client):
    """`get(id=<id>)`, `update(text=<text>, id=<id>)`: the author meant `memory_id` (MEM156)."""
    method = draw(st.sampled_from(["get", "delete", "history", "update"]))
    memory_id = draw(ids("mem-"))
    parts, keywords = [f"id={memory_id!r}"], {}
    if method == "update":
        keywords["text"] = draw(QUERIES)
        parts.insert(draw(st.integers(0, 1)), f"text={keywords['text']!r}")
    call = f"{receiver(dialect)}.{method}({', '.join(parts)})\n"
    intended = _intended(dialect, {"memory_id": memory_id}, keywords)
    return ArgumentCase(dialect, call, intended, check=binds_to(f"{client}:{method}", method))


@st.composite
def update_text_positional(draw):
    """Platform `update(<id>, "<text>")`: the string is the new text, not options (MEM133)."""
    memory_id, text = draw(ids("mem-")), draw(QUERIES)
    call = f"{receiver(PLATFORM)}.update({memory_id!r}, {text!r})\n"
    intended = _intended(PLATFORM, {"memory_id": memory_id}, {"text": text})
    return ArgumentCase(
        PLATFORM, call, intended, check=binds_to("mem0.MemoryClient:update", "update")
    )


FORCED_VALUES = [("version", "v2"), ("output_format", "v1.1"), ("api_version", "v1")]


@st.composite
def removed_forced(draw, dialect, dotted):
    """`add(<text>, user_id=u, <removed>=<what 2.x forces>)`: the call without it (MEM135)."""
    text, user = draw(QUERIES), draw(ids("u_"))
    name, value = draw(st.sampled_from(FORCED_VALUES))
    if dialect == PLATFORM and name == "output_format":
        name, value = "async_mode", True  # output_format is still a v3 add body key
    parts = [repr(text), f"user_id={user!r}"]
    parts.insert(draw(st.integers(1, 2)), f"{name}={value!r}")
    call = f"{receiver(dialect)}.add({', '.join(parts)})\n"
    intended = _intended(dialect, {"messages": text}, {"user_id": user})
    return ArgumentCase(dialect, call, intended, check=binds_to(dotted, "add"))


@st.composite
def batch_items(draw):
    """`batch_delete([...])` / `batch_update([...])` with items spelled as bare ids, `id` or
    `memoryId` keys, or `data` for the text (MEM137): the fixed call sends the items the author
    meant, `{"memory_id": ..., "text": ...}`. None (void) when every item is already right."""
    method = draw(st.sampled_from(["batch_delete", "batch_update"]))
    written, meant, wrong = [], [], False
    for _ in range(draw(st.integers(1, 4))):
        memory_id = draw(ids("mem-"))
        if method == "batch_delete":
            form = draw(st.sampled_from(["bare", "id", "memoryId", "memory_id"]))
            written.append(repr(memory_id) if form == "bare" else repr({form: memory_id}))
            meant.append({"memory_id": memory_id})
            wrong = wrong or form != "memory_id"
        else:
            key = draw(st.sampled_from(["id", "memoryId", "memory_id"]))
            text_key, text = draw(st.sampled_from(["text", "data"])), draw(QUERIES)
            written.append(repr({key: memory_id, text_key: text}))
            meant.append({"memory_id": memory_id, "text": text})
            wrong = wrong or key != "memory_id" or text_key != "text"
    if not wrong:
        return None
    call = f"{receiver(PLATFORM)}.{method}([{', '.join(written)}])\n"
    return ArgumentCase(
        PLATFORM, call, {"memories": meant}, check=binds_to(f"mem0.MemoryClient:{method}", method)
    )


RESULT_USES = [
    "len({})",
    "{}[0]",
    "{}[-1]",
    "{}[1:3]",
    "[m for m in {}]",
    "[(i, m) for i, m in enumerate({})]",
]


@st.composite
def result_as_list(draw):
    """`len(client.search(...))` and co. (MEM130): the fixed statement, run on the dict the SDK
    returns (`{"results": L}`), computes what the original meant on the list L."""
    dialect = draw(st.sampled_from([PLATFORM, OSS]))
    method = draw(st.sampled_from(["search", "get_all"]))
    query = f"{draw(QUERIES)!r}, " if method == "search" else ""
    call = f'{receiver(dialect)}.{method}({query}filters={{"user_id": "u"}})'
    use = draw(st.sampled_from(RESULT_USES))
    memories = draw(st.lists(ids("m").map(lambda m: {"memory": m}), min_size=3, max_size=5))

    def check(case, after, after_source, findings):
        def value(statement_source: str, result):
            tree = ast.parse(statement_source).body[-1]
            calls = [
                n
                for n in ast.walk(tree)
                if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == method
            ]
            assert len(calls) == 1, statement_source
            source = ast.unparse(tree.value).replace(ast.unparse(calls[0]), "__result__", 1)
            return eval(source, {"__result__": result})  # noqa: S307 (our own literal code)

        meant = value(case.call, memories)
        got = value(after_source, {"results": memories, "relations": []})
        assert got == meant, f"{case.call}--- fixed ---\n{after_source}"

    return ArgumentCase(dialect, f"x = {use.format(call)}\n", {}, check=check)


CONFIGS = st.fixed_dictionaries(
    {
        "vector_store": st.fixed_dictionaries(
            {
                "provider": st.sampled_from(["qdrant", "chroma"]),
                "config": ids("memories_").map(lambda n: {"collection_name": n}),
            }
        )
    },
    optional={"version": st.just("v1.1"), "llm": st.just({"provider": "openai"})},
)


@st.composite
def memory_ctor_dict(draw):
    config = draw(CONFIGS)
    shown = render(config, draw(st.integers(0, 1)))
    argument = shown if draw(st.booleans()) else f"config={shown}"
    call = f"{draw(st.sampled_from(['memory', 'store', 'm']))} = Memory({argument})\n"
    return ArgumentCase(
        OSS, call, {"config_dict": config}, check=binds_to("mem0.Memory:from_config", "from_config")
    )


@st.composite
def awaited_from_config(draw):
    """`await AsyncMemory.from_config(...)` in a coroutine; the author meant the instance."""
    name = f"build_{draw(st.integers(0, 9999))}"
    config = draw(st.one_of(st.just("config"), CONFIGS.map(repr)))
    target = draw(st.sampled_from(["return {}", "memory = {}\n    return memory", "self.m = {}"]))
    parameters = "self, config" if "self." in target else "config"
    body = target.format(f"await AsyncMemory.from_config({config})")
    call = f"async def {name}({parameters}):\n    {body}\n"
    return ArgumentCase(OSS, call, check=only_await_dropped)


def only_await_dropped(case, after, after_source, findings):
    """The fixed coroutine is the written one with `await` removed from `from_config(...)`, and
    `from_config` is indeed synchronous in the SDK."""
    from mem0 import AsyncMemory

    assert not inspect.iscoroutinefunction(AsyncMemory.from_config)

    class DropAwait(ast.NodeTransformer):
        def visit_Await(self, node):
            call = node.value
            if isinstance(call, ast.Call) and ast.unparse(call.func) == "AsyncMemory.from_config":
                return self.generic_visit(call)
            return self.generic_visit(node)

    written = DropAwait().visit(ast.parse(case.call).body[0])
    assert ast.dump(written) == ast.dump(after), f"{case.call}--- fixed ---\n{after_source}"


# MEM140: a coroutine of the async clients used as the result, inside an `async def`. (Uses
# MEM130 also fixes, `len(...)` of the whole result, chain two fixes: left to MEM130's proof.)
AWAIT_USES = [
    "return {}['results']",
    "return {}['results'][0]",
    "return len({}['results'])",
    "return {}.get('results')",
    "found = {}['results'][:2]\n    return found",
    "return [m['memory'] for m in {}['results']]",
]
ASYNC_CLASSES = {PLATFORM: "AsyncMemoryClient", OSS: "AsyncMemory"}


@st.composite
def missing_await(draw):
    """`c.search(...)['results']` and co. on an async client in a coroutine (MEM140): the author
    meant the result, which only `await` gives."""
    dialect = draw(st.sampled_from([PLATFORM, OSS]))
    cls = ASYNC_CLASSES[dialect]
    method = draw(st.sampled_from(["search", "get_all"]))
    query = f"{draw(QUERIES)!r}, " if method == "search" else ""
    call = f'c.{method}({query}filters={{"user_id": {draw(ids("u_"))!r}}})'
    body = draw(st.sampled_from(AWAIT_USES)).format(call)
    name = f"recall_{draw(st.integers(0, 99999))}"
    source = f"async def {name}():\n    from mem0 import {cls}\n    c = {cls}()\n    {body}\n"
    memories = draw(st.lists(ids("m").map(lambda m: {"memory": m}), min_size=1, max_size=4))
    result = {"results": memories}

    def check(case, after, after_source, findings):
        import asyncio

        from mem0 import AsyncMemory, AsyncMemoryClient

        owner = AsyncMemoryClient if cls == "AsyncMemoryClient" else AsyncMemory
        assert inspect.iscoroutinefunction(getattr(owner, method))

        class AddAwait(ast.NodeTransformer):
            def visit_Call(self, node):
                self.generic_visit(node)
                if isinstance(node.func, ast.Attribute) and node.func.attr == method:
                    return ast.Await(value=node)
                return node

        written = ast.parse(case.call).body[0]
        meant = AddAwait().visit(ast.parse(case.call).body[0])
        # The fix is exactly the `await`: nothing else of the coroutine changed.
        assert ast.dump(meant) == ast.dump(after), f"{case.call}--- fixed ---\n{after_source}"

        def run(function: ast.AsyncFunctionDef, awaitable: bool):
            class Stub:
                pass

            stub = Stub()

            async def coroutine(*args, **kwargs):
                return result

            def plain(*args, **kwargs):
                return result

            setattr(stub, method, coroutine if awaitable else plain)
            function = ast.fix_missing_locations(function)
            function.body = [s for s in function.body if not isinstance(s, ast.ImportFrom)]
            function.body[0] = ast.parse("c = __client__").body[0]
            namespace = {"__client__": stub}
            exec(compile(ast.Module([function], []), "<case>", "exec"), namespace)  # noqa: S102
            return asyncio.run(namespace[function.name]())

        # What the author meant: the expression on the result; what the fix computes: the same
        # expression on the awaited coroutine's result.
        assert run(after, awaitable=True) == run(written, awaitable=False), after_source

    return ArgumentCase(dialect, source, {}, check=check)


# MEM123: list methods that do not exist -> get_all, with the same arguments.
@st.composite
def wrong_list_method(draw, dialect):
    method = draw(st.sampled_from(["list", "all", "get_memories", "list_memories"]))
    scope = draw(SCOPE)
    shown = ", ".join(f"{k}={v!r}" for k, v in scope.items())
    call = f"{receiver(dialect)}.{method}({shown})\n"
    return ArgumentCase(dialect, call, {"<method>": "get_all", **scope})


# MEM503: numbers written as strings.
@st.composite
def numeric_strings(draw, dialect):
    name = draw(st.sampled_from(["top_k", "threshold"]))
    if name == "top_k":
        value = draw(st.integers(1, 100))
        text = str(value)
    else:
        value = draw(st.sampled_from([0, 0.05, 0.1, 0.25, 0.3, 0.5, 0.75, 1]))
        text = draw(st.sampled_from([str(value), f"{value:.2f}"]))
        value = float(text)
    query, scope = draw(QUERIES), draw(SCOPE)
    call = f"{receiver(dialect)}.search({query!r}, filters={scope['filters']!r}, {name}={text!r})\n"
    intended = {"<method>": "search", "query": query, **scope, name: value}
    return ArgumentCase(dialect, call, intended, check=numbers_as_numbers)


def numbers_as_numbers(case, after, after_source, findings):
    got = bound(case.dialect, statement_call(after))
    assert got == case.intended, f"{case.call}--- fixed ---\n{after_source}"
    assert not isinstance(got.get("top_k", 0), (str, bool, float)), after_source
    assert isinstance(got.get("threshold", 0.0), (int, float)), after_source


# MEM603: `session_id=""` (or `x or ""`) on Memsy: the server treats "" as unset, like None.
@st.composite
def empty_session(draw):
    name = draw(st.sampled_from(["session_id", "exclude_session_id"]))
    query = draw(QUERIES)
    base = {"actor_id": draw(ids("u_"))} if draw(st.booleans()) else {}
    fallback = draw(st.sampled_from(["", "current or ", "thread.id or "]))
    written = f'{fallback}""'
    parts = [repr(query), *(f"{k}={v!r}" for k, v in base.items()), f"{name}={written}"]
    call = f"{receiver('memsy')}.search({', '.join(parts)})\n"
    intended = {"<method>": "search", "query": query, **base, name: None}
    return ArgumentCase("memsy", call, intended, check=empty_is_none)


def empty_is_none(case, after, after_source, findings):
    """Where the written value was "" the fixed one is None; everything else is unchanged."""
    call = statement_call(after)
    written = statement_call(ast.parse(case.call).body[0])
    for old, new in zip(written.keywords, call.keywords):
        assert old.arg == new.arg, after_source
        if case.intended.get(old.arg, "") is None:
            old_value, new_value = old.value, new.value
            if isinstance(old_value, ast.BoolOp):  # `x or ""` -> `x or None`
                assert ast.dump(old_value.values[0]) == ast.dump(new_value.values[0])
                old_value, new_value = old_value.values[-1], new_value.values[-1]
            assert old_value.value == "" and new_value.value is None, after_source
        else:
            assert ast.dump(old) == ast.dump(new), after_source
    assert len(written.keywords) == len(call.keywords)


# MEM665: MemOS positionals past the third get the keyword they bind to.
@st.composite
def memos_positionals(draw):
    count = draw(st.integers(4, 8))
    # The fix applies when no user is given (with one, the 4th was meant as a limit: no fix).
    values = [draw(QUERIES), draw(st.sampled_from([None, ""])), draw(ids("conv_"))]
    values += [
        draw(st.one_of(st.integers(1, 25), ids("a_"), st.booleans())) for _ in range(3, count)
    ]
    keywords = {}
    if draw(st.booleans()):
        keywords["relativity"] = draw(st.sampled_from([0.0, 0.45, 0.8]))
    parts = [repr(v) for v in values] + [f"{k}={v!r}" for k, v in keywords.items()]
    call = f"{receiver('memos')}.search_memory({', '.join(parts)})\n"
    return ArgumentCase("memos", call, check=binds_like_written)


def binds_like_written(case, after, after_source, findings):
    """The written and the fixed call bind the same arguments in the real signature."""
    signature = sdk_signature("memos.api.client.MemOSClient:search_memory")

    def binding(call):
        args, keywords = call_arguments(call)
        return dict(signature.bind(None, *args, **keywords).arguments)

    written = binding(statement_call(ast.parse(case.call).body[0]))
    assert binding(statement_call(after)) == written, f"{case.call}--- fixed ---\n{after_source}"


# MEM666: `filter={}` removed from MemOS `search_memory()`: the client then sends `null`.
@st.composite
def memos_empty_filter(draw):
    keywords = {"user_id": draw(ids("u_"))}
    for name, values in (
        ("conversation_id", ids("conv_")),
        ("memory_limit_number", st.integers(1, 25)),
        ("relativity", st.sampled_from([0.0, 0.45, 0.8])),
        ("include_preference", st.booleans()),
    ):
        if draw(st.booleans()):
            keywords[name] = draw(values)
    parts = [f"{k}={v!r}" for k, v in keywords.items()]
    parts.insert(draw(st.integers(0, len(parts))), "filter={}")
    query = draw(QUERIES)
    call = f"{receiver('memos')}.search_memory({query!r}, {', '.join(parts)})\n"
    return ArgumentCase(
        "memos",
        call,
        {"<method>": "search_memory", "query": query, **keywords},
        check=sends_as_without_filter,
    )


def sends_as_without_filter(case, after, after_source, findings):
    """The fixed call binds the rest unchanged, and the real client sends for it exactly what it
    sends when `filter` is None (the value of a call that leaves it out)."""
    assert bound("memos", statement_call(after)) == case.intended, after_source
    as_none = real_sdk_path.outcome("memos", case.call.replace("filter={}", "filter=None"), [])
    fixed = real_sdk_path.outcome("memos", ast.unparse(statement_call(after)), [])
    assert as_none[0] == fixed[0] == "ok", (as_none, fixed)
    assert as_none[1] == fixed[1], after_source
    [(_, path, _, body)] = fixed[1]
    assert path.endswith("/search/memory") and body["filter"] is None


# MEM611: one `EventPayload(...)` given to Memsy `ingest()` is wrapped in a list.
@st.composite
def memsy_single_event(draw):
    fields = {
        "actor_id": draw(ids("u_")),
        "session_id": draw(ids("s_")),
        "kind": draw(st.sampled_from(["user_message", "assistant_message", "tool_result"])),
        "content": draw(QUERIES),
    }
    for name, values in (
        ("role_id", ids("r_")),
        ("team_id", ids("t_")),
        ("ts", st.just("2026-01-01T00:00:00Z")),
        ("metadata", st.just('{"channel": "web"}')),
    ):
        if draw(st.booleans()):
            fields[name] = draw(values)
    by_position = draw(st.integers(0, 4))
    values = list(fields.items())
    parts = [repr(v) for _, v in values[:by_position]]
    parts += [f"{k}={v!r}" for k, v in values[by_position:]]
    event = f"EventPayload({', '.join(parts)})"
    keyword = "events=" if draw(st.booleans()) else ""
    call = f"{receiver('memsy')}.ingest({keyword}{event})\n"
    return ArgumentCase("memsy", call, fields, check=ingests_the_one_event)


def ingests_the_one_event(case, after, after_source, findings):
    """The real client raised before (one payload is not iterable); after the fix it sends one
    event, exactly the payload's own `to_dict()`."""
    from memsy import EventPayload

    names = {"EventPayload": EventPayload}
    before = real_sdk_path.outcome("memsy", case.call.strip(), [], names)
    assert before == ("raised", "TypeError"), before
    fixed = real_sdk_path.outcome("memsy", ast.unparse(statement_call(after)), [], names)
    assert fixed[0] == "ok", (fixed, after_source)
    [(method, path, _, body)] = fixed[1]
    assert (method, path) == ("POST", "/ingest")
    assert body == {"events": [EventPayload(**case.intended).to_dict()]}, after_source


# MEM901 / MEM902: codes removed from `noqa` comments.
NOQA_CALLS = [
    ('{}.search({!r}, filters={{"user_id": {!r}}})', ()),
    ('{}.search("", filters={{"user_id": {!r}}})', ("MEM114",)),  # a finding without a fix
]
OTHER_TOOLS = ["E501", "F401", "B008"]
UNKNOWN_CODES = ["MEM000", "MEM2010", "MEM9999", "MEM0"]


@st.composite
def stale_noqa(draw, dialect, unknown):
    template, used = draw(st.sampled_from(NOQA_CALLS))
    if used:
        call = template.format(receiver(dialect), draw(ids("u_")))
    else:
        call = template.format(receiver(dialect), draw(QUERIES), draw(ids("u_")))
    candidates = UNKNOWN_CODES if unknown else ["MEM102", "MEM201", "MEM305", "MEM124"]
    stale = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=2, unique=True))
    others = draw(st.lists(st.sampled_from(OTHER_TOOLS), max_size=2, unique=True))
    kept = list(used) + others
    codes = draw(st.permutations(stale + kept))
    spacing = draw(st.sampled_from([", ", ","]))
    return ArgumentCase(
        dialect, f"{call}  # noqa: {spacing.join(codes)}\n", {"kept": kept}, check=noqa_trimmed
    )


def noqa_trimmed(case, after, after_source, findings):
    """Outside comments the code is unchanged; the comment keeps exactly the codes that are in
    use or belong to other tools; the findings on the line are the same."""
    written = ast.parse(case.call).body[0]
    assert ast.dump(written) == ast.dump(after), after_source
    comment = re.search(r"#\s*noqa:?\s*(.*)$", after_source.splitlines()[-1])
    left = re.findall(r"[A-Z]+[0-9]+", comment.group(1)) if comment else []
    assert sorted(left) == sorted(case.intended["kept"]), after_source
    before, after_findings = findings
    suppression = ("MEM901", "MEM902")
    assert [f for f in before if f[0] not in suppression] == after_findings, after_source


def mem0_both_cases(make):
    return st.one_of(make(PLATFORM), make(OSS))


ARGUMENT_PROOFS: dict[str, st.SearchStrategy] = {
    "MEM102": mem0_both(
        lambda d: renamed_keyword(d, "search", CAP_ALIASES, "top_k", st.integers(1, 100), SCOPE)
    ),
    "MEM103": mem0_both(
        lambda d: renamed_keyword(
            d,
            "search",
            THRESHOLD_ALIASES,
            "threshold",
            st.sampled_from([0.0, 0.2, 0.5, 1.0]),
            SCOPE,
        )
    ),
    "MEM104": mem0_both(
        lambda d: renamed_keyword(
            d, "search", ["use_rerank", "reranking", "reorder"], "rerank", st.booleans(), SCOPE
        )
    ),
    "MEM105": mem0_both(singular_filter),
    "MEM106": mem0_both(positional_filters),
    "MEM110": renamed_keyword(
        OSS, "get_all", ["limit"], "top_k", st.integers(1, 100), SCOPE, query=False
    ),
    "MEM116": delete_all_filters(OSS),
    "MEM117": delete_all_filters(PLATFORM),
    "MEM124": mem0_both(
        lambda d: renamed_keyword(d, "search", ["topK"], "top_k", st.integers(1, 100), SCOPE)
    ),
    "MEM606": st.one_of(
        renamed_keyword(
            "memsy", "search", ["k", "n", "max_results"], "limit", st.integers(1, 100), MEMSY_BASE
        ),
        renamed_keyword(
            "memsy",
            "search",
            ["min_score", "score_threshold"],
            "threshold",
            st.sampled_from([0.0, 0.05, 0.5, 1.0]),
            MEMSY_BASE,
        ),
        renamed_keyword(
            "memsy",
            "search",
            ["conversation_id", "thread_id"],
            "session_id",
            ids("chat:"),
            MEMSY_BASE,
        ),
    ),
    "MEM652": renamed_keyword(
        "memos",
        "search_memory",
        ["filters"],
        "filter",
        st.just({"and": [{"scene": "chat"}]}),
        MEMOS_SUBJECT,
    ),
    "MEM653": st.one_of(
        renamed_keyword(
            "memos",
            "search_memory",
            ["top_k", "limit"],
            "memory_limit_number",
            st.integers(1, 25),
            MEMOS_SUBJECT,
        ),
        renamed_keyword(
            "memos",
            "search_memory",
            ["threshold", "min_score"],
            "relativity",
            st.sampled_from([0.0, 0.3, 1.0]),
            MEMOS_SUBJECT,
        ),
        renamed_keyword(
            "memos",
            "search_memory",
            ["session_id"],
            "conversation_id",
            st.sampled_from(["c1", "c2"]),
            MEMOS_SUBJECT,
        ),
        renamed_keyword(
            "memos",
            "add_message",
            ["metadata"],
            "info",
            st.fixed_dictionaries({"source": st.sampled_from(["web", "app"])}),
            st.tuples(ids("u_"), QUERIES).map(
                lambda t: {"messages": [{"role": "user", "content": t[1]}], "user_id": t[0]}
            ),
            query=False,
        ),
    ),
    "MEM666": memos_empty_filter(),
    "MEM611": memsy_single_event(),
    "MEM119": removed_client_params(),
    "MEM120": memory_ctor_dict(),
    "MEM121": awaited_from_config(),
    "MEM123": mem0_both(wrong_list_method),
    "MEM503": mem0_both(numeric_strings),
    "MEM603": empty_session(),
    "MEM665": memos_positionals(),
    "MEM691": mem0_both(
        lambda d: st.one_of(
            renamed_keyword(
                d, "search", ["memory_limit_number"], "top_k", st.integers(1, 25), SCOPE
            ),
            renamed_keyword(
                d, "search", ["relativity"], "threshold", st.sampled_from([0.0, 0.45, 1.0]), SCOPE
            ),
        )
    ),
    "MEM692": st.one_of(
        renamed_keyword("memsy", "search", ["top_k"], "limit", st.integers(1, 100), MEMSY_BASE),
        renamed_keyword(
            "memsy", "search", ["user_id", "agent_id"], "actor_id", ids("u_"), MEMSY_BASE
        ),
    ),
    "MEM901": mem0_both(lambda d: stale_noqa(d, unknown=False)),
    "MEM902": mem0_both(lambda d: stale_noqa(d, unknown=True)),
    # Client surface (rules/surface/): bound against the real mem0ai signatures.
    "MEM132": st.one_of(
        update_data(OSS, "mem0.Memory:update"), update_data(PLATFORM, "mem0.MemoryClient:update")
    ),
    "MEM133": update_text_positional(),
    "MEM156": st.one_of(id_keyword(OSS, "mem0.Memory"), id_keyword(PLATFORM, "mem0.MemoryClient")),
    # Open source only: the Platform's harmless keywords are not reported (nothing to fix).
    "MEM135": removed_forced(OSS, "mem0.Memory:add"),
    "MEM130": result_as_list(),
    "MEM137": batch_items(),
    "MEM140": missing_await(),
}


# --- the table is complete ----------------------------------------------------------------------


def safe_fix_kinds() -> list[str]:
    """Rules that document a fix applied without --unsafe-fixes."""
    return sorted(
        code
        for code, rule in RULES.items()
        if any(e.fixed is not None and not e.unsafe for e in rule.examples)
    )


def test_every_safe_fix_kind_has_a_proof():
    missing = [c for c in safe_fix_kinds() if c not in PROOFS and c not in ARGUMENT_PROOFS]
    assert not missing, f"safe fixes without an equivalence proof: {missing}"


def batches_of(cases: st.SearchStrategy) -> st.SearchStrategy:
    """BATCH distinct cases (void ones, None, are dropped by the caller)."""
    return st.lists(
        cases,
        min_size=BATCH,
        max_size=BATCH,
        unique_by=lambda case: object() if case is None else (case.dialect, case.statement()),
    )


@st.composite
def filter_batches(draw, cases: st.SearchStrategy) -> FilterBatch:
    """BATCH cases and records that meet their filters (drawn once for the whole batch)."""
    batch = [case for case in draw(batches_of(cases)) if case is not None]
    if any(case.dialect == MEMOS for case in batch):
        return FilterBatch(batch, draw(memos_records(MAX_RECORDS)))
    mentioned = [[case.filters, case.keywords] for case in batch]
    return FilterBatch(batch, draw(records_for(mentioned, max_size=MAX_RECORDS)))


def prove_kind(code: str, batches: st.SearchStrategy, check: Callable) -> Tally:
    """Run hypothesis until EXAMPLES distinct cases are proved (at most MAX_RUNS runs)."""
    tally = Tally()
    for _ in range(MAX_RUNS):
        missing = EXAMPLES - len(tally.proved)
        if missing <= 0:
            break

        @settings(
            max_examples=-(-missing * 11 // (BATCH * 10)) + 1,  # a margin for void cases
            # Hypothesis's CI profile (CI=true) derandomizes: every run would repeat the last.
            derandomize=False,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
            # No shrinking: a batch re-runs the engine on every shrink step (minutes), and the
            # failure message already names the one failing case of the batch.
            phases=(Phase.generate,),
        )
        @given(batch=batches)
        def run(batch):
            check(code, batch, tally)

        run()
    return tally


def check_filter_batch(code: str, batch: FilterBatch, tally: Tally) -> None:
    prove_batch(code, batch.cases, prove_filter, tally, batch.records)


def check_argument_batch(code: str, batch: list, tally: Tally) -> None:
    prove_batch(code, [case for case in batch if case is not None], prove_argument, tally)


REGISTERED_FILTER_KINDS = [c for c in PROOFS if c in RULES]
REGISTERED_ARGUMENT_KINDS = [c for c in ARGUMENT_PROOFS if c in RULES]


def report(code: str, tally: Tally) -> None:
    proved = len(tally.proved)
    print(
        f"{code}: {proved} distinct cases proved (through the real SDK: {len(tally.real)} ran "
        f"cleanly before and after, {len(tally.real_rejected)} rejected before), "
        f"{tally.unfixable} reported without a safe fix"
    )
    assert proved >= EXAMPLES, f"only {proved} cases proved (need {EXAMPLES})"
    # Strategies aim at the fixable forms: skipped cases must stay the exception.
    assert tally.unfixable <= proved, f"{tally.unfixable} unfixable cases: fix the strategy"


@pytest.mark.parametrize("code", REGISTERED_FILTER_KINDS)
def test_safe_filter_fix_keeps_the_selected_records(code):
    report(code, prove_kind(code, filter_batches(PROOFS[code]), check_filter_batch))


@pytest.mark.parametrize("code", REGISTERED_ARGUMENT_KINDS)
def test_safe_argument_fix_passes_what_the_author_meant(code):
    report(code, prove_kind(code, batches_of(ARGUMENT_PROOFS[code]), check_argument_batch))


@pytest.mark.parametrize("code", sorted(PROOFS))
def test_filter_strategy_is_ready(code):
    """Entries wait for their rule; their cases must already read as something definite."""

    @settings(
        max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=PROOFS[code], records=records_for(None))
    def check(case, records):
        if case is None:
            return  # void: nothing to respell in this draw
        engine.parse(HEADS[case.dialect] + case.statement())
        selected_before(case, records)

    check()


@pytest.mark.parametrize("code", sorted(ARGUMENT_PROOFS))
def test_argument_strategy_is_ready(code):
    @settings(
        max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=ARGUMENT_PROOFS[code])
    def check(case):
        if case is None:
            return
        program = HEADS[case.dialect] + case.statement()
        assert len(ast.parse(program).body) == len(ast.parse(HEADS[case.dialect]).body) + 1

    check()


# --- fixes that are not safe --------------------------------------------------------------------
# What the proofs found: forms a rule rewrites only with --unsafe-fixes, because the rewrite
# changes which records are selected.

UNSAFE_FIXES = engine.RuleSet(engine.Settings(unsafe_fixes=True))


def dollar_keys(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [k for k in node if k in ("$ne", "$nin")]
        return own + [k for v in node.values() for k in dollar_keys(v)]
    if isinstance(node, list):
        return [k for item in node for k in dollar_keys(item)]
    return []


@settings(max_examples=50, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(case=filter_cases(OSS, o_dollar_filters(ops=("ne", "nin")), meaning="mongo"))
def test_oss_dollar_ne_nin_is_renamed_only_with_unsafe_fixes(case):
    """MongoDB's $ne / $nin match documents where the field is missing or null; on open source
    mem0 the renamed ne / nin become Qdrant `except` conditions, which never match a missing or
    null field (qdrant-client local mode, payload_filters.check_match): MEM201 offers the rename
    as an unsafe fix only."""
    assume(case is not None)
    program = PREAMBLES[OSS] + case.statement()
    written = sorted(dollar_keys(case.filters))
    safe = engine.fix(engine.parse(program), SAFE_FIXES)
    kept = [d for d in safe.diagnostics if d.code == "MEM201"]
    assert sorted(dollar_keys(last_filters(safe.module.code))) == written
    assert len(kept) == len(written) and all(not engine.applicable(d, False) for d in kept)
    unsafe = engine.fix(engine.parse(program), UNSAFE_FIXES).module.code
    assert dollar_keys(last_filters(unsafe)) == []


def last_filters(code: str) -> Any:
    return call_arguments(last_call(code))[1]["filters"]


def test_known_unsafe_counterexample():
    """The smallest case behind MEM201's unsafe `$ne` on open source, spelled out."""
    record = {"user_id": "alice"}  # no `topic`
    assert mongo.select({"user_id": "alice", "topic": {"$ne": "food"}}, [oss.payload(record)]) == [
        0
    ]
    assert oss.select_real({"user_id": "alice", "topic": {"ne": "food"}}, [record]) == []
