"""The order of a run, top-down: what happens to the files named on the command line.

    options -> discovery -> triage -> per-file check -> program-wide steps -> results

1. **Options** (`Options`): what the command line asked for, parsed by cli.py.
2. **Discovery** (`discover`, `group_by_settings`): the files under the paths (or the walk's
   snapshot of the last run), the configuration of each (nearest pyproject.toml), and the SDK
   releases the project installs (versions.py). Files are grouped by the settings that apply.
3. **Triage** (batch.triage): cache verdicts, then the prefilter (prefilter.py) -- the one place
   a file is dropped without a parse. libcst is imported only when some file is left.
4. **Per-file check** (batch.check_groups -> runner.process -> engine; one process pool for
   every group of settings, its workers forked from a server that imported libcst and the
   rules while discovery and triage ran: batch.start_server_early, when the project's install
   files name an SDK, else batch.prepare_workers, when a sample of the files says a pool is
   likely): parse, bind receivers, run the rules, place findings, apply
   `noqa`, judge the context; in a fix, the fix loop (engine.fix); in a diff, the diff; with
   add-noqa, the comments.
5. **Program-wide steps** (batch.record, `_remember_walk`): the cache and the walk's snapshot
   saved; the baseline subtracted (baseline.py); files that could not be checked turned into
   findings (problems.py).
6. **Results** (`Run`): the reports, the run's warnings and notes; cli.py prints them
   (report.py, sarif.py) and picks the exit code.

`check_file` and `lint_text` run one file (tests, scripts, stdin, the language server) through
the same stages.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, ContextManager, Union

from mem0lint import batch, config
from mem0lint.modes import Mode
from mem0lint.prefilter import external_words, may_matter
from mem0lint.results import FileReport
from mem0lint.runner import check_named, process
from mem0lint.sources import SourceFile

if TYPE_CHECKING:
    from mem0lint import engine
    from mem0lint.cache import Cache
    from mem0lint.modules import ModuleFinder
    from mem0lint.project import ProjectIndex
    from mem0lint.settings import Settings
    from mem0lint.snapshot import Snapshot
    from mem0lint.versions import Discovery

# progress(total) -> a context manager giving a function called once per file (a progress bar).
Progress = Callable[[int], ContextManager[Callable[[], None]]]


# --- 1. options --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Options:
    """What a run is asked to do (cli.py builds it from the command line)."""

    paths: tuple[str, ...] = (".",)  # ("-",): the text is `stdin`
    mode: Mode = Mode.CHECK
    command_line: config.CommandLine = field(default_factory=config.CommandLine)
    config_file: Union[str, None] = None  # --config
    stdin: Union[bytes, None] = None  # the text read from stdin, with paths ("-",)
    stdin_filename: Union[str, None] = None
    force_exclude: bool = False  # exclude patterns apply to files named one by one too
    jobs: Union[int, None] = None  # None: decide (batch.workers_for)
    no_cache: bool = False
    cache_dir: Union[str, None] = None  # None: .mem0lint_cache at the project root
    baseline: Union[str, None] = None  # report only findings not in this file
    update_baseline: bool = False

    @property
    def reading_stdin(self) -> bool:
        return self.paths == ("-",)

    @property
    def first(self) -> Path:
        """Run-wide settings (the output format) come from the configuration of this path."""
        return Path(self.stdin_filename or ".") if self.reading_stdin else Path(self.paths[0])


@dataclass
class Run:
    """What a run found and did."""

    reports: list[FileReport]
    settings: config.Resolved  # the run-wide settings (of `Options.first`)
    warnings: list[str] = field(default_factory=list)  # about the run, not a file (SARIF too)
    notes: list[str] = field(default_factory=list)  # about the SDK releases, once per run
    baseline_written: Union[int, None] = None  # findings written to a new baseline


def run(options: Options, progress: Union[Progress, None] = None) -> Run:
    """The whole run. Raises `config.ConfigError` (bad configuration) and
    `baseline.BaselineError`; never raises for bad input files (their reports say why)."""
    from mem0lint.versions import Discovery

    finder = config.Finder(Path(options.config_file) if options.config_file else None)
    overall = config.resolve(finder.for_path(options.first), options.command_line, None)
    discovery = Discovery()
    if options.reading_stdin:
        # Bound across the project around --stdin-filename, like a path run.
        path = Path(options.stdin_filename or "-")
        report = lint_text(
            options.stdin or b"",
            path,
            options.mode,
            finder=finder,
            command_line=options.command_line,
            discovery=discovery,
        )
        result = Run([report], overall)
    else:
        result = _run_paths(options, finder, overall, discovery, progress)
    result.notes = list(discovery.notes)
    if options.mode in (Mode.CHECK, Mode.FIX):
        finish(result, options)
    return result


def _run_paths(options, finder, overall, discovery, progress) -> Run:
    cache_dir = None if options.no_cache else (options.cache_dir or default_cache_dir(options))
    fresh = cache_dir is None or not os.path.isdir(cache_dir)  # else most verdicts are known
    if fresh:
        batch.start_server_early(options.paths, options.jobs)
    try:
        return _check_paths(options, finder, overall, discovery, progress, cache_dir, fresh)
    finally:
        batch.stop_workers()


def _check_paths(options, finder, overall, discovery, progress, cache_dir, fresh) -> Run:
    # --- 2. discovery
    excluder = config.Excluder(finder)
    key = [repr(options.command_line), str(options.force_exclude)]  # what else decides it
    from mem0lint.sources import Coverage

    coverage = Coverage()
    found, snapshot = discover(
        options.paths, excluder, options.config_file, key, cache_dir, coverage
    )
    warnings = empty_folder_warnings(options.paths, found)
    if options.mode.replays and snapshot is not None and snapshot.reused and snapshot.clean():
        return Run([FileReport(source) for source in found], overall, warnings)  # unchanged
    if fresh:
        batch.prepare_workers(found, options.jobs)  # a fork server, where a pool is likely
    named_excluder = excluder if options.force_exclude else None
    groups = group_by_settings(found, finder, options.command_line, named_excluder, discovery)
    from mem0lint.modules import ModuleFinder

    modules = ModuleFinder()  # the project around each file, read as needed
    if coverage.walked and len(groups) == 1 and len(groups[0][1]) == len(found):
        modules.coverage = coverage  # one triage sees every file the walk gave
    project = ProjectRecipe(modules, dict(overall.engine_settings().receivers))
    stats, project_files = (None, "") if cache_dir is None else file_stats(found)
    roots = [Path(p) for p in options.paths]
    reports: list[FileReport] = []
    total = sum(len(sources) for _, sources in groups)
    with (progress or _no_progress)(total) as advance:
        groups_with_caches = []
        caches: dict[Path, Cache] = {}  # groups whose settings are the same share one file
        for settings, sources in groups:
            cache = None
            if stats is not None:
                from mem0lint.cache import Cache

                cache = Cache(Path(cache_dir), settings, project_files, stats)  # type: ignore[arg-type]
                cache = caches.setdefault(cache.file, cache)
            groups_with_caches.append((settings, sources, cache))
        # --- 3. triage, 4. per-file check
        reports = check_groups(
            groups_with_caches, options.mode, roots, options.jobs, project, modules, advance
        )
    # --- 5. program-wide steps
    if snapshot is not None:
        _remember_walk(snapshot, found, reports, options.mode, discovery, modules, stats)
    return Run(reports, overall, warnings)


def finish(result: Run, options: Options) -> None:
    """Program-wide steps on the reports: the baseline, then the files that could not be checked
    as findings (after the baseline: such a file is never accepted)."""
    from mem0lint import problems

    if options.baseline:
        result.baseline_written = _apply_baseline(
            Path(options.baseline), result.reports, options.update_baseline
        )
    problems.attach(result.reports)


# --- 2. discovery ------------------------------------------------------------------------------
def default_cache_dir(options: Options) -> str:
    return str(project_root(options.first) / ".mem0lint_cache")


def project_root(first: Path) -> Path:
    """Where the cache lives: the nearest folder above the first path with a pyproject.toml or
    a .git (the project's root, as Ruff's), else the path's own folder; never the cwd as such."""
    start = Path(os.path.abspath(first))
    if not start.is_dir():
        start = start.parent
    for folder in [start, *start.parents]:
        if (folder / "pyproject.toml").is_file() or (folder / ".git").exists():
            return folder
    return start


