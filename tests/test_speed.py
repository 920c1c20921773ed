"""The speed levers lose nothing: prefilter, lazy imports, tree walk, positions, cache, pool.

Each lever is checked against the plain pipeline it replaces, on the fixtures and on the seeded
mem0-heavy corpus of the benchmark (bench/generate.py), so a faster run is never a run that
reports less.
"""

from __future__ import annotations

import abc
import ast
import dataclasses
import os
import subprocess
import sys
import textwrap
import time
from functools import partial
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from libcst.metadata import MetadataWrapper, PositionProvider

from mem0lint import engine, parsing, pipeline, prefilter
from mem0lint.binding import BindingCollector
from mem0lint.filtertree import string_value
from mem0lint.modes import Mode
from mem0lint.positions import node_ranges
from mem0lint.rules import all_rules
from mem0lint.walk import replaced, walk
from mem0lint.walk import subclasses as walk_subclasses

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

CORPUS = generate.generate_sources(count=300, seed=7)
FIXTURES = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "fixtures").glob("*.py")}
ALL_SOURCES = {**FIXTURES, **CORPUS}


def full_pipeline(source: str) -> list[tuple]:
    """Findings with the prefilter disabled: parse and check everything."""
    module = engine.parse(source)
    rules = engine.RuleSet(engine.Settings())
    return [(d.code, d.start, d.message) for d in engine.lint(module, rules)]


# --- prefilter ---------------------------------------------------------------------------------
def test_generated_corpus_has_findings_and_files_the_prefilter_drops():
    """The safety test below means something only if both kinds of file exist."""
    kept = [name for name, source in CORPUS.items() if prefilter.may_matter(source)]
    assert 0 < len(kept) < len(CORPUS)
    assert sum(bool(full_pipeline(CORPUS[name])) for name in kept) > 50


@pytest.mark.parametrize("name", sorted(ALL_SOURCES))
def test_prefilter_never_drops_a_file_with_findings(name):
    source = ALL_SOURCES[name]
    if full_pipeline(source):
        assert prefilter.may_matter(source)
        assert prefilter.may_matter(source.encode("utf-8"))


def test_prefilter_keeps_a_helper_module_through_names_known_from_outside():
    helper = "from app.clients import memory\n\nmemory.search('q', user_id='u')\n"
    assert not prefilter.may_matter(helper)
    names = prefilter.external_words({"app.clients.memory": "mem0-platform"})
    assert prefilter.may_matter(helper, names)


def test_prefilter_gates_pass_every_way_a_file_may_matter():
    """The cheap first scan (`_gates`) lets through each combination of words the full test
    keeps: an SDK package with each of its words, the REST words together, each docs class."""
    packages, rest, implicit = prefilter.anchors()
    kept = [package + b" " + word for package, words in packages.items() for word in words]
    kept += [b" ".join(rest), *implicit]
    for source in kept:
        assert prefilter.may_matter(source), source
    assert not prefilter.may_matter(b"import re  # Memory, memories and MemoryError\n")


def test_prefilter_sees_identifiers_in_an_encoding_that_hides_them():
    source = "# coding: utf-7\nfrom mem0 import Memory\n"
    assert prefilter.may_matter(source.encode("utf-7"))
    assert prefilter.may_matter(source.encode("utf-16"))  # with a BOM


@pytest.mark.parametrize(
    "source",
    [
        "import re\nre.search('a', 'b')\n",
        "memory.search('q', user_id='u')  # no client is ever imported\n",
        "from langchain.memory import ConversationBufferMemory\n",
        "x = MemoryError()\n",  # the word, but no SDK package
        # The one-word trap: "memories" alone once kept (and parsed) a whole tree's worth.
        'SECTION = "memories"  # where the agent keeps its memories\n',
        # The Platform's paths served by a proxy of the user's own: not judged, so not kept.
        'requests.post(f"{PROXY}/v3/memories/search/", json={"query": "q"})\n',
    ],
)
def test_prefilter_drops_code_that_cannot_matter(source):
    assert not prefilter.may_matter(source)


