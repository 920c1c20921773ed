"""Receivers that come from elsewhere in the same project.

One project = the paths given on the command line. The index is built once per run and is cheap:
it only maps module names to files (`app.deps` -> `app/deps.py`, by package `__init__.py` files
and by position under each given folder). A module is parsed only when a linted file asks about
it (`from app.deps import memory` next to a `memory.search(...)` call); its binding pass is then
cached for the rest of the run. So files that never reach the rules cost nothing beyond the walk.

What another module defines is resolved with the same binding pass as the linted file
(`binding.Resolver`), so the same rules hold: a name is a client only when every binding of it
points at the same SDK. Cycles and unknown modules resolve to None (never judged).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import libcst as cst

from mem0lint.binding import BindingCollector, ProjectLookup, Resolver
from mem0lint.dialects import DIALECTS, Dialect

# Files that mark the top of a project: pytest collects no conftest.py above it.
PROJECT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini")


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


class ProjectIndex:
    """Module name -> file for every Python file of the project; parsed modules on demand."""

    def __init__(self, files: Iterable[Path], roots: Iterable[Path] = ()) -> None:
        self.roots = [Path(os.path.abspath(r)) for r in roots]
        self.modules: dict[str, Path] = {}
        self.names: dict[Path, list[str]] = {}
        for file in files:
            absolute = Path(os.path.abspath(file))
            if absolute.suffix not in (".py", ".pyi"):
                continue
            names = module_names(absolute, self.roots)
            self.names[absolute] = names
            for name in names:
                self.modules.setdefault(name, absolute)
        # Configured receivers apply to every module the index parses.
        self.receivers: dict[str, Dialect] = {}
        self._parsed: dict[Path, _Parsed | None] = {}
        self._top_level: frozenset[str] | None = None
        self._active: set[tuple[str, str]] = set()  # lookups in progress (import cycles)
        self._missing: set[tuple[str, Path]] = set()  # modules not found from a folder

    @classmethod
    def for_paths(cls, paths: Iterable[str | Path], files: Iterable[Path]) -> ProjectIndex:
        """The project of a run: the files found under the given paths, plus the rest of the
        packages those paths sit in (so `mem0lint app/search.py` still sees `app/memory.py`)."""
        from mem0lint.sources import discover

        roots = [Path(p) for p in paths]
        all_files = list(files)
        for given in roots:
            top = Path(os.path.abspath(given))
            top = top if top.is_dir() else top.parent
            inside_package = (top / "__init__.py").is_file()
            while (top / "__init__.py").is_file() and top.parent != top:
                top = top.parent
            if inside_package:
                all_files.extend(s.path for s in discover([str(top)]))
                roots.append(top)
        return cls(all_files, roots)

    # Per file -------------------------------------------------------------------------------
    def view(self, path: Path) -> ModuleView:
        absolute = Path(os.path.abspath(path))
        names = self.names.get(absolute) or module_names(absolute, self.roots)
        return ModuleView(self, absolute, names[0] if names else None)

    def _parse(self, path: Path) -> _Parsed | None:
        if path not in self._parsed:
            self._parsed[path] = None  # a cycle through this module resolves to unknown
            try:
                module = cst.parse_module(path.read_bytes())
            except Exception:  # unreadable or unparsable: nothing is known about it
                return None
            collector = BindingCollector()
            module.visit(collector)
            resolver = Resolver(collector, self.view(path))
            resolver.external.update(self.receivers)
            self._parsed[path] = _Parsed(collector, resolver)
        return self._parsed[path]

    def _cannot_bind(self, path: Path, name: str) -> bool:
        """A byte scan that spares parsing a module (`tkinter` for `tkinter.Text`): the name is
        not in it at all, or it is a module-level class, which the resolver never takes for a
        client (and which makes any other binding of the name ambiguous)."""
        try:
            data = path.read_bytes()
        except OSError:
            return True
        word = re.escape(name.encode())
        if re.search(rb"\b" + word + rb"\b", data) is None:
            return True
        return re.search(rb"^class[ \t]+" + word + rb"\b", data, re.MULTILINE) is not None

    def _split(self, dotted: str, near: Path) -> tuple[Path, str] | None:
        """ "app.deps.memory" -> (app/deps.py, "memory")."""
        head, _, attr = dotted.rpartition(".")
        if not head or not attr:
            return None
        path = self.modules.get(head) or self._locate(head, near)
        return (path, attr) if path is not None else None

    def _locate(self, module: str, near: Path) -> Path | None:
        """A module outside the given paths, found from the importing file's folders up to the
        project's top (how `pytest` and `python -m` put folders on `sys.path`)."""
        key = (module, near.parent)
        if key in self._missing:
            return None
        relative = Path(*module.split("."))
        for directory in near.parents:
            for candidate in (
                directory / relative.with_suffix(".py"),
                directory / relative / "__init__.py",
            ):
                if candidate.is_file():
                    self.modules[module] = candidate
                    return candidate
            if any((directory / marker).exists() for marker in PROJECT_MARKERS):
                break
        self._missing.add(key)
        return None

    def _lookup(self, kind: str, dotted: str, near: Path) -> Dialect | None:
        key = (kind, dotted)
        if key in self._active:
            return None
        found = self._split(dotted, near)
        if found is None:
            return None
        path, attr = found
        if self._cannot_bind(path, attr):
            return None
        parsed = self._parse(path)
        if parsed is None:
            return None
        self._active.add(key)
        try:
            scope = parsed.collector.module_scope
            if kind == "instance":
                return parsed.resolver.dialect_of(cst.Name(attr), scope)
            return parsed.resolver.dialect_of(cst.Call(func=cst.Name(attr)), scope)
        finally:
            self._active.discard(key)

    def fixture(self, path: Path, name: str) -> Dialect | None:
        """The fixture `name` from the nearest `conftest.py` above `path` that defines it, up to
        the project's top (a folder with `.git`, `pyproject.toml`, `setup.py`, `pytest.ini`...)."""
        for directory in path.parents:
            conftest = directory / "conftest.py"
            if conftest != path and conftest.is_file():
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
            if any((directory / marker).exists() for marker in PROJECT_MARKERS):
                break
        return None

    def top_level_names(self) -> frozenset[str]:
        if self._top_level is None:
            self._top_level = frozenset(name.split(".", 1)[0] for name in self.modules)
        return self._top_level

    def configure(self, receivers: dict[str, str]) -> None:
        self.receivers = {name: DIALECTS[d] for name, d in receivers.items()}


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

    def top_level_names(self) -> frozenset[str]:
        return self.index.top_level_names()

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
