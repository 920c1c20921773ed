"""MEM130: a search()/get_all() result used as a list, proved against the real mem0ai SDK.

The bad forms misbehave for real (the installed SDK returns `{"results": [...]}`; the network
is stubbed by tests/sdk_harness.py), the fixed forms run; and what the rule must leave alone.
"""

from __future__ import annotations

import textwrap

import pytest
from sdk_harness import run
from test_version_ranges import pinned

from mem0lint import engine
from mem0lint.rule import PREAMBLES, Applicability, Severity


def lint(code: str, sdks=()) -> list:
    module = engine.parse(textwrap.dedent(code))
    settings = engine.Settings(select=("MEM130",), sdks=tuple(sdks))
    return engine.lint(module, engine.RuleSet(settings))


def fixed(code: str, unsafe: bool = False) -> str:
    module = engine.parse(textwrap.dedent(code))
    rules = engine.RuleSet(engine.Settings(select=("MEM130",), unsafe_fixes=unsafe))
    return engine.fix(module, rules).module.code


PLATFORM = PREAMBLES["mem0-platform"]
OSS = PREAMBLES["mem0-oss"]

# (program, a probe appended after it that holds only if the program read the memories right)
MISUSES = [
    # iterating the dict yields the key "results": the loop body sees a string
    (
        PLATFORM + 'seen = [m for m in client.search("q", filters={"user_id": "a"})]\n',
        "assert seen == [], seen\n",
    ),
    (
        OSS + 'seen = [m for m in memory.get_all(filters={"user_id": "a"})]\n',
        "assert seen == [], seen\n",
    ),
    # len() counts keys: the store holds no memory, len says 1
    (
        OSS + 'found = memory.search("q", filters={"user_id": "a"})\nn = len(found)\n',
        "assert n == 0, n\n",
    ),
    (
        PLATFORM + 'found = client.get_all(filters={"user_id": "a"})\nn = len(found)\n',
        "assert n == 0, n\n",
    ),
    # arguments that are not all written out: the shape is the same
    (
        PLATFORM + 'params = {"filters": {"user_id": "a"}}\nfound = client.get_all(**params)\n'
        "n = len(found)\n",
        "assert n == 0, n\n",
    ),
    (
        OSS + 'options = dict(filters={"user_id": "a"})\n'
        'seen = [m for m in memory.search("q", **options)]\n',
        "assert seen == [], seen\n",
    ),
]


@pytest.mark.parametrize(("program", "probe"), MISUSES)
def test_the_misuse_misbehaves_and_the_fix_reads_the_memories(program, probe, monkeypatch):
    bad = run(program + probe, monkeypatch)
    assert isinstance(bad.raised, AssertionError), bad.raised
    assert bad.sent or bad.store_calls
    assert [d.code for d in lint(program)] == ["MEM130"]
    good = fixed(program, unsafe=True)
    assert '["results"]' in good
    outcome = run(good + probe, monkeypatch)
    assert outcome.raised is None, outcome.raised


def test_an_int_index_raises_key_error_for_real(monkeypatch):
    program = OSS + 'first = memory.search("q", filters={"user_id": "a"})[0]\n'
    assert isinstance(run(program, monkeypatch).raised, KeyError)
    (finding,) = lint(program)
    assert finding.severity is Severity.ERROR


# An `except` handler that rebinds the name to a literal leaves the call's dict wherever the
# call succeeded (found on a public voice agent: `except Exception: results = []`).
FALLBACK = (
    "try:\n"
    "    found = {call}\n"
    "except Exception:  # the store is down\n"
    "    found = []\n"
    "    n = len(found)  # the fallback's own use\n"
    "n = len(found)\n"
)


