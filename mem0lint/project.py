"""Receivers that come from elsewhere in the same project.

The project of a file is found from the file itself, never from the paths given on the command
line (`modules.ModuleFinder`): its package chain, the nearest project marker above it, `src/`
and declared package folders. So a file gets the same findings linted alone (pre-commit), on
stdin (`--stdin-filename`) or with its whole tree. Nothing is mapped up front: a module is
located and parsed only when a linted file asks about it (`from app.deps import memory` next to
a `memory.search(...)` call); its binding pass is then cached for the rest of the run. So files
that never reach the rules cost nothing.

What another module defines is resolved with the same binding pass as the linted file
(`binding.Resolver`), so the same rules hold: a name is a client only when every binding of it
points at the same SDK. Cycles and unknown modules resolve to None (never judged).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import libcst as cst

from mem0lint.binding import BindingCollector, ProjectLookup, Resolver
from mem0lint.clientsources import ImportTaint, may_hold_client
from mem0lint.modules import PROJECT_MARKERS, ModuleFinder
from mem0lint.parsing import guard_nesting, parsed_unvalidated
from mem0lint.sdk.dialects import DIALECTS, Dialect
from mem0lint.walk import walk

__all__ = ["PROJECT_MARKERS", "ModuleFinder", "ModuleView", "ProjectIndex", "module_names"]


def module_names(path: Path, roots: Iterable[Path]) -> list[str]:
    """Dotted names a file can be imported by: through its packages, and from each root."""
    path = Path(os.path.abspath(path))
    names: list[str] = []
    parts = [] if path.stem == "__init__" else [path.stem]
    directory = path.parent
    while (directory / "__init__.py").is_file() and directory.parent != directory:
        parts.insert(0, directory.name)
        directory = directory.parent
    if parts:
        names.append(".".join(parts))
    for root in roots:
        root = Path(os.path.abspath(root))
        if root.is_file():
            root = root.parent
        if root not in path.parents:
            continue
        relative = list(path.relative_to(root).with_suffix("").parts)
        if relative and relative[-1] == "__init__":
            relative.pop()
        name = ".".join(relative)
        if name and name not in names:
            names.append(name)
    return names


@dataclass
class _Parsed:
    collector: BindingCollector
    resolver: Resolver


# How many may-hold questions deep `ProjectIndex._judged` goes before it answers "may": each is a
# dozen Python frames, and Python's stack ends at a thousand.
_DEEPEST = 60


class ProjectIndex:
    """The modules of the project around each linted file, located and parsed on demand.

    `files` and `roots` (the paths of a run) are accepted for compatibility and ignored: what a
    file sees must not depend on what else is named (`modules.ModuleFinder`)."""

    def __init__(
        self,
        files: Iterable[Path] = (),
        roots: Iterable[Path] = (),
        finder: ModuleFinder | None = None,
    ) -> None:
        self.finder = finder if finder is not None else ModuleFinder()
        # Configured receivers apply to every module the index parses.
        self.receivers: dict[str, Dialect] = {}
        self._parsed: dict[Path, _Parsed | None] = {}
        self._active: set[tuple[str, str]] = set()  # lookups in progress (import cycles)
        self._sent: set[str] = set()
        # The may-hold questions (`may_bind`, `_may_hold`, `_folder_may_hold`), see `_judged`:
        self._answers: dict[tuple, bool] = {}
        self._open: dict[tuple, int] = {}  # the questions being answered -> their depth
        self._leaned_on = 0  # the least depth of an open question the answer leans on
        self._pending: dict[tuple, int] = {}  # answered no, leaning on an open question
        self._folder_budget = 20_000  # folder entries `_any_module_may_hold` may still read
        self._classes: dict[str, frozenset[bytes]] = {}  # `_class_names` of each module read

    @classmethod
    def for_paths(
        cls,
        paths: Iterable[str | Path] = (),
        files: Iterable[Path] = (),
        finder: ModuleFinder | None = None,
    ) -> ProjectIndex:
        """The index of a run (the paths and files given are not needed: see the class)."""
        return cls(finder=finder)

    def consulted(self) -> set[str]:
        """Files read and folders listed so far (what the verdicts of this run depend on)."""
        return self.finder.consulted

    def take_consulted(self) -> list[str]:
        """What was consulted since the last call (a worker sends each path once)."""
        new = self.finder.consulted - self._sent
        self._sent |= new
        return sorted(new)

    # Per file -------------------------------------------------------------------------------
    def view(self, path: Path) -> ModuleView:
        absolute = Path(os.path.abspath(path))
        return ModuleView(self, absolute, self.finder.module_name(absolute))

    def _parse(self, path: Path) -> _Parsed | None:
        if path not in self._parsed:
            self._parsed[path] = None  # a cycle through this module resolves to unknown
            data = self.finder.read(os.fspath(path))
            if data is None:  # unreadable or too large: nothing is known about it
                return None
            try:
                guard_nesting(data)  # libcst's parser can overflow its stack on deep nesting
                module = parsed_unvalidated(data)
                collector = BindingCollector()
                walk(module, collector)  # libcst's own `visit` rebuilds the tree (walk.py)
            except Exception:  # unparsable (or too deep): nothing is known about it
                return None
            resolver = Resolver(collector, self.view(path))
            resolver.external.update(self.receivers)
            self._parsed[path] = _Parsed(collector, resolver)
        self.finder.consulted.add(os.fspath(path))
        return self._parsed[path]

    def _cannot_bind(self, path: Path, name: str) -> bool:
        """A byte scan that spares parsing a module (`tkinter` for `tkinter.Text`): the name is
        not in it at all, or it is a module-level class, which the resolver never takes for a
        client (and which makes any other binding of the name ambiguous)."""
        data = self.finder.read(os.fspath(path))
        if data is None:
            return True
        if not _ASCII_WORD.fullmatch(name):  # never in real code: the regular expressions
            word = re.escape(name.encode())
            if re.search(rb"\b" + word + rb"\b", data) is None:
                return True
            return re.search(rb"^class[ \t]+" + word + rb"\b", data, re.MULTILINE) is not None
        word = name.encode()
        return not _spells_whole(data, word) or word in self._class_names(path, data)

    def _class_names(self, path: Path, data: bytes) -> frozenset[bytes]:
        """The names after `class` at the start of a row of the module (read once per module)."""
        key = os.fspath(path)
        names = self._classes.get(key)
        if names is None:
            names = self._classes[key] = frozenset(_CLASS_AT_ROW_START.findall(data))
        return names

    def _split(self, dotted: str, near: Path) -> tuple[Path, str] | None:
        """ "app.deps.memory" -> (app/deps.py, "memory")."""
        head, _, attr = dotted.rpartition(".")
        if not head or not attr:
            return None
        path = self.finder.locate(head, near)
        return (path, attr) if path is not None else None

    def _lookup(self, kind: str, dotted: str, near: Path) -> Dialect | None:
        found = self._split(dotted, near)
        member = None
        if found is None and kind == "instance":
            # "app.services.memory_service.memory": an attribute of a module's object (an
            # instance of a class of that module: bind/instances.py).
            found = self._split(dotted.rpartition(".")[0], near)
            member = dotted.rpartition(".")[2] or None
        if found is None:
            return None
        path, attr = found
        key = (kind, f"{path}:{attr}" + (f".{member}" if member else ""))
        if key in self._active:
            return None
        if self._cannot_bind(path, attr):
            return None
        parsed = self._parse(path)
        if parsed is None:
            return None
        self._active.add(key)
        try:
            scope = parsed.collector.end()  # what reaches the module's end, in order
            if member is not None:
                expr = cst.Attribute(value=cst.Name(attr), attr=cst.Name(member))
                return parsed.resolver.dialect_of(expr, scope)
            if kind == "instance":
                return parsed.resolver.dialect_of(cst.Name(attr), scope)
            return parsed.resolver.dialect_of(cst.Call(func=cst.Name(attr)), scope)
        except RecursionError:
            return None
        finally:
            self._active.discard(key)

    def fixture(self, path: Path, name: str) -> Dialect | None:
        """The fixture `name` from the nearest `conftest.py` above `path` that defines it, up to
        the project's top (a folder with `.git`, `pyproject.toml`, `setup.py`, `pytest.ini`...)."""
        for conftest in self._conftests(path):
            parsed = self._parse(conftest)
            if parsed is not None and name in parsed.collector.fixtures:
                key = ("fixture", f"{conftest}:{name}")
                if key in self._active:
                    return None
                self._active.add(key)
                try:
                    return parsed.resolver.dialect_of_fixture(name)
                finally:
                    self._active.discard(key)
        return None

    def conftests_may_give(self, path: Path, transports: bool = True) -> bool:
        """May a fixture that `fixture` finds for the test file `path` give a client (an HTTP
        client counted when `transports`)? Only when one of the conftest.py files it would read,
        up to the project's top, may hold one at all (`_may_hold`: its own imports, and the
        conftest.py files above it)."""
        return any(self._may_hold(conftest, transports) for conftest in self._conftests(path))

    def _conftests(self, path: Path) -> Iterator[Path]:
        """The conftest.py files above `path` that `fixture` reads, nearest first, up to the
        project's top; a folder is listed only when the search reaches it."""
        folder = os.path.dirname(os.path.abspath(path))
        top = self.finder.project_top(folder)
        while True:
            conftest = Path(folder) / "conftest.py"
            if conftest != path and "conftest.py" in self.finder.listing(folder):
                yield conftest
            parent = os.path.dirname(folder)
            if folder == top or parent == folder:
                return
            folder = parent

    def may_bind(self, dotted: str, near: Path, transports: bool = True) -> bool:
        """Could `_lookup` find a client (an HTTP client counted when `transports`) at `dotted`
        or at any name under it (`dotted.x.y`)? False only when proved not (pruning.py asks it
        of each import): `_lookup` finds none at `dotted` itself (its module is not found,
        `_cannot_bind` says so from its bytes, or nothing in it can be a client: `_may_hold`),
        and no module under it may hold one (`_folder_may_hold`: the files of `dotted.x`,
        `dotted.x.y`... in the package or in a folder every part of `dotted` leads to)."""
        near = Path(os.path.abspath(near))
        if self._finds_itself(dotted, near):  # then the answer is `near`'s alone
            return self._may_bind_uncached(dotted, near, transports)
        key = ("bind", dotted, str(near.parent), transports)
        return self._judged(key, lambda: self._may_bind_uncached(dotted, near, transports))

    def _finds_itself(self, dotted: str, near: Path) -> bool:
        head = dotted.rpartition(".")[0]
        return near in (self.finder.locate(dotted, near), head and self.finder.locate(head, near))

    def _may_bind_uncached(self, dotted: str, near: Path, transports: bool) -> bool:
        # A module that finds itself (`import valkey` in `vector_stores/valkey.py`: the folder
        # of a file is one of its roots) gives nothing through that import that it does not
        # hold by its other imports, which are judged on their own.
        head, _, attr = dotted.rpartition(".")
        if head and attr:
            path = self.finder.locate(head, near)
            elsewhere = path is not None and path != near
            if elsewhere and not self._cannot_bind(path, attr) and self._may_hold(path, transports):
                return True
        parts = dotted.split(".")
        if not all(parts):
            return False  # `locate` finds nothing for an empty part
        # A module: `dotted.x` may be anything it binds; a package's, a module under it too.
        module = self.finder.locate(dotted, near)
        if module is not None and module != near and self._may_hold_under(module, transports):
            return True
        for root in self.finder.search_folders(os.path.dirname(os.path.abspath(near))):
            folder = root
            for part in parts:
                if part not in self.finder.listing(folder):
                    break
                folder = os.path.join(folder, part)
            else:
                if self._folder_may_hold(folder, transports):
                    return True  # a folder: `dotted.x` may be a module in it that holds one
        return False

    def _may_hold_under(self, module: Path, transports: bool) -> bool:
        """May `module.x` be a client: a name of a module that may hold one, or (a package) a
        module under it that may."""
        if self._may_hold(module, transports):
            return True
        return module.stem == "__init__" and self._folder_may_hold(str(module.parent), transports)

    def _folder_may_hold(self, folder: str, transports: bool) -> bool:
        """May a module `locate` finds in `folder` or a folder under it (`folder.x`,
        `folder.x.y`...) hold a client? Not when none of them may (`_may_hold`)."""
        key = ("folder", folder, transports)
        return self._judged(key, lambda: self._any_module_may_hold(folder, transports))

    def _any_module_may_hold(self, folder: str, transports: bool) -> bool:
        """Searched within a budget of entries for the whole index (a search that reaches `/`
        or a vendored tree stops there): past it, and at a link to a folder (which may loop),
        it may."""
        for name in sorted(self.finder.listing(folder)):
            self._folder_budget -= 1
            if self._folder_budget < 0:
                return True
            stem, dot, suffix = name.partition(".")
            if not stem.isidentifier():
                continue  # no dotted name spells it
            path = os.path.join(folder, name)
            if dot and suffix in ("py", "pyi"):
                if os.path.isfile(path) and self._may_hold(Path(path), transports):
                    return True
            elif (
                not dot
                and os.path.isdir(path)
                and (os.path.islink(path) or self._folder_may_hold(path, transports))
            ):
                return True
        return False

    def _may_hold(self, path: Path, transports: bool = True) -> bool:
        """May any name of the module at `path` be a client (an HTTP client counted when
        `transports`)? Not when no call in it could be on one (`clientsources.holds_no_client`,
        judged with its own imports, asked in turn of the modules they come from): then neither
        `instance` nor `returns` finds one there. The Platform's host does not matter here: what
        a module gives another is a client, never a REST call."""
        key = ("module", os.fspath(path), transports)
        return self._judged(key, lambda: self._holds_client(path, is_test_file(path), transports))

    def _judged(self, key: tuple, judge: Callable[[], bool]) -> bool:
        """`judge()`, remembered. The may-hold questions ask one another along imports, and
        imports form cycles (a package and its modules). A question asked again while it is
        being answered says no for now, and leans on it: a client comes from outside any cycle,
        and a path to one is found without going round. An answer that leaned on a question
        still open waits (`_pending`, with the depth of the open question it leans on) until
        that question is settled, as in Tarjan's search for strongly connected components:

        - a yes settles the waiting answers above it as yes: a question asks its next one only
          to say yes when that one does, so the yes goes up to every open question, and each
          waiting answer reaches one;
        - a no that leaned on no question still open settles them as no: none reaches anything
          outside what was searched, and nothing searched holds a client;
        - a no that leans on an open question waits itself, and the answers waiting on it now
          lean on what it leans on.

        A waiting answer asked again says no and leans as it does. So a cycle with no client in
        reach is a no, and each question is judged once. A chain of imports deeper than
        `_DEEPEST` questions may (Python's stack would end first)."""
        found = self._answers.get(key)
        if found is not None:
            return found
        depth = self._open.get(key, self._pending.get(key))
        if depth is not None:
            self._leaned_on = min(self._leaned_on, depth)
            return False
        if len(self._open) >= _DEEPEST:
            return True
        depth = self._open[key] = len(self._open)
        outer, self._leaned_on = self._leaned_on, depth
        waiting = len(self._pending)
        try:
            found = judge()
        except BaseException:
            for unsettled in list(self._pending)[waiting:]:
                del self._pending[unsettled]  # they leaned on what will never be settled
            self._leaned_on = outer
            raise
        finally:
            del self._open[key]
        leans, self._leaned_on = self._leaned_on, min(outer, self._leaned_on)
        above = list(self._pending)[waiting:]
        if found or leans >= depth:
            for settled in above:
                self._answers[settled] = found
                del self._pending[settled]
            self._answers[key] = found
        else:
            for each in above:
                self._pending[each] = min(self._pending[each], leans)
            self._pending[key] = leans
        return found

    def _holds_client(self, path: Path, test: bool, transports: bool) -> bool:
        """`clientsources.may_hold_client` for the module at `path`, judged with its own
        imports. Unreadable: it may."""
        data = self.finder.read(os.fspath(path))
        if data is None:
            return True
        view = self.view(path)
        imports = ImportTaint(view, self.receivers, transports=transports)
        return may_hold_client(data, imports, view.top_level_names(), test)[0]

    def is_local(self, name: str, near: Path) -> bool:
        """Is the top-level module `name` one of the project's, seen from `near`?"""
        return self.finder.has_top_level(name, near)

    def configure(self, receivers: dict[str, str]) -> None:
        self.receivers = {name: DIALECTS[d] for name, d in receivers.items()}


