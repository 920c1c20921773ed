"""Blank out what cannot matter before libcst parses a file for a check.

libcst is most of the cost of a check, and it grows with every statement it parses. Yet in a file
that uses an SDK most statements have nothing to do with it: helpers, dataclasses, plumbing.
Python's own parser (ten times faster) finds the statements; those that cannot change a finding
become empty lines, so every row and column of what is left stays where it was, and the engine,
its rules and positions run unchanged on a smaller module.

A *unit* is a statement at the module's top, or a member of a class there (the class's header is
a unit of its own). A unit is *tainted*, that is what it binds may be a client:

- when it spells a word a finding starts from (the prefilter's: an SDK's package or class name,
  a REST endpoint, a configured receiver), or imports from outside the standard library;
- when it mentions a name that a tainted unit binds (the client, its factory, `self.memory`).

A unit is kept when it is tainted (a call on a client may be judged in it), when it binds a name
that a kept unit mentions (a second binding makes a receiver ambiguous, a filter dict is
followed to its literal, a mutation makes it opaque), and always for imports that may give a
client, `*` and `__future__` imports, statements sharing a row with another, and class members
that spell a method deciding an instance's attributes (`__getattr__`, `__enter__`, ...:
bind/instances.py).

Both repeat until nothing changes. "Mentions" is every word of the unit's text, strings
and comments included. "Binds" is every name the statement can bind, as binding.py sees it
from outside the unit's own functions: a definition's name and decorators, `global` names,
walrus targets, attributes (`self.x = ...`), and for other statements every target, import,
mutated dict and capture. Each choice errs towards keeping. (A class's header never changes what
happens in its methods: binding.py judges no call on a bare `self`, only on its attributes.)

With the project in view (`ImportTaint`, given by runner.py), an import from outside the
standard library taints only when what it binds may be a client: a name of the SDK tables, a
configured receiver, or what the project index may find there (a class of a project module, or
a name it never spells, is none). When no import of the file, at any depth, may give a client,
the SDK's words taint nothing: only the configured receivers and the classes a docs page uses
unimported stay seeds (mem0's own code spells `Memory` and `memories` everywhere and imports no
client).

Before any of this, `plan` asks whether the file holds anything to judge at all: when no import
may give a client, no essential seed is spelled and (a test file) no conftest.py above it may
give a fixture that is one, no call can be on a client, and libcst is not asked to parse it
(`clientsources.may_hold_client`), unless Python cannot read it (it does not decode, or does
not parse): libcst's parse reports it (MEM002, MEM001), as it does unpruned. (A file Python
reads but libcst cannot, MEM003, is not parsed: finding that out is the parse the question
saves.) That question is asked of test files too. An HTTP client
(`requests`, `httpx`) counts as a client, in both questions, only where the module spells the
Platform's host and one of its search or list endpoints (`clientsources.may_post_to_platform`):
callsite.py judges a call on one only when it posts to a URL whose literal head names that host
and whose literal tail is that endpoint, and no rule judges any other.

Not pruned at all: test files (their fixtures may come from a conftest; seeding the conftest
fixtures that give a client was proved exact, but on test files the analysis cost as much as
it saved), Markdown pages (the same: their blocks are short and nearly all kept), sources with
`noqa` comments (suppressions read every comment; nor are they spared the parse), and sources
this Python cannot parse.
tests/test_pruning.py proves on the fixtures, every rule example and a generated corpus that
pruning changes no finding; tests/test_pruning_projects.py proves it with the project in view
(the corpus as a project, conftest fixtures), and scripts/pruning_equality.py on real trees.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import symtable
import tokenize
import warnings
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from mem0lint import prefilter
from mem0lint.bind.instances import OVERRIDES
from mem0lint.binding import DICT_MUTATORS
from mem0lint.clientsources import (
    ImportTaint,
    Source,
    _imported,
    _standard_library_only,
    may_hold_client,
    may_post_to_platform,
    python_tree,
)
from mem0lint.documents import MARKDOWN, file_type
from mem0lint.project import is_test_file
from mem0lint.sdk import dialects
from mem0lint.suppressions import mentions_noqa, names_own_code

_WORD = re.compile(r"\w+")
_ROW = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # Python's line ends, and no others
_DEFINITION = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class _Unit:
    __slots__ = (
        "first",
        "last",
        "words",
        "_binds",
        "_node",
        "_text",
        "header",
        "pass_indent",
        "always",
        "taints",
        "defines",
        "judged",
    )

    def __init__(
        self,
        first: int,
        last: int,
        words: set[str],
        binds: set[str] | None,
        node: ast.stmt | None = None,
        text: str = "",
    ) -> None:
        self.first, self.last = first, last  # 1-based rows, inclusive
        self.words = words
        # What it binds: found from `node` when first asked (`binds`). Most units are never
        # asked: they are tainted by nothing and mention nothing a kept unit needs.
        self._binds, self._node, self._text = binds, node, text
        self.header: _Unit | None = None  # a class member: its class's header
        self.pass_indent = ""  # a class member: what a `pass` in its place is indented by
        self.always = False  # kept whatever happens: an import, a statement sharing a row
        self.taints = False  # tainted whatever happens: an import that may give a client
        # A plain function's name: the binder binds its parameters from every place the name is
        # spelled (bind/params.py), so when it is kept, so is every unit that spells it.
        self.defines: frozenset[str] = frozenset()
        # An import judged by what it binds (`ImportTaint`): its words never taint it.
        self.judged = False

    @property
    def binds(self) -> set[str]:
        if self._binds is None:
            self._binds = _binds(self._node, self._text)  # type: ignore[arg-type]
            self._node = None
        return self._binds

    @property
    def binds_among_words(self) -> bool:
        """Is what it binds among its words? So in ASCII text (Python reads a non-ASCII name in
        its normal form, which the text may not spell)."""
        return self._binds is None and self._text.isascii()

    def may_bind(self, names: set[str]) -> bool:
        """Does it bind one of `names`? A unit whose binds are among its words, and that
        mentions none of them, binds none: found without reading what it binds."""
        if self.binds_among_words and self.words.isdisjoint(names):
            return False
        return not self.binds.isdisjoint(names)


@dataclass
class Layout:
    """Where the statements libcst will see start, from Python's parser: positions.py then
    generates only the statements that hold findings, not the whole module."""

    text: str  # the pruned source
    starts: list[int]  # the first code row of each top-level statement (its decorators')
    members: dict[int, list[int]]  # a class's index in `starts` -> its members' first code rows
    _offsets: list[int] = field(default_factory=list, repr=False)

    def row_offsets(self) -> list[int]:
        """The offset in `text` where each row starts (computed once)."""
        if not self._offsets and self.text:
            at = 0
            for row in _ROW.findall(self.text):
                self._offsets.append(at)
                at += len(row)
        return self._offsets


def layout_of(source: Source) -> Layout | None:
    """The layout of a text that is not pruned (a test file, a Markdown page's blocks, a
    notebook's cells), from Python's parser, as `analyse` gives it for the units it keeps: where
    each top-level statement starts, and a class's members where each has its rows to itself.
    None when this Python cannot parse it."""
    parsed = python_tree(source)
    if parsed is None:
        return None
    text, tree = parsed
    rows = _ROW.findall(text)
    layout = Layout(text, [], {})
    alone = _alone(tree.body, rows)
    members = (
        _member_rows(node, rows) if by_itself else None for node, by_itself in zip(tree.body, alone)
    )
    _add_starts(layout, zip(tree.body, members), rows)
    return layout


def _add_starts(
    layout: Layout, nodes: Iterable[tuple[ast.stmt, list[int] | None]], rows: list[str]
) -> None:
    """Append to `layout` where each of the top-level `nodes` starts, with its members' first rows
    where it is a class split into them."""
    last = 0
    for node, members in nodes:
        first = _first_row(node)
        # `a = 1; b = 2` (or a backslash between them) is one statement for libcst.
        if not (layout.starts and (first <= last or rows[first - 2].rstrip("\r\n")[-1:] == "\\")):
            layout.starts.append(first)
            if members:
                layout.members[len(layout.starts) - 1] = members
        last = node.end_lineno or node.lineno


def _member_rows(node: ast.stmt, rows: list[str]) -> list[int] | None:
    """The first rows of a class's members, where it splits into them (`_class_units`, the
    layout): none for a class whose body starts on its header's row (`class A: x = 1`) or whose
    members share rows."""
    if not isinstance(node, ast.ClassDef):
        return None
    members = node.body
    if _first_row(members[0]) <= node.lineno or not all(_alone(members, rows)):
        return None
    return [_first_row(member) for member in members]


def prune(source: Source, seeds: Iterable[str], local: frozenset[str] = frozenset()) -> Source:
    """`source` with the units that cannot matter made empty lines (a class member: `pass`);
    `source` itself when nothing is pruned.

    `seeds`: the words a finding starts from (see `seed_words`); `local`: the top-level names of
    the project's modules (one called `logging` may hold a client)."""
    return analyse(source, seeds, local)[0]