@pytest.mark.parametrize(
    "program",
    [
        PLATFORM + FALLBACK.format(call='client.get_all(filters={"user_id": "a"})'),
        OSS + FALLBACK.format(call='memory.search("q", filters={"user_id": "a"})'),
    ],
)
def test_an_except_fallback_keeps_the_successful_call_reported_without_a_fix(program, monkeypatch):
    bad = run(program + "assert n == 0, n\n", monkeypatch)
    assert isinstance(bad.raised, AssertionError), bad.raised  # the call succeeded: n counts keys
    (finding,) = lint(program)
    assert finding.start[0] == program.count("\n")  # the last row, not the handler's
    assert "where it does not raise" in finding.message
    assert finding.fix is None  # `found["results"]` would raise on the handler's `[]`


FLAGGED = [
    ('for m in client.search("q", filters={"user_id": "a"}):\n    print(m)', "iterating"),
    ('x = client.get_all(filters={"user_id": "a"})[-1]', "integer index"),
    ('x = client.get_all(filters={"user_id": "a"})[:2]', "slicing"),
    ('n = len(client.search("q", filters={"user_id": "a"}))', "len()"),
    ('for i, m in enumerate(client.search("q", filters={"user_id": "a"})):\n    pass', "iter"),
    ('for i, m in enumerate(client.search("q", filters={"user_id": "a"}), 1):\n    pass', "iter"),
    (
        'r = client.get_all(filters={"user_id": "a"})\nx = [m for i, m in enumerate(r, start=1)]',
        "`r`",
    ),
    ('res = client.search("q", filters={"user_id": "a"})\ntexts = [m for m in res]', "`res`"),
    (
        'def f():\n    res: dict = client.search("q", filters={"user_id": "a"})\n    return res[0]',
        "`res`",
    ),
]


@pytest.mark.parametrize(("code", "words"), FLAGGED)
def test_reported(code, words):
    (finding,) = lint(PLATFORM + code)
    assert finding.code == "MEM130" and words in finding.message


def test_awaited_call_is_parenthesised_by_the_fix():
    code = (
        "from mem0 import AsyncMemoryClient\n\n"
        "async def f():\n"
        "    client = AsyncMemoryClient()\n"
        '    for m in await client.search("q", filters={"user_id": "a"}):\n'
        "        print(m)\n"
    )
    assert '(await client.search("q", filters={"user_id": "a"}))["results"]' in fixed(code)


def test_direct_use_is_a_safe_fix_and_a_name_an_unsafe_one():
    direct = lint(PLATFORM + 'n = len(client.search("q", filters={"user_id": "a"}))')
    named = lint(PLATFORM + 'r = client.search("q", filters={"user_id": "a"})\nn = len(r)')
    assert direct[0].fix.applicability is Applicability.SAFE
    assert named[0].fix.applicability is Applicability.UNSAFE
    assert "len(r)" in fixed(
        PLATFORM + 'r = client.search("q", filters={"user_id": "a"})\nn = len(r)'
    )


