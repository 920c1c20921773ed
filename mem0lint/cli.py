"""The `mem0lint` command."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from mem0lint import __version__
from mem0lint.terminal import Terminal

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
# A progress bar is worth drawing only for a long run, and only for a person watching.
PROGRESS_THRESHOLD = 300
OUTPUT_FORMATS = ["text", "concise", "json", "json-lines", "github", "sarif"]


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    """`--select MEM1,MEM201 --select MEM3` -> ("MEM1", "MEM201", "MEM3")."""
    return tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())


def _check_codes(codes: tuple[str, ...], option: str) -> None:
    if not codes:
        return  # loading the rules would import libcst
    from mem0lint.rule import all_rules

    known = all_rules()
    for code in codes:
        if code != "ALL" and not any(k.startswith(code) for k in known):
            raise click.UsageError(f"{option}: no rule code starts with {code!r}")


def _file_types(values: tuple[str, ...]) -> tuple[str, ...]:
    from mem0lint.documents import FILE_TYPES

    kinds = tuple(k.strip().lower() for v in values for k in v.split(",") if k.strip())
    for kind in kinds:
        if kind not in FILE_TYPES:
            raise click.UsageError(f"--file-types: {kind!r} is not one of {', '.join(FILE_TYPES)}")
    return kinds


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--fix", is_flag=True, help="Apply safe fixes in place.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes that may change results.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@click.option("--select", multiple=True, help="Rule codes or prefixes to enable (MEM2 = MEM2xx).")
@click.option("--extend-select", multiple=True, help="Rule codes or prefixes to enable as well.")
@click.option("--ignore", multiple=True, help="Rule codes or prefixes to disable.")
@click.option(
    "--output-format",
    type=click.Choice(OUTPUT_FORMATS),
    default=None,
    help="How findings are printed (default: text, or the configured output-format).",
)
@click.option(
    "--explain",
    "explain_code",
    metavar="CODE",
    is_flag=False,
    flag_value="rules",
    help="Explain a rule and exit; without a code, print the table of rules.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option(
    "--exit-non-zero-on-fix",
    is_flag=True,
    help="Exit 1 when a fix was applied, even if nothing is left (pre-commit re-stages).",
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False),
    help="Use this configuration file instead of the nearest pyproject.toml.",
)
@click.option(
    "--show-settings",
    "show_settings",
    metavar="PATH",
    help="Print the settings that apply to PATH, and where each comes from.",
)
@click.option(
    "--target-version",
    "target_version",
    multiple=True,
    metavar="DIST==VERSION",
    help="Judge an SDK as this release (e.g. mem0ai==2.2); above the project's pin: upgrade mode.",
)
@click.option("--add-noqa", is_flag=True, help="Add a `# noqa: CODE` for every finding.")
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False),
    help="Report only findings not in this file (written when it does not exist).",
)
@click.option("--update-baseline", is_flag=True, help="Rewrite --baseline with today's findings.")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only: no summary, no notes.")
@click.option(
    "--stdin-filename",
    metavar="NAME",
    help="With `-` as the path: the name of the file read from stdin (its kind, its config).",
)
@click.option(
    "--file-types",
    multiple=True,
    metavar="KINDS",
    help="Kinds of files found in folders: python, notebook, markdown (default: all).",
)
@click.option(
    "--force-exclude",
    is_flag=True,
    help="Apply exclude patterns to files named on the command line too (pre-commit).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=0,
    help="Processes to check files with; 0 (default): serial for a few files, else one per CPU.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Neither read nor write the cache (verdicts, the walk's snapshot).",
)
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where the cache is kept between runs (default: .mem0lint_cache at the project root).",
)
@click.version_option(__version__, prog_name="mem0lint")
def main(
    paths: tuple[str, ...],
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    output_format: str | None,
    explain_code: str | None,
    exit_zero: bool,
    exit_non_zero_on_fix: bool,
    config_file: str | None,
    show_settings: str | None,
    target_version: tuple[str, ...],
    add_noqa: bool,
    baseline_file: str | None,
    update_baseline: bool,
    statistics: bool,
    quiet: bool,
    stdin_filename: str | None,
    file_types: tuple[str, ...],
    force_exclude: bool,
    jobs: int,
    no_cache: bool,
    cache_dir: str | None,
) -> None:
    """Find and fix wrong calls to agent-memory SDKs (mem0, Memsy, MemOS) in PATHS.

    `mem0lint rules` prints the table of rules."""
    out, err = Terminal(), Terminal(stderr=True)
    if explain_code is not None:
        sys.exit(_explain(explain_code, out))
    if paths == ("rules",) and not Path("rules").exists():
        sys.exit(_explain("rules", out))
    if paths == ("server",) and not Path("server").exists():
        from mem0lint.server import main as serve  # pygls: imported by this command only

        serve()
        sys.exit(EXIT_CLEAN)

    from mem0lint import batch, config, report
    from mem0lint.cache import Cache
    from mem0lint.results import FileReport
    from mem0lint.runner import ADD_NOQA, CHECK, DIFF, FIX

    select, ignore, extend_select = _codes(select), _codes(ignore), _codes(extend_select)
    _check_codes(select, "--select")
    _check_codes(ignore, "--ignore")
    _check_codes(extend_select, "--extend-select")
    if update_baseline and not baseline_file:
        raise click.UsageError("--update-baseline needs --baseline FILE")
    targets = _targets(target_version)
    command_line = config.CommandLine(
        select=select,
        ignore=ignore,
        extend_select=extend_select,
        unsafe_fixes=unsafe_fixes,
        output_format=output_format,
        file_types=_file_types(file_types),
        target_versions=targets,
    )
    paths = paths or (".",)
    reading_stdin = paths == ("-",)
    for path in paths:
        if path == "-" and not reading_stdin:
            raise click.UsageError("`-` (stdin) cannot be combined with other paths")
        if path != "-" and not Path(path).exists():
            raise click.UsageError(f"path does not exist: {path}")
    # Run-wide settings (output format) come from the configuration of the first path.
    first = Path(stdin_filename or ".") if reading_stdin else Path(paths[0])
    try:
        finder = config.Finder(Path(config_file) if config_file else None)
        if show_settings is not None:
            target = Path(show_settings)
            resolved = config.resolve(finder.for_path(target), command_line, target)
            excluded = config.Excluder(finder).excluded(target, target.is_dir())
            out.print(config.describe(resolved, target, excluded), end="")
            out.print(_describe_sdks(target, resolved), end="")
            sys.exit(EXIT_CLEAN)
        overall = config.resolve(finder.for_path(first), command_line, None)
    except config.ConfigError as error:
        err.print(f"mem0lint: {error}")
        sys.exit(EXIT_ERROR)
    output_format = overall.output_format
    if cache_dir is None:
        cache_dir = str(_project_root(first) / ".mem0lint_cache")

    mode = ADD_NOQA if add_noqa else DIFF if diff else FIX if (fix or unsafe_fixes) else CHECK
    roots = [Path(p) for p in paths]
    excluder = config.Excluder(finder)
    reports = []
    warnings: list[str] = []  # about the run, not a file: in SARIF's notifications too
    failed = False
    from mem0lint.versions import Discovery

    discovery = Discovery()
    try:
        if reading_stdin:
            from mem0lint.inproject import lint_text

            data = sys.stdin.buffer.read()
            # Bound across the project around --stdin-filename, like a path run.
            path = Path(stdin_filename or "-")
            reports = [
                lint_text(
                    data, path, mode, finder=finder, command_line=command_line, discovery=discovery
                )
            ]
        else:
            # What decides the outcome besides the tree and its configuration files.
            options = [repr(command_line), str(force_exclude)]
            found, snapshot = _discover(
                paths, excluder, config_file, options, None if no_cache else cache_dir
            )
            warnings = _warn_empty_folders(paths, found, err)
            if mode == CHECK and snapshot is not None and snapshot.reused and snapshot.clean():
                reports = [FileReport(source) for source in found]  # clean, and unchanged
            else:
                groups = _groups(
                    found, finder, command_line, excluder if force_exclude else None, discovery
                )
                from mem0lint.modules import ModuleFinder

                modules = ModuleFinder()  # the project around each file, read as needed
                receivers = overall.engine_settings().receivers
                project = _project_factory(paths, found, receivers, modules)
                stats, project_files = (None, "") if no_cache else _stats(found)
                with _progress(err, sum(len(sources) for _, sources in groups)) as advance:
                    for settings, sources in groups:
                        cache = None
                        if stats is not None:
                            cache = Cache(Path(cache_dir), settings, project_files, stats)
                        reports += batch.run(
                            sources, settings, mode, roots, jobs or None, cache, project, advance
                        )
                if snapshot is not None:
                    for read in sorted(discovery.read):
                        snapshot.read(read)  # a changed lock or requirements file: walk again
                    clean = mode == CHECK and all(batch.is_clean(r) and not r.info for r in reports)
                    if clean and stats is not None:
                        stats = {**stats, **batch.consulted_stats(modules, reports)}
                    snapshot.update(found, stats if clean else None)
    except config.ConfigError as error:
        err.print(f"mem0lint: {error}")
        sys.exit(EXIT_ERROR)

    if not quiet:
        for note in discovery.notes:  # once per run
            err.print(f"mem0lint: info: {note}")
    from mem0lint import problems

    for file_report in reports:
        if file_report.error:
            failed = failed or problems.is_failure(file_report)
            if mode in (DIFF, ADD_NOQA):  # elsewhere the report itself carries it
                err.print(f"mem0lint: {file_report.source.path}: {file_report.error}")
        if not quiet:
            for note in file_report.info:
                err.print(f"mem0lint: info: {file_report.source.path}: {note}")

    if reading_stdin and mode in (FIX, ADD_NOQA) and reports:
        # The fixed source is the output; what is left goes to stderr.
        sys.stdout.buffer.write(reports[0].output or b"")
        sys.stdout.flush()
        out = err
    if mode == DIFF:
        for file_report in reports:
            if file_report.diff:
                sys.stdout.write(file_report.diff)
        would = sum(r.fixed for r in reports)
        if not quiet:
            err.print(f"Would fix {would} problem{'s' if would != 1 else ''}.")
        if exit_zero:
            sys.exit(EXIT_CLEAN)
        sys.exit(EXIT_ERROR if failed else EXIT_FINDINGS if would else EXIT_CLEAN)
    if mode == ADD_NOQA:
        added = sum(r.noqa_added for r in reports)
        if not quiet:
            err.print(f"Added {added} noqa directive{'s' if added != 1 else ''}.")
        sys.exit(EXIT_ERROR if failed and not exit_zero else EXIT_CLEAN)

    if baseline_file:
        _apply_baseline(Path(baseline_file), reports, update_baseline, err, quiet)
    problems.attach(reports)  # after the baseline: a file that cannot be checked is never accepted

    fixed = sum(r.fixed for r in reports)
    if statistics and output_format in ("json", "json-lines"):
        report.write_statistics_json(reports, sys.stdout)
    elif statistics:
        text = report.statistics(reports)
        if text:
            out.print(text)
    elif output_format == "sarif" and warnings:
        report.write_sarif(reports, sys.stdout, warnings)
    elif output_format in report.STREAM_WRITERS:
        report.STREAM_WRITERS[output_format](reports, sys.stdout)
    else:
        report.CONSOLE_WRITERS[output_format](reports, out)
        if not quiet:
            out.print(report.summary(reports, overall.unsafe_fixes))
    remaining = any(d.code != problems.NOT_ANALYSED for r in reports for d in r.diagnostics)
    if exit_zero:  # whatever the files hold; only mem0lint's own failures (above) exit 2
        sys.exit(EXIT_CLEAN)
    if failed:
        sys.exit(EXIT_ERROR)
    if exit_non_zero_on_fix and fixed:
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_FINDINGS if remaining and not exit_zero else EXIT_CLEAN)


def _project_root(first: Path) -> Path:
    """Where the cache lives: the nearest folder above the first path with a pyproject.toml or
    a .git (the project's root, as Ruff's), else the path's own folder; never the cwd as such."""
    start = Path(os.path.abspath(first))
    if not start.is_dir():
        start = start.parent
    for folder in [start, *start.parents]:
        if (folder / "pyproject.toml").is_file() or (folder / ".git").exists():
            return folder
    return start


