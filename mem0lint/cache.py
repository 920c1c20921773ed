"""Clean verdicts remembered between runs, so an unchanged tree is not parsed again.

Only "this content has no finding" is remembered; a file with findings (or an error) is always
checked again, so its positions, code frames and fixes are always fresh. A verdict is keyed by
the file's content hash, the settings and the mem0lint version: one cache file per settings
key (`Cache` describes its entries).

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
FORMAT = 2


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
    """Entries: {absolute path: [mtime_ns, size, inode, verdict, checked_ns]}. The verdict is the
    content hash of a clean file that was parsed, or "-<id>" for a file the prefilter dropped
    while the project's kept modules were `words[<id>]` (see batch.py)."""

    def __init__(self, directory: Path, settings: Settings, project: str = "") -> None:
        """`project`: a fingerprint of the files receivers may be bound through (a clean
        verdict may depend on another module of the project: when any changes, clean verdicts
        are dropped; prefilter verdicts, which read only the file itself, are kept)."""
        self.directory = Path(directory)
        self.file = self.directory / f"clean-{settings_key(settings)}.json"
        self.project = hashlib.blake2b(project.encode("utf-8"), digest_size=12).hexdigest()
        self._cwd = os.getcwd()
        self.started_ns = time.time_ns()  # before any file of this run is read
        self.entries: dict[str, list] = {}
        self.words: dict[str, list[str]] = {}
        self.dirty = False
        try:
            loaded = json.loads(self.file.read_text(encoding="utf-8"))
            self.entries = {
                k: v for k, v in loaded["entries"].items() if isinstance(v, list) and len(v) == 5
            }
            self.words = dict(loaded["words"])
            if loaded.get("project") != self.project:
                self.entries = {k: v for k, v in self.entries.items() if v[3].startswith("-")}
                self.dirty = True
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # no cache yet, or a damaged one: start afresh
        self.clean_hashes = {e[3] for e in self.entries.values() if not e[3].startswith("-")}

    def _key(self, path: Path) -> str:
        return os.path.normpath(os.path.join(self._cwd, path))  # abspath, one getcwd per run

    def verdict_by_stat(self, path: Path) -> str | None:
        """The recorded verdict when the file is unchanged since (no read needed), else None."""
        entry = self.entries.get(self._key(path))
        if entry is None:
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        mtime, size, inode, verdict, checked = entry
        unchanged = (
            stat.st_mtime_ns == mtime
            and stat.st_size == size
            and stat.st_ino == inode
            and stat.st_mtime_ns + RACY_NS < checked
        )
        return verdict if unchanged else None

    def words_of(self, verdict: str) -> set[bytes] | None:
        """For a "dropped" verdict: the module names the file was scanned for."""
        listed = self.words.get(verdict[1:])
        return None if listed is None else {w.encode("utf-8") for w in listed}

    def clean_by_content(self, data: bytes) -> bool:
        return content_hash(data) in self.clean_hashes

    def remember_clean(self, path: Path, data: bytes) -> None:
        digest = content_hash(data)
        self._remember(path, digest)
        self.clean_hashes.add(digest)

    def remember_dropped(self, path: Path, words: set[bytes]) -> None:
        """A file the prefilter dropped, having scanned it for `words` (re-scanning it costs no
        more than hashing it, so no hash is kept)."""
        listed = sorted(w.decode("utf-8", "replace") for w in words)
        key = hashlib.blake2b("\n".join(listed).encode("utf-8"), digest_size=8).hexdigest()
        self.words[key] = listed
        self._remember(path, "-" + key)

    def _remember(self, path: Path, verdict: str) -> None:
        try:
            stat = os.stat(path)
        except OSError:
            return
        entry = [stat.st_mtime_ns, stat.st_size, stat.st_ino, verdict, self.started_ns]
        self.entries[self._key(path)] = entry
        self.dirty = True

    def forget(self, path: Path) -> None:
        if self.entries.pop(self._key(path), None) is not None:
            self.dirty = True

    def save(self) -> None:
        """Write atomically; a cache that cannot be written is simply not kept."""
        if not self.dirty:
            return
        used = {e[3][1:] for e in self.entries.values() if e[3].startswith("-")}
        self.words = {k: v for k, v in self.words.items() if k in used}
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
                json.dump(
                    {"project": self.project, "entries": self.entries, "words": self.words},
                    handle,
                )
            os.replace(temporary, self.file)
        except OSError:
            if os.path.exists(temporary):
                os.unlink(temporary)