# --- lazy imports ------------------------------------------------------------------------------
def test_a_run_where_no_file_matters_never_imports_libcst(tmp_path):
    (tmp_path / "plain.py").write_text("import re\nprint(re.search('a', 'abc'))\n")
    (tmp_path / "other.py").write_text("class Memory:\n    pass\n")
    script = textwrap.dedent(
        f"""
        import sys
        from mem0lint.cli import main
        try:
            main([{str(tmp_path)!r}, "--no-cache"])
        except SystemExit as exit:
            code = exit.code
        assert code == 0, code
        print("libcst imported" if "libcst" in sys.modules else "libcst not imported")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert "libcst not imported" in result.stdout


# --- tree walk and positions -------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(FIXTURES) + sorted(CORPUS)[:40])
def test_walk_collects_exactly_what_libcst_visit_collects(name):
    module = cst.parse_module(ALL_SOURCES[name])
    by_visit, by_walk = BindingCollector(), BindingCollector()
    module.visit(by_visit)
    walk(module, by_walk)
    assert [id(call) for call, _ in by_walk.calls] == [id(call) for call, _ in by_visit.calls]
    for (_, scope_a), (_, scope_b) in zip(by_visit.calls, by_walk.calls):
        assert {k: [b.kind for b in v] for k, v in scope_a.bindings.items()} == {
            k: [b.kind for b in v] for k, v in scope_b.bindings.items()
        }
    assert by_walk.await_of.keys() == by_visit.await_of.keys()


class _Everything(cst.CSTVisitor):
    def __init__(self) -> None:
        self.nodes: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.nodes.append(node)
        return True


@pytest.mark.parametrize("name", sorted(FIXTURES) + sorted(CORPUS)[:20])
def test_positions_are_position_providers(name):
    module = cst.parse_module(ALL_SOURCES[name])
    everything = _Everything()
    module.visit(everything)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    nodes = everything.nodes
    for chosen in (nodes, nodes[::11], nodes[-3:], nodes[len(nodes) // 2 : len(nodes) // 2 + 2]):
        ranges = node_ranges(module, chosen)
        for node in chosen:
            want = expected[node]
            assert ranges[id(node)] == (
                (want.start.line, want.start.column),
                (want.end.line, want.end.column),
            ), type(node).__name__


class _ReplaceOnLeave(cst.CSTTransformer):
    """What fixes were applied with before walk.replaced: libcst's own transformer."""

    def __init__(self, replacements: dict) -> None:
        self.replacements = replacements

    def on_leave(self, original_node, updated_node):
        return self.replacements.get(id(original_node), updated_node)


def _marked(node: cst.CSTNode) -> cst.CSTNode:
    """A replacement that shows in the code: a name, or the node with a comment-free change."""
    if isinstance(node, cst.BaseExpression):
        return cst.Name("REPLACED")
    if isinstance(node, cst.Comma):
        return cst.Comma(whitespace_after=cst.SimpleWhitespace("   "))
    return node.deep_clone()


@pytest.mark.parametrize("name", sorted(FIXTURES) + sorted(CORPUS)[:20])
def test_replaced_writes_what_libcsts_transformer_writes(name):
    """Every 7th node (tokens included, nested ones too: an outer replacement wins) replaced at
    once; the nodes off the way to a replacement stay the same objects."""
    module = cst.parse_module(ALL_SOURCES[name])
    everything = _Everything()
    module.visit(everything)
    for step in (7, 23, 101):
        chosen = {id(node): _marked(node) for node in everything.nodes[1::step]}
        fixed, made = replaced(module, chosen)
        assert fixed.code == module.visit(_ReplaceOnLeave(chosen)).code
        assert 0 < made <= len(chosen)
        untouched = [s for s in module.body if not any(id(n) in chosen for n in _walked(s))]
        assert all(any(s is t for t in fixed.body) for s in untouched)
    assert replaced(module, {}) == (module, 0)


_STATEMENT_TYPES = (cst.SimpleStatementLine, cst.BaseCompoundStatement)


def _innermost_statements(module: cst.Module, chosen: dict) -> list[cst.CSTNode]:
    """The innermost statement around each replaced node (replacements inside a replaced node
    do not count), found by libcst's own parent links."""
    from libcst.metadata import ParentNodeProvider

    parents = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ParentNodeProvider)
    found: list[cst.CSTNode] = []
    for node in _walked(module):
        if id(node) not in chosen:
            continue
        ancestors, current = [], node
        while current in parents:
            current = parents[current]
            ancestors.append(current)
        if any(id(a) in chosen for a in ancestors):
            continue  # an outer replacement wins
        around = next((a for a in ancestors if isinstance(a, _STATEMENT_TYPES)), module)
        if all(around is not f for f in found):
            found.append(around)
    return found


@pytest.mark.parametrize("name", sorted(FIXTURES)[:12])
def test_replaced_names_the_innermost_statement_of_each_replacement(name):
    """Fix vetting parses each statement a replacement was made in, alone: `replaced` names
    them (before and after), the innermost around each replacement."""
    module = cst.parse_module(ALL_SOURCES[name])
    everything = _Everything()
    module.visit(everything)
    for step in (13, 41):
        chosen = {id(node): _marked(node) for node in everything.nodes[1::step]}
        statements: list = []
        fixed, _ = replaced(module, chosen, statements)
        befores = [before for before, _ in statements]
        expected = _innermost_statements(module, chosen)
        assert sorted(map(id, befores)) == sorted(map(id, expected))
        for before, after in statements:
            assert (after is fixed) if before is module else (after is not before)


@pytest.mark.parametrize("name", sorted(FIXTURES)[:12])
def test_replaced_in_looks_among_syntax_nodes_first_and_finds_tokens_too(monkeypatch, name):
    """`replaced_in` searches the syntax nodes (what `walk` enters) of the statements named
    first, then all their nodes, then the module's: each writes what libcst's transformer
    writes. Replacing syntax nodes (none inside another) needs no search among the tokens."""
    from mem0lint import walk as walk_module

    module = cst.parse_module(ALL_SOURCES[name])
    everything = _Everything()
    module.visit(everything)
    from mem0lint.walk import parents_within

    syntax = set(parents_within(module))  # every node `walk` enters
    every_field = walk_module._every_field
    searched_tokens: list = []
    monkeypatch.setattr(
        walk_module, "_every_field", lambda t: searched_tokens.append(t) or every_field(t)
    )
    tops = set(range(len(module.body)))
    for step in (7, 23):
        picked = everything.nodes[1::step]
        with_tokens = {id(n): _marked(n) for n in picked}
        fixed, _ = walk_module.replaced_in(module, with_tokens, tops)
        assert fixed.code == module.visit(_ReplaceOnLeave(with_tokens)).code
        inner = {id(n) for p in picked for n in _walked(p) if n is not p}
        syntax_only = {id(n): _marked(n) for n in picked if id(n) in syntax - inner}
        searched_tokens.clear()
        fixed, _ = walk_module.replaced_in(module, syntax_only, tops)
        assert fixed.code == module.visit(_ReplaceOnLeave(syntax_only)).code
        assert not searched_tokens


