"""The `mem0lint` command."""

from __future__ import annotations

import gc
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click

from mem0lint import __version__
from mem0lint.terminal import PROGRESS_THRESHOLD, ProgressBar, Terminal  # noqa: F401

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
OUTPUT_FORMATS = ["text", "concise", "json", "json-lines", "github", "sarif"]


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    """`--select MEM1,MEM201 --select MEM3` -> ("MEM1", "MEM201", "MEM3")."""
    return tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())


def _check_codes(codes: tuple[str, ...], option: str) -> None:
    from mem0lint.codes import is_known  # the rules' file names: no rule (nor libcst) imported

    for code in codes:
        if not is_known(code):
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

    from mem0lint import config, pipeline, problems, report
    from mem0lint.modes import Mode

    select, ignore, extend_select = _codes(select), _codes(ignore), _codes(extend_select)
    _check_codes(select, "--select")
    _check_codes(ignore, "--ignore")
    _check_codes(extend_select, "--extend-select")
    if update_baseline and not baseline_file:
        raise click.UsageError("--update-baseline needs --baseline FILE")
    command_line = config.CommandLine(
        select=select,
        ignore=ignore,
        extend_select=extend_select,
        unsafe_fixes=unsafe_fixes,
        output_format=output_format,
        file_types=_file_types(file_types),
        target_versions=_targets(target_version),
    )
    paths = paths or (".",)
    reading_stdin = paths == ("-",)
    for path in paths:
        if path == "-" and not reading_stdin:
            raise click.UsageError("`-` (stdin) cannot be combined with other paths")
        if path != "-" and not Path(path).exists():
            raise click.UsageError(f"path does not exist: {path}")
    if show_settings is not None:
        try:
            out.print(_describe_settings(Path(show_settings), command_line, config_file), end="")
        except config.ConfigError as error:
            err.print(f"mem0lint: {error}")
            sys.exit(EXIT_ERROR)
        sys.exit(EXIT_CLEAN)
    mode = (
        Mode.ADD_NOQA
        if add_noqa
        else Mode.DIFF
        if diff
        else Mode.FIX
        if (fix or unsafe_fixes)
        else Mode.CHECK
    )
    options = pipeline.Options(
        paths=paths,
        mode=mode,
        command_line=command_line,
        config_file=config_file,
        stdin=sys.stdin.buffer.read() if reading_stdin else None,
        stdin_filename=stdin_filename,
        force_exclude=force_exclude,
        jobs=jobs or None,
        no_cache=no_cache,
        cache_dir=cache_dir,
        baseline=baseline_file,
        update_baseline=update_baseline,
    )
    from mem0lint.baseline import BaselineError

    try:
        run = pipeline.run(options, progress=lambda total: ProgressBar(err, total))
    except (config.ConfigError, BaselineError) as error:
        err.print(f"mem0lint: {error}")
        sys.exit(EXIT_ERROR)
    reports, output_format = run.reports, run.settings.output_format

    for warning in run.warnings:
        err.print(f"mem0lint: warning: {warning}")
    if not quiet:
        for note in run.notes:  # once per run
            err.print(f"mem0lint: info: {note}")
    failed = False
    for file_report in reports:
        if file_report.error:
            failed = failed or problems.is_failure(file_report)
            if mode.reports_errors_on_stderr:  # elsewhere the report itself carries it
                err.print(f"mem0lint: {file_report.source.path}: {file_report.error}")
        if not quiet:
            for note in file_report.info:
                err.print(f"mem0lint: info: {file_report.source.path}: {note}")

    if reading_stdin and mode.rewrites and reports:
        # The fixed source is the output; what is left goes to stderr.
        sys.stdout.buffer.write(reports[0].output or b"")
        sys.stdout.flush()
        out = err
    if mode is Mode.DIFF:
        for file_report in reports:
            if file_report.diff:
                sys.stdout.write(file_report.diff)
        would = sum(r.fixed for r in reports)
        if not quiet:
            err.print(f"Would fix {would} problem{'s' if would != 1 else ''}.")
        if exit_zero:
            sys.exit(EXIT_CLEAN)
        sys.exit(EXIT_ERROR if failed else EXIT_FINDINGS if would else EXIT_CLEAN)
    if mode is Mode.ADD_NOQA:
        added = sum(r.noqa_added for r in reports)
        if not quiet:
            err.print(f"Added {added} noqa directive{'s' if added != 1 else ''}.")
        sys.exit(EXIT_ERROR if failed and not exit_zero else EXIT_CLEAN)
    if run.baseline_written is not None and not quiet:
        err.print(f"mem0lint: wrote {run.baseline_written} finding(s) to baseline {baseline_file}")

    fixed = sum(r.fixed for r in reports)
    with _reports_not_rescanned():
        if statistics and output_format in ("json", "json-lines"):
            report.write_statistics_json(reports, sys.stdout)
        elif statistics:
            text = report.statistics(reports)
            if text:
                out.print(text)
        elif output_format == "sarif" and run.warnings:
            report.write_sarif(reports, sys.stdout, run.warnings)
        elif output_format in report.STREAM_WRITERS:
            report.STREAM_WRITERS[output_format](reports, sys.stdout)
        else:
            report.CONSOLE_WRITERS[output_format](reports, out)
            if not quiet:
                out.print(report.summary(reports, run.settings.unsafe_fixes))
    remaining = any(d.code != problems.NOT_ANALYSED for r in reports for d in r.diagnostics)
    if exit_zero:  # whatever the files hold; only mem0lint's own failures (above) exit 2
        sys.exit(EXIT_CLEAN)
    if failed:
        sys.exit(EXIT_ERROR)
    if exit_non_zero_on_fix and fixed:
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_FINDINGS if remaining and not exit_zero else EXIT_CLEAN)


@contextmanager
def _reports_not_rescanned() -> Iterator[None]:
    """Within: the cycle collector leaves alone what exists already. Writing the reports makes
    many small objects, and at each collection Python's collector scanned again every finding
    received from the workers: half of the time heavy's 3,008 findings took to write."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _targets(values: tuple[str, ...]) -> dict[str, str]:
    if not values:
        return {}
    from mem0lint.versions import parse_targets

    try:
        return parse_targets(values)
    except ValueError as error:
        raise click.UsageError(f"--target-version: {error}") from None


def _describe_settings(target: Path, command_line, config_file) -> str:
    """`--show-settings PATH`: the settings that apply to PATH, where each comes from, and the
    SDK releases it is judged by."""
    from mem0lint import config
    from mem0lint.versions import Discovery, describe

    finder = config.Finder(Path(config_file) if config_file else None)
    resolved = config.resolve(finder.for_path(target), command_line, target)
    excluded = config.Excluder(finder).excluded(target, target.is_dir())
    discovery = Discovery()
    text = describe(discovery.for_path(target, resolved.target_versions))
    notes = "".join(f"  note: {note}\n" for note in discovery.notes)
    return config.describe(resolved, target, excluded) + text + notes


def _explain(code: str, out: Terminal) -> int:
    from mem0lint.docs import explain, rules_table
    from mem0lint.problems import PROBLEMS
    from mem0lint.rules import all_rules

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
