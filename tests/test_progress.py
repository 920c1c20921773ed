"""The progress bar advances per file while the run works, on a terminal only.

A fake terminal (rich's Console forced to act as one, writing to a StringIO) receives the bar:
it must show percentages between 0 and 100 while the run goes, and each advance must come as a
file is decided (dropped, answered from the cache, or checked), not all at the end.
"""

from __future__ import annotations

import io
import os
import re
import time
from pathlib import Path

import pytest
from rich.console import Console

from mem0lint import batch, pipeline, runner
from mem0lint.terminal import ProgressBar, Terminal

USES = 'from mem0 import MemoryClient\n\nclient = MemoryClient()\nclient.search("q", limit=3)\n'


def _tree(root: Path, dropped: int, checked: int) -> None:
    (root / "pyproject.toml").write_text("")  # the project's top: nothing above it is read
    for i in range(dropped):
        (root / f"plain_{i:03}.py").write_text(f"import os\n\nX = {i}\n")
    for i in range(checked):
        (root / f"uses_{i:03}.py").write_text(USES)
    past = time.time() - 60  # older than a run's timestamp tick: the cache may trust them
    for path in [root, *root.iterdir()]:
        os.utime(path, (past, past))


def _run_with_bar(root: Path, monkeypatch, jobs: int | None = 1, no_cache: bool = True):
    """(the percentages drawn, for each advance the number of files checked so far, total)"""
    screen = io.StringIO()
    console = Console(force_terminal=True, file=screen, width=100)
    checked: list[str] = []
    seen: list[int] = []

    def counting(source, *args, **kwargs):
        checked.append(source.fspath)
        return runner.process(source, *args, **kwargs)

    monkeypatch.setattr(batch, "process", counting)
    bars: list[ProgressBar] = []

    class Watched(ProgressBar):
        def advance(self) -> None:
            seen.append(len(checked))
            super().advance()

    def progress(total: int) -> ProgressBar:
        bars.append(Watched(Terminal(stderr=True), total, threshold=0, console=console))
        return bars[-1]

    options = pipeline.Options(
        paths=(str(root),), jobs=jobs, no_cache=no_cache, cache_dir=str(root.parent / "cache")
    )
    pipeline.run(options, progress=progress)
    percents = [int(p) for p in re.findall(r"(\d+)%", screen.getvalue())]
    return percents, seen, bars[0]


def test_the_bar_reaches_intermediate_values(tmp_path, monkeypatch):
    root = tmp_path / "tree"
    root.mkdir()
    _tree(root, dropped=30, checked=10)
    percents, seen, bar = _run_with_bar(root, monkeypatch)
    assert bar.done == bar.total == 40
    middle = {p for p in percents if 0 < p < 100}
    assert len(middle) >= 10, percents  # not 0% then 100%
    assert percents == sorted(percents)


def test_checked_files_advance_as_each_is_checked(tmp_path, monkeypatch):
    """The 30 dropped files advance during the triage (nothing checked yet); each of the 10
    checked files advances right after its own check."""
    root = tmp_path / "tree"
    root.mkdir()
    _tree(root, dropped=30, checked=10)
    _, seen, _ = _run_with_bar(root, monkeypatch)
    assert seen == [0] * 30 + list(range(1, 11))


def test_a_warm_cache_advances_per_file_too(tmp_path, monkeypatch):
    root = tmp_path / "tree"
    root.mkdir()
    _tree(root, dropped=5, checked=5)
    _run_with_bar(root, monkeypatch, no_cache=False)
    percents, seen, bar = _run_with_bar(root, monkeypatch, no_cache=False)
    assert bar.done == 10 and seen == [0] * 10  # every file from the cache, one by one
    assert len({p for p in percents if 0 < p < 100}) >= 5


@pytest.mark.parametrize("jobs", [2])
def test_a_pool_advances_as_reports_come_back(tmp_path, monkeypatch, jobs):
    root = tmp_path / "tree"
    root.mkdir()
    _tree(root, dropped=4, checked=30)
    percents, _, bar = _run_with_bar(root, monkeypatch, jobs=jobs)
    assert bar.done == bar.total == 34
    assert len({p for p in percents if 12 < p < 100}) >= 10  # while the workers report


def test_no_bar_on_a_pipe_in_ci_or_for_a_short_run(monkeypatch):
    class FakeTTY(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("FORCE_COLOR", "1")  # colour forced: still a pipe
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert ProgressBar(Terminal(stderr=True), 10_000).bar is None
    monkeypatch.setattr("sys.stderr", FakeTTY())
    assert ProgressBar(Terminal(stderr=True), 10_000).bar is not None
    assert ProgressBar(Terminal(stderr=True), 10).bar is None  # short: not worth a bar
    monkeypatch.setenv("CI", "1")
    assert ProgressBar(Terminal(stderr=True), 10_000).bar is None
    monkeypatch.delenv("CI")
    monkeypatch.setenv("TERM", "dumb")
    assert ProgressBar(Terminal(stderr=True), 10_000).bar is None
    # A no-op bar still counts, and draws nothing.
    bar = ProgressBar(Terminal(stderr=True), 3)
    with bar as advance:
        advance()
    assert bar.bar is None


def test_json_output_on_a_pipe_carries_no_bar(tmp_path):
    import json
    import subprocess
    import sys

    _tree(tmp_path, dropped=350, checked=2)
    result = subprocess.run(
        [sys.executable, "-m", "mem0lint", "--no-cache", "--output-format", "json", "."],
        cwd=tmp_path,
        capture_output=True,
        env={"PATH": "", "FORCE_COLOR": "1"},
    )
    assert {f["code"] for f in json.loads(result.stdout)} == {"MEM102", "MEM401"}
    assert b"Linting" not in result.stderr and b"%" not in result.stderr
