"""MEM4xx entity scoping: the tricky cases beyond each rule's documented examples."""

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


def codes(preamble: str, call: str) -> set[str]:
    return {code for code, _, _ in findings(preamble, call)}


def fixed(preamble: str, call: str, select: tuple[str, ...], unsafe: bool = False) -> str:
    source = preamble + textwrap.dedent(call)
    return fix_source(source, select=select, unsafe=unsafe)[len(preamble) :]


# MEM401 missing-entity ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        'client.search("q", filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})',
        'client.search("q", filters={"AND": [{"app_id": "x"}, {"metadata": {"k": 1}}]})',
        'client.get_all(filters={"NOT": {"run_id": "r"}, "categories": {"in": ["a"]}})',
    ],
)
def test_platform_entity_ids_count_anywhere_in_the_filter(call):
    assert "MEM401" not in codes(PLATFORM, call)


@pytest.mark.parametrize(
    "call",
    [
        'client.search("q", filters={**base, "categories": {"in": ["a"]}})',
        'client.search("q", filters={"OR": [scope, {"categories": {"in": ["a"]}}]})',
        'client.search("q", filters={"AND": conditions})',
        'client.search("q", filters=build_filters())',
        'client.search("q", **options)',
        'client.search("q", options)',
        "client.get_all(options=GetAllMemoryOptions(filters=f))",
    ],
)
def test_a_hidden_part_may_hold_the_entity_id(call):
    assert "MEM401" not in codes(PLATFORM, call)


def test_entity_kwargs_are_mem101s_finding_not_mem401s():
    assert codes(PLATFORM, 'client.search("q", user_id="u")') == {"MEM101"}
    assert codes(OSS, 'memory.get_all(run_id="r", filters={"topic": "x"})') == {"MEM101"}


def test_filter_singular_is_left_to_its_own_rule():
    assert "MEM401" not in codes(OSS, 'memory.search("q", filter={"user_id": "u"})')


def test_missing_filters_argument_is_reported_on_both_dialects():
    assert findings(PLATFORM, 'client.search("q")') == [("MEM401", "error", None)]
    assert findings(OSS, "memory.get_all()") == [("MEM401", "error", None)]


def test_followed_filter_dict_is_trusted_only_while_it_is_not_changed():
    plain = 'f = {"topic": "x"}\nmemory.search("q", filters=f)\n'
    assert findings(OSS, plain) == [("MEM401", "error", None)]
    changed = 'f = {"topic": "x"}\nf["user_id"] = uid\nmemory.search("q", filters=f)\n'
    assert findings(OSS, changed) == []


def test_open_source_app_id_is_not_a_scope():
    assert findings(OSS, 'memory.search("q", filters={"app_id": "x"})') == [
        ("MEM401", "error", None)
    ]


def test_open_source_spread_at_the_root_hides_the_scope_but_nested_spread_does_not():
    assert findings(OSS, 'memory.search("q", filters={**scope, "topic": "x"})') == []
    assert findings(OSS, 'memory.search("q", filters={"topic": "x", "OR": [{**a}]})') == [
        ("MEM401", "error", None)
    ]


# MEM402 oss-entity-not-top-level ------------------------------------------------------------


def test_entity_in_or_cannot_be_hoisted():
    call = 'memory.search("q", filters={"OR": [{"user_id": "a"}, {"agent_id": "b"}]})'
    assert findings(OSS, call) == [("MEM402", "error", None)] * 2


def test_nested_entity_next_to_a_top_level_one_is_an_ordinary_condition():
    call = (
        'memory.search("q", filters={"user_id": "u", "OR": [{"agent_id": "a"}, {"run_id": "r"}]})'
    )
    assert findings(OSS, call) == []


def test_hoisting_keeps_the_rest_of_the_and_and_drops_an_emptied_and():
    call = 'memory.search("q", filters={"AND": [{"user_id": "u", "topic": "x"}, {"n": 1}]})\n'
    assert fixed(OSS, call, ("MEM402",)) == (
        'memory.search("q", filters={"user_id": "u", "AND": [{"topic": "x"}, {"n": 1}]})\n'
    )
    alone = 'memory.get_all(filters={"AND": [{"run_id": "r"}]})\n'
    assert fixed(OSS, alone, ("MEM402",)) == 'memory.get_all(filters={"run_id": "r"})\n'


