"""MEM137: Platform batch items, against the real mem0ai client and the `/v1/batch/` schema."""

from __future__ import annotations

import pytest
from request_validators import Invalid, validate
from sdk_harness import run
from test_version_ranges import pinned

from mem0lint import engine
from mem0lint.rule import PREAMBLES

PLATFORM = PREAMBLES["mem0-platform"]
ASYNC_PLATFORM = "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n"


def findings(code: str, sdks=()):
    module = engine.parse(code)
    settings = engine.Settings(select=("MEM137",), sdks=tuple(sdks))
    return engine.lint(module, engine.RuleSet(settings))


def fixed(code: str) -> str:
    module = engine.parse(code)
    return engine.fix(module, engine.RuleSet(engine.Settings(select=("MEM137",)))).module.code


def rejected(program: str, monkeypatch) -> list[str]:
    outcome = run(program, monkeypatch)
    assert outcome.raised is None, outcome.raised
    (sent,) = [s for s in outcome.sent if s.path.endswith("/v1/batch/")]
    try:
        validate(sent)
    except Invalid as error:
        return [str(error)]
    return []


@pytest.mark.parametrize("preamble", [PLATFORM, ASYNC_PLATFORM])
@pytest.mark.parametrize(
    ("call", "severities"),
    [
        ('batch_delete(["mem-1", "mem-2"])', ["error", "error"]),
        ('batch_delete([{"id": "mem-1"}])', ["error"]),
        ('batch_delete(memories=[{"memoryId": "mem-1"}])', ["error"]),
        ('batch_update([{"id": "mem-1", "text": "x"}])', ["error"]),
        ('batch_delete([{"memory_id": m} for m in ["a"]] + [])', []),
        ('batch_delete([{"id": m} for m in ["mem-1"]])', ["error"]),
    ],
)
def test_errors_are_rejected_and_fixes_are_accepted(preamble, call, severities, monkeypatch):
    awaiting = "await " if preamble is ASYNC_PLATFORM else ""
    program = f"{preamble}{awaiting}client.{call}\n"
    found = findings(program)
    assert [d.severity.value for d in found] == severities
    if not severities:
        return
    assert rejected(program, monkeypatch)
    after = fixed(program)
    assert after != program and findings(after) == []
    assert rejected(after, monkeypatch) == []


def test_data_key_in_batch_update_is_a_warning_and_is_sent_unread(monkeypatch):
    program = PLATFORM + 'client.batch_update([{"memory_id": "mem-1", "data": "x"}])\n'
    (finding,) = findings(program)
    assert finding.severity.value == "warning"
    outcome = run(program, monkeypatch)
    (sent,) = [s for s in outcome.sent if s.path.endswith("/v1/batch/")]
    assert sent.body == {"memories": [{"memory_id": "mem-1", "data": "x"}]}  # no "text"
    after = fixed(program)
    assert after.endswith('client.batch_update([{"memory_id": "mem-1", "text": "x"}])\n')


@pytest.mark.parametrize(
    "code",
    [
        PLATFORM + 'client.batch_delete([{"memory_id": "a"}, {"memory_id": "b"}])',
        PLATFORM + 'client.batch_update([{"memory_id": "a", "data": "x", "text": "y"}])',
        PLATFORM + "client.batch_delete(ids)",  # unknown list
        PLATFORM + "client.batch_delete([m for m in ids])",  # unknown items
        PLATFORM + 'client.batch_delete([{**base}, {"memory_id": "a"}])',  # a spread may hold it
        PLATFORM + 'client.batch_delete([{key: "a"}])',  # computed key
        PLATFORM + 'items = [{"id": "a"}]\nitems = load()\nclient.batch_delete(items)',
        # not the Platform: open source has no batch methods (another finding's business)
        PREAMBLES["mem0-oss"] + 'memory.batch_delete(["a"])',
        'from other import Store\n\ns = Store()\ns.batch_delete(["a"])',
    ],
)
def test_silent(code):
    assert findings(code + "\n") == []


def test_a_list_bound_to_a_name_is_reported_once_on_the_call_and_not_fixed():
    code = PLATFORM + 'items = [{"id": "a"}, {"id": "b"}]\nclient.batch_delete(items)\n'
    (finding,) = findings(code)
    assert finding.start[0] == code.count("\n")  # the call's line
    assert finding.fix is None


def test_versions():
    code = PLATFORM + 'client.batch_delete(["a"])\n'
    assert len(findings(code, pinned("mem0-platform", "0.1.50"))) == 1
