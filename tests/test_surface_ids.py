"""MEM136: extra arguments on the id-based `get`/`delete`/`history`; MEM156: the id given as
`id=` (`get`/`delete`/`history`/`update`). Both against the real mem0ai."""

from __future__ import annotations

import textwrap

import pytest
from sdk_harness import run
from test_version_ranges import pinned

from mem0lint import engine
from mem0lint.rule import PREAMBLES, Applicability

PLATFORM = PREAMBLES["mem0-platform"]
OSS = PREAMBLES["mem0-oss"]
ASYNC_PLATFORM = "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n"
ASYNC_OSS = "from mem0 import AsyncMemory\n\nmemory = AsyncMemory()\n"


def findings(code: str, sdks=(), unsafe=False, rules=("MEM136",)):
    module = engine.parse(textwrap.dedent(code))
    settings = engine.Settings(select=rules, sdks=tuple(sdks), unsafe_fixes=unsafe)
    return engine.lint(module, engine.RuleSet(settings))


def fixed(code: str, rules=("MEM136",), unsafe=True) -> str:
    module = engine.parse(code)
    settings = engine.Settings(select=rules, unsafe_fixes=unsafe)
    return engine.fix(module, engine.RuleSet(settings)).module.code


# Every call the rule reports raises TypeError in the real SDK, on every client class; the call
# its unsafe fix writes runs.
# Every mem0 client class, and the name its preamble binds.
CLIENTS = ((PLATFORM, "client"), (OSS, "memory"), (ASYNC_PLATFORM, "client"), (ASYNC_OSS, "memory"))

REPORTED = [
    (preamble, receiver, call)
    for preamble, receiver in CLIENTS
    for call in (
        'delete("mem-1", user_id="alice")',
        'history("mem-1", agent_id="support")',
        'get("mem-1", run_id="r1")',
        'get(memory_id="mem-1", filters={"user_id": "alice"})',
        'delete("mem-1", True, False)',
    )
]


@pytest.mark.parametrize(("preamble", "receiver", "call"), REPORTED)
def test_reported_calls_raise_and_fixed_calls_run(preamble, receiver, call, monkeypatch):
    awaiting = "await " if preamble.startswith("from mem0 import Async") else ""
    program = f"{preamble}{awaiting}{receiver}.{call}\n"
    found = findings(program)
    assert [d.code for d in found] == ["MEM136"], program
    outcome = run(program, monkeypatch)
    assert isinstance(outcome.raised, TypeError), (program, outcome.raised)
    if found[0].fix is not None:
        after = fixed(program)
        assert after != program
        assert run(after, monkeypatch).raised is None, after


@pytest.mark.parametrize(
    "code",
    [
        PLATFORM + 'client.delete("mem-1")',
        PLATFORM + 'client.delete("mem-1", delete_linked=True)',
        PLATFORM + 'client.delete("mem-1", True)',
        PLATFORM + 'client.get(memory_id="mem-1")',
        OSS + 'memory.history(memory_id="mem-1")',
        OSS + 'memory.get("mem-1")',
    ],
)
def test_accepted_calls_are_silent_and_run(code, monkeypatch):
    assert findings(code) == []
    assert run(code + "\n", monkeypatch).raised is None


@pytest.mark.parametrize(
    "code",
    [
        # not a mem0 client: a dict, another library's object, an unknown receiver
        'd = {}\nd.get("a", "b")',
        'from other import Store\n\ns = Store()\ns.delete("m", user_id="u")',
        'def f(x):\n    x.history("m", user_id="u")',
        # hidden arguments: only what is written is judged
        OSS + 'memory.get("m", *rest)',
        OSS + "memory.delete(*args)",
        # the Platform's `delete_linked` is not judged by release (it ships in 2.0.4)
        PLATFORM + 'client.delete("m", delete_linked=False)',
    ],
)
def test_silent(code):
    assert findings(code) == []


def test_star_arguments_keep_the_keyword_finding_without_a_fix():
    (finding,) = findings(OSS + 'memory.delete("m", user_id="u", **more)\n')
    assert finding.fix is None


def test_every_extra_keyword_is_reported_and_the_fix_removes_each():
    code = OSS + 'memory.history(memory_id="m", user_id="u", agent_id="a")\n'
    assert len(findings(code)) == 2
    assert fixed(code).endswith('memory.history(memory_id="m")\n')


def test_fix_is_unsafe_only():
    code = PLATFORM + 'client.delete("m", user_id="u")\n'
    module = engine.parse(code)
    safe_only = engine.RuleSet(engine.Settings(select=("MEM136",)))
    assert engine.fix(module, safe_only).module.code == code


def test_versions():
    code = PLATFORM + 'client.delete("m", user_id="u")\n'
    for version in ("0.1.0", "0.1.50", "0.1.115", "1.0.3", "2.0.0", "2.2.1"):
        assert [d.code for d in findings(code, pinned("mem0-platform", version))] == ["MEM136"]


# MEM156 -------------------------------------------------------------------------------------
# `get(id=memory_id)` was found on a public MCP server (the REST API calls the id `id`). Every
# reported call raises TypeError on every client class; the safe fix's call runs and addresses
# the same memory: the Platform's request path, open source's vector-store read, carry the id.

