"""A dict literal spread into a call (bind/spread.py): judged as the call it becomes when the
dict provably holds the literal's keys; reported on the real call, never fixed."""

from __future__ import annotations

import textwrap

import pytest
from conftest import fix_source, lint_source

HEAD = """
from mem0 import MemoryClient
client = MemoryClient(api_key="k")
"""

# Each case: the body of `def get(query, uid, metadata):`, and the MEM101 keywords expected.
CASES = {
    "a literal spread as it is": (
        'params = {"query": query, "user_id": uid}\nreturn client.search(**params)',
        ["user_id"],
    ),
    "a conditional write of another constant key hides only that key": (
        'params = {"query": query, "user_id": uid, "agent_id": "a"}\n'
        'if metadata:\n    params["metadata"] = metadata\n'
        "return client.search(**params)",
        ["agent_id", "user_id"],
    ),
    "a key a write replaces is hidden (its value is no longer the literal's)": (
        'params = {"query": query, "user_id": uid}\n'
        'params["user_id"] = other(uid)\n'
        "return client.search(**params)",
        [],
    ),
    "entity ids inside filters: nothing to report": (
        'params = {"query": query, "filters": {"user_id": uid}}\nreturn client.search(**params)',
        [],
    ),
    "the dict passed to a function may lose keys: unknown": (
        'params = {"query": query, "user_id": uid}\nclean(params)\nreturn client.search(**params)',
        [],
    ),
    "a mutating method: unknown": (
        'params = {"query": query, "user_id": uid}\nparams.pop("user_id")\n'
        "return client.search(**params)",
        [],
    ),
    "a del: unknown": (
        'params = {"query": query, "user_id": uid}\ndel params["user_id"]\n'
        "return client.search(**params)",
        [],
    ),
    "a computed key written: unknown": (
        'params = {"query": query, "user_id": uid}\nparams[key] = None\n'
        "return client.search(**params)",
        [],
    ),
    "rebound on one path: unknown": (
        'params = {"query": query, "user_id": uid}\n'
        "if metadata:\n    params = dict(metadata)\n"
        "return client.search(**params)",
        [],
    ),
    "a literal with a spread or a computed key inside: unknown": (
        'params = {"query": query, "user_id": uid, **extra}\nreturn client.search(**params)',
        [],
    ),
    "a dict() copy holds the original's keys; a key written to the copy is hidden": (
        'base = {"query": query, "user_id": uid, "agent_id": "a"}\n'
        "params = dict(base)\n"
        'params["agent_id"] = metadata\n'
        "return client.search(**params)",
        ["user_id"],
    ),
    "a copy of a dict written on one path: the keys not written are held": (
        'base = {"query": query, "user_id": uid}\n'
        'if metadata:\n    base["agent_id"] = metadata\n'
        "params = dict(base)\n"
        'params["limit"] = 10\n'
        "return client.search(**params)",
        ["user_id"],
    ),
    "a key written to the original, before or after the copy, is hidden": (
        'base = {"query": query, "user_id": uid, "agent_id": "a"}\n'
        'base["user_id"] = metadata\n'
        "params = dict(base)\n"
        'base["agent_id"] = None\n'
        "return client.search(**params)",
        [],
    ),
    "a copy of a dict that is passed to a function: unknown": (
        'base = {"query": query, "user_id": uid}\nclean(base)\nparams = dict(base)\n'
        "return client.search(**params)",
        [],
    ),
    "a copy of a parameter rebound to a literal on one path: unknown": (
        'if uid:\n    metadata = {"query": query, "user_id": uid}\n'
        "params = dict(metadata)\n"
        "return client.search(**params)",
        [],
    ),
    "a copy through a dict that is not the builtin: unknown": (
        'dict = make_dict\nbase = {"query": query, "user_id": uid}\nparams = dict(base)\n'
        "return client.search(**params)",
        [],
    ),
    "a copy with keywords, or a copy of a copy: unknown": (
        'base = {"query": query, "user_id": uid}\nmiddle = dict(base)\n'
        "params = dict(middle)\nother = dict(base, agent_id=None)\n"
        "client.search(**other)\n"
        "return client.search(**params)",
        [],
    ),
    "a nested function that rebinds it with nonlocal: unknown": (
        'params = {"query": query, "user_id": uid}\n'
        "def reset():\n    nonlocal params\n    params = {}\n"
        "return client.search(**params)",
        [],
    ),
}


def _program(body: str) -> str:
    return HEAD + "def get(query, uid, metadata):\n" + textwrap.indent(body, "    ") + "\n"


def _mem101(body: str) -> tuple[str, list, list[str]]:
    """The program around `body`, its MEM101 findings, and the keywords they name."""
    code = _program(body)
    found = [d for d in lint_source(code) if d.code == "MEM101"]
    keywords = sorted(k for d in found for k in ("user_id", "agent_id") if f"`{k}=`" in d.message)
    return code, found, keywords


