"""The flow-sensitive binder, case by case: each call is annotated with the binding it must get.

`# -> mem0-platform` (one client), `# -> mem0-oss|mem0-platform` (a union: judged only by what
every member says), `# -> none` (never judged). The test reads the annotations from the snippet.
"""

from __future__ import annotations

import re
import textwrap

import libcst as cst
import pytest

from mem0lint import engine
from mem0lint.settings import Settings

N = "none"

CASES = {
    "repeated identical import (two Markdown blocks / cells)": """
        from mem0 import Memory
        m = Memory()
        m.search("q", filters={"user_id": "u"})  # -> mem0-oss
        from mem0 import Memory
        m2 = Memory.from_config({})
        m2.search("q", filters={"user_id": "u"})  # -> mem0-oss
        m.get_all(filters={"user_id": "u"})  # -> mem0-oss
    """,
    "repeated import read by a function (flow-insensitive) is one binding": """
        from mem0 import MemoryClient
        from mem0 import MemoryClient
        def f():
            MemoryClient().search("q")  # -> mem0-platform
    """,
    "rebinding replaces: the call after each binding gets that binding": """
        from memobase import MemoBaseClient
        from mem0 import MemoryClient
        client = MemoBaseClient("k")
        client.search("q")  # -> none
        client = MemoryClient(api_key="k")
        client.search("q")  # -> mem0-platform
    """,
    "rebinding to something unknown silences what follows": """
        from mem0 import MemoryClient
        client = MemoryClient()
        client.search("q")  # -> mem0-platform
        client = make_client()
        client.search("q")  # -> none
    """,
    "if/else join into a union": """
        from mem0 import Memory, MemoryClient
        if cloud:
            m = MemoryClient()
        else:
            m = Memory()
        m.search("q")  # -> mem0-oss|mem0-platform
    """,
    "if without else: the entry binding joins": """
        from mem0 import Memory, MemoryClient
        m = Memory()
        if cloud:
            m = MemoryClient()
            m.search("q")  # -> mem0-platform
        m.search("q")  # -> mem0-oss|mem0-platform
    """,
    "a branch with an unknown binding makes the join unknown": """
        from mem0 import MemoryClient
        if cloud:
            m = MemoryClient()
        else:
            m = other()
        m.search("q")  # -> none
    """,
    "conditional expression in self attribute": """
        from mem0 import Memory, MemoryClient
        class Agent:
            def __init__(self, k, cfg):
                self.c = MemoryClient(k) if k else Memory.from_config(cfg)
            def recall(self, q):
                return self.c.search(q)  # -> mem0-oss|mem0-platform
    """,
    "try/except: the handler sees the entry and every binding in the body": """
        from mem0 import Memory, MemoryClient
        try:
            m = MemoryClient()
        except ImportError:
            m = Memory()
        m.search("q")  # -> mem0-oss|mem0-platform
    """,
    "Union annotation": """
        from typing import Union
        from mem0 import Memory, MemoryClient
        def f(m: Union[MemoryClient, Memory]):
            m.search("q")  # -> mem0-oss|mem0-platform
    """,
    "Optional annotation is the one client": """
        from typing import Optional
        from mem0 import MemoryClient
        def f(m: Optional[MemoryClient]):
            m.search("q")  # -> mem0-platform
    """,
    "A | B annotation": """
        from mem0 import Memory, MemoryClient
        def f(m: "MemoryClient | Memory | None"):
            m.search("q")  # -> mem0-oss|mem0-platform
    """,
    "Union with an unknown member is unknown": """
        from typing import Union
        from mem0 import MemoryClient
        def f(m: Union[MemoryClient, Other]):
            m.search("q")  # -> none
    """,
    "isinstance narrows in the if body": """
        from mem0 import Memory, MemoryClient
        def f(m):
            m.search("q")  # -> none
            if isinstance(m, MemoryClient):
                m.search("q")  # -> mem0-platform
            if isinstance(m, (MemoryClient, Memory)) and ready:
                m.search("q")  # -> mem0-oss|mem0-platform
            m.search("q")  # -> none
    """,
    "a loop body sees what its later statements bind (fixpoint)": """
        from mem0 import Memory, MemoryClient
        m = Memory()
        for i in range(3):
            m.search("q")  # -> mem0-oss|mem0-platform
            m = MemoryClient()
        m.search("q")  # -> mem0-oss|mem0-platform
    """,
    "while loop that rebinds to unknown": """
        from mem0 import MemoryClient
        m = MemoryClient()
        while m:
            m.search("q")  # -> none
            m = step()
    """,
    "tuple unpacking from a literal tuple": """
        from mem0 import Memory, MemoryClient
        a, b = MemoryClient(), Memory()
        a.search("q")  # -> mem0-platform
        b.search("q")  # -> mem0-oss
    """,
    "tuple unpacking from a local factory": """
        from mem0 import MemoryClient
        def make(key):
            client = MemoryClient(api_key=key)
            return client, {"k": key}
        client, config = make("k")
        client.search("q")  # -> mem0-platform
        config.search("q")  # -> none
    """,
    "tuple unpacking from an unknown call": """
        client, config = make("k")
        client.search("q")  # -> none
    """,
    "class attributes per class": """
        from mem0 import Memory, MemoryClient
        class A:
            def __init__(self):
                self.m = MemoryClient()
            def go(self):
                self.m.search("q")  # -> mem0-platform
        class B:
            def __init__(self):
                self.m = Memory()
            def go(self):
                self.m.search("q")  # -> mem0-oss
    """,
    "self attribute set to two clients: a union (flow-insensitive)": """
        from mem0 import Memory, MemoryClient
        class A:
            def __init__(self):
                self.m = MemoryClient()
            def reset(self):
                self.m = Memory()
            def go(self):
                self.m.search("q")  # -> mem0-oss|mem0-platform
    """,
    "a function reading a module global sees every binding (join)": """
        from mem0 import Memory, MemoryClient
        m = Memory()
        def f():
            m.search("q")  # -> mem0-oss|mem0-platform
        m = MemoryClient()
    """,
    "a global rebound through `global` is read by every binding at module level": """
        from mem0 import MemoryClient
        client = None
        def init():
            global client
            client = make()
        client = MemoryClient()
        init()
        client.search("q")  # -> none
    """,
    "a closure sees every binding of the enclosing function": """
        from mem0 import Memory, MemoryClient
        def outer():
            m = Memory()
            def inner():
                m.search("q")  # -> mem0-oss|mem0-platform
            m = MemoryClient()
            m.search("q")  # -> mem0-platform
    """,
    "a comprehension reads names where it runs": """
        from mem0 import Memory, MemoryClient
        def f(qs):
            m = Memory()
            m = MemoryClient()
            return [m.search(q) for q in qs]  # -> mem0-platform
    """,
    "a name read before its binding in the same body": """
        from mem0 import MemoryClient
        def f():
            m.search("q")  # -> none
            m = MemoryClient()
    """,
    "a value is resolved where it was assigned": """
        from mem0 import Memory, MemoryClient
        a = Memory()
        b = a
        a = MemoryClient()
        b.search("q")  # -> mem0-oss
    """,
    "a factory's return is resolved where it returns": """
        from mem0 import Memory, MemoryClient
        def make():
            c = Memory()
            c = MemoryClient()
            return c
        make().search("q")  # -> mem0-platform
    """,
    "None placeholder then a client": """
        from mem0 import MemoryClient
        client = None
        if ready:
            client = MemoryClient()
        client.search("q")  # -> mem0-platform
    """,
    "a call in the value sees the binding before the assignment": """
        from mem0 import MemoryClient
        client = MemoryClient()
        client = wrap(client.search("q"))  # -> mem0-platform
        client.search("q")  # -> none
    """,
    "match: cases join with the entry": """
        from mem0 import Memory, MemoryClient
        m = Memory()
        match kind:
            case "cloud":
                m = MemoryClient()
            case _:
                pass
        m.search("q")  # -> mem0-oss|mem0-platform
    """,
    "a private function's parameter: what every call site passes": """
        from mem0 import Memory
        def _fetch_all(src, q, limit=None):
            return src.search(q)  # -> mem0-oss
        memory = Memory.from_config({})
        _fetch_all(memory, "a")
        _fetch_all(q="b", src=memory)
    """,
    "a parameter whose call sites pass different clients: a union": """
        from mem0 import Memory, MemoryClient
        def _fetch(src):
            return src.search("q")  # -> mem0-oss|mem0-platform
        _fetch(Memory())
        _fetch(MemoryClient())
    """,
    "a local helper's parameter": """
        from mem0 import MemoryClient
        def main():
            client = MemoryClient()
            def run(c):
                return c.search("q")  # -> mem0-platform
            run(client)
    """,
    "a public function's parameter stays unknown (another module may call it)": """
        from mem0 import Memory
        def fetch_all(src):
            return src.search("q")  # -> none
        fetch_all(Memory())
    """,
    "a private function that escapes (passed as a callback) stays unknown": """
        from mem0 import Memory
        def _fetch(src):
            return src.search("q")  # -> none
        _fetch(Memory())
        register(_fetch)
    """,
    "a call site with an unknown argument or *args makes the parameter unknown": """
        from mem0 import Memory
        def _fetch(src):
            return src.search("q")  # -> none
        def _other(src):
            return src.search("q")  # -> none
        _fetch(Memory())
        _fetch(get())
        _other(Memory())
        _other(*things)
    """,
    "a recursive private function": """
        from mem0 import Memory
        def _walk(src, n):
            src.search("q")  # -> mem0-oss
            if n:
                _walk(src, n - 1)
        _walk(Memory(), 3)
    """,
    "a parameter left to its None default by some call sites": """
        from mem0 import Memory
        def _fetch(q, src=None):
            return src.search(q)  # -> mem0-oss
        _fetch("a", Memory())
        _fetch("b")
    """,
    "a bound method passed to to_thread, run_in_executor, partial, a local runner": """
        import asyncio
        import functools
        from mem0 import MemoryClient
        client = MemoryClient()
        def run(fn, *args, **kwargs):
            return fn(*args, **kwargs)
        def other(fn, *args, **kwargs):
            log(fn)
            return fn(*args, **kwargs)
        async def main(q, loop):
            await asyncio.to_thread(client.search, q)  # -> mem0-platform
            await loop.run_in_executor(None, functools.partial(client.search))  # -> mem0-platform
            await loop.run_in_executor(None, client.search, q)  # -> mem0-platform
            run(client.search, q)  # -> mem0-platform
            other(client.search, q)  # -> none
            p = functools.partial(client.search, q)
            p(filters={})  # -> none
            await asyncio.to_thread(unknown.search, q)  # -> none
    """,
    "a client made by a class or factory passed to to_thread, run_in_executor": """
        import asyncio
        from mem0 import Memory, MemoryClient
        async def main(q, loop, config):
            memory = await asyncio.to_thread(Memory.from_config, config)
            memory.search(q)  # -> mem0-oss
            client = await loop.run_in_executor(None, MemoryClient)
            client.search(q)  # -> mem0-platform
            other = await asyncio.to_thread(make_client, config)
            other.search(q)  # -> none
    """,
    "an optional import with a None fallback": """
        try:
            from mem0 import MemoryClient
        except ImportError:
            MemoryClient = None
        client = MemoryClient()
        client.search("q")  # -> mem0-platform
    """,
    "an optional import with another class as fallback": """
        try:
            from mem0 import MemoryClient
        except ImportError:
            from other import MemoryClient
        client = MemoryClient()
        client.search("q")  # -> none
    """,
}

