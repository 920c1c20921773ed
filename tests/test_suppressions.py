"""`noqa` comments, file-level suppression, unused/unknown codes (MEM901/MEM902), `--add-noqa`
and baselines."""

from __future__ import annotations

import json
import textwrap

import pytest
from conftest import codes, fix_source, run_cli

SETUP = "from mem0 import MemoryClient\nclient = MemoryClient()\n"
DOLLAR = 'client.search("q", filters={"$and": [{"user_id": "u"}]})'


def program(body: str) -> str:
    return SETUP + textwrap.dedent(body).lstrip("\n")


SILENCED = {
    "the finding's code": 'client.search("q", filters={"$and": [{"user_id": "u"}]})  # noqa: MEM201',
    "several codes": 'client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=2)  # noqa: MEM201, MEM102',
    "no space, lower case": 'client.search("q", filters={"$and": [{"user_id": "u"}]})  # NOQA:mem201',
    "among other tools' codes": 'client.search("q", filters={"$and": [{"user_id": "u"}]})  # noqa: E501,MEM201',
    "after another comment": DOLLAR + "  # type: ignore # noqa: MEM201",
    "first line of a multi-line finding": """
        client.search("q", filters={"user_id": "u"}, limit=(  # noqa: MEM102
            3
        ))
    """,
    "file level": """
        # mem0lint: noqa
        client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=2)
    """,
    "file level with codes": """
        client.search("q", filters={"$and": [{"user_id": "u"}]})
        # mem0lint: noqa: MEM201
    """,
}


@pytest.mark.parametrize("body", SILENCED.values(), ids=SILENCED.keys())
def test_noqa_silences(body):
    assert codes(program(body)) == []


NOT_SILENCED = {
    "bare noqa belongs to other tools": (
        'client.search("q", filters={"$and": [{"user_id": "u"}]})  # noqa',
        ["MEM201"],
    ),
    "other tools' codes only": (
        'client.search("q", filters={"$and": [{"user_id": "u"}]})  # noqa: E501',
        ["MEM201"],
    ),
    "another code": (
        'client.search("q", filters={"$and": [{"user_id": "u"}]})  # noqa: MEM202',
        ["MEM201", "MEM901"],
    ),
    "noqa on a later line of a multi-line call": (
        """
        client.search(
            "q", filters={"$and": [{"user_id": "u"}]}  # noqa: MEM201
        )
        """,
        [],
    ),
    "noqa on the line after the finding": (
        """
        client.search("q", filters={"$and": [
            {"user_id": "u"}]})  # noqa: MEM201
        """,
        ["MEM201", "MEM901"],
    ),
    "inside a string": (
        'client.search("q  # noqa: MEM201", filters={"$and": [{"user_id": "u"}]})',
        ["MEM201"],
    ),
    "file level with another code": (
        """
        # mem0lint: noqa: MEM102
        client.search("q", filters={"$and": [{"user_id": "u"}]})
        """,
        ["MEM201"],
    ),
}


@pytest.mark.parametrize(("body", "expected"), NOT_SILENCED.values(), ids=NOT_SILENCED.keys())
def test_noqa_does_not_silence(body, expected):
    assert codes(program(body)) == expected


def test_bare_noqa_can_be_configured_to_silence():
    code = program('client.search("q", filters={"$and": [{"user_id": "u"}]})  # noqa')
    assert codes(code, respect_bare_noqa=True) == []


def test_unused_and_unknown_codes_are_reported_on_the_comment():
    code = program(
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # noqa: E501, MEM201, MEM2O1'
    )
    assert codes(code) == ["MEM901", "MEM902"]


FIXED = {
    "only code": (
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # noqa: MEM201',
        'client.search("q", filters={"AND": [{"user_id": "u"}]})',
    ),
    "other tools' codes stay": (
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # noqa: E501, MEM201, W291',
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # noqa: E501, W291',
    ),
    "used code stays": (
        'client.search("q", filters={"$and": [{"user_id": "u"}]})  # noqa: MEM201, MEM102',
        'client.search("q", filters={"$and": [{"user_id": "u"}]})  # noqa: MEM201',
    ),
    "other comment stays": (
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # type: ignore  # noqa: MEM201',
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # type: ignore',
    ),
    "explanation after the codes stays": (
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # noqa: MEM201  # legacy',
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # legacy',
    ),
    "unknown code": (
        'client.search("q", filters={"AND": [{"user_id": "u"}]})  # noqa: MEM999',
        'client.search("q", filters={"AND": [{"user_id": "u"}]})',
    ),
}


