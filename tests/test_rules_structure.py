"""MEM3xx filter structure: the tricky cases beyond each rule's documented examples."""

from __future__ import annotations

import textwrap

import pytest
from conftest import fix_source, lint_source

PLATFORM = "from mem0 import MemoryClient\nclient = MemoryClient()\n"
OSS = "from mem0 import Memory\nmemory = Memory()\n"


def findings(preamble: str, call: str, select: tuple[str, ...] = ()):
    return [
        (d.code, d.severity.value, d.fix.applicability.value if d.fix else None)
        for d in lint_source(preamble + textwrap.dedent(call), select=select)
    ]


def fixed(preamble: str, call: str, select: tuple[str, ...], unsafe: bool = False) -> str:
    source = preamble + textwrap.dedent(call)
    return fix_source(source, select=select, unsafe=unsafe)[len(preamble) :]


# MEM301 not-shape ---------------------------------------------------------------------------


def test_platform_not_with_several_conditions_is_reported_without_a_fix():
    call = 'client.search("q", filters={"user_id": "u", "NOT": [{"run_id": "a"}, {"run_id": "b"}]})'
    assert findings(PLATFORM, call) == [("MEM301", "warning", None)]


def test_platform_not_object_and_oss_not_list_are_the_right_shapes():
    assert findings(PLATFORM, 'client.search("q", filters={"user_id": "u", "NOT": {"a": 1}})') == [
        ("MEM304", "warning", None)
    ]
    assert findings(OSS, 'memory.search("q", filters={"user_id": "u", "NOT": [{"a": 1}]})') == []


def test_oss_not_object_inside_and_is_an_error_and_is_wrapped():
    call = 'memory.search("q", filters={"user_id": "u", "AND": [{"NOT": {"topic": "x"}}]})\n'
    assert findings(OSS, call) == [("MEM301", "error", "safe")]
    assert fixed(OSS, call, ("MEM301",)) == (
        'memory.search("q", filters={"user_id": "u", "AND": [{"NOT": [{"topic": "x"}]}]})\n'
    )


def test_not_given_by_a_variable_is_not_judged():
    assert findings(OSS, 'memory.search("q", filters={"user_id": "u", "NOT": cond})') == []
    assert findings(PLATFORM, 'client.search("q", filters={"user_id": "u", "NOT": conds})') == []


def test_lowercase_not_gets_its_shape_fixed_and_its_spelling_left_to_mem202():
    call = 'client.search("q", filters={"user_id": "u", "not": [{"run_id": "r"}]})\n'
    assert sorted(findings(PLATFORM, call)) == [
        ("MEM202", "error", "safe"),
        ("MEM301", "warning", "safe"),
    ]
    assert fixed(PLATFORM, call, ("MEM301",)) == (
        'client.search("q", filters={"user_id": "u", "not": {"run_id": "r"}})\n'
    )


# MEM302 and-or-siblings ---------------------------------------------------------------------


def test_and_or_siblings_inside_an_or_branch_are_found_and_fixed_in_place():
    call = (
        'client.search("q", filters={"OR": [{"user_id": "u"}, '
        '{"AND": [{"agent_id": "a"}], "OR": [{"run_id": "r"}, {"run_id": "s"}]}]})\n'
    )
    assert findings(PLATFORM, call) == [("MEM302", "warning", "safe")]
    assert fixed(PLATFORM, call, ("MEM302",)) == (
        'client.search("q", filters={"OR": [{"user_id": "u"}, '
        '{"AND": [{"agent_id": "a"}, {"OR": [{"run_id": "r"}, {"run_id": "s"}]}]}]})\n'
    )


def test_and_or_siblings_keep_a_multiline_layout_and_comments():
    call = """\
        client.search(
            "q",
            filters={
                "AND": [
                    {"user_id": "u"},  # who
                    {"created_at": {"gte": "2025-01-01"}},
                ],
                "OR": [{"run_id": "a"}, {"run_id": "b"}],
            },
        )
    """
    assert fixed(PLATFORM, call, ("MEM302",)) == textwrap.dedent(
        """\
        client.search(
            "q",
            filters={
                "AND": [
                    {"user_id": "u"},  # who
                    {"created_at": {"gte": "2025-01-01"}},
                    {"OR": [{"run_id": "a"}, {"run_id": "b"}]},
                ],
            },
        )
        """
    )


def test_and_or_siblings_without_a_literal_and_list_are_reported_only():
    call = 'client.search("q", filters={"AND": conditions, "OR": [{"user_id": "u"}]})'
    assert findings(PLATFORM, call, select=("MEM302",)) == [("MEM302", "warning", None)]


def test_and_or_siblings_are_fine_in_open_source():
    call = 'memory.search("q", filters={"user_id": "u", "AND": [{"a": 1}], "OR": [{"b": 2}]})'
    assert findings(OSS, call) == []