def analyse(
    source: Source,
    seeds: Iterable[str],
    local: frozenset[str] = frozenset(),
    imports: ImportTaint | None = None,
    parsed: tuple[str, ast.Module] | None = None,
) -> tuple[Source, Layout | None]:
    """`prune`, and the layout of what is left (None when this Python cannot parse it).

    `imports`: judges which imports may give a client (see `ImportTaint`); None: every import
    from outside the standard library taints. `parsed`: `python_tree(source)`, if known."""
    parsed = parsed or python_tree(source)
    if parsed is None:
        return source, None  # libcst says what is wrong, or parses what this Python cannot
    text, tree = parsed
    rows = _ROW.findall(text)
    owners = _units(tree, rows, local, imports)
    units = [u for _, unit, members in owners for u in [unit, *members]]
    seeds = frozenset(seeds)
    if imports is not None and not imports.any_gives(tree, local):
        seeds &= imports.essential  # no client can come from an import: the SDK words are moot
    kept = _kept(units, seeds)
    # A pruned class header spans its members: they go with it, and leave no `pass`.
    pruned = [
        unit
        for unit in units
        if id(unit) not in kept and (unit.header is None or id(unit.header) in kept)
    ]
    for unit in pruned:
        for row in range(unit.first, unit.last + 1):
            rows[row - 1] = _ending(rows[row - 1])
        if unit.header is not None:  # a class body may not be left empty
            rows[unit.first - 1] = unit.pass_indent + "pass" + rows[unit.first - 1]
    result = "".join(rows) if pruned else text
    layout = Layout(result, [], {})
    kept_nodes = [
        (node, [m.first for m in members]) for node, unit, members in owners if id(unit) in kept
    ]
    _add_starts(layout, kept_nodes, rows)
    if not pruned:
        return source, layout
    return (result.encode("utf-8") if isinstance(source, bytes) else result), layout


