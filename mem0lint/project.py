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
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import libcst as cst

from mem0lint.binding import BindingCollector, ProjectLookup, Resolver
from mem0lint.dialects import DIALECTS, Dialect


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
        self._active: set[tuple[str, str]] = set()  # lookups in progress (import cycles)

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

    def _split(self, dotted: str) -> tuple[Path, str] | None:
        """ "app.deps.memory" -> (app/deps.py, "memory"): the longest module prefix."""
        head, _, attr = dotted.rpartition(".")
        if head in self.modules and attr:
            return self.modules[head], attr
        return None

    def _lookup(self, kind: str, dotted: str) -> Dialect | None:
        key = (kind, dotted)
        if key in self._active:
            return None
        found = self._split(dotted)
        if found is None:
            return None
        path, attr = found
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
        """The fixture `name` from the nearest `conftest.py` above `path` that defines it."""
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
            if not any(directory == r or r in directory.parents for r in self.roots):
                break
        return None

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
        return self.index._lookup("instance", dotted)

    def returns(self, dotted: str) -> Dialect | None:
        return self.index._lookup("returns", dotted)

    def fixture(self, name: str) -> Dialect | None:
        return self.index.fixture(self.path, name)
