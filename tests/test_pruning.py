"""Pruning (mem0lint/pruning.py) blanks out statements before libcst parses a file for a check.
It must never change a finding: same codes, messages, positions and fixes, pruned or not.

Proved here over every fixture, every rule example (bad, good and fixed), a generated corpus of
mem0-heavy files, and hand-written files built to trip it: a filter dict, a rebinding, a
mutation, a factory, a `global`, a walrus, a fixture renamed by its decorator, all in statements
that spell no SDK word.
"""

from __future__ import annotations

import ast
import random
import re
import sys
import textwrap
from pathlib import Path

import pytest

from mem0lint import engine, pruning
from mem0lint.rules import all_rules

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

SEEDS = pruning.seed_words()
RULES = engine.RuleSet(engine.Settings())


def findings(source, layout=None, original=None) -> list[tuple]:
    """`original`: the text `source` was pruned from, which the engine is given in a check."""
    module = engine.parse(source)
    return [
        (d.code, d.start, d.end, d.message, d.edits, d.fix and d.fix.applicability)
        for d in engine.lint(module, RULES, source=original or source, layout=layout)
    ]


def assert_same_findings(source) -> None:
    """Pruned and placed statement by statement (the layout), or neither."""
    pruned, layout = pruning.analyse(source, SEEDS)
    assert layout is not None or pruned == source  # None: this Python cannot parse it
    assert findings(pruned, layout) == findings(source)


def rows_pruned(source: str) -> int:
    pruned = pruning.prune(source, SEEDS)
    return sum(
        1 for before, after in zip(source.splitlines(), pruned.splitlines()) if before != after
    )


CORPUS = generate.generate_sources(count=200, seed=11)
FIXTURES = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "fixtures").glob("*.py")}
EXAMPLES = {
    f"{code}-{index}-{kind}": example.program(getattr(example, kind))
    for code, rule in all_rules().items()
    for index, example in enumerate(rule.examples)
    for kind in ("bad", "good", "fixed")
    if getattr(example, kind)
}


@pytest.mark.parametrize("name", sorted(FIXTURES) + sorted(CORPUS))
def test_pruning_changes_no_finding_in_fixtures_and_the_generated_corpus(name):
    assert_same_findings({**FIXTURES, **CORPUS}[name])


def test_pruning_changes_no_finding_in_any_rule_example():
    for name, source in EXAMPLES.items():
        assert findings(*pruning.analyse(source, SEEDS)) == findings(source), name


def _snippets_of_the_test_suite() -> list[str]:
    """Every string of tests/ that is a Python program of two rows or more: the binder's, the
    rules' and the fixes' own cases."""
    found: dict[str, None] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = textwrap.dedent(node.value).lstrip("\n")
                if "\n" in text.strip() and pruning.prunable(Path("snippet.py"), text):
                    try:
                        ast.parse(text)
                    except (SyntaxError, ValueError):
                        continue
                    found[text] = None
    return list(found)


def test_pruning_changes_no_finding_in_any_program_of_the_test_suite():
    checked = proved = 0
    for source in _snippets_of_the_test_suite():
        try:
            whole = findings(source)
        except engine.ParseFailure:
            continue  # valid Python that libcst refuses: pruning leaves such text to libcst too
        pruned, layout = pruning.analyse(source, SEEDS)
        assert findings(pruned, layout, source) == whole, source
        checked += 1
        proved += bool(whole) and pruned != source
    assert checked > 500 and proved > 20  # the proof is worth something


def test_pruning_removes_a_good_part_of_the_generated_corpus():
    """The proofs above are worth something only if pruning prunes."""
    total = sum(len(source.splitlines()) for source in CORPUS.values())
    pruned = sum(rows_pruned(source) for source in CORPUS.values())
    assert pruned > total * 0.25