def test_a_fix_is_vetted_by_the_statement_it_is_in():
    """A replacement that makes a statement inside a method unparsable (a string in the quote
    of the f-string around it, before Python 3.12) is refused; only that statement is read."""
    from mem0lint import fixvet

    module = cst.parse_module(
        "class A:\n    def f(self, d):\n        x = 1\n        return f\"{d['k']}\"\n"
    )
    returned = module.body[0].body.body[0].body.body[1]
    key = [n for n in _walked(returned) if isinstance(n, cst.SimpleString)][0]
    clashing = {id(key): cst.SimpleString('"k"')}
    if sys.version_info < (3, 12):
        with pytest.raises(SyntaxError):
            fixvet._replace(module, clashing, {0})
    else:
        assert 'd["k"]' in fixvet._replace(module, clashing, {0}).code
    statements: list = []
    replaced(module, clashing, statements)
    assert [type(before).__name__ for before, _ in statements] == ["SimpleStatementLine"]
    fine = {id(key): cst.SimpleString("'j'")}
    assert "return f\"{d['j']}\"" in fixvet._replace(module, fine, {0}).code


def test_parents_read_around_the_call_answer_as_the_whole_module():
    """MEM130-MEM153 read parents from the call's top-level statement first; any node found
    nowhere there reads the rest: every answer is the whole module's."""
    from mem0lint.rules.surface.results import Parents
    from mem0lint.walk import parents_within

    module = cst.parse_module(ALL_SOURCES[sorted(FIXTURES)[0]] + "\ndef g():\n    return [1]\n")
    whole = {id(s): module for s in module.body}
    for statement in module.body:
        whole.update(parents_within(statement))
    for first in range(len(module.body)):
        parents = Parents(module)
        parents.within(first)
        statement = module.body[first]
        for key in [id(statement), *parents_within(statement)]:
            assert parents.get(key) is whole[key]
        assert parents.get(id(module)) is None
        assert len(parents._built) == 1  # nothing in its statement, nor the module, read more
        for key, parent in whole.items():
            assert parents.get(key) is parent


def test_a_module_whose_text_spells_no_mock_word_is_not_walked_for_one(monkeypatch):
    """MEM140's mock test walks the module only when its text spells a mock word (a name is
    spelled in its text); the verdicts are those of the walk."""
    from mem0lint.rules.surface import awaits

    walked: list = []
    real = awaits._mentions_a_mock
    monkeypatch.setattr(awaits, "_mentions_a_mock", lambda node: walked.append(node) or real(node))
    rules = engine.RuleSet(engine.Settings())
    async_client = "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n"
    plain = async_client + "\n\ndef f():\n    client.search('q')\n"
    mocked = plain + "\n# patch: unittest.mock\nfrom unittest.mock import patch\n"
    for text, codes, walks in ((plain, {"MEM140"}, False), (mocked, set(), True)):
        walked.clear()
        module = engine.parse(text)
        found = {d.code for d in engine.lint(module, rules, source=text)}
        assert ("MEM140" in found) == bool(codes), text
        assert bool(walked) == walks
        walked.clear()
        assert {d.code for d in engine.lint(module, rules)} == found  # no text: the walk


def test_vetting_a_fix_does_not_walk_for_a_mock_word_the_text_does_not_spell(monkeypatch):
    """Vetting checks the fixed module again, told what it spells (the text and each fix's
    code): MEM140 asks whether it spells a mock word without walking it."""
    from mem0lint.results import Applicability
    from mem0lint.rules.surface import awaits

    walked: list = []
    real = awaits._mentions_a_mock
    monkeypatch.setattr(awaits, "_mentions_a_mock", lambda node: walked.append(node) or real(node))
    rules = engine.RuleSet(engine.Settings())
    text = (
        "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n\n\n"
        "async def f():\n"
        '    client.search("q", filters={"$and": [{"user_id": "u"}, {"agent_id": "a"}]})\n'
    )
    found = engine.lint(engine.parse(text), rules, source=text)
    assert {d.code for d in found} == {"MEM140", "MEM201", "MEM403"}
    assert any(d.fix.applicability is Applicability.SAFE for d in found)  # so it was vetted
    assert not walked
    assert "Mock" in engine._spelled_after_fixes(text, [_with_edit("Mock()")])


def _with_edit(content: str):
    from mem0lint.results import Edit

    class _Found:
        edits = [Edit(content, (1, 1), (1, 1))]

    return _Found()


def _walked(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = _Everything()
    node.visit(found)
    return found.nodes


# --- string values -----------------------------------------------------------------------------

STRING_BODIES = ["", "user_id", "$and", "it's", 'a"b', "x\ny", "x\r\ny", "\\n", "é", "{x}", "\\"]


def _string_literals() -> list[str]:
    literals = []
    for prefix in ("", "r", "R", "u", "U", "b", "B", "rb", "Br"):
        for quote in ('"', "'", '"""', "'''"):
            for body in STRING_BODIES:
                literals.append(prefix + quote + body + quote)
    for source in ALL_SOURCES.values():  # every string of the fixtures and the corpus
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # a fixture of code this Python cannot parse
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
                literals.append(ast.get_source_segment(source, node) or "''")
    return literals


def test_a_string_s_value_is_libcst_s_evaluated_value():
    read = 0
    for literal in _string_literals():
        try:
            node = cst.parse_expression(literal)
        except cst.ParserSyntaxError:
            continue  # a newline in a one-quote string
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            assert _outcome(string_value, node) == _outcome(lambda n: n.evaluated_value, node)
            read += 1
    assert read > 500


def _outcome(read, node) -> tuple:
    try:
        value = read(node)
    except SyntaxError as error:  # `b"é"`: libcst parses it, Python does not
        return ("raises", type(error))
    return (type(value), value)


def test_deeply_nested_code_is_an_error_not_a_crash(tmp_path):
    from mem0lint.pipeline import check_file
    from mem0lint.sources import SourceFile

    deep = tmp_path / "deep.py"
    deep.write_text("from mem0 import Memory\nx = " + "[" * 3000 + "]" * 3000 + "\n")
    report = check_file(SourceFile(deep), engine.RuleSet(engine.Settings()), roots=[tmp_path])
    assert report.error and "nested" in report.error


# --- cache and pool, through the command line ----------------------------------------------------
def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mem0lint", *args], capture_output=True, text=True, cwd=cwd
    )


