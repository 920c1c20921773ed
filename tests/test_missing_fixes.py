"""The fixes issue 11 found missing (class 8), proved against the real SDK code path.

MEM302 with a variable `OR`; MEM305 with several dotted keys, beside an existing `metadata`
dict, or with a variable value; MEM208 beside `AND` / `OR`; MEM101 when the keyword repeats what
the filter's root already requires; MEM106 with `dict(...)`; MEM103 with a numeric string.

Each generated case is a call in the wrong form plus the call its author meant, written by the
generator independently of the rule. The cases of a batch are the statements of one program
(with shared variables bound above them), fixed with safe fixes only (`engine.fix`, every rule).
For each statement the rule fixed safely:

- the fixed statement runs cleanly through the installed SDK (tests/real_sdk_path.py: mem0ai
  2.2.1 with only the network and the store stubbed) and the server would accept its request;
- it does what the meant call does: open source, the store selects the same records (Qdrant's
  real filter builder, qdrant-client's local filtering) with the same cap; Platform, the same
  request apart from the filter, and a filter that selects the same records (the Platform
  grammar, tests/evaluators/platform.py, strict);
- a statement that ran cleanly before still does, selecting the same (`real_sdk_path.compare`).

Each kind needs MEM0LINT_REAL_EXAMPLES distinct proved cases (default 500). The comment property
(tests/test_fix_comments.py's check) is run on commented generated calls of every kind.
"""

from __future__ import annotations

import ast
import os
import pprint
from collections import defaultdict

import pytest
import real_sdk_path as real
from evaluators import platform as platform_grammar
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from test_fix_comments import check as comment_check
from test_fix_comments import slots, with_comments

from mem0lint import engine
from mem0lint.rule import PREAMBLES, Applicability

EXAMPLES = int(os.environ.get("MEM0LINT_REAL_EXAMPLES", "500"))
BATCH = 25
MAX_RUNS = 10
RULES = engine.RuleSet(engine.Settings())
OSS, PLATFORM = real.OSS, real.PLATFORM
RECEIVER = {OSS: "memory", PLATFORM: "client"}

# Shared variables: bound once above the calls (the linter reads them; eval gets the same).
NAMES = {
    "alts": [{"run_id": "r1"}, {"agent_id": "bot"}],
    "runs": [{"run_id": "r2"}],
    "tier_name": "gold",
    "topic_name": "food",
    "scope": {"user_id": "alice"},
    "extra": {"run_id": "r1"},
}
SET_UP = "".join(f"{name} = {value!r}\n" for name, value in NAMES.items())
USERS = ["alice", "bob"]
IDS = st.one_of(
    st.sampled_from(USERS),
    st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True),
    st.integers(0, 10**6).map(lambda i: f"u{i}"),
)
META = {"topic": ["food", "gold"], "tier": ["gold", "trial"], "priority": [1, 2, 3]}
META_VARIABLES = {"topic": "topic_name", "tier": "tier_name"}