SILENT = [
    'for m in client.search("q", filters={"user_id": "a"})["results"]:\n    pass',
    'for m in client.search("q", filters={"user_id": "a"}).get("results", []):\n    pass',
    'res = client.search("q", filters={"user_id": "a"})\nfor m in res["results"]:\n    pass',
    # rebound: the binder cannot say which value reaches the loop
    'res = client.search("q", filters={"user_id": "a"})\nres = res["results"]\nfor m in res:\n'
    "    pass",
    # the author handles both shapes
    'res = client.search("q", filters={"user_id": "a"})\n'
    "items = res if isinstance(res, list) else res['results']\nfor m in res:\n    pass",
    'res = client.search("q", filters={"user_id": "a"})\nif "results" in res:\n    res2 = 1\n'
    "n = len(res)",
    # enumerate's other arguments: not a plain `start`
    'for i, m in enumerate(client.search("q", filters={"user_id": "a"}), *extra):\n    pass',
    'n = len(client.search("q", filters={"user_id": "a"}), 2)',
    # a use in a nested function is not followed
    'res = client.search("q", filters={"user_id": "a"})\ndef g():\n    return len(res)',
    # not a mem0 client
    "from other import Thing\n\nthing = Thing()\nfor m in thing.search('q'):\n    pass",
    # history() returns a list
    'for h in client.history("mem-id"):\n    pass',
    # a string key, an unknown index
    'res = client.search("q", filters={"user_id": "a"})\nk = res[key]\nm = res["relations"]',
    # an `except` handler's value that is not a literal, a second binding in the `try`, a
    # handler of another `try`: the binder cannot say which value
    "try:\n    res = client.search('q', filters={'user_id': 'a'})\nexcept ValueError:\n"
    "    res = load()\nn = len(res)",
    "try:\n    res = client.search('q', filters={'user_id': 'a'})\n    res = res['results']\n"
    "except ValueError:\n    res = []\nn = len(res)",
    "try:\n    res = client.search('q', filters={'user_id': 'a'})\nexcept ValueError:\n    pass\n"
    "try:\n    pass\nexcept ValueError:\n    res = []\nn = len(res)",
    # rebound before the use: the use reads the other value
    "res = client.search('q', filters={'user_id': 'a'})\nres = load()\nn = len(res)",
    # rebound inside a block beside the use: which value reaches it depends on the branch
    "res = client.search('q', filters={'user_id': 'a'})\nif x:\n    res = []\nn = len(res)",
    # read by a binding in a loop (its second run reads the list), or after another binding
    "res = client.search('q', filters={'user_id': 'a'})\nfor c in cs:\n"
    "    res = [r for r in res if r.get(c)]",
    "res = client.search('q', filters={'user_id': 'a'})\nif x:\n    res = None\n"
    "    res = [r for r in res or []]",
]

# Each use between the statement that binds the name to the call and the next statement that
# binds it again holds the call's value: copied blocks in one function (found on a public
# voice agent), a placeholder before the `try`, a name reused afterwards.
WINDOWED = [
    (
        "def f():\n"
        "    try:\n        res = client.get_all(filters={'user_id': 'a'})\n"
        "    except Exception:\n        res = []\n"
        "    n = len(res)\n"
        "    try:\n        res = client.get_all(filters={'user_id': 'b'})\n"
        "    except Exception:\n        res = []\n"
        "    m = len(res)\n",
        [9, 14],
    ),
    (
        "res = []\ntry:\n    res = client.search('q', filters={'user_id': 'a'})\n"
        "except ValueError:\n    res = None\nn = len(res)\n",
        [9],
    ),
    (
        "res = client.search('q', filters={'user_id': 'a'})\nn = len(res)\nres = 3\nk = len(res)\n",
        [5],
    ),
    # the value the next binding assigns is read before it binds (found in a public interview
    # coach: a 2.x result filtered in place)
    (
        "res = client.search('q', filters={'user_id': 'a'})\nif x:\n"
        "    res = [r for r in res if r.get('score')]\n",
        [6],
    ),
]


@pytest.mark.parametrize(("code", "rows"), WINDOWED)
def test_a_use_between_the_call_and_the_next_binding_is_the_calls(code, rows):
    found = lint(PLATFORM + code)
    assert [d.start[0] for d in found] == rows, [d.message for d in found]


@pytest.mark.parametrize("code", SILENT)
def test_silent(code):
    assert lint(PLATFORM + code) == []


@pytest.mark.parametrize(
    "keyword", ['output_format="v1.0"', 'output_format="v1.1"', 'version="v2"', 'api_version="v1"']
)
@pytest.mark.parametrize("release", ["1.0.0", "2.2.1"])
def test_no_keyword_brings_back_the_list_from_1_0(keyword, release):
    # mem0ai 1.0.0's client ignores output_format and wraps a list answer in {"results": ...}
    code = (
        PLATFORM + f'for m in client.search("q", filters={{"user_id": "a"}}, {keyword}):\n    pass'
    )
    assert [d.code for d in lint(code, pinned("mem0-platform", release))] == ["MEM130"]


