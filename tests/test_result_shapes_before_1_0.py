"""MEM130 before mem0ai 1.0, against the wheels of those releases: each open source client
construction is built by the release's own `Memory` / `AsyncMemory` (models, store and history
stubbed), its `search()` and `get_all()` are called, and MEM130 must report `len()` of the result
exactly when the release returns `{"results": [...]}` for it (the facts of sdk/mem0_results.py:
the list by default up to 0.1.58, `{"memories": [...]}` for `"version": "v1.1"` up to 0.1.11, the
dict by default from 0.1.59, the list again with `"version": "v1.0"`).

The wheels are downloaded once, as tests/test_old_release_oracle.py does (`wheel`).
"""

from __future__ import annotations

import functools
import textwrap

import pytest
from packaging.version import Version
from test_old_release_oracle import run_on_release
from test_version_ranges import pinned

from mem0lint import engine

# The boundaries of sdk/mem0_results.py's runs, and the releases of the labelled repositories.
RELEASES = ("0.1.11", "0.1.12", "0.1.58", "0.1.59", "0.1.88", "0.1.89", "0.1.102", "0.1.118")

SYNC = (
    "Memory()",
    "Memory.from_config({})",
    'Memory.from_config({"llm": {"provider": "openai"}})',
    'Memory.from_config({"version": "v1.1"})',
    'Memory.from_config({"version": "v1.0"})',
    'Memory(MemoryConfig(version="v1.1"))',
    'Memory(config=MemoryConfig(version="v1.0"))',
    "Memory(MemoryConfig())",
)
ASYNC = (
    "AsyncMemory()",
    'AsyncMemory(MemoryConfig(version="v1.1"))',
    'AsyncMemory(MemoryConfig(version="v1.0"))',
)
METHODS = {"search": 'search("tea", user_id="u")', "get_all": 'get_all(user_id="u")'}

# Run in a child process with the release's unpacked wheel first on sys.path: prints, for each
# (construction, method), the shape of the result ("list", "dict:relations,results", ...).
RUNNER = r"""
import asyncio, inspect, json, logging, sys, warnings
from unittest.mock import MagicMock
warnings.simplefilter("ignore"); logging.disable(logging.CRITICAL)
import mem0.memory.main as main
from mem0.configs.base import MemoryConfig
main.capture_event = lambda *a, **k: None
def store(*a, **k):
    s = MagicMock()
    s.list.return_value = ([],)  # (points, offset): read as `[0]` or unpacked by type
    s.search.return_value = []
    return s
main.EmbedderFactory.create = staticmethod(lambda *a, **k: MagicMock())
main.LlmFactory.create = staticmethod(lambda *a, **k: MagicMock())
main.VectorStoreFactory.create = staticmethod(store)
main.SQLiteManager = lambda *a, **k: MagicMock()
def settled(value):
    return asyncio.run(value) if inspect.isawaitable(value) else value
def shape(construction, call):
    names = {"Memory": main.Memory, "AsyncMemory": getattr(main, "AsyncMemory", None),
             "MemoryConfig": MemoryConfig}
    memory = settled(eval(construction, names))
    value = settled(eval("memory." + call, {"memory": memory}))
    if isinstance(value, dict):
        return "dict:" + ",".join(sorted(value))
    return type(value).__name__
print(json.dumps([shape(*asked) for asked in json.load(sys.stdin)]))
"""


def constructions(release: str) -> tuple[str, ...]:
    """AsyncMemory came in 0.1.89."""
    return SYNC if Version(release) < Version("0.1.89") else SYNC + ASYNC


@functools.cache
def shapes_on(release: str) -> dict[tuple[str, str], str]:
    asked = [(made, call) for made in constructions(release) for call in METHODS.values()]
    return run_on_release(release, RUNNER, asked)


def program(made: str, call: str) -> str:
    awaited = "await " if made.startswith("AsyncMemory") else ""
    return (
        "from mem0 import AsyncMemory, Memory\n"
        "from mem0.configs.base import MemoryConfig\n\n"
        f"memory = {made}\n\n\nasync def main():\n"
        f"    return len({awaited}memory.{call})\n"
    )


def reported(release: str, source: str) -> bool:
    settings = engine.Settings(select=("MEM130",), sdks=pinned("mem0-oss", release))
    found = engine.lint(engine.parse(source), engine.RuleSet(settings))
    return [d.code for d in found] == ["MEM130"]


@pytest.mark.parametrize("release", RELEASES)
def test_reported_exactly_when_the_release_returns_the_results_dict(release):
    shapes = shapes_on(release)
    wrong = []
    for made in constructions(release):
        for call in METHODS.values():
            shape = shapes[made, call]
            is_results = shape.startswith("dict:") and "results" in shape[5:].split(",")
            if reported(release, program(made, call)) != is_results:
                wrong.append(f"{made}.{call}: {shape}, reported: {not is_results}")
    assert not wrong, f"mem0ai {release}:\n" + "\n".join(wrong)


def test_the_oracle_sees_each_shape():
    """The comparison is worth something only if the releases give each shape."""
    seen = {shape for release in ("0.1.11", "0.1.59") for shape in shapes_on(release).values()}
    assert seen == {"list", "dict:memories", "dict:results"}


