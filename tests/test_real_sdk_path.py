"""Safe fixes proved against the real SDK code path (tests/real_sdk_path.py), not an evaluator.

Each generated case is a mem0 call written the way a rule fixes, including what broke fixes
before (issue 11): `**spread` in dicts, `None`, repeated fields across `AND` elements, `OR` / `NOT`
inside `AND`, nested and camelCase entity keys, values of every type (bool, float, negative, huge
ints, strings, variables). Cases are rendered as the statements of one program per batch, fixed
with safe fixes only (`engine.fix`, every rule), and each statement is run before and after through
the installed SDK:

    before ran cleanly  =>  after runs cleanly, and
        open source: the store gets the same records selected (Qdrant's real filter builder and
                     qdrant-client's local filtering) and, for a renamed cap, the cap written;
        Platform:    the request is sent, with the cap written as `top_k` where one was renamed.

MEM215 and MEM691 have their own generators (one-id operator dicts and lists beside spreads,
second entities and forms the rule must leave alone; MemOS keywords with values of every type and
MemOS time names). A MEM215 case also carries the call its author meant (the id written plainly):
its fix may move a silently wrong selection only to that one.

A case counts for a fix kind (rule code) when that rule offered a safe fix on the statement and
the statement changed. Each kind needs MEM0LINT_REAL_EXAMPLES distinct cases (default 500).
"""

from __future__ import annotations

import ast
import math
import os
import pprint
from collections import defaultdict

import pytest
import real_sdk_path as real
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mem0lint import engine
from mem0lint.rule import PREAMBLES, Applicability

EXAMPLES = int(os.environ.get("MEM0LINT_REAL_EXAMPLES", "500"))
BATCH = 25
RULES = engine.RuleSet(engine.Settings())
OSS, PLATFORM = real.OSS, real.PLATFORM

USERS = ["alice", "bob"]
FIELDS = ["topic", "tier", "priority"]
VALUES = {"topic": ["food", "gold"], "tier": ["gold", "trial"], "priority": [1, 2, 3]}
# Half the filters are `clean` (every logical key `$`-spelled: MEM201 alone), so the others lean
# to the lowercase spellings: MEM202, the group's slower kind, reaches its EXAMPLES cases sooner.
LOGICAL = {
    "AND": ["$and", "and", "And"],
    "OR": ["$or", "or", "Or"],
    "NOT": ["$not", "not", "Not"],
}
OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin"]
# Values of every type for keywords renamed into a checked parameter.
ODD = ["None", "True", "False", "2.5", "-1", "0", "5", "10", "1000", "10**12", "'5'", "n"]
# Ids: a few shared ones (records meet them) and many fresh ones (cases stay distinct).
IDS = st.one_of(
    st.sampled_from(USERS),
    st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True),
    st.integers(0, 10**6).map(lambda i: f"u{i}"),
)
NAMES = {"n": 7, "extra": {"tier": "gold"}, "kw": {}, "scope": {"user_id": "alice"}}


@st.composite
def condition(draw, fields=FIELDS, clean=False):
    field = draw(st.sampled_from(fields))
    pool = VALUES.get(field, USERS)
    # Mostly conditions open source runs as written (so the fix has a working call to keep).
    forms = ["bare", "op"] if clean else ["bare"] * 4 + ["op"] * 3 + ["dollar", "none"]
    form = draw(st.sampled_from(forms))
    if field == "user_id":
        pool = [draw(IDS)]
    elif field == "priority":
        pool = [draw(st.integers(-3, 50))]
    if form == "bare":
        return field, repr(draw(st.sampled_from(pool)))
    if form == "none":
        return field, "None"
    # Ranges on numbers only (Qdrant's range takes numbers or dates, not words).
    op = draw(st.sampled_from(OPS if field == "priority" else ["eq", "ne", "in", "nin"]))
    value = [draw(st.sampled_from(pool))] if op in ("in", "nin") else draw(st.sampled_from(pool))
    key = "$" + op if form == "dollar" else op
    return field, f"{{{key!r}: {value!r}}}"


def render_dict(pairs: list[tuple[str, str]], spread: bool) -> str:
    parts = [f"{k!r}: {v}" for k, v in pairs]
    if spread:
        parts.append("**extra")
    return "{" + ", ".join(parts) + "}"