# Nothing to judge --------------------------------------------------------------------------------


def plan(
    path: Path,
    source: Source,
    seeds: Iterable[str],
    local: frozenset[str],
    imports: ImportTaint,
) -> tuple[Source, Layout | None] | None:
    """What libcst parses of `source` in a check: None when it holds nothing to judge
    (`clientsources.may_hold_client`), else the source pruned (`analyse`; itself when not
    `prunable`) and its layout. The source as it is while `unpruned()` is in effect."""
    if _OFF.get() or names_own_code(source):
        return source, None  # a MEM code in a `noqa` is judged whatever the calls are
    test = is_test_file(path)
    if not may_post_to_platform(source):
        imports = imports.without_transports()  # an HTTP client gives no finding here
    holds, parsed = may_hold_client(source, imports, local, test)
    if not holds:
        # A file Python cannot read is reported (MEM001, MEM002) as it is unpruned: libcst's
        # parse says what is wrong with it. Python's parser has read it when it was asked.
        if not _python_reads(source, parsed is not None):
            return source, None
        return None  # no call in it can be on a client, and its `noqa` name no MEM code
    if not prunable(path, source):
        return source, None
    return analyse(source, seeds, local, imports, parsed)


def _python_reads(source: Source, parsed: bool) -> bool:
    """Does Python read the file: does it decode in the encoding it declares (PEP 263; UTF-8
    without a cookie), and parse? `parsed`: Python's tree was made of it (`clientsources.
    python_tree`, which decodes UTF-8 whatever the cookie says). Else the byte scan of its imports
    judged it, and its symbol table is built: Python's parser, in C, at about two thirds of the
    cost of compiling and under half of making the tree (measured on mem0's own modules). It
    also refuses what only the symbol table refuses (`nonlocal` at the top), which libcst then
    parses, as it does unpruned."""
    if isinstance(source, str):
        text = source
    else:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
            text = source.decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError):
            return False
    if parsed:
        return True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `"\\d"` and the like: no finding of ours
        try:
            symtable.symtable(text, "<pruned>", "exec")
        except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
            return False
    return True


def _ending(row: str) -> str:
    return row[len(row.rstrip("\r\n")) :]


# Units -------------------------------------------------------------------------------------------


def _first_row(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None)
    return decorators[0].lineno if decorators else node.lineno


