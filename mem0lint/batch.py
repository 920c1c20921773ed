"""The workers of the pipeline's triage and check stages (pipeline.py), for many files cheaply.

Most files of a project never touch a memory SDK: they are read once, scanned for the words a
finding needs (prefilter.py) and dropped, and libcst is imported only when some file is left.
A file that spells no SDK word is kept after all when a name it imports and uses resolves, on
disk, to a module that leads to one (a helper module that never spells the SDK, bound by a
project index): imports are resolved to files, never matched as words, so a kept `config.py`
does not keep every file that says "config".
Verdicts come from the cache without a parse (and, when the stat is unchanged, without a
read): clean files in every mode, and in a check the findings of the others. What is left is
checked in this process when it is a handful of files, in a process pool when there are many
(`jobs`: None = decide, 1 = serial).
"""

from __future__ import annotations

import dataclasses
import gc
import os
import signal
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Union

from mem0lint.cache import VerdictKind
from mem0lint.modes import Mode
from mem0lint.prefilter import anchors, external_words, may_matter
from mem0lint.results import FileReport
from mem0lint.runner import check_named, process
from mem0lint.sources import SourceFile

if TYPE_CHECKING:
    from mem0lint.cache import Cache
    from mem0lint.modules import ModuleFinder
    from mem0lint.settings import Settings

