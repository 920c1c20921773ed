"""What the language server keeps between two lints of a document: the SDK releases its project
installs (`versions.Discovery`) and the index of the other modules it binds from
(`project.ProjectIndex`), while nothing they read has changed.

A fresh Discovery and index per change re-read the lock files and re-parse every imported module
of the project on every keystroke. Both already record what they read (`Discovery.read`,
`ProjectIndex.consulted()`: files read and folders listed); after each lint every such path is
stamped (modification time and size), with every folder from the document's up to the root (a
lock file or module created there changes the folder). The next lint reuses both only if every
stamp still holds, and the configuration (the receivers the index binds with) is the same.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from mem0lint.project import ProjectIndex
    from mem0lint.versions import Discovery

Stamp = Union[tuple[int, int], None]


def _stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size)


def _folders(path: Path) -> list[str]:
    """The folders from the document's up to its repository's top (a folder holding `.git`,
    where version discovery stops too) or the filesystem root: a folder above the top is not
    read, and stamping it would drop what is kept whenever anything is written there (`/tmp`)."""
    folder = os.path.dirname(os.path.abspath(path))
    found = []
    while True:
        found.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder or os.path.exists(os.path.join(folder, ".git")):
            return found
        folder = parent


class _Entry:
    def __init__(self, key: tuple, discovery: Discovery, project: ProjectIndex, path: Path):
        self.key = key
        self.discovery = discovery
        self.project = project
        self.stamps: dict[str, Stamp] = {folder: _stamp(folder) for folder in _folders(path)}

    def _read(self) -> set[str]:
        return set(self.discovery.read) | set(self.project.consulted())

    def seal(self) -> None:
        """Stamp what the last lint read for the first time."""
        for path in self._read() - self.stamps.keys():
            self.stamps[path] = _stamp(path)

    def holds(self) -> bool:
        return all(_stamp(path) == stamp for path, stamp in self.stamps.items())


class Kept:
    """Per document (URI): the Discovery and ProjectIndex to lint it with."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}
        self.reused = 0  # lints that reused them (for tests)

    def get(
        self, uri: str, path: Path, receivers: dict[str, str]
    ) -> tuple[Discovery, ProjectIndex]:
        from mem0lint.inproject import project_index
        from mem0lint.versions import Discovery

        key = (os.path.abspath(path), tuple(sorted(receivers.items())))
        entry = self._entries.get(uri)
        if entry is not None and entry.key == key and entry.holds():
            self.reused += 1
        else:
            entry = _Entry(key, Discovery(), project_index(receivers), path)
            self._entries[uri] = entry
        return entry.discovery, entry.project

    def seal(self, uri: str) -> None:
        """After a lint with what `get` gave: stamp what it read."""
        entry = self._entries.get(uri)
        if entry is not None:
            entry.seal()

    def forget(self, uri: Union[str, None] = None) -> None:
        """One document's (closed), or every document's (the configuration changed)."""
        if uri is None:
            self._entries.clear()
        else:
            self._entries.pop(uri, None)