def _alone(nodes: list[ast.stmt], rows: list[str]) -> list[bool]:
    """For each statement: does it have its rows to itself (no `a; b`, no `class A: x = 1`)?"""
    alone = []
    for index, node in enumerate(nodes):
        first, last = _first_row(node), node.end_lineno or node.lineno
        before = rows[first - 1].encode("utf-8")
        if getattr(node, "decorator_list", None):
            clear_before = before.lstrip().startswith(b"@")
        else:
            clear_before = not before[: node.col_offset].strip()
        after = rows[last - 1].encode("utf-8")[node.end_col_offset or 0 :].strip()
        clear_after = not after or after.startswith(b"#")
        previous_end = (nodes[index - 1].end_lineno or 0) if index else 0
        following = _first_row(nodes[index + 1]) if index + 1 < len(nodes) else last + 1
        continued = first > 1 and rows[first - 2].rstrip("\r\n").endswith("\\")  # `a; \`
        alone.append(
            clear_before
            and clear_after
            and not continued
            and previous_end < first
            and following > last
        )
    return alone


def _text(rows: list[str], first: int, last: int) -> str:
    return "".join(rows[first - 1 : last])


def _unit(rows: list[str], first: int, last: int, node: ast.stmt | None = None) -> _Unit:
    """`node`: the statement, to find what it binds; None: it binds every word it spells."""
    text = _text(rows, first, last)
    words = set(_WORD.findall(text))
    if node is None:
        return _Unit(first, last, words, words)
    return _Unit(first, last, words, None, node, text)


def _units(
    tree: ast.Module, rows: list[str], local: frozenset[str], imports: ImportTaint | None = None
) -> list[tuple[ast.stmt, _Unit, list[_Unit]]]:
    """For each top-level statement: the unit that decides whether it is kept, and the units of
    its members when it is a class pruned member by member."""
    owners: list[tuple[ast.stmt, _Unit, list[_Unit]]] = []
    body = tree.body
    for node, alone in zip(body, _alone(body, rows)):
        first, last = _first_row(node), node.end_lineno or node.lineno
        if not alone:  # shares a row with another statement: kept and tainted, whatever it is
            unit = _unit(rows, first, last)
            unit.always = unit.taints = True
            owners.append((node, unit, []))
        elif isinstance(node, ast.ClassDef):
            header, *members = _class_units(node, first, last, rows)
            owners.append((node, header, members))
        else:
            unit = _unit(rows, first, last, node)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.args.args or node.args.posonlyargs
            ):
                unit.defines = frozenset({node.name})
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                # A standard library import is kept like any statement: when a kept unit
                # mentions what it binds. `*` binds what it likes; `__future__` changes parsing.
                standard = _standard_library_only(node, local)
                star = any(alias.name == "*" for alias in node.names)
                future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
                unit.always = not standard or star or future
                unit.taints = not standard
                if unit.taints and not star and imports is not None:
                    unit.judged = True
                    unit.taints = any(imports.may_give(name) for name in _imported(node))
            owners.append((node, unit, []))
    return owners


def _class_units(node: ast.ClassDef, first: int, last: int, rows: list[str]) -> list[_Unit]:
    member_rows = _member_rows(node, rows)
    if member_rows is None:
        return [_unit(rows, first, last)]  # `class A: x = 1`: one unit
    header_text = _text(rows, first, member_rows[0] - 1)
    header_words = set(_WORD.findall(header_text))
    header_binds = {node.name} | _walrus_targets(node, header_text)
    header = _Unit(first, last, header_words, header_binds)
    units = [header]
    for member, member_first in zip(node.body, member_rows):
        unit = _unit(rows, member_first, member.end_lineno or member.lineno, member)
        row = rows[member_first - 1]
        unit.pass_indent = row[: len(row) - len(row.lstrip(" \t\f"))]
        unit.header = header
        # `__getattr__`, `__enter__`, ...: whether an instance's attributes are what the class's
        # methods set (bind/instances.py) is read from the whole class.
        unit.always = not unit.words.isdisjoint(OVERRIDES)
        units.append(unit)
    return units


def _walrus_targets(node: ast.AST, text: str) -> set[str]:
    if ":=" not in text:
        return set()
    return {
        n.target.id
        for n in _nodes(node)
        if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)
    }


