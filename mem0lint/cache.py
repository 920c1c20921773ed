"""Verdicts remembered between runs, so an unchanged tree is not parsed again.

A check remembers what it found in each file it parsed: nothing (a clean verdict), or its
findings with the rows their code frames show (a report, replayed by the next check as Ruff
replays its cache). A fix, a diff or `--add-noqa` checks every file with findings again: they
need its syntax tree. A file that could not be read or parsed is always checked again. A
verdict is keyed by the file's content hash, the settings and the mem0lint version: one cache
file per settings key (`Cache` describes its entries).

A file whose stat matches its entry is trusted without being read, unless it was modified less
than `RACY_NS` before it was checked: then an edit in the same timestamp tick could keep the
same mtime and size (git's "racily clean" case), so its content is read and hashed instead.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from mem0lint import __version__
from mem0lint.settings import Settings
from mem0lint.sources import keep_whole

if TYPE_CHECKING:
    from mem0lint.results import Diagnostic

try:  # BLAKE2 alone: `hashlib` also loads OpenSSL, a few milliseconds of every run
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - not CPython
    from hashlib import blake2b

DEFAULT_DIR = ".mem0lint_cache"
RACY_NS = 2_000_000_000  # coarser than any filesystem's timestamp granularity (FAT: 2 s)
FORMAT = 7  # 5: findings carry sdk, sdk_version, upgrade; 6: dropped verdicts also mean "no
# import leads to an SDK" (modules.py); 7: dropped verdicts are no longer rescanned for module
# words (imports are resolved; `depend` alone says when they no longer hold)


class VerdictKind(str, Enum):
    """What a cache entry's verdict says, by its first character (the on-disk form, unchanged:
    "<hash>", "+<hash>", "-<id>"; see `Cache`)."""

    CLEAN = ""  # parsed and clean: the verdict is the content hash
    REPORT = "+"  # parsed, with findings: "+<hash>" keys `Cache.reports`
    DROPPED = "-"  # dropped by the prefilter: "-<id>" keys `Cache.words`

    @classmethod
    def of(cls, verdict: str) -> VerdictKind:
        first = verdict[:1]
        return cls.REPORT if first == "+" else cls.DROPPED if first == "-" else cls.CLEAN


def content_hash(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


def settings_key(settings: Settings) -> str:
    described = json.dumps(
        {"version": __version__, "format": FORMAT, "settings": dataclasses.asdict(settings)},
        sort_keys=True,
        default=repr,
    )
    return blake2b(described.encode("utf-8"), digest_size=12).hexdigest()


class Cache:
    """Entries: {path as the run spelled it: [mtime_ns, size, inode, verdict, checked_ns]}, for
    runs from the same working folder. The verdict is the content hash of a clean file that was
    parsed, "+<hash>" for a file whose report is `reports[<hash>]`, or "-<id>" for a file the
    prefilter dropped while the project's kept modules were `words[<id>]` (see batch.py)."""

    def __init__(
        self, directory: Path, settings: Settings, project: str = "", stats: dict | None = None
    ) -> None:
        """`project`: a fingerprint of the files receivers may be bound through (a clean
        verdict may depend on another module of the project: when any changes, clean verdicts
        are dropped; prefilter verdicts, which read only the file itself, are kept).
        `stats`: {str(path): os.stat_result} taken by the caller, so files are not stat twice."""
        self.stats = stats or {}
        self.directory = Path(directory)
        self.file = self.directory / f"clean-{settings_key(settings)}.json"
        self.project = blake2b(project.encode("utf-8"), digest_size=12).hexdigest()
        self._cwd = os.getcwd()
        self.started_ns = time.time_ns()  # before any file of this run is read
        self.entries: dict[str, list] = {}
        self.words: dict[str, list[str]] = {}
        self.reports: dict[str, dict] = {}
        self._words_of: dict[str, frozenset[bytes]] = {}
        # What verdicts read besides their own file (other modules, folder listings), with a
        # fingerprint each: when one changes, no verdict holds (see `depend`).
        self.depends: dict[str, str] = {}
        self.dirty = False
        try:
            loaded = json.loads(self.file.read_text(encoding="utf-8"))
            if loaded["cwd"] != self._cwd:
                raise ValueError("its paths are relative to another folder")
            self.entries = {
                k: v for k, v in loaded["entries"].items() if isinstance(v, list) and len(v) == 5
            }
            self.words = dict(loaded["words"])
            self.reports = dict(loaded["reports"])
            if loaded.get("project") != self.project:
                self.entries = {
                    k: v
                    for k, v in self.entries.items()
                    if VerdictKind.of(v[3]) is VerdictKind.DROPPED
                }
                self.reports = {}  # found through other modules maybe: not by content either
                self.dirty = True
            depends = loaded.get("depends") or {}
            if _unchanged(depends):
                self.depends = dict(depends)
            else:
                self.entries, self.reports, self.dirty = {}, {}, True
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # no cache yet, or a damaged one: start afresh
        self.clean_hashes = {
            e[3] for e in self.entries.values() if VerdictKind.of(e[3]) is VerdictKind.CLEAN
        }

    def _key(self, path: Path | str) -> str:
        """The path as the run spelled it: entries hold for runs from the same folder."""
        return os.fspath(path)

    def verdict_by_stat(self, path: Path) -> str | None:
        """The recorded verdict when the file is unchanged since (no read needed), else None."""
        entry = self.entries.get(self._key(path))
        if entry is None:
            return None
        stat = self.stats.get(str(path))
        if stat is None:
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

    def words_of(self, verdict: str) -> frozenset[bytes] | None:
        """For a "dropped" verdict: the module names the file was scanned for."""
        found = self._words_of.get(verdict)
        if found is None:
            listed = self.words.get(verdict[1:])
            if listed is None:
                return None
            found = self._words_of[verdict] = frozenset(w.encode("utf-8") for w in listed)
        return found

    def clean_by_content(self, data: bytes) -> bool:
        return content_hash(data) in self.clean_hashes

    def report_of(self, verdict: str) -> dict | None:
        """For a "+<hash>" verdict: the remembered report (see `replay`)."""
        return self.reports.get(verdict[1:])

    def report_by_content(self, data: bytes) -> tuple[str, dict] | None:
        digest = content_hash(data)
        found = self.reports.get(digest)
        return None if found is None else (digest, found)

    def remember_report(self, path: Path, data: bytes, diagnostics, frames, info) -> None:
        """A parsed file's findings, with the rows their code frames show."""
        digest = content_hash(data)
        rows: dict[str, dict[str, str]] = {}
        for d in diagnostics:
            lines = frames.get(d.cell, [])
            row = d.start[0]
            if 0 < row <= len(lines):
                rows.setdefault(str(d.cell), {})[str(row)] = lines[row - 1]
        self.reports[digest] = {
            "diagnostics": [_stored(d) for d in diagnostics],
            "rows": rows,
            "info": list(info),
        }
        self._remember(path, VerdictKind.REPORT.value + digest)

    def remember_replayed(self, path: Path, digest: str) -> None:
        self._remember(path, VerdictKind.REPORT.value + digest)

    def remember_clean(self, path: Path, data: bytes) -> None:
        digest = content_hash(data)
        self._remember(path, digest)
        self.clean_hashes.add(digest)

    def remember_dropped(self, path: Path, words: set[bytes]) -> None:
        """A file the prefilter dropped, having scanned it for `words` (re-scanning it costs no
        more than hashing it, so no hash is kept)."""
        listed = sorted(w.decode("utf-8", "replace") for w in words)
        key = blake2b("\n".join(listed).encode("utf-8"), digest_size=8).hexdigest()
        self.words[key] = listed
        self._remember(path, VerdictKind.DROPPED.value + key)

    def _remember(self, path: Path, verdict: str) -> None:
        try:
            stat = os.stat(path)
        except OSError:
            return
        entry = [stat.st_mtime_ns, stat.st_size, stat.st_ino, verdict, self.started_ns]
        self.entries[self._key(path)] = entry
        self.dirty = True

    def depend(self, paths) -> None:
        """The run's verdicts read these files and listed these folders (the project around
        the files, modules.py): keep their fingerprints; the next run drops every verdict if
        one differs. A file a verdict depends on, or a dropped verdict's imports, may have
        changed without any linted file changing."""
        recent = self.started_ns - RACY_NS
        for path in paths:
            if path not in self.depends:
                self.depends[path] = _fingerprint(path, recent)
                self.dirty = True

    def forget(self, path: Path) -> None:
        if self.entries.pop(self._key(path), None) is not None:
            self.dirty = True

    def save(self) -> None:
        """Write atomically; a cache that cannot be written is simply not kept."""
        if not self.dirty:
            return
        used = {
            e[3][1:] for e in self.entries.values() if VerdictKind.of(e[3]) is not VerdictKind.CLEAN
        }
        self.words = {k: v for k, v in self.words.items() if k in used}
        self.reports = {k: v for k, v in self.reports.items() if k in used}
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            ignore = self.directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# Created by mem0lint.\n*\n", encoding="utf-8")
        except OSError:
            return
        data = {
            "cwd": self._cwd,
            "project": self.project,
            "entries": self.entries,
            "words": self.words,
            "reports": self.reports,
            "depends": self.depends,
        }
        write_json_atomically(self.file, data)


