"""No harm on large real code: check and --fix every .py file of this interpreter's standard
library and site-packages (code nobody here wrote), on a copy.

Asserts, per file: no crash (an exception escaping mem0lint, or a hang); the file changed only if
the check found a safe fixable finding in it; every fixed file still parses; a second --fix
changes nothing. Unreadable or unparsable files are fine as long as they get a clear message.

    python scripts/robustness.py              # everything (see the README for the figures)
    python scripts/robustness.py --sample 300 # a random sample, as CI runs it

Exit status 0 when clean, 1 when any file broke a guarantee.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import signal
import site
import sys
import sysconfig
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from mem0lint import engine
from mem0lint.modes import Mode
from mem0lint.pipeline import check_file as check_one
from mem0lint.sources import SourceFile

PER_FILE_SECONDS = 60


@dataclass
class Figures:
    files: int = 0
    findings: int = 0
    fixable_files: int = 0
    messages: int = 0  # files mem0lint could not read or parse, reported with a message
    changed: int = 0
    crashes: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        return (
            f"files {self.files}, findings {self.findings}, files with safe fixes "
            f"{self.fixable_files}, changed files {self.changed}, unparsable/unreadable "
            f"{self.messages}, crashes {len(self.crashes)}, violations {len(self.violations)}, "
            f"seconds {self.seconds:.1f}"
        )


def source_roots() -> list[Path]:
    """The standard library and every site-packages folder of the running interpreter."""
    paths = sysconfig.get_paths()
    candidates = [paths["stdlib"], paths["purelib"], paths["platlib"], *site.getsitepackages()]
    roots: list[Path] = []
    for candidate in candidates:
        path = Path(candidate).resolve()
        if path.is_dir() and not any(path == r or r in path.parents for r in roots):
            roots = [r for r in roots if path not in r.parents] + [path]
    return roots


def python_files(roots: list[Path]) -> list[tuple[Path, Path]]:
    """(root, file) for every .py file under the roots, each file once."""
    found = []
    for root in roots:
        for directory, dirnames, filenames in os.walk(root, followlinks=False):
            here = Path(directory)
            dirnames[:] = sorted(
                d for d in dirnames if not any(here / d == r for r in roots if r != root)
            )
            for name in sorted(filenames):
                path = here / name
                if name.endswith(".py") and path.is_file() and not path.is_symlink():
                    found.append((root, path))
    return found


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def run(files: list[tuple[Path, Path]], workdir: Path, figures: Figures) -> None:
    rules = engine.RuleSet(engine.Settings())
    signal.signal(signal.SIGALRM, _alarm)
    for index, (_root, original) in enumerate(files):
        copy = workdir / str(index) / original.name
        copy.parent.mkdir(parents=True)
        shutil.copyfile(original, copy)
        figures.files += 1
        label = str(original)
        try:
            signal.alarm(PER_FILE_SECONDS)
            check_file(copy, label, rules, [copy.parent], figures)
        except Hang:
            figures.crashes.append(f"{label}: no answer within {PER_FILE_SECONDS} s")
        except Exception:
            figures.crashes.append(f"{label}: {traceback.format_exc(limit=-3)}")
        finally:
            signal.alarm(0)
            shutil.rmtree(copy.parent, ignore_errors=True)


def check_file(path: Path, label: str, rules, roots: list[Path], figures: Figures) -> None:
    before = path.read_bytes()
    checked = check_one(SourceFile(path, explicit=True), rules, Mode.CHECK, roots)
    if checked.error:
        figures.messages += 1
    figures.findings += len(checked.diagnostics)
    fixable = any(engine.applicable(d, unsafe=False) for d in checked.diagnostics)
    figures.fixable_files += fixable

    fixed = check_one(SourceFile(path, explicit=True), rules, Mode.FIX, roots)
    after = path.read_bytes()
    if after == before:
        return
    figures.changed += 1
    if not fixable:
        figures.violations.append(f"{label}: changed by --fix without a safe fixable finding")
    if fixed.error:
        figures.violations.append(f"{label}: fixed and reported an error: {fixed.error}")
    try:
        engine.parse(after)
        ast.parse(after)
    except (engine.ParseFailure, SyntaxError, ValueError) as error:
        figures.violations.append(f"{label}: the fixed file does not parse: {error}")
        return
    check_one(SourceFile(path, explicit=True), rules, Mode.FIX, roots)
    if path.read_bytes() != after:
        figures.violations.append(f"{label}: a second --fix changed the file again")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, help="check a random sample of N files")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample")
    parser.add_argument(
        "--may-matter",
        action="store_true",
        help="only files the prefilter lets through (the ones that are parsed and analysed)",
    )
    parser.add_argument("--verbose", action="store_true", help="list crashes and violations")
    options = parser.parse_args(argv)

    roots = source_roots()
    files = python_files(roots)
    if options.may_matter:
        files = [(root, path) for root, path in files if engine.may_matter(path.read_bytes())]
    if options.sample is not None and options.sample < len(files):
        files = random.Random(options.seed).sample(files, options.sample)
    print(f"roots: {', '.join(map(str, roots))}")
    figures = Figures()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mem0lint-robustness-") as workdir:
        run(files, Path(workdir), figures)
    figures.seconds = time.perf_counter() - start
    print(figures.line())
    for problem in figures.crashes + figures.violations:
        print(f"  {problem}" if options.verbose else f"  {problem.splitlines()[0]}")
    return 1 if figures.crashes or figures.violations else 0


if __name__ == "__main__":
    sys.exit(main())
