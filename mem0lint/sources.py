"""Finding files, reading them, and writing fixed ones back without losing anything."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
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

    def _spec(self, directory: str) -> pathspec.PathSpec | None:
        if directory not in self._specs:
            ignore_file = os.path.join(directory, ".gitignore")
            spec = None
            if os.path.isfile(ignore_file):
                try:
                    import pathspec

                    with open(ignore_file, encoding="utf-8", errors="replace") as handle:
                        lines = handle.read().splitlines()
                    spec = pathspec.GitIgnoreSpec.from_lines(lines)
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
) -> Iterator[SourceFile]:
    """Files to lint, in a stable order. Folders are walked; named files are always linted.

    `excluded(path, is_dir)`: configured excludes (patterns relative to their config file).
    `walked(folder, subfolders, files)`: told of every folder listed (snapshot.py).
    `may_exclude(folder)`: False when `excluded` says no to every entry of the folder."""
    ignores = _Ignores()
    for given in paths:
        top = Path(given)
        if top.is_file() or (top.exists() and not top.is_dir()):
            yield SourceFile(top, explicit=True)
            continue
        root = _git_root(top.absolute()) or top.absolute()
        for depth, (directory, dirnames, filenames) in enumerate(os.walk(top)):
            if depth and _VIRTUALENV_MARKER in filenames:
                dirnames[:] = []  # a virtual environment below the folder named: not ours
                continue
            if walked is not None:
                walked(directory, dirnames, filenames)
            # Paths as strings (pathlib costs microseconds per path, and a site-packages has
            # thousands), spelled as `Path(directory) / name` would spell them.
            here = str(Path(directory))
            prefix = "" if here == "." else os.path.join(here, "")
            folder = ignores.absolute(here)
            chain = ignores.chain_in(folder, root)  # most folders have no .gitignore on the way
            excluding = excluded if may_exclude is None or may_exclude(here) else None
            entry = _Entries(chain, folder, prefix, exclude, excluding)
            dirnames[:] = sorted(
                name
                for name in dirnames
                if name not in SKIPPED_DIRS and not entry.dropped(name, True)
            )
            for name in sorted(filenames):
                if _suffix(name) in suffixes and not entry.dropped(name, False):
                    yield SourceFile(prefix + name)


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


def _before_rename_hook() -> None:
    """Tests set MEM0LINT_TEST_PAUSE_BEFORE_RENAME to kill the process mid-write."""
    pause = os.environ.get("MEM0LINT_TEST_PAUSE_BEFORE_RENAME")
    if pause:
        import time

        marker = os.environ.get("MEM0LINT_TEST_PAUSE_MARKER")
        if marker:
            Path(marker).touch()
        time.sleep(float(pause))
