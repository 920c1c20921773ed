"""Pruning changes no finding on real trees: every repository under --root is checked twice in
this process, pruned (as `mem0lint` checks) and unpruned (`pruning.unpruned()`), and the findings
are compared: path, cell, code, message, start, end, severity and every fix edit.

Not run in CI (it needs the checkouts). Standard library only, plus this checkout's mem0lint.

    python scripts/pruning_equality.py                      # every folder of /work/realworld
    python scripts/pruning_equality.py --repo mem0ai+mem0   # one of them

Prints one line per repository (files, findings, seconds each way) and every difference; exits 1
when there is one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from mem0lint import pipeline, pruning  # noqa: E402


def findings(repo: Path) -> tuple[list[tuple], int, float]:
    start = time.perf_counter()
    here = os.getcwd()
    os.chdir(repo)
    try:
        result = pipeline.run(pipeline.Options(paths=(".",), no_cache=True, jobs=1))
    finally:
        os.chdir(here)
    found = []
    for report in result.reports:
        found.append((str(report.source.path), "error", report.error or ""))
        for d in report.diagnostics:
            edits = tuple((e.content, e.location, e.end_location) for e in d.edits)
            found.append(
                (
                    str(report.source.path),
                    d.cell,
                    d.code,
                    d.message,
                    d.start,
                    d.end,
                    str(d.severity),
                    edits,
                )
            )
    return sorted(found, key=repr), len(result.reports), time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default="/work/realworld")
    parser.add_argument("--repo", action="append", default=[])
    args = parser.parse_args()
    root = Path(args.root)
    repos = [root / r for r in args.repo] or sorted(p for p in root.iterdir() if p.is_dir())
    repos = [r for r in repos if r.is_dir()]
    differences = 0
    for repo in repos:
        pruned, files, fast = findings(repo)
        with pruning.unpruned():
            whole, _, slow = findings(repo)
        count = sum(1 for f in pruned if f[1] != "error")
        print(
            f"{repo.name}: {files} files, {count} findings, pruned {fast:.1f} s, "
            f"unpruned {slow:.1f} s, {'same' if pruned == whole else 'DIFFERENT'}"
        )
        if pruned != whole:
            for item in sorted(set(pruned) ^ set(whole), key=repr):
                side = "pruned only" if item in set(pruned) else "unpruned only"
                print(f"  {side}: {item}")
                differences += 1
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
