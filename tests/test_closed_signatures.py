"""MEM125 and MEM154: keywords the open-source constructor and `reset()` do not take, against
the real mem0ai (network and store stubbed, `sdk_harness`).

Both mistakes were found on public repositories (`Memory(llm={...})`, `Memory(api_key=...)`,
`m.reset(user_id=user_id)` in an endpoint meant to delete one user's memories). Every reported
call raises TypeError in the SDK; the calls the rules leave alone run.
"""

from __future__ import annotations

import textwrap

import pytest
from sdk_harness import run
from test_surface_ids import CLIENTS, OSS, PLATFORM

from mem0lint import engine


def findings(code: str, rule: str) -> list:
    module = engine.parse(textwrap.dedent(code))
    return engine.lint(module, engine.RuleSet(engine.Settings(select=(rule,))))


# MEM125 -------------------------------------------------------------------------------------

REPORTED_CONSTRUCTORS = [
    'from mem0 import Memory\n\nmemory = Memory(llm={"provider": "openai"})\n',
    'from mem0 import Memory\n\nmemory = Memory(api_key="key")\n',
    'from mem0 import Memory\n\nmemory = Memory(vector_store={}, history_db_path="h.db")\n',
    "import mem0\n\nmemory = mem0.Memory(host='https://api.mem0.ai')\n",
    'from mem0 import AsyncMemory\n\nmemory = AsyncMemory(embedder={"provider": "openai"})\n',
    "from mem0 import Memory\nfrom mem0.configs.base import MemoryConfig\n\n"
    "memory = Memory(MemoryConfig(), MemoryConfig())\n",
]


@pytest.mark.parametrize("program", REPORTED_CONSTRUCTORS)
def test_mem125_reported_constructors_raise(program, monkeypatch):
    found = findings(program, "MEM125")
    assert found and {d.code for d in found} == {"MEM125"}, program
    assert isinstance(run(program, monkeypatch).raised, TypeError), program


def test_mem125_messages_name_what_was_meant():
    llm, key, other = (
        findings(f"from mem0 import Memory\n\nmemory = Memory({kw}=x)\n", "MEM125")[0].message
        for kw in ("llm", "api_key", "verbose")
    )
    assert '`Memory.from_config({"llm": ...})`' in llm
    assert "`MemoryClient(api_key=...)`" in key
    assert "takes only `config`" in other


@pytest.mark.parametrize(
    "program",
    [
        "from mem0 import Memory\n\nmemory = Memory()\n",
        "from mem0 import Memory\nfrom mem0.configs.base import MemoryConfig\n\n"
        "memory = Memory(config=MemoryConfig())\n",
        "from mem0 import Memory\nfrom mem0.configs.base import MemoryConfig\n\n"
        "memory = Memory(MemoryConfig())\n",
        'from mem0 import MemoryClient\n\nclient = MemoryClient(api_key="key")\n',
    ],
)
def test_mem125_accepted_constructors_are_silent_and_run(program, monkeypatch):
    assert findings(program, "MEM125") == []
    assert run(program, monkeypatch).raised is None, program


@pytest.mark.parametrize(
    "program",
    [
        # another library's Memory, hidden arguments
        "from langchain.memory import Memory\n\nmemory = Memory(llm=model)\n",
        "from mem0 import Memory\n\nmemory = Memory(*settings)\n",
        "from mem0 import Memory\n\nmemory = Memory(**settings)\n",
    ],
)
def test_mem125_silent(program):
    assert findings(program, "MEM125") == []


# MEM154 -------------------------------------------------------------------------------------

REPORTED_RESETS = [
    (preamble, receiver, call)
    for preamble, receiver in CLIENTS
    for call in ('reset(user_id="alice")', 'reset("alice")', "reset(agent_id=a, run_id=r)")
]


@pytest.mark.parametrize(("preamble", "receiver", "call"), REPORTED_RESETS)
def test_mem154_reported_resets_raise(preamble, receiver, call, monkeypatch):
    awaiting = "await " if preamble.startswith("from mem0 import Async") else ""
    program = f"{preamble}a = r = 'x'\n{awaiting}{receiver}.{call}\n"
    found = findings(program, "MEM154")
    assert [d.code for d in found] == ["MEM154"], program
    assert found[0].fix is None  # without its argument the call would delete everything
    assert isinstance(run(program, monkeypatch).raised, TypeError), program


def test_mem154_names_the_scoped_delete_when_an_entity_was_meant():
    (finding,) = findings(OSS + 'memory.reset(user_id="alice")\n', "MEM154")
    assert "`delete_all(user_id=...)`" in finding.message
    assert "drops the whole vector collection" in finding.message
    (finding,) = findings(PLATFORM + "client.reset(True)\n", "MEM154")
    assert "it has no scope" in finding.message


@pytest.mark.parametrize(
    "program",
    [
        OSS + "memory.reset()\n",  # MEM151's business, inside a function given an entity id
        'import redis\n\nr = redis.Redis()\nr.reset(user_id="u")\n',  # not a mem0 client
    ],
)
def test_mem154_silent(program):
    assert findings(program, "MEM154") == []
