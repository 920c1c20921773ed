"""The filter rules declare the keys they explain; `owner()` (which rule reports an operator key)
and `owned_by_other_rules()` (keys MEM303/MEM304 leave to another rule) are derived from those
declarations.

The hand-kept versions from before the split are written out here once, to prove the derivation
gives the same answer for every key, value and dialect tried.
"""

from __future__ import annotations

from types import SimpleNamespace

import libcst as cst
import pytest

from mem0lint.filtertree import read_filter
from mem0lint.rules import all_rules
from mem0lint.rules.common import logical_name
from mem0lint.rules.filters.shared import OperatorRule, owner
from mem0lint.rules.structure.shared import dotted_metadata_field, owned_by_other_rules
from mem0lint.sdk.dialects import ENTITY_ALIASES, ENTITY_CAMEL_CASE, OPEN_SOURCE, PLATFORM
from mem0lint.sdk.mem0_filters import SQL_SYMBOLS

all_rules()  # registers every rule

OLD_DOLLAR_ELSEWHERE = {"$exists": "MEM206", "$regex": "MEM205", "$options": "MEM205"}


def old_owner(key, value, site):
    """`owner()` of rules/operators.py before the split."""
    operators = site.dialect.grammar.operators
    null = type(value).__name__ == "Scalar" and value.value is None
    if key.startswith("$"):
        if key in OLD_DOLLAR_ELSEWHERE:
            return OLD_DOLLAR_ELSEWHERE[key]
        if key == "$ne" and null:
            return "MEM207"
        if key == "$nin" and "nin" not in operators:
            return "MEM204"
        return "MEM201"
    if key in SQL_SYMBOLS:
        return "MEM203"
    if key == "exists":
        return "MEM206"
    if key == "nin" and "nin" not in operators:
        return "MEM204"
    if key not in operators:
        return "MEM205"
    if key == "ne" and null:
        return "MEM207"
    if key in ("in", "nin") and type(value).__name__ in ("Scalar", "DictValue"):
        return "MEM214"
    return None


def old_owned_by_other_rules(key):
    """`owned_by_other_rules()` of rules/structure.py before the split."""
    return (
        logical_name(key) is not None
        or key.startswith("$")
        or dotted_metadata_field(key) is not None
        or key in ENTITY_CAMEL_CASE
        or key in ENTITY_ALIASES
    )


OPERATOR_KEYS = sorted(
    {*PLATFORM.grammar.operators, *OPEN_SOURCE.grammar.operators, *SQL_SYMBOLS}
    | {f"${op}" for op in OPEN_SOURCE.grammar.operators}
    | {"exists", "$exists", "$regex", "regex", "$options", "options", "$not", "$and", "$AND"}
    | {"GTE", "In", "like", "neq", "not_in", "between", "AND", "and", "", "$", "user_id"}
)
VALUES = ["None", "1", '"x"', '["a", "b"]', "[]", '{"a": 1}', "{}", "some_name", "call()"]


@pytest.mark.parametrize("dialect", [PLATFORM, OPEN_SOURCE], ids=lambda d: d.id)
@pytest.mark.parametrize("value", VALUES)
def test_owner_is_the_old_hand_kept_owner(dialect, value):
    site = SimpleNamespace(dialect=dialect)
    node = read_filter(cst.parse_expression(value))
    for key in OPERATOR_KEYS:
        assert owner(key, node, site) == old_owner(key, node, site), (key, value)


FIELD_KEYS = sorted(
    {"and", "And", "AND", "oR", "not", "NOT", "$and", "$in", "$", "$$or", "andx", "nand"}
    | {"metadata", "metadata.", "metadata.k", "metadata.a.b", "Metadata.k", "user_id", "userId"}
    | {"session_id", "thread_id", "runID", "agent_id", "created_at", "categories", "custom", ""}
    | set(ENTITY_CAMEL_CASE)
    | set(ENTITY_ALIASES)
    | set(SQL_SYMBOLS)
    | {"in", "ne", "exists", "eq", "contains"}
)


@pytest.mark.parametrize("dialect", [PLATFORM, OPEN_SOURCE], ids=lambda d: d.id)
def test_owned_by_other_rules_is_the_old_hand_kept_list(dialect):
    for key in FIELD_KEYS:
        assert owned_by_other_rules(key, dialect.id) == old_owned_by_other_rules(key), key


def test_operator_claims_are_declared_on_the_rules():
    rules = all_rules()
    claimants = {code for code, rule in rules.items() if issubclass(rule, OperatorRule)}
    assert {"MEM203", "MEM204", "MEM205", "MEM206", "MEM207", "MEM214"} <= claimants
    assert rules["MEM203"].claims_operators == frozenset(SQL_SYMBOLS)
    assert rules["MEM201"].claims_keys == frozenset({"$*"})
    # An operator key is not a field key: `exists` at the top level is MEM303's "not allowed".
    assert not owned_by_other_rules("exists", PLATFORM.id)
