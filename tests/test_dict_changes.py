"""A dict literal read through a name is judged only while nothing else may change it
(bind/escapes.py): a filter grown by `filters["AND"].append(...)` may hold the `user_id` a rule
would say it lacks. Each case is a function body, and whether the rule reports it."""

from __future__ import annotations

import textwrap

import pytest
from test_result_shapes_before_1_0 import reported as shape_reported
from test_version_ranges import pinned

from mem0lint import engine
from mem0lint.rule import PREAMBLES

PLATFORM = PREAMBLES["mem0-platform"]
OSS = PREAMBLES["mem0-oss"]


def codes(source: str, select: tuple[str, ...]) -> list[str]:
    module = engine.parse(textwrap.dedent(source))
    found = engine.lint(module, engine.RuleSet(engine.Settings(select=select)))
    return sorted(d.code for d in found)


def in_function(body: str) -> str:
    return "def find(user_id=None):\n" + textwrap.indent(body, "    ")


# MEM401 says a Platform filter has no entity id: only true of the literal when nothing can add
# one before the call.
FILTER_CASES = {
    "the literal as it is": ('f = {"AND": [{"kind": "x"}]}\nclient.get_all(filters=f)', True),
    "a condition appended to its list": (
        'f = {"AND": [{"kind": "x"}]}\nif user_id:\n    f["AND"].append({"user_id": user_id})\n'
        "client.get_all(filters=f)",
        False,
    ),
    "a list added to in place": (
        'f = {"AND": [{"kind": "x"}]}\nf["AND"] += [{"user_id": user_id}]\n'
        "client.get_all(filters=f)",
        False,
    ),
    "a key written deeper in": (
        'f = {"AND": [{"kind": "x"}]}\nf["AND"][0]["user_id"] = user_id\nclient.get_all(filters=f)',
        False,
    ),
    "a part given another name, then changed": (
        'f = {"AND": [{"kind": "x"}]}\nconds = f["AND"]\nconds.append({"user_id": user_id})\n'
        "client.get_all(filters=f)",
        False,
    ),
    "the dict given another name": (
        'f = {"AND": [{"kind": "x"}]}\ng = f\ng["AND"].append({"user_id": user_id})\n'
        "client.get_all(filters=f)",
        False,
    ),
    "the dict passed to a helper that may change it": (
        'f = {"AND": [{"kind": "x"}]}\nadd_user(f, user_id)\nclient.get_all(filters=f)',
        False,
    ),
    "a shallow copy kept: its parts are the dict's": (
        'f = {"AND": [{"kind": "x"}]}\ng = dict(f)\nclient.get_all(filters=f)',
        False,
    ),
    "a closure that may change it": (
        'f = {"AND": [{"kind": "x"}]}\ndef grow():\n    f["AND"].append({"user_id": "u"})\n'
        "grow()\nclient.get_all(filters=f)",
        False,
    ),
    "read only: tested, counted, logged, printed, formatted": (
        'f = {"AND": [{"kind": "x"}]}\nif "AND" in f and len(f["AND"]) == 1 and f.get("AND"):\n'
        '    logger.info("filters %s", f)\n    print(f"{f}", f.keys())\n'
        "client.get_all(filters=f)",
        True,
    ),
    "given to another SDK call too": (
        'f = {"AND": [{"kind": "x"}]}\nclient.search("q", filters=f)\nclient.get_all(filters=f)',
        True,
    ),
    "a deep copy of it kept: the dict is untouched": (
        'f = {"AND": [{"kind": "x"}]}\ng = copy.deepcopy(f)\ng["AND"].append({"user_id": 1})\n'
        "client.get_all(filters=f)",
        True,
    ),
}


# A module's dict: any function of the module may change it.
MODULE_CASES = {
    "a module's dict changed by one of its functions": (
        'F = {"AND": [{"kind": "x"}]}\n\n\ndef grow(u):\n    F["AND"].append({"user_id": u})\n\n\n'
        "client.get_all(filters=F)\n",
        False,
    ),
    "a module's dict returned to a caller that may change it": (
        'F = {"AND": [{"kind": "x"}]}\n\n\ndef shared():\n    return F\n\n\n'
        "client.get_all(filters=F)\n",
        False,
    ),
    "a function's own dict of the same name is another dict": (
        'F = {"AND": [{"kind": "x"}]}\n\n\ndef other(u):\n    F = {"AND": []}\n'
        '    F["AND"].append({"user_id": u})\n    return F\n\n\n'
        "client.get_all(filters=F)\n",
        True,
    ),
    "a parameter of the same name is another dict": (
        'F = {"AND": [{"kind": "x"}]}\n\n\ndef other(F):\n    F["AND"].append(1)\n\n\n'
        "client.get_all(filters=F)\n",
        True,
    ),
}


CASES = {
    **{case: (in_function(body), reported) for case, (body, reported) in FILTER_CASES.items()},
    **MODULE_CASES,
}


@pytest.mark.parametrize("case", CASES)
def test_a_filter_is_judged_only_while_nothing_may_change_it(case):
    source, reported = CASES[case]
    assert codes(PLATFORM + source, ("MEM401",)) == (["MEM401"] if reported else [])


