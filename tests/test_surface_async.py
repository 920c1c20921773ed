"""MEM140 (missing `await` on the async clients) and MEM141 (`await` on the sync clients), against
the real mem0ai, and the binder's class mode that tells the async classes from the sync ones."""

from __future__ import annotations

import textwrap
import warnings

import libcst as cst
import pytest
from sdk_harness import run
from test_version_ranges import pinned

from mem0lint import engine
from mem0lint.binding import BindingCollector, Resolver
from mem0lint.walk import walk

ASYNC_PLATFORM = "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n"
ASYNC_OSS = "from mem0 import AsyncMemory\n\nclient = AsyncMemory()\n"
SYNC_PLATFORM = "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
SYNC_OSS = "from mem0 import Memory\n\nclient = Memory()\n"
ASYNC = (ASYNC_PLATFORM, ASYNC_OSS)
SYNC = (SYNC_PLATFORM, SYNC_OSS)


def findings(code: str, select=("MEM140", "MEM141"), sdks=()):
    module = engine.parse(textwrap.dedent(code))
    settings = engine.Settings(select=tuple(select), sdks=tuple(sdks))
    return engine.lint(module, engine.RuleSet(settings))


def fixed(code: str, unsafe: bool = True, select=("MEM140", "MEM141")) -> str:
    module = engine.parse(code)
    rules = engine.RuleSet(engine.Settings(select=tuple(select), unsafe_fixes=unsafe))
    return engine.fix(module, rules).module.code