def _binds(node: ast.stmt, text: str) -> set[str]:
    """What `node` may bind that is seen outside its own function scopes (a superset)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        found = {node.name} | _walrus_targets(node, text)
        # `@pytest.fixture(name="client")` binds the fixture `client`.
        found.update(_QUOTED_WORD.findall(text[: text.find("def ")]))
        _statement_binds(node.body, found)
        found |= _containers_changed(node, text)
        # `[... for self.x in ...]` binds an attribute from inside an expression.
        found.update(_COMPREHENSION_ATTRIBUTE.findall(text))
        return found
    found = set()
    for inner in _nodes(node):
        if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            found.add(inner.id)
        elif isinstance(inner, ast.Attribute) and not isinstance(inner.ctx, ast.Load):
            found.add(inner.attr)
            found |= _names_in(inner.value)
        elif isinstance(inner, ast.Subscript) and not isinstance(inner.ctx, ast.Load):
            found |= _names_in(inner.value)  # filters["k"] = v
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
            if inner.func.attr in DICT_MUTATORS:
                found |= _names_in(inner.func.value)  # filters.update(...)
        elif isinstance(inner, ast.Call) and _is_setattr(inner):
            found |= _names_in(inner.args[0])  # setattr(app, name, v): app's attributes
        elif isinstance(inner, ast.alias):
            found.update(_WORD.findall(inner.asname or inner.name))
        elif isinstance(inner, _DEFINITION):
            found.add(inner.name)
            found.update(_WORD.findall(text))  # decorators, fixture names: all its words
        elif isinstance(inner, (ast.Global, ast.Nonlocal)):
            found.update(inner.names)
        elif isinstance(inner, ast.ExceptHandler) and inner.name:
            found.add(inner.name)
        elif isinstance(getattr(inner, "name", None), str):
            found.add(inner.name)  # type: ignore[attr-defined]  (match captures, type params)
        elif isinstance(getattr(inner, "rest", None), str):
            found.add(inner.rest)  # type: ignore[attr-defined]  (`case {**rest}`)
    return found


_QUOTED_WORD = re.compile(r"""['"](\w+)['"]""")
_COMPREHENSION_ATTRIBUTE = re.compile(r"\bfor\s+[^\n]*?\.\s*(\w+)\s+in\b")


def _statement_binds(body: list[ast.stmt], found: set[str]) -> None:
    """Inside a function, only `global` names and attribute targets (`self.memory = ...`) are
    seen from outside; statements are walked, expressions are not (they bind nothing else)."""
    for node in body:
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            found.update(node.names)
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
        for target in targets:
            for inner in _nodes(target):
                if isinstance(inner, ast.Attribute):
                    found.add(inner.attr)
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, name, None)
            if block:
                _statement_binds(block, found)


def _is_setattr(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Name) and call.func.id == "setattr" and bool(call.args)


def _containers_changed(function: ast.AST, text: str) -> set[str]:
    """Inside a function, the objects whose attributes may change from outside the attribute
    syntax (`st.session_state["k"] = v`, `del x[k]`, `state.update(...)`, `setattr(app, ...)`):
    the words of each such object (bind/paths.py then leaves paths through it unknown). `text`:
    the function's; without a `[` or a mutator's name in it there is nothing to walk for."""
    found: set[str] = set()
    if "[" not in text and not _MUTATOR_WORD.search(text):
        return found
    for inner in _nodes(function):
        if isinstance(inner, ast.Subscript) and not isinstance(inner.ctx, ast.Load):
            found |= _words_of(inner.value)
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
            if inner.func.attr in DICT_MUTATORS:
                found |= _words_of(inner.func.value)
        elif isinstance(inner, ast.Call) and _is_setattr(inner):
            found |= _words_of(inner.args[0])
    return found


_MUTATOR_WORD = re.compile(r"\b(?:" + "|".join([*sorted(DICT_MUTATORS), "setattr"]) + r")\b")


def _words_of(node: ast.AST) -> set[str]:
    """The names and attribute names an expression spells (`st.session_state` -> both)."""
    found = set()
    for inner in _nodes(node):
        if isinstance(inner, ast.Name):
            found.add(inner.id)
        elif isinstance(inner, ast.Attribute):
            found.add(inner.attr)
    return found


def _nodes(node: ast.AST) -> list[ast.AST]:
    """`node` and every node under it, in no particular order (what is read of them here is
    sets): a third cheaper than `ast.walk`, whose generators are most of its cost."""
    found = [node]
    for current in found:  # grows as it is read
        for name in current._fields:
            value = getattr(current, name, None)
            if isinstance(value, list):
                found.extend([item for item in value if isinstance(item, ast.AST)])
            elif isinstance(value, ast.AST):
                found.append(value)
    return found


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in _nodes(node) if isinstance(n, ast.Name)}