def discover(
    paths, excluder, config_file, options: list[str], cache_dir, coverage=None
) -> tuple[list[SourceFile], Union[Snapshot, None]]:
    """The files under `paths`, and the snapshot to save after the run (None: none is taken).
    From the last run's snapshot when the tree's shape is the same (`cache_dir`: None, no
    snapshot). Files named one by one (pre-commit) need no walk, and would leave a snapshot per
    commit: none is taken. `options`: what else decides the outcome. `coverage`: told what a
    walk saw whole (sources.Coverage; nothing when the snapshot answers)."""
    from mem0lint.documents import SUFFIXES
    from mem0lint.snapshot import Snapshot
    from mem0lint.sources import discover as walk

    suffixes = frozenset(s for kind in SUFFIXES.values() for s in kind)
    snapshot = None
    if cache_dir is not None and any(os.path.isdir(path) for path in paths):
        key = [*paths, *sorted(suffixes), config_file or "", *options]
        snapshot = Snapshot(Path(cache_dir), key)
        found = snapshot.found()
        if found is not None:
            return found, snapshot
        for path in paths:
            snapshot.watch_above(path)
        if config_file:
            snapshot.read(config_file)
    walked = snapshot.walked if snapshot is not None else None
    found = list(
        walk(
            list(paths),
            suffixes=suffixes,
            excluded=excluder.excluded,
            walked=walked,
            may_exclude=excluder.may_exclude,
            coverage=coverage,
        )
    )
    return found, snapshot


