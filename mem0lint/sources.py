"""Finding files, reading them, and writing fixed ones back without losing anything."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Union

if TYPE_CHECKING:  # imported when first needed: 15 ms a run otherwise
    import pathspec


PYTHON_SUFFIXES = frozenset({".py", ".pyi"})
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        ".env",
        "node_modules",
        "build",
        "dist",
        "__pycache__",
        ".tox",
        ".nox",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".mem0lint_cache",
        "site-packages",
    }
)


class SourceFile:
    """A file to lint: its path as given on the command line, joined with the path inside a
    folder; `explicit` when named on the command line. `fspath` is the path as a string, `path`
    the same as a Path, made when first asked for: thousands of files whose verdicts come from
    the cache never need one (pathlib costs microseconds per path)."""

    __slots__ = ("fspath", "explicit", "_path")

    def __init__(self, path: Union[str, os.PathLike[str]], explicit: bool = False) -> None:
        self.fspath = os.fspath(path)
        self.explicit = explicit
        self._path = path if isinstance(path, Path) else None

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = Path(self.fspath)
        return self._path

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourceFile):
            return NotImplemented
        return (self.fspath, self.explicit) == (other.fspath, other.explicit)

    def __hash__(self) -> int:
        return hash((self.fspath, self.explicit))

    def __repr__(self) -> str:
        return f"SourceFile({self.fspath!r}, explicit={self.explicit})"

    def __getstate__(self) -> tuple[str, bool]:
        return self.fspath, self.explicit

    def __setstate__(self, state: tuple[str, bool]) -> None:
        self.fspath, self.explicit = state
        self._path = None


_VIRTUALENV_MARKER = "pyvenv.cfg"  # seen in a folder's own listing: no stat per folder
_MODULE_NAME = re.compile(r"\w+")  # a name an import can spell (modules.py reads `\w+` too)


@dataclass
class Coverage:
    """What a walk saw whole, as imports see it: the folders it listed, and the entries an
    import could find there that it left out. An import of `name` searched for in a walked
    folder finds a file of the run unless an entry at `folder/name`, or under it, was left out
    (modules.ModuleFinder.uncovered_targets)."""

    walked: set[str] = field(default_factory=set)  # absolute folders the walk listed
    # Folders the walk meant to enter: one it never listed is a symlinked folder (os.walk
    # lists it, never enters it) or one it could not read (left out, at the first `covers`).
    entered: list[str] = field(default_factory=list)
    # Absolute paths (a module file's without its suffix) of what an import could find that
    # the walk left out: a skipped or excluded folder holding modules or folders, a symlinked
    # folder (never entered), an excluded module, a virtual environment's folder.
    left_out: set[str] = field(default_factory=set)
    _above: Union[set[str], None] = field(default=None, repr=False)

    def covers(self, folder: str, name: str) -> bool:
        """Does every module `name` (a package, or `name.py`) in `folder` (absolute) may hold,
        at any depth, lie among the files of the walk? Asked once the walk is over."""
        if folder not in self.walked:
            return False
        if self._above is None:
            self.left_out.update(path for path in self.entered if path not in self.walked)
            self._above = set()
            for path in self.left_out:
                while path not in self._above:
                    self._above.add(path)
                    parent = os.path.dirname(path)
                    if parent == path:
                        break
                    path = parent
        return os.path.join(folder, name) not in self._above

    def left_out_folder(self, path: str) -> None:
        """The walk does not enter the folder `path` (absolute). Only a folder an import can
        name counts, and only if it holds a module or a folder (`__pycache__` holds compiled
        files only)."""
        if not _MODULE_NAME.fullmatch(os.path.basename(path)):
            return
        try:
            with os.scandir(path) as entries:
                holds = any(
                    entry.name.endswith((".py", ".pyi")) or entry.is_dir() for entry in entries
                )
        except OSError:
            return  # nor can modules.py list it: it finds nothing there
        if holds:
            self.left_out.add(path)

    def left_out_file(self, folder: str, name: str) -> None:
        stem, suffix = os.path.splitext(name)
        if suffix in (".py", ".pyi") and _MODULE_NAME.fullmatch(stem):
            self.left_out.add(os.path.join(folder, stem))


def _suffix(name: str) -> str:
    """`Path(name).suffix`, without building a path for every file of a tree."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def _git_root(start: Path) -> Path | None:
    for directory in [start, *start.parents]:
        if (directory / ".git").exists():
            return directory
    return None


