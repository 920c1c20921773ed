"""The language server's per-change work: what it may skip or reuse, and that skipping or
reusing never changes a finding (no timings here: bench/lsp_latency.py measures)."""

from __future__ import annotations

import libcst as cst
import pytest

from mem0lint.walk import _TOKEN_TYPES, children

SAMPLE = '''\
import os
from mem0 import MemoryClient

client = MemoryClient(api_key=os.environ["K"])


@decorated(1)
async def find(query: str, *, limit: int = 3) -> list:
    """Doc."""
    res = await client.search(query, filters={"user_id": "u"})  # a comment
    for item in res[:limit]:
        if "results" in item or item.get("x", [1, 2])[0] > -1:
            yield lambda x=item: (x, [i async for i in x if i], {**x}, f"{x!r:>{limit}}")
    del res
    return [r for r in client.search("q", filters={"user_id": "u"})]


class A(B, metaclass=M):
    x: int = 1

    def m(self, *args, **kw):
        global g
        with open(p) as f, other() as (a, b):
            match = a if b else not f
        try:
            pass
        except (E, F) as e:
            raise X from e
'''


def _all_nodes(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _all_nodes(child)


def test_fast_children_are_libcsts_children_less_tokens() -> None:
    """walk.children (what MEM130's use finder walks with) gives the same nodes, in the same
    order, as libcst's `children`, less the token-only ones."""
    module = cst.parse_module(SAMPLE)
    checked = 0
    for node in _all_nodes(module):
        expected = [c for c in node.children if type(c) not in _TOKEN_TYPES]
        assert [id(c) for c in children(node)] == [id(c) for c in expected], type(node)
        checked += 1
    assert checked > 300


def test_the_lint_never_rebuilds_nodes_to_find_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: MEM130's use finder read `node.children` over the whole module, which libcst
    answers by rebuilding the node: 3 s of a 2,000-line file's lint went there (context.py's
    expected-failure scan did the same, for less). The findings must stay the same without it."""
    from mem0lint import config, context
    from mem0lint.inproject import lint_text

    text = (
        "from mem0 import MemoryClient\n\nclient = MemoryClient(api_key='k')\n\n\n"
        "def f(q):\n    res = client.search(q, filters={'user_id': 'u'})\n"
        "    for r in res:\n        print(r)\n"
        "    try:\n        client.search(q, filters={'$and': [{'user_id': 'u'}]}, limit=3)\n"
        "    except ValueError:\n        pass\n"
    )
    scans = []
    scan = context._Scan.__init__
    monkeypatch.setattr(
        context._Scan, "__init__", lambda self, *a: scans.append(1) or scan(self, *a)
    )
    before = lint_text(text, "service.py", finder=config.Finder(None))
    assert {"MEM130", "MEM201"} <= {d.code for d in before.diagnostics}
    assert scans  # the expected-failure scan (context.py) walked the module too

    def rebuilt(self):
        raise AssertionError("CSTNode.children called")

    monkeypatch.setattr(cst.CSTNode, "children", property(rebuilt))
    after = lint_text(text, "service.py", finder=config.Finder(None))
    assert [(d.code, d.start) for d in after.diagnostics] == [
        (d.code, d.start) for d in before.diagnostics
    ]


# -- incremental re-parsing (mem0lint/incremental.py) -----------------------------------------

PIECES = [
    "import os\n",
    "from mem0 import MemoryClient, Memory\n",
    "client = MemoryClient(api_key='k')\n",
    "\n\n",
    "# a comment\n",
    "    # an indented comment\n",
    "@decorator\n",
    "def f(q):\n    res = client.search(q, filters={'$and': [{'user_id': 'u'}]})\n"
    "    for r in res:\n        print(r)\n",
    "def g(x):\n  return x  # two-space indent\n",
    "class C:\n    m = Memory()\n\n    def h(self):\n        return self.m.search('q', limit=3)\n",
    "if x:\n    y = 1\nelse:\n    y = 2\n",
    "try:\n    pass\nexcept E as e:\n    raise\nfinally:\n    z = 3\n",
    "s = '''multi\nline'''\n",
    "t = (1,\n     2)\n",
    "x = 1; y = 2\n",
    "    indented = 1\n",
    "\\\n",
    "pass",
    "w = 1\r\n",
    ")\n",
    "\t\n",
]


def _random_text(rng) -> str:
    # Mostly valid code (rare pieces that break it), so that most versions parse.
    common, rare = PIECES[:15], PIECES[15:]
    count = rng.randint(1, 24)
    start = "import os\n\n\ndef first():\n    pass\n" if rng.random() < 0.8 else ""
    pieces = (rng.choice(rare if rng.random() < 0.05 else common) for _ in range(count))
    return start + "".join(pieces)


def _edit(rng, text: str) -> str:
    lines = text.split("\n")
    kind = rng.randrange(6)
    at = rng.randint(0, len(lines))
    if kind == 0:  # insert a piece at a line start
        lines[at:at] = rng.choice(PIECES).rstrip("\n").split("\n")
    elif kind == 1 and lines:  # delete some lines
        del lines[at : at + rng.randint(1, 3)]
    elif kind == 2 and text:  # one character typed somewhere
        where = rng.randint(0, len(text))
        return text[:where] + rng.choice("x :(\n #'\"") + text[where:]
    elif kind == 3 and text:  # one character deleted
        where = rng.randrange(len(text))
        return text[:where] + text[where + 1 :]
    elif kind == 4 and at < len(lines):  # (un)indent a line
        line = lines[at]
        lines[at] = line[4:] if line.startswith("    ") else "    " + line
    else:  # a line's text changed, the way typing a name does
        if at < len(lines):
            lines[at] = lines[at].replace("1", "12").replace("q", "query")
    return "\n".join(lines)


def _cold_or_error(text):
    from mem0lint import engine

    try:
        return engine.parse(text, guarded=True)
    except engine.ParseFailure as error:
        return ("error", str(error), error.position)


@pytest.mark.parametrize("as_bytes", [False, True])
def test_reparsing_after_random_edits_gives_the_cold_parse(as_bytes: bool) -> None:
    """Property: whatever the edits, the module from re-parsing only around the change is the
    module a cold parse of the new text gives (node for node, and its header, footer, indent,
    newline, final newline), and a text that does not parse fails with the same error."""
    import random

    from mem0lint import engine
    from mem0lint.incremental import Reparser

    rng = random.Random(12)
    reused = 0
    for _ in range(120):
        reparser = Reparser()
        text = _random_text(rng)
        for _ in range(12):
            source = text.encode("utf-8") if as_bytes else text
            cold = _cold_or_error(source)
            try:
                warm = reparser.parse(source)
            except engine.ParseFailure as error:
                warm = ("error", str(error), error.position)
            if isinstance(cold, tuple):
                assert warm == cold, text
            else:
                assert isinstance(warm, cst.Module), text
                assert warm.code == cold.code, text  # (libcst drops a lone `\\` line)
                assert warm.deep_equals(cold), text
                reused += reparser.reused
            text = _edit(rng, text)
    assert reused > 300  # the property held where statements were reused, not only cold


def _findings(report, with_fixes: bool = True) -> list:
    found = []
    for d in report.diagnostics:
        row = [d.code, d.start, d.end, d.message, d.severity.value, d.cell]
        if with_fixes:
            fix = d.fix
            row += [
                None if fix is None else (fix.applicability.value, fix.message),
                [(e.content, tuple(e.location), tuple(e.end_location)) for e in d.edits],
            ]
        found.append(row)
    return found


def test_the_servers_lint_of_edited_versions_is_a_cold_lint(tmp_path, monkeypatch) -> None:
    """Property, through the server's own path (Mem0lintServer._run_python: incremental re-parse,
    findings placed from the re-parse's layout, results kept per unchanged statement (memo.py),
    fix vetting deferred): after every random edit of a real module, the findings equal a cold
    `lint_text` of the new text; once the deferred vetting has run, so do the fixes."""
    import random

    from mem0lint import config, engine, problems
    from mem0lint.inproject import lint_text
    from mem0lint.server import Mem0lintServer

    whole = []  # lints that generated the whole module to place findings
    node_ranges = engine.node_ranges
    monkeypatch.setattr(
        engine, "node_ranges", lambda *a: whole.append(1) or node_ranges(*a), raising=True
    )

    rng = random.Random(7)
    base = (
        "from mem0 import MemoryClient, Memory\n\nclient = MemoryClient(api_key='k')\n"
        "memory = Memory()\n\n\n"
        "def first():\n    pass\n\n\n"
        "def recall(user_id):\n"
        "    hits = client.search('q', filters={'$and': [{'user_id': user_id}]}, limit=3)\n"
        "    found = memory.search('q', user_id=user_id, limit=5)\n"
        "    for item in hits:\n        print(item)\n    return found\n\n\n"
        "def tidy(rows):\n    return sorted(rows)\n\n\n"
        "client.search('q', filters={'user_id': 'u', 'agent_id': 'a'}, top_k=3)\n"
        "memory.get_all(user_id='u', limit=3)\n\n\n"
        "@cached  # a decorated function, its comment\n"
        "def lookup(user_id):\n"
        "    rows = client.search('é', filters={'$and': [{'user_id': user_id}]}, limit=2)\n"
        "    return rows[0]\n\n\n"
        "class Store:\n    m = Memory()\n\n"
        "    def find(self, q):\n"
        "        return [r for r in self.m.search(q, user_id='ü', limit=2)]\n"
    )
    server = Mem0lintServer()
    path = tmp_path / "service.py"
    compared = reused = lints = memo_hits = served_whole = 0
    for _ in range(8):
        uri = f"file:///doc{rng.random()}.py"
        text = base
        for _ in range(10):
            before = len(whole)
            report, unvetted = server._run_python(uri, path, text.encode("utf-8"))
            served_whole += len(whole) - before
            reused += server.reparsers[uri].reused
            memo_hits = max(memo_hits, server.memos[uri].hits)
            lints += 1
            cold = lint_text(text.encode("utf-8"), path, finder=config.Finder(None))
            if cold.error:  # the server reports an error as a finding (as the CLI does)
                problems.attach([cold])
            assert report.error == cold.error, text
            assert _findings(report, with_fixes=False) == _findings(cold, with_fixes=False), text
            for vet in unvetted:
                vet()
            assert _findings(report) == _findings(cold), text
            compared += len(cold.diagnostics)
            lines = text.split("\n")
            at = rng.randrange(len(lines))
            choice = rng.randrange(4)
            if choice == 0:
                lines[at] = lines[at].replace("limit", "top_k").replace("'$and'", "'AND'")
            elif choice == 1:
                inserted = ["", "# note", "    x = 1", "y = client", "# ünï", "@wrap", "    # é"]
                lines.insert(at, rng.choice(inserted))
            elif choice == 2:
                del lines[at]
            else:
                lines[at] = lines[at].replace("user_id", "agent_id")
            text = "\n".join(lines)
    assert compared > 100 and reused > 50
    assert memo_hits > 0  # MEM130's parent maps of unchanged statements were reused
    # The server placed findings from its re-parse's layout, not by generating the module.
    assert served_whole < lints / 4, (served_whole, lints)


def test_unpruned_turns_pruning_off_only_within(tmp_path) -> None:
    from mem0lint import pruning

    path, text = tmp_path / "service.py", "import os\n"
    assert pruning.prunable(path, text)
    with pruning.unpruned():
        assert not pruning.prunable(path, text)
    assert pruning.prunable(path, text)


def test_the_server_keeps_project_and_versions_only_while_what_they_read_is_unchanged(
    tmp_path,
) -> None:
    """The SDK releases and the project index are kept between lints of a document (no lock
    file re-read, no imported module re-parsed per keystroke), and dropped as soon as a module
    they read changes: the findings follow the other module's new text."""
    import os

    from mem0lint.server import Mem0lintServer

    # A repository: what the server stamps stops at its top, so files other processes write in
    # /tmp meanwhile cannot make it drop what it kept.
    (tmp_path / ".git").mkdir()
    package = tmp_path / "app"
    package.mkdir()
    (package / "__init__.py").write_text("")
    clients = package / "clients.py"
    clients.write_text("from mem0 import MemoryClient\n\nclient = MemoryClient(api_key='k')\n")
    service = package / "service.py"
    text = (
        b"from app.clients import client\n\n"
        b"client.search('q', filters={'$and': [{'user_id': 'u'}]}, top_k=3)\n"
    )
    server = Mem0lintServer()
    uri = service.as_uri()
    first, _ = server._run_python(uri, service, text)
    assert "MEM201" in [d.code for d in first.diagnostics]
    again, _ = server._run_python(uri, service, text + b"\n")
    assert server.kept.reused == 1
    assert [d.code for d in again.diagnostics] == [d.code for d in first.diagnostics]
    clients.write_text("client = object()\n")
    stamp = os.stat(clients).st_mtime_ns + 2_000_000_000
    os.utime(clients, ns=(stamp, stamp))
    changed, _ = server._run_python(uri, service, text)
    assert server.kept.reused == 1  # not reused: clients.py changed
    assert "MEM201" not in [d.code for d in changed.diagnostics]
    (tmp_path.parent / f"{tmp_path.name}-sibling").mkdir()  # written above the repository
    server._run_python(uri, service, text)
    assert server.kept.reused == 2
    (tmp_path / "uv.lock").write_text("")  # a lock file created in the repository: read again
    stamp = os.stat(tmp_path).st_mtime_ns + 2_000_000_000
    os.utime(tmp_path, ns=(stamp, stamp))
    server._run_python(uri, service, text)
    assert server.kept.reused == 2


