"""Output formats and exit behaviour: text, concise, JSON, JSON lines, GitHub annotations,
SARIF (validated against the SARIF 2.1.0 schema), statistics, quiet, stdin, progress."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from conftest import run_cli

from mem0lint.rules import all_rules

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"
SCHEMA = json.loads((HERE / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
SETUP = "from mem0 import MemoryClient\nclient = MemoryClient()\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of the fixtures, as the current folder (paths in output are relative)."""
    for name in ("platform_support_bot.py", "travel_agent_notebook.ipynb", "search_memories.mdx"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_sarif_validates_and_documents_every_rule(project):
    result = run_cli(".", "--output-format", "sarif")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    driver = log["runs"][0]["tool"]["driver"]
    # The rules, then the records of files that could not be checked (issue 12).
    assert [r["id"] for r in driver["rules"]] == [*all_rules(), "MEM001", "MEM002", "MEM003"]
    for descriptor in driver["rules"]:
        assert descriptor["name"] and descriptor["shortDescription"]["text"]
        assert descriptor["fullDescription"]["text"] and descriptor["help"]["markdown"]
    results = log["runs"][0]["results"]
    assert len(results) == 12
    by_file = {}
    for item in results:
        uri = item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        by_file.setdefault(uri, []).append(item)
    assert sorted(by_file) == [
        "platform_support_bot.py",
        "search_memories.mdx",
        "travel_agent_notebook.ipynb",
    ]
    first = by_file["platform_support_bot.py"][0]
    assert first["ruleId"] == "MEM101" and first["level"] == "error"
    region = first["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 12, "startColumn": 33, "endLine": 12, "endColumn": 48}
    assert first["fixes"][0]["artifactChanges"][0]["replacements"]
    cell = by_file["travel_agent_notebook.ipynb"][0]
    assert cell["properties"] == {
        "cell": 4,
        "row": 2,
        "column": 40,
        "sdk": "mem0ai",  # the fixtures' project pins mem0ai>=2.2.1,<2.3
        "sdk_version": "2.2.1",
        "kind": "finding",
    }
    assert "region" not in cell["locations"][0]["physicalLocation"]
    assert cell["message"]["text"].startswith("cell 4, row 2, column 40: ")


def test_sarif_without_findings_validates(tmp_path):
    (tmp_path / "ok.py").write_text("print('hi')\n")
    log = json.loads(run_cli(str(tmp_path), "--output-format", "sarif").stdout)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["runs"][0]["results"] == []


def test_github_annotations(project):
    result = run_cli(".", "--output-format", "github")
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "::error file=platform_support_bot.py,line=12,col=33,endLine=12,endColumn=48,"
        "title=MEM101 entity-kwarg-not-in-filters::`user_id=` is not accepted as a keyword by "
        '`search()` (raises ValueError); put it in `filters={"user_id": ...}`'
    )
    assert lines[1].startswith("::warning file=platform_support_bot.py,line=12,col=50,")
    assert (
        "::error file=travel_agent_notebook.ipynb,title=MEM201 dollar-operator::"
        "cell 4, row 2, column 40: "
    ) in result.stdout
    assert "file=search_memories.mdx,line=23,col=14," in result.stdout


def test_github_escapes_properties_and_data():
    from mem0lint.report import _escape_data, _escape_property

    assert _escape_property("a,b:c%") == "a%2Cb%3Ac%25"
    assert _escape_data("50%\nnext") == "50%25%0Anext"


def test_json_and_json_lines_carry_the_same_findings(project):
    as_json = json.loads(run_cli(".", "--output-format", "json").stdout)
    lines = run_cli(".", "--output-format", "json-lines").stdout.splitlines()
    assert [json.loads(line) for line in lines] == as_json
    cells = [f["cell"] for f in as_json if "cell" in f]
    assert cells == [4, 4, 5, 5]


def test_json_reports_are_written_whole_as_json_dump_writes_them(project):
    """The JSON, SARIF and statistics reports are json.dump's text with `indent=2`, given to the
    stream in one write (json.dump gives it one small piece at a time)."""
    import io

    from mem0lint import report
    from mem0lint.pipeline import Options, run
    from mem0lint.sarif import sarif_log

    reports = run(Options(paths=(".",), no_cache=True)).reports

    class Counting(io.StringIO):
        writes = 0

        def write(self, text):
            self.writes += 1
            return super().write(text)

    findings = [report.as_json_object(r, d) for r in reports for d in r.diagnostics]
    for write, data in [
        (report.write_json, findings),
        (report.write_sarif, sarif_log(reports, [])),
        (report.write_statistics_json, report.statistics_rows(reports)),
    ]:
        stream, expected = Counting(), io.StringIO()
        write(reports, stream)
        json.dump(data, expected, indent=2)
        assert stream.getvalue() == expected.getvalue() + "\n"
        assert stream.writes == 2  # the report, then its last newline
    assert len(findings) == 12


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_reports_are_written_with_the_findings_left_to_the_collector_afterwards(
    project, monkeypatch, output_format
):
    """While a report is written, the cycle collector does not scan again what the run made
    (the findings it wrote are many, and live until the process ends); afterwards it does."""
    import gc

    from mem0lint import report

    table = report.CONSOLE_WRITERS if output_format == "text" else report.STREAM_WRITERS
    writer, frozen = table[output_format], []

    def writing(*args):
        frozen.append(gc.get_freeze_count())
        writer(*args)

    monkeypatch.setitem(table, output_format, writing)
    before = gc.get_freeze_count()
    result = run_cli(".", "--output-format", output_format, "--no-cache")
    assert "MEM101" in result.stdout
    assert frozen and frozen[0] > before
    assert gc.get_freeze_count() == before


def test_concise_text_and_quiet(project):
    concise = run_cli(".", "--output-format", "concise").stdout.splitlines()
    assert concise[0] == (
        "platform_support_bot.py:12:33: MEM101 [*] `user_id=` is not accepted as a keyword by "
        '`search()` (raises ValueError); put it in `filters={"user_id": ...}`'
    )
    assert "travel_agent_notebook.ipynb:cell 4:2:40: MEM201 [*]" in concise[8]
    assert concise[-1] == (
        "Found 12 problems in 3 files (11 fixable with `--fix`, 1 more with `--unsafe-fixes`)."
    )
    text = run_cli(".")
    assert "12 |     return client.search(query, user_id=user_id, limit=5)" in text.stdout
    assert "info: search_memories.mdx: code block at line 49" in text.stderr
    quiet = run_cli(".", "--quiet", "--output-format", "concise")
    assert quiet.stdout.splitlines() == concise[:-1] and quiet.stderr == ""


def test_statistics(project):
    result = run_cli(".", "--statistics")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "4  MEM201  [*] dollar-operator (4 fixable)",
        "3  MEM102  [*] unknown-result-cap-kwarg (3 fixable)",
        "3  MEM202  [*] lowercase-logical (3 fixable)",
        "1  MEM101  [*] entity-kwarg-not-in-filters (1 fixable)",
        # len() of a name bound to get_all(): the fix through a name is unsafe.
        "1  MEM130  [unsafe fix] result-as-list (1 only with `--unsafe-fixes`)",
    ]


