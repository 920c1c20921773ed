"""Golden fixtures: every file under fixtures/ linted as one project (as `mem0lint fixtures/`
does), compared with the expected diagnostics and, for safe fixes, the expected fixed text.

Regenerate after an intended change with `MEM0LINT_UPDATE_GOLDEN=1 python -m pytest
tests/test_golden.py` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mem0lint import engine
from mem0lint.project import ProjectIndex
from mem0lint.runner import CHECK, process
from mem0lint.sources import discover

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = bool(os.environ.get("MEM0LINT_UPDATE_GOLDEN"))


def _project():
    sources = list(discover([str(FIXTURES)]))
    return sources, ProjectIndex.for_paths([FIXTURES], [s.path for s in sources])


def _name(path: Path) -> str:
    return Path(os.path.abspath(path)).relative_to(FIXTURES).as_posix()


def current_diagnostics() -> str:
    sources, index = _project()
    rules = engine.RuleSet(engine.Settings())
    lines = []
    for source in sources:
        report = process(source, rules, CHECK, [FIXTURES], index)
        assert report.error is None, report.error
        for d in report.diagnostics:
            row, column = d.start
            lines.append(
                f"{_name(source.path)}:{row}:{column} {d.code} {d.dialect} {d.severity.value}"
            )
    return "\n".join(lines) + "\n"


def test_diagnostics_match_golden():
    expected = GOLDEN / "diagnostics.txt"
    actual = current_diagnostics()
    if UPDATE:
        expected.write_text(actual, encoding="utf-8")
    assert actual == expected.read_text(encoding="utf-8")


def _fixed_cases():
    sources, index = _project()
    rules = engine.RuleSet(engine.Settings())
    for source in sources:
        original = source.path.read_bytes()
        if not engine.may_matter(original):
            continue
        module = engine.parse(original)
        result = engine.fix(module, rules, index.view(source.path))
        if result.module.code != module.code:
            yield _name(source.path), result.module.code


FIXED = sorted(_fixed_cases())


@pytest.mark.parametrize(("name", "fixed"), FIXED, ids=[n for n, _ in FIXED])
def test_safe_fixes_match_golden(name, fixed):
    # Stored as .txt so neither pytest nor ruff treats the expected outputs as code.
    expected = GOLDEN / "fixed" / f"{name}.txt"
    if UPDATE:
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(fixed, encoding="utf-8")
    assert fixed == expected.read_text(encoding="utf-8")


def test_every_golden_fixed_file_is_still_produced():
    produced = {name for name, _ in FIXED}
    stored = {
        p.relative_to(GOLDEN / "fixed").as_posix()[: -len(".txt")]
        for p in (GOLDEN / "fixed").rglob("*.txt")
    }
    assert stored == produced