_MARK = re.compile(r"#\s*->\s*(\S+)\s*$")


def _sites_by_line(code: str):
    module = cst.parse_module(code)
    sites = engine.find_sites(module, Settings())
    positions = engine.positions_of(module)
    by_line: dict[int, set[str]] = {}
    for site in sites:
        if site.receiver is None:
            continue
        line = positions[site.outer or site.call].start.line
        members = site.union if site.union is not None else frozenset({site.dialect.id})
        by_line.setdefault(line, set()).update(members)
    return by_line


def expected_bindings(code: str) -> dict[int, str]:
    found = {}
    for number, line in enumerate(code.splitlines(), start=1):
        match = _MARK.search(line)
        if match:
            found[number] = match.group(1)
    return found


def assert_binding_table(case: str) -> None:
    """Every call annotated `# -> dialect` (or `# -> none`) in `case` is bound so."""
    code = textwrap.dedent(case)
    expected = expected_bindings(code)
    assert expected, "every case annotates at least one call"
    by_line = _sites_by_line(code)
    for line, want in expected.items():
        got = "|".join(sorted(by_line.get(line, ()))) or N
        assert got == "|".join(sorted(want.split("|"))), (
            f"line {line}: {code.splitlines()[line - 1].strip()!r}: want {want}, got {got}"
        )


