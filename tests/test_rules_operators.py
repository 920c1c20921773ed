"""MEM2xx filter operators: the tricky cases the rule examples do not show.

Each operator key is owned by exactly one rule, so the tests check both what is reported and what
is *not*: decoys that must stay silent, keys other rules own, dialect differences, fixes that must
not be offered because they would change the meaning.
"""

from __future__ import annotations

import pytest
from conftest import fix_source, lint_source

from mem0lint.rule import PREAMBLES

P = "mem0-platform"
O = "mem0-oss"  # noqa: E741
RECEIVER = {P: "client", O: "memory"}


def program(dialect: str, call: str) -> str:
    return PREAMBLES[dialect] + call.replace("<c>", RECEIVER[dialect]) + "\n"


def mem2(dialect: str, call: str) -> list[tuple[str, str, str | None]]:
    """(code, message, fix applicability) of every MEM2xx finding."""
    return [
        (d.code, d.message, d.fix.applicability.value if d.fix else None)
        for d in lint_source(program(dialect, call), select=("MEM2",))
    ]


def codes(dialect: str, call: str) -> list[str]:
    return [code for code, _, _ in mem2(dialect, call)]


def fixed(dialect: str, call: str, unsafe: bool = False, select=("MEM2",)) -> str:
    out = fix_source(program(dialect, call), select=select, unsafe=unsafe)
    return out[len(PREAMBLES[dialect]) :].rstrip("\n").replace(RECEIVER[dialect], "<c>")


# --- one owner per operator key -------------------------------------------------------------


@pytest.mark.parametrize(
    ("dialect", "ops", "owner"),
    [
        (P, '{"$exists": True}', "MEM206"),
        (O, '{"$exists": True}', "MEM206"),
        (P, '{"exists": True}', "MEM206"),
        (P, '{"$regex": "x", "$options": "i"}', "MEM205"),
        (O, '{"$options": "i"}', "MEM205"),
        (P, '{"$nin": ["a"]}', "MEM204"),
        (O, '{"$nin": ["a"]}', "MEM201"),
        (P, '{"$ne": None}', "MEM207"),
        (O, '{"$ne": None}', "MEM207"),
        (P, '{"$ne": "x"}', "MEM201"),
        (P, '{"$in": "x"}', "MEM201"),  # MEM214 speaks after the rename
        (P, '{"!=": None}', "MEM203"),  # MEM207 speaks after the rename
        (P, '{"neq": "x"}', "MEM205"),
        (O, '{"nin": "x"}', "MEM214"),
    ],
)
def test_each_operator_key_has_one_owner(dialect, ops, owner):
    call = f'<c>.get_all(filters={{"user_id": "u1", "tier": {ops}}})'
    assert codes(dialect, call) == [owner]


def test_a_filter_full_of_mistakes_reports_each_key_once():
    call = """<c>.search(
        "q",
        filters={
            "$and": [
                {"user_id": {"$in": ["a", "b"]}},
                {"created_at": {">=": "2025-01-01", "$lt": "2026-01-01"}},
                {"run_id": {"$exists": True}},
                {"agent_id": {"$ne": None}},
                {"metadata": {"topic": {"$regex": "^x", "$options": "i"}}},
                {"categories": {"$nin": ["spam"]}},
            ]
        },
    )"""
    findings = lint_source(program(P, call), select=("MEM2",))
    places = [(d.start, d.code) for d in findings]
    assert len({start for start, _ in places}) == len(places), places
    assert sorted(code for _, code in places) == [
        "MEM201",  # $and
        "MEM201",  # $in
        "MEM201",  # $lt
        "MEM203",  # >=
        "MEM204",  # $nin
        "MEM205",  # $regex (with its $options)
        "MEM206",  # $exists
        "MEM207",  # $ne: None
    ]


# --- MEM203 sql-symbol-operator ---------------------------------------------------------------