# Each case: a file whose finding (or silence) depends on a statement that spells no SDK word,
# and a `noise` function that must be pruned.
TRICKY = {
    "filter dict bound in its own statement": """
        from mem0 import MemoryClient

        FILTERS = {"$and": [{"user_id": "u"}]}

        def unrelated():
            return 1

        client = MemoryClient()
        client.search("q", filters=FILTERS)

        def noise():
            return 0
    """,
    "a second binding makes the receiver ambiguous": """
        from mem0 import MemoryClient

        client = MemoryClient()

        def reset():
            return 2

        client = object()
        client.search("q", limit=3)

        def noise():
            return 0
    """,
    "a mutation makes the filter dict opaque": """
        from mem0 import MemoryClient

        FILTERS = {"user_id": "u"}
        FILTERS["$or"] = []
        FILTERS.update(x=1)
        MemoryClient().search("q", filters=FILTERS, limit=3)

        def noise():
            return 0
    """,
    "a factory that never spells the SDK": """
        from mem0 import MemoryClient

        _CLIENT = MemoryClient()

        def helper():
            return _CLIENT

        def use():
            helper().search("q", user_id="u")

        def noise(items):
            return [i for i in items]
    """,
    "a global rebinding inside a function": """
        from mem0 import MemoryClient

        client = MemoryClient()

        def swap():
            global client
            client = None or object()

        client.search("q", limit=3)

        def noise():
            return 0
    """,
    "a walrus at the module's top": """
        from mem0 import MemoryClient

        if (client := MemoryClient()):
            pass

        def noise():
            return 3

        client.search("q", limit=3)
    """,
    "an attribute set in one method, used in another": """
        from mem0 import Memory

        class Service:
            def __init__(self):
                self.memory = Memory()

            def other(self):
                return 4

            def rebind(self):
                self.memory = object()

            def recall(self, q):
                return self.memory.search(q, limit=3)

        class Plain:
            def __init__(self):
                self.memory = Memory()

            def noise(self):
                return 5

            def recall(self, q):
                return self.memory.search(q, limit=3)
    """,
    "an attribute bound in a comprehension": """
        from mem0 import Memory

        class Service:
            def __init__(self):
                self.memory = Memory()

            def rebind(self, items):
                return [0 for self.memory in items]

            def recall(self, q):
                return self.memory.search(q, limit=3)

        def noise():
            return 0
    """,
    "a fixture renamed by its decorator": """
        import pytest
        from mem0 import MemoryClient

        @pytest.fixture(name="client")
        def make_client():
            return MemoryClient()

        def noise():
            return 12

        def test_it(client):
            client.search("q", limit=3)
    """,
    "rows shared by statements": """
        from mem0 import MemoryClient
        a = 1; client = MemoryClient()
        class Small: x = 1
        def noise(): return 6
        client.search("q", limit=3)
    """,
    "a star import": """
        from mem0 import MemoryClient
        from helpers import *

        client = MemoryClient()

        def noise():
            return 7

        client.search("q", limit=3)
    """,
    "a client from a match capture": """
        from mem0 import MemoryClient

        client = MemoryClient()

        match object():
            case client:
                pass

        def noise():
            return 8

        client.search("q", limit=3)
    """,
    "a class whose members are all pruned": """
        from mem0 import MemoryClient

        class Quiet:
            '''Nothing here.'''

            @staticmethod
            def noise():
                return 9

        MemoryClient().search("q", limit=3)
    """,
    "a bound method alias": """
        from mem0 import MemoryClient

        search = MemoryClient().search

        def noise():
            return 10

        search("q", limit=3)
    """,
    "a call site that makes a private function's parameter unknown": """
        from mem0 import Memory

        def noise():
            return 11

        def _fetch(src):
            return src.search("q", limit=3)

        _fetch(Memory())
        _fetch(get())
    """,
    "a private function passed as a callback (it escapes)": """
        from mem0 import Memory

        def noise():
            return 11

        def _fetch(src):
            return src.search("q", limit=3)

        _fetch(Memory())
        register(_fetch)
    """,
    "a rebinding in a branch, and a loop": """
        from mem0 import Memory, MemoryClient

        def noise():
            return 11

        m = Memory()
        if flag:
            m = other()
        m.search("q", limit=3)
        for x in range(2):
            m.search("q", limit=3)
            m = MemoryClient()
    """,
    "an attribute path's container changed in a function that spells no SDK word": """
        import streamlit as st
        from mem0 import Memory

        def init():
            st.session_state.memory = Memory()

        def restore(saved):
            st.session_state.update(saved)

        def noise():
            return 12

        def run():
            st.session_state.memory.search("q", user_id="u")
    """,
    "an attribute path's container given to setattr in a function": """
        from types import SimpleNamespace
        from mem0 import Memory

        state = SimpleNamespace()

        def init():
            state.memory = Memory()

        def restore(key, value):
            setattr(state, key, value)

        def noise():
            return 15

        def run():
            state.memory.search("q", user_id="u")
    """,
    "an attribute path's container given to setattr at the top": """
        import app
        from mem0 import Memory

        app.memory = Memory()
        setattr(app, key, value)

        def noise():
            return 13

        app.memory.search("q", user_id="u")
    """,
    "an attribute path written through [...] in a function": """
        import streamlit as st
        from mem0 import Memory

        def init():
            st.session_state.memory = Memory()

        def reset():
            st.session_state["memory"] = None

        def noise():
            return 14

        def run():
            st.session_state.memory.search("q", user_id="u")
    """,
    "a stdlib module the project shadows": """
        from logging import client

        def noise():
            return 11

        client.search("q", limit=3)
    """,
}