def write_json_atomically(path: Path, data: object) -> None:
    """`data` as JSON at `path` (`sources.keep_whole`). The text comes from json's C encoder,
    which `json.dump` never uses (it also hands the file its pieces one by one)."""
    keep_whole(path, json.dumps(data).encode("utf-8"))


def _fingerprint(path: str, recent: int = 0) -> str:
    """A file: its mtime and size; a folder: the names in it that can change where a module
    is found (not editor swap files); "!" for what cannot be trusted (gone, or changed too
    recently: an edit in the same timestamp tick would not show)."""
    try:
        stat = os.stat(path)
    except OSError:
        return "!"
    if not os.path.isdir(path):
        if recent and stat.st_mtime_ns > recent:
            return "!"
        return f"{stat.st_mtime_ns}:{stat.st_size}"
    try:
        names = os.listdir(path)
    except OSError:
        return "!"
    relevant = sorted(n for n in names if _relevant(n))
    return "d" + blake2b("\n".join(relevant).encode("utf-8", "replace"), digest_size=8).hexdigest()


def _relevant(name: str) -> bool:
    """A folder entry that can change where a module or a project's top is found."""
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        return True  # a folder (a package), or a marker such as `.git` has a dot: below
    return suffix in ("py", "pyi", "toml", "cfg", "ini") or name == ".git" or not stem