def _warn_empty_folders(paths, found, err: Terminal) -> list[str]:
    """A folder named on the command line that yields nothing is said so, not passed silently.
    Returns the warnings."""
    from mem0lint.sources import empty_folder_note

    warnings = []
    for path in paths:
        if not os.path.isdir(path):
            continue
        prefix = os.path.join(os.path.abspath(path), "")
        if not any(os.path.abspath(s.fspath).startswith(prefix) for s in found):
            warnings.append(empty_folder_note(path))
            err.print(f"mem0lint: warning: {warnings[-1]}")
    return warnings


def _project_factory(paths, found, receivers: dict[str, str], modules=None):
    """The run's index of modules, to bind receivers imported from other files; built (and
    libcst imported) only when some file passes the prefilter. `modules`: the run's
    `ModuleFinder`, shared with the prefilter."""

    def build():
        from mem0lint.project import ProjectIndex

        project = ProjectIndex.for_paths(paths, [s.path for s in found], finder=modules)
        project.configure(receivers)
        return project

    build.modules = modules  # type: ignore[attr-defined]  (batch.run's prefilter uses it too)
    return build


def _discover(paths, excluder, config_file, options: list[str], cache_dir) -> tuple[list, object]:
    """The files under `paths`, and the snapshot to save after the run (None: none is taken).
    From the last run's snapshot when the tree's shape is the same (`cache_dir`: None, no
    snapshot). Files named one by one (pre-commit) need no walk, and would leave a snapshot per
    commit: none is taken. `options`: what else decides the outcome."""
    from mem0lint.documents import SUFFIXES
    from mem0lint.snapshot import Snapshot
    from mem0lint.sources import discover

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
        discover(list(paths), suffixes=suffixes, excluded=excluder.excluded, walked=walked)
    )
    return found, snapshot