ID_KEYWORD = ("MEM136", "MEM156")
REPORTED_ID_KEYWORDS = [
    (preamble, receiver, call)
    for preamble, receiver in CLIENTS
    for call in (
        'get(id="mem-7")',
        'delete(id="mem-7")',
        'history(id="mem-7")',
        'update(id="mem-7", text="Likes tea")',
        "update(  # the memory\n    id=ident,  # its id\n    text='Likes tea',\n)",
    )
]


@pytest.mark.parametrize(("preamble", "receiver", "call"), REPORTED_ID_KEYWORDS)
def test_mem156_reported_calls_raise_and_the_fixed_call_addresses_the_id(
    preamble, receiver, call, monkeypatch
):
    awaiting = "await " if preamble.startswith("from mem0 import Async") else ""
    program = f"{preamble}ident = 'mem-7'\n{awaiting}{receiver}.{call}\n"
    found = findings(program, rules=ID_KEYWORD)
    assert [d.code for d in found] == ["MEM156"], program
    assert isinstance(run(program, monkeypatch).raised, TypeError), program
    after = fixed(program, ID_KEYWORD, unsafe=False)  # safe fixes only
    assert "memory_id=" in after and after.count("#") == program.count("#"), after
    outcome = run(after, monkeypatch)
    assert outcome.raised is None, (after, outcome.raised)
    if preamble in (OSS, ASYNC_OSS):
        if not call.startswith("history"):  # history reads the (stubbed) history database
            assert ("get", {"vector_id": "mem-7"}) in outcome.store_calls, outcome.store_calls
    else:
        assert [s for s in outcome.sent if "/mem-7/" in s.path], outcome.sent


@pytest.mark.parametrize(
    "code",
    [
        PLATFORM + 'client.get(id="m", **options)',  # the spread may hold `memory_id`
        OSS + 'memory.delete(id="m", memory_id="m")',  # the id given too: MEM136's `id=`
        OSS + 'memory.get("m", id="m")',
        'd = {}\nd.get(id="m")',
    ],
)
def test_mem156_silent(code):
    assert [d.code for d in findings(code, rules=("MEM156",))] == []


def test_mem136_leaves_a_misnamed_id_to_mem156_and_judges_the_rest():
    found = findings(OSS + 'memory.history(id="m", user_id="u")\n', rules=ID_KEYWORD)
    assert sorted((d.code, d.start) for d in found) == [("MEM136", (4, 24)), ("MEM156", (4, 16))]


# MEM157: open source `update()` has no `**kwargs` in any release ------------------------------


@pytest.mark.parametrize(("preamble", "receiver"), [(OSS, "memory"), (ASYNC_OSS, "memory")])
@pytest.mark.parametrize(
    "call",
    [
        'update(memory_id="mem-1", data="Likes tea", user_id="alice")',
        'update("mem-1", text="Likes tea", agent_id="support")',
        'update("mem-1", text="Likes tea", filters={"user_id": "alice"})',
        'update("mem-1", text="Likes tea", **{"run_id": "r1"})',
    ],
)
def test_mem157_reported_calls_raise_and_fixed_calls_run(preamble, receiver, call, monkeypatch):
    awaiting = "await " if preamble.startswith("from mem0 import Async") else ""
    program = f"{preamble}{awaiting}{receiver}.{call}\n"
    found = findings(program, rules=("MEM157",), unsafe=True)
    assert [d.code for d in found] == ["MEM157"], program
    assert isinstance(run(program, monkeypatch).raised, TypeError), program
    if "**" in call:
        assert found[0].fix is None  # beside a spread: no fix
        return
    assert found[0].fix.applicability is Applicability.UNSAFE
    after = fixed(program, rules=("MEM157",))
    assert after != program and run(after, monkeypatch).raised is None, after


@pytest.mark.parametrize(
    "code",
    [
        # every parameter some release has
        OSS + 'memory.update("mem-1", text="t", metadata={"a": 1}, expiration_date="2030-01-01")',
        OSS + 'memory.update(memory_id="mem-1", data="t")',
        # MEM135's (removed in 2.0) and MEM156's (`id=`)
        OSS + 'memory.update("mem-1", text="t", enable_graph=True)',
        OSS + 'memory.update(id="mem-1", text="t")',
        # the Platform's update() sends every keyword as a JSON key
        PLATFORM + 'client.update("mem-1", text="t", user_id="alice")',
        # only what is written is judged
        OSS + 'memory.update("mem-1", text="t", **changes)',
    ],
)
def test_mem157_silent(code):
    assert findings(code, rules=("MEM157",)) == []


@pytest.mark.parametrize("version", ["0.1.0", "0.1.100", "1.0.11", "2.0.10", "2.2.1"])
def test_mem157_holds_on_every_release(version):
    program = OSS + 'memory.update("mem-1", "t", user_id="alice")\n'
    found = findings(program, sdks=pinned("mem0-oss", version), rules=("MEM157",))
    assert [d.code for d in found] == ["MEM157"]
