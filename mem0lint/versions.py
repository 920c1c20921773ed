"""Which SDK, which version: for a linted file, the distribution that provides each SDK package
and the release the project installs, and where that was read.

Per SDK package (`mem0`, `memsy`, `memos`), the folders from the file's own up to the repository
root (a folder holding `.git`) or the filesystem root are asked in turn; the first (nearest)
folder whose project files name a provider wins. Inside a folder a lock file (`uv.lock`,
`poetry.lock`, `pdm.lock`, `Pipfile.lock`) beats a specification (`pyproject.toml`, `Pipfile`,
`setup.cfg`, literal `install_requires` of `setup.py`, `*requirements*.txt` / `*constraints*.txt`
with their `-r` / `-c` includes). A specification gives the newest known release it allows.
When no folder up to the repository's top names the SDK, the pins one or two folders below the
nearest folder above the file that has some (the top excluded: `toolkit/envs/requirements.txt`
for `toolkit/layers/rag.py`); with none, the newest release we know. Configuration
(`target-versions`, `--target-version`) wins over all of it.

A fork or unknown provider of a package (`mem0-polardb` installs its own `mem0`) means nothing
of that SDK is judged unless a target version is configured. A version mem0lint has no data for
is judged by the nearest known release below it; the run says so once. Nothing here raises for
bad input: an unreadable or malformed file is passed over with a note.

Results are cached per folder: a run over thousands of files reads each project file once.
Nothing is imported or executed (`setup.py` is read with `ast`).
"""

from __future__ import annotations

import ast
import codecs
import configparser
import contextlib
import dataclasses
import functools
import json
import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Union

from mem0lint.sdk.releases import DISPLAY, FORKS, NOT_PROVIDERS, PACKAGES, RELEASES

if TYPE_CHECKING:  # `packaging` is imported only once some project file names an SDK
    from packaging.version import Version

# Never searched for a vendored SDK tree: installed environments and JavaScript dependencies.
SKIPPED_FOLDERS = frozenset({"node_modules", "venv", "env", "site-packages", "build", "dist"})
LOCKS = ("uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock")
SPECS = ("pyproject.toml", "Pipfile", "setup.cfg", "setup.py")
# Project files that are not fixed names.
REQUIREMENT_FILE = re.compile(r"^[\w.-]*(requirements|constraints)[\w.-]*\.(txt|in)$")
# Where the SDK's own source tree states its version (a pin of its own: exact).
OWN = ("[project] version", "[tool.poetry] version")
MAX_INCLUDES = 50  # requirement files read through -r / -c from one folder
MAX_BYTES = 20 * 1024 * 1024  # a lock file bigger than this is not read
NO_PIN = "no pin found: the newest known"
# Every distribution name that matters contains one of these (case-insensitive).
_WORDS = re.compile(rb"(?i)mem0|memsy|memoryos")


# pip's own order (pip/_internal/utils/encoding.py, `auto_decode`): a requirements file written
# by Windows PowerShell (`pip freeze > requirements.txt`) is UTF-16 with a byte-order mark.
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
)
_CODING = re.compile(rb"coding[:=]\s*([-\w.]+)")


def requirements_text(data: bytes) -> str:
    """A requirements file's text, decoded as pip decodes it: by its byte-order mark, else by a
    `# coding:` comment in its first two lines, else (pip: the locale's encoding) as UTF-8."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, "replace")
    for line in data.split(b"\n")[:2]:
        found = _CODING.search(line) if line[:1] == b"#" else None
        if found is not None:
            with contextlib.suppress(LookupError):
                return data.decode(found.group(1).decode("ascii"), "replace")
    return data.decode("utf-8", "replace")


def _tomllib():
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.9 and 3.10
        import tomli as tomllib
    return tomllib


@functools.lru_cache(maxsize=64)
def known_releases(distribution: str) -> tuple[Version, ...]:
    from packaging.version import Version

    return tuple(Version(v) for v in RELEASES.get(distribution, ()))


def newest(distribution: str) -> str:
    return RELEASES[distribution][-1]


@functools.lru_cache(maxsize=1024)
def nearest_known(distribution: str, version: str) -> tuple[str, bool]:
    """The known release a version is judged by (itself, or the nearest known below it; the
    oldest when none is below), and whether it is known."""
    from packaging.version import InvalidVersion, Version

    releases = RELEASES.get(distribution, ())
    try:
        wanted = Version(version)
    except InvalidVersion:
        return newest(distribution), False
    parsed = known_releases(distribution)
    below = [r for r, v in zip(releases, parsed) if v <= wanted]
    for release, parsed_release in zip(releases, parsed):
        if parsed_release == wanted:
            return release, True
    return (below[-1] if below else releases[0]), False


@functools.lru_cache(maxsize=4096)
def in_range(specifier: str, version: str) -> bool:
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    return SpecifierSet(specifier).contains(Version(version), prereleases=True)


@dataclass(frozen=True)
class Pin:
    """One project file's word on one distribution."""

    distribution: str  # canonical name
    specifier: str  # "==1.0.3" from a lock; a PEP 440 specifier set from a spec ("" = any)
    source: str  # the file (and section) it was read from
    locked: bool = False


