"""The files the last run found under the same paths, reused while the tree's shape is unchanged.

Walking a tree costs a listing per folder and a few checks per file: on a tree that was checked
before (every verdict cached) it is most of a run. Which files a walk finds depends only on
folder listings (a file or folder added, removed or renamed changes its folder's mtime), on the
content of the `.gitignore` and `pyproject.toml` files it reads (their own mtimes), and on which
of `.git`, `.gitignore` and `pyproject.toml` exist in the folders above the given paths. A
snapshot records all of those and the files found; the next run with the same paths and options
checks them (a stat each, no listing) and reuses the files, or walks again.

A check that found nothing also records the stat of every file it checked: while the tree's
shape and every file are unchanged, the next check with the same options is clean without
looking further (the settings come from the options, which are part of the key, and from the
configuration files, which are watched).

Like the cache, a snapshot taken less than `RACY_NS` after a recorded mtime is not trusted: an
edit in the same timestamp tick would not show.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Iterable

from mem0lint import __version__
from mem0lint.cache import RACY_NS, blake2b, write_json_atomically
from mem0lint.sources import SKIPPED_DIRS, SourceFile

# Files a walk reads in the folders it lists (or above them); and a conftest above the paths
# may give a test its client.
READ_NAMES = (".gitignore", "pyproject.toml")
ABOVE_NAMES = (".git", *READ_NAMES, "conftest.py")
# Project files above the paths that say which SDK release the files are judged by (versions.py;
# the ones the run read are watched through `read`): one appearing means judging anew.
ABOVE_NAMES += ("uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock", "Pipfile", "setup.cfg")
ABOVE_NAMES += ("setup.py", "requirements.txt")


class Snapshot:
    def __init__(self, directory: Path, key: Iterable[str]) -> None:
        """`key`: everything besides the tree that decides what a walk finds (paths, options)."""
        described = json.dumps([__version__, os.getcwd(), *key])
        digest = blake2b(described.encode("utf-8"), digest_size=12).hexdigest()
        self.file = Path(directory) / f"files-{digest}.json"
        self.started_ns = time.time_ns()
        self.folders: dict[str, int] = {}  # folder -> mtime_ns
        self.files: dict[str, list[int]] = {}  # file read -> [mtime_ns, size]
        self.present: set[str] = set()  # must still exist (a `.git` above)
        self.absent: set[str] = set()  # must still not exist
        self.reused = False
        self._clean: list = []  # the last check found nothing: [path, mtime_ns, size, inode]

    # Reusing ------------------------------------------------------------------------------------
    def found(self) -> list[SourceFile] | None:
        """The files of the last walk, if nothing it depended on has changed since."""
        try:
            saved = json.loads(self.file.read_text(encoding="utf-8"))
            folders, files, found = saved["folders"], saved["files"], saved["found"]
            if not all(os.path.exists(p) for p in saved["present"]):
                return None
            if any(os.path.exists(p) for p in saved["absent"]):
                return None
            for folder, mtime in folders.items():
                if os.stat(folder).st_mtime_ns != mtime:
                    return None
            for name, (mtime, size) in files.items():
                stat = os.stat(name)
                if (stat.st_mtime_ns, stat.st_size) != (mtime, size):
                    return None
            self.folders, self.files = folders, files
            self.present, self.absent = set(saved["present"]), set(saved["absent"])
            self._clean = saved.get("clean") or []
            self.reused = True
            return [SourceFile(path, explicit) for path, explicit in found]
        except (OSError, ValueError, KeyError, TypeError):
            return None  # none yet, damaged, or something it read is gone

    # Recording ----------------------------------------------------------------------------------
    def watch_above(self, path: str) -> None:
        """The folders above `path`, up to the root: which of `.git`, `.gitignore` and
        `pyproject.toml` they hold (not their mtimes: a home folder changes all the time)."""
        folder = os.path.dirname(os.path.abspath(path))
        while True:
            for name in ABOVE_NAMES:
                marker = os.path.join(folder, name)
                if not os.path.exists(marker):
                    self.absent.add(marker)
                elif name == ".git":
                    self.present.add(marker)
                else:
                    self._file(marker)
            parent = os.path.dirname(folder)
            if parent == folder:
                return
            folder = parent

    def walked(self, folder: str, subfolders: Iterable[str], filenames: Iterable[str]) -> None:
        """A folder listed by the walk: it, the subfolders it had (walked or not), and what it
        read there."""
        self._folder(folder)
        for name in subfolders:
            # `.git`, `__pycache__`... change all the time and are never walked: their coming
            # and going shows in this folder's mtime.
            if name not in SKIPPED_DIRS:
                self._folder(os.path.join(folder, name))
        for name in READ_NAMES:
            if name in filenames:
                self._file(os.path.join(folder, name))

    def read(self, path: str) -> None:
        """A file the run depends on outside any walk (`--config`)."""
        self._file(path)

    def _folder(self, path: str) -> None:
        try:
            self.folders[os.path.abspath(path)] = os.stat(path).st_mtime_ns
        except OSError:
            self.folders[os.path.abspath(path)] = -1  # never equal: gone means walk again

    def _file(self, path: str) -> None:
        try:
            stat = os.stat(path)
        except OSError:
            return
        self.files[os.path.abspath(path)] = [stat.st_mtime_ns, stat.st_size]

    def clean(self) -> bool:
        """Did the last check find nothing, and is every file it checked unchanged?"""
        if not self._clean:
            return False
        for path, mtime, size, inode in self._clean:
            try:
                stat = os.stat(path)
            except OSError:
                return False
            if (stat.st_mtime_ns, stat.st_size, stat.st_ino) != (mtime, size, inode):
                return False
        return True

    def update(self, found: list[SourceFile], clean: dict | None) -> None:
        """Save after a run: a new walk, or a reused one whose clean record changes."""
        if not self.reused or clean is not None or self._clean:
            self.save(found, clean)

    def save(self, found: list[SourceFile], clean: dict | None = None) -> None:
        """Write atomically, unless something recorded changed too recently to be trusted.
        `clean`: {path: os.stat_result} of the files a check found nothing in."""
        recent = self.started_ns - RACY_NS
        mtimes = [*self.folders.values(), *(m for m, _ in self.files.values())]
        if any(m < 0 or m > recent for m in mtimes):
            return
        checked = []
        if clean is not None and all(s.st_mtime_ns < recent for s in clean.values()):
            checked = [[p, s.st_mtime_ns, s.st_size, s.st_ino] for p, s in clean.items()]
        data = {
            "folders": self.folders,
            "files": self.files,
            "present": sorted(self.present),
            "absent": sorted(self.absent),
            "found": [[s.fspath, s.explicit] for s in found],
            "clean": checked,
        }
        write_json_atomically(self.file, data)