SETUP = "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
BAD = SETUP + "client.search('q', filters={'user_id': 'u'}, limit=3)\n"
GOOD = SETUP + "client.search('q', filters={'user_id': 'u'}, top_k=3)\n"


def test_cache_sees_an_edit_between_two_runs(tmp_path):
    app = tmp_path / "app.py"
    app.write_text(GOOD)
    first = run_cli("app.py", cwd=tmp_path)
    assert first.returncode == 0, first.stdout
    assert (tmp_path / ".mem0lint_cache" / ".gitignore").read_text().strip().endswith("*")
    app.write_text(BAD.replace("limit=3", "limit=4"))  # same size as before: stat alone lies
    second = run_cli("app.py", cwd=tmp_path)
    assert second.returncode == 1 and "MEM102" in second.stdout
    app.write_text(GOOD)
    assert run_cli("app.py", cwd=tmp_path).returncode == 0


def test_cache_replays_findings_in_a_check_and_rechecks_them_for_a_fix(tmp_path, monkeypatch):
    from mem0lint import batch, runner
    from mem0lint.cache import Cache
    from mem0lint.sources import SourceFile

    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text(BAD)
    sources = [SourceFile(tmp_path / "good.py"), SourceFile(tmp_path / "bad.py")]
    settings = engine.Settings()
    first = pipeline.check_files(
        sources, settings, Mode.CHECK, [tmp_path], 1, Cache(tmp_path, settings)
    )
    assert [bool(r.diagnostics) for r in first] == [False, True]

    checked = []
    real_process = runner.process

    def counting(source, *args, **kwargs):
        checked.append(source.path.name)
        return real_process(source, *args, **kwargs)

    monkeypatch.setattr(batch, "process", counting)
    again = pipeline.check_files(
        sources, settings, Mode.CHECK, [tmp_path], 1, Cache(tmp_path, settings)
    )
    assert checked == []
    assert [bool(r.diagnostics) for r in again] == [False, True]
    for before, after in zip(first[1].diagnostics, again[1].diagnostics):
        assert (before.code, before.start, before.end, before.message, before.edits) == (
            after.code,
            after.start,
            after.end,
            after.message,
            after.edits,
        )
        assert before.fix.applicability is after.fix.applicability
    assert again[1].line_of(again[1].diagnostics[0]) == first[1].line_of(first[1].diagnostics[0])

    pipeline.check_files(sources, settings, Mode.DIFF, [tmp_path], 1, Cache(tmp_path, settings))
    assert checked == ["bad.py"]  # a diff (or a fix) needs the syntax tree
    other = engine.Settings(select=("MEM201",))
    checked.clear()
    pipeline.check_files(sources, other, Mode.CHECK, [tmp_path], 1, Cache(tmp_path, other))
    assert checked == ["good.py", "bad.py"]  # other settings: other verdicts


def test_a_warm_check_prints_what_the_cold_one_printed(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "notes.md").write_text("```python\nfrom mem0 import Memory\n(\n```\n")
    for output in ("text", "json", "sarif", "github"):
        cold = run_cli("--output-format", output, ".", cwd=tmp_path)
        warm = run_cli("--output-format", output, ".", cwd=tmp_path)
        assert (cold.returncode, cold.stdout, cold.stderr) == (
            warm.returncode,
            warm.stdout,
            warm.stderr,
        )
        assert "MEM102" in warm.stdout
    assert "does not parse" in warm.stderr


def test_no_cache_writes_nothing(tmp_path):
    (tmp_path / "app.py").write_text(GOOD)
    assert run_cli("--no-cache", "app.py", cwd=tmp_path).returncode == 0
    assert not (tmp_path / ".mem0lint_cache").exists()
    assert run_cli("--cache-dir", "elsewhere", "app.py", cwd=tmp_path).returncode == 0
    assert (tmp_path / "elsewhere" / ".gitignore").exists()


def test_pool_and_serial_report_the_same(tmp_path):
    for name, source in list(CORPUS.items())[:60]:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    serial = run_cli("--no-cache", "--jobs", "1", ".", cwd=tmp_path)
    pooled = run_cli("--no-cache", "--jobs", "2", ".", cwd=tmp_path)
    assert serial.returncode == pooled.returncode == 1
    assert serial.stdout == pooled.stdout
    assert "MEM" in serial.stdout