def records() -> list[dict]:
    return [
        {
            "user_id": USERS[i % 2],
            "agent_id": "bot" if i % 3 == 0 else None,
            "run_id": "r1" if i % 4 == 0 else "r2",
            "metadata": {
                "topic": META["topic"][i % 2],
                "tier": META["tier"][(i // 2) % 2],
                "priority": 1 + i % 3,
            },
        }
        for i in range(24)
    ]


RECORDS = records()


def d(pairs: list[tuple[str, str]]) -> str:
    """A dict literal from (key source, value source) pairs; a key None is a `**spread`."""
    return "{" + ", ".join(f"**{v}" if k is None else f"{k!r}: {v}" for k, v in pairs) + "}"


@st.composite
def entity(draw) -> tuple[str, str]:
    return "user_id", repr(draw(IDS))


@st.composite
def platform_condition(draw) -> str:
    """One Platform condition dict (an entity, a run, or a metadata equality)."""
    kind = draw(st.sampled_from(["user", "run", "meta"]))
    if kind == "user":
        return d([draw(entity())])
    if kind == "run":
        return d([("run_id", repr(draw(st.sampled_from(["r1", "r2"]))))])
    field = draw(st.sampled_from(sorted(META)))
    return d([("metadata", d([(field, repr(draw(st.sampled_from(META[field]))))]))])


def call(dialect: str, method: str, args: list[str]) -> str:
    query = ['"q"'] if method == "search" else []
    return f"{RECEIVER[dialect]}.{method}({', '.join(query + args)})"


# --- the cases: (kind, dialect, written call, meant call) ---------------------------------------


@st.composite
def mem302(draw):
    ands = draw(st.lists(platform_condition(), min_size=1, max_size=2))
    ands = [d([draw(entity())])] + ands if draw(st.booleans()) else ands
    name = draw(st.sampled_from(["alts", "runs"]))
    method = draw(st.sampled_from(["search", "get_all"]))
    and_list = "[" + ", ".join(ands) + "]"
    tail = [(None, "scope")] if draw(st.integers(0, 5)) == 0 else []
    order = draw(st.booleans())
    pairs = [("AND", and_list), ("OR", name)]
    written = d((pairs if order else pairs[::-1]) + tail)
    meant = d([("AND", "[" + ", ".join([*ands, d([("OR", name)])]) + "]"), *tail])
    return (
        "MEM302",
        PLATFORM,
        call(PLATFORM, method, [f"filters={written}"]),
        call(PLATFORM, method, [f"filters={meant}"]),
    )


@st.composite
def metadata_value(draw, field: str) -> str:
    form = draw(st.sampled_from(["bare", "bare", "eq", "ne", "variable"]))
    if form == "variable" and field in META_VARIABLES:
        return META_VARIABLES[field]
    value = repr(draw(st.sampled_from(META[field])))
    if form in ("eq", "ne"):
        return d([(form, value)])
    return value


@st.composite
def mem305(draw):
    fields = draw(st.lists(st.sampled_from(sorted(META)), min_size=1, max_size=3, unique=True))
    existing = draw(st.booleans()) if len(fields) > 1 else True
    if len(fields) == 1 and not existing:
        existing = True
    values = [draw(metadata_value(f)) for f in fields]
    dotted = [(f"metadata.{f}", v) for f, v in zip(fields, values)]
    kept, moved = ([dotted[0]], dotted[1:]) if existing else ([], dotted)
    if existing and len(fields) == 1:
        # one dotted key beside a wrapper of another field, or with a variable value alone
        other = next(f for f in sorted(META) if f != fields[0])
        if draw(st.booleans()) or values[0] not in META_VARIABLES.values():
            kept = [(other, repr(META[other][0]))]
            moved = dotted
        else:
            kept, moved = [], dotted
            existing = False
    wrapper = [(k.replace("metadata.", ""), v) for k, v in kept]
    head = [draw(entity())]
    if existing:
        written_pairs = head + [("metadata", d(wrapper))] + moved
        meant_pairs = head + [
            ("metadata", d(wrapper + [(k.replace("metadata.", ""), v) for k, v in moved]))
        ]
    else:
        written_pairs = head + moved
        meant_pairs = head + [("metadata", d([(k.replace("metadata.", ""), v) for k, v in moved]))]
    written, meant = d(written_pairs), d(meant_pairs)
    if draw(st.integers(0, 3)) == 0:  # one level down, inside an AND list
        scope = d([draw(entity())])
        written, meant = d([("AND", f"[{scope}, {written}]")]), d([("AND", f"[{scope}, {meant}]")])
    method = draw(st.sampled_from(["search", "get_all"]))
    return (
        "MEM305",
        PLATFORM,
        call(PLATFORM, method, [f"filters={written}"]),
        call(PLATFORM, method, [f"filters={meant}"]),
    )


@st.composite
def mem208(draw):
    field = draw(st.sampled_from(["topic", "tier"]))
    values = draw(st.lists(st.sampled_from(META[field]), min_size=2, max_size=3, unique=True))
    branches = "[" + ", ".join(d([("metadata", d([(field, repr(v))]))]) for v in values) + "]"
    condition = ("metadata", d([(field, d([("in", repr(values))]))]))
    others = draw(st.lists(platform_condition(), min_size=1, max_size=2))
    shape = draw(st.sampled_from(["AND", "OR", "OR-variable"]))
    root = [draw(entity())]
    if shape == "AND":
        written = d([("AND", "[" + ", ".join([d(root), *others]) + "]"), condition])
        meant = d([("AND", "[" + ", ".join([d(root), *others, d([("OR", branches)])]) + "]")])
    else:
        alternatives = "alts" if shape == "OR-variable" else "[" + ", ".join(others) + "]"
        written = d([*root, ("OR", alternatives), condition])
        both = f"[{d([('OR', alternatives)])}, {d([('OR', branches)])}]"
        meant = d([*root, ("AND", both)])
    method = draw(st.sampled_from(["search", "get_all"]))
    return (
        "MEM208",
        PLATFORM,
        call(PLATFORM, method, [f"filters={written}"]),
        call(PLATFORM, method, [f"filters={meant}"]),
    )


@st.composite
def mem101(draw):
    dialect = draw(st.sampled_from([OSS, PLATFORM]))
    method = draw(st.sampled_from(["search", "get_all"]))
    user = draw(IDS)
    pairs: list = []
    if draw(st.integers(0, 3)) == 0:
        pairs.append((None, "scope"))  # a spread before the repeated key: the key wins
    if dialect == OSS:
        field = draw(st.sampled_from(sorted(META)))
        pairs.append((field, repr(draw(st.sampled_from(META[field])))))
    else:
        pairs.append(
            (
                "OR",
                "[" + ", ".join(draw(st.lists(platform_condition(), min_size=1, max_size=2))) + "]",
            )
        )
    pairs.insert(draw(st.integers(0, len(pairs))), ("user_id", repr(user)))
    filters = d(pairs)
    keyword = f"user_id={user!r}"
    extra = draw(st.sampled_from([[], ["top_k=5"]]))
    written = [keyword, f"filters={filters}", *extra]
    written = draw(st.permutations(written))
    meant = [f"filters={filters}", *extra]
    return "MEM101", dialect, call(dialect, method, list(written)), call(dialect, method, meant)


@st.composite
def mem106(draw):
    dialect = draw(st.sampled_from([OSS, PLATFORM]))
    method = draw(st.sampled_from(["search", "get_all"]))
    keywords = [("user_id", repr(draw(IDS)))]
    if dialect == OSS and draw(st.booleans()):
        field = draw(st.sampled_from(sorted(META)))
        keywords.append((field, repr(draw(st.sampled_from(META[field])))))
    elif dialect == PLATFORM and draw(st.booleans()):
        keywords.append(("run_id", repr(draw(st.sampled_from(["r1", "r2"])))))
    built = "dict(" + ", ".join(f"{k}={v}" for k, v in keywords) + ")"
    extra = draw(st.sampled_from([[], ["top_k=3"]]))
    written = call(dialect, method, [built, *extra])
    return "MEM106", dialect, written, call(dialect, method, [f"filters={d(keywords)}", *extra])


NUMERIC_STRINGS = ["0.5", "0.25", " .75", "1", "0", "0.0", "1e-1", "0.333", "+0.5", "0.90"]


@st.composite
def mem103(draw):
    dialect = draw(st.sampled_from([OSS, PLATFORM]))
    alias = draw(st.sampled_from(["min_score", "score_threshold", "similarity_threshold"]))
    text = draw(st.sampled_from(NUMERIC_STRINGS))
    filters = f"filters={d([draw(entity())])}"
    extra = draw(st.sampled_from([[], ["top_k=4"]]))
    written = call(dialect, "search", [filters, f"{alias}={text!r}", *extra])
    meant = call(dialect, "search", [filters, f"threshold={float(text)!r}", *extra])
    return "MEM103", dialect, written, meant


KINDS = {
    "MEM101": mem101(),
    "MEM103": mem103(),
    "MEM106": mem106(),
    "MEM208": mem208(),
    "MEM302": mem302(),
    "MEM305": mem305(),
}


# --- the proof ----------------------------------------------------------------------------------


def observed(dialect: str, source: str) -> tuple:
    """What the real SDK did with `source`: what the store selected (open source), or the request
    with its filter replaced by the records it selects (Platform)."""
    out = real.outcome(dialect, source, RECORDS, NAMES)
    if out[0] != "ok" or dialect == OSS:
        return out
    if not real.accepted(dialect, out[1]):
        return ("rejected", out[1])
    requests = []
    for method, path, params, body in out[1]:
        body = dict(body or {})
        chosen = tuple(platform_grammar.select(body.pop("filters", None), RECORDS, strict=True))
        requests.append((method, path, sorted(params.items()), sorted(body.items()), chosen))
    return ("ok", tuple(requests))


def program(cases: list) -> str:
    head = PREAMBLES[PLATFORM] + "from mem0 import Memory\nmemory = Memory()\n" + SET_UP
    return head + "".join(written + "\n" for _, _, written, _ in cases)


def fixed_statements(code: str, count: int) -> tuple[list, list]:
    found, result = real.fixed_program(code, RULES)
    fixed = result.code or code
    ast.parse(fixed, feature_version=(3, 9))
    return found, real.statement_texts(fixed)[-count:]


def prove(cases: list, tally, failures) -> None:
    code = program(cases)
    found, after_statements = fixed_statements(code, len(cases))
    first_row = len(code.splitlines()) - len(cases) + 1
    for index, ((kind, dialect, written, meant), after) in enumerate(zip(cases, after_statements)):
        row = first_row + index
        safe = any(
            d.code == kind
            and d.start[0] == row
            and d.fix is not None
            and d.fix.applicability is Applicability.SAFE
            for d in found
        )
        if not safe or after == written:
            continue
        now, want = observed(dialect, after), observed(dialect, meant)
        if want[0] != "ok":
            failures.append((kind, "the meant call does not run (fix the generator)", meant, want))
            continue
        if now != want:
            failures.append((kind, written, after, now, want))
            continue
        problem = real.compare(dialect, written, after, RECORDS, NAMES)
        if problem not in ("", real.REJECTED):
            failures.append((kind, problem))
            continue
        tally[kind].add(written)
        if problem == "":
            tally[kind + " ran before"].add(written)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_missing_fix_keeps_what_the_real_sdk_does(kind):
    tally: dict = defaultdict(set)
    failures: list = []
    for _ in range(MAX_RUNS):
        missing = EXAMPLES - len(tally[kind])
        if missing <= 0:
            break

        @settings(
            max_examples=-(-missing * 5 // (BATCH * 4)) + 1,  # ~1.25 cases per proof
            deadline=None,
            database=None,
            derandomize=False,
            suppress_health_check=list(HealthCheck),
            phases=(Phase.generate,),
        )
        @given(batch=st.lists(KINDS[kind], min_size=BATCH, max_size=BATCH, unique=True))
        def run(batch):
            prove([c for c in batch if c is not None], tally, failures)

        run()
        assert not failures, pprint.pformat(failures[:3])
    counts = {k: len(v) for k, v in sorted(tally.items())}
    print(f"real-SDK proofs of the missing fixes ({kind}):", counts)
    assert counts.get(kind, 0) >= EXAMPLES, counts


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_missing_fix_keeps_every_comment(kind):
    """Comments at generated positions of generated calls: none lost or copied, each beside its
    element, and the fixed program compiles on Python 3.9 (test_fix_comments.check)."""
    outcomes: list = []

    @settings(
        max_examples=30,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.generate,),
    )
    @given(case=KINDS[kind].filter(lambda c: c is not None), data=st.data())
    def run(case, data):
        _, dialect, written, _ = case
        head = PREAMBLES[dialect] + SET_UP
        source = head + written + "\n"
        first_row = head.count("\n") + 1
        positions = slots(source, first_row)
        chosen = data.draw(
            st.lists(st.sampled_from(positions), min_size=1, max_size=6, unique=True)
        )
        placed = [(at, data.draw(st.booleans())) for at in chosen]
        outcomes.append(comment_check(with_comments(source, placed), first_row))

    run()
    # A fix that cannot keep a comment beside its element is refused: the exception.
    assert outcomes.count("fixed") * 4 >= len(outcomes) * 3, outcomes


def test_each_missing_fix_is_offered_safely():
    """One plain case per kind: the safe fix is offered and writes the expected call."""
    cases = {
        "MEM302": (
            'client.search("q", filters={"AND": [{"user_id": "u"}], "OR": alts})',
            'client.search("q", filters={"AND": [{"user_id": "u"}, {"OR": alts}]})',
        ),
        "MEM305": (
            'client.search("q", filters={"user_id": "u", "metadata": {"topic": "food"}, '
            '"metadata.tier": tier_name})',
            'client.search("q", filters={"user_id": "u", "metadata": {"topic": "food", '
            '"tier": tier_name}})',
        ),
        "MEM208": (
            'client.get_all(filters={"user_id": "u", "OR": alts, "metadata": {"tier": '
            '{"in": ["gold", "trial"]}}})',
            'client.get_all(filters={"user_id": "u", "AND": [{"OR": alts}, {"OR": [{"metadata": '
            '{"tier": "gold"}}, {"metadata": {"tier": "trial"}}]}]})',
        ),
        "MEM101": (
            'client.search("q", user_id="u", filters={"user_id": "u", "run_id": "r1"})',
            'client.search("q", filters={"user_id": "u", "run_id": "r1"})',
        ),
        "MEM106": (
            'memory.search("q", dict(user_id="u"))',
            'memory.search("q", filters=dict(user_id="u"))',
        ),
        "MEM103": (
            'client.search("q", filters={"user_id": "u"}, min_score="0.5")',
            'client.search("q", filters={"user_id": "u"}, threshold=0.5)',
        ),
    }
    head = PREAMBLES[PLATFORM] + "from mem0 import Memory\nmemory = Memory()\n" + SET_UP
    for kind, (bad, good) in cases.items():
        fixed = engine.fix(engine.parse(head + bad + "\n"), RULES).code
        assert fixed == head + good + "\n", (kind, fixed)


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        # the OR variable may be empty (bound twice): unsafe, so not applied
        ('client.search("q", filters={"AND": [{"user_id": "u"}], "OR": pick})', "unbound"),
        # a spread after the repeated key may replace it
        ('client.search("q", user_id="u", filters={"user_id": "u", **scope})', "spread"),
        # a different value: the author must choose
        ('client.search("q", user_id="u", filters={"user_id": "v"})', "different"),
        # the same field dotted and in the wrapper: the author must choose
        (
            'client.search("q", filters={"user_id": "u", "metadata": {"tier": "gold"}, '
            '"metadata.tier": "trial"})',
            "clash",
        ),
        # out of range once read as a number
        ('client.search("q", filters={"user_id": "u"}, min_score="5")', "range"),
        # a local `dict` is not the builtin
        ('memory.search("q", dict(user_id="u"))', "shadowed"),
        # a dict defined elsewhere and read by other code too (sharing.py): not rewritten safely
        (
            'f = {"user_id": "u", "metadata.topic": "food", "metadata.tier": "gold"}\n'
            'client.search("q", filters=f)\nprint(f["metadata.tier"])',
            "shared",
        ),
        # None is no metadata value the wrapper takes as a plain condition
        ('client.search("q", filters={"user_id": "u", "metadata.topic": None})', "none"),
        # a None keyword is not a repeat of the filter's id
        ('client.search("q", user_id=None, filters={"user_id": "u"})', "none-id"),
    ],
)
def test_missing_fixes_refuse_what_they_cannot_prove(bad, why):
    head = PREAMBLES[PLATFORM] + "from mem0 import Memory\nmemory = Memory()\n" + SET_UP
    head += "pick = []\npick = alts\n"
    if why == "shadowed":
        head += "def dict(**kw):\n    return kw\n"
    source = head + bad + "\n"
    fixed = engine.fix(engine.parse(source), RULES).code
    assert fixed in (None, source), fixed
    # ... and the finding stays, reported without a safe fix
    found = engine.lint(engine.parse(source), RULES)
    assert found and not any(
        d.fix is not None and d.fix.applicability is Applicability.SAFE for d in found
    ), found
