"""MEM411: open source `add()` without an entity id, against the real mem0ai (network and store
stubbed, `sdk_harness`): every reported call raises, the calls the rule leaves alone run."""

from __future__ import annotations

import textwrap

import pytest
from sdk_harness import run
from test_version_ranges import pinned

from mem0lint import engine
from mem0lint.rule import PREAMBLES

OSS = PREAMBLES["mem0-oss"]
ASYNC_OSS = "from mem0 import AsyncMemory\n\nmemory = AsyncMemory()\n"


def findings(code: str, sdks=()) -> list:
    module = engine.parse(textwrap.dedent(code))
    settings = engine.Settings(select=("MEM411",), sdks=tuple(sdks))
    return engine.lint(module, engine.RuleSet(settings))


REPORTED = [
    (preamble, call)
    for preamble in (OSS, ASYNC_OSS)
    for call in (
        'add("I prefer tea")',
        'add([{"role": "user", "content": "I prefer tea"}], infer=False)',
        'add("I prefer tea", user_id=None, agent_id=None)',
        'add("I prefer tea", metadata={"user_id": "alice"})',
    )
]


@pytest.mark.parametrize(("preamble", "call"), REPORTED)
def test_reported_adds_raise(preamble, call, monkeypatch):
    awaiting = "await " if preamble is ASYNC_OSS else ""
    program = f"{preamble}{awaiting}memory.{call}\n"
    assert [d.code for d in findings(program)] == ["MEM411"], program
    raised = run(program, monkeypatch).raised
    assert type(raised).__name__ == "ValidationError", (program, raised)
    assert "must be provided" in str(raised)


@pytest.mark.parametrize(
    "call",
    [
        'add("I prefer tea", user_id="alice")',
        'add("I prefer tea", run_id="r1", metadata={"source": "chat"})',
        'add("I prefer tea", agent_id="support", infer=False)',
    ],
)
def test_scoped_adds_are_silent_and_run(call, monkeypatch):
    program = f"{OSS}memory.{call}\n"
    assert findings(program) == []
    assert run(program, monkeypatch).raised is None, program


@pytest.mark.parametrize(
    "code",
    [
        OSS + 'memory.add("t", user_id=uid)',  # a variable may hold the id
        OSS + 'memory.add("t", **scope)',  # the spread may hold it
        OSS + 'memory.add("t", "alice")',  # a positional id: MEM144's TypeError
        OSS + 'memory.add("t", filters={"user_id": "a"})',  # no such keyword: MEM143
        OSS + "memory.add(...)",  # a docs page leaving the arguments out
        PREAMBLES["mem0-platform"] + 'client.add("t")',  # the Platform's scope is its own
    ],
)
def test_silent(code):
    assert findings(code) == []


def test_before_0_1_100_add_took_filters_and_positional_ids():
    code = OSS + 'memory.add("I prefer tea")\n'
    assert findings(code, pinned("mem0-oss", "0.1.99")) == []
    assert [d.code for d in findings(code, pinned("mem0-oss", "0.1.100"))] == ["MEM411"]
