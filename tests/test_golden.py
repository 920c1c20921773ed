"""Golden fixtures: every file under fixtures/ (Python, notebooks, Markdown/MDX) linted as one
project, as `mem0lint fixtures/` does, against its expected findings and its `--fix` output.

Expectations live in tests/golden/: `<path>.findings` for every file, `<path>.fixed` for every
file that --fix changes. After a deliberate change, re-record with
`MEM0LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py` and review the diff.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mem0lint import pipeline
from mem0lint.documents import SUFFIXES
from mem0lint.modes import Mode
from mem0lint.sources import discover

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("MEM0LINT_UPDATE_GOLDEN") == "1"
ALL_KINDS = frozenset(s for kind in SUFFIXES.values() for s in kind)


def _run(root: Path, mode: Mode) -> dict[Path, object]:
    """The files under `root` through the pipeline, as `mem0lint --no-cache -j 1 root` runs."""
    options = pipeline.Options(paths=(str(root),), mode=mode, jobs=1, no_cache=True)
    return {r.source.path.relative_to(root): r for r in pipeline.run(options).reports}


FILES = sorted(s.path.relative_to(FIXTURES) for s in discover([str(FIXTURES)], suffixes=ALL_KINDS))


def _expect(path: Path, actual: str) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8", newline="")
    assert path.exists(), f"no golden file {path}; record it with MEM0LINT_UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8")


def _line(d) -> str:
    cell = f" cell {d.cell}" if d.cell is not None else ""
    return f"{d.start[0]}:{d.start[1]}{cell} {d.code} {d.severity.value} {d.message}\n"


@pytest.fixture(scope="module")
def fixed_tree(tmp_path_factory) -> Path:
    """A copy of fixtures/ after `mem0lint --fix`, fixed as one project."""
    root = tmp_path_factory.mktemp("fixed") / "fixtures"
    shutil.copytree(FIXTURES, root)
    for report in _run(root, Mode.FIX).values():
        assert report.error is None, report.error
    return root


@pytest.fixture(scope="module")
def checked() -> dict:
    return _run(FIXTURES, Mode.CHECK)


@pytest.mark.parametrize("relative", FILES, ids=[str(f) for f in FILES])
def test_findings(relative: Path, checked: dict):
    report = checked[relative]
    assert report.error is None
    _expect(GOLDEN / f"{relative}.findings", "".join(_line(d) for d in report.diagnostics))


@pytest.mark.parametrize("relative", FILES, ids=[str(f) for f in FILES])
def test_fix_output(relative: Path, fixed_tree: Path):
    after = (fixed_tree / relative).read_text(encoding="utf-8")
    golden = GOLDEN / f"{relative}.fixed"
    if after == (FIXTURES / relative).read_text(encoding="utf-8"):
        if UPDATE and golden.exists():
            golden.unlink()
        assert not golden.exists(), f"{relative} is no longer changed by --fix"
        return
    _expect(golden, after)


def test_second_fix_changes_nothing(fixed_tree: Path):
    before = {p: p.read_bytes() for p in fixed_tree.rglob("*") if p.is_file()}
    for report in _run(fixed_tree, Mode.FIX).values():
        assert report.fixed == 0, report.source.path
    assert before == {p: p.read_bytes() for p in fixed_tree.rglob("*") if p.is_file()}


def test_decoys_are_silent(checked: dict):
    decoys = [r for path, r in checked.items() if "decoy" in path.name]
    assert decoys and all(r.diagnostics == [] for r in decoys)
