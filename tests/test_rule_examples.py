"""Every rule's documented examples, run as tests: a rule cannot exist untested.

For each example: the bad call is reported by the rule (in the example's dialect), the good call
gets no finding at all, and the fix turns the bad call into the documented fixed call; all of it
judged at the example's SDK release (`Example.release`; the newest when it names none).
"""

from __future__ import annotations

import pytest
from conftest import codes, fix_source

from mem0lint.rule import Example
from mem0lint.rules import all_rules
from mem0lint.sdk.applies import installing
from mem0lint.sdk.releases import RELEASES
from mem0lint.versions import in_range

CASES = [
    pytest.param(rule, example, id=f"{code}-{index}-{example.dialect}")
    for code, rule in all_rules().items()
    for index, example in enumerate(rule.examples)
]


def judged_at(example: Example) -> tuple:
    """The settings' SDK releases for the example (none: the newest)."""
    return installing(example.dialect, example.release)


def test_every_rule_has_examples_and_docs():
    for code, rule in all_rules().items():
        assert rule.examples, f"{code} has no examples"
        assert rule.summary and rule.why and rule.name, code
        for example in rule.examples:
            assert example.dialect in rule.dialects, code
        assert {e.dialect for e in rule.examples} <= set(rule.dialects)


def test_an_example_pinned_to_a_release_names_one_its_rule_judges():
    pinned = [(rule, e) for rule in all_rules().values() for e in rule.examples if e.release]
    assert pinned, "no rule of old releases only: drop `Example.release`"
    for rule, example in pinned:
        ((_, distribution, release, _),) = judged_at(example)
        assert release in RELEASES[distribution], (rule.code, release)
        assert in_range(rule.versions[distribution], release), (rule.code, release)


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_bad_example_is_reported(rule, example: Example):
    # `extend_select` names the code: an opt-in rule runs only when named (codes.OPT_IN).
    bad = example.program(example.bad)
    assert rule.code in codes(bad, extend_select=(rule.code,), sdks=judged_at(example))
    if rule.opt_in:  # and is off by default
        assert rule.code not in codes(bad, sdks=judged_at(example))


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_good_example_is_clean(rule, example: Example):
    good = example.program(example.good)
    assert codes(good, extend_select=(rule.code,), sdks=judged_at(example)) == []


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_fix_gives_documented_output(rule, example: Example):
    program = example.program(example.bad)
    fixed = fix_source(
        program,
        select=(rule.code,),
        unsafe=example.unsafe,
        sdks=judged_at(example),
    )
    if example.fixed is None:
        assert fixed == program, "a rule whose example documents no fix changed the code"
        return
    assert fixed == example.program(example.fixed)


@pytest.mark.parametrize(("rule", "example"), [c for c in CASES if c.values[1].unsafe])
def test_unsafe_fix_needs_the_flag(rule, example: Example):
    program = example.program(example.bad)
    assert (
        fix_source(
            program,
            select=(rule.code,),
            unsafe=False,
            sdks=judged_at(example),
        )
        == program
    )