def test_the_server_splits_a_text_into_lines_once() -> None:
    """Regression: every diagnostic position split the whole text again (two per finding)."""
    from mem0lint.server import Mem0lintServer

    server = Mem0lintServer()
    text = "a\nbc\n"
    lines = server._lines(text)
    assert lines == ["a", "bc", ""]
    assert server._lines(text) is lines
    assert server._lines("x\ny") == ["x", "y"]


def test_the_statement_memo_reuses_a_result_only_for_the_same_statement_object() -> None:
    """memo.py: a result is reused for the very node object it was computed from (libcst nodes
    never change), never for an equal-looking new one, and forgotten once the statement is gone;
    outside `active` nothing is kept."""
    from mem0lint import memo

    first = cst.parse_module("x = 1\n").body[0]
    again = cst.parse_module("x = 1\n").body[0]  # the same text, another object
    calls = []

    def compute(statement):
        calls.append(statement)
        return len(calls)

    assert memo.statement_result("p", first, compute) == 1
    assert memo.statement_result("p", first, compute) == 2  # no memo active: computed again
    kept = memo.StatementMemo()
    with memo.active(kept):
        assert memo.statement_result("p", first, compute) == 3
        assert memo.statement_result("p", first, compute) == 3
        assert memo.statement_result("q", first, compute) == 4  # another purpose
        assert memo.statement_result("p", again, compute) == 5
    assert kept.hits == 1
    kept.keep_only([again])
    assert len(kept) == 1
    with memo.active(kept):
        assert memo.statement_result("p", again, compute) == 5
        assert memo.statement_result("p", first, compute) == 6