TRICKY.update(
    {
        "an instance's class decides its attributes in a member that spells no seed": """
            from mem0 import MemoryClient

            class Holder:
                def __init__(self):
                    self.memory = MemoryClient()

                def __getattr__(self, name):
                    return lookup(name)

            def noise():
                return 11

            holder = Holder()
            holder.memory.search("q", user_id="u")
        """,
        "an instance's attribute written by a function that spells no seed": """
            from mem0 import MemoryClient

            class Holder:
                def __init__(self):
                    self.memory = MemoryClient()

            def configure(target):
                target.memory = build()

            def noise():
                return 11

            holder = Holder()
            holder.memory.search("q", user_id="u")
        """,
        "a context manager's __enter__ that spells no seed": """
            from mem0 import MemoryClient

            class Session:
                def __init__(self):
                    self.memory = MemoryClient()

                async def __aenter__(self):
                    return other()

            def noise():
                return 11

            async def main():
                async with Session() as session:
                    session.memory.search("q", user_id="u")
        """,
    }
)


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_pruning_keeps_every_statement_a_finding_depends_on(name):
    source = textwrap.dedent(TRICKY[name]).lstrip("\n")
    pruned = pruning.prune(source, SEEDS)
    try:
        ast.parse(source)
    except SyntaxError:  # `match` before Python 3.10: left alone, for libcst to parse
        assert pruned == source
    else:
        assert "noise" not in pruned  # pruning did prune
    assert_same_findings(source)