def _targets(values: tuple[str, ...]) -> dict[str, str]:
    if not values:
        return {}
    from mem0lint.versions import parse_targets

    try:
        return parse_targets(values)
    except ValueError as error:
        raise click.UsageError(f"--target-version: {error}") from None


def _describe_sdks(path: Path, resolved) -> str:
    from mem0lint.versions import Discovery, describe

    discovery = Discovery()
    text = describe(discovery.for_path(path, resolved.target_versions))
    return text + "".join(f"  note: {note}\n" for note in discovery.notes)


def _groups(found, finder, command_line, excluder, discovery=None) -> list[tuple]:
    """The files found, grouped by the settings that apply to them (nearest pyproject.toml):
    [(engine settings, files)]. Settings are resolved once per configuration, unless its
    per-file ignores make its files differ. `excluder`: applied to named files too."""
    import dataclasses

    from mem0lint import config
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


def _stats(found) -> tuple[dict, str]:
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


class _progress:
    """A rich progress bar on stderr for long runs in a terminal; a no-op otherwise."""

    def __init__(self, err: Terminal, total: int) -> None:
        self.bar = None
        if err.is_terminal and total > PROGRESS_THRESHOLD:
            from rich.progress import Progress

            self.bar = Progress(console=err.console, transient=True)
            self.task = self.bar.add_task("Linting", total=total)

    def __enter__(self):
        if self.bar is None:
            return lambda: None
        self.bar.start()
        return lambda: self.bar.advance(self.task)

    def __exit__(self, *exc_info) -> None:
        if self.bar is not None:
            self.bar.stop()