class _LocalNames:
    """The project's top-level module names as one file sees them, asked one by one (pruning
    asks only about the names its imports spell)."""

    def __init__(self, index: ProjectIndex, path: Path) -> None:
        self.index, self.path = index, path

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.index.is_local(name, self.path)


class ModuleView(ProjectLookup):
    """The project as one module sees it: its own name makes relative imports absolute."""

    def __init__(self, index: ProjectIndex, path: Path, module: str | None) -> None:
        self.index = index
        self.path = path
        self.module = module

    @property
    def package(self) -> str:
        if self.module is None:
            return ""
        if self.path.name == "__init__.py":
            return self.module
        return self.module.rpartition(".")[0]

    def absolute(self, dotted: str) -> str:
        if not dotted.startswith("."):
            return dotted
        level = len(dotted) - len(dotted.lstrip("."))
        package = self.package.split(".") if self.package else []
        if level - 1 > len(package):
            return dotted  # beyond the top: unresolvable, stays relative (never found)
        base = package[: len(package) - (level - 1)]
        rest = dotted[level:]
        return ".".join([*base, rest]) if rest else ".".join(base)

    def instance(self, dotted: str) -> Dialect | None:
        return self.index._lookup("instance", dotted, self.path)

    def returns(self, dotted: str) -> Dialect | None:
        return self.index._lookup("returns", dotted, self.path)

    def may_bind_client(self, dotted: str, transports: bool = True) -> bool:
        """Could `instance` or `returns` of `dotted` (as an import of this module spells it),
        or of a name under it, be a client (an HTTP client counted when `transports`)? False
        only when proved not (ProjectIndex.may_bind)."""
        absolute = self.absolute(dotted)
        if absolute.startswith("."):
            return False  # beyond the top: never found
        return self.index.may_bind(absolute, self.path, transports)

    def top_level_names(self) -> frozenset[str]:
        return _LocalNames(self.index, self.path)  # type: ignore[return-value]

    def conftests_may_give(self, transports: bool = True) -> bool:
        """May `fixture` find a client for some name (ProjectIndex.conftests_may_give)?"""
        return is_test_file(self.path) and self.index.conftests_may_give(self.path, transports)

    def fixture(self, name: str) -> Dialect | None:
        # pytest injects conftest fixtures only into what it collects: test files and conftests.
        if not is_test_file(self.path):
            return None
        return self.index.fixture(self.path, name)


def is_test_file(path: Path) -> bool:
    """pytest's default `python_files`, plus conftest.py."""
    name = path.name
    return name == "conftest.py" or (
        name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))
    )


# `_cannot_bind` asks about hundreds of names: two regular expressions built per name were
# compiled per name (2% of a check's instructions on mem0's repository). For a name of ASCII word
# characters the same questions are a search of the bytes and one scan per module: `\bname\b`
# finds it where it stands whole, and `^class[ \t]+name\b` where the word after `class` at the
# start of a row is the name (`\w+` takes that word whole).
_ASCII_WORD = re.compile(r"[A-Za-z0-9_]+")
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_CLASS_AT_ROW_START = re.compile(rb"^class[ \t]+(\w+)", re.MULTILINE)


def _spells_whole(data: bytes, word: bytes) -> bool:
    """Does `word` (ASCII word characters) stand whole in `data`, as `\\bword\\b` finds it?"""
    at = data.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or data[at - 1] not in _WORD_BYTES) and (
            end == len(data) or data[end] not in _WORD_BYTES
        ):
            return True
        at = data.find(word, at + 1)
    return False