@st.composite
def logical_filter(draw, clean=False):
    """A root with an entity (usually), fields, and logical keys in every spelling; elements may
    repeat a field, hold OR / NOT, or a spread. `clean`: what open source runs as written (an
    entity at the root, `$`-spelled logical keys, plain conditions, no spread), so that a fix
    has a working call to keep."""
    pairs = []
    if clean or draw(st.integers(0, 5)):
        pairs.append(("user_id", repr(draw(IDS))))
    for _ in range(draw(st.integers(0, 1))):
        pairs.append(draw(condition(clean=clean)))
    for name in draw(
        st.lists(st.sampled_from(sorted(LOGICAL)), min_size=1, max_size=2, unique=True)
    ):
        key = "$" + name.lower() if clean else draw(st.sampled_from([*LOGICAL[name], name]))
        items = []
        for _ in range(draw(st.integers(1, 3))):
            inner = [
                draw(condition(FIELDS + ["user_id"], clean)) for _ in range(draw(st.integers(1, 2)))
            ]
            if draw(st.integers(0, 4)) == 0:  # nested: `$or` in `$and` runs on open source
                spellings = (
                    ["$or", "$not"] if clean else [*LOGICAL["OR"], *LOGICAL["NOT"], "OR", "NOT"]
                )
                nested = draw(st.sampled_from(spellings))
                inner.append(
                    (nested, "[" + render_dict([draw(condition(clean=clean))], False) + "]")
                )
            inner = list(dict(inner).items())
            items.append(render_dict(inner, not clean and draw(st.integers(0, 9)) == 0))
        pairs.append((key, "[" + ", ".join(items) + "]"))
    pairs = list(dict(pairs).items())
    return render_dict(pairs, not clean and draw(st.integers(0, 9)) == 0)


@st.composite
def filter_case(draw):
    method = draw(st.sampled_from(["search", "get_all"]))
    filters = draw(logical_filter(clean=draw(st.booleans())))
    query = '"q", ' if method == "search" else ""
    return OSS, f"memory.{method}({query}filters={filters})"


@st.composite
def cap_case(draw):
    # Open source get_all (MEM110, MEM124), search (MEM102, MEM124), Platform search.
    dialect, method = draw(
        st.sampled_from([(OSS, "get_all")] * 4 + [(OSS, "search")] * 2 + [(PLATFORM, "search")] * 2)
    )
    receiver = "memory" if dialect == OSS else "client"
    keyword = draw(st.sampled_from(["limit", "k", "topK", "max_results", "topK"]))
    value = draw(
        st.one_of(
            st.sampled_from(ODD), st.integers(-5, 2000).map(str), st.integers(1, 900).map(str)
        )
    )
    query = '"q", ' if method == "search" else ""
    star = ", **kw" if draw(st.integers(0, 9)) == 0 else ""
    return (
        dialect,
        f"{receiver}.{method}({query}filters={{'user_id': 'alice'}}, {keyword}={value}{star})",
    )


@st.composite
def entity_case(draw):
    dialect = draw(st.sampled_from([OSS, PLATFORM]))
    receiver = "memory" if dialect == OSS else "client"
    method = draw(st.sampled_from(["search", "get_all"]))
    query = '"q", ' if method == "search" else ""
    args = []
    for entity in draw(
        st.lists(
            st.sampled_from(["user_id", "agent_id", "run_id"]), min_size=1, max_size=2, unique=True
        )
    ):
        value = draw(
            st.one_of(st.sampled_from(["None", "n", "'x y'"]), IDS.map(repr), IDS.map(repr))
        )
        args.append(f"{entity}={value}")
    shape = draw(
        st.sampled_from(
            ["absent", "none", "flat", "flat", "flat", "camel", "nested", "var", "spread"]
        )
    )
    if shape == "none":
        args.append("filters=None")
    elif shape == "flat":
        field, value = draw(condition())
        args.append(f"filters={{{field!r}: {value}}}")
    elif shape == "camel":
        args.append("filters={'userId': 'bob', 'topic': 'food'}")
    elif shape == "nested":
        args.append("filters={'AND': [{'user_id': 'bob'}, {'topic': 'food'}]}")
    elif shape == "var":
        args.append("filters=scope")
    elif shape == "spread":
        args.append("**kw")
    return dialect, f"{receiver}.{method}({query}{', '.join(draw(st.permutations(args)))})"


