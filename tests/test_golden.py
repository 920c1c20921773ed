"""Golden fixtures: each file under fixtures/ has its expected findings and its --fix output.

Expectations live in tests/golden/ (`<path>.findings` and `<path>.fixed`). To re-record them after
a deliberate change, run `MEM0LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py` and
review the diff.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mem0lint import engine
from mem0lint.runner import CHECK, FIX, process
from mem0lint.sources import SourceFile, discover

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("MEM0LINT_UPDATE_GOLDEN") == "1"

FILES = sorted(s.path.relative_to(FIXTURES) for s in discover([str(FIXTURES)]))


def _expect(path: Path, actual: str) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8", newline="")
    assert path.exists(), f"no golden file {path}; record it with MEM0LINT_UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8")


def _findings(report) -> str:
    return "".join(f"{d.start[0]}:{d.start[1]} {d.code} {d.message}\n" for d in report.diagnostics)


@pytest.mark.parametrize("relative", FILES, ids=[str(f) for f in FILES])
def test_findings(relative: Path):
    rules = engine.RuleSet(engine.Settings())
    report = process(SourceFile(FIXTURES / relative), rules, CHECK, [FIXTURES])
    assert report.error is None
    _expect(GOLDEN / f"{relative}.findings", _findings(report))


@pytest.mark.parametrize("relative", FILES, ids=[str(f) for f in FILES])
def test_fix_output_and_second_fix_is_a_no_op(relative: Path, tmp_path: Path):
    copy = tmp_path / relative.name
    shutil.copyfile(FIXTURES / relative, copy)
    rules = engine.RuleSet(engine.Settings())
    first = process(SourceFile(copy), rules, FIX, [tmp_path])
    assert first.error is None
    _expect(GOLDEN / f"{relative}.fixed", copy.read_text(encoding="utf-8"))
    fixed = copy.read_bytes()
    second = process(SourceFile(copy), rules, FIX, [tmp_path])
    assert second.fixed == 0 and copy.read_bytes() == fixed


def test_decoys_are_silent():
    rules = engine.RuleSet(engine.Settings())
    for decoy in FIXTURES.rglob("*decoy*.py"):
        assert process(SourceFile(decoy), rules, CHECK, [FIXTURES]).diagnostics == []
