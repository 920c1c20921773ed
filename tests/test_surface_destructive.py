"""MEM150-MEM153: destructive scope, batch size and silent caps, against the real mem0ai 2.2.1.

Each rule: where it fires and where it stays silent (the precision criterion), then what the
real SDK does with the reported call (network stubbed at the transport, `sdk_harness`).
"""

from __future__ import annotations

import inspect
import types

import pytest
from request_validators import Invalid, validate
from sdk_harness import run

from mem0lint import codes, engine
from mem0lint.rule import PREAMBLES
from mem0lint.rules import all_rules
from mem0lint.settings import Settings

PLATFORM = PREAMBLES["mem0-platform"]
OSS = PREAMBLES["mem0-oss"]
ASYNC_PLATFORM = "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n"


def found(code: str, rule: str) -> list[str]:
    module = engine.parse(code)
    return [d.message for d in engine.lint(module, engine.RuleSet(Settings(select=(rule,))))]


# MEM150 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        'def forget(user_id):\n    client.delete_all(user_id="*")\n',
        'def forget(self, current_user_id: str):\n    client.delete_all(user_id="*")\n',
        'async def forget(userId):\n    client.delete_all(agent_id="*")\n',
        'def forget(user_id):\n    if ready:\n        client.delete_all(user_id="*")\n',
    ],
)
def test_mem150_wildcard_in_a_function_given_an_entity_id(body):
    (message,) = found(PLATFORM + body, "MEM150")
    assert '="*"` deletes every' in message


@pytest.mark.parametrize(
    "body",
    [
        'client.delete_all(user_id="*")\n',  # a script: deliberate
        'def wipe():\n    client.delete_all(user_id="*")\n',  # no entity in hand
        'def test_wipe(user_id):\n    client.delete_all(user_id="*")\n',  # a test
        'class TestX:\n    def go(self, user_id):\n        client.delete_all(user_id="*")\n',
        # the parameter scopes the call
        'def purge(agent_id):\n    client.delete_all(user_id="*", agent_id=agent_id)\n',
        # the author decided the wide scope from the parameter
        "def purge(user_id=None):\n    if user_id is None:\n"
        '        client.delete_all(user_id="*")\n',
        "def purge(user_id=None):\n    if user_id:\n        pass\n    else:\n"
        '        client.delete_all(user_id="*")\n',
        "def forget(user_id):\n    client.delete_all(user_id=user_id)\n",
        'def forget(user):\n    client.delete_all(user_id="*")\n',  # `user` is no id name
    ],
)
def test_mem150_silent(body):
    assert found(PLATFORM + body, "MEM150") == []


def test_mem150_one_finding_for_a_project_wipe():
    call = 'client.delete_all(user_id="*", agent_id="*", app_id="*", run_id="*")'
    (message,) = found(PLATFORM + f"def forget(user_id):\n    {call}\n", "MEM150")
    assert "every memory of the project" in message and '`run_id="*"`' in message


def test_mem150_is_platform_only():
    # Open source `"*"` is MEM406's (the store skips the condition), reported everywhere.
    assert found(OSS + 'def f(user_id):\n    memory.delete_all(user_id="*")\n', "MEM150") == []


def test_mem150_oracle_the_wildcard_reaches_the_server_unchanged(monkeypatch):
    # mem0ai 2.2.1 forwards `"*"` as a query parameter of DELETE /v1/memories/: the openapi
    # contract ("Pass `*` to delete memories for all users") decides what it deletes.
    for preamble, awaiting in ((PLATFORM, ""), (ASYNC_PLATFORM, "await ")):
        program = preamble + f'{awaiting}client.delete_all(user_id="*")\n'
        outcome = run(program, monkeypatch)
        assert outcome.raised is None
        (sent,) = [s for s in outcome.sent if s.path.endswith("/v1/memories/")]
        assert sent.method == "DELETE" and sent.params == {"user_id": "*"}
        validate(sent)  # accepted: an entity id is given