@pytest.mark.parametrize("name", sorted(CASES))
def test_spread_table(name):
    body, expected = CASES[name]
    code, found, keywords = _mem101(body)
    assert keywords == expected, code
    rows = {d.start[0] for d in found}
    assert rows <= {code.splitlines().index("    return client.search(**params)") + 1}


# A key the literal lacks, written before the call on some path of the function's statements, is
# passed on that path (bind/spread.py `_written_before`); the body of `def get(query, uid,
# metadata):` and the MEM101 keywords expected.
WRITTEN_BEFORE = {
    "written in a branch before the call": (
        'params = {"query": query}\nif uid:\n    params["user_id"] = uid\n'
        "return client.search(**params)",
        ["user_id"],
    ),
    "bound with an annotation": (
        'params: dict = {"query": query}\nif uid:\n    params["user_id"] = uid\n'
        "return client.search(**params)",
        ["user_id"],
    ),
    "on an elif, each branch writing it": (
        'params = {"query": query}\nif uid:\n    params["user_id"] = uid\n'
        'elif metadata:\n    params["user_id"] = metadata\nreturn client.search(**params)',
        ["user_id"],
    ),
    "the branch that writes it returns first": (
        'params = {"query": query}\nif uid:\n    params["user_id"] = uid\n'
        "    return legacy(**params)\nreturn client.search(**params)",
        [],
    ),
    "the branch that writes it raises inside a try/finally": (
        'params = {"query": query}\ntry:\n    if uid:\n        params["user_id"] = uid\n'
        "        raise LookupError(uid)\nfinally:\n    log()\nreturn client.search(**params)",
        [],
    ),
    "written in the other branch": (
        'params = {"query": query}\nif uid:\n    params["user_id"] = uid\n'
        "else:\n    return client.search(**params)",
        [],
    ),
    "written in an except handler, the call in the try's else": (
        'params = {"query": query}\ntry:\n    check()\nexcept LookupError:\n'
        '    params["user_id"] = uid\nelse:\n    return client.search(**params)',
        [],
    ),
    "written in the try, the call in its handler": (
        'params = {"query": query}\ntry:\n    params["user_id"] = uid\n    check()\n'
        "except LookupError:\n    return client.search(**params)",
        ["user_id"],
    ),
    "written after the call in a loop, the dict bound before it": (
        'params = {"query": query}\nfor u in metadata:\n    client.search(**params)\n'
        '    if u:\n        params["user_id"] = u',
        ["user_id"],
    ),
    "written after the call in a loop that binds the dict afresh": (
        'for u in metadata:\n    params = {"query": query}\n    client.search(**params)\n'
        '    params["user_id"] = u',
        [],
    ),
    "written after the call, no loop": (
        'params = {"query": query}\nif uid:\n    found = client.search(**params)\n'
        '    params["user_id"] = uid\n    return found',
        [],
    ),
    "written on one line after a colon": (
        'params = {"query": query}\nif uid: params["user_id"] = uid\n'
        "return client.search(**params)",
        ["user_id"],
    ),
    "the writing branch returns on one line after a colon": (
        'params = {"query": query}\nif uid:\n    params["user_id"] = uid\n'
        "    if metadata: return legacy(**params)\n    else: return None\n"
        "return client.search(**params)",
        [],
    ),
    "written on every path to the call": (
        'params = {"query": query}\nparams["user_id"] = uid\nreturn client.search(**params)',
        ["user_id"],
    ),
    "written on every path, the literal's own key replaced: hidden": (
        'params = {"query": query, "agent_id": "a"}\nparams["agent_id"] = uid\n'
        "return client.search(**params)",
        [],
    ),
    "a path on which the dict was never bound (UnboundLocalError): unknown": (
        'if metadata:\n    params = {"query": query}\n    params["user_id"] = uid\n'
        "    return legacy(**params)\nreturn client.search(**params)",
        [],
    ),
    "written by a nested function: hidden": (
        'params = {"query": query}\ndef scope():\n    params["user_id"] = uid\n'
        "return client.search(**params)",
        [],
    ),
    "written after a break that leaves the loop first": (
        'params = {"query": query}\nwhile metadata:\n    if uid:\n        break\n'
        '    params["user_id"] = uid\n    break\nreturn client.search(**params)',
        ["user_id"],
    ),
}


def _nested_loops(depth: int) -> str:
    """`depth` loops one inside the other, each writing its own key after the call."""
    lines = ['params = {"query": query}']
    for level in range(depth):
        lines.append("    " * level + f"for x{level} in metadata:")
    inner = "    " * depth
    lines += [inner + "client.search(**params)", inner + 'params["user_id"] = uid']
    for level in reversed(range(depth)):
        lines.append("    " * (level + 1) + f'params["k{level}"] = x{level}')
    return "\n".join(lines)


WRITTEN_BEFORE["written after the call in the innermost of 18 nested loops"] = (
    _nested_loops(18),
    ["user_id"],
)