class _Ignores:
    """The .gitignore files that apply to a directory, each matched relative to its folder."""

    def __init__(self) -> None:
        self._specs: dict[str, pathspec.PathSpec | None] = {}
        self._chains: dict[tuple[str, str], list[tuple[str, pathspec.PathSpec]]] = {}
        self._cwd = os.getcwd()
        self._roots: dict[Path, str] = {}

    def _absolute(self, root: Path) -> str:
        if root not in self._roots:
            self._roots[root] = os.path.abspath(root)
        return self._roots[root]

    def none_in(self, directory: str) -> None:
        """`directory` (absolute) holds no .gitignore file (its listing has none)."""
        self._specs.setdefault(directory, None)

    def _spec(self, directory: str) -> pathspec.PathSpec | None:
        if directory not in self._specs:
            ignore_file = os.path.join(directory, ".gitignore")
            spec = None
            if os.path.isfile(ignore_file):
                try:
                    import pathspec

                    with open(ignore_file, encoding="utf-8", errors="replace") as handle:
                        lines = handle.read().splitlines()
                    spec = _AnyFirst.of(pathspec.GitIgnoreSpec.from_lines(lines))
                except OSError:
                    spec = None
            self._specs[directory] = spec
        return self._specs[directory]

    def _chain(self, parent: str, root: str) -> list[tuple[str, pathspec.PathSpec]]:
        """The specs of `parent` and of its ancestors up to `root`, nearest first. Memoised
        and kept as strings: every file of a folder shares them, and pathlib is slow here."""
        key = (parent, root)
        chain = self._chains.get(key)
        if chain is None:
            chain = []
            inside = parent == root or parent.startswith(root.rstrip(os.sep) + os.sep)
            if inside:
                spec = self._spec(parent)
                if spec is not None:
                    chain.append((parent, spec))
                grand = os.path.dirname(parent)
                if parent != root and grand != parent:
                    chain.extend(self._chain(grand, root))
            self._chains[key] = chain
        return chain

    def ignored(self, path: Path, is_dir: bool, root: Path) -> bool:
        """`root`: the outermost folder whose .gitignore applies (the git root, absolute)."""
        absolute = self.absolute(path)
        chain = self._chain(os.path.dirname(absolute), self._absolute(root))
        return _ignored_by(chain, absolute, is_dir)

    def absolute(self, path: Union[str, os.PathLike[str]]) -> str:
        """os.path.abspath, without asking the OS for the working directory every time."""
        return os.path.normpath(os.path.join(self._cwd, path))

    def chain_in(self, folder: str, root: Path) -> list[tuple[str, pathspec.PathSpec]]:
        """The specs that apply to the entries of `folder` (absolute), nearest first."""
        return self._chain(folder, self._absolute(root))