def test_gitignore_matching_kept_its_meaning_after_the_speed_up(tmp_path, monkeypatch):
    from mem0lint.sources import discover

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".gitignore").write_text("*.gen.py\nd/\n!keep.gen.py\n")
    (repo / "a" / "b" / "c").mkdir(parents=True)
    (repo / "a" / ".gitignore").write_text("c/\nx.py\n")
    (repo / "a" / "b" / ".gitignore").write_text("/y.py\n")
    for name in ("a/x.py", "a/b/x.py", "a/b/y.py", "a/y.py", "a/b/c/z.py", "d/q.py",
                 "e/k.gen.py", "e/keep.gen.py", "e/ok.py", "top.py"):  # fmt: skip
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text("pass\n")
    monkeypatch.chdir(tmp_path)
    assert sorted(str(s.path) for s in discover(["repo"])) == [
        "repo/a/y.py",
        "repo/e/keep.gen.py",
        "repo/e/ok.py",
        "repo/top.py",
    ]
    assert list(discover(["repo/a/b"])) == []
    monkeypatch.chdir(repo / "a")
    assert sorted(str(s.path) for s in discover([".", "../e"])) == [
        "../e/keep.gen.py",
        "../e/ok.py",
        "y.py",
    ]


_GLOB_PART = st.sampled_from(["a", "b", "x.py", "*", "*.py", "**", "?", "[ab]", "d", "k.gen.py"])
_GITIGNORE_LINE = st.builds(
    lambda negate, lead, parts, trail: negate + lead + "/".join(parts) + trail,
    st.sampled_from(["", "", "!", "\\!"]),
    st.sampled_from(["", "", "/", "#"]),
    st.lists(_GLOB_PART, min_size=1, max_size=3),
    st.sampled_from(["", "", "/", " "]),
)
_PATH = st.lists(st.sampled_from(["a", "b", "d", "x.py", "y.py", "k.gen.py", "ab"]), min_size=1,
                 max_size=4).map("/".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_GITIGNORE_LINE, max_size=6), st.lists(_PATH, min_size=1, max_size=8))
@example(["a/a", "*/"], ["a"])  # `*/` is unanchored: pathspec searches, it does not match
def test_a_gitignore_asked_with_its_patterns_joined_first_answers_as_pathspec(lines, paths):
    """sources._AnyFirst asks one joined regular expression whether any pattern matches before
    pathspec tries each in turn: the answer is pathspec's for every path, file or folder."""
    import pathspec

    from mem0lint.sources import _AnyFirst

    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    fast = _AnyFirst.of(spec)
    for path in paths:
        for name in (path, path + "/"):
            assert fast.match_file(name) == spec.match_file(name), (lines, name)


HELPER = "from .clients import memory\n\n\ndef recall(q):\n    return memory.search(q, limit=3)\n"
CLIENTS = "from mem0 import MemoryClient\n\nmemory = MemoryClient()\n"


def checked_files(monkeypatch) -> list[str]:
    """Names of the files the triage hands to the check stage, recorded as they go."""
    from mem0lint import batch, runner

    checked: list[str] = []

    def counting(source, *args, **kwargs):
        checked.append(source.path.name)
        return runner.process(source, *args, **kwargs)

    monkeypatch.setattr(batch, "process", counting)
    return checked


def test_a_helper_that_imports_a_kept_module_is_kept_even_from_a_warm_cache(tmp_path, monkeypatch):
    """The helper never spells the SDK; a project index binds `memory` through `clients`."""
    from mem0lint.cache import Cache
    from mem0lint.sources import SourceFile

    (tmp_path / "helper.py").write_text(HELPER)
    (tmp_path / "unrelated.py").write_text("import re\nre.search('a', 'b')\n")
    checked = checked_files(monkeypatch)
    settings = engine.Settings()

    def run():
        sources = [SourceFile(p) for p in sorted(tmp_path.glob("*.py"))]
        cache = Cache(tmp_path / "cache", settings)
        pipeline.check_files(sources, settings, Mode.CHECK, [tmp_path], 1, cache)

    run()  # no clients module yet: nothing can be bound, nothing is parsed
    assert checked == []
    (tmp_path / "clients.py").write_text(CLIENTS)
    # Written well before the next runs: a file changed within the timestamp tick of a run is
    # never trusted by the cache (a dropped verdict now depends on the modules it resolved).
    past = time.time() - 60
    os.utime(tmp_path / "clients.py", (past, past))
    run()  # the helper's cached "dropped" verdict was for other module names
    assert sorted(checked) == ["clients.py", "helper.py"]
    checked.clear()
    run()  # warm: the clean verdicts hold (no finding without a project index)
    assert checked == []


def test_cache_entries_hold_only_for_the_folder_they_were_made_from(tmp_path, monkeypatch):
    """Entries are keyed by the paths as a run spells them: relative to its working folder."""
    from mem0lint.cache import Cache

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "app.py").write_text(GOOD)
    (tmp_path / "b" / "app.py").write_text(BAD)
    settings = engine.Settings()
    monkeypatch.chdir(tmp_path / "a")
    cache = Cache(tmp_path / "cache", settings)
    cache.remember_clean("app.py", GOOD.encode())
    cache.save()
    assert Cache(tmp_path / "cache", settings).entries
    monkeypatch.chdir(tmp_path / "b")
    assert not Cache(tmp_path / "cache", settings).entries
    result = run_cli("--cache-dir", str(tmp_path / "cache"), "app.py", cwd=tmp_path / "b")
    assert result.returncode == 1 and "MEM102" in result.stdout


