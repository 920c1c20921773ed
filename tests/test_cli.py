"""The command line as a user meets it: exit codes, output formats, --fix, --diff, bad input."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from mem0lint.cli import main

BAD = textwrap.dedent(
    """\
    from mem0 import MemoryClient

    client = MemoryClient()
    client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=3)
    """
)
GOOD = BAD.replace('"$and"', '"AND"').replace("limit=", "top_k=")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(BAD)
    (tmp_path / "ok.py").write_text(GOOD)
    return tmp_path


def test_findings_exit_1_with_code_frame_and_summary(project):
    result = run(str(project))
    assert result.exit_code == 1
    assert f"{project / 'app.py'}:4:29: MEM201 [*] mem0 operators have no `$`" in result.output
    assert '4 | client.search("q", filters={"$and"' in result.output
    assert "^^^^^^" in result.output
    assert "Found 2 problems in 1 file (2 fixable with `--fix`)." in result.output


def test_clean_tree_exits_0(project):
    result = run(str(project / "ok.py"))
    assert result.exit_code == 0
    assert "All checks passed." in result.output


def test_exit_zero(project):
    assert run("--exit-zero", str(project)).exit_code == 0


def test_fix_writes_and_second_fix_is_a_no_op(project):
    result = run("--fix", str(project))
    assert result.exit_code == 0, result.output
    assert (project / "app.py").read_text() == GOOD
    assert "Fixed 2 problems." in result.output
    before = (project / "app.py").stat().st_mtime_ns
    assert run("--fix", str(project)).exit_code == 0
    assert (project / "app.py").stat().st_mtime_ns == before


def test_fix_leaves_clean_files_untouched(project):
    before = (project / "ok.py").stat().st_mtime_ns
    run("--fix", str(project))
    assert (project / "ok.py").stat().st_mtime_ns == before


def test_diff_prints_and_writes_nothing(project):
    result = run("--diff", str(project))
    assert result.exit_code == 1
    assert '-client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=3)' in result.output
    assert '+client.search("q", filters={"AND": [{"user_id": "u"}]}, top_k=3)' in result.output
    assert (project / "app.py").read_text() == BAD


def test_diff_is_a_patch_even_for_a_file_without_a_final_newline(project, monkeypatch):
    # Found on a public repository: the last `+` line ran into the next file's `---` header.
    (project / "app.py").write_text(BAD.rstrip("\n"))
    (project / "zz.py").write_text(BAD)
    monkeypatch.chdir(project)
    patch = run("--diff", ".").stdout
    assert "\n\\ No newline at end of file\n---" in patch
    import subprocess

    (project / "fix.patch").write_text(patch)
    applied = subprocess.run(
        ["git", "apply", "-p1", "fix.patch"], cwd=project, capture_output=True, text=True
    )
    assert applied.returncode == 0, applied.stderr
    assert (project / "app.py").read_text() == GOOD.rstrip("\n")
    assert (project / "zz.py").read_text() == GOOD


def test_json_output_shape(project):
    result = run("--output-format", "json", str(project / "app.py"))
    assert result.exit_code == 1
    findings = json.loads(result.output)
    first = findings[0]
    assert first == {
        "code": "MEM201",
        "name": "dollar-operator",
        "severity": "error",
        "message": "mem0 operators have no `$`: use `AND` instead of `$and`",
        "dialect": "mem0-platform",
        "filename": str(project / "app.py"),
        "location": {"row": 4, "column": 29},
        "end_location": {"row": 4, "column": 35},
        "fix": {
            "applicability": "safe",
            "message": "Replace `$and` with `AND`",
            "edits": [
                {
                    "content": '"AND"',
                    "location": {"row": 4, "column": 29},
                    "end_location": {"row": 4, "column": 35},
                }
            ],
        },
        # No pin above the file: judged as the newest mem0ai release mem0lint knows.
        "sdk": "mem0ai",
        "sdk_version": "2.2.1",
        "kind": "finding",
    }
    assert [f["code"] for f in findings] == ["MEM201", "MEM102"]


def test_select_and_ignore_take_prefixes(project):
    only_2xx = json.loads(run("--output-format", "json", "--select", "MEM2", str(project)).output)
    assert {f["code"] for f in only_2xx} == {"MEM201"}
    no_2xx = json.loads(run("--output-format", "json", "--ignore", "MEM2", str(project)).output)
    assert {f["code"] for f in no_2xx} == {"MEM102"}


def test_unknown_select_code_is_a_usage_error(project):
    result = run("--select", "XYZ9", str(project))
    assert result.exit_code == 2
    assert "no rule code starts with 'XYZ9'" in result.output


def test_missing_path_is_a_usage_error(tmp_path):
    result = run(str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert "path does not exist" in result.output


def test_unparsable_file_is_reported_and_others_still_linted(project):
    # A file that could hold a finding but does not parse (files that cannot matter are not parsed).
    (project / "broken.py").write_text("from mem0 import MemoryClient\nclient.search(\n")
    result = run(str(project))
    assert result.exit_code == 2
    # A record like a finding (issue 12): MEM001 where CPython places the error.
    assert "broken.py:2:14: MEM001 syntax error: '(' was never closed" in result.output
    assert "app.py:4:29: MEM201" in result.output


def test_explain_prints_rule_docs():
    result = run("--explain", "MEM201")
    assert result.exit_code == 0
    assert result.output.startswith("# MEM201 dollar-operator")
    assert "Use instead:" in result.output


def test_explain_unknown_code():
    assert run("--explain", "MEM999").exit_code == 2


def test_gitignore_and_default_skips_are_honoured(project):
    (project / ".gitignore").write_text("ignored/\n")
    for skipped in ("ignored", ".venv", "node_modules", "build", "__pycache__"):
        (project / skipped).mkdir()
        (project / skipped / "bad.py").write_text(BAD)
    result = run("--output-format", "json", str(project))
    assert {Path(f["filename"]).name for f in json.loads(result.output)} == {"app.py"}


def test_explicit_file_is_linted_even_if_ignored(project):
    (project / ".gitignore").write_text("app.py\n")
    assert run(str(project)).exit_code == 0
    assert run(str(project / "app.py")).exit_code == 1
