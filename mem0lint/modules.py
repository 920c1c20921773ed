"""Where a module of the project is, seen from the file that imports it; never from what is named.

A file gets the same findings whether it is linted alone (pre-commit passes only changed files),
on stdin (`--stdin-filename`, what editors use) or with its whole tree: so the other modules of
its project are found on disk from the file itself, never from the paths given on the command
line, and read only when needed (lazily, cached for the run; never imported or executed).

Module roots of a file (where `import a.b` is looked for, first hit wins):
- the file's own folders, from its folder up to the top of its project (how `pytest` and
  `python -m` put folders on `sys.path`); the top is the nearest folder holding one of
  `PROJECT_MARKERS` (`pyproject.toml`, `.git`, `setup.py`, `setup.cfg`, ...);
- then the package folders the project declares: `src/` when it exists, `package-dir` /
  `packages.find.where` in `pyproject.toml` (`[tool.setuptools]`), `package_dir` / `where` in
  `setup.cfg`, `package_dir={"": "..."}` in `setup.py` (read as text).

A file's module name (what its relative imports start from): its package chain (folders with
`__init__.py`), placed under the deepest module root at or above the chain's top, so namespace
packages (no `__init__.py`) and `src/` layouts get their full names.

A file that spells no SDK word can still hold a finding when a name it imports from the project
leads to a client (`from .memory import client`): `reaches_sdk` follows its imports (only names
it uses again, then every import of the modules reached: re-export chains), and the conftest.py
files above a test file, and says whether any module reached spells an SDK word. Bounded: a
budget of modules per question, a depth, cycles cut; results cached per module.

Everything whose state decided an answer (files read, folders listed) is recorded in
`consulted`, so a cached verdict can be dropped when one of them changes (cache.py).

No libcst here: the prefilter uses this module before anything is parsed.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Union

from mem0lint.prefilter import may_matter

if TYPE_CHECKING:
    from mem0lint.sources import Coverage

# Files that mark the top of a project: pytest collects no conftest.py above it.
PROJECT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini")
MAX_MODULES = 5000  # modules one `reaches_sdk` question may read
MAX_DEPTH = 100  # import edges followed from the file (the search recurses)
MAX_READ = 10 * 1024 * 1024  # modules bigger than this are not read (runner's limit too)

_MODULE = re.compile(rb"\.*(?:\w+(?:\.\w+)*)?")
_ALIAS = re.compile(rb"([\w.]+)(?:[ \t]+as[ \t]+(\w+))?")
_SETUP_CFG_DIR = re.compile(r"^\s*(?:package_dir\s*=\s*(?:\n\s*)?=|where\s*=)\s*([\w./-]+)", re.M)
_SETUP_PY_DIR = re.compile(r"package_dir\s*=\s*\{\s*['\"]{2}\s*:\s*['\"]([\w./-]+)['\"]")

Import = tuple  # (level, module parts, [(imported name or None, bound name)])


def imports(data: bytes) -> list[Import]:
    """The import statements a byte scan finds (those inside strings too: a superset).
    `from ..a.b import c as d` -> (2, ["a", "b"], [("c", "d")]); `import a.b as m` ->
    (0, ["a", "b"], [(None, "m")]); `import a.b` -> (0, ["a", "b"], [(None, "a")]).
    Found from each `import` word (a literal search, far faster than a multi-line regex)."""
    found: list[Import] = []
    at = data.find(b"import")
    while at >= 0:
        line_start = data.rfind(b"\n", 0, at) + 1
        # `"from x import y\n",` in a notebook's JSON: the quote opens the cell's line.
        head = data[line_start:at].rsplit(b";", 1)[-1].strip(b" \t").lstrip(b'"')
        body = _statement_rest(data, at + 6)
        at = data.find(b"import", at + 6)
        if not head:
            for part in body.split(b","):
                alias = _ALIAS.search(part)
                if alias is None:
                    continue
                dotted = alias.group(1).decode("utf-8", "replace")
                bound = alias.group(2).decode("utf-8", "replace") if alias.group(2) else None
                found.append((0, dotted.split("."), [(None, bound or dotted.split(".")[0])]))
            continue
        if not head.startswith(b"from") or head[4:5] not in (b" ", b"\t", b"."):
            continue
        module_text = head[4:].replace(b" ", b"").replace(b"\t", b"")
        if not _MODULE.fullmatch(module_text):
            continue
        level = len(module_text) - len(module_text.lstrip(b"."))
        module = [p.decode("utf-8", "replace") for p in module_text[level:].split(b".") if p]
        names = []
        for part in body.strip(b"() \t\r\n").split(b","):
            alias = _ALIAS.search(part)
            if alias is None or b"*" in part:
                continue
            name = alias.group(1).decode("utf-8", "replace")
            names.append((name, (alias.group(2) or alias.group(1)).decode("utf-8", "replace")))
        found.append((level, module, names))
    return found


def _statement_rest(data: bytes, at: int) -> bytes:
    """What follows `import` up to the end of the statement: a parenthesised list, or the
    line with its backslash continuations, cut at `;` or `#` (within 4 KB of `at`)."""
    # Most statements are one short plain row: the rest of the row, read without a window.
    row_end = data.find(b"\n", at)
    if 0 <= row_end - at < 194 and data[at : at + 1] in (b" ", b"\t"):
        row = data[at:row_end].lstrip(b" \t").rstrip(b"\r")
        if not (row[:1] == b"(" or row[-1:] == b"\\" or b"#" in row or b";" in row or b"\r" in row):
            return row
    rest = data[at : at + 256]  # most other statements end well within it: no 4 KB copy
    if rest[:1] not in (b" ", b"\t", b"("):
        return b""
    found = _rest_within(rest, False)
    return _rest_within(data[at : at + 4096], True) if found is None else found


def _rest_within(rest: bytes, last: bool) -> Union[bytes, None]:
    """`_statement_rest` read in `rest`; None when the statement may go on past it (unless
    `rest` is the `last` window: its end ends the statement)."""
    stripped = rest.lstrip(b" \t")
    if stripped.startswith(b"("):
        close = stripped.find(b")")
        if close < 0:
            return b"" if last else None
        return stripped[1:close]
    lines = []
    position = 0
    while position <= len(stripped):
        end = stripped.find(b"\n", position)
        if end < 0:
            if not last:
                return None
            end = len(stripped)
        line = stripped[position:end].rstrip(b"\r")
        position = end + 1
        cut = min((i for i in (line.find(b"#"), line.find(b";")) if i >= 0), default=-1)
        if cut >= 0:
            lines.append(line[:cut])
            break
        if line.endswith(b"\\"):
            lines.append(line[:-1])
            continue
        lines.append(line)
        break
    return b" ".join(lines)


class ModuleFinder:
    """The module roots of files, and modules located and scanned on demand; one per run."""

    def __init__(self) -> None:
        self._listings: dict[str, Union[frozenset[str], None]] = {}
        self._tops: dict[str, Union[str, None]] = {}
        self._declared: dict[str, tuple[str, ...]] = {}
        self._located: dict[tuple[str, str], Union[str, None]] = {}
        self._names: dict[str, Union[str, None]] = {}
        # Per set of external names: {module: whether it leads to an SDK word}.
        self._reach: dict[tuple, dict[str, bool]] = {}
        self._used_targets: dict[str, tuple[str, ...]] = {}
        self._all_targets: dict[str, tuple[str, ...]] = {}
        self._package_names: dict[tuple[str, str], tuple[str, ...]] = {}
        self._search: dict[str, list[str]] = {}
        self._under_cache: dict[tuple[str, str], Union[str, None]] = {}
        self._may_matter: dict[tuple[str, tuple], bool] = {}
        self._data: dict[str, Union[bytes, None]] = {}
        self.consulted: set[str] = set()  # files read and folders listed, absolute
        # The walk that found the run's files, when they are all of one triage: the folders
        # it saw whole (`uncovered_targets`). None: every import is resolved.
        self.coverage: Union[Coverage, None] = None
        self._covered_heads: dict[tuple[str, str], bool] = {}

    # The file system, cached -------------------------------------------------------------------
    def listing(self, folder: str) -> frozenset[str]:
        found = self._listings.get(folder, False)
        if found is False:
            try:
                found = frozenset(os.listdir(folder))
            except OSError:
                found = None
            self._listings[folder] = found
        self.consulted.add(folder)
        return found or frozenset()

    def read(self, path: str) -> Union[bytes, None]:
        if path not in self._data:
            try:
                with open(path, "rb") as handle:
                    data = handle.read(MAX_READ + 1)
                self._data[path] = None if len(data) > MAX_READ else data
            except OSError:
                self._data[path] = None
        self.consulted.add(path)
        return self._data[path]

    def _is_file(self, folder: str, name: str) -> bool:
        return name in self.listing(folder) and os.path.isfile(os.path.join(folder, name))

    # Roots --------------------------------------------------------------------------------------
    def project_top(self, folder: str) -> Union[str, None]:
        """The nearest folder at or above `folder` that holds a project marker."""
        if folder in self._tops:
            return self._tops[folder]
        seen = []
        top = None
        current = folder
        while True:
            if current in self._tops:
                top = self._tops[current]
                break
            seen.append(current)
            listing = self.listing(current)
            if any(marker in listing for marker in PROJECT_MARKERS):
                top = current
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        for folder_seen in seen:
            self._tops[folder_seen] = top
        return top

    def declared_roots(self, top: str) -> tuple[str, ...]:
        """`src/` and the package folders the project's build configuration declares."""
        if top in self._declared:
            return self._declared[top]
        roots: list[str] = []
        listing = self.listing(top)
        texts = {}
        for name in ("pyproject.toml", "setup.cfg", "setup.py"):
            if name in listing:
                data = self.read(os.path.join(top, name))
                if data is not None:
                    texts[name] = data.decode("utf-8", "replace")
        for folder in _declared_folders(texts):
            roots.append(os.path.normpath(os.path.join(top, folder)))
        if "src" in listing:
            roots.append(os.path.join(top, "src"))
        unique = tuple(dict.fromkeys(r for r in roots if r != top and os.path.isdir(r)))
        self._declared[top] = unique
        return unique

    def search_folders(self, folder: str) -> list[str]:
        """Where `import a.b` is looked for from a file in `folder`, in order."""
        found = self._search.get(folder)
        if found is not None:
            return found
        top = self.project_top(folder)
        folders = []
        current = folder
        while True:
            folders.append(current)
            parent = os.path.dirname(current)
            if current == top or parent == current:
                break
            current = parent
        if top is not None:
            folders.extend(r for r in self.declared_roots(top) if r not in folders)
        self._search[folder] = folders
        return folders

    # Locating -----------------------------------------------------------------------------------
    def locate(self, module: str, near: Union[str, os.PathLike]) -> Union[Path, None]:
        """The file of `module` (dotted, absolute) imported from the file `near`, or None."""
        found = self._locate(module, os.path.dirname(os.path.abspath(near)))
        return Path(found) if found is not None else None

    def _locate(self, module: str, folder: str) -> Union[str, None]:
        key = (module, folder)
        found = self._located.get(key, False)
        if found is False:
            parts = module.split(".")
            found = None
            if all(parts):
                for root in self._roots_with(parts[0], folder):
                    found = self._under(root, parts)
                    if found is not None:
                        break
            self._located[key] = found
        if found is not None:
            self.consulted.add(found)
        return found

    def has_top_level(self, name: str, near: Union[str, os.PathLike]) -> bool:
        """Is `name` a module or package of the project, seen from `near`?"""
        folder = os.path.dirname(os.path.abspath(near))
        for root in self.search_folders(folder):
            listing = self.listing(root)
            if name + ".py" in listing or name + ".pyi" in listing:
                return True
            if name in listing and os.path.isdir(os.path.join(root, name)):
                return True
        return False

    def _under(self, root: str, parts: list[str]) -> Union[str, None]:
        key = (root, ".".join(parts))
        found = self._under_cache.get(key, False)
        if found is False:
            found = self._under_cache[key] = self._find_under(root, parts)
        return found

    def _find_under(self, root: str, parts: list[str]) -> Union[str, None]:
        folder = root
        for part in parts[:-1]:
            if part not in self.listing(folder):
                return None
            folder = os.path.join(folder, part)
        last = parts[-1]
        listing = self.listing(folder)
        for name in (last + ".py", last + ".pyi"):
            if name in listing and os.path.isfile(os.path.join(folder, name)):
                return os.path.join(folder, name)
        if last in listing:
            package = os.path.join(folder, last)
            for name in ("__init__.py", "__init__.pyi"):
                if self._is_file(package, name):
                    return os.path.join(package, name)
        return None

    def module_name(self, path: Union[str, os.PathLike]) -> Union[str, None]:
        """The dotted name of the module at `path` (see the module's docstring)."""
        path = os.path.abspath(path)
        if path in self._names:
            return self._names[path]
        folder, file_name = os.path.split(path)
        stem = os.path.splitext(file_name)[0]
        parts = [] if stem == "__init__" else [stem]
        chain_top = folder
        while self._is_file(chain_top, "__init__.py") or self._is_file(chain_top, "__init__.pyi"):
            parent = os.path.dirname(chain_top)
            if parent == chain_top:
                break
            parts.insert(0, os.path.basename(chain_top))
            chain_top = parent
        # Deepest root at or above the chain's top: namespace packages above it get named.
        top = self.project_top(folder)
        roots = [] if top is None else [top, *self.declared_roots(top)]
        best = None
        for root in roots:
            inside = chain_top == root or chain_top.startswith(root.rstrip(os.sep) + os.sep)
            if inside and (best is None or len(root) > len(best)):
                best = root
        if best is not None and best != chain_top:
            extra = os.path.relpath(chain_top, best).split(os.sep)
            if all(p.isidentifier() for p in extra):
                parts = extra + parts
        elif best is None and parts == [stem] and stem:
            # No project around a loose file: its folder is its package, as far as relative
            # imports go (`from .memory import x` next to it).
            name = os.path.basename(folder)
            if name.isidentifier():
                parts.insert(0, name)
        name = ".".join(parts) or None
        self._names[path] = name
        return name

    # Does a file lead to an SDK? ---------------------------------------------------------------
    def note_matters(self, path: str, names: Iterable[bytes] = ()) -> None:
        """The triage found that a file of the run spells an SDK word (`prefilter.may_matter`
        with `names`): the reach questions need not read it again to know."""
        path = os.path.abspath(path)
        self._may_matter[(path, tuple(names))] = True
        self._reach_of(tuple(names))[path] = True

    def note_targets(
        self, path: str, names: Iterable[bytes], targets: tuple, consulted: Iterable[str]
    ) -> None:
        """The triage found that a file of the run spells no SDK word, and which project files
        its imports may bind names from (`file_targets`, perhaps found by a worker of the
        triage: what that consulted is this run's too)."""
        path = os.path.abspath(path)
        self._may_matter[(path, tuple(names))] = False
        self._used_targets[path], self._all_targets[path] = targets
        self.consulted.update(consulted)

    def note_dropped(self, path: str, names: Iterable[bytes], consulted: Iterable[str]) -> None:
        """As `note_targets`, when the triage knows only the file's `uncovered_targets`: those
        are not remembered (a question about the file reads it again)."""
        self._may_matter[(os.path.abspath(path), tuple(names))] = False
        self.consulted.update(consulted)

    def known_not_to_reach(self, path: str, names: Iterable[bytes] = ()) -> bool:
        """Already explored to the end as a module (every import of it followed), without
        reaching an SDK word: nor can the names it imports and uses (a subset) reach one. Not
        for a test file, whose question also asks the conftest.py files above it."""
        path = os.path.abspath(path)
        if _is_test_file(path) or self._reach_of(tuple(names)).get(path) is not False:
            return False
        self.consulted.add(path)
        return True

    def closed_without_sdk(
        self,
        paths: Iterable[str],
        names: Iterable[bytes] = (),
        uncovered: Union[dict[str, tuple[str, ...]], None] = None,
    ) -> bool:
        """Does no file spell an SDK word among `paths` (files of the run the triage dropped),
        every project file their imports may bind names from, the conftest.py files above the
        test files among them, and so on through those files' own imports? Then no question
        `reaches_sdk` can ask of them finds one: each would only walk this set. Files the
        triage scanned are answered from what it noted; others are scanned here, as
        `reaches_sdk` would. True: each is recorded as leading to no SDK word, and the set as
        consulted (a change to any of them drops the cached verdicts).

        `uncovered`: {path: its `uncovered_targets`} for files of `paths`, when `paths` are
        every file of the run and the walk's: what their other imports find is among them."""
        names = tuple(names)
        uncovered = uncovered or {}
        before = set(self.consulted)
        pending = [os.path.abspath(path) for path in paths]
        starting = set(pending)
        closed = set(pending)
        imported: set[str] = set()  # reached through an import or a conftest
        while pending:
            path = pending.pop()
            scanned = uncovered.get(path)
            if scanned is None:
                scanned = self._scan(path, names)
            if scanned is True:
                self.consulted.intersection_update(before)  # each question consults its own
                return False  # an SDK word: each file's own question decides
            if scanned is None:
                continue  # unreadable: it leads nowhere (as `_module_reaches` says)
            following = list(scanned)
            if _is_test_file(path):
                following.extend(self._conftests_above(path))
            imported.update(following)
            for target in following:
                if target not in closed:
                    closed.add(target)
                    pending.append(target)
            if len(closed) > len(starting) + MAX_MODULES:
                self.consulted.intersection_update(before)
                return False  # reading far outside the run: each question, with its budget
        # A dropped file's verdict already depends on its own bytes; as `reaches_sdk`, only
        # what it leads to is consulted.
        self.consulted.difference_update(starting - imported - before)
        reach = self._reach_of(names)
        for path in closed:
            reach[path] = False
        return True

    def _conftests_above(self, path: str) -> Iterator[str]:
        """The conftest.py files pytest reads for the test file `path`, nearest first, up to
        the project's top; a folder is listed only when the one below did not end the search."""
        folder = os.path.dirname(path)
        top = self.project_top(folder)
        while True:
            conftest = os.path.join(folder, "conftest.py")
            if conftest != path and self._is_file(folder, "conftest.py"):
                yield conftest
            parent = os.path.dirname(folder)
            if folder == top or parent == folder:
                return
            folder = parent

    def _reach_of(self, names: tuple) -> dict[str, bool]:
        found = self._reach.get(names)
        if found is None:
            found = self._reach[names] = {}
        return found

    def reaches_sdk(
        self,
        path: Union[str, os.PathLike],
        data: Union[bytes, None],
        names: Iterable[bytes] = (),
    ) -> bool:
        """Does a name `data` (the file at `path`) imports and uses again, or a conftest above
        a test file, lead to a module that spells an SDK word (`prefilter.may_matter`)?
        `data` may be None when the file's targets were noted (`note_targets`)."""
        path = os.path.abspath(path)
        if data is None and path not in self._used_targets:
            with open(path, "rb") as handle:
                data = handle.read()
        names = tuple(names)
        reach = self._reach_of(names)
        budget = [MAX_MODULES]
        visited: set[str] = set()
        found, exact = False, True
        used, _ = self.file_targets(path, data or b"")
        for target in used:
            found, complete = self._module_reaches(target, names, reach, 1, budget, set(), visited)
            exact = exact and complete
            if found:
                return True
        if _is_test_file(path):
            for conftest in self._conftests_above(path):
                found, complete = self._module_reaches(
                    conftest, names, reach, 1, budget, set(), visited
                )
                exact = exact and complete
                if found:
                    break
        if not found and exact:
            # Explored to the end without a limit: nothing any visited module leads to spells
            # an SDK word either (what it leads to was reached from here), cycles or not.
            for module in visited:
                reach[module] = False
        if not found and budget[0] <= 0:
            # Too many modules to say: the file is kept (parsed, then bound name by name).
            # A chain deeper than MAX_DEPTH stays unknown, as the binder's own lookups do.
            return True
        return found

    def _module_reaches(
        self,
        path: str,
        names: tuple,
        reach: dict,
        depth: int,
        budget: list,
        active: set,
        visited: set,
    ) -> tuple[bool, bool]:
        """(reaches an SDK word, explored without a limit cutting it short). Modules in
        progress (a cycle) count as not reaching: the caller decides once the question ends."""
        known = reach.get(path)
        if known is not None:
            self.consulted.add(path)
            return known, True
        if path in active or path in visited:
            # In progress (a cycle), or explored already in this question without success.
            return False, True
        if depth > MAX_DEPTH or budget[0] <= 0:
            return False, False
        budget[0] -= 1
        scanned = self._scan(path, names)
        if scanned is None:
            reach[path] = False
            return False, True
        if scanned is True:
            reach[path] = True
            return True, True
        visited.add(path)
        active.add(path)
        exact = True
        try:
            for target in scanned:
                found, complete = self._module_reaches(
                    target, names, reach, depth + 1, budget, active, visited
                )
                if found:
                    reach[path] = True
                    return True, True
                exact = exact and complete
        finally:
            active.discard(path)
        return False, exact

    def _scan(self, path: str, names: tuple) -> Union[bool, tuple[str, ...], None]:
        """A module on the way: True when it spells an SDK word, else the project files all
        its imports may bind names from; None when it cannot be read. Its bytes are not kept
        (a tree's worth of modules would stay in memory): only what was derived from them."""
        self.consulted.add(path)
        matters = self._may_matter.get((path, names))
        if matters is True:
            return True
        targets = self._all_targets.get(path)
        if targets is not None and matters is False:
            return targets
        data = self._data.get(path)
        if data is None:
            if path in self._data:
                return None
            try:
                with open(path, "rb") as handle:
                    data = handle.read(MAX_READ + 1)
            except OSError:
                return None
            if len(data) > MAX_READ:
                return None
        if matters is None:
            matters = self._may_matter[(path, names)] = may_matter(data, names)
            if matters:
                return True
        if targets is None:
            targets = self.file_targets(path, data)[1]
        return targets

    def file_targets(self, path: str, data: bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(the project files the imports of `data` that are used again may bind names from,
        those of all its imports): one scan of the file for both questions."""
        cached = self._used_targets.get(path)
        if cached is not None:
            return cached, self._all_targets[path]
        used_targets, all_targets = self._resolve(path, data, False)
        self._used_targets[path] = used_targets
        self._all_targets[path] = all_targets
        return used_targets, all_targets

    def uncovered_targets(self, path: str, data: bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """`file_targets`, without the imports that can only find files in folders the walk
        saw whole (`coverage`): what those find is a file of the run. Not remembered: only a
        run whose every file was scanned, and none spells an SDK word, may use it
        (`closed_without_sdk`); the search of each such import is most of a scan's cost."""
        return self._resolve(path, data, True)

    def _covered(self, folder: str, dotted: str, imported: list) -> bool:
        """Can the import only find modules in folders the walk saw whole? Every module it
        may find starts with one of its heads, and lies under a search folder holding it."""
        if dotted:
            heads = {dotted.split(".", 1)[0]}
        elif all(name is not None for name, _ in imported):
            heads = {name.split(".", 1)[0] for name, _ in imported}
        else:
            return False
        for head in heads:
            key = (head, folder)
            covered = self._covered_heads.get(key)
            if covered is None:
                covers = self.coverage.covers  # type: ignore[union-attr]
                covered = self._covered_heads[key] = all(
                    covers(root, head) for root in self._roots_with(head, folder)
                )
            if not covered:
                return False
        return True

    def _resolve(
        self, path: str, data: bytes, skip_covered: bool
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        used: list[str] = []
        every: list[str] = []
        folder = os.path.dirname(path)
        for level, module, imported in imports(data):
            dotted = self._absolute(path, level, module)
            if dotted is None:
                continue
            if skip_covered and self._covered(folder, dotted, imported):
                continue
            found_all = self._candidates(folder, data, dotted, imported)
            if not found_all:
                continue  # nor can the names used again (a subset) be found
            every.extend(found_all)
            uses = [(n, bound) for n, bound in imported if _used_again(data, bound)]
            if uses:
                used.extend(
                    found_all if len(uses) == len(imported) else
                    self._candidates(folder, data, dotted, uses)
                )  # fmt: skip
        return tuple(dict.fromkeys(used)), tuple(dict.fromkeys(every))

    def _candidates(self, folder: str, data: bytes, dotted: str, imported: list) -> list[str]:
        if dotted and not self._roots_with(dotted.split(".", 1)[0], folder):
            return []  # every candidate starts with `dotted`: no search folder holds its head
        candidates = []
        if dotted:
            candidates.append(dotted)
        for name, bound in imported:
            if name is not None:
                candidates.append(f"{dotted}.{name}" if dotted else name)
            elif self._may_be_package(dotted.split(".", 1)[0], folder):
                # `import app` ... `app.memory.client`: the modules on the way
                candidates.extend(_dotted_uses(data, bound, dotted))
        found = []
        for candidate in candidates:
            located = self._locate(candidate, folder)
            if located is not None:
                found.append(located)
        return found

    def _may_be_package(self, name: str, folder: str) -> bool:
        """Can `name.x` be found from `folder`: does some search folder hold an entry `name`
        (a package folder; `name.py` holds no module)? If not, `_find_under` locates no dotted
        name under it either."""
        return any(name in self.listing(root) for root in self._roots_with(name, folder))

    def _roots_with(self, name: str, folder: str) -> tuple[str, ...]:
        """The search folders of `folder`, in order, that hold an entry named `name`, `name.py`
        or `name.pyi`: the only ones a module whose dotted name starts with `name` can be in."""
        key = (name, folder)
        found = self._package_names.get(key)
        if found is None:
            found = self._package_names[key] = self._roots_with_uncached(name, folder)
        return found

    def _roots_with_uncached(self, name: str, folder: str) -> tuple[str, ...]:
        wanted = (name, name + ".py", name + ".pyi")
        parent = os.path.dirname(folder)
        if folder == self.project_top(folder) or parent == folder:
            # The end of the chain: the declared roots follow it (`search_folders`).
            return tuple(
                root
                for root in self.search_folders(folder)
                if any(w in self.listing(root) for w in wanted)
            )
        # `search_folders(folder)` is `folder`, then its parent's (the same project top, the
        # same declared roots), less `folder` where a declared root repeats it: the parent's
        # answer is shared by every folder beside this one.
        listing = self.listing(folder)
        here = (folder,) if any(w in listing for w in wanted) else ()
        return here + tuple(r for r in self._roots_with(name, parent) if r != folder)

    def _targets(self, path: str, data: bytes, used_only: bool) -> list[str]:
        """The project files the imports of `data` may bind names from."""
        used, every = self.file_targets(path, data)
        return list(used if used_only else every)

    def _absolute(self, path: str, level: int, module: list[str]) -> Union[str, None]:
        if not level:
            return ".".join(module)
        name = self.module_name(path)
        package = (name or "").split(".") if name else []
        if not path.endswith(("__init__.py", "__init__.pyi")):
            package = package[:-1]
        if level - 1 > len(package):
            return None
        base = package[: len(package) - (level - 1)]
        return ".".join([*base, *module])


def _dotted_uses(data: bytes, bound: str, module: str, limit: int = 20) -> list[str]:
    """The dotted names `bound.a.b...` in `data` reaches past the imported `module`
    (`import app as x`: `x.memory.client` -> app.memory, app.memory.client).
    One regular-expression scan (a test file says `unittest.` hundreds of times)."""
    parts = module.split(".")
    spelled_in_full = bound == parts[0] and bound != module  # `import app.deps` binds `app`
    found: dict[str, None] = {}
    # Each distinct spelling once, in the order of its first use (the scan is the regular
    # expression engine's: a test file says `unittest.` hundreds of times).
    for text in dict.fromkeys(_uses_of(bound).findall(data)):
        if len(found) >= limit:
            break
        rest = text.decode("utf-8", "replace").split(".")
        full = [bound, *rest] if spelled_in_full else [*parts, *rest]
        for end in range(len(parts) + 1, len(full)):
            found[".".join(full[:end])] = None
    return list(found)


@functools.lru_cache(maxsize=4096)
def _uses_of(bound: str) -> re.Pattern[bytes]:
    """`bound.a.b`, not preceded by a word character or a dot (`x.bound.a`, `other_bound.a`
    are other names); a literal head: the engine searches for it at memory speed."""
    head = re.escape(bound.encode("utf-8"))
    # The look-behind comes after the head, which keeps the literal search.
    return re.compile(head + rb"(?<![\w.]" + head + rb")\.(\w+(?:\.\w+)*)")


def _used_again(data: bytes, name: str) -> bool:
    """Is `name` mentioned besides its import (a receiver, a factory, a value passed on)?
    A substring search: it may say yes for `memory` in `memory_limit`, never no for a use."""
    word = name.encode("utf-8")
    first = data.find(word)
    return first >= 0 and data.find(word, first + len(word)) >= 0


def _is_test_file(path: str) -> bool:
    name = os.path.basename(path)
    return name == "conftest.py" or (
        name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))
    )