@pytest.mark.parametrize(
    "code",
    [
        'for m in client.search("q", **options):\n    pass',
        "n = len(client.get_all(*args, **options))",
        # a dict literal spread into the call (bind/spread.py), and one with a key written later
        'def f():\n    params = {"query": "q", "filters": {"user_id": "a"}}\n'
        "    res = client.search(**params)\n    return len(res)",
        'def f(k):\n    params = {"query": "q"}\n    params["filters"] = {"user_id": k}\n'
        "    res = client.search(**params)\n    return len(res)",
    ],
)
def test_arguments_that_are_not_all_known_do_not_hide_the_shape(code):
    # From 1.0.0 no argument brings back the list (test above), so what `**options` holds
    # changes nothing: the use is reported as for a call whose arguments are all written out.
    (finding,) = lint(PLATFORM + code)
    assert finding.code == "MEM130"
    assert any(words in finding.message for words in ("len()", "iterating"))


def test_before_1_0_a_call_with_unknown_arguments_has_its_configs_shape():
    # Before 1.0 open source's shape is its config's, never its arguments': `Memory()` returns
    # the list up to 0.1.58 and `search()` the dict whatever the config from 0.1.100.
    code = OSS + "def f(params):\n    res = memory.search(**params)\n    return len(res)\n"
    assert lint(code, pinned("mem0-oss", "0.1.58")) == []
    assert [d.code for d in lint(code, pinned("mem0-oss", "0.1.113"))] == ["MEM130"]


def test_silent_on_mem0ai_before_1_0_when_results_were_lists():
    # `Memory()`: MemoryConfig's `version` defaults to "v1.0" (the list) up to 0.1.58
    code = OSS + 'for m in memory.search("q", user_id="a"):\n    pass\n'
    assert lint(code, pinned("mem0-oss", "0.1.58")) == []
    assert [d.code for d in lint(code, pinned("mem0-oss", "0.1.59"))] == ["MEM130"]
    assert [d.code for d in lint(code, pinned("mem0-oss", "0.1.114"))] == ["MEM130"]
    assert [d.code for d in lint(code, pinned("mem0-oss", "1.0.0"))] == ["MEM130"]


# MEM138: the result tested as a list, the other branch dropping it -------------------------------


def lint138(code: str, sdks=()) -> list:
    module = engine.parse(textwrap.dedent(code))
    settings = engine.Settings(select=("MEM138",), sdks=tuple(sdks))
    return [d.start[0] for d in engine.lint(module, engine.RuleSet(settings))]


@pytest.mark.parametrize(
    "program",
    [
        PLATFORM + 'found = client.search("q", filters={"user_id": "a"})\n',
        PLATFORM + 'found = client.get_all(filters={"user_id": "a"})\n',
        OSS + 'found = memory.search("q", filters={"user_id": "a"})\n',
        OSS + 'found = memory.get_all(filters={"user_id": "a"})\n',
    ],
)
def test_mem138_the_sdk_result_is_never_a_list(program, monkeypatch):
    # The claim, on the real SDK: the test is False, so `found if isinstance(...) else []` is [].
    outcome = run(program + "assert isinstance(found, list)\n", monkeypatch)
    assert isinstance(outcome.raised, AssertionError), outcome.raised
    assert run(program + 'assert isinstance(found["results"], list)\n', monkeypatch).raised is None