@pytest.mark.parametrize("name", sorted(CASES))
def test_binding_table(name):
    assert_binding_table(CASES[name])


# Judging a call on a union ----------------------------------------------------------------------

UNION_HEAD = """
import os
from mem0 import Memory, MemoryClient
m = MemoryClient() if os.environ.get("KEY") else Memory()
"""


def _lint(code: str, **settings):
    from conftest import lint_source

    return lint_source(code, **settings)


def test_union_keeps_only_findings_every_member_produces():
    # Both clients reject `user_id=` at the top level and ignore `limit=` (same rule, same node).
    found = _lint(UNION_HEAD + 'm.search("q", user_id="u", limit=3)\n')
    assert sorted(d.code for d in found) == ["MEM101", "MEM102"]
    assert {d.dialect for d in found} == {"mem0-oss|mem0-platform"}
    # MEM402 (entity ids nested in AND) holds for open source only: not reported on the union.
    alone = _lint(UNION_HEAD.replace("MemoryClient() if", "Memory() if") + _NESTED)
    assert "MEM402" in [d.code for d in alone]
    assert "MEM402" not in [d.code for d in _lint(UNION_HEAD + _NESTED)]


_NESTED = 'm.search("q", filters={"AND": [{"user_id": "u"}]})\n'


def test_union_message_names_each_member_when_they_differ():
    found = _lint(UNION_HEAD + 'm.search("q", filters={"user_id": "u"}, top_k=-5)\n')
    (invalid,) = [d for d in found if d.code == "MEM112"]
    assert "HTTP" in invalid.message and "ValueError" in invalid.message