# Each case: a finding the binder reaches through a value it follows (a result, a forwarded or
# wrapped method, a parameter, a factory's tuple, an own method, an annotation, a class body, a
# fixture, a narrowing), next to `noise` that pruning must prune.
THROUGH_VALUES = {
    "a result read at the top, in the statement after the call": """
        from mem0 import MemoryClient

        client = MemoryClient()
        results = client.search("tea", filters={"user_id": "alice"})

        def noise():
            return 0

        for m in results:
            print(m["memory"])
    """,
    "a result returned by a function and read by its caller at the top": """
        from mem0 import Memory

        memory = Memory.from_config({"vector_store": {"provider": "qdrant"}})

        def find():
            return memory.search("tea", user_id="alice")

        def noise():
            return 0

        found = find()
        if found and "results" in found:
            print(found["results"])
    """,
    "a bound method forwarded to a thread": """
        import asyncio

        from mem0 import MemoryClient

        client = MemoryClient()

        def noise():
            return 0

        async def main():
            return await asyncio.to_thread(client.search, "q", limit=3)
    """,
    "a partial run in an executor": """
        import functools

        from mem0 import MemoryClient

        client = MemoryClient()

        def noise():
            return 0

        async def main(loop):
            return await loop.run_in_executor(None, functools.partial(client.search, "q", limit=3))
    """,
    "a local runner given a bound method": """
        from mem0 import MemoryClient

        def run(fn, *args, **kwargs):
            return fn(*args, **kwargs)

        def noise():
            return 0

        client = MemoryClient()
        run(client.search, "q", limit=3)
    """,
    "a private function given a client": """
        from mem0 import MemoryClient

        def _find(source):
            return source.search("q", limit=3)

        def noise():
            return 0

        _find(MemoryClient())
    """,
    "a private function given a client second, by a private function": """
        from mem0 import MemoryClient

        def _find(query, source):
            source.search(query, limit=3)

        def noise():
            return 0

        shared = MemoryClient()

        def _run(tag, value):
            _find(tag, value)

        _run("x", shared)
    """,
    "a client from a local factory's tuple": """
        from mem0 import MemoryClient

        def make():
            return MemoryClient(), {}

        def noise():
            return 0

        client, config = make()
        client.search("q", limit=3)
    """,
    "a client from a method of the class": """
        from mem0 import MemoryClient

        class Service:
            def make(self):
                return MemoryClient()

            def noise(self):
                return 0

            def find(self):
                return self.make().search("q", limit=3)
    """,
    "a client a string annotation names": """
        from mem0 import MemoryClient

        def find(client: "MemoryClient"):
            return client.search("q", limit=3)

        def noise():
            return 0
    """,
    "a client a class body binds": """
        from mem0 import MemoryClient

        class Service:
            client = MemoryClient()

            def noise(self):
                return 0

            def find(self):
                return self.client.search("q", limit=3)
    """,
    "an isinstance narrowing": """
        from mem0 import MemoryClient

        def noise():
            return 0

        def find(client):
            if isinstance(client, MemoryClient):
                client.search("q", limit=3)
    """,
}


@pytest.mark.parametrize("name", sorted(THROUGH_VALUES))
def test_pruning_keeps_every_statement_a_value_the_binder_follows_needs(name):
    source = textwrap.dedent(THROUGH_VALUES[name]).lstrip("\n")
    assert findings(source)  # the case proves something
    pruned = pruning.prune(source, SEEDS)
    assert "def noise" not in pruned and "def noise" in source
    assert_same_findings(source)


def test_a_mock_in_a_pruned_test_still_leaves_the_module_s_awaits_alone():
    """MEM140-MEM142 leave a module that mocks alone; the test that patches spells no SDK word
    and is pruned, so whether the module mocks is read in the text it was pruned from."""
    source = textwrap.dedent(
        """
        from unittest.mock import patch

        from mem0 import AsyncMemoryClient


        def test_patched():
            with patch("os.getcwd"):
                pass


        async def test_search():
            client = AsyncMemoryClient()
            client.search("q", user_id="u")
        """
    ).lstrip()
    pruned = pruning.prune(source, SEEDS)
    assert "patch" not in pruned
    codes = [d.code for d in engine.lint(engine.parse(pruned), RULES, source=source)]
    assert codes == [d.code for d in engine.lint(engine.parse(source), RULES, source=source)]
    assert "MEM140" not in codes
    unmocked = source.replace("from unittest.mock import patch\n", "").replace("patch", "open")
    assert "MEM140" in [d.code for d in engine.lint(engine.parse(unmocked), RULES)]


def test_a_configured_receiver_is_a_seed():
    source = "from app import memory\n\ndef noise():\n    return 1\n\nmemory.search('q', limit=3)\n"
    rules = engine.RuleSet(engine.Settings(receivers={"app.memory": "mem0-platform"}))
    seeds = pruning.seed_words(("app.memory",))
    for text in (source, pruning.prune(source, seeds)):
        assert [d.code for d in engine.lint(engine.parse(text), rules)]