def test_hoisting_the_same_id_twice_is_left_to_the_author():
    call = 'memory.search("q", filters={"AND": [{"user_id": "a"}, {"user_id": "b"}]})'
    assert findings(OSS, call) == [("MEM402", "error", None)] * 2


def test_hoisting_a_variable_is_unsafe():
    call = 'memory.search("q", filters={"AND": [{"user_id": uid}, {"n": 1}]})\n'
    assert findings(OSS, call) == [("MEM402", "error", "unsafe")]
    assert fixed(OSS, call, ("MEM402",)) == call


def test_platform_accepts_nested_entity_ids():
    call = 'client.search("q", filters={"AND": [{"user_id": "u"}, {"run_id": "r"}]})'
    assert findings(PLATFORM, call) == []


# MEM403 user-and-agent-and ------------------------------------------------------------------


@pytest.mark.parametrize(
    "filters",
    [
        '{"user_id": "u", "agent_id": "*"}',  # any agent: asked for on purpose
        '{"user_id": "u", "agent_id": {"ne": "a"}}',
        '{"user_id": "u", "NOT": {"agent_id": "a"}}',
        '{"OR": [{"user_id": "u"}, {"agent_id": "a"}]}',
        '{"user_id": "u", "NOT": {"AND": [{"user_id": "v"}, {"agent_id": "a"}]}}',
    ],
)
def test_user_and_agent_decoys(filters):
    assert "MEM403" not in codes(PLATFORM, f'client.search("q", filters={filters})')


def test_user_and_agent_across_a_flat_key_and_an_and_list_is_reported_without_fix():
    call = 'client.search("q", filters={"user_id": "u", "AND": [{"agent_id": "a"}]})'
    assert findings(PLATFORM, call) == [("MEM403", "warning", None)]


def test_user_and_agent_inside_an_or_branch_is_reported():
    call = (
        'client.search("q", filters={"OR": [{"user_id": "u", "agent_id": "a"}, {"run_id": "r"}]})'
    )
    assert findings(PLATFORM, call) == [("MEM403", "warning", "unsafe")]


def test_user_and_agent_flat_next_to_a_logical_key_gets_no_fix():
    call = 'client.search("q", filters={"user_id": "u", "agent_id": "a", "AND": [{"run_id": "r"}]})'
    assert findings(PLATFORM, call) == [("MEM403", "warning", None)]


def test_user_and_agent_flat_keeps_other_conditions():
    call = 'client.search("q", filters={"user_id": u, "agent_id": a, "run_id": r})\n'
    assert fixed(PLATFORM, call, ("MEM403",), unsafe=True) == (
        'client.search("q", filters={"OR": [{"user_id": u}, {"agent_id": a}], "run_id": r})\n'
    )


# MEM404 / MEM405 spellings ------------------------------------------------------------------


def test_camelcase_entity_nested_on_the_platform_is_renamed():
    call = 'client.search("q", filters={"OR": [{"userId": "u"}, {"agentId": "a"}]})\n'
    assert fixed(PLATFORM, call, ("MEM404",)) == (
        'client.search("q", filters={"OR": [{"user_id": "u"}, {"agent_id": "a"}]})\n'
    )


def test_camelcase_next_to_its_snake_case_twin_is_not_renamed():
    call = 'client.search("q", filters={"userId": "u", "user_id": "u"})'
    assert findings(PLATFORM, call) == [("MEM404", "error", None)]


def test_open_source_camelcase_key_next_to_a_real_scope_may_be_metadata():
    assert findings(OSS, 'memory.search("q", filters={"user_id": "u", "userId": "x"})') == []


def test_open_source_app_id_in_camelcase_is_reported_without_fix():
    assert findings(OSS, 'memory.search("q", filters={"appId": "x"})') == [
        ("MEM404", "error", None)
    ]


def test_open_source_nested_camelcase_is_renamed_then_hoisted():
    call = 'memory.search("q", filters={"AND": [{"userId": "u"}, {"n": 1}]})\n'
    assert fixed(OSS, call, ("MEM404", "MEM402")) == (
        'memory.search("q", filters={"user_id": "u", "AND": [{"n": 1}]})\n'
    )