# Below this many files to parse, a pool costs more (process start, pickling) than it saves.
SERIAL_BELOW = 12
FILES_PER_WORKER = 6


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers_for(files: int, jobs: int | None) -> int:
    if jobs is not None:
        return max(1, min(jobs, files))
    if files < SERIAL_BELOW:
        return 1
    return max(1, min(available_cpus(), files // FILES_PER_WORKER))


# The check's workers come from a fork server started, and made to import libcst and the rules,
# while discovery or triage runs in this process (`start_server_early`, `prepare_workers`);
# None: not started.
_server_context = None
_server_used = False  # a pool's workers came from it
# How many files, spread over the tree, `prepare_workers` reads to guess how many pass triage.
SAMPLED = 64


def start_server_early(paths: Iterable[str], jobs: int | None) -> None:
    """Start the fork server before discovery when a pool is likely: a folder is linted whose
    project names an SDK's distribution in its top-level install files (`pyproject.toml`,
    `requirements*.txt`, ...). The server's import then runs beside discovery as well as triage.
    Elsewhere `prepare_workers` decides after discovery, from a sample of the files: starting a
    server costs this process 15 ms (multiprocessing's import, a fork), which a tree that
    never needs one (a site-packages, a standard library) should not pay."""
    folders = [path for path in paths if os.path.isdir(path)]
    if folders and _names_an_sdk(folders[0]):
        start_server(jobs)


def _names_an_sdk(folder: str) -> bool:
    from mem0lint.sdk.releases import PACKAGES
    from mem0lint.versions import REQUIREMENT_FILE, SPECS

    distributions = [name.encode() for name in PACKAGES.values()]
    try:
        names = [n for n in os.listdir(folder) if n in SPECS or REQUIREMENT_FILE.match(n)]
    except OSError:
        return False
    for name in names:
        try:
            with open(os.path.join(folder, name), "rb") as handle:
                text = handle.read(1 << 20).lower()
        except OSError:
            continue
        if any(distribution in text for distribution in distributions):
            return True
    return False


def start_server(jobs: int | None) -> None:
    """Start the process the check's workers will be forked from, and have it import libcst, the
    rules and all else a worker needs (forkserver_preload.py, 0.25 s) on another core while this
    process discovers or triages the tree: else this process imports them between triage and
    the first file, with every other core idle, and each worker what it needs besides.
    Only where a pool is possible: more than one job and core, and a fork server."""
    global _server_context
    import multiprocessing

    if _server_context is not None or jobs == 1 or available_cpus() < 2:
        return
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return
    from multiprocessing import forkserver

    multiprocessing.set_forkserver_preload(["mem0lint.forkserver_preload"])
    try:
        forkserver.ensure_running()  # returns at once; the server imports in the background
    except (OSError, RuntimeError, ValueError):
        return  # no socket or no interpreter to start here: the workers are forked as before
    _server_context = multiprocessing.get_context("forkserver")


def prepare_workers(found: list[SourceFile], jobs: int | None) -> None:
    """Have a fork server (`start_server`) only if enough of a sample of the files spell an SDK
    word (`may_matter`) that a pool's share of the tree would pass triage: a site-packages or
    a standard library, where none does, must not lose a core to an import it never uses. A
    server started before discovery (`start_server_early`) that is not wanted is killed at
    once. Whichever way it goes, every finding is the same."""
    if jobs == 1 or available_cpus() < 2:
        return
    step = max(1, len(found) // SAMPLED)
    sample = found[::step]
    passing = 0
    for source in sample:
        try:
            with open(source.fspath, "rb") as handle:
                passing += may_matter(handle.read())
        except OSError:
            continue
    if passing * len(found) < SERIAL_BELOW * len(sample):
        stop_workers(kill=True)
    else:
        start_server(jobs)


def stop_workers(kill: bool = False) -> None:
    """Stop the fork server, once the run is done with it, and wait for it: its workers' time
    and memory then count as this process's children's (GNU time, the bench), and no server is
    left behind. The next run that wants one starts another. A server no pool used (or with
    `kill`) is killed first: it may still be importing, and would read its stop signal only
    once done."""
    global _server_context, _server_used
    if _server_context is None:
        return
    kill = kill or not _server_used
    _server_context, _server_used = None, False
    from multiprocessing import forkserver

    server = forkserver._forkserver  # the standard library's own
    pid = getattr(server, "_forkserver_pid", None)
    if kill and pid is not None:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    stop = getattr(server, "_stop", None)
    if stop is not None:
        stop()


def is_clean(report: FileReport, findings_allowed: bool = False) -> bool:
    """Nothing found (or, with `findings_allowed`, nothing but findings): nothing was changed,
    nothing went wrong."""
    return report.is_clean(findings_allowed)


def _replayed(source: SourceFile, stored: dict) -> FileReport:
    from mem0lint.cache import replay

    diagnostics, frames, info = replay(stored)
    return FileReport(source, diagnostics=diagnostics, frames=frames, info=info)


@dataclass
class Triage:
    """Where each file stands after the cheap steps (`triage`): reports decided already (from
    the cache), files to check (`todo`: (index, source, content or None)), and files the
    prefilter dropped (`dropped`: (index, source, module words it was scanned for (none since
    imports are resolved: kept for the cache's format), whether it was read in this run: only
    those need a new cache entry))."""

    sources: list[SourceFile]
    mode: Mode
    cache: Union[Cache, None]
    reports: list[Union[FileReport, None]]
    todo: list[tuple[int, SourceFile, Union[bytes, None]]] = field(default_factory=list)
    dropped: list[tuple[int, SourceFile, frozenset[bytes], bool]] = field(default_factory=list)
    words: set[bytes] = field(default_factory=set)
    modules: Union[ModuleFinder, None] = None  # what resolved the dropped files' imports
    advance: Callable[[], None] = field(default=lambda: None)  # one call per file decided

    @property
    def replays(self) -> bool:
        return self.cache is not None and self.mode.replays  # a check replays remembered findings

    def keep(self, index: int, source: SourceFile, data: Union[bytes, None]) -> None:
        """The file may matter: from the cache by its content, else to be checked."""
        cache = self.cache
        if data is not None and cache is not None and cache.clean_by_content(data):
            self.reports[index] = FileReport(source)
            cache.remember_clean(source.fspath, data)
            self.advance()
            return
        found = cache.report_by_content(data) if data is not None and self.replays else None
        if found is not None:
            self.reports[index] = _replayed(source, found[1])
            cache.remember_replayed(source.fspath, found[0])  # type: ignore[union-attr]
            self.advance()
        else:
            self.todo.append((index, source, data))


def triage(
    sources: Iterable[SourceFile],
    settings: Settings,
    mode: Mode,
    cache: Union[Cache, None] = None,
    modules: Union[ModuleFinder, None] = None,
    advance: Union[Callable[[], None], None] = None,
    jobs: Union[int, None] = None,
) -> Triage:
    """Cache verdicts and the prefilter: the one place a file is dropped unparsed.

    A file is kept when it spells an SDK word itself (`prefilter.may_matter`), or when a name
    it imports and uses again leads, through the project's actual module files, to a module
    that does (`ModuleFinder.reaches_sdk`: imports resolved to files, relative imports,
    packages, `src/` layouts, conftest.py files above a test file; re-export chains followed).
    A word alone (`from config import X`) keeps nothing: only an import that resolves to a
    module on the way to an SDK does. `modules`: the run's module finder (a new one if None).
    `advance`: called once per file decided here (dropped, or answered from the cache).
    `jobs`: as `check_groups`'s; many files are read and scanned in a process pool (`_scanned`)."""
    from mem0lint.modules import ModuleFinder

    sources = list(sources)
    names = external_words(settings.receivers)
    if modules is None:
        modules = ModuleFinder()
    tick = advance or _nothing
    found = Triage(sources, Mode(mode), cache, [None] * len(sources), modules=modules)
    found.advance = tick
    reports, keep = found.reports, found.keep
    dropped, todo = found.dropped, found.todo
    empty: frozenset[bytes] = frozenset()

    to_read: list[tuple[int, SourceFile]] = []
    for index, source in enumerate(sources):
        verdict = cache.verdict_by_stat(source.fspath) if cache is not None else None
        kind = VerdictKind.of(verdict) if verdict is not None else None
        if kind is VerdictKind.CLEAN:
            reports[index] = FileReport(source)  # kept by the prefilter, and clean
            tick()
            continue
        if kind is VerdictKind.REPORT and found.replays:
            stored = cache.report_of(verdict)  # type: ignore[union-attr,arg-type]
            if stored is not None:
                reports[index] = _replayed(source, stored)
                tick()
                continue
        scanned = cache.words_of(verdict) if cache is not None and verdict else None
        if scanned is not None:
            # Dropped by a run whose reads (`Cache.depend`) are all unchanged.
            dropped.append((index, source, scanned, False))
            continue
        to_read.append((index, source))
    uncovered: dict[str, tuple] = {}  # dropped files scanned for `uncovered_targets` only
    kept_any = False
    for (index, source), scanned in zip(to_read, _scanned(to_read, names, modules, jobs)):
        if scanned is None:
            dangling = None if source.explicit else _dangling_link(source.fspath)
            if dangling is not None:
                # A link to nothing met on the walk (an editor's lock file `.#app.py`, a link
                # into a folder not checked out) holds no code: a note, not the user's error.
                reports[index] = FileReport(source, info=[dangling])
                tick()
                continue
            todo.append((index, source, None))  # `process` reads again and says why it cannot
        elif scanned.matters:
            kept_any = True
            modules.note_matters(source.fspath, names)
            keep(index, source, scanned.data)
        else:
            if scanned.complete:
                modules.note_targets(source.fspath, names, scanned.targets, scanned.consulted)
            else:
                modules.note_dropped(source.fspath, names, scanned.consulted)
                uncovered[os.path.abspath(source.fspath)] = scanned.targets[1]
            dropped.append((index, source, empty, True))
    dropped.sort(key=lambda item: item[0])  # the order of the files, as one pass gave it
    fresh = [source.fspath for _, source, _, read in dropped if read]
    # Every file of the walk scanned now, none spelling an SDK word: an import that finds a
    # file of the run finds one of these, so only the others' imports need searching.
    whole_walk = bool(uncovered) and not kept_any and len(to_read) == len(sources)
    if uncovered and not whole_walk:  # some file spells an SDK word: every import is searched
        _resolve_all(uncovered, names, modules, jobs)
    closed = modules.closed_without_sdk(fresh, names, uncovered if whole_walk else None)
    if closed:
        if whole_walk:  # what an import of the run finds may be any file, in any folder walked
            modules.consulted.update(uncovered)
            modules.consulted.update(modules.coverage.walked)  # type: ignore[union-attr]
        # Nothing the dropped files import, at any depth, spells an SDK word (a site-packages,
        # a standard library): no file's imports need following one by one.
        for _ in dropped:
            tick()
    else:
        if whole_walk:  # a module outside the run spells one
            _resolve_all(uncovered, names, modules, jobs)
        found.dropped = _reaching(found.dropped, modules, names, keep, todo, tick)
    todo.sort(key=lambda item: item[0])
    return found


def _nothing() -> None:
    pass


def _resolve_all(paths, names: tuple, modules: ModuleFinder, jobs: Union[int, None]) -> None:
    """The dropped files scanned for their `uncovered_targets` only, scanned again for all of
    them (`_reaching` asks of each): some file of the run spells an SDK word after all."""
    coverage, modules.coverage = modules.coverage, None
    try:
        rescanned = _scanned([(0, SourceFile(path)) for path in paths], names, modules, jobs)
        for path, scanned in zip(paths, rescanned):
            if scanned is not None and not scanned.matters:  # (else changed since: read again)
                modules.note_targets(path, names, scanned.targets, scanned.consulted)
    finally:
        modules.coverage = coverage


# Reading and scanning files -----------------------------------------------------------------------
# A tree of thousands of files that never touch an SDK (a site-packages) costs its reads, the
# prefilter's scan and the resolution of each file's imports to files: spread over processes
# from this many files on, where processes can be forked (they start with nothing to import).
SCAN_IN_POOL_FROM = 400


@dataclass
class Scanned:
    """One file read and scanned: its bytes when it may matter (it is kept), else the project
    files its imports may bind names from (`ModuleFinder.note_targets`) and what resolving
    them consulted."""

    matters: bool
    data: Union[bytes, None] = None
    targets: tuple = ((), ())
    consulted: frozenset[str] = frozenset()
    complete: bool = True  # False: `targets` are the `uncovered_targets` only


def _scan(path: str, names: tuple, modules: ModuleFinder) -> Union[Scanned, None]:
    """None when the file cannot be read. What resolving its imports consults goes to
    `modules.consulted`."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if may_matter(data, names):
        _spelled.value = 1
        return Scanned(True, data)
    if modules.coverage is not None and not _spelled.value:
        return Scanned(False, targets=modules.uncovered_targets(path, data), complete=False)
    return Scanned(False, targets=modules.file_targets(path, data))


class _Flag:
    value = 0


# Whether some file of the scan spells an SDK word: from then on, every import of a dropped
# file is searched (`_reaching` will ask of each), not only those leaving the walk. Shared
# memory in a pool, seen by the workers and this process alike; set at the start when a
# folder of the run is named like an SDK package (the SDK's own code is in the tree).
_spelled: Union[_Flag, object] = _Flag()


def _dangling_link(path: str) -> Union[str, None]:
    """Why a symbolic link that leads nowhere is skipped; None when `path` is not one."""
    try:
        target = os.readlink(path)
    except OSError:
        return None  # not a link: unreadable for another reason, which `process` says
    if os.path.exists(path):
        return None
    return f"a symbolic link to {target}, which does not exist; skipped"


def _sdk_in_paths(paths: list[str]) -> bool:
    packages = {f"{os.sep}{package.decode()}{os.sep}" for package in anchors()[0]}
    return any(package in path for path in paths for package in packages)


def _scanned(
    to_read: list, names: tuple, modules: ModuleFinder, jobs: Union[int, None]
) -> Iterable[Union[Scanned, None]]:
    """`_scan` of each file of `to_read`, in order: in this process, or shared between this
    process and forked workers (one fewer than the processes asked for). The files go in
    chunks; the workers take them from the start, this process from the end, until they meet:
    no process waits on another while work is left, and this process, idle otherwise, keeps a
    core busy. Each chunk is claimed in shared memory by whichever process scans it (`Claims`);
    a worker given a chunk this process has claimed returns None at once. No future is
    cancelled: taking chunks back with `Future.cancel()` once hung the pool's shutdown in CI
    (its manager thread waiting for a result, the worker for a call it was never sent)."""
    import multiprocessing

    global _spelled, _scan_names, _scan_modules, _claims
    paths = [os.path.abspath(source.fspath) for _, source in to_read]
    workers = 1 if jobs == 1 else min(jobs or available_cpus(), available_cpus())
    spelled = int(modules.coverage is not None and _sdk_in_paths(paths))
    if (
        workers < 2
        or len(paths) < SCAN_IN_POOL_FROM
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        _spelled = _Flag()
        _spelled.value = spelled
        return [_scan(path, names, modules) for path in paths]
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    size = max(1, len(paths) // (workers * 16))
    chunks = [paths[start : start + size] for start in range(0, len(paths), size)]
    # Shared with the forked workers, which start with what this process has when they fork.
    _spelled = context.RawValue("b", spelled)
    _claims = Claims(context, len(chunks))
    _scan_names, _scan_modules = names, modules
    results: list = [None] * len(chunks)
    try:
        with ProcessPoolExecutor(workers - 1, mp_context=context) as pool:
            futures = [pool.submit(_scan_in_worker, i, chunk) for i, chunk in enumerate(chunks)]
            for index in reversed(range(len(chunks))):
                if not _claims.take(index):
                    break  # a worker has it; the chunks before it are the workers' to take
                results[index] = [_scan(path, names, modules) for path in chunks[index]]
            for index, future in enumerate(futures):
                found = future.result()  # None for a chunk this process claimed
                if results[index] is None:
                    results[index] = found
    finally:
        _spelled, _scan_names, _scan_modules, _claims = _Flag(), (), None, None
    return [scanned for chunk in results for scanned in chunk]


class Claims:
    """Which chunks of a pooled scan a process has taken, in memory the workers forked after it
    is made share with this process; the lock makes looking and taking one step."""

    def __init__(self, context, chunks: int) -> None:
        self.taken = context.RawArray("b", chunks)  # 1: taken
        self.lock = context.Lock()

    def take(self, index: int) -> bool:
        """Claim chunk `index`; False when another process has it."""
        with self.lock:
            if self.taken[index]:
                return False
            self.taken[index] = 1
            return True


_scan_names: tuple = ()
_scan_modules: Union[ModuleFinder, None] = None
_claims: Union[Claims, None] = None


def _scan_in_worker(index: int, paths: list[str]) -> Union[list[Union[Scanned, None]], None]:
    """`_scan` of each of `paths`, chunk `index`; None when this process has claimed it."""
    modules, claims = _scan_modules, _claims
    assert modules is not None and claims is not None
    if not claims.take(index):
        return None
    found = []
    for path in paths:
        modules.consulted = set()  # what this file's imports consult, sent back with it
        scanned = _scan(path, _scan_names, modules)
        if scanned is not None:
            scanned.consulted = frozenset(modules.consulted)
        found.append(scanned)
    return found


def record(
    found: Triage,
    checked: list[FileReport],
    modules: Union[ModuleFinder, None] = None,
) -> list[FileReport]:
    """Every file's report, in the order given to `triage`; the cache updated and saved.
    `checked`: the reports of `found.todo`, in its order. A dropped file named on the command
    line must at least parse."""
    reports, cache = found.reports, found.cache
    for (index, source, data), report in zip(found.todo, checked):
        reports[index] = report
        if cache is not None:
            if data is not None and is_clean(report) and not report.info:
                cache.remember_clean(source.fspath, data)
            elif data is not None and found.replays and is_clean(report, findings_allowed=True):
                cache.remember_report(
                    source.fspath, data, report.diagnostics, report.frames, report.info
                )
            else:
                cache.forget(source.fspath)
    if modules is None:
        modules = found.modules
    for index, source, _, fresh in found.dropped:
        report = reports[index] = FileReport(source)
        if source.explicit:  # named: it must at least parse (issue 12)
            check_named(source, report)
        if cache is not None and fresh and not report.error:
            cache.remember_dropped(source.fspath, found.words)
    if cache is not None:
        if modules is not None:
            cache.depend(_consulted(modules, reports))
        cache.save()
    return reports  # type: ignore[return-value]  (every slot is filled)


def _reaching(dropped: list, modules: ModuleFinder, names, keep, todo: list, tick) -> list:
    """The dropped files whose imports lead to no module that spells an SDK word; the others
    are kept. Only files read in this run: a dropped verdict from the cache holds while nothing
    the run consulted changed (`Cache.depend`). A file explored to the end already, as a
    module another file imports, is not read again."""
    remaining = []
    for item in dropped:
        index, source, _, fresh = item
        if fresh and not modules.known_not_to_reach(source.fspath, names):
            try:
                reaches = modules.reaches_sdk(source.fspath, None, names)  # imports known
            except OSError:
                todo.append((index, source, None))
                continue
            if reaches:
                try:
                    data = source.path.read_bytes()
                except OSError:
                    data = None  # `process` reads again and says why it cannot
                keep(index, source, data)
                continue
        remaining.append(item)
        tick()
    return remaining


def _consulted(modules: ModuleFinder, reports: Iterable[FileReport | None]) -> set[str]:
    """Every file read and folder listed for the project around the run's files (the
    prefilter's, this process's and the workers')."""
    consulted = set(modules.consulted)
    for report in reports:
        if report is not None:
            consulted.update(report.consulted)
    return consulted


def consulted_stats(modules: ModuleFinder, reports: Iterable[FileReport]) -> dict:
    """{path: os.stat_result} of what the run consulted (a snapshot's clean record needs
    them unchanged too)."""
    stats = {}
    for path in _consulted(modules, reports):
        try:
            stats[path] = os.stat(path)
        except OSError:
            continue
    return stats


def check_groups(
    groups: list[tuple[list, Settings]],
    mode: Mode,
    roots: list[Path],
    jobs: int | None,
    project,
    advance: Union[Callable[[], None], None] = None,
) -> list[list[FileReport]]:
    """The files left after `triage` of each group of files sharing settings ((its `todo`,
    the settings)), each through `runner.process` with its group's rules: in this process for a
    handful, in one process pool for many (whatever the groups: one pool starts once, and its
    workers end together). `project` builds the run's project index, called only if some file
    is parsed. `advance`: called as each file's report comes back (a worker sends each report
    as it is done, and keeps no other file). The reports per group, in `todo` order."""
    items = [
        (number, source, mode, roots, data)
        for number, (todo, _) in enumerate(groups)
        for _, source, data in todo
    ]
    reports: list[list[FileReport]] = [[] for _ in groups]
    if not items:
        return reports
    tick = advance or _nothing
    every_settings = [settings for _, settings in groups]
    workers = workers_for(len(items), jobs)
    if workers == 1:
        from mem0lint import engine  # the first libcst import of the run

        index = project() if project is not None else None
        rules = [engine.RuleSet(settings) for settings in every_settings]
        with _collecting_less():  # and as before once done: this process may go on
            for number, source, _, _, data in items:
                report = process(source, rules[number], mode, roots, data=data, project=index)
                reports[number].append(slim(report))
                tick()
        return reports

    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # Workers start with libcst and the rules imported: forked from the server that imported
    # them (`prepare_workers`), or else from this process once it has.
    global _server_used
    context = _server_context
    environment = None
    _server_used = context is not None
    if context is None:
        from mem0lint import engine  # noqa: F401 - the first libcst import of the run

        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
    else:
        environment = dict(os.environ)  # the server's is as it was when it started
    chunk = max(1, len(items) // (workers * 16))  # small chunks: workers end together
    # Largest first: a big file taken last would keep one worker busy while the others idle.
    order = sorted(range(len(items)), key=lambda i: -len(items[i][4] or b""))
    largest_first = [items[i] for i in order]
    done: list[FileReport | None] = [None] * len(items)
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(every_settings, project, environment),
    ) as pool:
        for i, report in zip(order, pool.map(_work, largest_first, chunksize=chunk)):
            done[i] = report
            tick()
    for (number, *_), report in zip(items, done):
        reports[number].append(report)  # type: ignore[arg-type]
    return reports


_worker_rules: list = []
_worker_project = None


def _start_worker(every_settings: list[Settings], project, environment=None) -> None:
    """`project`: builds the run's project index (each worker reads the modules it needs);
    `environment`: this process's, for a worker forked from the server (`prepare_workers`)."""
    global _worker_rules, _worker_project
    from mem0lint import engine

    if environment is not None:
        os.environ.clear()
        os.environ.update(environment)
    gc.freeze()  # what the imports made lives until the worker ends: never scan it again
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *gc.get_threshold()[1:])
    _worker_rules = [engine.RuleSet(settings) for settings in every_settings]
    _worker_project = project() if project is not None else None


# Objects allocated between two young collections (Python's default: 700). A parse makes a
# hundred thousand nodes that live as long as the file is checked, so at 700 the collector ran
# every few hundred nodes, and its older generations kept scanning the same young trees: on
# mem0's repository a tenth of a check. At 10,000 that cost is gone and the peak stays the same
# (larger values cost time again: the young generation outgrows the CPU's caches).
YOUNG_COLLECTION_EVERY = 10_000


@contextmanager
def _collecting_less() -> Iterator[None]:
    """Within: young collections every `YOUNG_COLLECTION_EVERY` allocations."""
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _work(item) -> FileReport:
    number, source, mode, roots, data = item
    rules = _worker_rules[number]
    report = process(source, rules, mode, roots, data=data, project=_worker_project)
    return portable(slim(report))


def slim(report: FileReport) -> FileReport:
    """A report kept until the run ends holds a file's lines and content only when it has
    something to show (findings, or an error whose frame is drawn from the content): a tree
    of clean files costs no memory after each is checked."""
    if not report.diagnostics and not report.error:
        report.frames = {}
        report.output = None
    return report


def portable(report: FileReport) -> FileReport:
    """The report without CST nodes, which are costly to send between processes."""
    for diagnostic in report.diagnostics:
        diagnostic.node = None
        if diagnostic.fix is not None:
            diagnostic.fix = dataclasses.replace(diagnostic.fix, replacements=())
    return report