def test_what_a_unit_binds_is_read_only_when_a_kept_unit_may_need_it(monkeypatch):
    """A unit tainted by nothing, that mentions no word a kept unit mentions, binds none of
    them: what it binds is not read. In non-ASCII text a name may be spelled in another form
    than Python reads it (`ﬁle` is `file`), so there it is read."""
    read: list[str] = []
    real = pruning._binds
    monkeypatch.setattr(pruning, "_binds", lambda node, text: read.append(text) or real(node, text))
    noise = "".join(f"\n\ndef noise_{i}(a):\n    b = a\n    return b\n" for i in range(20))
    source = "from mem0 import Memory\n\nm = Memory()" + noise + "\nm.search('q')\n"
    assert "noise_3" not in pruning.prune(source, SEEDS)
    assert not any("noise" in text for text in read)
    read.clear()
    ligature = source.replace("b = a", "\ufb01le = a").replace("return b", "return file")
    assert "noise_3" not in pruning.prune(ligature, SEEDS)
    assert any("noise" in text for text in read)


def test_a_stdlib_name_taints_when_the_project_has_a_module_of_that_name():
    source = "from logging import client\n\ndef f():\n    client.search('q')\n"
    assert "client.search" not in pruning.prune(source, SEEDS)
    assert "client.search" in pruning.prune(source, SEEDS, local=frozenset({"logging"}))


@pytest.mark.parametrize(
    "source",
    [
        "from mem0 import Memory\r\n\r\ndef noise():\r\n    return 1\r\n\r\nm = Memory()\r\n",
        "from mem0 import Memory\n\ndef noise():\n\treturn 1\n\nm = Memory()",
        "from mem0 import Memory\n\ndef bruit():\n    é = 'ü'\n    return é\n\nm = Memory()\n",
    ],
    ids=["crlf", "tabs-no-final-newline", "non-ascii"],
)
def test_pruning_keeps_rows_line_endings_and_encoding(source):
    pruned = pruning.prune(source, SEEDS)
    assert "noise" not in pruned and "bruit" not in pruned
    assert pruned.count("\n") == source.count("\n")
    assert pruned.splitlines()[-1] == source.splitlines()[-1]
    data = source.encode("utf-8")
    assert pruning.prune(data, SEEDS) == pruned.encode("utf-8")


@pytest.mark.parametrize(
    "source", ["def broken(:\n", "x = 'unterminated\n", "\x00", "(" * 500 + ")" * 500]
)
def test_a_source_python_cannot_parse_is_left_alone(source):
    assert pruning.prune(source, SEEDS) == source


def test_test_files_markdown_pages_and_suppression_comments_are_not_pruned():
    assert not pruning.prunable(Path("tests/test_app.py"), "x = 1\n")
    assert not pruning.prunable(Path("app.py"), "x = 1  # NoQA: MEM201\n")
    assert not pruning.prunable(Path("docs/quickstart.mdx"), "x = 1\n")
    assert not pruning.prunable(Path("README.md"), "x = 1\n")
    assert pruning.prunable(Path("app.py"), b"x = 1\n")
    assert pruning.prunable(Path("walkthrough.ipynb"), "x = 1\n")