def test_symbols_inside_nested_logic_and_metadata_are_renamed():
    call = (
        '<c>.search("q", filters={"AND": [{"user_id": "u"}, {"OR": [{"created_at": {">=": "a", '
        '"<": "b"}}, {"metadata": {"k": {"==": "v"}}}]}]})'
    )
    assert codes(P, call) == ["MEM203"] * 3
    assert fixed(P, call) == (
        '<c>.search("q", filters={"AND": [{"user_id": "u"}, {"OR": [{"created_at": {"gte": "a", '
        '"lt": "b"}}, {"metadata": {"k": "v"}}]}]})'
    )


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        ('{"==": "gold"}', '"gold"'),
        ('{"==": 3}', "3"),
        ('{"==": "*"}', '{"eq": "*"}'),  # bare "*" would be the wildcard
        ('{"==": None}', '{"eq": None}'),
        ('{"==": ["a", "b"]}', '{"eq": ["a", "b"]}'),  # a bare list means `in` on Qdrant
        ("{'==': tier}", "{'eq': tier}"),  # opaque: could be a list or "*" at runtime
        # Not the only operator: `eq` beside `gt` raises on Qdrant too (MEM218), so the rename
        # leaves an error behind and is not a safe fix (issue 11, class 6).
        ('{"==": 1, "gt": 0}', '{"==": 1, "gt": 0}'),
    ],
)
def test_double_equals_becomes_bare_only_for_a_lone_plain_literal(ops, expected):
    call = f'<c>.get_all(filters={{"user_id": "u1", "tier": {ops}}})'
    assert fixed(O, call) == f'<c>.get_all(filters={{"user_id": "u1", "tier": {expected}}})'


def test_symbol_next_to_its_word_is_reported_without_fix():
    call = '<c>.get_all(filters={"user_id": "u1", "created_at": {">=": "a", "gte": "b"}})'
    assert mem2(P, call) == [("MEM203", "`>=` is not a mem0 operator (HTTP 400); use `gte`", None)]


def test_double_equals_on_categories_keeps_an_operator():
    # A bare value is not accepted on categories either; `eq` lets MEM209 explain.
    call = '<c>.get_all(filters={"user_id": "u1", "categories": {"==": "finance"}})'
    assert fixed(P, call, select=("MEM203",)) == (
        '<c>.get_all(filters={"user_id": "u1", "categories": {"eq": "finance"}})'
    )


def test_symbol_as_a_field_name_is_not_an_operator():
    assert "MEM203" not in codes(O, '<c>.get_all(filters={"user_id": "u1", ">=": 3})')


# --- MEM204 nin-on-platform -------------------------------------------------------------------


def test_nin_inside_and_stays_one_element():
    call = '<c>.search("q", filters={"AND": [{"user_id": "u"}, {"tier": {"nin": ["a", "b"]}}]})'
    assert fixed(P, call) == call  # unsafe: not applied by --fix
    assert fixed(P, call, unsafe=True) == (
        '<c>.search("q", filters={"AND": [{"user_id": "u"}, '
        '{"NOT": {"tier": {"in": ["a", "b"]}}}]})'
    )


def test_nin_beside_other_operators_moves_into_a_not_sibling():
    call = '<c>.get_all(filters={"user_id": "u", "created_at": {"gte": "a", "$nin": ["b"]}})'
    assert fixed(P, call, unsafe=True) == (
        '<c>.get_all(filters={"user_id": "u", "created_at": {"gte": "a"}, '
        '"NOT": {"created_at": {"in": ["b"]}}})'
    )


def test_nin_keeps_an_opaque_list():
    call = '<c>.get_all(filters={"user_id": "u", "categories": {"nin": blocked}})'
    assert fixed(P, call, unsafe=True) == (
        '<c>.get_all(filters={"user_id": "u", "NOT": {"categories": {"in": blocked}}})'
    )


@pytest.mark.parametrize(
    "filters",
    [
        '{"user_id": "u", "NOT": {"agent_id": "a"}, "tier": {"nin": ["x"]}}',  # a 2nd NOT key
        '{**base, "tier": {"nin": ["x"]}}',  # the spread may hold a NOT
        '{"user_id": "u", "tier": {"nin": "x"}}',  # a scalar
        '{"user_id": "u", "metadata": {"tier": {"nin": ["x"]}}}',  # metadata has no `in`
    ],
)
def test_nin_without_a_rewrite(filters):
    call = f"<c>.get_all(filters={filters})"
    assert [(code, fix) for code, _, fix in mem2(P, call)] == [("MEM204", None)]