def test_code_generation_records_positions_through_one_shared_context():
    """libcst's do-nothing `record_syntactic_position` (a generator per node) is replaced by one
    shared context manager: generated code still gives the source back whole, and the positions
    of calls are the ones libcst's position provider (its own recording state) gives."""
    from libcst._nodes.internal import CodegenState

    from mem0lint import positions

    assert CodegenState.record_syntactic_position is positions._record_nothing  # else it is off

    class Calls(cst.CSTVisitor):
        def __init__(self) -> None:
            self.found: list[cst.Call] = []

        def visit_Call(self, node: cst.Call) -> None:
            self.found.append(node)

    checked = 0
    for source in list(ALL_SOURCES.values())[:40]:
        module = cst.parse_module(source)
        assert module.code == source
        collector = Calls()
        module.visit(collector)
        calls = collector.found[:5]
        found = node_ranges(module, calls)
        provided = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
        for call in calls:
            where = provided[call]
            start, end = (where.start.line, where.start.column), (where.end.line, where.end.column)
            assert found[id(call)] == (start, end)
            checked += 1
    assert checked > 50


def test_parsing_skips_libcst_validation_and_builds_the_same_trees(monkeypatch):
    """engine.parse does not validate nodes (a parsed tree is valid by construction); the trees
    are the ones a validating parse builds, and nodes built outside a parse are validated, also
    after a parse that failed."""
    assert parsing._post_init_validates_only(parsing._validating)  # else the speed-up is off
    validated = []

    def recording() -> None:  # the base's validation and Name's own, which every source has
        for node_type in (cst.CSTNode, cst.Name):
            monkeypatch.setattr(node_type, "_validate", lambda self: validated.append(self))

    recording()
    for source in list(ALL_SOURCES.values())[:80]:
        module = engine.parse(source)
        assert not validated
        monkeypatch.undo()
        assert module.deep_equals(cst.parse_module(source))  # a validating parse
        recording()
    with pytest.raises(engine.ParseFailure):
        engine.parse("def (:\n")
    cst.Name("name")
    assert validated  # outside a parse, each node is validated
    monkeypatch.undo()
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


# Python with one of most kinds of node: tokens, statements, patterns, f-strings.
_EVERY_KIND_OF_NODE = """\
from . import a as b, c
from x import *
import os.path as p; del p
@decorate(1, *args, k=2, **kw)
async def f(a, /, b: int = 1, *c, d, e=-1, **g) -> "r":
    global h
    async with a as (x, y), b:
        async for i in a[1:2, ::3]:
            await x
    free = lambda q, *r: (q if r else not q) or q and r
    (w := 1); x += 1; x @= m; x **= 2; x //= 3; x >>= 1; x <<= 1; x ^= 1; x |= 1; x &= 1
    return {**a, 1: 2}, {1, *b}, [i for i in a if i], {i: j for i, j in a}, (i for i in a)
def gen():
    yield from y
class C(B, metaclass=M):
    "doc" f"x{y!r:>{w}}" r"z"; b"y"
    x: int = 1 + 2 - 3 * 4 / 5 % 6 @ 7 ** 8 // 9 | 1 & 2 ^ 3 << 1 >> 2
    def m(self): assert a is not b, a in b or a not in b or a < b <= c > d >= e != f == g
try:
    raise E from e
except* (A, B) as err:
    pass
finally:
    pass
try:
    while ~a: break
    else: pass
except E:
    pass
else:
    ...
match command:
    case [1, *rest] | {"k": 2, **kw} if rest:
        pass
    case Point(x=0, y=_) as p:
        pass
    case None | True | -1 | 1.5 | 2j | "s":
        pass
if a: pass
elif b: pass
else: pass
for i in range(3): print(i, sep="", end=None)  # a comment
with open(f) as h: h.read()
"""


def test_nodes_are_built_through_their_slots_as_their_dataclass_init_builds_them(monkeypatch):
    """Every node class's dataclass `__init__` is replaced by one that sets the slots directly
    (parsing.py); parses give the trees the dataclass `__init__`s give, and a node built from
    the same arguments, by keyword, by position or leaving defaults (and default factories) to
    the class, is the same node. Outside a parse, nodes are still validated."""
    originals = parsing.DATACLASS_INITS
    own_init = [t for t in parsing._node_types() if "__init__" in t.__dict__]
    assert len(own_init) > 150 and set(own_init) == set(originals)  # else the speed-up is off

    def with_originals(builds):
        with monkeypatch.context() as patched:
            for node_type, init in originals.items():
                patched.setattr(node_type, "__init__", init)
            return [attempt(build) for build in builds]

    def attempt(build):
        try:
            return build()
        except cst.CSTValidationError as error:
            return error

    def nodes(tree):
        stack = [tree]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children)

    sources = list(ALL_SOURCES.values())[:20] + [_EVERY_KIND_OF_NODE]
    builds = [partial(engine.parse, source) for source in sources]
    for module in [engine.parse(source) for source in sources]:
        for node in nodes(module):
            fields = dataclasses.fields(node)
            values = {f.name: getattr(node, f.name) for f in fields}
            required = {
                f.name: values[f.name]
                for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            }
            for args, keywords in (((), values), (values.values(), {}), ((), required)):
                builds.append(partial(type(node), *args, **keywords))
    built_types = {build.func for build in builds}
    for fast, slow in zip([attempt(build) for build in builds], with_originals(builds)):
        if isinstance(slow, cst.CSTValidationError):
            assert isinstance(fast, cst.CSTValidationError)
        else:
            assert fast.deep_equals(slow)
    assert len(built_types) > 60
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")
    with pytest.raises(TypeError):
        cst.Name()