@pytest.mark.parametrize(
    ("code", "rows"),
    [
        # a conditional expression whose other value drops the result
        (
            PLATFORM + "def recall(q):\n"
            '    found = client.search(q, filters={"user_id": "a"})\n'
            "    return found if isinstance(found, list) else []\n",
            [6],
        ),
        # an if whose else (or elif) does not read it
        (
            OSS + 'rows = memory.get_all(filters={"user_id": "a"})\n'
            "if isinstance(rows, list):\n    shown = rows\nelse:\n    shown = []\n",
            [5],
        ),
        (
            OSS + 'rows = memory.get_all(filters={"user_id": "a"})\n'
            "if isinstance(rows, list):\n    shown = rows\nelif ready:\n    shown = None\n",
            [5],
        ),
        # a truth test before it reads nothing of the shape
        (
            PLATFORM + "def recall(q):\n"
            '    found = client.search(q, filters={"user_id": "a"})\n'
            "    if not found:\n        return []\n"
            "    return found if isinstance(found, list) else []\n",
            [8],
        ),
        # awaited on the async client
        (
            "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n\n"
            "async def recall(q):\n"
            '    found = await client.search(q, filters={"user_id": "a"})\n'
            "    return found if isinstance(found, list) else []\n",
            [7],
        ),
    ],
)
def test_mem138_reported(code, rows):
    assert lint138(code) == rows


@pytest.mark.parametrize(
    "code",
    [
        # both shapes handled: the other branch reads the result
        PLATFORM + 'found = client.search("q", filters={"user_id": "a"})\n'
        'items = found if isinstance(found, list) else found["results"]\n',
        OSS + 'rows = memory.get_all(filters={"user_id": "a"})\n'
        "if isinstance(rows, list):\n    shown = rows\n"
        'else:\n    shown = rows.get("results", [])\n',
        # the result read as a dict elsewhere: both shapes handled
        PLATFORM + 'raw = client.search("q", filters={"user_id": "a"})\n'
        'items = raw.get("results", raw if isinstance(raw, list) else [])\n',
        OSS + 'res = memory.search("q", filters={"user_id": "a"})\n'
        'if isinstance(res, dict):\n    items = res.get("results") or []\n'
        "elif isinstance(res, list):\n    items = res\nelse:\n    items = []\n",
        PLATFORM + 'found = client.search("q", filters={"user_id": "a"})\n'
        "log(found)\nitems = found if isinstance(found, list) else []\n",
        # no other branch: nothing is dropped by the test itself
        OSS + 'rows = memory.get_all(filters={"user_id": "a"})\n'
        "if isinstance(rows, list):\n    print(rows)\n",
        # another test, or another type
        PLATFORM + 'found = client.search("q", filters={"user_id": "a"})\n'
        "items = found if isinstance(found, dict) else []\n",
        PLATFORM + 'found = client.search("q", filters={"user_id": "a"})\n'
        "items = found if isinstance(found, (list, tuple)) else []\n",
        # the name may hold an except handler's list instead
        PLATFORM + "try:\n"
        '    found = client.search("q", filters={"user_id": "a"})\n'
        "except Exception:\n    found = []\n"
        "items = found if isinstance(found, list) else []\n",
        # rebound before the test: another value
        PLATFORM + 'found = client.search("q", filters={"user_id": "a"})\n'
        'found = found["results"]\n'
        "items = found if isinstance(found, list) else []\n",
        # a spread call, and a client of no SDK
        PLATFORM + "found = client.search(**kwargs)\n"
        "items = found if isinstance(found, list) else []\n",
        "found = store.search('q')\nitems = found if isinstance(found, list) else []\n",
    ],
)
def test_mem138_silent(code):
    assert lint138(code) == []


def test_mem138_judges_from_1_0_where_the_shape_stopped_depending_on_the_config():
    code = (
        OSS + 'found = memory.search("q", user_id="a")\n'
        "items = found if isinstance(found, list) else []\n"
    )
    assert lint138(code) == [5]
    assert lint138(code, pinned("mem0-oss", "0.1.99")) == []


# Before 1.0: open source results by the client's config (sdk/mem0_results.py) ------------------