def empty_folder_warnings(paths, found) -> list[str]:
    """A folder named on the command line that yields nothing is said so, not passed silently."""
    from mem0lint.sources import empty_folder_note

    warnings = []
    for path in paths:
        if not os.path.isdir(path):
            continue
        prefix = os.path.join(os.path.abspath(path), "")
        if not any(os.path.abspath(s.fspath).startswith(prefix) for s in found):
            warnings.append(empty_folder_note(path))
    return warnings


def group_by_settings(found, finder, command_line, excluder, discovery=None) -> list[tuple]:
    """The files found, grouped by the settings that apply to them (nearest pyproject.toml) and
    the SDK releases of their folder: [(engine settings, files)]. Settings are resolved once per
    configuration, unless its per-file ignores make its files differ. `excluder`: applied to
    named files too."""
    from mem0lint.documents import FILE_TYPES, file_type

    groups: dict[tuple, tuple] = {}  # settings key -> (engine settings, files)
    by_folder: dict[str, tuple] = {}  # folder -> (its group's files, the file kinds linted)
    # (id(configuration), SDK versions) -> the same (the finder keeps the configurations)
    by_config: dict[tuple, tuple] = {}

    resolved_by_config: dict[int, object] = {}

    def group_of(source) -> tuple:
        found_config = finder.for_file(source.fspath)
        per_file = found_config is not None and "per-file-ignores" in found_config.values
        resolved = None if per_file else resolved_by_config.get(id(found_config))
        if resolved is None:
            resolved = config.resolve(found_config, command_line, source.path if per_file else None)
            if not per_file:
                resolved_by_config[id(found_config)] = resolved
        sdks: tuple = ()
        if discovery is not None:  # the SDK versions of the file's folder
            from mem0lint.versions import as_settings

            folder = os.path.dirname(os.path.abspath(source.fspath))
            sdks = as_settings(discovery.for_folder(folder, resolved.target_versions))
        memo = (id(found_config), sdks)
        if not per_file and memo in by_config:
            return by_config[memo]
        group = groups.get(resolved.key() + (sdks,))
        if group is None:
            settings = dataclasses.replace(resolved.engine_settings(), sdks=sdks)
            group = groups[resolved.key() + (sdks,)] = (settings, [])
        # None: every kind is linted (what a walk finds needs no look at its name).
        kinds = None if set(resolved.file_types) >= set(FILE_TYPES) else resolved.file_types
        entry = (group[1], kinds, per_file)
        if not per_file:
            by_config[memo] = entry
        return entry

    for source in found:
        # The folder as a key (an exact one, cheaper than os.path.dirname, for thousands).
        folder = source.fspath.rpartition(os.sep)[0]
        entry = by_folder.get(folder)
        if entry is None:
            entry = group_of(source)
            if not entry[2]:  # per-file ignores: every file of the folder on its own
                by_folder[folder] = entry
        files, kinds, _ = entry
        if kinds is not None and not source.explicit and file_type(source.fspath) not in kinds:
            continue
        if source.explicit and excluder is not None and excluder.excluded(source.path, False):
            continue
        files.append(source)
    return list(groups.values())