@pytest.mark.parametrize(("before", "after"), FIXED.values(), ids=FIXED.keys())
def test_fix_removes_only_unused_mem0lint_codes(before, after):
    assert fix_source(program(before)) == program(after)


def test_unused_codes_are_not_reported_when_mem901_is_off():
    code = program('client.search("q", filters={"AND": [{"user_id": "u"}]})  # noqa: MEM201')
    assert codes(code, ignore=("MEM901",)) == []


# --- --add-noqa -----------------------------------------------------------------------------


def test_add_noqa_silences_every_finding(tmp_path):
    path = tmp_path / "a.py"
    path.write_text(
        program(
            """
            client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=2)  # existing
            client.search("q", filters={"or": [{"user_id": "u"}]})  # noqa: E501
            client.search(
                "q",
                filters={"user_id": "u", "created_at": {"$gte": "2025-01-01"}},
            )
            """
        )
    )
    result = run_cli(str(path), "--add-noqa")
    assert result.exit_code == 0
    assert "Added 4 noqa directives." in result.stderr
    assert path.read_text() == program(
        """
        client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=2)  # existing  # noqa: MEM201, MEM102
        client.search("q", filters={"or": [{"user_id": "u"}]})  # noqa: E501, MEM202
        client.search(
            "q",
            filters={"user_id": "u", "created_at": {"$gte": "2025-01-01"}},  # noqa: MEM201
        )
        """
    )
    assert run_cli(str(path)).exit_code == 0


def test_add_noqa_in_notebooks_and_markdown(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        f"```python\n{SETUP}```\n\n```python\nclient.search('q', filters={{'user_id': 'u'}}, limit=1)\n```\n"
    )
    result = run_cli(str(tmp_path), "--add-noqa")
    assert result.exit_code == 0
    assert (
        "client.search('q', filters={'user_id': 'u'}, limit=1)  # noqa: MEM102\n```"
        in page.read_text()
    )
    assert run_cli(str(tmp_path)).exit_code == 0


# --- baseline --------------------------------------------------------------------------------


def test_baseline_reports_only_new_findings(tmp_path):
    source = tmp_path / "app.py"
    source.write_text(program('client.search("q", filters={"$and": [{"user_id": "u"}]})\n'))
    baseline = tmp_path / "mem0lint-baseline.json"
    # The first run writes the baseline and passes.
    result = run_cli(str(source), "--baseline", str(baseline))
    assert result.exit_code == 0
    entries = json.loads(baseline.read_text())["findings"]
    # Keyed by the text it flags, not its line's (issue 12: fixes on the line keep it).
    assert entries == [{"path": "app.py", "code": "MEM201", "text": '"$and"', "count": 1}]
    # Lines added above move the finding; it is still the accepted one.
    source.write_text(
        program('import os\n\n\nclient.search("q", filters={"$and": [{"user_id": "u"}]})\n')
    )
    assert run_cli(str(source), "--baseline", str(baseline)).exit_code == 0
    # A second copy of the same mistake, and a new one, are reported.
    source.write_text(
        program(
            """
            client.search("q", filters={"$and": [{"user_id": "u"}]})
            client.search("q", filters={"$and": [{"user_id": "u"}]})
            client.search("q", filters={"user_id": "u"}, limit=3)
            """
        )
    )
    result = run_cli(str(source), "--baseline", str(baseline), "--output-format", "concise")
    assert result.exit_code == 1
    assert [line.split()[1] for line in result.stdout.splitlines() if "MEM" in line] == [
        "MEM201",
        "MEM102",
    ]
    # Ratchet: accept today's findings.
    assert run_cli(str(source), "--baseline", str(baseline), "--update-baseline").exit_code == 0
    assert run_cli(str(source), "--baseline", str(baseline)).exit_code == 0
    counts = {e["code"]: e["count"] for e in json.loads(baseline.read_text())["findings"]}
    assert counts == {"MEM201": 2, "MEM102": 1}


def test_update_baseline_needs_a_file_and_a_bad_file_is_an_error(tmp_path):
    source = tmp_path / "app.py"
    source.write_text(program('client.search("q", filters={"$and": [{"user_id": "u"}]})\n'))
    assert run_cli(str(source), "--update-baseline").exit_code == 2
    broken = tmp_path / "b.json"
    broken.write_text("[]")
    result = run_cli(str(source), "--baseline", str(broken))
    assert result.exit_code == 2 and "not a mem0lint baseline" in result.stderr