def test_exit_non_zero_on_fix(project):
    assert run_cli(".", "--fix", "--unsafe-fixes").exit_code == 0  # everything fixed
    shutil.copy(FIXTURES / "platform_support_bot.py", project / "platform_support_bot.py")
    assert run_cli(".", "--fix", "--exit-non-zero-on-fix").exit_code == 1
    assert run_cli(".", "--fix", "--exit-non-zero-on-fix").exit_code == 0  # nothing to fix


def test_stdin_findings_and_fixed_source():
    source = SETUP + 'client.search("q", filters={"$and": [{"user_id": "u"}]})\n'
    result = run_cli(
        "-", "--stdin-filename", "src/app.py", "--output-format", "concise", input=source
    )
    assert result.exit_code == 1
    assert result.stdout.startswith("src/app.py:3:29: MEM201")
    fixed = run_cli("-", "--stdin-filename", "src/app.py", "--fix", input=source)
    assert fixed.stdout == source.replace("$and", "AND")
    assert "Fixed 1 problem" in fixed.stderr


def test_stdin_notebook_and_markdown_by_name():
    page = f"```python\n{SETUP}client.search('q', filters={{'user_id': 'u'}}, limit=2)\n```\n"
    result = run_cli("-", "--stdin-filename", "docs/x.md", "--output-format", "concise", input=page)
    assert result.stdout.startswith("docs/x.md:4:46: MEM102")
    fixed = run_cli("-", "--stdin-filename", "docs/x.md", "--fix", input=page)
    assert fixed.stdout == page.replace("limit=", "top_k=")