@dataclass(frozen=True)
class SdkVersion:
    """How one SDK package is judged in one folder."""

    package: str  # "mem0"
    distribution: str  # its provider, canonical ("mem0ai", or a fork's name)
    version: str  # the release the rules judge by ("" for a fork or unknown provider)
    source: str  # where that came from
    pinned: str = ""  # the version the project installs, when a target overrides it
    pinned_source: str = ""

    @property
    def judged(self) -> bool:
        return bool(self.version)

    def describe(self) -> str:
        name = DISPLAY.get(self.distribution, self.distribution)
        if not self.judged:
            return f"{self.package}: provided by {name}, not judged  # from {self.source}"
        line = f"{self.package}: {name} {self.version}  # from {self.source}"
        if self.pinned and self.pinned != self.version:
            line += f" (the project installs {self.pinned}: {self.pinned_source})"
        return line


@dataclass
class _Folder:
    """What one folder's project files say: {distribution: [pins]}, locks and specs apart."""

    locks: dict[str, list[Pin]] = field(default_factory=dict)
    specs: dict[str, list[Pin]] = field(default_factory=dict)
    project: bool = False  # holds a project file at all
    # {package: where} for the project's own copy of an SDK package here (`_own_copies`).
    copies: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # the project files read


def parse_targets(values: Iterable[str]) -> dict[str, str]:
    """`mem0ai==2.2` (command line) -> {"mem0ai": "2.2"}; ValueError when it is not that."""
    from packaging.requirements import InvalidRequirement, Requirement

    targets: dict[str, str] = {}
    for value in values:
        try:
            requirement = Requirement(value)
        except InvalidRequirement as error:
            raise ValueError(f"{value!r}: expected NAME==VERSION ({error})") from None
        specifiers = list(requirement.specifier)
        if len(specifiers) != 1 or specifiers[0].operator not in ("==", "==="):
            raise ValueError(f"{value!r}: expected NAME==VERSION, e.g. mem0ai==2.2")
        targets.update(check_target(requirement.name, specifiers[0].version, value))
    return targets


def check_target(name: str, version: Any, where: str) -> dict[str, str]:
    from packaging.utils import canonicalize_name
    from packaging.version import InvalidVersion, Version

    distribution = canonicalize_name(name)
    if distribution not in RELEASES:
        known = ", ".join(DISPLAY[d] for d in RELEASES)
        raise ValueError(f"{where}: {name!r} is not an SDK mem0lint knows ({known})")
    text = str(version).strip()
    if text.startswith("=="):
        text = text.lstrip("=")
    try:
        Version(text)
    except InvalidVersion:
        raise ValueError(f"{where}: {version!r} is not a version") from None
    return {distribution: text}