# Which units are kept ----------------------------------------------------------------------------


def _kept(units: list[_Unit], seeds: frozenset[str]) -> set[int]:
    """Ids of the units kept. A *tainted* unit spells a seed or a name a tainted unit binds:
    what it binds may be a client, so every unit that mentions it is tainted too. A unit that
    binds a name a kept unit mentions is kept (untainted, unless it is itself)."""
    kept: set[int] = set()
    tainted: set[int] = set()
    tainting = set(seeds)  # names a tainted unit binds, and the seeds
    mentioned: set[str] = set()  # words of kept units
    spelled: set[str] = set()  # names of kept functions: every unit spelling them is kept

    def keep(unit: _Unit, taint: bool) -> None:
        if id(unit) not in kept:
            kept.add(id(unit))
            mentioned.update(unit.words)
            spelled.update(unit.defines)
        if taint and id(unit) not in tainted:
            tainted.add(id(unit))
            tainting.update(unit.binds)
        if unit.header is not None:
            keep(unit.header, taint)  # a kept member needs its class

    changed = True
    while changed:
        changed = False
        for unit in units:
            if id(unit) in tainted:
                continue
            if unit.taints or not (unit.judged or unit.words.isdisjoint(tainting)):
                keep(unit, taint=True)
                changed = True
            elif id(unit) not in kept and (
                unit.always or unit.may_bind(mentioned) or not unit.words.isdisjoint(spelled)
            ):
                keep(unit, taint=False)
                changed = True
    # Readers of what a kept unit binds (a filter dict a fix would edit where it is defined:
    # `print(scope["$or"])` makes that edit unsafe, sharing.py) are kept too; what they mention
    # needs nothing more.
    binders = [u for u in units if id(u) in kept and not u.always]
    # A superset of what they bind (their words, where what they bind is among them): what
    # they bind is found only when a unit left out mentions one of those.
    outline = set().union(*(u.words if u.binds_among_words else u.binds for u in binders))
    bound: set[str] | None = None
    for unit in units:
        if id(unit) in kept or unit.words.isdisjoint(outline):
            continue
        if bound is None:
            bound = set().union(*(u.binds for u in binders))
        if not unit.words.isdisjoint(bound):
            kept.add(id(unit))
            if unit.header is not None:
                keep(unit.header, taint=False)
    return kept


@functools.lru_cache(maxsize=8)
def seed_words(receivers: tuple[str, ...] = ()) -> frozenset[str]:
    """The words a finding starts from, whole: each SDK package and class (or request record),
    the longest word of each REST endpoint, and the last part of each configured receiver."""
    words: set[str] = set()
    for qualified in [*dialects.CLASS_DIALECT, *dialects.RECORD_CLASSES]:
        parts = qualified.split(".")
        words.update((parts[0], parts[-1]))
    words.update(word.decode() for word in prefilter.anchors()[1])  # REST endpoints
    words.update(name.rsplit(".", 1)[-1] for name in receivers if name)
    return frozenset(words)


def prunable(path: Path, source: Source) -> bool:
    """Not test files (fixtures come from conftests), nor sources with a suppression comment
    (they must all be read), nor Markdown pages (their blocks are short and about the SDK: on
    the real repositories pruning left 97% of their text, for an analysis costing a third of
    the parse); nothing while `unpruned()` is in effect."""
    return (
        not _OFF.get()
        and not is_test_file(path)
        and not mentions_noqa(source)
        and file_type(path) != MARKDOWN
        and not _LONE_BACKSLASH.search(
            source if isinstance(source, str) else source.decode("latin-1")
        )
    )


# A line holding only `\`: with the lines before it emptied, libcst reads the code after it
# as part of the block above (`def f():\n    y = 0\n\n\\\nclient.search(...)` puts the call
# in `f`), so a pruned text would not be the program Python reads.
_LONE_BACKSLASH = re.compile(r"^[ \t\f]*\\\r?$", re.MULTILINE)


_OFF: ContextVar[bool] = ContextVar("mem0lint_unpruned", default=False)


@contextmanager
def unpruned() -> Iterator[None]:
    """No pruning within: the language server re-parses only what a change touched
    (incremental.py), so pruning, which reads the whole text again on every change and moves
    the text the parser sees wherever a taint changes, costs more than it saves there. Pruning
    never changes a finding (tests/test_pruning.py), so neither does this."""
    token = _OFF.set(True)
    try:
        yield
    finally:
        _OFF.reset(token)