# MEM303 / MEM304 allowed keys ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "owner"),
    [
        ("metadata.tier", "MEM305"),
        ("userId", "MEM404"),
        ("session_id", "MEM405"),
        ("$and", "MEM201"),
        ("or", "MEM202"),
    ],
)
def test_unknown_top_level_key_leaves_keys_other_rules_explain(key, owner):
    call = f'client.search("q", filters={{"user_id": "u", "{key}": []}})'
    codes = {code for code, _, _ in findings(PLATFORM, call)}
    assert "MEM303" not in codes
    assert owner in codes


def test_unknown_top_level_keys_move_into_one_metadata_wrapper():
    call = 'client.search("q", filters={"user_id": "u", "tier": "gold", "region": "eu"})\n'
    assert findings(PLATFORM, call) == [("MEM303", "error", "unsafe")] * 2
    assert fixed(PLATFORM, call, ("MEM303",), unsafe=True) == (
        'client.search("q", filters={"user_id": "u", '
        '"metadata": {"tier": "gold", "region": "eu"}})\n'
    )


def test_unknown_top_level_key_gets_no_fix_next_to_metadata_or_with_an_operator():
    assert findings(
        PLATFORM, 'client.search("q", filters={"user_id": "u", "metadata": {}, "tier": "gold"})'
    ) == [("MEM303", "error", None)]
    assert findings(
        PLATFORM, 'client.search("q", filters={"user_id": "u", "tier": {"in": ["gold"]}})'
    ) == [("MEM303", "error", None)]


def test_nested_unknown_key_is_a_warning_and_allowed_fields_are_silent():
    call = (
        'client.search("q", filters={"OR": [{"user_id": "u"}, {"summary": "x"}, '
        '{"categories": {"in": ["a"]}}, {"metadata": {"summary": "x"}}]})'
    )
    assert findings(PLATFORM, call) == [("MEM304", "warning", None)]


def test_open_source_accepts_any_field_name():
    assert findings(OSS, 'memory.search("q", filters={"user_id": "u", "tier": "gold"})') == []


# MEM305 / MEM306 metadata -------------------------------------------------------------------


def test_dotted_metadata_key_fix_depends_on_the_platform_metadata_rules():
    two = 'client.search("q", filters={"user_id": "u", "metadata.a": 1, "metadata.b": 2})'
    # Class 8 (issue 11): two dotted keys go into one wrapper, safely.
    assert findings(PLATFORM, two) == [("MEM305", "error", "safe")] * 2
    assert fixed(PLATFORM, two + "\n", ("MEM305",)) == (
        'client.search("q", filters={"user_id": "u", "metadata": {"a": 1, "b": 2}})\n'
    )
    ranged = 'client.search("q", filters={"user_id": "u", "metadata.n": {"gte": 3}})'
    assert findings(PLATFORM, ranged, select=("MEM305",)) == [("MEM305", "error", None)]
    nested = 'client.search("q", filters={"user_id": "u", "metadata.a.b": 1})'
    assert findings(PLATFORM, nested) == [("MEM305", "error", None)]
    ne = 'client.search("q", filters={"user_id": "u", "metadata.a": {"ne": "x"}})\n'
    assert fixed(PLATFORM, ne, ("MEM305",)) == (
        'client.search("q", filters={"user_id": "u", "metadata": {"a": {"ne": "x"}}})\n'
    )


def test_dotted_metadata_key_in_open_source_keeps_taken_names():
    taken = 'memory.search("q", filters={"user_id": "u", "topic": 1, "metadata.topic": 2})'
    assert findings(OSS, taken) == [("MEM305", "warning", None)]
    entity = 'memory.search("q", filters={"user_id": "u", "metadata.agent_id": "a"})'
    assert findings(OSS, entity) == [("MEM305", "warning", None)]


def test_metadata_wrapper_on_open_source_flattens_unless_a_key_is_taken():
    call = 'memory.search("q", filters={"user_id": "u", "metadata": {"a": 1, "b": {"gt": 2}}})\n'
    assert fixed(OSS, call, ("MEM306",)) == (
        'memory.search("q", filters={"user_id": "u", "a": 1, "b": {"gt": 2}})\n'
    )
    clash = 'memory.search("q", filters={"user_id": "u", "a": 0, "metadata": {"a": 1}})'
    assert findings(OSS, clash) == [("MEM306", "error", None)]
    scope = 'memory.search("q", filters={"user_id": "u", "metadata": {"run_id": "r"}})'
    assert findings(OSS, scope) == [("MEM306", "error", None)]


def test_a_payload_field_named_metadata_with_an_operator_is_not_a_wrapper():
    call = 'memory.search("q", filters={"user_id": "u", "metadata": {"ne": None}})'
    assert "MEM306" not in {code for code, _, _ in findings(OSS, call)}