class _AnyFirst:
    """A .gitignore's spec that first asks whether any of its patterns matches at all, with one
    regular expression joining them: pathspec tries every pattern in turn (the last match
    decides), and a path no pattern matches, most of them, is not ignored."""

    def __init__(self, spec: pathspec.PathSpec, any_pattern: re.Pattern[str]) -> None:
        from pathspec.util import normalize_file

        self._spec, self._any, self._normalized = spec, any_pattern, normalize_file

    @classmethod
    def of(cls, spec: pathspec.PathSpec) -> _AnyFirst | pathspec.PathSpec:
        parts = []
        for pattern in spec.patterns:
            if pattern.include is None:
                continue  # a blank line or a comment
            regex = getattr(pattern, "regex", None)
            if not isinstance(regex, re.Pattern) or regex.flags != re.UNICODE:
                return spec
            parts.append(_NAMED_GROUP.sub("(?:", regex.pattern))
        try:
            joined = re.compile("|".join(f"(?:{part})" for part in parts) or "(?!)")
        except re.error:  # a back reference to a group renamed away
            return spec
        return cls(spec, joined)

    def match_file(self, file: str) -> bool:
        if not self._any.search(self._normalized(file)):
            return False
        return self._spec.match_file(file)


_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


def _ignored_by(chain: list[tuple[str, pathspec.PathSpec]], absolute: str, is_dir: bool) -> bool:
    for directory, spec in chain:
        relative = absolute[len(directory.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
        if spec.match_file(relative + ("/" if is_dir else "")):
            return True
    return False


@dataclass
class _Entries:
    """What drops an entry of one folder of the walk: a .gitignore on the way (`chain`), the
    command line's `exclude`, the configuration's `excluded` (None: it has no patterns there)."""

    chain: list
    folder: str  # absolute
    prefix: str  # the folder as the walk spells it, with its separator
    exclude: Union[pathspec.PathSpec, None]
    excluded: Union[Callable[[Path, bool], bool], None]

    def dropped(self, name: str, is_dir: bool) -> bool:
        if self.chain and _ignored_by(self.chain, os.path.join(self.folder, name), is_dir):
            return True
        if self.exclude is None and self.excluded is None:
            return False
        path = Path(self.prefix + name)
        if self.exclude and self.exclude.match_file(path.as_posix() + ("/" if is_dir else "")):
            return True
        return self.excluded is not None and self.excluded(path, is_dir)


def discover(
    paths: list[str],
    suffixes: frozenset[str] = PYTHON_SUFFIXES,
    exclude: pathspec.PathSpec | None = None,
    excluded: Union[Callable[[Path, bool], bool], None] = None,
    walked: Union[Callable[[str, list[str], list[str]], None], None] = None,
    may_exclude: Union[Callable[[str], bool], None] = None,
    coverage: Union[Coverage, None] = None,
) -> Iterator[SourceFile]:
    """Files to lint, in a stable order. Folders are walked; named files are always linted.

    `excluded(path, is_dir)`: configured excludes (patterns relative to their config file).
    `walked(folder, subfolders, files)`: told of every folder listed (snapshot.py).
    `may_exclude(folder)`: False when `excluded` says no to every entry of the folder.
    `coverage`: told which folders the walk saw whole (`Coverage`)."""
    ignores = _Ignores()
    for given in paths:
        top = Path(given)
        if top.is_file() or (top.exists() and not top.is_dir()):
            yield SourceFile(top, explicit=True)
            continue
        root = _git_root(top.absolute()) or top.absolute()
        for depth, (directory, dirnames, filenames) in enumerate(os.walk(top)):
            # Paths as strings (pathlib costs microseconds per path, and a site-packages has
            # thousands), spelled as `Path(directory) / name` would spell them.
            here = str(Path(directory))
            folder = ignores.absolute(here)
            if depth and _VIRTUALENV_MARKER in filenames:
                dirnames[:] = []  # a virtual environment below the folder named: not ours
                if coverage is not None:
                    coverage.left_out_folder(folder)
                continue
            if walked is not None:
                walked(directory, dirnames, filenames)
            prefix = "" if here == "." else os.path.join(here, "")
            if ".gitignore" not in filenames:
                ignores.none_in(folder)  # the listing says so: no `stat` to ask
            chain = ignores.chain_in(folder, root)  # most folders have no .gitignore on the way
            excluding = excluded if may_exclude is None or may_exclude(here) else None
            entry = _Entries(chain, folder, prefix, exclude, excluding)
            kept = sorted(
                name
                for name in dirnames
                if name not in SKIPPED_DIRS and not entry.dropped(name, True)
            )
            if coverage is not None:
                _note_coverage(coverage, folder, dirnames, kept)
            dirnames[:] = kept
            for name in sorted(filenames):
                if _suffix(name) in suffixes and not entry.dropped(name, False):
                    yield SourceFile(prefix + name)
                elif coverage is not None:
                    coverage.left_out_file(folder, name)


def _note_coverage(coverage: Coverage, folder: str, listed: list[str], kept: list[str]) -> None:
    coverage.walked.add(folder)
    entered = set(kept)
    for name in listed:
        path = os.path.join(folder, name)
        if name not in entered:
            coverage.left_out_folder(path)
        elif _MODULE_NAME.fullmatch(name):
            coverage.entered.append(path)


def empty_folder_note(folder: str) -> str:
    """Why a folder named on the command line gave nothing to lint (a warning for the user)."""
    top = Path(folder)
    root = _git_root(top.absolute()) or top.absolute()
    absolute = Path(os.path.abspath(top))
    ignores = _Ignores()
    for directory in [absolute, *absolute.parents]:
        if directory == root or root not in directory.parents:
            break
        if directory.name in SKIPPED_DIRS or ignores.ignored(directory, True, root):
            why = f"by a .gitignore under {root}, or a skipped folder name"
            return f"{folder}: ignored ({why}); nothing linted"
    return f"{folder}: no files to lint in this folder"


class WriteRefused(Exception):
    """The file was not written; the message says why, the original is intact."""


def write_atomically(
    path: Path, new: bytes, original: bytes, roots: list[Path] | None = None
) -> None:
    """Replace `path`'s content with `new` through a temporary file and a rename.

    Refuses when the file changed since it was read, when it is read-only, or when it is a
    symlink to a target outside the linted folders. Mode bits are kept.
    """
    target = Path(os.path.realpath(path))
    if path.is_symlink() and roots is not None:
        real_roots = [Path(os.path.realpath(r)) for r in roots]
        if not any(target == r or r in target.parents for r in real_roots):
            raise WriteRefused(f"symlink to {target}, outside the linted folders; not fixed")
    try:
        if target.read_bytes() != original:
            raise WriteRefused("changed on disk since it was read; not overwritten")
        mode = os.stat(target).st_mode
    except OSError as error:
        raise WriteRefused(f"cannot re-read before writing: {error.strerror}") from None
    # The mode bits too: root may write anything, and the rename would replace any file, but a
    # file marked read-only is not ours to change.
    if not os.access(target, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise WriteRefused("read-only file; not fixed")
    import tempfile  # not needed by a run that writes nothing

    try:
        fd, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".mem0lint-tmp"
        )
    except OSError as error:
        raise WriteRefused(f"cannot create a temporary file beside it: {error.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(new)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode & 0o7777)
        _before_rename_hook()
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def keep_whole(path: Path, content: bytes) -> None:
    """One of mem0lint's own files (the cache, the walk's snapshot, the kept compiled code):
    `content` at `path`, whole or not at all, written beside it and renamed over it; nothing is
    written where the folder cannot be made or written to (unlike `write_atomically`, which
    refuses loudly: it writes the user's files)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        import tempfile  # not needed by a run that writes nothing

        fd, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.replace(temporary, path)
    except OSError:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _before_rename_hook() -> None:
    """Tests set MEM0LINT_TEST_PAUSE_BEFORE_RENAME to kill the process mid-write."""
    pause = os.environ.get("MEM0LINT_TEST_PAUSE_BEFORE_RENAME")
    if pause:
        import time

        marker = os.environ.get("MEM0LINT_TEST_PAUSE_MARKER")
        if marker:
            Path(marker).touch()
        time.sleep(float(pause))