@st.composite
def entity_operator_case(draw):
    """MEM215: an open-source entity id written as a one-id operator dict or list (and forms the
    rule must leave alone: several ids, None, a variable, `ne`), beside other conditions, a
    second entity or a `**spread`. Returns (dialect, call, meant call): the meant call names the
    id plainly (the selection a fix may move to)."""
    method = draw(st.sampled_from(["search", "get_all"]))
    user = draw(IDS)
    form = draw(
        st.sampled_from(
            ["eq", "in", "list", "eq", "in", "list", "several", "none", "variable", "ne", "nin"]
        )
    )
    written_id = {
        "eq": f"{{'eq': {user!r}}}",
        "in": f"{{'in': [{user!r}]}}",
        "list": f"[{user!r}]",
        "several": f"{{'in': [{user!r}, 'bob']}}",
        "none": "{'eq': None}",
        "variable": "{'eq': n}",
        "ne": f"{{'ne': {user!r}}}",
        "nin": f"{{'nin': [{user!r}]}}",
    }[form]
    pairs = [("user_id", written_id)]
    for _ in range(draw(st.integers(0, 2))):
        pairs.append(draw(condition(clean=True)))
    if draw(st.integers(0, 3)) == 0:
        pairs.append(("agent_id", repr(draw(st.sampled_from(["bot", "helper"])))))
    pairs = list(dict(pairs).items())
    order = draw(st.permutations(range(len(pairs))))
    pairs = [pairs[i] for i in order]
    spread = draw(st.integers(0, 6)) == 0
    meant_pairs = [(k, repr(user) if k == "user_id" else v) for k, v in pairs]
    query = '"q", ' if method == "search" else ""
    written = f"memory.{method}({query}filters={render_dict(pairs, spread)})"
    meant = f"memory.{method}({query}filters={render_dict(meant_pairs, spread)})"
    return OSS, written, meant


# Values of every type for MemOS keywords renamed into mem0's checked parameters.
SCORES = ["0", "0.45", "1", "1.0", "0.999", "-0.1", "1.5", "'0.5'", "None", "True", "n", "x.y"]


@st.composite
def memos_names_case(draw):
    """MEM691: MemOS keywords (`memory_limit_number`, `relativity`) with values of every type,
    and MemOS time field names in a mem0 filter, on both dialects."""
    dialect = draw(st.sampled_from([OSS, PLATFORM]))
    receiver = "memory" if dialect == OSS else "client"
    user = draw(IDS)
    filters = f"{{'user_id': {user!r}}}"
    args = ['"q"']
    if draw(st.integers(0, 3)) == 0:
        field = draw(st.sampled_from(["create_time", "update_time"]))
        op = draw(st.sampled_from(["gte", "lt", "eq"]))
        filters = f"{{'user_id': {user!r}, {field!r}: {{{op!r}: '2025-01-01'}}}}"
    args.append(f"filters={filters}")
    for name in draw(
        st.lists(
            st.sampled_from(["memory_limit_number", "relativity"]),
            min_size=0,
            max_size=2,
            unique=True,
        )
    ):
        if name == "memory_limit_number":
            value = draw(st.one_of(st.sampled_from(ODD), st.integers(-3, 1200).map(str)))
        else:
            value = draw(st.sampled_from(SCORES))
        args.append(f"{name}={value}")
    if draw(st.integers(0, 9)) == 0:
        args.append("**kw")
    return dialect, f"{receiver}.search({', '.join(args)})"


KINDS = {
    "filters": filter_case(),
    "caps": cap_case(),
    "entities": entity_case(),
    "entity-operators": entity_operator_case(),
    "memos-names": memos_names_case(),
}