def _declared_folders(texts: dict[str, str]) -> list[str]:
    """Package folders from `pyproject.toml` (setuptools), `setup.cfg` and `setup.py`."""
    folders: list[str] = []
    pyproject = texts.get("pyproject.toml")
    if pyproject is not None and ("package-dir" in pyproject or "where" in pyproject):
        try:
            try:
                import tomllib  # type: ignore[import-not-found]
            except ImportError:  # Python < 3.11
                import tomli as tomllib  # type: ignore[no-redef]
            setuptools = tomllib.loads(pyproject).get("tool", {}).get("setuptools", {})
        except Exception:  # an unreadable configuration declares nothing
            setuptools = {}
        if isinstance(setuptools, dict):
            package_dir = setuptools.get("package-dir")
            if isinstance(package_dir, dict) and isinstance(package_dir.get(""), str):
                folders.append(package_dir[""])
            packages = setuptools.get("packages")
            find = packages.get("find") if isinstance(packages, dict) else None
            where = find.get("where") if isinstance(find, dict) else None
            if isinstance(where, list):
                folders.extend(w for w in where if isinstance(w, str))
    for name, pattern in (("setup.cfg", _SETUP_CFG_DIR), ("setup.py", _SETUP_PY_DIR)):
        text = texts.get(name)
        if text is not None:
            folders.extend(pattern.findall(text))
    return [f for f in folders if f not in ("", ".")]