def test_nin_on_metadata_names_the_or_form():
    call = '<c>.get_all(filters={"user_id": "u", "metadata": {"tier": {"nin": ["x"]}}})'
    (message,) = [m for _, m, _ in mem2(P, call)]
    assert '{"NOT": {"OR": [{"metadata": {"tier": a}}, ...]}}' in message


def test_nin_is_fine_on_open_source():
    assert codes(O, '<c>.get_all(filters={"user_id": "u", "tier": {"nin": ["x"]}})') == []


# --- MEM205 unknown-operator ------------------------------------------------------------------


def test_nested_metadata_on_platform_is_not_an_unknown_operator():
    # {"metadata": {"info": {"source": ...}}} is nested metadata (MEM307), not an operator dict.
    call = '<c>.get_all(filters={"user_id": "u", "metadata": {"info": {"source": "x"}}})'
    assert codes(P, call) == []


def test_open_source_rejects_any_unknown_key_in_a_dict_value():
    call = '<c>.get_all(filters={"user_id": "u", "profile": {"city": "Oslo"}})'
    assert mem2(O, call) == [
        (
            "MEM205",
            "`city` is not a mem0 operator (ValueError); mem0 operators are eq, ne, gt, gte, lt, "
            "lte, in, nin, contains, icontains",
            None,
        )
    ]


@pytest.mark.parametrize(
    ("dialect", "message"),
    [
        (P, "`not_in` is not a mem0 operator (HTTP 400); use `NOT` + `in`"),
        (O, "`not_in` is not a mem0 operator (ValueError); use `nin`"),
    ],
)
def test_not_in_advice_follows_the_dialect(dialect, message):
    call = '<c>.get_all(filters={"user_id": "u", "tier": {"not_in": ["a"]}})'
    assert [m for _, m, _ in mem2(dialect, call)] == [message]


def test_advice_respects_what_the_field_accepts():
    call = '<c>.get_all(filters={"user_id": "u", "metadata": {"k": {"ilike": "x"}}})'
    (message,) = [m for _, m, _ in mem2(P, call)]
    assert message.endswith("a metadata key accepts only contains, eq, ne")


@pytest.mark.parametrize(
    ("dialect", "ops"),
    [
        (P, '{"$regex": "^inv"}'),  # anchors are metacharacters
        (P, '{"$regex": "inv.ice", "$options": "i"}'),
        (P, '{"$regex": "invoice", "$options": "im"}'),
        (P, '{"$regex": pattern}'),
        (O, '{"$regex": "invoice", "$options": "i"}'),  # icontains is case-sensitive on Qdrant
    ],
)
def test_regex_rewrite_stays_conservative(dialect, ops):
    call = f'<c>.get_all(filters={{"user_id": "u", "keywords": {ops}}})'
    assert [(code, fix) for code, _, fix in mem2(dialect, call)] == [("MEM205", None)]


def test_literal_regex_without_options_becomes_case_sensitive_contains():
    call = '<c>.get_all(filters={"user_id": "u", "keywords": {"regex": "invoice"}})'
    assert fixed(P, call, unsafe=True) == (
        '<c>.get_all(filters={"user_id": "u", "keywords": {"contains": "invoice"}})'
    )


def test_operator_in_the_wrong_case_is_respelled():
    call = '<c>.get_all(filters={"user_id": "u", "tier": {"GTE": 1, "In": [1]}})'
    assert [(c, f) for c, _, f in mem2(O, call)] == [("MEM205", "safe"), ("MEM205", "safe")]
    assert fixed(O, call) == '<c>.get_all(filters={"user_id": "u", "tier": {"gte": 1, "in": [1]}})'
    clash = '<c>.get_all(filters={"user_id": "u", "tier": {"GTE": 1, "gte": 2}})'
    assert [(c, f) for c, _, f in mem2(O, clash)] == [("MEM205", None)]


def test_regex_on_metadata_has_no_rewrite():
    call = '<c>.get_all(filters={"user_id": "u", "metadata": {"k": {"$regex": "x"}}})'
    assert [(code, fix) for code, _, fix in mem2(P, call)] == [("MEM205", None)]


# --- MEM206 exists-operator, MEM207 ne-null-for-presence --------------------------------------