class Discovery:
    """The SDK versions of every folder of a run, each project file read once."""

    def __init__(self, targets: Union[dict[str, str], None] = None) -> None:
        self.targets = dict(targets or {})  # distribution -> version (configuration)
        self._folders: dict[str, _Folder] = {}
        self._resolved: dict[tuple, tuple[SdkVersion, ...]] = {}
        self._below: dict[tuple[str, str], list[SdkVersion]] = {}  # (folder, package): pins
        self._tops: dict[str, bool] = {}  # folder: holds `.git`
        self.notes: list[str] = []  # said once per run
        self._noted: set[str] = set()
        self.read: set[str] = set()  # every project file read (the snapshot watches them)

    def note(self, text: str) -> None:
        if text not in self._noted:
            self._noted.add(text)
            self.notes.append(text)

    # Resolution ---------------------------------------------------------------------------------
    def for_path(
        self, path: Union[str, os.PathLike], targets: Union[dict[str, str], None] = None
    ) -> tuple[SdkVersion, ...]:
        absolute = os.path.abspath(path)
        folder = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
        return self.for_folder(folder, targets)

    def for_folder(
        self, folder: str, targets: Union[dict[str, str], None] = None
    ) -> tuple[SdkVersion, ...]:
        """`targets`: the configured versions for this folder (a pyproject's `target-versions`
        merged with the command line's); None: the run's own."""
        targets = self.targets if targets is None else targets
        configured = tuple(sorted(targets.items()))
        # A folder that pins nothing and ends no chain is judged as its parent is (its chain is
        # its parent's, behind a link that gives nothing): a tree's thousand folders resolve
        # once per pinning folder, not once each.
        passed: list[tuple] = []
        while True:
            key = (folder, configured)
            found = self._resolved.get(key)
            if found is not None:
                break
            own = self._folder(folder)
            parent = os.path.dirname(folder)
            if (
                own.locks
                or own.specs
                or parent == folder
                or self._is_repository_top(folder)
                or own.copies
            ):
                chain = self._chain(folder)
                found = tuple(self._resolve(package, chain, targets) for package in PACKAGES)
                self._resolved[key] = found
                break
            passed.append(key)
            folder = parent
        for key in passed:
            self._resolved[key] = found
        if passed and any(sdk.source == NO_PIN for sdk in found):
            key = ("beside", *passed[0])
            beside = self._resolved.get(key)
            if beside is None:
                beside = self._resolved[key] = self._beside(passed[0][0], found)
            return beside
        return found

    def _beside(self, folder: str, found: tuple[SdkVersion, ...]) -> tuple[SdkVersion, ...]:
        """Nothing from `folder` up to the repository's top names an SDK: its pins one or two
        folders below the nearest folder above `folder` that has some, the top excluded (a
        package whose install files sit beside its code: `toolkit/envs/requirements.txt` for
        `toolkit/layers/rag.py`). Several: the oldest, said once. Outside a repository, or
        none: `found` (no bound on what lies below a folder that is not in one)."""
        ancestors = []
        while not self._is_repository_top(folder):
            ancestors.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                return found  # not in a repository
            folder = parent
        return tuple(
            self._pinned_beside(sdk.package, ancestors) or sdk if sdk.source == NO_PIN else sdk
            for sdk in found
        )

    def _pinned_beside(self, package: str, ancestors: list[str]) -> Union[SdkVersion, None]:
        for folder in ancestors:
            found = self._below.get((folder, package))
            if found is None:
                found = self._below[(folder, package)] = [
                    pinned
                    for first in _subfolders(folder)
                    for candidate in [first, *_subfolders(first)]
                    for pinned in [self._discover(package, [(candidate, self._folder(candidate))])]
                    if pinned is not None and pinned.version
                ]
            if found:
                chosen = min(found, key=lambda sdk: _key(sdk.version))
                versions = sorted({sdk.version for sdk in found}, key=_key)
                if len(versions) > 1:
                    self.note(
                        f"{folder}: no pin of {DISPLAY[chosen.distribution]} above it, several"
                        f" below ({', '.join(versions)}); judged by the oldest, {chosen.version}"
                    )
                source = f"{chosen.source} (no pin above the file: the nearest beside it)"
                return dataclasses.replace(chosen, source=source)
        return None

    def _is_repository_top(self, folder: str) -> bool:
        top = self._tops.get(folder)
        if top is None:
            top = self._tops[folder] = os.path.exists(os.path.join(folder, ".git"))
        return top

    def _chain(self, folder: str) -> list[tuple[str, _Folder]]:
        chain = []
        while True:
            chain.append((folder, self._folder(folder)))
            parent = os.path.dirname(folder)
            if parent == folder or self._is_repository_top(folder):
                return chain
            folder = parent

    def _resolve(
        self, package: str, chain: list[tuple[str, _Folder]], targets: dict[str, str]
    ) -> SdkVersion:
        provider = PACKAGES[package]
        discovered = self._discover(package, chain)
        target = targets.get(provider)
        if target is not None:
            judged, known = nearest_known(provider, target)
            if not known:
                self.note(
                    f"no data for {DISPLAY[provider]} {target}: judged as {judged}, the nearest"
                    " known release below it"
                )
            pinned, pinned_source = "", ""
            if discovered is not None and discovered.distribution == provider:
                pinned, pinned_source = discovered.version, discovered.source
            return SdkVersion(package, provider, judged, "configuration", pinned, pinned_source)
        if discovered is None or discovered.distribution == provider:
            copy = self._copy_in_chain(package, chain)
            if copy is not None:
                self._note_own_copy(package, copy)
                return SdkVersion(package, own_copy(package), "", copy)
        if discovered is not None:
            return discovered
        return SdkVersion(package, provider, newest(provider), NO_PIN)

    def _copy_in_chain(self, package: str, chain: list[tuple[str, _Folder]]) -> Union[str, None]:
        """Where a folder of the chain, below any SDK's own source tree, holds the project's own
        `package`: the source of that copy, else None. An import of `package` from the file may find
        that copy before the installed release (a script's folder comes first on `sys.path`,
        and a repository's top is on it under `python -m`, pytest and most `PYTHONPATH`s), so
        the release a folder below it pins does not say which code runs."""
        provider = PACKAGES[package]
        for _, found in chain:
            if package in found.copies:
                return found.copies[package]
            if any(pin.source.endswith(OWN) for pin in found.locks.get(provider, [])):
                return None  # the SDK's own source tree: its code imports itself
        return None

    def _note_own_copy(self, package: str, source: str) -> None:
        self.note(
            f"`{package}` is the project's own copy ({source.split(' (')[0]}):"
            " its calls are not judged (configure target-versions to judge them)"
        )

    def _discover(self, package: str, chain: list[tuple[str, _Folder]]) -> Union[SdkVersion, None]:
        provider = PACKAGES[package]
        for folder, found in chain:
            for pins_by_name, locked in ((found.locks, True), (found.specs, False)):
                names = [n for n in pins_by_name if _provides(n, package)]
                if not names:
                    continue
                # A known fork wins (it installs its own copy); a name that only looks like a
                # provider (`mem0-<something>`) counts when the real provider is not there.
                forks = [n for n in names if _fork(n)]
                if not forks and provider not in names:
                    forks = names
                if forks:
                    fork = sorted(forks)[0]
                    source = pins_by_name[fork][0].source
                    if provider in names:
                        self.note(
                            f"{folder}: both {DISPLAY[provider]} and {fork} provide `{package}`;"
                            f" its calls are not judged (configure target-versions to judge them)"
                        )
                    elif fork == own_copy(package):
                        self._note_own_copy(package, source)
                    else:
                        self.note(
                            f"`{package}` is provided by {fork} ({source}): its calls are not"
                            " judged (configure target-versions to judge them)"
                        )
                    return SdkVersion(package, fork, "", source)
                version, source = self._version(folder, provider, pins_by_name[provider], locked)
                return SdkVersion(package, provider, version, source)
        return None

    def _version(self, folder: str, provider: str, pins: list[Pin], locked: bool) -> tuple:
        """The version a folder's pins give (lock: its version; specs: the newest known release
        every spec allows) and where it came from."""
        from packaging.specifiers import SpecifierSet

        name = DISPLAY[provider]
        exact = sorted({v for v in map(_exact_version, pins) if v is not None}, key=_key)
        if exact:
            chosen = exact[0]
            source = next(p.source for p in pins if _exact_version(p) == chosen)
            if len(exact) > 1:
                self.note(
                    f"{folder}: conflicting pins of {name} ({', '.join(exact)}); judged by the"
                    f" oldest, {chosen}"
                )
            judged, known = nearest_known(provider, chosen)
            if not known:
                self.note(
                    f"no data for {name} {chosen} ({source}): judged as {judged}, the nearest"
                    " known release below it"
                )
            return judged, source
        specifiers = SpecifierSet()
        for pin in pins:
            specifiers &= SpecifierSet(pin.specifier)
        sources = ", ".join(sorted({p.source for p in pins}))
        allowed = [v for v in known_releases(provider) if specifiers.contains(v)]
        if allowed:
            return str(allowed[-1]), f"{sources}: the newest known release {specifiers or 'any'}"
        self.note(
            f"{folder}: no known release of {name} satisfies {specifiers} ({sources});"
            f" judged as the newest known, {newest(provider)}"
        )
        return newest(provider), sources

    # Reading a folder ---------------------------------------------------------------------------
    def _folder(self, folder: str) -> _Folder:
        found = self._folders.get(folder)
        if found is not None:
            return found
        found = self._folders[folder] = _Folder()
        try:
            names = set(os.listdir(folder))
        except OSError:
            return found
        readers = {
            "uv.lock": _uv_lock,
            "poetry.lock": _toml_lock,
            "pdm.lock": _toml_lock,
            "Pipfile.lock": _pipfile_lock,
            "pyproject.toml": _pyproject,
            "Pipfile": _pipfile,
            "setup.cfg": _setup_cfg,
            "setup.py": _setup_py,
        }
        for name, reader in readers.items():
            if name not in names:
                continue
            path = os.path.join(folder, name)
            found.project = True
            pins = self._read(path, reader)
            for pin in pins:
                target = found.locks if name in LOCKS or pin.locked else found.specs
                target.setdefault(pin.distribution, []).append(pin)
        requirements = sorted(n for n in names if REQUIREMENT_FILE.match(n))
        if "requirements" in names:
            sub = os.path.join(folder, "requirements")
            with contextlib.suppress(OSError):
                requirements += sorted(
                    os.path.join("requirements", n)
                    for n in os.listdir(sub)
                    if n.endswith((".txt", ".in"))
                )
        if requirements:
            found.project = True
            seen: set[str] = set()
            for name in requirements:
                for pin in self._requirements(os.path.join(folder, name), seen, 0):
                    found.specs.setdefault(pin.distribution, []).append(pin)
        self._own_copies(folder, found, names)
        return found

    def _own_copies(self, folder: str, found: _Folder, names: set[str]) -> None:
        """The SDK packages this folder holds a copy of, not being the SDK's own tree (its
        `mem0/` or `src/mem0/`, or in a project a vendored SDK tree below it): what imports of
        them may find. A project's copy is also a fork pin of the folder."""
        for package, provider in PACKAGES.items():
            own_version = [p for p in found.locks.get(provider, []) if p.source.endswith(OWN)]
            if own_version:
                continue  # the SDK's own source tree, judged at its own version
            # (a `stat` only where the listing, read anyway, names the package or `src`)
            layout = _package_copy(folder, package) if {package, "src"} & names else None
            if layout is not None:
                source = f"{layout} (the project's own copy)"
            elif found.project:
                vendored = self._vendored_sdk(folder, package, provider)
                if vendored is None:
                    continue
                # `pip install -e ./thirdparty/mem0` installs that copy instead of the release
                # the requirements name; which one runs is not in the files.
                source = f"{vendored} (the project's own copy: a vendored SDK tree)"
            else:
                continue
            found.copies[package] = source
            if found.project:
                name = own_copy(package)
                found.locks.setdefault(name, []).append(Pin(name, "", source, True))

    def _vendored_sdk(self, folder: str, package: str, provider: str) -> Union[str, None]:
        """A copy of the SDK's own source tree one or two folders below a project
        (`thirdparty/mem0/` holding `pyproject.toml` of `mem0ai` and `mem0/__init__.py`)."""
        candidates = []
        for first in _subfolders(folder):
            candidates.append(first)
            candidates += _subfolders(first)
        for candidate in candidates:
            if not os.path.isfile(os.path.join(candidate, package, "__init__.py")):
                continue
            own = self._folder(candidate).locks.get(provider, [])
            if any(pin.source.endswith(OWN) for pin in own):
                return candidate
        return None

    def _read(self, path: str, reader) -> list[Pin]:
        self.read.add(path)
        try:
            if os.path.getsize(path) > MAX_BYTES:
                self.note(f"{path}: too large to read for SDK versions; passed over")
                return []
            with open(path, "rb") as handle:
                data = handle.read()
            if not _WORDS.search(data):
                return []  # names no SDK: not parsed (a big lock costs tens of milliseconds)
            return list(reader(data, path))
        except Exception as error:  # noqa: BLE001 - bad input of any kind: say so, go on
            self.note(f"{path}: cannot read SDK versions from it ({_reason(error)}); passed over")
            return []

    def _requirements(self, path: str, seen: set[str], depth: int) -> list[Pin]:
        real = os.path.realpath(path)
        if real in seen or len(seen) >= MAX_INCLUDES or depth > 10:
            return []
        seen.add(real)
        self.read.add(path)
        try:
            with open(path, "rb") as handle:
                text = requirements_text(handle.read(MAX_BYTES))
        except OSError as error:
            self.note(f"{path}: cannot read SDK versions from it ({_reason(error)}); passed over")
            return []
        pins: list[Pin] = []
        for line in _logical_lines(text):
            include = _include(line)
            if include is not None:
                target = os.path.join(os.path.dirname(path), include)
                pins += self._requirements(target, seen, depth + 1)
                continue
            pin = _requirement_pin(line, path)
            if pin is not None:
                pins.append(pin)
        return pins