# Statement by statement, positions come from generating only the statements with findings,
# starting at the rows Python's parser gives: shapes where those rows are easy to get wrong.
LAYOUTS = {
    "decorators and comments": '''
        from mem0 import MemoryClient
        import functools

        # a comment before the class

        class Service:
            """Doc."""

            # before a decorator
            @functools.cache
            # between decorators
            @staticmethod
            # after the decorators
            def recall():
                return MemoryClient().search(
                    "q",
                    limit=3,  # trailing
                )

            other = MemoryClient().search("q", limit=4)
    ''',
    "statements sharing rows": """
        from mem0 import MemoryClient
        c = MemoryClient(); c.search("q", limit=1)
        x = 1; \\
        c.search("q", limit=2)
    """,
    "strings over several rows": '''
        from mem0 import MemoryClient
        NOTE = """
        many
        rows
        """
        def f():
            return MemoryClient().search(f"""{NOTE}
            """, limit=3)
    ''',
    "nested classes and tabs": (
        "from mem0 import MemoryClient\n"
        "class Outer:\n"
        "\tclass Inner:\n"
        "\t\tdef f(self):\n"
        '\t\t\treturn MemoryClient().search("q", limit=3)\n'
        "\tdef g(self):\n"
        '\t\treturn MemoryClient().search("q", limit=5)\n'
    ),
    "no final newline": 'from mem0 import MemoryClient\nMemoryClient().search("q", limit=3)',
    "a class on one row, and members sharing rows": """
        from mem0 import MemoryClient
        class A: found = MemoryClient().search("q", limit=1)
        class B:
            x = 1; found = MemoryClient().search("q", limit=2)
            def f(self):
                return MemoryClient().search("q", limit=3)
    """,
    "a finding in a followed dict": """
        from mem0 import MemoryClient

        F = {"$and": [{"user_id": "u"}]}

        if F:
            MemoryClient().search("q", filters=F)
    """,
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_placing_statement_by_statement_gives_the_positions_of_the_whole_module(name, newline):
    source = textwrap.dedent(LAYOUTS[name]).lstrip("\n").replace("\n", newline)
    assert findings(source)
    assert_same_findings(source)
    assert findings(source, pruning.layout_of(source)) == findings(source)


def test_a_text_that_is_not_pruned_is_placed_by_its_own_layout_as_by_the_whole_module():
    """A check finds the layout of a text it did not prune (a test file, a page's blocks) with
    Python's parser (`pruning.layout_of`, engine.lint's `find_layout`): only the statements with
    findings are generated, and every position and edit is the one the whole module gives."""
    texts = {**FIXTURES, **CORPUS, **EXAMPLES}
    texts.update((f"glued {i}", source) for i, source in enumerate(glued_files(30, seed=8)))
    placed = 0
    for name, source in texts.items():
        layout = pruning.layout_of(source)
        assert len(layout.starts) == len(engine.parse(source).body), name  # it fits: it is used
        expected = findings(source)
        assert findings(source, layout) == expected, name
        placed += len(expected)
    assert placed > 500
    assert pruning.layout_of("def f(:\n") is None  # Python cannot parse it: the whole module


# Files no one wrote: corpus files and rule examples glued together, with statements inserted at
# the top level that rebind, mutate or shadow the names they use (seeded, so a failure repeats).
REBINDINGS = [
    "{name} = object()\n",
    "def _rebind():\n    global {name}\n    {name} = 1\n",
    "{name}['x'] = 1\n",
    "{name}.update(a=1)\n",
    "if (_x := 1):\n    {name} = None\n",
    "class _K:\n    def f(self):\n        self.{name} = object()\n",
    "for {name} in []:\n    pass\n",
    "import os as {name}\n",
    "try:\n    pass\nexcept Exception as {name}:\n    pass\n",
    "del {name}\n",
]


def glued_files(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pool = list(CORPUS.values()) + list(EXAMPLES.values())
    files = []
    while len(files) < count:
        lines = "\n".join(rng.sample(pool, rng.randint(1, 3))).split("\n")
        names = sorted(set(re.findall(r"\b([A-Za-z_]\w*)\s*=", "\n".join(lines))))
        for _ in range(rng.randint(1, 3)):
            top_level = [i for i, line in enumerate(lines) if line[:1].isalpha() or line[:1] == "_"]
            snippet = rng.choice(REBINDINGS).format(name=rng.choice(names or ["client"]))
            lines.insert(rng.choice(top_level or [0]), snippet)
        source = "\n".join(lines)
        try:
            ast.parse(source)
            engine.parse(source)
        except (SyntaxError, engine.ParseFailure):
            continue  # inserted inside a statement that goes on below
        files.append(source)
    return files


def test_pruning_changes_no_finding_in_glued_and_rebound_files():
    for source in glued_files(count=60, seed=5):
        assert_same_findings(source)


def test_the_nodes_of_a_statement_are_those_ast_walk_gives():
    """What a unit binds is read from `pruning._nodes`, in another order than `ast.walk`'s but
    the very same nodes, for every statement of the fixtures and the corpus."""
    compared = 0
    for source in [*FIXTURES.values(), *CORPUS.values()]:
        for statement in ast.parse(source).body:
            walked = sorted(map(id, ast.walk(statement)))
            assert sorted(map(id, pruning._nodes(statement))) == walked
            compared += len(walked)
    assert compared > 10_000