def _apply_baseline(path: Path, reports: list, update: bool, err: Terminal, quiet: bool) -> None:
    from mem0lint import baseline

    try:
        if update or not path.exists():
            count = baseline.write(path, reports)
            if not quiet:
                err.print(f"mem0lint: wrote {count} finding(s) to baseline {path}")
            for file_report in reports:
                file_report.diagnostics = []
            return
        baseline.subtract(path, baseline.read(path), reports)
    except baseline.BaselineError as error:
        err.print(f"mem0lint: {error}")
        sys.exit(EXIT_ERROR)


def _explain(code: str, out: Terminal) -> int:
    from mem0lint.docs import explain, rules_table
    from mem0lint.problems import PROBLEMS
    from mem0lint.rule import all_rules

    if code.upper() in PROBLEMS:  # not a rule: a file that could not be checked
        name, severity, summary = PROBLEMS[code.upper()]
        out.print(f"{code.upper()} {name} ({severity}): {summary}.")
        return EXIT_CLEAN
    rules = all_rules()
    if code.upper() not in rules:
        if code.lower() in ("", "all", "rules"):
            out.print(rules_table())
            return EXIT_CLEAN
        Terminal(stderr=True).print(f"mem0lint: unknown rule code {code!r}")
        return EXIT_ERROR
    out.print(explain(rules[code.upper()]))
    return EXIT_CLEAN
