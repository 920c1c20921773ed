"""Every rule's documented examples, run as tests: a rule cannot exist untested.

For each example: the bad call is reported by the rule (in the example's dialect), the good call
gets no finding at all, and the fix turns the bad call into the documented fixed call.
"""

from __future__ import annotations

import pytest
from conftest import codes, fix_source

from mem0lint.rule import Example
from mem0lint.rules import all_rules

CASES = [
    pytest.param(rule, example, id=f"{code}-{index}-{example.dialect}")
    for code, rule in all_rules().items()
    for index, example in enumerate(rule.examples)
]


def test_every_rule_has_examples_and_docs():
    for code, rule in all_rules().items():
        assert rule.examples, f"{code} has no examples"
        assert rule.summary and rule.why and rule.name, code
        for example in rule.examples:
            assert example.dialect in rule.dialects, code
        assert {e.dialect for e in rule.examples} <= set(rule.dialects)


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_bad_example_is_reported(rule, example: Example):
    # `extend_select` names the code: an opt-in rule runs only when named (codes.OPT_IN).
    assert rule.code in codes(example.program(example.bad), extend_select=(rule.code,))
    if rule.opt_in:  # and is off by default
        assert rule.code not in codes(example.program(example.bad))


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_good_example_is_clean(rule, example: Example):
    assert codes(example.program(example.good), extend_select=(rule.code,)) == []


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_fix_gives_documented_output(rule, example: Example):
    program = example.program(example.bad)
    fixed = fix_source(program, select=(rule.code,), unsafe=example.unsafe)
    if example.fixed is None:
        assert fixed == program, "a rule whose example documents no fix changed the code"
        return
    assert fixed == example.program(example.fixed)


@pytest.mark.parametrize(("rule", "example"), [c for c in CASES if c.values[1].unsafe])
def test_unsafe_fix_needs_the_flag(rule, example: Example):
    program = example.program(example.bad)
    assert fix_source(program, select=(rule.code,), unsafe=False) == program
