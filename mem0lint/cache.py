"""Clean verdicts remembered between runs, so an unchanged tree is not parsed again.

Only "this content has no finding" is remembered; a file with findings (or an error) is always
checked again, so its positions, code frames and fixes are always fresh. A verdict is keyed by
the file's content hash, the settings and the mem0lint version: one cache file per settings
key, holding {absolute path: [mtime_ns, size, inode, content hash, checked_ns]} for clean files.

A file whose stat matches its entry is trusted without being read, unless it was modified less
than `RACY_NS` before it was checked: then an edit in the same timestamp tick could keep the
same mtime and size (git's "racily clean" case), so its content is read and hashed instead.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

from mem0lint import __version__
from mem0lint.settings import Settings

DEFAULT_DIR = ".mem0lint_cache"
RACY_NS = 2_000_000_000  # coarser than any filesystem's timestamp granularity (FAT: 2 s)
FORMAT = 1


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def settings_key(settings: Settings) -> str:
    described = json.dumps(
        {"version": __version__, "format": FORMAT, "settings": dataclasses.asdict(settings)},
        sort_keys=True,
        default=repr,
    )
    return hashlib.blake2b(described.encode("utf-8"), digest_size=12).hexdigest()


class Cache:
    def __init__(self, directory: Path, settings: Settings) -> None:
        self.directory = Path(directory)
        self.file = self.directory / f"clean-{settings_key(settings)}.json"
        self._cwd = os.getcwd()
        self.started_ns = time.time_ns()  # before any file of this run is read
        self.entries: dict[str, list] = {}
        self.dirty = False
        try:
            loaded = json.loads(self.file.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                self.entries = {
                    k: v for k, v in loaded.items() if isinstance(v, list) and len(v) == 5
                }
        except (OSError, ValueError):
            pass  # no cache yet, or a damaged one: start afresh
        self.clean_hashes = {entry[3] for entry in self.entries.values() if entry[3]}

    def _key(self, path: Path) -> str:
        return os.path.normpath(os.path.join(self._cwd, path))  # abspath, one getcwd per run

    def clean_by_stat(self, path: Path) -> bool:
        """True when the file is unchanged since it was found clean (no read needed)."""
        entry = self.entries.get(self._key(path))
        if entry is None:
            return False
        try:
            stat = os.stat(path)
        except OSError:
            return False
        mtime, size, inode, _, checked = entry
        return (
            stat.st_mtime_ns == mtime
            and stat.st_size == size
            and stat.st_ino == inode
            and stat.st_mtime_ns + RACY_NS < checked
        )

    def clean_by_content(self, data: bytes) -> bool:
        return content_hash(data) in self.clean_hashes

    def remember_clean(self, path: Path, data: bytes, hashed: bool = True) -> None:
        """`hashed=False` for a file the prefilter dropped: re-scanning it costs no more than
        hashing it, so only its stat is kept."""
        try:
            stat = os.stat(path)
        except OSError:
            return
        digest = content_hash(data) if hashed else ""
        self.entries[self._key(path)] = [
            stat.st_mtime_ns,
            stat.st_size,
            stat.st_ino,
            digest,
            self.started_ns,
        ]
        if digest:
            self.clean_hashes.add(digest)
        self.dirty = True

    def forget(self, path: Path) -> None:
        if self.entries.pop(self._key(path), None) is not None:
            self.dirty = True

    def save(self) -> None:
        """Write atomically; a cache that cannot be written is simply not kept."""
        if not self.dirty:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            ignore = self.directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Created by mem0lint.\n*\n", encoding="utf-8")
            fd, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.entries, handle, separators=(",", ":"))
            os.replace(temporary, self.file)
        except OSError:
            if os.path.exists(temporary):
                os.unlink(temporary)