def test_stdin_cannot_mix_with_paths(tmp_path):
    assert run_cli("-", str(tmp_path)).exit_code == 2


def test_progress_bar_only_for_a_terminal_and_many_files(monkeypatch):
    import io

    from rich.console import Console

    from mem0lint import cli
    from mem0lint.terminal import Terminal

    class FakeTTY(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    pipe = Terminal(stderr=True)
    assert cli.ProgressBar(pipe, 10_000).bar is None  # not a terminal
    terminal = Terminal(stderr=True)
    terminal._console = Console(force_terminal=True, file=io.StringIO())
    monkeypatch.setenv("FORCE_COLOR", "1")
    # Colour forced on a pipe (CI logs): still no bar; the stream must be a terminal.
    assert cli.ProgressBar(terminal, 10_000).bar is None
    monkeypatch.setattr("sys.stderr", FakeTTY())
    assert cli.ProgressBar(terminal, cli.PROGRESS_THRESHOLD).bar is None  # few files
    assert cli.ProgressBar(terminal, cli.PROGRESS_THRESHOLD + 1).bar is not None
    monkeypatch.setenv("CI", "true")
    assert cli.ProgressBar(terminal, 10_000).bar is None  # a CI job's log, even on a pty


def test_plain_output_is_what_rich_prints_on_a_pipe(monkeypatch, capsys):
    """Without a terminal mem0lint writes lines itself: what rich prints without colours."""
    import io

    from rich.console import Console

    from mem0lint.terminal import Terminal

    lines = [[("a\tb\x07", "bold"), (" c\r", None)], [], [("\td", "red"), ("é", None)]]
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    Terminal().lines(lines)
    Terminal().print("x\ty\x08")
    written = capsys.readouterr().out

    monkeypatch.setenv("FORCE_COLOR", "1")  # rich decides, but prints to a plain buffer
    rendered = io.StringIO()
    terminal = Terminal()
    terminal._console = Console(file=rendered, highlight=False, soft_wrap=True, color_system=None)
    terminal.lines(lines)
    terminal.print("x\ty\x08")
    assert written == rendered.getvalue()


def test_no_progress_output_on_pipes(tmp_path):
    for index in range(310):
        (tmp_path / f"m{index}.py").write_text("x = 1\n")
    result = run_cli(str(tmp_path))
    assert result.stderr == "" and result.stdout == "All checks passed.\n"


@pytest.mark.parametrize("args", [["rules"], ["--explain"], ["--explain", "rules"]])
def test_rule_table(args):
    result = run_cli(*args)
    assert result.exit_code == 0
    assert result.stdout.startswith("| Code | Name | Dialects | SDK releases | Severity | Fix |")
    for code in all_rules():
        assert f"| {code} |" in result.stdout
    # Each rule names the releases it judges (issue 13: "lists the new rules with their versions").
    assert "| MEM140 | missing-await | mem0 open source, mem0 Platform | mem0ai >=0.1.22 |" in (
        result.stdout
    )
    assert "| MEM666 | memos-empty-filter | MemOS | MemoryOS >=2.0.24 |" in result.stdout


def test_explain_one_rule():
    result = run_cli("--explain", "MEM901")
    assert result.stdout.startswith("# MEM901 unused-noqa")