@pytest.mark.parametrize("name", sorted(WRITTEN_BEFORE))
def test_a_key_written_before_the_call_is_passed_on_that_path(name):
    body, expected = WRITTEN_BEFORE[name]
    code, found, keywords = _mem101(body)
    assert keywords == expected, code
    assert all(d.fix is None for d in found)  # reported on `**params`, never fixed


def test_a_spread_finding_is_never_fixed():
    code = _program(CASES["a literal spread as it is"][0])
    assert [d.fix for d in lint_source(code) if d.code == "MEM101"] == [None]
    assert fix_source(code, unsafe=True) == code


INLINE = {
    # (call, the codes reported): the dict written in the call is its keywords, as spelled.
    'client.delete("m-1", **{"user_id": "u"})': ["MEM136"],
    'client.search("q", **{"user_id": "u", "limit": 3})': ["MEM101", "MEM102"],
    'client.search("q", **{"filters": {"user_id": "u"}, "top_k": 3})': [],
    'client.search("q", **{**base, "user_id": "u"})': [],  # a spread inside: unknown
    'client.search("q", **{key: "u"})': [],  # a computed key: unknown
}


@pytest.mark.parametrize("call", list(INLINE))
def test_a_dict_written_in_the_call_is_its_keywords(call):
    code = HEAD + call + "\n"
    found = lint_source(code)
    assert sorted(d.code for d in found) == INLINE[call]
    assert all(d.fix is None and d.start[0] == code.count("\n") for d in found)
    assert fix_source(code, unsafe=True) == code


def test_a_module_level_dict_is_not_followed():
    """Module-level statements are pruned one by one: a use elsewhere could be dropped."""
    code = HEAD + 'params = {"query": "q", "user_id": "u"}\nclient.search(**params)\n'
    assert [d.code for d in lint_source(code)] == []


# A call in a lambda, a comprehension or a nested function reads the enclosing function's dict
# (a closure): the body of `def get(query, uid, metadata):`, and the MEM101 keywords expected.
CLOSURES = {
    "a lambda": (
        'params = {"query": query, "user_id": uid}\nreturn run(lambda: client.search(**params))',
        ["user_id"],
    ),
    "a nested function": (
        'params = {"query": query, "user_id": uid}\n'
        "def inner():\n    return client.search(**params)\n"
        "return inner()",
        ["user_id"],
    ),
    "a comprehension": (
        'params = {"query": query, "user_id": uid}\n'
        "return [client.search(**params) for _ in range(2)]",
        ["user_id"],
    ),
    "a key written after the lambda is made is hidden (it may run later)": (
        'params = {"query": query, "user_id": uid, "agent_id": "a"}\n'
        "later = lambda: client.search(**params)\n"
        'params["agent_id"] = metadata\n'
        "return later()",
        ["user_id"],
    ),
    "rebound after the lambda is made: unknown": (
        'params = {"query": query, "user_id": uid}\n'
        "later = lambda: client.search(**params)\n"
        "params = {}\n"
        "return later()",
        [],
    ),
    "the lambda's own parameter of that name: not the function's dict": (
        'params = {"query": query, "user_id": uid}\n'
        "return run(lambda **params: client.search(**params))",
        [],
    ),
    "the nested function's parameter of that name: not the function's dict": (
        'params = {"query": query, "user_id": uid}\n'
        "def inner(params):\n    return client.search(**params)\n"
        "return inner({})",
        [],
    ),
    "a nested function that declares it global: unknown": (
        'params = {"query": query, "user_id": uid}\n'
        "def inner():\n    global params\n    return client.search(**params)\n"
        "return inner()",
        [],
    ),
}


@pytest.mark.parametrize("name", sorted(CLOSURES))
def test_a_closure_reads_the_enclosing_function_s_dict(name):
    body, expected = CLOSURES[name]
    code, found, keywords = _mem101(body)
    assert keywords == expected, code
    assert all(d.fix is None for d in found)


@pytest.mark.parametrize("params", ["*client", "*, client", "**client", "client, /", "client=None"])
def test_a_lambda_parameter_hides_the_client_of_the_same_name(params):
    """Every kind of lambda parameter binds in the lambda: `client` there is not the module's."""
    code = HEAD + f'run(lambda {params}: client.search("q", user_id="u"))\n'
    assert [d.code for d in lint_source(code)] == []
    assert [d.code for d in lint_source(code.replace(f"{params}: ", ": "))] == ["MEM101"]


def test_a_star_import_may_bind_dict_so_a_copy_is_not_followed():
    body = (
        'base = {"query": query, "user_id": uid}\nparams = dict(base)\n'
        "return client.search(**params)"
    )
    assert _mem101(body)[2] == ["user_id"]
    code = "from helpers import *\n" + _program(body)
    assert [d for d in lint_source(code) if d.code == "MEM101"] == []