# MEM151 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preamble", "body", "what"),
    [
        (OSS, "def clear(user_id):\n    memory.reset()\n", "vector collection"),
        (PLATFORM, "def clear(user_id):\n    client.reset()\n", "every user"),
        (PLATFORM, "def clear(user_id):\n    client.delete_users()\n", "every user"),
        (PLATFORM, 'def clear(user_id):\n    client.delete_users(user_id="")\n', "every user"),
        (PLATFORM, "def clear(run_id):\n    client.delete_users(agent_id=None)\n", "every"),
        # a lambda without parameters runs the call for the function around it
        (
            OSS,
            "async def clear(user_id):\n"
            "    await loop.run_in_executor(pool, lambda: memory.reset())\n",
            "vector collection",
        ),
        # a method given to another call to run: judged where that call stands
        (
            OSS,
            "import asyncio\nasync def clear(user_id):\n"
            "    await asyncio.to_thread(memory.reset)\n",
            "vector collection",
        ),
        (
            PLATFORM,
            "async def clear(user_id):\n    await loop.run_in_executor(None, client.reset)\n",
            "every user",
        ),
    ],
)
def test_mem151_wipe_in_a_function_given_an_entity_id(preamble, body, what):
    (message,) = found(preamble + body, "MEM151")
    assert what in message


@pytest.mark.parametrize(
    ("preamble", "body"),
    [
        (OSS, "memory.reset()\n"),
        (OSS, "def clean():\n    memory.reset()\n"),
        (OSS, "def test_clean(user_id):\n    memory.reset()\n"),
        (OSS, "def clean(user_id):\n    if not user_id:\n        memory.reset()\n"),
        (PLATFORM, "def clear(user_id):\n    client.delete_users(user_id=user_id)\n"),
        (PLATFORM, "def clear(user_id):\n    client.delete_users(user_id=other)\n"),
        (PLATFORM, "def clear(user_id):\n    client.delete_users(**ids)\n"),
        (OSS, "def clear(user_id):\n    memory.delete_users()\n"),  # not an OSS method
        (OSS, "def clear(user_id):\n    other.reset()\n"),  # not a mem0 client
        # a lambda with parameters is a function of its own; one in a test is the test's
        (OSS, "def clear(user_id):\n    hooks.append(lambda event: memory.reset())\n"),
        (OSS, "def test_clear(user_id):\n    run(lambda: memory.reset())\n"),
        # what the forwarding call passes scopes it
        (
            PLATFORM,
            "import asyncio\nasync def clear(user_id):\n"
            "    await asyncio.to_thread(client.delete_users, user_id=user_id)\n",
        ),
    ],
)
def test_mem151_silent(preamble, body):
    assert found(preamble + body, "MEM151") == []


def test_mem151_oracle_delete_users_and_reset_delete_every_entity(monkeypatch):
    from mem0 import MemoryClient

    entities = {"results": [{"type": "user", "name": "alice"}, {"type": "agent", "name": "b"}]}
    monkeypatch.setattr(MemoryClient, "users", lambda self: entities)
    for call in ("client.delete_users()", "client.reset()", 'client.delete_users(user_id="")'):
        outcome = run(PLATFORM + call + "\n", monkeypatch)
        assert outcome.raised is None
        deleted = [s.path for s in outcome.sent if s.method == "DELETE"]
        assert deleted == ["/v2/entities/user/alice/", "/v2/entities/agent/b/"], call
    # Scoped, as the finding suggests: one entity.
    outcome = run(PLATFORM + 'client.delete_users(user_id="alice")\n', monkeypatch)
    assert [s.path for s in outcome.sent if s.method == "DELETE"] == ["/v2/entities/user/alice/"]


def test_mem151_oracle_oss_reset_drops_the_collection():
    from mem0.memory.main import Memory

    source = inspect.getsource(Memory.reset)
    assert "self.db.reset()" in source and "VectorStoreFactory.reset" in source
    # delete_all(user_id=...) is the scoped alternative: it lists and deletes that user only.
    assert 'filters["user_id"] = user_id' in inspect.getsource(Memory.delete_all)


# MEM152 -----------------------------------------------------------------------------------


def _items(n: int) -> str:
    return "[" + ", ".join(f'{{"memory_id": "m{i}"}}' for i in range(n)) + "]"


@pytest.mark.parametrize("method", ["batch_delete", "batch_update"])
def test_mem152_more_than_1000_items_is_rejected_and_1000_is_not(method, monkeypatch):
    too_many = PLATFORM + f"client.{method}({_items(1001)})\n"
    (message,) = found(too_many, "MEM152")
    assert "1001 items" in message
    outcome = run(too_many, monkeypatch)
    assert outcome.raised is None  # the client sends it: the server rejects it
    (sent,) = [s for s in outcome.sent if s.path.endswith("/v1/batch/")]
    assert len(sent.body["memories"]) == 1001
    with pytest.raises(Invalid, match="1 to 1000"):
        validate(sent)
    exact = PLATFORM + f"client.{method}({_items(1000)})\n"
    assert found(exact, "MEM152") == []
    (sent,) = [s for s in run(exact, monkeypatch).sent if s.path.endswith("/v1/batch/")]
    validate(sent)