def test_union_with_an_unknown_member_is_silent():
    code = """
        from mem0 import MemoryClient
        m = MemoryClient() if key else make_other()
        m.search("q", user_id="u", limit=3)
    """
    assert _lint(code) == []


def test_union_fix_applies_when_every_member_fixes_alike():
    from conftest import fix_source

    fixed = fix_source(UNION_HEAD + 'm.search("q", filters={"user_id": "u"}, limit=3)\n')
    assert "top_k=3" in fixed and "limit=" not in fixed


def test_same_fix_needs_identical_edits_and_takes_the_least_safe():
    from mem0lint.bind.union import same_fix
    from mem0lint.rule import Applicability, Fix

    old = cst.Name("limit")
    safe = Fix(Applicability.SAFE, "rename", ((old, cst.Name("top_k")),))
    unsafe = Fix(Applicability.UNSAFE, "rename", ((old, cst.Name("top_k")),))
    other = Fix(Applicability.SAFE, "rename", ((old, cst.Name("k")),))
    assert same_fix([safe, safe]) is safe
    assert same_fix([safe, unsafe]).applicability is Applicability.UNSAFE
    assert same_fix([safe, other]) is None
    assert same_fix([safe, None]) is None


# Bound methods passed along ------------------------------------------------------------------


def test_forwarded_call_findings_point_at_the_arguments_and_fix_only_them():
    from conftest import fix_source

    code = """
        import asyncio
        from mem0 import MemoryClient
        client = MemoryClient()
        async def main(q, u):
            await asyncio.to_thread(client.search, q, filters={"user_id": u}, limit=3)
            await asyncio.to_thread(client.search, q)
    """
    found = {d.code: d for d in _lint(code)}
    assert set(found) == {"MEM102", "MEM401"}
    assert found["MEM102"].start == (6, 71)  # the `limit=3` argument itself
    assert found["MEM401"].fix is None
    fixed = fix_source(code)
    assert 'to_thread(client.search, q, filters={"user_id": u}, top_k=3)' in fixed


def test_a_constructor_passed_to_to_thread_is_judged_as_the_call_it_becomes():
    code = """\
import asyncio
from mem0 import Memory
async def cloud(key):
    return await asyncio.to_thread(Memory, api_key=key)
"""
    (finding,) = _lint(code)
    assert finding.code == "MEM125" and finding.start == (4, 44)  # the `api_key=` argument


def test_the_end_of_a_module_is_what_an_importer_sees():
    from mem0lint.binding import BindingCollector, Resolver
    from mem0lint.walk import walk

    module = cst.parse_module(
        "from memobase import MemoBaseClient\n"
        "from mem0 import MemoryClient\n"
        "client = MemoBaseClient('k')\n"
        "client = MemoryClient()\n"
        "other = MemoryClient()\n"
        "other = make()\n"
    )
    collector = BindingCollector()
    walk(module, collector)
    resolver = Resolver(collector)
    end = collector.end()
    assert resolver.dialect_of(cst.Name("client"), end).id == "mem0-platform"
    assert resolver.dialect_of(cst.Name("other"), end) is None
    # Flow-insensitive (every binding): the first binding is unknown, so the name is too.
    assert resolver.dialect_of(cst.Name("client"), collector.module_scope) is None


def test_chains_of_branches_and_self_references_in_loops_stay_cheap():
    import time

    lines = ["from mem0 import MemoryClient", "n0 = MemoryClient()"]
    for i in range(1, 8):
        lines += [f"if x{i}:", f"    n{i} = n{i - 1}", "else:", f"    n{i} = n{i - 1}"]
    lines += ["n7.search('q')", "c = MemoryClient()", "for i in range(3):"]
    lines += ["    c = c if i else c", "    c.search('q')"]
    code = "\n".join(lines) + "\n"
    started = time.perf_counter()
    by_line = _sites_by_line(code)
    assert time.perf_counter() - started < 5
    # The cycle through the loop adds nothing: `c` is the client (the least fixpoint).
    assert by_line == {31: {"mem0-platform"}, 35: {"mem0-platform"}}
