"""MEM131-MEM134: Platform add() results, and update() against the real mem0ai 2.2.1."""

from __future__ import annotations

import textwrap

import pytest
from sdk_harness import run
from test_version_ranges import pinned

from mem0lint import engine
from mem0lint.rule import PREAMBLES

PLATFORM = PREAMBLES["mem0-platform"]
OSS = PREAMBLES["mem0-oss"]


def codes(code: str, sdks=()) -> list[str]:
    module = engine.parse(textwrap.dedent(code))
    settings = engine.Settings(select=("MEM13",), sdks=tuple(sdks))
    return [d.code for d in engine.lint(module, engine.RuleSet(settings))]


def test_platform_update_data_never_sends_text(monkeypatch):
    outcome = run(PLATFORM + 'client.update("mem-1", data="new")\n', monkeypatch)
    (put,) = [s for s in outcome.sent if s.method == "PUT"]
    assert "text" not in put.body and put.body["data"] == "new"
    fixed = run(PLATFORM + 'client.update("mem-1", text="new")\n', monkeypatch)
    (put,) = [s for s in fixed.sent if s.method == "PUT"]
    assert put.body == {"text": "new"}


def test_oss_update_data_is_the_deprecated_alias(monkeypatch, caplog):
    outcome = run(OSS + 'memory.update("mem-1", data="new")\n', monkeypatch)
    assert outcome.raised is None
    assert "deprecated" in caplog.text


def test_platform_positional_text_raises_attribute_error(monkeypatch):
    outcome = run(PLATFORM + 'client.update("mem-1", "new")\n', monkeypatch)
    assert isinstance(outcome.raised, AttributeError) and "model_dump" in str(outcome.raised)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (PLATFORM + 'client.update("m", data="x")', ["MEM132"]),
        (PLATFORM + 'client.update("m", data="x", text="y")', ["MEM132"]),
        (PLATFORM + 'client.update("m", "x")', ["MEM133"]),
        (PLATFORM + 'client.update("m", f"x {y}")', ["MEM133"]),
        (PLATFORM + 'client.update("m")', ["MEM134"]),
        (PLATFORM + 'client.update("m", metadata=None, text=None)', ["MEM134"]),
        (OSS + 'memory.update("m", data=None)', ["MEM132", "MEM134"]),
        (PLATFORM + 'r = client.add("hi", user_id="u")\nx = r["results"]', ["MEM131"]),
        (PLATFORM + 'x = client.add("hi", user_id="u").get("results")', ["MEM131"]),
        # silent: what each client accepts, or what cannot be told
        (OSS + 'memory.update("m", "x")', []),
        (PLATFORM + 'client.update("m", opts)', []),
        (PLATFORM + 'client.update("m", **changes)', []),
        (PLATFORM + 'client.update("m", expiration_date=None)', []),
        (PLATFORM + 'client.update(memory_id="m", text="x")', []),
        (OSS + 'memory.update("m", metadata={"k": 1})', []),
        (OSS + 'def test_data_is_deprecated():\n    memory.update("m", data="x")', []),
        (PLATFORM + 'r = client.add("hi", user_id="u", infer=False)\nx = r["results"]', []),
        (PLATFORM + 'r = client.add("hi", user_id="u")\nx = r["event_id"]', []),
        (OSS + 'r = memory.add("hi", user_id="u")\nx = r["results"]', []),
        ('from other import Store\n\ns = Store()\ns.update("m")\ns.update("m", data=1)', []),
    ],
)
def test_reported_or_silent(code, expected):
    assert sorted(codes(code)) == expected


def test_fixes():
    module = engine.parse(PLATFORM + 'client.update("m", "x")\nclient.update("m", data="y")\n')
    fixed = engine.fix(module, engine.RuleSet(engine.Settings(select=("MEM13",)))).module.code
    assert 'client.update("m", text="x")' in fixed and 'client.update("m", text="y")' in fixed


def test_versions():
    oss_data = OSS + 'memory.update("m", data="x")\n'
    assert codes(oss_data, pinned("mem0-oss", "2.0.10")) == []  # `text=` did not exist yet
    assert codes(oss_data, pinned("mem0-oss", "2.0.12")) == ["MEM132"]
    add_read = PLATFORM + 'r = client.add("hi", user_id="u")\nx = r["results"]\n'
    assert codes(add_read, pinned("mem0-platform", "1.0.3")) == []


def test_removed_keywords_against_the_real_sdk(monkeypatch):
    # open source: closed signatures, TypeError
    for call in (
        'memory.add("hi", user_id="u", async_mode=True)',
        'memory.update("m", text="x", version="v2")',
    ):
        outcome = run(OSS + call + "\n", monkeypatch)
        assert isinstance(outcome.raised, TypeError), outcome.raised
    # Platform: sent as a JSON key, the call runs
    outcome = run(PLATFORM + 'client.add("hi", user_id="u", async_mode=False)\n', monkeypatch)
    assert outcome.raised is None
    (post,) = [s for s in outcome.sent if s.method == "POST"]
    assert post.body["async_mode"] is False


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (OSS + 'memory.add("hi", user_id="u", output_format="v1.0")', ["error"]),
        # asks for what 2.x does anyway: changes nothing, not reported
        (PLATFORM + 'client.add("hi", user_id="u", version="v2")', []),
        (PLATFORM + 'client.add("hi", user_id="u", filter_memories=True)', ["warning"]),
        (PLATFORM + 'client.update("m", text="x", immutable=True)', ["warning"]),
        # still read by the v3 add endpoint (openapi): not claimed dead
        (PLATFORM + 'client.add("hi", user_id="u", immutable=True, includes="food")', []),
        (OSS + 'memory.add("hi", user_id="u", infer=False)', []),
    ],
)
def test_removed_keyword_severity(code, expected):
    module = engine.parse(code)
    rules = engine.RuleSet(engine.Settings(select=("MEM135",)))
    assert [d.severity.value for d in engine.lint(module, rules)] == expected