BEFORE_1_0 = [
    # (release, construction, method, reported); the wheels are run in
    # tests/test_result_shapes_before_1_0.py
    ("0.1.11", 'Memory.from_config({"version": "v1.1"})', "get_all", False),  # {"memories": ...}
    ("0.1.12", 'Memory.from_config({"version": "v1.1"})', "get_all", True),
    ("0.1.12", "Memory()", "get_all", False),
    ("0.1.58", "Memory()", "search", False),
    ("0.1.59", "Memory()", "search", True),
    ("0.1.59", 'Memory.from_config(config_dict={"llm": {"provider": "openai"}})', "get_all", True),
    ("0.1.99", 'Memory.from_config({"version": "v1.0"})', "search", False),
    ("0.1.100", 'Memory.from_config({"version": "v1.0"})', "search", True),
    ("0.1.118", 'Memory.from_config({"version": "v1.0"})', "get_all", False),
    ("0.1.118", "Memory.from_config(load())", "get_all", False),
    ("0.1.118", "Memory.from_config(load())", "search", True),
    ("1.0.0", 'Memory.from_config({"version": "v1.0"})', "get_all", True),
]


@pytest.mark.parametrize(("release", "made", "method", "reported"), BEFORE_1_0)
def test_before_1_0_by_release_and_config(release, made, method, reported):
    call = 'search("q", user_id="a")' if method == "search" else 'get_all(user_id="a")'
    code = f"from mem0 import Memory\n\nmemory = {made}\nn = len(memory.{call})\n"
    found = lint(code, pinned("mem0-oss", release))
    assert [d.code for d in found] == (["MEM130"] if reported else [])


def test_before_1_0_a_global_set_in_a_function_and_an_attribute_are_followed():
    code = (
        "from mem0 import Memory\n\nservice = None\n\n\ndef init():\n    global service\n"
        '    config = {"llm": {"provider": "openai"}}\n    service = Memory.from_config(config)\n'
        "\n\ndef count(user_id):\n    return len(service.get_all(user_id=user_id))\n\n\n"
        "class Store:\n    def __init__(self):\n        self.memory = Memory()\n\n"
        "    def count(self):\n        return len(self.memory.get_all(user_id='a'))\n"
    )
    found = lint(code, pinned("mem0-oss", "0.1.102"))
    assert [d.start[0] for d in found] == [13, 21]
    assert "on mem0ai 0.1.102 with this client's config" in found[0].message
    assert lint(code, pinned("mem0-oss", "0.1.58")) == []


# Through a function's `return`: a helper or wrapper hands the result to its caller, who reads
# it as a list (found on public chat backends: `len(get_all_messages_for_user(u)) > 0`).
RETURNED = [
    (
        PLATFORM + "def recall(q):\n"
        '    return client.search(q, filters={"user_id": "a"})\n\n\n'
        'seen = [m for m in recall("q")]  # read\n',
        "assert seen == [], seen\n",
    ),
    (
        OSS + "def fetch():\n"
        '    found = memory.get_all(filters={"user_id": "a"})\n'
        "    if found:\n        return found\n    return []\n\n\n"
        "n = len(fetch())  # read\n",
        "assert n == 0, n\n",
    ),
    (
        PLATFORM + "class Agent:\n"
        "    def recall(self):\n"
        '        return client.get_all(filters={"user_id": "a"})\n\n'
        "    def count(self):\n        hits = self.recall()\n        return len(hits)  # read\n\n\n"
        "n = Agent().count()\n",
        "assert n == 0, n\n",
    ),
    (
        PLATFORM + "class Agent:\n"
        "    def recall(self):\n"
        '        return client.get_all(filters={"user_id": "a"})\n\n\n'
        "agent = Agent()\nhits = agent.recall()\nn = len(hits)  # read\n",
        "assert n == 0, n\n",
    ),
    (
        PLATFORM + "def recall():\n"
        '    return client.search("q", filters={"user_id": "a"})\n\n\n'
        "def wrapper():\n    return recall()\n\n\n"
        "n = len(wrapper())  # read\n",
        "assert n == 0, n\n",
    ),
]


