"""The typed vocabulary of issue 10: modes, binding kinds, cache verdicts, edits; and the
pipeline's entry points for one file agree with a run."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from mem0lint import engine, pipeline
from mem0lint.binding import BindingKind
from mem0lint.cache import Cache, VerdictKind
from mem0lint.modes import Mode
from mem0lint.results import Edit
from mem0lint.sources import SourceFile

PACKAGE = Path(__file__).resolve().parent.parent / "mem0lint"
BAD = "from mem0 import MemoryClient\n\nclient = MemoryClient()\nclient.search('q', limit=3)\n"
UNRELATED = "import re\n\nre.search('a', 'b')\n"


def test_every_binding_kind_written_in_the_binder_is_a_member():
    """`Binding("...")` and `kind="..."` literals under mem0lint/ (the binder) name members of
    `BindingKind`: a new kind is added to the enum, not spelled only where it is made."""
    spelled = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "Binding" and node.args and isinstance(node.args[0], ast.Constant):
                spelled.add(node.args[0].value)
            for keyword in node.keywords:
                if (
                    keyword.arg == "kind"
                    and name in ("_bind_target", "Binding")
                    and isinstance(keyword.value, ast.Constant)
                ):
                    spelled.add(keyword.value.value)
    assert {"import", "annotation", "param"} <= spelled  # the scan sees the binder
    assert spelled <= {kind.value for kind in BindingKind}


@pytest.mark.parametrize(
    ("verdict", "kind"),
    [
        ("0123abcd", VerdictKind.CLEAN),
        ("+0123abcd", VerdictKind.REPORT),
        ("-77aa", VerdictKind.DROPPED),
    ],
)
def test_verdict_kinds_read_the_on_disk_sigils(verdict, kind):
    assert VerdictKind.of(verdict) is kind
    assert verdict.startswith(kind.value)


def test_a_cache_written_with_typed_edits_keeps_the_dict_shape_on_disk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text(BAD)
    settings = engine.Settings()
    sources = [SourceFile(Path("bad.py"))]
    first = pipeline.check_files(
        sources, settings, Mode.CHECK, [tmp_path], 1, Cache(tmp_path, settings)
    )
    edits = [e for d in first[0].diagnostics for e in d.edits]
    assert edits and all(isinstance(e, Edit) for e in edits)
    (stored,) = json.loads(next(tmp_path.glob("clean-*.json")).read_text())["reports"].values()
    on_disk = [e for d in stored["diagnostics"] for e in d["edits"]]
    assert on_disk == [
        {"content": e.content, "location": list(e.location), "end_location": list(e.end_location)}
        for e in edits
    ]
    again = pipeline.check_files(
        sources, settings, Mode.CHECK, [tmp_path], 1, Cache(tmp_path, settings)
    )
    assert [e for d in again[0].diagnostics for e in d.edits] == edits  # replayed, typed again


def test_modes_are_one_enum_that_reads_the_old_strings():
    assert [Mode(m) for m in ("check", "fix", "diff", "add-noqa")] == list(Mode)
    assert Mode.FIX == "fix" and Mode.FIX.fixes and Mode.DIFF.fixes and not Mode.CHECK.fixes
    assert [m for m in Mode if m.replays] == [Mode.CHECK]


def test_check_file_prefilters_and_agrees_with_a_run(tmp_path):
    """One file through `check_file` gets the findings a path run gives it; a file without SDK
    words is dropped unparsed (its report has no frames), yet a named one must parse."""
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "unrelated.py").write_text(UNRELATED)
    (tmp_path / "broken.py").write_text("def (:\n")
    rules = engine.RuleSet(engine.Settings())
    one = pipeline.check_file(SourceFile(tmp_path / "bad.py"), rules)
    options = pipeline.Options(paths=(str(tmp_path),), jobs=1, no_cache=True)
    by_name = {r.source.path.name: r for r in pipeline.run(options).reports}
    as_run = by_name["bad.py"]
    assert [(d.code, d.start) for d in one.diagnostics] == [
        (d.code, d.start) for d in as_run.diagnostics
    ]
    assert one.diagnostics  # MEM102 at least
    dropped = pipeline.check_file(SourceFile(tmp_path / "unrelated.py"), rules)
    assert dropped.diagnostics == [] and dropped.frames == {} and dropped.error is None
    named = pipeline.check_file(SourceFile(tmp_path / "broken.py", explicit=True), rules)
    assert named.error and named.error_code == "MEM001"
    unnamed = pipeline.check_file(SourceFile(tmp_path / "broken.py"), rules)
    assert unnamed.error is None  # not named, no SDK word: never looked at


def test_lint_text_is_reexported_for_the_language_server():
    from mem0lint import inproject

    assert inproject.lint_text is pipeline.lint_text
    report = pipeline.lint_text(BAD, "service.py", Mode.FIX)
    assert report.output is not None and b"top_k=3" in report.output