@pytest.mark.parametrize(
    "ops",
    [
        '{"$exists": False}',  # absence is not "*"
        '{"$exists": True, "ne": "x"}',  # not alone
    ],
)
def test_exists_without_rewrite(ops):
    call = f'<c>.get_all(filters={{"user_id": "u", "run_id": {ops}}})'
    assert [(c, f) for c, _, f in mem2(P, call) if c == "MEM206"] == [("MEM206", None)]


def test_exists_on_categories_has_no_wildcard_rewrite():
    call = '<c>.get_all(filters={"user_id": "u", "categories": {"$exists": True}})'
    assert [(c, f) for c, _, f in mem2(P, call)] == [("MEM206", None)]


def test_ne_null_rewrite_needs_ne_alone():
    call = '<c>.get_all(filters={"user_id": "u", "created_at": {"ne": None, "gte": "a"}})'
    assert [(c, f) for c, _, f in mem2(P, call)] == [("MEM207", None)]
    lone = '<c>.get_all(filters={"user_id": "u", "metadata": {"k": {"$ne": None}}})'
    assert fixed(P, lone, unsafe=True) == (
        '<c>.get_all(filters={"user_id": "u", "metadata": {"k": "*"}})'
    )


# --- MEM208 metadata-unsupported-op -----------------------------------------------------------


def test_metadata_in_as_the_whole_filter_becomes_an_or():
    call = '<c>.get_all(filters={"metadata": {"k": {"in": ["a", "b"]}}})'
    assert fixed(P, call) == (
        '<c>.get_all(filters={"OR": [{"metadata": {"k": "a"}}, {"metadata": {"k": "b"}}]})'
    )


def test_metadata_in_distributes_sibling_metadata_keys():
    call = (
        '<c>.get_all(filters={"AND": [{"user_id": "u"}, '
        '{"metadata": {"k": {"in": ["a", "b"]}, "j": 1}}]})'
    )
    assert fixed(P, call) == (
        '<c>.get_all(filters={"AND": [{"user_id": "u"}, '
        '{"OR": [{"metadata": {"k": "a", "j": 1}}, {"metadata": {"k": "b", "j": 1}}]}]})'
    )


def test_metadata_in_with_one_value_becomes_the_value():
    call = '<c>.get_all(filters={"user_id": "u", "metadata": {"k": {"in": [3]}}})'
    assert fixed(P, call) == '<c>.get_all(filters={"user_id": "u", "metadata": {"k": 3}})'


def test_metadata_in_inside_not_object():
    call = '<c>.get_all(filters={"user_id": "u", "NOT": {"metadata": {"k": {"in": ["a", "b"]}}}})'
    assert fixed(P, call) == (
        '<c>.get_all(filters={"user_id": "u", "NOT": {"OR": [{"metadata": {"k": "a"}}, '
        '{"metadata": {"k": "b"}}]}})'
    )


@pytest.mark.parametrize(
    "filters",
    [
        # Beside both AND and OR (MEM302's finding first); next to one of them it is rewritten
        # (class 8, tests/test_missing_fixes.py).
        '{"AND": [{"user_id": "u"}], "OR": [{"run_id": "r"}], '
        '"metadata": {"k": {"in": ["a", "b"]}}}',
        # "*" and None are not plain equalities once bare.
        '{"user_id": "u", "metadata": {"k": {"in": ["a", "*"]}}}',
        '{"user_id": "u", "metadata": {"k": {"in": ["a", None]}}}',
        '{"user_id": "u", "metadata": {"k": {"in": values}}}',
        '{"user_id": "u", "metadata": {"k": {"in": ["a", v]}}}',
        '{"user_id": "u", "metadata": {"k": {"in": []}}}',
        '{"user_id": "u", "metadata": {"k": {"in": ["a", "b"], "ne": "c"}}}',
        '{"user_id": "u", "metadata": {**extra, "k": {"in": ["a", "b"]}}}',
    ],
)
def test_metadata_in_without_a_rewrite(filters):
    call = f"<c>.get_all(filters={filters})"
    assert [(c, f) for c, _, f in mem2(P, call) if c == "MEM208"] == [("MEM208", None)]


def test_metadata_ranges_have_no_fix_and_open_source_is_silent():
    call = '<c>.get_all(filters={"user_id": "u", "metadata": {"score": {"gte": 3}}})'
    assert [(c, f) for c, _, f in mem2(P, call)] == [("MEM208", None)]
    assert codes(O, '<c>.get_all(filters={"user_id": "u", "score": {"gte": 3}})') == []


