"""Regressions of issue 11 (classes 1, 2, 3, 5, 6) and issue 10 (a rename beside a `**spread`)."""

from __future__ import annotations

import pytest

from mem0lint import engine
from mem0lint.rule import PREAMBLES, Applicability

P, OS = PREAMBLES["mem0-platform"], PREAMBLES["mem0-oss"]
RULES = engine.RuleSet(engine.Settings())


def fixed(code: str) -> str:
    return engine.fix(engine.parse(code), RULES).code or code


def safety(code: str, rule: str) -> set:
    found = [d for d in engine.lint(engine.parse(code), RULES) if d.code == rule]
    assert found, f"{rule} did not fire"
    return {None if d.fix is None else d.fix.applicability for d in found}


# --- class 1: `$and` -> `AND` on open source search() flattens the list --------------------------


@pytest.mark.parametrize(
    "filters",
    [
        '{"user_id": "a", "$and": [{"tier": "gold"}, {"tier": "trial"}]}',  # repeated field
        '{"user_id": "a", "$and": [{"tier": "gold"}, {"$or": [{"x": 1}, {"y": 2}]}]}',  # OR in
        '{"user_id": "a", "$and": [{"tier": "gold"}, {"not": [{"x": 1}]}]}',  # NOT in
        '{"user_id": "a", "tier": "gold", "$and": [{"tier": "trial"}]}',  # root field again
        '{"user_id": "a", "$and": [{"x": {"$ne": 1}}, {"x": {"$ne": 2}}]}',  # same operator
    ],
)
def test_oss_search_logical_rename_that_would_lose_a_condition_is_not_fixed(filters):
    code = OS + f'memory.search("q", filters={filters})\n'
    assert '"AND"' not in fixed(code) and '"$and"' in fixed(code)


def test_oss_search_and_without_collision_is_fixed_and_not_flagged_again():
    code = OS + 'memory.search("q", filters={"user_id": "a", "$and": [{"x": 1}, {"y": 2}]})\n'
    out = fixed(code)
    assert '"AND"' in out
    assert not [d for d in engine.lint(engine.parse(out), RULES) if d.code == "MEM308"]


def test_oss_search_merged_operator_dicts_are_fine():
    code = (
        OS
        + 'memory.search("q", filters={"user_id": "a", '
        + '"$and": [{"p": {"gte": 1}}, {"p": {"lte": 3}}]})\n'
    )
    assert '"AND"' in fixed(code)


def test_oss_get_all_does_not_flatten():
    code = OS + 'memory.get_all(filters={"user_id": "a", "$and": [{"x": 1}, {"x": 2}]})\n'
    assert '"AND"' in fixed(code)


# --- issue 10: one rename helper, spread-aware ---------------------------------------------------


@pytest.mark.parametrize(
    ("code", "rule"),
    [
        (P + 'client.search("q", filters={"$and": [{"user_id": "a"}], **other})\n', "MEM201"),
        (P + 'client.search("q", filters={"or": [{"user_id": "a"}], **other})\n', "MEM202"),
        (P + 'client.search("q", filters={"user_id": "a", "p": {">=": 1, **o}})\n', "MEM203"),
    ],
)
def test_rename_beside_a_spread_is_not_safe(code, rule):
    assert Applicability.SAFE not in safety(code, rule)


def test_two_spellings_renamed_into_one_key_are_not_fixed():
    code = P + 'client.search("q", filters={"$and": [{"user_id": "a"}], "and": [{"x": 1}]})\n'
    assert safety(code, "MEM201") == {None}


# --- class 2: a dict defined elsewhere and used by other code ------------------------------------


def test_shared_dict_is_not_rewritten_by_a_safe_fix():
    code = P + 'scope = {"$or": [{"user_id": "a"}, {"agent_id": "b"}]}\n'
    code += 'client.search("q", filters=scope)\nprint(scope["$or"])\n'
    assert fixed(code) == code
    assert safety(code, "MEM201") == {Applicability.UNSAFE}


def test_dict_used_only_by_the_call_is_fixed():
    code = P + 'scope = {"$or": [{"user_id": "a"}, {"agent_id": "b"}]}\n'
    code += 'client.search("q", filters=scope)\n'
    assert '"OR"' in fixed(code)


# --- class 3: renamed keyword values -------------------------------------------------------------