@dataclass(frozen=True)
class ProjectRecipe:
    """Builds the run's index of modules, to bind receivers imported from other files, when
    called: only when some file passes the prefilter (it imports libcst), in this process for a
    serial check, in each worker of a pool (sent there with `modules`, the run's `ModuleFinder`
    the triage filled)."""

    modules: Union[ModuleFinder, None]
    receivers: dict[str, str]

    def __call__(self) -> ProjectIndex:
        from mem0lint.project import ProjectIndex

        project = ProjectIndex(finder=self.modules)
        project.configure(self.receivers)
        return project


def project_index(receivers: Union[dict[str, str], None] = None) -> ProjectIndex:
    """A fresh index of the project around any file (one per run, or per editor request:
    it caches what it reads, so a long-lived one would not see later edits)."""
    from mem0lint.project import ProjectIndex

    index = ProjectIndex()
    index.configure(dict(receivers or {}))
    return index


def file_stats(found) -> tuple[dict, str]:
    """{path: os.stat_result} of every file found (the cache's verdicts need them), and a
    fingerprint of the project's Python files: a receiver may be bound through any of them, so
    verdicts hold only while none changes (see cache.py)."""
    stats = {}
    python = []
    for source in found:
        path = source.fspath
        try:
            stat = stats[path] = os.stat(path)
        except OSError:
            continue
        if path.endswith((".py", ".pyi")):
            python.append((path, stat.st_mtime_ns, stat.st_size))
    return stats, repr(python)  # in the walk's order, which is stable


# --- 3. triage and 4. per-file check ---------------------------------------------------------
def check_files(
    sources,
    settings: Settings,
    mode: Mode,
    roots: list[Path],
    jobs: Union[int, None] = None,
    cache: Union[Cache, None] = None,
    project: Union[Callable[[], ProjectIndex], None] = None,
    modules: Union[ModuleFinder, None] = None,
    advance: Union[Callable[[], None], None] = None,
) -> list[FileReport]:
    """Files that share `settings` through triage, check and the cache's record: their reports,
    in order (`check_groups` of one group)."""
    groups = [(settings, sources, cache)]
    return check_groups(groups, mode, roots, jobs, project, modules, advance)


def check_groups(
    groups: list[tuple[Settings, list, Union[Cache, None]]],
    mode: Mode,
    roots: list[Path],
    jobs: Union[int, None] = None,
    project: Union[Callable[[], ProjectIndex], None] = None,
    modules: Union[ModuleFinder, None] = None,
    advance: Union[Callable[[], None], None] = None,
) -> list[FileReport]:
    """Each group of files sharing settings ((settings, files, its cache)) through triage, then
    all that is left through one check (one process pool for every group), then each cache's
    record: the reports, group after group, each in its files' order. `project` builds the
    run's project index (called only if some file is parsed); `modules`: the run's module
    finder (the same as the index's); `advance`: called once per file as soon as it is
    decided (a progress bar)."""
    triaged = [
        batch.triage(sources, settings, Mode(mode), cache, modules, advance, jobs)
        for settings, sources, cache in groups
    ]
    work = [(found.todo, settings) for found, (settings, _, _) in zip(triaged, groups)]
    checked = batch.check_groups(work, Mode(mode), roots, jobs, project, advance)
    reports: list[FileReport] = []
    for found, group_checked in zip(triaged, checked):
        reports += batch.record(found, group_checked, modules)
    return reports


