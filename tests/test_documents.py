"""Notebooks and Markdown/MDX pages: programs made of cells and fenced blocks, rows and cells
reported where they really are, and fixes written back without disturbing anything else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from mem0lint import engine
from mem0lint.modes import Mode
from mem0lint.pipeline import check_file
from mem0lint.sources import SourceFile

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GOLDEN = ["travel_agent_notebook.ipynb", "search_memories.mdx"]
SETUP = "from mem0 import MemoryClient\nclient = MemoryClient()\n"
WRONG = 'client.search("q", filters={"$and": [{"user_id": "u"}]})\n'


def run(path: Path, mode: str = Mode.CHECK, **settings):
    rules = engine.RuleSet(engine.Settings(**settings))
    return check_file(SourceFile(path), rules, mode, [path.parent])


def found(report) -> list[tuple]:
    return [(d.cell, d.start, d.code) for d in report.diagnostics]


# --- the shipped fixtures (their full findings and fixes: tests/test_golden.py) -------------


def test_golden_notebook_reports_cell_and_row():
    report = run(FIXTURES / "travel_agent_notebook.ipynb")
    assert found(report) == [
        (4, (2, 40), "MEM201"),
        (4, (2, 73), "MEM102"),
        (5, (2, 32), "MEM202"),  # under a %%time cell magic: its body is Python
        (5, (3, 5), "MEM130"),  # len() of the get_all() dict bound to `hits`
    ]


def test_golden_mdx_rows_are_rows_of_the_page():
    path = FIXTURES / "search_memories.mdx"
    report = run(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    for diagnostic in report.diagnostics:
        row, column = diagnostic.start
        assert lines[row - 1][column - 1 :].startswith(("{", '"', "limit"))
    assert [d.start[0] for d in report.diagnostics] == [23, 24, 37]
    assert any("line 49 does not parse" in note for note in report.info)


# --- notebooks ---------------------------------------------------------------------------


def notebook(*sources, indent=1, as_string=False, **extra) -> str:
    cells = []
    for source in sources:
        kind = "markdown" if source.startswith("#md ") else "code"
        text = source[4:] if kind == "markdown" else source
        value = text if as_string else text.splitlines(keepends=True)
        cell = {"cell_type": kind, "metadata": {}, "source": value}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    document = {"cells": cells, "metadata": {"language_info": {"name": "python"}}, **extra}
    document.setdefault("nbformat", 4)
    return json.dumps(document, indent=indent, ensure_ascii=False) + "\n"


def write(tmp_path, name, text) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_client_made_in_one_cell_binds_a_call_in_a_later_one(tmp_path):
    path = write(tmp_path, "n.ipynb", notebook("#md set up", SETUP, "x = 1", WRONG))
    assert found(run(path)) == [(4, (1, 29), "MEM201")]


def test_magics_and_shell_lines_are_tolerated(tmp_path):
    cells = [
        "%pip install mem0ai\n!ls -la\nfiles = !ls\n" + SETUP,
        "%%bash\necho client.search\n",
        "if True:\n    !echo hi\n    " + WRONG,
        "client?\n%timeit " + WRONG,
    ]
    path = write(tmp_path, "n.ipynb", notebook(*cells))
    report = run(path)
    assert report.error is None and report.info == []
    assert found(report) == [(3, (3, 33), "MEM201")]
    run(path, Mode.FIX)
    text = path.read_text(encoding="utf-8")
    assert "!ls -la" in text and "files = !ls" in text and "%%bash" in text
    assert "    !echo hi" in text and "client?" in text
    assert '{\\"AND\\": [' in text


def test_cell_that_does_not_parse_is_skipped_with_an_info_line(tmp_path):
    path = write(tmp_path, "n.ipynb", notebook(SETUP, "def broken(:\n", WRONG))
    report = run(path)
    assert found(report) == [(3, (1, 29), "MEM201")]
    assert report.error is None
    assert report.info == ["cell 2 does not parse; skipped (invalid syntax at row 1)"]


@pytest.mark.parametrize("indent", [1, 2, 4])
@pytest.mark.parametrize("as_string", [False, True])
def test_fix_rewrites_only_changed_cells_in_the_file_style(tmp_path, indent, as_string):
    original = notebook(
        SETUP, "x = 1  # untouched", WRONG, "#md é ü", indent=indent, as_string=as_string
    )
    path = write(tmp_path, "n.ipynb", original)
    run(path, Mode.FIX)
    fixed = path.read_text(encoding="utf-8")
    assert fixed == original.replace('\\"$and\\"', '\\"AND\\"')
    # The JSON still loads, and only the source of cell 3 changed.
    before, after = json.loads(original), json.loads(fixed)
    after["cells"][2]["source"] = before["cells"][2]["source"]
    assert before == after


def test_unusual_key_order_metadata_and_outputs_survive(tmp_path):
    text = (
        '{"nbformat": 4, "metadata": {"z": 1, "a": [1, 2]}, "cells": [\n'
        '  {"source": ["from mem0 import MemoryClient\\n", "client = MemoryClient()"],'
        ' "outputs": [{"output_type": "stream", "text": "$and"}], "cell_type": "code",'
        ' "metadata": {"collapsed": true}, "execution_count": 7},\n'
        '  {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null,\n'
        '   "source": "client.search(\\"q\\", filters={\\"$and\\": []})"}\n'
        '], "nbformat_minor": 5}'
    )
    path = write(tmp_path, "n.ipynb", text)
    run(path, Mode.FIX)
    assert path.read_text(encoding="utf-8") == text.replace('{\\"$and\\"', '{\\"AND\\"')


def test_non_python_notebooks_and_broken_json(tmp_path):
    r_notebook = json.loads(notebook(SETUP + WRONG))
    r_notebook["metadata"] = {"kernelspec": {"language": "R", "name": "ir"}}
    path = write(tmp_path, "r.ipynb", json.dumps(r_notebook))
    report = run(path)
    assert report.diagnostics == [] and "not Python" in report.info[0]
    broken = write(tmp_path, "b.ipynb", '{"cells": ["from mem0 import MemoryClient"')
    assert "not a readable notebook" in run(broken).error


# --- Markdown and MDX --------------------------------------------------------------------


def page(*parts: str) -> str:
    return "\n".join(parts) + "\n"


def test_blocks_see_the_client_made_in_an_earlier_block(tmp_path):
    text = page(
        "# Memories",
        "",
        "```python",
        SETUP.rstrip(),
        "```",
        "",
        "Search:",
        "",
        "```py",
        WRONG.rstrip(),
        "```",
    )
    path = write(tmp_path, "p.md", text)
    assert found(run(path)) == [(None, (11, 29), "MEM201")]


def test_a_block_alone_does_not_bind_unknown_receivers(tmp_path):
    path = write(tmp_path, "p.md", page("```python", WRONG.rstrip(), "```"))
    assert found(run(path)) == []


def test_a_later_block_does_not_bind_an_earlier_call(tmp_path):
    text = page("```python", WRONG.rstrip(), "```", "```python", SETUP.rstrip(), "```")
    assert found(run(write(tmp_path, "p.md", text))) == []


@pytest.mark.parametrize("tag", ["python", "py", "Python", "python3", "python Platform API"])
def test_python_tags(tmp_path, tag):
    text = page(f"```{tag}", SETUP.rstrip(), WRONG.rstrip(), "```")
    assert [d.code for d in run(write(tmp_path, "p.md", text)).diagnostics] == ["MEM201"]


@pytest.mark.parametrize("tag", ["javascript", "typescript", "ts", "bash", "json", "", "pycon"])
def test_other_languages_are_never_judged(tmp_path, tag):
    text = page("```python", SETUP.rstrip(), "```", f"```{tag}", WRONG.rstrip(), "```")
    assert run(write(tmp_path, "p.md", text)).diagnostics == []


def test_fences_inside_mdx_components_indented_and_tilde(tmp_path):
    text = page(
        "<CodeGroup>",
        "",
        "```python Set up",
        SETUP.rstrip(),
        "```",
        "",
        "</CodeGroup>",
        "<Tabs>",
        '  <Tab title="Python">',
        "    ~~~py",
        "    " + WRONG.rstrip(),
        "    ~~~",
        "  </Tab>",
        "</Tabs>",
    )
    path = write(tmp_path, "p.mdx", text)
    assert found(run(path)) == [(None, (12, 33), "MEM201")]
    run(path, Mode.FIX)
    assert path.read_text(encoding="utf-8") == text.replace('{"$and"', '{"AND"')


def test_fix_edits_inside_fences_only_and_keeps_crlf(tmp_path):
    prose = 'Do not write {"$and": ...} in prose.'
    text = page(prose, "```python", SETUP.rstrip(), WRONG.rstrip(), "```", prose)
    data = text.replace("\n", "\r\n").encode("utf-8")
    path = tmp_path / "p.md"
    path.write_bytes(data)
    run(path, Mode.FIX)
    assert path.read_bytes() == data.replace(
        b'client.search("q", filters={"$and"', b'client.search("q", filters={"AND"'
    )


def test_block_that_does_not_parse_is_an_info_line_not_an_error(tmp_path):
    text = page(
        "```python",
        SETUP.rstrip(),
        "```",
        "```python",
        "client.search(",
        "```",
        "```python",
        WRONG.rstrip(),
        "```",
    )
    report = run(write(tmp_path, "p.md", text))
    assert report.error is None
    assert report.info == ["code block at line 5 does not parse; skipped (invalid syntax at row 6)"]
    assert found(report) == [(None, (9, 29), "MEM201")]


def test_markdown_opt_out(tmp_path):
    write(tmp_path, "p.md", page("```python", SETUP.rstrip(), WRONG.rstrip(), "```"))
    write(tmp_path, "n.ipynb", notebook(SETUP + WRONG))
    assert run_cli(str(tmp_path)).exit_code == 1
    result = run_cli(str(tmp_path), "--file-types", "python")
    assert result.exit_code == 0, result.output
    (tmp_path / "pyproject.toml").write_text('[tool.mem0lint]\nfile-types = ["notebook"]\n')
    result = run_cli(str(tmp_path), "--output-format", "concise")
    assert "n.ipynb:cell 1" in result.stdout and "p.md" not in result.stdout