def test_a_walk_leaves_no_reference_cycle_holding_its_visitor() -> None:
    """Regression: `walk`'s recursive closure was a reference cycle holding the visitor (and
    the tree it keeps), freed only by the cycle collector's next full pass."""
    import gc
    import weakref

    from mem0lint.walk import walk

    class Names(cst.CSTVisitor):
        def __init__(self) -> None:
            self.seen: list[str] = []

        def visit_Name(self, node: cst.Name) -> None:
            self.seen.append(node.value)

    enabled = gc.isenabled()
    gc.disable()
    try:
        visitor = Names()
        walk(cst.parse_module(SAMPLE), visitor)
        assert "client" in visitor.seen
        gone = weakref.ref(visitor)
        del visitor
        assert gone() is None  # freed by its reference count, no collection needed
    finally:
        if enabled:
            gc.enable()


def test_the_server_makes_the_full_collections_itself() -> None:
    """`mem0lint server` runs full cycle collections itself: after the first lint (then freezes
    what is loaded), after FORCED_COLLECT lints without a pause, and once the typing has paused
    for QUIET_COLLECT seconds; a new change cancels a pending quiet collection."""
    import asyncio
    import gc

    from mem0lint import server as served

    thresholds = gc.get_threshold()
    server = served.Mem0lintServer()
    linted = []

    async def lint(uri: str) -> None:
        linted.append(uri)

    server._lint = lint  # no client, no workspace: what is linted does not matter here
    server.collect_when_quiet()
    try:
        assert gc.get_threshold()[2] > 10**6  # Python no longer schedules full collections

        async def scenario() -> None:
            await server._collected_after_lint()  # the first lint
            assert server.frozen and server.uncollected == 0 and gc.get_freeze_count() > 0
            for _ in range(served.FORCED_COLLECT - 1):
                await server._collected_after_lint()
            assert server.uncollected == served.FORCED_COLLECT - 1
            await server._collected_after_lint()
            assert server.uncollected == 0  # forced: no pause came
            await server._collected_after_lint()
            await server._drive()  # nothing wanted: a quiet collection is timed
            assert server.quiet_timer is not None
            server.schedule("file:///nowhere.py")  # a change: the timer is cancelled
            assert server.quiet_timer is None
            await server.driver
            assert linted == ["file:///nowhere.py"]
            assert server.quiet_timer is not None and server.uncollected == 2
            await asyncio.sleep(served.QUIET_COLLECT + 0.5)
            assert server.uncollected == 0

        asyncio.run(scenario())
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        server.worker.shutdown()
