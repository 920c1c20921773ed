"""The real SDKs are the oracle for what mem0lint calls an error, and for what --fix writes.

Every rule example is executed against the installed SDKs with the network stubbed at the
transport (tests/sdk_harness.py):

- a bad example that mem0lint reports as `error` must fail for real: the SDK raises, or a request
  it sends is one the server rejects (tests/request_validators.py);
- the example's good form, and the bad form after `engine.fix`, must run without raising and send
  only requests the validators accept.

Examples are taken from the rule registry, so rules merged later are covered without edits here.
"""

from __future__ import annotations

import re
from importlib import metadata

import pytest
from request_validators import Invalid, validate
from sdk_harness import Outcome, run

from mem0lint import engine
from mem0lint.rule import Severity
from mem0lint.rules import all_rules

SDK_DISTRIBUTIONS = ("mem0ai", "memsy", "MemoryOS", "httpx", "requests", "qdrant-client")

# The examples judged at the newest release, which is what is installed here (an example of an
# old release's rule, `Example.release`, was run against its wheel by hand: see the rule's notes).
CASES = [
    pytest.param(rule, example, id=f"{code}-{index}-{example.dialect}")
    for code, rule in all_rules().items()
    for index, example in enumerate(rule.examples)
    if example.release is None
]


def sdk_versions() -> dict[str, str]:
    return {name: metadata.version(name) for name in SDK_DISTRIBUTIONS}


def test_print_sdk_versions():
    versions = sdk_versions()
    print("SDK oracle versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    assert versions["mem0ai"].startswith("2.")


def problems(outcome: Outcome) -> list[str]:
    found = []
    for sent in outcome.sent:
        try:
            validate(sent)
        except Invalid as error:
            found.append(f"{sent.method} {sent.path}: {error}")
    return found


def severities(program: str, code: str) -> set[Severity]:
    module = engine.parse(program)
    rules = engine.RuleSet(engine.Settings(select=(code,)))
    return {d.severity for d in engine.lint(module, rules) if d.code == code}


# The examples a rule reports as `error` (the call raises or is rejected); a warning's example
# runs, by definition, and is not expected to fail.
ERROR_CASES = [
    case
    for case in CASES
    if Severity.ERROR in severities(case.values[1].program(case.values[1].bad), case.values[0].code)
]


def test_most_examples_are_errors_the_sdk_must_reject():
    assert len(CASES) / 2 < len(ERROR_CASES) < len(CASES)


@pytest.mark.parametrize(("rule", "example"), ERROR_CASES)
def test_error_example_fails_against_the_real_sdk(rule, example, monkeypatch):
    program = example.program(example.bad)
    outcome = run(program, monkeypatch)
    if outcome.raised is not None:
        return
    assert outcome.sent or outcome.store_calls, "the example made no SDK call"
    assert problems(outcome), (
        f"{rule.code} says error, but the SDK ran it and every request was valid:\n{program}\n"
        f"sent: {outcome.sent}"
    )


@pytest.mark.parametrize(("rule", "example"), CASES)
def test_good_example_runs_against_the_real_sdk(rule, example, monkeypatch):
    program = example.program(example.good)
    assert_clean_run(program, monkeypatch)


@pytest.mark.parametrize(("rule", "example"), [c for c in CASES if c.values[1].fixed is not None])
def test_fixed_example_runs_against_the_real_sdk(rule, example, monkeypatch):
    module = engine.parse(example.program(example.bad))
    rules = engine.RuleSet(engine.Settings(unsafe_fixes=example.unsafe))
    assert_clean_run(engine.fix(module, rules).module.code, monkeypatch)


# A program that calls one of these methods must reach the SDK; one that only builds a client
# or a record (constructor rules) is checked by running without an exception.
SDK_METHOD_CALL = re.compile(r"\.(search|get_all|delete_all|search_memory|get_memory|list)\(")


def assert_clean_run(program: str, monkeypatch) -> None:
    outcome = run(program, monkeypatch)
    assert outcome.raised is None, f"raised {outcome.raised!r}:\n{program}"
    if SDK_METHOD_CALL.search(program):
        assert outcome.sent or outcome.store_calls, f"no SDK call was made:\n{program}"
    assert not problems(outcome), f"{problems(outcome)}:\n{program}"


# --- the harness itself, on each SDK (ready for rules not merged yet) ---------------------------

HARNESS_CASES = [
    # (dialect, call, raises, invalid request)
    ("mem0-platform", 'client.search("q", filters={"user_id": "alice"}, top_k=5)', False, False),
    ("mem0-platform", 'client.search("q", user_id="alice")', True, False),
    ("mem0-platform", 'client.search("q", filters={"tier": "gold"})', False, True),
    ("mem0-platform", 'client.delete_all(filters={"user_id": "alice"})', False, True),
    ("mem0-platform", 'client.delete_all(user_id="alice")', False, False),
    ("mem0-oss", 'memory.search("q", filters={"user_id": "alice", "tier": "gold"})', False, False),
    ("mem0-oss", 'memory.search("q", filters={"AND": [{"user_id": "alice"}]})', True, False),
    ("mem0-oss", 'memory.search("q", filters={"user_id": "a", "NOT": {"tier": "x"}})', True, False),
    ("mem0-oss", 'memory.delete_all(filters={"user_id": "alice"})', True, False),
    ("memsy", 'client.search("q", actor_id="alice", limit=5)', False, False),
    ("memsy", 'client.search("q", user_id="alice")', True, False),
    ("memsy", 'client.search("q", session_id="a", exclude_session_id="b")', False, True),
    (
        "memos",
        'client.search_memory("q", user_id="alice", filter={"and": [{"scene": "chat"}]})',
        False,
        False,
    ),
    ("memos", 'client.search_memory("q", user_id="alice", filters={"and": []})', True, False),
    ("memos", 'client.search_memory("q")', True, False),
    ("memos", 'client.search_memory("q", user_id="alice", relativity=3)', False, True),
]


@pytest.mark.parametrize(("dialect", "call", "raises", "invalid"), HARNESS_CASES)
def test_harness_tells_failures_apart(dialect, call, raises, invalid, monkeypatch):
    from mem0lint.rule import PREAMBLES

    outcome = run(PREAMBLES[dialect] + call + "\n", monkeypatch)
    assert (outcome.raised is not None) == raises, repr(outcome.raised)
    if not raises:
        assert outcome.sent or outcome.store_calls
        assert bool(problems(outcome)) == invalid, problems(outcome)