@pytest.mark.parametrize(("program", "probe"), RETURNED)
def test_a_result_returned_by_a_function_is_judged_where_its_caller_reads_it(
    program, probe, monkeypatch
):
    bad = run(program + probe, monkeypatch)
    assert isinstance(bad.raised, AssertionError), bad.raised  # the caller got the dict
    (finding,) = lint(program)
    read = program.split("\n").index(next(r for r in program.split("\n") if "# read" in r))
    assert finding.start[0] == read + 1  # the caller's row, not the helper's
    assert "where it returns" in finding.message
    assert finding.fix is None  # the function may return something else on another path


RETURNED_SILENT = [
    # a decorator may wrap the value; a generator's `return` ends the iteration
    "@cached\ndef recall():\n    return client.search('q', filters={'user_id': 'a'})\n\n\n"
    "n = len(recall())",
    "def recall():\n    yield 1\n    return client.search('q', filters={'user_id': 'a'})\n\n\n"
    "n = len(recall())",
    # the name is bound again: a call may call either
    "def recall():\n    return client.search('q', filters={'user_id': 'a'})\n\n\n"
    "if fast:\n    recall = load\nn = len(recall())",
    # a method some other class of the module defines too (a subclass may override it)
    "class A:\n    def recall(self):\n"
    "        return client.search('q', filters={'user_id': 'a'})\n\n"
    "    def count(self):\n        return len(self.recall())\n\n\n"
    "class B(A):\n    def recall(self):\n        return []\n",
    # an instance of a class with a base (the base may define what the call calls)
    "class A(Base):\n    def recall(self):\n"
    "        return client.search('q', filters={'user_id': 'a'})\n\n\n"
    "a = A()\nn = len(a.recall())",
    # the caller tests the shape
    "def recall():\n    return client.search('q', filters={'user_id': 'a'})\n\n\n"
    "res = recall()\nitems = res['results'] if isinstance(res, dict) else res\nn = len(res)",
    # a coroutine's value is read only where it is awaited
    "async def recall():\n    return client.search('q', filters={'user_id': 'a'})\n\n\n"
    "n = len(recall())",
    # three functions deep: not followed
    "def a():\n    return client.search('q', filters={'user_id': 'a'})\n\n\n"
    "def b():\n    return a()\n\n\ndef c():\n    return b()\n\n\nn = len(c())",
]


@pytest.mark.parametrize("code", RETURNED_SILENT)
def test_a_return_is_not_followed_where_its_callers_cannot_be_told(code):
    assert lint(PLATFORM + code) == []


def test_an_awaited_coroutine_returns_the_result():
    code = (
        "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n\n\n"
        "async def recall():\n"
        '    return await client.search("q", filters={"user_id": "a"})\n\n\n'
        "async def main():\n    return len(await recall())\n"
    )
    (finding,) = lint(code)
    assert finding.start[0] == 11 and "`recall()`, where it returns" in finding.message


def test_a_spread_calls_result_is_reported_where_it_is_read():
    """A call spreading a dict whose keys are written before it (bind/spread.py) reports its
    arguments at the `**`; a use of its result stays at the use."""
    code = PLATFORM + (
        "def recall(meta):\n"
        '    params = {"query": "q", "filters": {"user_id": "a"}}\n'
        "    if meta:\n"
        '        params["metadata"] = meta\n'
        "    return client.search(**params)\n\n\n"
        "for m in recall(None):\n    print(m)\n"
    )
    (finding,) = lint(code)
    assert finding.start[0] == code.count("\n") - 1


def test_a_call_of_another_function_of_the_same_name_is_not_a_caller():
    code = PLATFORM + (
        "def recall():\n    return client.search('q', filters={'user_id': 'a'})\n\n\n"
        "def g():\n    def recall():\n        return []\n    return len(recall())\n\n\n"
        "n = len(recall())\n"
    )
    assert [d.start[0] for d in lint(code)] == [code.count("\n")]