def test_groups_of_settings_are_checked_in_one_pool_with_their_own_rules(tmp_path):
    """Two projects with their own settings, checked in one run: one process pool serves both
    groups (batch.check_groups), each file judged by its own group's rules, and the report is
    the serial run's."""
    from conftest import run_cli

    bad = "from mem0 import MemoryClient\n\nMemoryClient().search('q', limit=3)\n"
    for project, ignore in (("one", "[]"), ("two", '["MEM102"]')):
        folder = tmp_path / project
        folder.mkdir()
        (folder / "pyproject.toml").write_text(f"[tool.mem0lint]\nignore = {ignore}\n")
        for i in range(15):
            (folder / f"m{i}.py").write_text(bad)
    args = (
        "--no-cache",
        "--output-format",
        "concise",
        str(tmp_path / "one"),
        str(tmp_path / "two"),
    )
    serial = run_cli("-j", "1", *args)
    pooled = run_cli("-j", "2", *args)
    assert pooled.stdout == serial.stdout and pooled.exit_code == serial.exit_code == 1
    flagged = {line.split(":")[0] for line in serial.stdout.splitlines() if "MEM102" in line}
    assert len(flagged) == 15 and all("/one/" in path for path in flagged)


BAD_SEARCH = "from mem0 import MemoryClient\n\nMemoryClient().search('q', limit=3)\n"


def _thirty_files(folder: Path, text: str) -> None:
    for i in range(30):
        (folder / f"m{i:02}.py").write_text(text)