@pytest.mark.parametrize("value", ["None", "True", "2.5", "-1", "5000", "'5'"])
def test_cap_rename_of_a_rejected_literal_is_not_safe(value):
    code = P + f'client.search("q", filters={{"user_id": "u"}}, limit={value})\n'
    assert fixed(code) == code


def test_cap_rename_of_a_variable_is_unsafe():
    code = (
        P
        + "def recall(q, u, limit=None):\n"
        + '    return client.search(q, filters={"user_id": u}, limit=limit)\n'
    )
    assert safety(code, "MEM102") == {Applicability.UNSAFE}


def test_oss_get_all_limit_none_is_not_renamed():
    code = OS + 'memory.get_all(filters={"user_id": "u"}, limit=None)\n'
    assert fixed(code) == code


# --- class 5: MEM101 conflicts -------------------------------------------------------------------


@pytest.mark.parametrize(
    "filters",
    ['{"AND": [{"user_id": "b"}]}', '{"userId": "b"}', '{"OR": [{"USER_ID": "b"}, {"x": 1}]}'],
)
def test_entity_keyword_next_to_a_nested_or_camel_key_is_not_fixed(filters):
    code = P + f'client.search("q", user_id="a", filters={filters})\n'
    assert safety(code, "MEM101") == {None}


def test_user_id_none_is_not_sent_as_null():
    code = P + 'client.search("q", user_id=None, filters={"agent_id": "b"})\n'
    assert (
        "None"
        not in engine.fix(
            engine.parse(code), engine.RuleSet(engine.Settings(unsafe_fixes=True))
        ).code.split("\n")[-2]
    )


def test_filters_none_is_replaced_not_spread():
    code = P + 'client.search("q", user_id="a", filters=None)\n'
    assert fixed(code).endswith('client.search("q", filters={"user_id": "a"})\n')


def test_kwargs_that_may_hold_filters_is_unsafe():
    code = P + 'client.search("q", user_id="a", **kwargs)\n'
    assert safety(code, "MEM101") == {Applicability.UNSAFE}


# --- class 6: the fixed call must be clean -------------------------------------------------------


def test_mem101_into_an_and_that_mem403_flags_is_unsafe():
    code = P + 'client.get_all(user_id="a", agent_id="b")\n'
    assert safety(code, "MEM101") == {Applicability.UNSAFE}
    assert fixed(code) == code


def test_list_with_a_positional_id_has_no_fix():
    code = P + 'client.list("u")\n'
    assert safety(code, "MEM123") == {None}


def test_list_without_arguments_is_fixed():
    code = P + 'client.list(filters={"user_id": "u"})\n'
    assert "client.get_all(" in fixed(code)


def test_memsy_rename_beside_kwargs_is_unsafe():
    code = PREAMBLES["memsy"] + 'client.search("q", actor_id="u1", k=5, **opts)\n'
    assert safety(code, "MEM606") == {Applicability.UNSAFE}


def test_shared_dict_through_the_cli_with_pruning(tmp_path):
    """The command line prunes statements that cannot matter; a reader of the dict is kept."""
    import subprocess
    import sys

    source = P + 'scope = {"$or": [{"user_id": "a"}, {"agent_id": "b"}]}\n'
    source += 'client.search("q", filters=scope)\n\n\ndef helper():\n    return scope["$or"]\n'
    path = tmp_path / "shared.py"
    path.write_text(source, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "mem0lint", "--fix", "--no-cache", "--exit-zero", str(path)],
        check=True,
        capture_output=True,
    )
    assert path.read_text(encoding="utf-8") == source


def test_pymongo_reader_keeps_the_dict(tmp_path):
    code = P + 'q = {"$or": [{"user_id": "a"}, {"agent_id": "b"}]}\n'
    code += 'client.search("q", filters=q)\ndb.things.find(q)\n'
    assert fixed(code) == code


def test_oss_search_and_merging_a_range_with_a_match_is_not_fixed():
    # Found by the real-SDK proof: the merged `{"gt": 6, "in": [31]}` raises in Qdrant's builder.
    code = OS + (
        'memory.search("q", filters={"user_id": "u", '
        '"$and": [{"priority": {"gt": 6}}, {"priority": {"in": [31]}}]})\n'
    )
    assert fixed(code) == code