def records():
    out = []
    for i in range(24):
        out.append(
            {
                "user_id": USERS[i % 2],
                "agent_id": "bot" if i % 3 == 0 else None,
                "run_id": "r1" if i % 4 == 0 else "r2",
                "metadata": {
                    "topic": VALUES["topic"][i % 2],
                    "tier": VALUES["tier"][(i // 2) % 2],
                    "priority": 1 + i % 3,
                },
            }
        )
    return out


RECORDS = records()


def program(cases: list[tuple[str, str]]) -> str:
    head = PREAMBLES[PLATFORM] + "from mem0 import Memory\nmemory = Memory()\n"
    head += "n = 7\nextra = {'tier': 'gold'}\nkw = {}\nscope = {'user_id': 'alice'}\n"
    return head + "".join(case[1] + "\n" for case in cases)


def prove(cases, tally, failures) -> None:
    code = program(cases)
    found, result = real.fixed_program(code, RULES)
    after_statements = real.statement_texts(result.code or code)[-len(cases) :]
    lines = code.splitlines()
    for index, (case, after) in enumerate(zip(cases, after_statements)):
        dialect, call = case[:2]
        meant = case[2] if len(case) > 2 else None  # the call its author meant, if given
        row = len(lines) - len(cases) + index + 1
        kinds = {
            d.code
            for d in found
            if d.start[0] == row and d.fix is not None and d.fix.applicability is Applicability.SAFE
        }
        if not kinds or after == call:
            continue
        intended = None
        if meant is not None:  # a fix may move a silently wrong selection to the meant one
            intended = real.outcome(dialect, meant, RECORDS, NAMES)[2]
        problem = real.compare(dialect, call, after, RECORDS, NAMES, intended=intended)
        if problem not in ("", real.REJECTED):
            failures.append((sorted(kinds), problem))
            continue
        for kind in kinds:
            tally[kind].add(call)
            if problem == "":
                tally[kind + " ran before"].add(call)


# Each group of cases and the fix kinds it must prove EXAMPLES times.
GROUPS = {
    "caps": ("MEM102", "MEM110", "MEM124"),
    "entities": ("MEM101",),
    "entity-operators": ("MEM215",),
    "memos-names": ("MEM691",),
    "filters": ("MEM201", "MEM202"),
}
MAX_RUNS = 10
# Before the first run, the share of cases each kind is assumed to prove (then: the share seen).
FIRST_YIELD = 0.5


def batches_for(group: str, tally: dict, cases: int) -> int:
    """Batches for the kind furthest from EXAMPLES, at the share of cases it has proved so far
    (FIRST_YIELD before any), a tenth more: enough for the group to end after one or two runs,
    without proving three times what it needs. Never fewer than 4, nor more than a run sized for
    a share of a third (a kind the generator all but never proves fails after MAX_RUNS runs)."""
    needed = 0.0
    for kind in GROUPS[group]:
        missing = EXAMPLES - len(tally[kind])
        if missing > 0:
            share = len(tally[kind]) / cases if cases and tally[kind] else FIRST_YIELD
            needed = max(needed, missing / share)
    return min(max(4, math.ceil(needed * 1.1 / BATCH)), EXAMPLES * 3 // BATCH + 2)


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_safe_fixes_keep_what_the_real_sdk_does(group):
    """Run batches until every fix kind of the group has EXAMPLES distinct proved cases."""
    tally: dict = defaultdict(set)
    failures: list = []
    batches = 0
    for _ in range(MAX_RUNS):
        if all(len(tally[kind]) >= EXAMPLES for kind in GROUPS[group]):
            break

        @settings(
            max_examples=batches_for(group, tally, batches * BATCH),
            deadline=None,
            database=None,
            derandomize=False,
            suppress_health_check=list(HealthCheck),
            phases=(Phase.generate,),
        )
        @given(batch=st.lists(KINDS[group], min_size=BATCH, max_size=BATCH, unique=True))
        def run(batch):
            nonlocal batches
            batches += 1
            prove(batch, tally, failures)

        run()
        assert not failures, pprint.pformat(failures[:5])
    counts = {kind: len(cases) for kind, cases in sorted(tally.items())}
    print(f"real-SDK proofs ({group}):", counts)
    short = {k: counts.get(k, 0) for k in GROUPS[group] if counts.get(k, 0) < EXAMPLES}
    assert not short, counts


def test_statement_texts_are_the_source_segments():
    code = 'a = 1; b = "é"\nif a:\n    c = {\n        "ü": 2}\nclient.search("q",\n  top_k=3)\n'
    tree = ast.parse(code)
    assert real.statement_texts(code) == [ast.get_source_segment(code, s) for s in tree.body]


def test_runs_are_sized_from_the_share_each_kind_has_proved():
    assert batches_for("entities", defaultdict(set), 0) == math.ceil(
        EXAMPLES / FIRST_YIELD * 1.1 / BATCH
    )
    nearly = defaultdict(set, {"MEM101": set(range(EXAMPLES - 10))})
    assert batches_for("entities", nearly, 2 * EXAMPLES) == 4  # 20 cases at a half: the floor
    rare = defaultdict(set, {"MEM101": {"one"}})
    assert batches_for("entities", rare, 10_000) == EXAMPLES * 3 // BATCH + 2  # the cap