SEEN_NOT_READ = [
    # the config from elsewhere, a spread, a changed dict, two constructions that disagree
    "memory = Memory.from_config(load_config())\n",
    "memory = Memory.from_config(**options)\n",
    'config = {}\nconfig["version"] = "v1.0"\nmemory = Memory.from_config(config)\n',
    'memory = Memory() if fast else Memory.from_config({"version": "v1.0"})\n',
    "memory = Memory(MemoryConfig(**options))\n",
    "memory = Memory(MemoryConfig(version=which))\n",
    "class Mine(Memory):\n    pass\n\n\nmemory = Mine()\n",
]


@pytest.mark.parametrize("made", SEEN_NOT_READ)
def test_a_construction_not_read_is_not_judged_before_1_0(made):
    source = (
        "from mem0 import Memory\nfrom mem0.configs.base import MemoryConfig\n\n"
        + made
        + 'n = len(memory.get_all(user_id="u"))\n'
    )
    assert not reported("0.1.113", source)


def test_a_parameter_is_not_followed_before_1_0():
    source = (
        "from mem0 import Memory\n\n\nclass Service:\n    def __init__(self, memory: Memory):\n"
        "        self.memory = memory\n\n    def count(self):\n"
        '        return len(self.memory.get_all(user_id="u"))\n'
    )
    assert not reported("0.1.113", source)
    assert reported("1.0.0", source)


def test_the_platform_client_is_not_judged_before_1_0():
    source = (
        "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
        'n = len(client.search("q", user_id="u"))\n'
    )
    settings = engine.Settings(select=("MEM130",), sdks=pinned("mem0-platform", "0.1.113"))
    assert engine.lint(engine.parse(source), engine.RuleSet(settings)) == []


# MEM139: the same constructions, the result read as the dict on a release that may return the
# list. Reported only where the release's own `Memory` returned the list; up to 0.1.58 (where the
# list does not hang on a graph store) wherever it did.
READS_AS_DICT = {
    "membership": 'found = {call}\nok = "results" in found\n',
    "subscript": 'rows = {call}["results"]\n',
    "get": 'found = {call}\nrows = found.get("results", [])\n',
}


def read_as_dict(made: str, call: str, read: str) -> str:
    awaited = "await " if made.startswith("AsyncMemory") else ""
    body = READS_AS_DICT[read].format(call=f"{awaited}memory.{call}")
    return (
        "from mem0 import AsyncMemory, Memory\n"
        "from mem0.configs.base import MemoryConfig\n\n"
        f"memory = {made}\n\n\nasync def main():\n" + textwrap.indent(body, "    ")
    )


def read_as_dict_findings(release: str, source: str) -> list:
    settings = engine.Settings(select=("MEM139",), sdks=pinned("mem0-oss", release))
    return engine.lint(engine.parse(source), engine.RuleSet(settings))


def reported_as_dict(release: str, source: str) -> bool:
    return [d.code for d in read_as_dict_findings(release, source)] == ["MEM139"]


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("read", sorted(READS_AS_DICT))
def test_read_as_dict_reported_only_where_the_release_returns_the_list(release, read):
    shapes = shapes_on(release)
    certain = Version(release) < Version("0.1.59")
    wrong = []
    for made in constructions(release):
        for call in METHODS.values():
            is_list = shapes[made, call] == "list"
            said = reported_as_dict(release, read_as_dict(made, call, read))
            if said and not is_list or certain and is_list and not said:
                wrong.append(f"{made}.{call}: {shapes[made, call]}, reported: {said}")
    assert not wrong, f"mem0ai {release}:\n" + "\n".join(wrong)


def test_read_as_dict_is_left_alone_where_the_shape_is_tested():
    """`isinstance` around the read: the author handles both shapes."""
    source = (
        "from mem0 import Memory\n\nmemory = Memory()\n"
        'found = memory.search("q", user_id="u")\n'
        'rows = found["results"] if isinstance(found, dict) else found\n'
    )
    assert not reported_as_dict("0.1.29", source)


def test_a_read_under_an_always_false_membership_test_is_not_reported():
    source = (
        "from mem0 import Memory\n\nmemory = Memory()\n"
        'found = memory.search("q", user_id="u")\n'
        'if "results" in found:\n    rows = found["results"]\n'
    )
    found = read_as_dict_findings("0.1.29", source)
    assert [(d.code, d.start[0]) for d in found] == [("MEM139", 5)]


@pytest.mark.parametrize(
    "second, read",
    [
        ('{"llm": {"provider": "litellm"}}', True),  # no `version` either: the default, read
        ('{"version": "v1.1"}', False),  # they disagree: not known
        ("{}\n    config.update(options)", False),  # changed: not known
    ],
)
def test_a_config_bound_twice_is_read_when_every_binding_agrees(second, read):
    source = (
        "from mem0 import Memory\n\n"
        'config = {"vector_store": {"provider": "qdrant"}}\n'
        "memory = Memory.from_config(config)\n"
        f"if other:\n    config = {second}\n    client = Memory.from_config(config)\n"
        'n = len(memory.get_all(user_id="u"))\n'
    )
    assert reported("0.1.113", source) is read


def test_read_as_dict_through_a_return():
    source = (
        "from mem0 import Memory\n\nmemory = Memory()\n\n\n"
        'def recall():\n    return memory.search("q", user_id="u")\n\n\n'
        'ok = "results" in recall()\n'
    )
    (finding,) = read_as_dict_findings("0.1.29", source)
    assert finding.start[0] == 10 and "returned by `recall()`" in finding.message