def run_watching_the_server(folder: Path, jobs: str, prelude: str = "") -> list[str]:
    """mem0lint on `folder` in a fresh process (after `prelude`): its output, then whether
    batch.prepare_workers started a fork server, whether one is left after the run, and whether
    this process imported libcst."""
    script = prelude + textwrap.dedent(
        f"""
        import sys
        from mem0lint import batch
        from mem0lint.cli import main

        started = []
        real = batch.prepare_workers

        def watched(*args, **kwargs):
            real(*args, **kwargs)
            started.append(batch._server_context is not None)

        batch.prepare_workers = watched
        try:
            main([{str(folder)!r}, "--no-cache", "--output-format", "concise", "-j", {jobs!r}])
        except SystemExit as exit:
            print("exit", exit.code)
        print("server" if any(started) else "no server")
        print("left" if batch._server_context is not None else "stopped")
        print("libcst imported" if "libcst" in sys.modules else "libcst not imported")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return result.stdout.splitlines()


def test_a_pooled_check_imports_libcst_in_its_workers_only(tmp_path):
    """With two jobs and files that spell the SDK, the workers come from a fork server that
    imported libcst and the rules while this process triaged (batch.prepare_workers), stopped
    and waited for once the run is done (its workers' time counts as this process's children's):
    this process never imports libcst, and prints what the serial run prints."""
    _thirty_files(tmp_path, BAD_SEARCH)
    pooled, serial = run_watching_the_server(tmp_path, "2"), run_watching_the_server(tmp_path, "1")
    assert pooled[-3:] == ["server", "stopped", "libcst not imported"]
    assert serial[-3:] == ["no server", "stopped", "libcst imported"]
    assert pooled[:-3] == serial[:-3] and "exit 1" in pooled
    assert sum("MEM102" in line for line in pooled) == 30


def test_a_worker_forked_from_the_server_imports_nothing_more(tmp_path):
    """The fork server imports what a worker needs before it forks one (forkserver_preload.py):
    a worker that starts (`batch._start_worker`, with what the pool sends it) and checks a file
    with a finding and a safe fix imports no module of its own on the way to its first file."""
    import pickle

    from mem0lint.modules import ModuleFinder
    from mem0lint.settings import Settings
    from mem0lint.sources import SourceFile

    path = tmp_path / "app.py"
    path.write_text(BAD_SEARCH)
    recipe = pipeline.ProjectRecipe(ModuleFinder(), {})
    start = pickle.dumps(([Settings()], recipe, dict(os.environ)))
    item = pickle.dumps((0, SourceFile(path), Mode.CHECK, [tmp_path], path.read_bytes()))
    script = textwrap.dedent(
        f"""
        import pickle, sys
        import mem0lint.forkserver_preload
        before = set(sys.modules)
        from mem0lint import batch
        batch._start_worker(*pickle.loads({start!r}))
        report = batch._work(pickle.loads({item!r}))
        print(sorted(d.code for d in report.diagnostics))
        print(sorted(set(sys.modules) - before))
        sys.stdout.flush()  # the server's exit hook ends the process without flushing
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines() == ["['MEM102', 'MEM401']", "[]"]


def test_no_fork_server_starts_for_a_tree_whose_sample_spells_no_sdk_word(tmp_path):
    """batch.prepare_workers reads a sample of the files: a tree where none spells an SDK word
    (a site-packages, a standard library) passes no file to the check, and the server's import
    would only take a core from triage."""
    for i in range(200):
        (tmp_path / f"plain{i:03}.py").write_text(f"def f{i}(x):\n    return x + {i}\n")
    (tmp_path / "uses.py").write_text("from mem0 import MemoryClient\n")  # 1 in 201
    assert run_watching_the_server(tmp_path, "2")[-4:-1] == ["exit 0", "no server", "stopped"]


def test_a_project_naming_the_sdk_starts_its_fork_server_before_discovery(tmp_path):
    """batch.start_server_early: a folder whose pyproject.toml names an SDK's distribution gets
    its fork server before discovery (its import then runs beside discovery too); the sample
    still decides, after discovery, whether it is kept. A server no pool used is killed, not
    waited for, and no process is left behind either way."""
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["mem0ai>=1.0"]\n')
    _thirty_files(tmp_path, BAD_SEARCH)
    early = (
        "from mem0lint import batch\n"
        "real_early = batch.start_server_early\n\n"
        "def watched_early(*args):\n"
        "    real_early(*args)\n"
        "    print('early' if batch._server_context is not None else 'not early')\n\n"
        "batch.start_server_early = watched_early\n"
    )
    lines = run_watching_the_server(tmp_path, "2", early)
    assert lines[0] == "early" and lines[-3:] == ["server", "stopped", "libcst not imported"]
    assert sum("MEM102" in line for line in lines) == 30

    _thirty_files(tmp_path, "def f(x):\n    return x\n")
    lines = run_watching_the_server(tmp_path, "2", early)
    assert lines[0] == "early"
    assert lines[-4:] == ["exit 0", "no server", "stopped", "libcst not imported"]


def test_a_project_that_names_no_sdk_starts_no_server_before_discovery(tmp_path):
    """Starting a server costs this process 15 ms: a folder whose install files name no SDK
    (a site-packages, a standard library) leaves the decision to the sample."""
    (tmp_path / "requirements.txt").write_text("requests\n")
    (tmp_path / "m.py").write_text("x = 1\n")
    from mem0lint import batch

    batch.start_server_early([str(tmp_path)], None)
    assert batch._server_context is None


def test_a_fork_server_that_cannot_start_leaves_the_pool_forked_as_before(tmp_path):
    """Where the fork server cannot start (no socket, no interpreter to run), prepare_workers
    gives up quietly: the workers are forked from this process, and the findings are the same."""
    _thirty_files(tmp_path, BAD_SEARCH)
    refused = (
        "import multiprocessing.forkserver\n\n"
        "def refused():\n    raise OSError('no sockets here')\n\n"
        "multiprocessing.forkserver.ensure_running = refused\n"
    )
    lines = run_watching_the_server(tmp_path, "2", refused)
    assert lines[-4:] == ["exit 1", "no server", "stopped", "libcst imported"]
    assert sum("MEM102" in line for line in lines) == 30


def test_a_pool_takes_the_largest_files_first_and_reports_in_the_serial_order(tmp_path):
    """batch.check_groups hands the pool the largest files first (a big file taken last keeps
    one worker busy while the others idle); the reports come back in the serial run's order."""
    bad = "from mem0 import MemoryClient\n\nMemoryClient().search('q', limit=3)\n"
    for i in range(40):
        (tmp_path / f"m{i:02}.py").write_text(bad + "x = 1\n" * ((i * 7) % 40))

    def reports(jobs: int) -> list[tuple]:
        options = pipeline.Options(paths=(str(tmp_path),), no_cache=True, jobs=jobs)
        return [
            (str(r.source.path), [(d.code, d.start) for d in r.diagnostics])
            for r in pipeline.run(options).reports
        ]

    serial = reports(1)
    assert reports(2) == serial and len(serial) == 40


def test_comments_are_read_only_with_findings_or_a_mem0lint_code_in_a_noqa(monkeypatch):
    """engine.lint scans the comments (every node's position) only where they can change the
    result: findings to silence, or a `noqa` naming a MEM code (MEM901/MEM902 judge no other)."""
    from conftest import lint_source

    scanned = []
    positions_of = engine.positions_of
    monkeypatch.setattr(engine, "positions_of", lambda m: scanned.append(m) or positions_of(m))
    clean = 'from mem0 import MemoryClient\nMemoryClient().search("q", filters={"user_id": "u"})'
    assert lint_source(clean + "  # noqa: E501\n") == [] and not scanned
    assert lint_source(clean + "  # noqa\n") == [] and not scanned
    unused = lint_source(clean + "  # noqa: E501, MEM201\n")
    assert [d.code for d in unused] == ["MEM901"] and len(scanned) == 1
    flagged = 'from mem0 import MemoryClient\nMemoryClient().search("q", filters={"$or": []})'
    found = lint_source(flagged + "  # noqa: E501\n")
    assert found and len(scanned) == 2  # findings a noqa might silence: read


def test_an_instance_check_on_a_node_class_answers_as_abcmeta_does():
    """Every libcst node class checks instances on its real subclasses (parsing.py), as
    `ABCMeta.__instancecheck__` would with no virtual subclass: the same answer for every node of
    a parsed tree against every node class, and for objects that are no node."""
    every = walk_subclasses(cst.CSTNode)
    assert all(type(t) is parsing._RealSubclassesOnly for t in every)  # else the speed-up is off
    assert not any(map(parsing._has_virtual_subclasses, every))
    module = engine.parse(_EVERY_KIND_OF_NODE)
    samples: list[object] = [module, "x", 1, None, cst, object()]
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        samples.append(node)
        stack.extend(node.children)
    kinds = {type(s): s for s in samples}.values()  # one of each type
    assert len(kinds) > 100
    for node_type in every:
        for sample in kinds:
            assert isinstance(sample, node_type) == abc.ABCMeta.__instancecheck__(node_type, sample)


def test_a_site_is_judged_by_the_rules_whose_applies_to_takes_it():
    """`RuleSet.judging` asks `applies_to` only of the rules that narrow it: for every call site
    of the corpus, the rules it gives are those of its dialect and method that take the site."""
    from mem0lint.settings import Settings

    rules = engine.RuleSet(Settings())
    judged = 0
    for source in list(ALL_SOURCES.values())[:80]:
        module = engine.parse(source)
        for site in engine.find_sites(module, rules.settings):
            everyone = rules.for_method(site.dialect, site.method)
            assert rules.judging(site) == [r for r in everyone if r.applies_to(site)]
            judged += 1
    assert judged > 100
    narrowing = {code for code, rule in all_rules().items() if rule.narrows}
    assert {"MEM112", "MEM901"} <= narrowing and "MEM101" not in narrowing