def test_a_spread_dict_changed_inside_a_value_is_not_judged():
    body = (
        'params = {"filters": {"AND": [{"kind": "x"}]}}\n'
        'if user_id:\n    params["filters"]["AND"].append({"user_id": user_id})\n'
        "client.get_all(**params)"
    )
    assert codes(PLATFORM + in_function(body), ("MEM401",)) == []
    unchanged = 'params = {"filters": {"AND": [{"kind": "x"}]}}\nclient.get_all(**params)'
    assert codes(PLATFORM + in_function(unchanged), ("MEM401",)) == ["MEM401"]


def test_a_spread_copy_is_checked_as_a_dict_of_its_own():
    copied = 'params = {"filters": {"AND": [{"kind": "x"}]}}\nkw = dict(params)\n'
    assert codes(PLATFORM + in_function(copied + "client.get_all(**kw)"), ("MEM401",)) == ["MEM401"]
    grown = copied + 'kw["filters"]["AND"].append({"user_id": user_id})\nclient.get_all(**kw)'
    assert codes(PLATFORM + in_function(grown), ("MEM401",)) == []


# MEM149 reads a config's own keys: a change deeper in leaves them as written, and a key
# written before the call (`config["graph_store"] = {...}`, found in a public memory backend) is
# one more key it may hold; anything else that may change its keys leaves it unknown.
CONFIG_CASES = {
    "as written": ("", True),
    "a value deeper in written": ('config["llm"]["config"]["model"] = "m"\n', True),
    "a part given another name": ('llm = config["llm"]\nllm["provider"] = "openai"\n', True),
    "a key written": ('config["llm"] = {}\n', True),
    "the ignored key written to None": ('if x:\n    config["graph_store"] = None\n', False),
    "a key deleted": ('del config["graph_store"]\n', False),
    "keys updated": ("config.update(extra)\n", False),
    "a key written in a branch that returns": (
        'if x:\n    config["llm"] = {}\n    return\n',
        False,
    ),
    "a key written in a loop": ('for k in ks:\n    config["llm"] = {}\n', True),
    "passed to a helper": ("prepare(config)\n", False),
    "given another name": ('alias = config\nalias["version"] = "v1.1"\n', False),
}


@pytest.mark.parametrize(
    "change, expected",
    [
        ('if graph:\n    config["graph_store"] = {"provider": "neo4j"}\n', ["MEM149"]),
        ('config["enable_graph"] = True\nconfig["custom_instructions"] = "x"\n', ["MEM149"]),
        ('config["custom_fact_extraction_prompt"] = None\n', []),
        ('if graph:\n    config["graph_store"] = {}\nelse:\n    pass\n', ["MEM149"]),
    ],
)
def test_a_key_written_before_from_config_is_judged(change, expected):
    body = f'config = {{"llm": {{}}}}\n{change}return Memory.from_config(config)\n'
    source = OSS + "def build(graph=False):\n" + textwrap.indent(body, "    ")
    assert codes(source, ("MEM149",)) == expected


def test_a_key_written_after_from_config_or_elsewhere_is_not():
    after = 'config = {"llm": {}}\nm = Memory.from_config(config)\nconfig["graph_store"] = {}\n'
    other = (
        'config = {"llm": {}}\nif graph:\n    config["graph_store"] = {}\n'
        "else:\n    Memory.from_config(config)\n"
    )
    nested = (
        'config = {"llm": {}}\ndef later():\n    config["graph_store"] = {}\n'
        "Memory.from_config(config)\n"
    )
    # a nested function may write the key to None before the call: not read through
    hidden = (
        'config = {"llm": {}, "graph_store": {"provider": "neo4j"}}\ndef off():\n'
        '    config["graph_store"] = None\nconfig["llm"] = {}\nMemory.from_config(config)\n'
    )
    for body in (after, other, nested, hidden):
        source = OSS + "def build(graph=False):\n" + textwrap.indent(body, "    ")
        assert codes(source, ("MEM149",)) == [], body


@pytest.mark.parametrize("case", CONFIG_CASES)
def test_a_config_is_judged_by_its_own_keys(case):
    change, reported = CONFIG_CASES[case]
    source = (
        OSS + 'config = {"llm": {"provider": "x", "config": {}}, "graph_store": {}}\n'
        f"{change}Memory.from_config(config)\n"
    )
    assert codes(source, ("MEM149",)) == (["MEM149"] if reported else [])


@pytest.mark.parametrize(
    "change, read",
    [
        ("", True),
        ('config["vector_store"]["config"] = {"path": "/tmp"}\n', True),
        ("prepare(config)\n", False),
    ],
)
def test_a_config_version_is_read_while_its_own_keys_stay(change, read):
    source = (
        "from mem0 import Memory\n\n"
        'config = {"vector_store": {"provider": "qdrant"}}\n'
        f"{change}memory = Memory.from_config(config)\n"
        'n = len(memory.get_all(user_id="u"))\n'
    )
    assert shape_reported("0.1.113", source) is read


def test_pinned_platform_release_does_not_change_the_answer():
    """The answer is the dict's, not the release's: the same on the oldest 2.x Platform pin."""
    body = FILTER_CASES["a condition appended to its list"][0]
    module = engine.parse(PLATFORM + in_function(body))
    settings = engine.Settings(select=("MEM401",), sdks=pinned("mem0-platform", "2.0.0"))
    assert engine.lint(module, engine.RuleSet(settings)) == []