# --- MEM209 categories-op ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        '"*"',  # the wildcard is not a comparison
        "cats",  # opaque: may be an operator dict at runtime
        '{"in": ["a"]}',
        '{"contains": "fin"}',
    ],
)
def test_categories_decoys(value):
    assert codes(P, f'<c>.get_all(filters={{"user_id": "u", "categories": {value}}})') == []


@pytest.mark.parametrize(
    "value",
    [
        '["a", "b"]',  # a bare list: equality with a list, not membership
        '{"eq": cat}',  # opaque: could be a list
        '{"ne": "spam"}',
        '{"icontains": "fin", "contains": "x"}',  # renaming would duplicate `contains`
    ],
)
def test_categories_reported_without_fix(value):
    call = f'<c>.get_all(filters={{"user_id": "u", "categories": {value}}})'
    assert [(c, f) for c, _, f in mem2(P, call)] == [("MEM209", None)]


def test_categories_are_free_on_open_source():
    assert codes(O, '<c>.get_all(filters={"user_id": "u", "categories": "finance"})') == []


# --- MEM210 / MEM211 time fields --------------------------------------------------------------


def test_eq_on_time_field_with_a_variable_is_an_unsafe_fix():
    call = '<c>.get_all(filters={"user_id": "u", "created_at": {"eq": day}})'
    assert [(c, f) for c, _, f in mem2(P, call)] == [("MEM210", "unsafe")]
    assert fixed(P, call, unsafe=True) == '<c>.get_all(filters={"user_id": "u", "created_at": day})'


def test_eq_next_to_a_range_is_reported_without_fix():
    call = '<c>.get_all(filters={"user_id": "u", "updated_at": {"eq": "a", "lte": "b"}})'
    assert [(c, f) for c, _, f in mem2(P, call)] == [("MEM210", None)]


def test_dollar_eq_on_time_field_is_renamed_first_then_unwrapped():
    call = '<c>.get_all(filters={"user_id": "u", "created_at": {"$eq": "2025-03-01"}})'
    assert codes(P, call) == ["MEM201"]
    assert fixed(P, call) == '<c>.get_all(filters={"user_id": "u", "created_at": "2025-03-01"})'


def test_time_field_rules_are_platform_only():
    call = '<c>.get_all(filters={"user_id": "u", "created_at": {"eq": "a"}, "x": {"contains": 1}})'
    assert codes(O, call) == []
    contains = '<c>.get_all(filters={"user_id": "u", "timestamp": {"icontains": "2025"}})'
    assert codes(P, contains) == ["MEM211"]


# --- MEM212 / MEM213 keywords -----------------------------------------------------------------


def test_keywords_in_search_nested_in_or():
    call = (
        '<c>.search("q", filters={"OR": [{"user_id": "u"}, {"keywords": {"contains": "invoice"}}]})'
    )
    assert codes(P, call) == ["MEM212"]


@pytest.mark.parametrize(
    "call",
    [
        '<c>.get_all(filters={"user_id": "u", "keywords": {"icontains": "invoice"}})',
        '<c>.get_all(filters={"user_id": "u"}, keywords="invoice")',
        '<c>.search("q", filters={"user_id": "u", "metadata": {"keywords": "invoice"}})',
    ],
)
def test_keywords_decoys(call):
    assert codes(P, call) == []


def test_keywords_in_search_with_a_bad_operator_reports_both_problems():
    call = '<c>.search("q", filters={"user_id": "u", "keywords": {"eq": "invoice"}})'
    assert sorted(codes(P, call)) == ["MEM212", "MEM213"]


@pytest.mark.parametrize(
    ("value", "fix"),
    [
        ('{"eq": text}', "unsafe"),
        ('["a", "b"]', None),
        ('{"in": ["a"]}', None),
        ('{"eq": "a", "icontains": "b"}', None),
    ],
)
def test_keywords_fixes(value, fix):
    call = f'<c>.get_all(filters={{"user_id": "u", "keywords": {value}}})'
    assert [(c, f) for c, _, f in mem2(P, call)] == [("MEM213", fix)]