def quiet_run(program: str, monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # "coroutine ... was never awaited"
        return run(program, monkeypatch)


def memory_requests(outcome) -> list[str]:
    """The requests of the memory methods (the async client's constructor pings first)."""
    return [s.path for s in outcome.sent if "/memories" in s.path]


# --- the binder ----------------------------------------------------------------------------------


def classes(code: str, expr: str = "client") -> object:
    module = cst.parse_module(textwrap.dedent(code))
    collector = BindingCollector()
    collector.module = module
    walk(module, collector)
    resolver = Resolver(collector)
    node = cst.parse_expression(expr)
    return resolver.classes_of(node, collector.module_scope), resolver.receiver_value(
        node, collector.module_scope
    )


@pytest.mark.parametrize(
    ("code", "expected", "dialect"),
    [
        (ASYNC_PLATFORM, {"AsyncMemoryClient"}, "mem0-platform"),
        (SYNC_PLATFORM, {"MemoryClient"}, "mem0-platform"),
        (ASYNC_OSS, {"AsyncMemory"}, "mem0-oss"),
        (SYNC_OSS, {"Memory"}, "mem0-oss"),
        (
            "from mem0.client.main import AsyncMemoryClient as C\nclient = C()\n",
            {"AsyncMemoryClient"},
            "mem0-platform",
        ),
        (
            "from mem0 import AsyncMemory\nclient = AsyncMemory.from_config({})\n",
            {"AsyncMemory"},
            "mem0-oss",
        ),
        (
            "import mem0\nclient: mem0.AsyncMemoryClient = mem0.AsyncMemoryClient()\n",
            {"AsyncMemoryClient"},
            "mem0-platform",
        ),
        (
            "from mem0 import AsyncMemoryClient\n"
            "def build():\n    return AsyncMemoryClient()\n"
            "client = build()\n",
            {"AsyncMemoryClient"},
            "mem0-platform",
        ),
    ],
)
def test_class_mode_tells_async_from_sync_and_dialects_stay(code, expected, dialect):
    found, value = classes(code)
    assert found == frozenset(expected)
    assert value == frozenset({dialect})


def test_a_union_of_sync_and_async_is_two_classes_one_dialect():
    code = (
        "from mem0 import AsyncMemoryClient, MemoryClient\n"
        "client = AsyncMemoryClient() if flag else MemoryClient()\n"
    )
    found, value = classes(code)
    assert found == frozenset({"AsyncMemoryClient", "MemoryClient"})
    assert value == frozenset({"mem0-platform"})


def test_unknown_stays_unknown_in_class_mode():
    assert classes("client = get_client()\n") == (None, None)


@pytest.mark.parametrize(
    "code",
    [
        "import mem0\nclient: mem0.AsyncMemoryClient\n",
        "from mem0 import MemoryClient\ndef make() -> MemoryClient:\n    return build()\n"
        "client = make()\n",
    ],
)
def test_an_annotation_alone_is_no_class_evidence(code):
    """The dialect comes from an annotation as before; the class does not (an author who
    annotates `MemoryClient` and passes an `AsyncMemoryClient` wrote a wrong annotation)."""
    found, value = classes(code)
    assert found is None and value == frozenset({"mem0-platform"})


def test_annotated_parameter_is_not_judged():
    program = (
        "from mem0 import MemoryClient\n"
        "async def recall(client: MemoryClient):\n    return await client.search('q')\n"
    )
    assert findings(program) == []


# --- MEM140: reported, and what the real SDK does -----------------------------------------------

DATA_USES = [
    # (body line inside `async def main():`, the exception the real SDK path raises)
    ('return client.search("tea", filters={"user_id": "a"})["results"]', TypeError),
    ('return [m for m in client.get_all(filters={"user_id": "a"})]', TypeError),
    ('return len(client.search("tea", filters={"user_id": "a"}))', TypeError),
    ('return client.search("tea", filters={"user_id": "a"}).get("results")', AttributeError),
    ('for m in client.get_all(filters={"user_id": "a"})["results"]:\n        print(m)', TypeError),
]


@pytest.mark.parametrize("preamble", ASYNC)
@pytest.mark.parametrize(("line", "raised"), DATA_USES)
def test_coroutine_used_as_result_raises_and_the_safe_fix_runs(preamble, line, raised, monkeypatch):
    program = f"{preamble}\nasync def main():\n    {line}\n"
    found = findings(program)
    assert [d.code for d in found] == ["MEM140"], program
    assert isinstance(quiet_run(program, monkeypatch).raised, raised), program
    after = fixed(program, unsafe=False)  # a safe fix
    assert after != program and "await client." in after
    outcome = run(after, monkeypatch)
    assert outcome.raised is None, (after, outcome.raised)
    assert memory_requests(outcome) or outcome.store_calls
    assert findings(after) == []


@pytest.mark.parametrize("preamble", ASYNC)
def test_discarded_call_never_runs_and_the_unsafe_fix_makes_it_run(preamble, monkeypatch):
    line = 'client.delete_all(user_id="alice")'
    program = f"{preamble}\nasync def main():\n    {line}\n"
    (finding,) = findings(program)
    assert finding.code == "MEM140" and "never runs" in finding.message
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcome = run(program, monkeypatch)
    assert outcome.raised is None
    assert memory_requests(outcome) == [] and outcome.store_calls == []  # nothing happened
    assert any("was never awaited" in str(w.message) for w in caught)
    assert fixed(program, unsafe=False) == program  # not a safe fix
    after = fixed(program)
    assert f"await {line}" in after
    outcome = run(after, monkeypatch)
    assert outcome.raised is None
    assert memory_requests(outcome) or outcome.store_calls  # the delete is made now


@pytest.mark.parametrize("preamble", ASYNC)
def test_name_bound_to_the_coroutine_then_used_as_result(preamble, monkeypatch):
    program = (
        f"{preamble}\nasync def main():\n"
        '    found = client.search("tea", filters={"user_id": "a"})\n'
        '    print(len(found["results"]))\n'
    )
    (finding,) = findings(program)
    assert "`found`, bound to" in finding.message
    assert isinstance(quiet_run(program, monkeypatch).raised, TypeError)
    assert fixed(program, unsafe=False) == program  # through a name: unsafe
    after = fixed(program)
    assert 'found = await client.search("tea"' in after
    assert run(after, monkeypatch).raised is None


@pytest.mark.parametrize(
    "body",
    [
        # the coroutine reaches an `await` (or the event loop): correct uses
        'return asyncio.run(client.search("q", filters={"user_id": "a"}))',
        'return await asyncio.gather(client.search("q"), client.get_all())',
        'task = asyncio.create_task(client.add("x", user_id="a"))\n    await task',
        'return client.search("q", filters={"user_id": "a"})',
        'pending = client.search("q")\n    return await pending',
        'pending = client.search("q")\n    results = await pending\n    return results["results"]',
        'pending = [client.add(m, user_id="a") for m in items]\n    await asyncio.gather(*pending)',
        'jobs.append(client.add("x", user_id="a"))',
        'await asyncio.wait_for(client.search("q"), 5)',
        'await client.search("q")',
        'x = (await client.search("q"))["results"]',
        'self.pending = client.add("x", user_id="a")',
        'pending = client.search("q")\n    def later():\n        return pending\n    return later',
        'await asyncio.to_thread(client.search, "q")',
        # a name that is bound twice: which value reaches the use is not known
        'r = client.search("q")\n    r = await r\n    return r["results"]',
        # a shape test: the author handles a coroutine
        'r = client.search("q")\n    if inspect.isawaitable(r):\n        r2 = await r\n'
        '    return r["results"]',
    ],
)
@pytest.mark.parametrize("preamble", ASYNC)
def test_coroutines_that_may_be_awaited_are_silent(preamble, body):
    head = f"import asyncio\nimport inspect\n{preamble}"
    program = f"{head}\nasync def main(items, jobs, self):\n    {body}\n"
    assert findings(program) == [], program


@pytest.mark.parametrize(
    "program",
    [
        # a union of a sync and an async client: one member's mistake is the other's right
        "from mem0 import AsyncMemoryClient, MemoryClient\n"
        "client = AsyncMemoryClient() if flag else MemoryClient()\n"
        "async def main():\n    client.add('x', user_id='a')\n",
        # mocks: the method may be replaced
        ASYNC_PLATFORM
        + "from unittest.mock import MagicMock\nclient.search = MagicMock()\n"
        + "def test():\n    assert client.search('q')['results'] == []\n",
        # a receiver that is not known for sure
        "async def main(client):\n    client.add('x', user_id='a')\n",
        # not a coroutine method on the async client (the constructor, a sync helper)
        ASYNC_PLATFORM + "client._prepare_params({})\n",
        # the sync clients without `await`: right
        SYNC_PLATFORM + "client.add('x', user_id='a')\nprint(client.search('q')['results'])\n",
        SYNC_OSS + "client.add('x', user_id='a')\n",
    ],
)
def test_silent_receivers(program):
    assert findings(program) == [], program


@pytest.mark.parametrize(
    "body",
    [
        # not inside an `async def`: `await` is not valid there
        'def main():\n    return client.search("q")["results"]\n',
        'print(client.search("q")["results"])\n',
        # a lambda or a generator expression: `await` would change what it is
        'async def main():\n    f = lambda: client.search("q")["results"]\n    return f\n',
        'async def main(qs):\n    return list(client.search(q)["results"] for q in qs)\n',
    ],
)
def test_no_fix_where_await_is_not_valid(body):
    program = ASYNC_PLATFORM + body
    (finding,) = findings(program)
    assert finding.code == "MEM140" and finding.fix is None


def test_fix_inside_a_list_comprehension_of_an_async_def(monkeypatch):
    program = ASYNC_PLATFORM + (
        "async def main():\n"
        "    return [client.search(q, filters={'user_id': 'u'})['results'] for q in ('a', 'b')]\n"
    )
    after = fixed(program, unsafe=False)
    assert "[(await client.search(q, filters={'user_id': 'u'}))['results'] for q in (" in after
    outcome = run(after, monkeypatch)
    assert outcome.raised is None and len(memory_requests(outcome)) == 2


def test_versions():
    program = ASYNC_PLATFORM + "async def main():\n    client.add('x', user_id='a')\n"
    codes = lambda version: [  # noqa: E731
        d.code for d in findings(program, sdks=pinned("mem0-platform", version))
    ]
    assert codes("0.1.21") == []  # no AsyncMemoryClient yet
    for version in ("0.1.22", "0.1.89", "1.0.3", "2.0.0", "2.2.1"):
        assert codes(version) == ["MEM140"], version


# --- MEM141 -------------------------------------------------------------------------------------

SYNC_CALLS = [
    'client.search("tea", filters={"user_id": "a"})',
    'client.get_all(filters={"user_id": "a"})',
    'client.add([{"role": "user", "content": "I like tea"}], user_id="a")',
    'client.delete_all(user_id="a")',
]


@pytest.mark.parametrize("preamble", SYNC)
@pytest.mark.parametrize("call", SYNC_CALLS)
def test_await_on_sync_client_raises_and_the_unsafe_fix_runs(preamble, call, monkeypatch):
    program = f"{preamble}\nasync def main():\n    return await {call}\n"
    (finding,) = findings(program)
    assert finding.code == "MEM141"
    outcome = run(program, monkeypatch)
    assert isinstance(outcome.raised, TypeError) and "await" in str(outcome.raised)
    assert memory_requests(outcome) or outcome.store_calls  # the call ran before the TypeError
    assert fixed(program, unsafe=False) == program
    after = fixed(program)
    assert f"return {call}" in after
    assert run(after, monkeypatch).raised is None


@pytest.mark.parametrize(
    "program",
    [
        ASYNC_PLATFORM + "async def main():\n    return await client.search('q')\n",
        ASYNC_OSS + "async def main():\n    return await client.search('q')\n",
        SYNC_PLATFORM
        + "import asyncio\nasync def main():\n"
        + "    return await asyncio.to_thread(client.search, 'q')\n",
        "from mem0 import AsyncMemoryClient, MemoryClient\n"
        "client = AsyncMemoryClient() if flag else MemoryClient()\n"
        "async def main():\n    return await client.search('q')\n",
        SYNC_PLATFORM
        + "from unittest.mock import AsyncMock\nclient.search = AsyncMock()\n"
        + "async def main():\n    return await client.search('q')\n",
    ],
)
def test_mem141_silent(program):
    assert findings(program) == [], program


def test_mem141_applies_to_every_release():
    program = SYNC_PLATFORM + "async def main():\n    return await client.search('q')\n"
    for version in ("0.1.0", "0.1.50", "1.0.3", "2.2.1"):
        sdks = pinned("mem0-platform", version)
        assert [d.code for d in findings(program, sdks=sdks)] == ["MEM141"], version


def test_existing_rules_see_the_async_client_as_before():
    """The class mode is a separate resolver: MEM130 still reports a result used as a list on
    the async client when it is awaited, exactly as on the sync one."""
    program = ASYNC_PLATFORM + "async def main():\n    return (await client.search('q'))[0]\n"
    assert [d.code for d in findings(program, select=("MEM130",))] == ["MEM130"]


def test_a_page_showing_both_clients_under_one_name_is_silent():
    page = (
        "# SDK\n\n```python\nfrom mem0 import MemoryClient\n\nclient = MemoryClient()\n```\n\n"
        "```python\nfrom mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n```\n\n"
        "## add\n\n```python\nclient.add(messages, user_id='alice')\n```\n"
    )
    from mem0lint import pipeline

    rules = engine.RuleSet(engine.Settings(select=("MEM140",)))
    report = pipeline.lint_text(page, "page.md", rules=rules)
    assert [d.code for d in report.diagnostics] == []
    # the same page with only the async client: reported
    alone = page.replace("client = MemoryClient()", "other = MemoryClient()")
    report = pipeline.lint_text(alone, "page.md", rules=rules)
    assert [d.code for d in report.diagnostics] == ["MEM140"]


def test_truth_tests_and_formatting_do_not_hide_a_later_misuse(monkeypatch):
    """A sync helper that calls the async client, tests the result's truth (a coroutine is
    always true) and then iterates it: the iteration raises; the `except` hides it."""
    program = ASYNC_PLATFORM + (
        "def recall(q):\n"
        "    found = client.search(q, filters={'user_id': 'a'})\n"
        "    print(f'got {found}')\n"
        "    if not found or found is None:\n"
        "        return 'nothing'\n"
        "    return [m['memory'] for m in found['results']]\n"
    )
    (finding,) = findings(program)
    assert finding.code == "MEM140" and finding.fix is None  # not in an `async def`
    assert isinstance(quiet_run(program + "recall('tea')\n", monkeypatch).raised, TypeError)
    # the same reads, then awaited: silent
    awaited = program.replace("def recall", "async def recall").replace(
        "return [m['memory'] for m in found['results']]", "return await found"
    )
    assert findings(awaited) == []


@pytest.mark.parametrize(
    "preamble, since",
    [
        ("from mem0 import Memory\n\nmemory = Memory()\n", "0.1.89"),
        ("from mem0 import MemoryClient\n\nmemory = MemoryClient()\n", "0.1.22"),
    ],
)
def test_await_on_a_sync_client_names_the_release_its_async_class_came_in(preamble, since):
    """A project pinned before the async class (0.1.20 has no `AsyncMemory`) is not told to use
    it without the release that has it."""
    code = preamble + "async def f():\n    return await memory.search('q', user_id='u')\n"
    settings = engine.Settings(select=("MEM141",), sdks=pinned("mem0-oss", "0.1.20"))
    (finding,) = engine.lint(engine.parse(code), engine.RuleSet(settings))
    assert f"(mem0ai {since} on) or drop the `await`" in finding.message