def test_mem152_through_a_name_and_unknown_lengths():
    bound = PLATFORM + f"items = {_items(1001)}\nclient.batch_delete(items)\n"
    (message,) = found(bound, "MEM152")
    assert "bound to `items`" in message
    for call in (
        f"client.batch_delete([*more, *{_items(1001)}])",  # a spread: length unknown
        "client.batch_delete([{'memory_id': m} for m in range(5000)])",  # a comprehension
    ):
        assert found(PLATFORM + call + "\n", "MEM152") == []


# MEM153 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preamble", "body", "cap"),
    [
        (OSS, 'res = memory.get_all(filters=f)\nfor m in res["results"]:\n    pass\n', "20"),
        (OSS, 'n = len(memory.get_all(filters=f)["results"])\n', "20"),
        (
            OSS,
            'rows = memory.get_all(filters=f).get("results", [])\nfor r in rows:\n    pass\n',
            "20",
        ),
        (PLATFORM, 'for m in client.get_all(filters=f)["results"]:\n    pass\n', "first page"),
        (
            PLATFORM,
            'def f(u):\n    res = client.get_all(filters={"user_id": u})\n'
            '    items = res["results"]\n    return len(items)\n',
            "first page",
        ),
    ],
)
def test_mem153_whole_list_use_without_a_cap(preamble, body, cap):
    (message,) = found(preamble + body, "MEM153")
    assert cap in message


@pytest.mark.parametrize(
    ("preamble", "body"),
    [
        (OSS, 'for m in memory.get_all(filters=f, top_k=500)["results"]:\n    pass\n'),
        (PLATFORM, 'for m in client.get_all(filters=f, page_size=200)["results"]:\n    pass\n'),
        (PLATFORM, 'for m in client.get_all(filters=f, page=2)["results"]:\n    pass\n'),
        (
            PLATFORM,
            'res = client.get_all(filters=f)\nfor m in res["results"]:\n    pass\n'
            'more = res["next"]\n',
        ),
        (OSS, 'first = memory.get_all(filters=f)["results"][0]\n'),  # one item, not all
        (OSS, "res = memory.get_all(**kw)\nfor m in res['results']:\n    pass\n"),
        (OSS, "def test_x():\n    for m in memory.get_all(filters=f)['results']:\n        pass\n"),
    ],
)
def test_mem153_silent(preamble, body):
    assert found(preamble + body, "MEM153") == []


def test_mem153_is_opt_in():
    bad = PLATFORM + 'for m in client.get_all(filters=f)["results"]:\n    pass\n'
    module = engine.parse(bad)

    def codes_with(**settings):
        return [d.code for d in engine.lint(module, engine.RuleSet(Settings(**settings)))]

    assert "MEM153" not in codes_with()  # the default selection
    assert "MEM153" not in codes_with(select=("MEM1",))  # a prefix
    assert "MEM153" not in codes_with(select=("MEM15",))
    assert "MEM153" in codes_with(select=("MEM153",))
    assert "MEM153" in codes_with(extend_select=("MEM153",))
    assert "MEM153" not in codes_with(extend_select=("MEM153",), ignore=("MEM15",))


def test_opt_in_table_matches_the_rules():
    assert {code for code, rule in all_rules().items() if rule.opt_in} == codes.OPT_IN
    assert all(all_rules()[code].severity.value == "info" for code in codes.OPT_IN)


def test_show_settings_names_the_opt_in_rules(tmp_path):
    from mem0lint import config

    resolved = config.resolve(None, config.CommandLine(), tmp_path)
    text = config.describe(resolved, tmp_path)
    assert "opt-in rules (off unless selected by full code) = ['MEM153']" in text
    assert "'MEM153'" not in text.split("enabled rules")[1].split("\n")[0]
    resolved = config.resolve(None, config.CommandLine(extend_select=("MEM153",)), tmp_path)
    assert "'MEM153'" in config.describe(resolved, tmp_path).split("enabled rules")[1]