def test_metadata_wrapper_is_right_on_the_platform():
    call = 'client.search("q", filters={"user_id": "u", "metadata": {"a": 1}})'
    assert findings(PLATFORM, call) == []


# MEM311 / MEM312 logical values -------------------------------------------------------------


def test_logical_value_that_is_a_scalar_or_a_variable():
    assert findings(PLATFORM, 'client.search("q", filters={"user_id": "u", "AND": "x"})') == [
        ("MEM311", "error", None)
    ]
    assert findings(PLATFORM, 'client.search("q", filters={"user_id": "u", "AND": conds})') == []


def test_empty_logical_severity_follows_where_open_source_checks_it():
    root = 'memory.search("q", filters={"user_id": "u", "OR": []})'
    assert findings(OSS, root) == [("MEM312", "error", None)]
    listing = 'memory.get_all(filters={"user_id": "u", "NOT": []})'
    assert findings(OSS, listing) == [("MEM312", "warning", None)]
    empty_and = 'memory.search("q", filters={"user_id": "u", "AND": []})'
    assert findings(OSS, empty_and) == [("MEM312", "warning", None)]
    nested = 'memory.search("q", filters={"user_id": "u", "AND": [{"OR": []}]})'
    assert findings(OSS, nested) == [("MEM312", "warning", None)]


# Opaque filters -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "filters",
    ["build()", "{**base}", '{**base, "NOT": [c]}', "{key: 1}", "[1, 2]", '"user_id"', "None"],
)
def test_opaque_or_odd_filters_never_crash(filters):
    for preamble, call in (
        (PLATFORM, f'client.search("q", filters={filters})'),
        (OSS, f'memory.search("q", filters={filters})'),
    ):
        lint_source(preamble + call)
        fix_source(preamble + call, unsafe=True)


def test_an_empty_condition_object_is_not_wrapped_or_unwrapped():
    # `[{}]` reads as "no condition" on Qdrant, `{}` under NOT as "everything": not the same.
    assert findings(OSS, 'memory.search("q", filters={"user_id": "u", "NOT": {}})') == [
        ("MEM301", "error", None),
        ("MEM312", "error", None),
    ]
    assert findings(PLATFORM, 'client.search("q", filters={"user_id": "u", "NOT": [{}]})') == [
        ("MEM301", "warning", None)
    ]
    assert findings(OSS, 'memory.search("q", filters={"user_id": "u", "AND": {}})') == [
        ("MEM311", "error", None),
        ("MEM312", "warning", None),
    ]


# MEM308 / MEM314 ----------------------------------------------------------------------------


def test_oss_and_flattening_overrides_the_scope_silently():
    call = 'memory.search("q", filters={"user_id": "u", "AND": [{"user_id": "v"}]})'
    assert findings(OSS, call) == [("MEM308", "warning", None)]


def test_oss_and_flattening_merges_different_operators():
    call = (
        'memory.search("q", filters={"user_id": "u", "AND": '
        '[{"n": {"gte": 1}}, {"n": {"lte": 5}}]})'
    )
    assert findings(OSS, call) == []
    same_op = (
        'memory.search("q", filters={"user_id": "u", "AND": '
        '[{"n": {"gte": 1}}, {"n": {"gte": 5}}]})'
    )
    assert findings(OSS, same_op) == [("MEM308", "warning", None)]


def test_oss_and_flattening_is_a_search_only_and_exact_key_matter():
    listing = 'memory.get_all(filters={"user_id": "u", "AND": [{"t": 1}, {"t": 2}]})'
    assert findings(OSS, listing) == []
    platform = 'client.search("q", filters={"user_id": "u", "AND": [{"run_id": 1}, {"run_id": 2}]})'
    assert findings(PLATFORM, platform) == []


@pytest.mark.parametrize("value", ['[{"user_id": "u"}]', '("u",)', '"u"', "42"])
def test_filters_that_are_not_a_dict(value):
    assert findings(OSS, f'memory.search("q", filters={value})', select=("MEM314",)) == [
        ("MEM314", "error", None)
    ]


def test_filters_none_is_a_missing_scope_not_a_wrong_type():
    assert findings(OSS, 'memory.search("q", filters=None)') == [("MEM401", "error", None)]


def test_tuples_as_logical_values_fail_only_in_open_source():
    call = 'memory.search("q", filters={"user_id": "u", "NOT": ({"topic": "x"},)})\n'
    assert findings(OSS, call) == [("MEM311", "error", "safe")]
    assert fixed(OSS, call, ("MEM311",)) == (
        'memory.search("q", filters={"user_id": "u", "NOT": [{"topic": "x"}]})\n'
    )
    platform = 'client.search("q", filters={"OR": ({"user_id": "u"}, {"agent_id": "a"})})'
    assert findings(PLATFORM, platform) == []
