"""Issue 12: every output format tells the same truth about files mem0lint could not check."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import run_cli

BAD = textwrap.dedent(
    """\
    from mem0 import MemoryClient

    client = MemoryClient()
    client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=3)
    """
)
# SDK words, so the prefilter lets it through; CPython rejects it at row 2, column 15.
BROKEN_SDK = "from mem0 import MemoryClient\nclient.search(\n"
# No SDK word at all: before issue 12 it was never parsed, even when named.
BROKEN_PLAIN = "def f(:\n    pass\n"
# Valid Python (CPython accepts it) that libcst rejects.
LIBCST_ONLY = (
    "from mem0 import MemoryClient\n\nclient = MemoryClient()\n(client): MemoryClient = client\n"
)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("source", [BROKEN_SDK, BROKEN_PLAIN])
def test_a_broken_file_is_a_mem001_record_in_text_never_all_checks_passed(tmp_path, source):
    path = write(tmp_path, "broken.py", source)
    result = run_cli(str(path))
    assert result.exit_code == 2
    assert "All checks passed" not in result.stdout
    assert f"{path}:" in result.stdout and "MEM001" in result.stdout
    assert "Found 1 problem in 1 file." in result.stdout


def test_the_syntax_error_is_placed_where_python_places_it(tmp_path):
    path = write(tmp_path, "broken.py", BROKEN_SDK)
    [record] = json.loads(run_cli("--output-format", "json", str(path)).stdout)
    assert record["code"] == "MEM001"
    assert record["name"] == "syntax-error"
    assert record["severity"] == "error"
    assert record["location"] == {"row": 2, "column": 14}
    assert record["fix"] is None


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "json-lines", "github", "sarif"])
def test_every_format_carries_the_record(tmp_path, fmt):
    path = write(tmp_path, "broken.py", BROKEN_PLAIN)
    result = run_cli("--output-format", fmt, str(path))
    assert result.exit_code == 2
    assert "MEM001" in result.stdout
    if fmt == "sarif":
        run = json.loads(result.stdout)["runs"][0]
        [found] = run["results"]
        rule = run["tool"]["driver"]["rules"][found["ruleIndex"]]
        assert rule["id"] == found["ruleId"] == "MEM001"
        assert found["level"] == "error"
        region = found["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (1, 7)
    if fmt == "github":
        assert result.stdout.startswith("::error file=")
        assert "line=1,col=7" in result.stdout


def test_exit_zero_exits_0_even_for_a_broken_file(tmp_path):
    path = write(tmp_path, "broken.py", BROKEN_SDK)
    result = run_cli("--exit-zero", "--output-format", "sarif", str(path))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["runs"][0]["results"][0]["ruleId"] == "MEM001"


def test_exit_zero_keeps_2_for_usage_and_configuration_errors(tmp_path):
    assert run_cli("--exit-zero", str(tmp_path / "missing")).exit_code == 2
    write(tmp_path, "pyproject.toml", "[tool.mem0lint]\nselect = [\n")
    write(tmp_path, "a.py", "x = 1\n")
    assert run_cli("--exit-zero", str(tmp_path / "a.py")).exit_code == 2


def test_a_named_broken_file_without_sdk_words_is_parse_checked_but_not_in_a_folder_walk(tmp_path):
    path = write(tmp_path, "plain.py", BROKEN_PLAIN)
    assert run_cli(str(path)).exit_code == 2
    # Found by a walk it may be skipped by the prefilter (nothing to check), as before.
    assert run_cli("--no-cache", str(tmp_path)).exit_code == 0


def test_newer_grammar_libcst_reads_is_not_called_a_syntax_error(tmp_path):
    # A named file without SDK words that parses: nothing reported.
    path = write(tmp_path, "fine.py", "def f(x):\n    return x\n")
    result = run_cli(str(path))
    assert result.exit_code == 0
    assert "All checks passed." in result.stdout


def test_valid_python_libcst_rejects_is_an_info_not_a_syntax_error(tmp_path):
    path = write(tmp_path, "annotated.py", LIBCST_ONLY)
    result = run_cli("--output-format", "json", str(path))
    [record] = json.loads(result.stdout)
    assert record["code"] == "MEM003"
    assert record["severity"] == "info"
    assert record["message"].startswith("not analysed:")
    assert "syntax error" not in record["message"]
    # 1-based and on the row that holds `(x): int`, not the one below it.
    assert record["location"] == {"row": 4, "column": 1}
    assert result.exit_code == 0  # not a failure: the code is valid


def test_an_unreadable_named_file_is_a_mem002_record(tmp_path):
    path = write(tmp_path, "latin.py", "")
    path.write_bytes(b"from mem0 import MemoryClient\nx = '\xff\xfe'\n")
    result = run_cli("--output-format", "json", str(path))
    assert result.exit_code == 2
    [record] = json.loads(result.stdout)
    assert record["code"] in ("MEM001", "MEM002")
    assert record["severity"] == "error"


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "github"])
def test_a_link_to_nothing_met_on_the_walk_is_a_note_not_an_error(tmp_path, output_format):
    """An editor's lock file (`.#app.py` links to `user@host.pid`) or a link into a folder that
    is not checked out holds no code; named on the command line, it is still an error."""
    write(tmp_path, "app.py", BAD)
    (tmp_path / ".#app.py").symlink_to("user@host.4242")
    (tmp_path / "guide.md").symlink_to(tmp_path / "missing" / "guide.md")
    result = run_cli("--output-format", output_format, "--no-cache", str(tmp_path))
    assert result.exit_code == 1  # the findings of app.py, nothing else
    assert "MEM201" in result.stdout
    assert ".#app.py" not in result.stdout and "guide.md" not in result.stdout  # no record
    for name, target in ((".#app.py", "user@host.4242"), ("guide.md", "missing")):
        notes = [line for line in result.stderr.splitlines() if name in line]
        assert len(notes) == 1 and "info:" in notes[0] and target in notes[0], result.stderr
    assert run_cli("--no-cache", str(tmp_path / ".#app.py")).exit_code == 2


def test_a_broken_notebook_is_a_mem002_record(tmp_path):
    path = write(tmp_path, "book.ipynb", "{not json")
    result = run_cli("--output-format", "json", str(path))
    assert result.exit_code == 2
    [record] = json.loads(result.stdout)
    assert record["code"] == "MEM002"


def test_the_record_is_never_accepted_by_a_baseline(tmp_path):
    path = write(tmp_path, "broken.py", BROKEN_SDK)
    baseline = tmp_path / "baseline.json"
    run_cli("--baseline", str(baseline), str(path))
    result = run_cli("--baseline", str(baseline), str(path))
    assert result.exit_code == 2
    assert "MEM001" in result.stdout


def test_statistics_count_the_record(tmp_path):
    path = write(tmp_path, "broken.py", BROKEN_SDK)
    result = run_cli("--statistics", str(path))
    assert "MEM001" in result.stdout and "syntax-error" in result.stdout


def test_an_ignored_folder_gets_a_warning(tmp_path):
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".gitignore", "generated/\n")
    (tmp_path / "generated").mkdir()
    write(tmp_path / "generated", "app.py", BAD)
    result = run_cli("--no-cache", str(tmp_path / "generated"))
    assert "warning" in result.stderr and "ignored" in result.stderr
    assert str(tmp_path / "generated") in result.stderr


def test_an_empty_folder_gets_a_warning(tmp_path):
    (tmp_path / "empty").mkdir()
    result = run_cli("--no-cache", str(tmp_path / "empty"))
    assert "warning" in result.stderr and "no files to lint" in result.stderr


def test_a_folder_with_files_gets_no_warning(tmp_path):
    write(tmp_path, "app.py", BAD)
    result = run_cli("--no-cache", str(tmp_path))
    assert "warning" not in result.stderr


def test_subprocess_sarif_job_with_exit_zero_reaches_its_upload_step(tmp_path):
    """The CI shape: `mem0lint --output-format sarif --exit-zero . > out.sarif && upload`."""
    write(tmp_path, "broken.py", BROKEN_SDK)
    done = subprocess.run(
        [sys.executable, "-m", "mem0lint", "--output-format", "sarif", "--exit-zero", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["runs"][0]["results"][0]["ruleId"] == "MEM001"


# --- step 2: statistics, baselines, edits, cache, annotations, settings -------------------------

BOTH = textwrap.dedent(
    """\
    from mem0 import MemoryClient

    client = MemoryClient()
    client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=3)
    """
)


def test_statistics_tell_safe_from_unsafe_fixes_and_speak_json(tmp_path):
    # MEM102 (`limit=`) is fixed only with --unsafe-fixes on the platform client.
    path = write(tmp_path, "app.py", BOTH)
    result = run_cli("--statistics", "--output-format", "json", str(path))
    rows = {row["code"]: row for row in json.loads(result.stdout)}
    assert rows["MEM201"]["safe_fixes"] == 1 and rows["MEM201"]["fixable"] is True
    for row in rows.values():
        assert row["count"] == row["safe_fixes"] + row["unsafe_fixes"] + (
            row["count"] - row["safe_fixes"] - row["unsafe_fixes"]
        )
    text = run_cli("--statistics", str(path)).stdout
    for line in text.splitlines():
        code = line.split()[1]
        if rows[code]["safe_fixes"] == 0:
            assert "[*]" not in line  # never marked fixable when --fix cannot fix it
        if rows[code]["unsafe_fixes"] and not rows[code]["safe_fixes"]:
            assert "[unsafe fix]" in line and "only with `--unsafe-fixes`" in line


def test_statistics_mark_an_unsafe_only_fix_as_such(tmp_path):
    from mem0lint.report import statistics, statistics_rows
    from mem0lint.results import Applicability, Diagnostic, FileReport, Fix, Severity
    from mem0lint.sources import SourceFile

    unsafe = Fix(Applicability.UNSAFE, "rename", ())
    diagnostic = Diagnostic("MEM102", "cap", Severity.WARNING, "m", "", None, unsafe)
    report = FileReport(SourceFile("a.py"), diagnostics=[diagnostic])
    [row] = statistics_rows([report])
    assert (row["safe_fixes"], row["unsafe_fixes"], row["fixable"]) == (0, 1, False)
    assert statistics([report]) == "1  MEM102  [unsafe fix] cap (1 only with `--unsafe-fixes`)"


def test_a_safe_fix_on_the_line_keeps_an_accepted_finding_accepted(tmp_path):
    path = write(tmp_path, "app.py", BOTH)
    baseline = tmp_path / "baseline.json"
    assert run_cli("--baseline", str(baseline), str(path)).exit_code == 0
    # Only MEM201's safe fix is applied; MEM102 stays on the changed line.
    assert run_cli("--fix", "--select", "MEM201", str(path)).exit_code == 0
    assert '"AND"' in path.read_text() and "limit=3" in path.read_text()
    result = run_cli("--baseline", str(baseline), str(path))
    assert result.exit_code == 0, result.stdout  # MEM102 on that line is still the accepted one


def test_a_version_1_baseline_is_still_read(tmp_path):
    path = write(tmp_path, "app.py", BOTH)
    line = BOTH.splitlines()[3]
    old = {
        "version": 1,
        "findings": [
            {"path": "app.py", "code": code, "line": line, "count": 1}
            for code in ("MEM102", "MEM201")
        ],
    }
    baseline = write(tmp_path, "baseline.json", json.dumps(old))
    result = run_cli("--baseline", str(baseline), "--select", "MEM102,MEM201", str(path))
    assert result.exit_code == 0, result.stdout


def test_published_fix_edits_never_overlap_within_a_file(tmp_path):
    # MEM101 rewrites the whole call (moves `user_id=` into filters); MEM202 renames `and`
    # inside it: before issue 12 both published their edits, overlapping. And an unsafe MEM101
    # rewrite of a call holding a safe MEM102 rename: the safe one is published (--fix's choice).
    source = BOTH.replace(
        'client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=3)',
        'client.get_all(filters={"and": [{"agent_id": "u"}]}, user_id="alice")\n'
        'client.search("q", filters={"agent_id": "a"}, user_id="alice", limit=3)',
    )
    path = write(tmp_path, "app.py", source)
    findings = json.loads(run_cli("--output-format", "json", str(path)).stdout)
    spans = []
    for finding in findings:
        for edit in (finding["fix"] or {}).get("edits", []):
            start = (edit["location"]["row"], edit["location"]["column"])
            end = (edit["end_location"]["row"], edit["end_location"]["column"])
            for other in spans:
                assert not (start < other[1] and other[0] < end), (start, end, other)
            spans.append((start, end))
    sarif = json.loads(run_cli("--output-format", "sarif", str(path)).stdout)
    regions = []
    for result in sarif["runs"][0]["results"]:
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                for replacement in change["replacements"]:
                    r = replacement["deletedRegion"]
                    start, end = (r["startLine"], r["startColumn"]), (r["endLine"], r["endColumn"])
                    for other in regions:
                        assert not (start < other[1] and other[0] < end)
                    regions.append((start, end))
    # The later, overlapping fix is deferred (it applies in --fix's next round), not dropped.
    deferred = [f for f in findings if f["fix"] and f["fix"].get("deferred")]
    assert [(f["code"], f["fix"]["applicability"]) for f in deferred] == [
        ("MEM101", "safe"),
        ("MEM101", "unsafe"),
    ]
    assert all(f["fix"]["edits"] == [] for f in deferred)
    published = {f["code"] for f in findings if f["fix"] and f["fix"]["edits"]}
    assert published == {"MEM202", "MEM102"}


def test_overlapping_edits_are_deferred_not_published(tmp_path):
    from mem0lint.report import as_json_object, visible_edits
    from mem0lint.results import Applicability, Diagnostic, Edit, FileReport, Fix, Severity
    from mem0lint.sources import SourceFile

    fix = Fix(Applicability.SAFE, "f", ())
    outer = Diagnostic("MEM201", "a", Severity.ERROR, "m", "", None, fix, (1, 1), (1, 20))
    outer.edits = [Edit("x", (1, 1), (1, 20))]
    inner = Diagnostic("MEM202", "b", Severity.ERROR, "m", "", None, fix, (1, 5), (1, 8))
    inner.edits = [Edit("y", (1, 5), (1, 8))]
    report = FileReport(SourceFile("a.py"), diagnostics=[outer, inner])
    visible = visible_edits(report)
    assert visible[id(outer)] == outer.edits and visible[id(inner)] == []
    assert as_json_object(report, inner)["fix"]["deferred"] is True


def test_the_cache_lives_at_the_project_root_not_the_cwd(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    write(project, "pyproject.toml", "[tool.mem0lint]\n")
    write(project / "src", "app.py", BAD)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    run_cli(str(project / "src"))
    assert (project / ".mem0lint_cache").is_dir()
    assert not (elsewhere / ".mem0lint_cache").exists()


def test_github_paths_are_relative_to_the_repository_root(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / ".git").mkdir()
    write(repo / "pkg", "app.py", BAD)
    monkeypatch.chdir(repo / "pkg")
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    out = run_cli("--output-format", "github", "app.py").stdout
    assert "file=pkg/app.py," in out
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    out = run_cli("--output-format", "github", "app.py").stdout
    assert "file=repo/pkg/app.py," in out


def test_show_settings_prints_the_effective_selection(tmp_path):
    from mem0lint.rules import all_rules

    result = run_cli("--show-settings", str(tmp_path))
    assert "\n  select = []" not in result.stdout
    assert "select = ['ALL']" in result.stdout
    from mem0lint.codes import OPT_IN

    on = len(all_rules()) - len(OPT_IN)  # opt-in rules are outside the default selection
    assert f"enabled rules ({on} of {len(all_rules())})" in result.stdout
    narrowed = run_cli("--select", "MEM2", "--ignore", "MEM201", "--show-settings", str(tmp_path))
    enabled = [c for c in all_rules() if c.startswith("MEM2") and c != "MEM201"]
    assert f"= {enabled!r}" in narrowed.stdout


def test_explain_knows_the_problem_codes():
    result = run_cli("--explain", "MEM001")
    assert result.exit_code == 0
    assert result.stdout.startswith("MEM001 syntax-error (error):")


def test_an_empty_folder_is_a_notification_in_sarif(tmp_path):
    import jsonschema

    from tests.test_outputs import SCHEMA

    (tmp_path / "empty").mkdir()
    result = run_cli("--no-cache", "--output-format", "sarif", str(tmp_path / "empty"))
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    [invocation] = log["runs"][0]["invocations"]
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "warning" and "no files to lint" in note["message"]["text"]
