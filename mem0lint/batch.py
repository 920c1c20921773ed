"""Many files through the pipeline, cheaply: prefilter and cache first, then serial or a pool.

Most files of a project never touch a memory SDK: they are read once, scanned for the words a
finding needs (prefilter.py) and dropped, and libcst is imported only when some file is left.
Clean verdicts come from the cache without a parse (and, when the stat is unchanged, without a
read). What is left is checked in this process when it is a handful of files, in a process pool
when there are many (`jobs`: None = decide, 1 = serial).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from mem0lint.prefilter import external_words, may_matter
from mem0lint.runner import FileReport, process
from mem0lint.sources import SourceFile

if TYPE_CHECKING:
    from mem0lint.cache import Cache
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


def is_clean(report: FileReport) -> bool:
    return not (report.diagnostics or report.error or report.fixed or report.diff)


def run(
    sources: Iterable[SourceFile],
    settings: Settings,
    mode: str,
    roots: list[Path],
    jobs: int | None = None,
    cache: Cache | None = None,
) -> list[FileReport]:
    names = external_words(settings.receivers)
    reports: list[FileReport | None] = []
    todo: list[tuple[int, SourceFile, bytes | None]] = []
    for source in sources:
        if cache is not None and cache.clean_by_stat(source.path):
            reports.append(FileReport(source))
            continue
        try:
            data = source.path.read_bytes()
        except OSError:
            data = None  # `process` reads again and reports why it cannot
        if data is not None and not may_matter(data, names):
            reports.append(FileReport(source))
            if cache is not None:
                cache.remember_clean(source.path, data, hashed=False)
            continue
        if data is not None and cache is not None and cache.clean_by_content(data):
            reports.append(FileReport(source))
            cache.remember_clean(source.path, data)
            continue
        todo.append((len(reports), source, data))
        reports.append(None)

    for (index, source, data), report in zip(todo, _check(todo, settings, mode, roots, jobs)):
        reports[index] = report
        if cache is not None:
            if data is not None and is_clean(report):
                cache.remember_clean(source.path, data)
            else:
                cache.forget(source.path)
    if cache is not None:
        cache.save()
    return reports  # type: ignore[return-value]  (every slot is filled)


def _check(todo, settings: Settings, mode: str, roots: list[Path], jobs: int | None):
    if not todo:
        return []
    from mem0lint import engine  # the first libcst import of the run

    rules = engine.RuleSet(settings)
    workers = workers_for(len(todo), jobs)
    if workers == 1:
        return [process(source, rules, mode, roots, data) for _, source, data in todo]

    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork (where it exists) starts workers with libcst and the rules already imported.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunk = max(1, len(todo) // (workers * 4))
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(settings,)
    ) as pool:
        items = [(source, mode, roots, data) for _, source, data in todo]
        return list(pool.map(_work, items, chunksize=chunk))


_worker_rules = None


def _start_worker(settings: Settings) -> None:
    global _worker_rules
    from mem0lint import engine

    _worker_rules = engine.RuleSet(settings)


def _work(item) -> FileReport:
    source, mode, roots, data = item
    return portable(process(source, _worker_rules, mode, roots, data))


def portable(report: FileReport) -> FileReport:
    """The report without CST nodes, which are costly to send between processes."""
    for diagnostic in report.diagnostics:
        diagnostic.node = None
        if diagnostic.fix is not None:
            diagnostic.fix = dataclasses.replace(diagnostic.fix, replacements=())
    return report