def test_entity_alias_on_open_source_is_judged_only_without_a_real_scope():
    alone = 'memory.search("q", filters={"session_id": "s"})'
    assert findings(OSS, alone) == [("MEM405", "error", "unsafe")]
    scoped = 'memory.search("q", filters={"user_id": "u", "session_id": "s"})'
    assert findings(OSS, scoped) == []


def test_entity_alias_for_app_is_not_offered_on_open_source():
    assert findings(OSS, 'memory.search("q", filters={"app": "x"})') == [("MEM401", "error", None)]
    assert findings(PLATFORM, 'client.search("q", filters={"app": "x"})') == [
        ("MEM405", "error", "unsafe")
    ]


def test_entity_alias_renaming_needs_the_unsafe_flag():
    call = 'client.search("q", filters={"thread_id": "t"})\n'
    assert fixed(PLATFORM, call, ("MEM405",)) == call
    assert fixed(PLATFORM, call, ("MEM405",), unsafe=True) == (
        'client.search("q", filters={"run_id": "t"})\n'
    )


# MEM409 / MEM410 entity values --------------------------------------------------------------


def test_empty_entity_id_is_an_error_only_where_open_source_validates_it():
    call = 'memory.search("q", filters={"user_id": "", "OR": [{"agent_id": " "}]})'
    assert findings(OSS, call) == [("MEM409", "error", None), ("MEM409", "warning", None)]


def test_empty_entity_id_under_eq_is_found_on_the_platform():
    call = 'client.search("q", filters={"user_id": {"eq": "  "}})'
    assert findings(PLATFORM, call) == [("MEM409", "warning", None)]


def test_whitespace_inside_an_id_but_not_around_it():
    assert findings(OSS, 'memory.search("q", filters={"user_id": " alice "})') == []
    assert findings(OSS, 'memory.search("q", filters={"run_id": "run 1"})') == [
        ("MEM410", "error", None)
    ]
    assert findings(PLATFORM, 'client.search("q", filters={"user_id": "Ada Lovelace"})') == []


# MEM406 / MEM407 / MEM408 -------------------------------------------------------------------


def test_oss_wildcard_entity_in_filters_and_in_delete_all():
    assert findings(OSS, 'memory.get_all(filters={"user_id": "u", "run_id": "*"})') == [
        ("MEM406", "info", None)
    ]
    assert findings(OSS, 'memory.get_all(filters={"user_id": "*", "AND": [{"t": 1}]})') == [
        ("MEM406", "warning", None)
    ]
    # Not raised, but it wipes the collection: the message says so; the SDK does not.
    assert findings(OSS, 'memory.delete_all("*")') == [("MEM406", "warning", None)]
    assert findings(OSS, 'memory.delete_all(agent_id="*", user_id="u")') == [
        ("MEM406", "warning", None)
    ]


def test_platform_wildcard_entity_is_any_non_null_value():
    assert findings(PLATFORM, 'client.search("q", filters={"user_id": "u", "run_id": "*"})') == []


def test_ne_on_an_entity_already_guarded_by_a_wildcard_is_silent():
    call = (
        'client.search("q", filters={"user_id": "u", '
        '"AND": [{"agent_id": {"ne": "a"}}, {"agent_id": "*"}]})'
    )
    assert findings(PLATFORM, call) == []


def test_ne_on_a_flat_entity_key_is_reported_without_fix():
    call = 'client.search("q", filters={"user_id": "u", "agent_id": {"ne": "a"}})'
    assert findings(PLATFORM, call) == [("MEM407", "info", None)]


def test_entity_under_not_next_to_a_positive_one_is_fine():
    call = 'client.search("q", filters={"user_id": "u", "NOT": {"agent_id": "a"}})'
    assert findings(PLATFORM, call) == []
    only = 'client.search("q", filters={"OR": [{"NOT": {"user_id": "u"}}, {"run_id": x}]})'
    assert "MEM408" not in codes(PLATFORM, only)


def test_entity_kwargs_leave_the_nested_scope_to_mem101s_fix():
    call = 'memory.search("q", user_id="u", filters={"AND": [{"userId": "u"}, {"t": 1}]})'
    assert codes(OSS, call) == {"MEM101"}
