"""The `mem0lint` command."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console

from mem0lint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


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


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--fix", is_flag=True, help="Apply safe fixes in place.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes that may change results.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@click.option("--select", multiple=True, help="Rule codes or prefixes to enable (MEM2 = MEM2xx).")
@click.option("--ignore", multiple=True, help="Rule codes or prefixes to disable.")
@click.option(
    "--output-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="How findings are printed.",
)
@click.option("--explain", "explain_code", metavar="CODE", help="Explain a rule and exit.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=0),
    default=0,
    help="Processes to check files with; 0 (default): serial for a few files, else one per CPU.",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache of clean files.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    default=".mem0lint_cache",
    show_default=True,
    help="Where clean verdicts are kept between runs.",
)
@click.version_option(__version__, prog_name="mem0lint")
def main(
    paths: tuple[str, ...],
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    output_format: str,
    explain_code: str | None,
    exit_zero: bool,
    jobs: int,
    no_cache: bool,
    cache_dir: str,
) -> None:
    """Find and fix wrong calls to agent-memory SDKs (mem0, Memsy, MemOS) in PATHS."""
    out = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if explain_code is not None:
        sys.exit(_explain(explain_code, out))

    from mem0lint import batch, report
    from mem0lint.runner import CHECK, DIFF, FIX
    from mem0lint.settings import Settings
    from mem0lint.sources import discover

    select, ignore = _codes(select), _codes(ignore)
    _check_codes(select, "--select")
    _check_codes(ignore, "--ignore")
    if "ALL" in select:
        select = ()
    paths = paths or (".",)
    for path in paths:
        if not Path(path).exists():
            raise click.UsageError(f"path does not exist: {path}")
    settings = Settings(select=select, ignore=ignore, unsafe_fixes=unsafe_fixes)
    mode = DIFF if diff else FIX if (fix or unsafe_fixes) else CHECK
    roots = [Path(p) for p in paths]

    cache = None
    if not no_cache:
        from mem0lint.cache import Cache

        cache = Cache(Path(cache_dir), settings)
    sources = discover(list(paths))
    reports = batch.run(sources, settings, mode, roots, jobs=jobs or None, cache=cache)

    failed = False
    for file_report in reports:
        if file_report.error:
            failed = True
            err.print(f"mem0lint: {file_report.source.path}: {file_report.error}", markup=False)
    if mode == DIFF:
        for file_report in reports:
            if file_report.diff:
                sys.stdout.write(file_report.diff)
        would = sum(r.fixed for r in reports)
        err.print(f"Would fix {would} problem{'s' if would != 1 else ''}.", markup=False)
        sys.exit(EXIT_ERROR if failed else EXIT_FINDINGS if would and not exit_zero else EXIT_CLEAN)

    if output_format == "json":
        report.write_json(reports, sys.stdout)
    else:
        report.write_text(reports, out)
        out.print(report.summary(reports, unsafe_fixes), markup=False)
    remaining = any(r.diagnostics for r in reports)
    if failed:
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_FINDINGS if remaining and not exit_zero else EXIT_CLEAN)


def _explain(code: str, out: Console) -> int:
    from mem0lint.docs import explain, rules_table
    from mem0lint.rule import all_rules

    rules = all_rules()
    if code.upper() not in rules:
        if code.lower() in ("", "all", "rules"):
            out.print(rules_table(), markup=False)
            return EXIT_CLEAN
        Console(stderr=True).print(f"mem0lint: unknown rule code {code!r}", markup=False)
        return EXIT_ERROR
    out.print(explain(rules[code.upper()]), markup=False)
    return EXIT_CLEAN