def _unchanged(depends: dict) -> bool:
    for path, fingerprint in depends.items():
        if fingerprint == "!" or _fingerprint(path) != fingerprint:
            return False
    return True


def _stored(d: Diagnostic) -> dict:
    fix = d.fix
    return {
        "code": d.code,
        "name": d.name,
        "severity": d.severity.value,
        "message": d.message,
        "dialect": d.dialect,
        "start": d.start,
        "end": d.end,
        "cell": d.cell,
        "fix": None if fix is None else [fix.applicability.value, fix.message],
        "edits": [edit.as_dict() for edit in d.edits],
        "sdk": [d.sdk, d.sdk_version, d.upgrade],
    }


def replay(stored: dict) -> tuple[list[Diagnostic], dict, list[str]]:
    """A remembered report: (diagnostics, code frame lines by cell, info lines). Diagnostics
    have no node and fixes no replacements, as reports from a worker process."""
    from mem0lint.results import Applicability, Diagnostic, Edit, Fix, Severity

    diagnostics = []
    for d in stored["diagnostics"]:
        fix = d["fix"]
        diagnostics.append(
            Diagnostic(
                code=d["code"],
                name=d["name"],
                severity=Severity(d["severity"]),
                message=d["message"],
                dialect=d["dialect"],
                node=None,  # type: ignore[arg-type]
                fix=None if fix is None else Fix(Applicability(fix[0]), fix[1], ()),
                start=tuple(d["start"]),  # type: ignore[arg-type]
                end=tuple(d["end"]),  # type: ignore[arg-type]
                edits=[Edit.from_dict(e) for e in d["edits"]],
                cell=d["cell"],
                **dict(zip(("sdk", "sdk_version", "upgrade"), d.get("sdk") or (None, None, ""))),
            )
        )
    frames: dict = {}
    for cell, rows in stored["rows"].items():
        numbered = {int(row): line for row, line in rows.items()}
        lines = [""] * max(numbered)
        for row, line in numbered.items():
            lines[row - 1] = line
        frames[None if cell == "None" else int(cell)] = lines
    return diagnostics, frames, list(stored["info"])