def test_mem153_oracle_oss_get_all_returns_20_of_47(monkeypatch):
    from mem0 import Memory
    from sdk_harness import Outcome, _StubStore, stubbed_network

    assert inspect.signature(Memory.get_all).parameters["top_k"].default == 20
    created = "2026-01-01T00:00:00+00:00"
    stored = [
        types.SimpleNamespace(
            id=f"id-{i}",
            payload={"data": f"fact {i}", "hash": "h", "user_id": "alice", "created_at": created},
        )
        for i in range(47)
    ]

    def listing(self, filters=None, top_k=None, **kwargs):
        return [stored[:top_k] if top_k else stored]

    monkeypatch.setattr(_StubStore, "list", listing)
    program = 'res = memory.get_all(filters={"user_id": "alice"})\nn = len(res["results"])\n'
    assert found(OSS + program, "MEM153")
    with stubbed_network(Outcome(), monkeypatch):
        memory = Memory()
        namespace = {"memory": memory}
        exec(program, namespace)  # noqa: S102 - our own snippet, store stubbed
        assert namespace["n"] == 20  # 47 stored, 20 listed: the silent cap
        assert len(memory.get_all(filters={"user_id": "alice"}, top_k=100)["results"]) == 47


def test_mem153_oracle_platform_get_all_sends_no_page_unless_asked(monkeypatch):
    outcome = run(PLATFORM + 'client.get_all(filters={"user_id": "alice"})\n', monkeypatch)
    (sent,) = [s for s in outcome.sent if s.path.endswith("/v3/memories/")]
    assert sent.params == {}  # the server's default page (page_size 100) is all that comes back
    outcome = run(
        PLATFORM + 'client.get_all(filters={"user_id": "alice"}, page=2, page_size=200)\n',
        monkeypatch,
    )
    (sent,) = [s for s in outcome.sent if s.path.endswith("/v3/memories/")]
    assert sent.params == {"page": "2", "page_size": "200"}


# MEM155 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preamble", "call"),
    [
        (PLATFORM, 'client.update("your_memory_id", text="x")'),
        (PLATFORM, 'client.get(memory_id="<memory_id>")'),
        (PLATFORM, 'client.history("YOUR-MEMORY-ID")'),
        (OSS, 'memory.delete(memory_id="m1")'),
        (OSS, 'memory.get("mem_123")'),
        (OSS, 'memory.history("memory_id")'),
        (OSS, 'mid = "m2"\nmemory.delete(mid)'),
    ],
)
def test_mem155_placeholder_ids(preamble, call):
    (message,) = found(preamble + call + "\n", "MEM155")
    assert "placeholder" in message


@pytest.mark.parametrize(
    ("preamble", "call"),
    [
        (PLATFORM, 'client.get("5f1c0d2e-6a7b-4c8d-9e0f-1a2b3c4d5e6f")'),
        (PLATFORM, 'client.delete("mem-1")'),  # not a documented placeholder spelling
        (OSS, "memory.get(memory_id)"),
        (OSS, 'memory.get(m["id"])'),
        (OSS, 'mid = "m1"\nmid = other\nmemory.get(mid)'),  # rebound: unknown
        (OSS, 'def test_get():\n    memory.get("m1")'),  # a test against a stub
        (OSS, 'other.get("m1")'),  # not a mem0 client
        (OSS, 'memory.search("m1", filters={"user_id": "a"})'),  # a query, not an id
    ],
)
def test_mem155_silent(preamble, call):
    assert found(preamble + call + "\n", "MEM155") == []


def test_mem155_silent_in_markdown_pages(tmp_path):
    from mem0lint import pipeline  # noqa: F401 - the document path of the real CLI

    page = tmp_path / "page.md"
    page.write_text(
        "Delete one memory:\n\n```python\nfrom mem0 import Memory\n\nm = Memory()\n"
        'm.delete(memory_id="m1")\n```\n'
    )
    script = tmp_path / "app.py"
    script.write_text('from mem0 import Memory\n\nm = Memory()\nm.delete(memory_id="m1")\n')
    from click.testing import CliRunner

    from mem0lint.cli import main

    result = CliRunner().invoke(
        main, ["--no-cache", "--select", "MEM155", "--output-format", "concise", str(tmp_path)]
    )
    assert "app.py:4" in result.output and "MEM155" in result.output
    assert "page.md" not in result.output


def test_mem155_oracle_placeholders_name_no_memory(monkeypatch):
    from mem0 import Memory
    from sdk_harness import Outcome, stubbed_network

    with stubbed_network(Outcome(), monkeypatch):
        memory = Memory()
        monkeypatch.setattr(memory.vector_store, "get", lambda vector_id=None, **k: None)
        assert memory.get("m1") is None
        with pytest.raises(ValueError, match="not found"):
            memory.update("m1", text="Likes tea")
    # The Platform puts the id in the path: `/v1/memories/m1/`, which no UUID-keyed record has.
    outcome = run(PLATFORM + 'client.get("your_memory_id")\n', monkeypatch)
    assert [s.path for s in outcome.sent if s.method == "GET"][-1] == "/v1/memories/your_memory_id/"