def _reason(error: BaseException) -> str:
    text = getattr(error, "strerror", None) or str(error)
    return text.splitlines()[0] if text else type(error).__name__


def _key(version: str):
    from packaging.version import InvalidVersion, Version

    try:
        return (0, Version(version))
    except InvalidVersion:
        return (1, version)


def _subfolders(folder: str) -> list[str]:
    """The folders directly in `folder`, without hidden, virtual-environment and node folders."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return []
    return [
        entry.path
        for entry in entries
        if entry.is_dir(follow_symlinks=False)
        and not entry.name.startswith((".", "_"))
        and entry.name not in SKIPPED_FOLDERS
    ]


def _package_copy(folder: str, package: str) -> Union[str, None]:
    """`folder/package` or `folder/src/package` when it is a package (has `__init__.py`)."""
    for layout in (package, os.path.join("src", package)):
        if os.path.isfile(os.path.join(folder, layout, "__init__.py")):
            return os.path.join(folder, layout)
    return None


def own_copy(package: str) -> str:
    """The provider name of a package a project ships itself (a fork in the tree)."""
    return f"{package} (own copy)"


def _fork(distribution: str) -> bool:
    return distribution in FORKS or distribution.endswith(" (own copy)")


def _provides(distribution: str, package: str) -> bool:
    """Does this distribution install `package` (the SDK's provider, a known fork, or a name
    that looks like one: `mem0-<something>` for `mem0`)?"""
    if distribution == PACKAGES[package] or FORKS.get(distribution) == package:
        return True
    if distribution == own_copy(package):
        return True
    if distribution in NOT_PROVIDERS or distribution in RELEASES:
        return False
    return package == "mem0" and distribution.startswith(("mem0-", "mem0ai-"))


def _interesting(distribution: str) -> bool:
    return any(_provides(distribution, package) for package in PACKAGES)


# Lock files: exact versions ---------------------------------------------------------------------
def _lock_pins(packages: Any, path: str) -> Iterable[Pin]:
    from packaging.utils import canonicalize_name

    if not isinstance(packages, list):
        return
    for package in packages:
        if not isinstance(package, dict):
            continue
        name, version = package.get("name"), package.get("version")
        if not isinstance(name, str) or not isinstance(version, str):
            continue
        source = package.get("source")
        if isinstance(source, dict) and ({"editable", "virtual"} & set(source)):
            continue  # the project itself (or a workspace member), not something it installs
        distribution = canonicalize_name(name)
        if _interesting(distribution):
            yield Pin(distribution, "==" + version, path, locked=True)


_LOCK_KEY = re.compile(r"^(name|version|source)\s*=\s*(.*?)\s*$")


def _scan_lock(text: str) -> Union[list[dict], None]:
    """The `[[package]]` entries (name, version, source) of a TOML lock, read line by line: a
    big lock parses in tens of milliseconds this way, not a second. None when the file has no
    such entry (then it is parsed as TOML, which says what is wrong with it)."""
    packages: list[dict] = []
    current: Union[dict, None] = None
    for line in text.splitlines():
        if line.startswith("["):
            current = {} if line.strip() == "[[package]]" else None
            if current is not None:
                packages.append(current)
            continue
        if current is None:
            continue
        match = _LOCK_KEY.match(line)
        if match is not None and match.group(1) not in current:
            key, value = match.groups()
            if key == "source":
                current[key] = {w: True for w in ("editable", "virtual") if w + " =" in value}
            elif len(value) >= 2 and value[0] == value[-1] == '"':
                current[key] = value[1:-1]
    return packages or None


def _uv_lock(data: bytes, path: str) -> Iterable[Pin]:
    """uv.lock, poetry.lock, pdm.lock."""
    text = data.decode("utf-8")
    packages = _scan_lock(text)
    if packages is None:
        packages = _tomllib().loads(text).get("package")
    return _lock_pins(packages, path)


_toml_lock = _uv_lock


def _pipfile_lock(data: bytes, path: str) -> Iterable[Pin]:
    from packaging.utils import canonicalize_name

    document = json.loads(data.decode("utf-8"))
    for section in ("default", "develop"):
        packages = document.get(section) or {}
        for name, entry in packages.items() if isinstance(packages, dict) else ():
            version = entry.get("version") if isinstance(entry, dict) else None
            distribution = canonicalize_name(name)
            if isinstance(version, str) and version.startswith("==") and _interesting(distribution):
                yield Pin(distribution, version, path, locked=True)


# Specifications: PEP 508 requirements -----------------------------------------------------------
def _requirement_pin(text: str, source: str) -> Union[Pin, None]:
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        requirement = Requirement(text.strip())
    except InvalidRequirement:
        return None
    distribution = canonicalize_name(requirement.name)
    if not _interesting(distribution):
        return None
    if requirement.url:
        return Pin(distribution, "", f"{source} (a URL; any version)")
    return Pin(distribution, _exact_or(str(requirement.specifier)), source)


def _exact_version(pin: Pin) -> Union[str, None]:
    """The version of an exact pin (`==1.0.0`, a lock's); None for a range, a wildcard
    (`==0.1.*`) or several clauses (`==0.1.29,>=0.1`: a range that allows one release)."""
    spec = pin.specifier
    if not spec.startswith("==") or "," in spec or "*" in spec:
        return None
    return spec.lstrip("=").strip()


def _exact_or(specifier: str) -> str:
    """A single `==V` (no wildcard) stays an exact pin; anything else is a range."""
    from packaging.specifiers import SpecifierSet

    parts = [s for s in SpecifierSet(specifier)]
    if len(parts) == 1 and parts[0].operator in ("==", "===") and "*" not in parts[0].version:
        return "==" + parts[0].version
    return specifier


def _pep508_list(values: Any, source: str) -> Iterable[Pin]:
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, (list, tuple)):
        return
    for value in values:
        if isinstance(value, str):
            pin = _requirement_pin(value, source)
            if pin is not None:
                yield pin


def _pyproject(data: bytes, path: str) -> Iterable[Pin]:
    from packaging.utils import canonicalize_name

    document = _tomllib().loads(data.decode("utf-8"))
    name = path
    project = document.get("project") or {}
    if isinstance(project, dict):
        own = project.get("name")
        if isinstance(own, str) and isinstance(project.get("version"), str):
            distribution = canonicalize_name(own)
            if distribution in RELEASES:  # the SDK's own source tree
                yield Pin(distribution, "==" + project["version"], f"{name} {OWN[0]}", True)
        yield from _pep508_list(project.get("dependencies"), f"{name} [project] dependencies")
        optional = project.get("optional-dependencies") or {}
        for values in optional.values() if isinstance(optional, dict) else ():
            yield from _pep508_list(values, f"{name} [project] optional-dependencies")
    groups = document.get("dependency-groups") or {}
    for values in groups.values() if isinstance(groups, dict) else ():
        yield from _pep508_list(values, f"{name} [dependency-groups]")
    poetry = (document.get("tool") or {}).get("poetry") or {}
    if isinstance(poetry, dict):
        own = poetry.get("name")
        if isinstance(own, str) and isinstance(poetry.get("version"), str):
            distribution = canonicalize_name(own)
            if distribution in RELEASES:  # the SDK's own source tree
                yield Pin(distribution, "==" + poetry["version"], f"{name} {OWN[1]}", True)
        tables = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
        groups = poetry.get("group") or {}
        for group in groups.values() if isinstance(groups, dict) else ():
            tables.append(group.get("dependencies") if isinstance(group, dict) else None)
        for table in tables:
            yield from _poetry_table(table, f"{name} [tool.poetry]")


def _poetry_table(table: Any, source: str) -> Iterable[Pin]:
    from packaging.utils import canonicalize_name

    if not isinstance(table, dict):
        return
    for dependency, value in table.items():
        distribution = canonicalize_name(dependency)
        if not _interesting(distribution):
            continue
        if isinstance(value, list):  # multiple constraints by marker: the first
            value = value[0] if value else "*"
        if isinstance(value, dict):
            if "version" not in value:
                yield Pin(distribution, "", f"{source} (path, git or url; any version)")
                continue
            value = value["version"]
        if isinstance(value, str):
            yield Pin(distribution, _exact_or(poetry_specifier(value)), source)


_POETRY_PART = re.compile(r"^\s*(\^|~(?!=)|)\s*([0-9][0-9A-Za-z.*+!-]*)\s*$")


def poetry_specifier(constraint: str) -> str:
    """A Poetry constraint as a PEP 440 specifier set: `^1.2` -> `>=1.2,<2.0`, `~1.2` ->
    `>=1.2,<1.3`, `1.2.3` -> `==1.2.3`, `*` -> any; PEP 440 forms pass through."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    parts = []
    for part in re.split(r"\s*,\s*|\s+(?=[<>=!~^])", constraint.strip()):
        if part in ("", "*"):
            continue
        if "||" in part:
            return ""  # an alternative: any version of the ones we know
        match = _POETRY_PART.match(part)
        if match is None:
            parts.append(part)
            continue
        operator, version = match.groups()
        try:
            release = Version(version.replace("*", "0")).release
        except InvalidVersion:
            return ""
        if "*" in version:
            parts.append("==" + version)
        elif operator == "^":
            first = next((i for i, n in enumerate(release) if n != 0), len(release) - 1)
            upper = list(release[: first + 1])
            upper[-1] += 1
            parts += [">=" + version, "<" + ".".join(map(str, upper))]
        elif operator == "~":
            upper = list(release[:2]) if len(release) > 1 else [release[0]]
            upper[-1] += 1
            parts += [">=" + version, "<" + ".".join(map(str, upper))]
        else:
            parts.append("==" + version)
    text = ",".join(parts)
    try:
        SpecifierSet(text)
    except InvalidSpecifier:
        return ""
    return text


def _pipfile(data: bytes, path: str) -> Iterable[Pin]:
    from packaging.specifiers import InvalidSpecifier
    from packaging.utils import canonicalize_name

    document = _tomllib().loads(data.decode("utf-8"))
    for section in ("packages", "dev-packages"):
        table = document.get(section) or {}
        for dependency, value in table.items() if isinstance(table, dict) else ():
            distribution = canonicalize_name(dependency)
            if not _interesting(distribution):
                continue
            if isinstance(value, dict):
                value = value.get("version", "*")
            if isinstance(value, str):
                spec = "" if value.strip() == "*" else value.strip()
                try:
                    yield Pin(distribution, _exact_or(spec), f"{path} [{section}]")
                except InvalidSpecifier:
                    yield Pin(distribution, "", f"{path} [{section}]")


def _setup_cfg(data: bytes, path: str) -> Iterable[Pin]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(data.decode("utf-8"))
    if parser.has_option("options", "install_requires"):
        lines = parser.get("options", "install_requires").splitlines()
        yield from _pep508_list(lines, f"{path} install_requires")
    if parser.has_section("options.extras_require"):
        for _, value in parser.items("options.extras_require"):
            yield from _pep508_list(value.splitlines(), f"{path} extras_require")


def _setup_py(data: bytes, path: str) -> Iterable[Pin]:
    """Literal `install_requires=[...]` / `extras_require={...}` of a `setup(...)` call (or a
    module-level name bound to a literal list), read with `ast`, never run."""
    tree = ast.parse(data, path)
    names: dict[str, ast.expr] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                names[target.id] = statement.value

    def literal(node: ast.expr) -> Any:
        if isinstance(node, ast.Name) and node.id in names:
            node = names[node.id]
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            return None

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg == "install_requires":
                yield from _pep508_list(literal(keyword.value), f"{path} install_requires")
            elif keyword.arg == "extras_require":
                extras = literal(keyword.value)
                for values in extras.values() if isinstance(extras, dict) else ():
                    yield from _pep508_list(values, f"{path} extras_require")


# requirements.txt -------------------------------------------------------------------------------
def _logical_lines(text: str) -> Iterable[str]:
    """Requirement lines: continuations joined, comments dropped, and a requirement's own
    options (`mem0ai==0.1.29 --hash=sha256:...`, as pip-compile writes them) cut off."""
    joined = re.sub(r"\\\r?\n", " ", text)
    for line in joined.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if line and not line.startswith("-"):
            line = _OPTION.split(line, 1)[0]
        if line:
            yield line


_OPTION = re.compile(r"\s+--[A-Za-z]")


_INCLUDE = re.compile(r"^(?:-r|-c|--requirement|--constraint)(?:\s*=\s*|\s+|(?=\S))(\S+)$")


def _include(line: str) -> Union[str, None]:
    match = _INCLUDE.match(line)
    if match is None:
        return None
    target = match.group(1)
    return None if "://" in target else target


# The run's view ---------------------------------------------------------------------------------
def as_settings(sdks: Iterable[SdkVersion]) -> tuple[tuple[str, str, str, str], ...]:
    """What the engine needs (Settings.sdks): (package, distribution, judged version, pinned)."""
    return tuple((s.package, s.distribution, s.version, s.pinned) for s in sdks)


def engine_settings(resolved, path, discovery: Discovery):
    """The engine settings of the file at `path` (`resolved`: its `config.Resolved`), with the
    SDK releases it is judged by."""
    import dataclasses

    sdks = discovery.for_path(path, resolved.target_versions)
    return dataclasses.replace(resolved.engine_settings(), sdks=as_settings(sdks))


def describe(sdks: Iterable[SdkVersion]) -> str:
    """The lines `--show-settings` adds."""
    return "".join(f"  sdk {s.describe()}\n" for s in sdks)