# --- MEM214 in-needs-list ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "fix"),
    [('"a"', "safe"), ("3", "safe"), ("None", None), ('{"a": 1}', None)],
)
def test_in_needs_list(value, fix):
    call = f'<c>.get_all(filters={{"user_id": "u", "tier": {{"in": {value}}}}})'
    assert [(c, f) for c, _, f in mem2(O, call)] == [("MEM214", fix)]


@pytest.mark.parametrize("value", ["tiers", '("a", "b")', '["a"]'])
def test_in_with_a_list_tuple_or_variable_is_fine(value):
    assert codes(O, f'<c>.get_all(filters={{"user_id": "u", "tier": {{"in": {value}}}}})') == []


# --- MEM215 / MEM216 entity fields ------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected", "severity"),
    [
        ('{"in": ["u1"]}', '"u1"', "error"),
        ('["u1"]', '"u1"', "warning"),
        ("[7]", "7", "warning"),
        ('{"in": ["u1", "u2"]}', None, "error"),
        ('["u1", "u2"]', None, "error"),
        ('{"ne": "u1"}', None, "error"),
        ('{"eq": who}', None, "error"),
    ],
)
def test_oss_entity_operators(value, expected, severity):
    call = f"<c>.get_all(filters={{'user_id': {value}}})"
    (finding,) = lint_source(program(O, call), select=("MEM215",))
    assert finding.severity.value == severity
    result = fixed(O, call, select=("MEM215",))
    assert result == (f"<c>.get_all(filters={{'user_id': {expected}}})" if expected else call)


def test_oss_entity_decoys():
    # Nested entity conditions are not validated by the SDK (MEM402 explains hoisting).
    nested = '<c>.search("q", filters={"user_id": "u", "OR": [{"agent_id": {"in": ["a"]}}]})'
    assert "MEM215" not in codes(O, nested)
    # A foreign operator key is reported by its own rule first.
    assert codes(O, '<c>.get_all(filters={"user_id": {"==": "u1"}})') == ["MEM203"]
    assert fixed(O, '<c>.get_all(filters={"user_id": {"==": "u1"}})') == (
        '<c>.get_all(filters={"user_id": "u1"})'
    )
    assert codes(P, '<c>.get_all(filters={"user_id": {"in": ["a", "b"]}})') == []


def test_platform_entity_bad_operator():
    call = '<c>.get_all(filters={"OR": [{"user_id": {"gte": "a"}}, {"agent_id": "*"}]})'
    assert [(c, f) for c, _, f in mem2(P, call)] == [("MEM216", None)]


# --- MEM218 mixed-range-and-match-oss ---------------------------------------------------------


def test_mixed_range_and_match_is_open_source_only():
    call = '<c>.get_all(filters={"user_id": "u", "score": {"gte": 1, "lt": 5, "ne": 3}})'
    assert mem2(O, call) == [
        (
            "MEM218",
            "Qdrant cannot combine gte, lt with ne on `score` in one condition (ValueError); "
            "keep the range and check the rest on the results",
            None,
        )
    ]
    assert codes(O, '<c>.get_all(filters={"user_id": "u", "score": {"gte": 1, "lt": 5}})') == []
    platform = '<c>.get_all(filters={"user_id": "u", "created_at": {"gte": "a", "ne": "b"}})'
    assert codes(P, platform) == []


# --- followed variables, opaque values, other receivers -------------------------------------


def test_a_followed_filter_variable_is_checked_and_fixed_in_place():
    call = 'f = {"user_id": "u", "created_at": {">=": "2025-01-01"}}\n<c>.get_all(filters=f)'
    assert codes(P, call) == ["MEM203"]
    assert fixed(P, call) == (
        'f = {"user_id": "u", "created_at": {"gte": "2025-01-01"}}\n<c>.get_all(filters=f)'
    )


def test_a_variable_bound_twice_is_not_followed():
    call = 'f = {"tier": {">=": 1}}\nf = {"user_id": "u"}\n<c>.get_all(filters=f)'
    assert codes(O, call) == []


@pytest.mark.parametrize(
    "filters",
    [
        "build_filters()",
        '{"user_id": "u", "tier": ops}',
        '{"user_id": "u", **extra}',
        '{"user_id": "u", key: {">=": 1}}',  # computed key: not a field we can name
    ],
)
def test_opaque_parts_are_never_guessed(filters):
    assert codes(O, f"<c>.get_all(filters={filters})") == []