def check_file(
    source: SourceFile,
    rules: engine.RuleSet,
    mode: Mode = Mode.CHECK,
    roots: Union[list[Path], None] = None,
    project: Union[ProjectIndex, None] = None,
) -> FileReport:
    """One file from disk through the same stages as a run (without cache): the prefilter, then
    the check (or fix) of what may matter. `roots`: where a fix may write (default: its folder)."""
    roots = roots if roots is not None else [source.path.parent]
    try:
        data = source.path.read_bytes()
    except OSError:
        return process(source, rules, mode, roots, project=project)  # says why it cannot read
    if not may_matter(data, external_words(rules.settings.receivers)):
        report = FileReport(source, output=data)
        if source.explicit:  # named on the command line: at least it must parse
            check_named(source, report, data)
        return report
    return process(source, rules, mode, roots, data=data, project=project)


def lint_text(
    text: Union[str, bytes],
    path: Union[str, Path],
    mode: Union[Mode, str] = Mode.CHECK,
    *,
    rules: Union[engine.RuleSet, None] = None,
    command_line: Union[config.CommandLine, None] = None,
    project: Union[ProjectIndex, None] = None,
    finder: Union[config.Finder, None] = None,
    discovery: Union[Discovery, None] = None,
    unsafe: Union[bool, None] = None,
) -> FileReport:
    """Check (or, with `mode` fix / diff / add-noqa, fix) `text` as the file at `path`: stdin and
    the language server. The text is not read from disk (it may be unsaved), and never
    prefiltered; the other modules of the project are read, lazily, from where `path` sits.

    `rules`: the rule set to use; by default the settings of the nearest configuration above
    `path` (found by `finder`, with `command_line` options on top) and the SDK releases the
    project installs (resolved by `discovery`), as in a path run. `unsafe`: True/False overrides
    the configured unsafe-fixes (the language server's quick fixes). `project`: the index to bind
    receivers from other modules; by default a fresh one configured with the settings'
    receivers. Raises `config.ConfigError` for bad configuration; never raises for bad input
    (see `runner.process`); never writes a file: the fixed text is `FileReport.output`."""
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    if rules is None:
        from mem0lint import engine
        from mem0lint.versions import Discovery, engine_settings

        finder = finder or config.Finder()
        resolved = config.resolve(finder.for_path(path), command_line or config.CommandLine(), path)
        settings = engine_settings(resolved, path, discovery or Discovery())
        if unsafe is not None:
            settings = dataclasses.replace(settings, unsafe_fixes=unsafe)
        rules = engine.RuleSet(settings)
    if project is None:
        project = project_index(rules.settings.receivers)
    source = SourceFile(path, explicit=True)
    return process(source, rules, mode, [path.parent], data=data, project=project, write=False)


# --- 5. program-wide steps ---------------------------------------------------------------------
def _remember_walk(snapshot, found, reports, mode: Mode, discovery, modules, stats) -> None:
    """Save the walk's snapshot; a clean check also records every file's stat, so the next
    check over an unchanged tree needs no verdict at all."""
    for read in sorted(discovery.read):
        snapshot.read(read)  # a changed lock or requirements file: walk again
    clean = mode.replays and all(batch.is_clean(r) and not r.info for r in reports)
    if clean and stats is not None:
        stats = {**stats, **batch.consulted_stats(modules, reports)}
    snapshot.update(found, stats if clean else None)


def _apply_baseline(path: Path, reports: list[FileReport], update: bool) -> Union[int, None]:
    """Subtract the baseline's findings; write it instead (its count returned) when asked or
    when it does not exist yet."""
    from mem0lint import baseline

    if update or not path.exists():
        count = baseline.write(path, reports)
        for file_report in reports:
            file_report.diagnostics = []
        return count
    baseline.subtract(path, baseline.read(path), reports)
    return None


class _no_progress:
    def __init__(self, total: int) -> None:
        pass

    def __enter__(self) -> Callable[[], None]:
        return lambda: None

    def __exit__(self, *exc_info) -> None:
        pass