def test_other_receivers_are_not_judged():
    source = (
        "import pymongo\n"
        "coll = pymongo.MongoClient().db.c\n"
        'coll.find({"score": {"$gte": 1, "$exists": True, ">=": 2}})\n'
        'store.search("q", filters={"tier": {"nin": "x", "$regex": "a"}})\n'
    )
    assert lint_source(source) == []


# --- robustness: any filter shape goes through check and fix without a crash ---------------

KEYS = [
    "user_id",
    "agent_id",
    "run_id",
    "created_at",
    "categories",
    "keywords",
    "metadata",
    "tier",
    "AND",
    "OR",
    "NOT",
    "and",
    "$or",
    "eq",
    "ne",
    "gte",
    "in",
    "nin",
    "contains",
    "icontains",
    ">=",
    "==",
    "!=",
    "$nin",
    "$exists",
    "$regex",
    "$options",
    "$ne",
    "like",
    "GTE",
]


def filter_values():
    from hypothesis import strategies as st

    leaves = st.sampled_from(['"a"', '"*"', "1", "None", "True", "x", "[]", '["a", "b"]', "[v]"])
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
            st.dictionaries(st.sampled_from(KEYS), inner, max_size=3).map(
                lambda d: "{" + ", ".join(f'"{k}": {v}' for k, v in d.items()) + "}"
            ),
        ),
        max_leaves=8,
    )


def test_random_filters_never_crash_and_fixes_settle():
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(filter_values(), filter_values())
    def run(platform_filter, oss_filter):
        for dialect, value in ((P, platform_filter), (O, oss_filter)):
            source = program(dialect, f"<c>.get_all(filters={value})")
            lint_source(source, select=("MEM2",))
            once = fix_source(source, select=("MEM2",), unsafe=True)
            assert fix_source(once, select=("MEM2",), unsafe=True) == once

    run()


def test_ne_null_is_an_error_on_open_source():
    call = '<c>.get_all(filters={"user_id": "u", "tier": {"ne": None}})'
    (oss,) = lint_source(program(O, call), select=("MEM207",))
    (platform,) = lint_source(program(P, call), select=("MEM207",))
    assert (oss.severity.value, platform.severity.value) == ("error", "warning")
    assert "raises ValueError" in oss.message


# --- renames beside a `**spread` (renames.py) ------------------------------------------------


@pytest.mark.parametrize("dialect", [P, O])
def test_dollar_and_beside_a_spread_is_not_safely_renamed(dialect):
    # `other` may hold an `AND` already: renaming `$and` would let one of the two silently win.
    call = '<c>.get_all(filters={"$and": [{"user_id": "u1"}, {"agent_id": "a"}], **other})'
    assert mem2(dialect, call) == [
        ("MEM201", "mem0 operators have no `$`: use `AND` instead of `$and`", "unsafe")
    ]
    assert fixed(dialect, call) == call  # --fix leaves it alone


def test_dollar_operator_beside_a_spread_in_an_operator_dict_is_unsafe():
    call = '<c>.get_all(filters={"user_id": "u1", "score": {"$gte": 3, **bounds}})'
    assert mem2(P, call) == [
        ("MEM201", "mem0 operators have no `$`: use `gte` instead of `$gte`", "unsafe")
    ]
    assert fixed(P, call) == call
    assert fixed(P, call, unsafe=True) == (
        '<c>.get_all(filters={"user_id": "u1", "score": {"gte": 3, **bounds}})'
    )


@pytest.mark.parametrize(
    ("ops", "applicability"),
    [('{"$in": ["a"], "in": ["b"]}', None), ('{"$in": ["a"], "$IN": ["b"]}', None)],
)
def test_dollar_rename_into_a_taken_key_has_no_fix(ops, applicability):
    call = f'<c>.get_all(filters={{"user_id": "u1", "tier": {ops}}})'
    assert [fix for code, _, fix in mem2(P, call) if code == "MEM201"][0] is applicability


def test_keywords_eq_rename_goes_through_the_shared_helper():
    call = '<c>.get_all(filters={"user_id": "u1", "keywords": {"eq": "invoice"}})'
    assert fixed(P, call, unsafe=True) == (
        '<c>.get_all(filters={"user_id": "u1", "keywords": {"icontains": "invoice"}})'
    )
