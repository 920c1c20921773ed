"""Documents in one forward pass: a page or notebook is one program in reading order.

Each block is parsed once (not once per later block, as prefixes); what a block binds carries
into the next; a later block never changes how an earlier one is judged.
"""

from __future__ import annotations

import json
from pathlib import Path

import libcst as cst

from mem0lint import engine
from mem0lint.modes import Mode
from mem0lint.pipeline import check_file
from mem0lint.sources import SourceFile

PLATFORM = "from mem0 import MemoryClient\nclient = MemoryClient()\n"
WRONG = 'client.search("q", filters={"$and": [{"user_id": "u"}]})'


def run(path: Path, mode: str = Mode.CHECK):
    rules = engine.RuleSet(engine.Settings())
    return check_file(SourceFile(path), rules, mode, [path.parent])


def page(*blocks: str) -> str:
    parts = []
    for number, block in enumerate(blocks, start=1):
        parts += [f"Step {number}:", "", "```python", block.rstrip("\n"), "```", ""]
    return "\n".join(parts)


def rows(report) -> list[tuple[int, str]]:
    return [(d.start[0], d.code) for d in report.diagnostics]


def row_of(text: str, needle: str, occurrence: int = 1) -> int:
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(needle)


def test_every_block_is_parsed_once(tmp_path, monkeypatch):
    blocks = [PLATFORM] + [f"# block {n}\n{WRONG}\nx{n} = {n}\n" for n in range(2, 51)]
    path = tmp_path / "long.md"
    path.write_text(page(*blocks), encoding="utf-8")
    parsed: list[str] = []
    real = cst.parse_module

    def counting(source, *args, **kwargs):
        parsed.append(source.decode() if isinstance(source, bytes) else source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(cst, "parse_module", counting)
    report = run(path)
    assert len(report.diagnostics) == 49  # one per block after the set-up
    for n in range(2, 51):
        assert sum(text.count(f"# block {n}\n") for text in parsed) == 1, n


def test_a_repeated_import_in_two_blocks_does_not_silence_the_page(tmp_path):
    text = page(
        "from mem0 import MemoryClient\nclient = MemoryClient()\n",
        f"from mem0 import MemoryClient\n{WRONG}\n",
    )
    path = tmp_path / "p.md"
    path.write_text(text, encoding="utf-8")
    assert rows(run(path)) == [(row_of(text, WRONG), "MEM201")]


def test_a_name_rebound_in_a_later_block(tmp_path):
    text = page(
        f"from memobase import MemoBaseClient\nclient = MemoBaseClient('k')\n{WRONG}\n",
        f"{PLATFORM}{WRONG}\n",
    )
    path = tmp_path / "p.md"
    path.write_text(text, encoding="utf-8")
    assert rows(run(path)) == [(row_of(text, WRONG, 2), "MEM201")]


def test_a_later_block_never_changes_an_earlier_one(tmp_path):
    function = f"def recall():\n    return {WRONG}\n"
    later = tmp_path / "later.md"
    later.write_text(page(function, PLATFORM), encoding="utf-8")
    assert rows(run(later)) == []  # `client` is bound only in block 2
    together = tmp_path / "together.md"
    text = page(PLATFORM + function)
    together.write_text(text, encoding="utf-8")
    assert rows(run(together)) == [(row_of(text, WRONG), "MEM201")]
    # The same holds for a private function's parameter bound by a later block's call.
    helper = "def _recall(c):\n    return c.search('q', filters={'$and': [{'user_id': 'u'}]})\n"
    split = tmp_path / "split.md"
    split.write_text(page(helper, PLATFORM + "_recall(client)\n"), encoding="utf-8")
    assert rows(run(split)) == []
    joined = tmp_path / "joined.md"
    joined.write_text(page(helper + PLATFORM + "_recall(client)\n"), encoding="utf-8")
    assert [code for _, code in rows(run(joined))] == ["MEM201"]


def test_a_public_function_in_a_page_is_bound_by_its_call_sites(tmp_path):
    helper = "def fetch_all(src):\n    return src.search('q', user_id='u')\n"
    path = tmp_path / "p.md"
    path.write_text(
        page("from mem0 import Memory\n" + helper + "fetch_all(Memory())\n"), encoding="utf-8"
    )
    assert [code for _, code in rows(run(path))] == ["MEM101"]


def notebook(*cells: str) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "metadata": {}, "source": c, "outputs": []} for c in cells
            ],
            "metadata": {"kernelspec": {"language": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


def test_notebook_cells_repeat_imports_and_rebind(tmp_path):
    path = tmp_path / "n.ipynb"
    path.write_text(
        notebook(
            "from memobase import MemoBaseClient\nclient = MemoBaseClient('k')\n" + WRONG,
            PLATFORM + WRONG,
            "from mem0 import MemoryClient\n" + WRONG,
        ),
        encoding="utf-8",
    )
    found = [(d.cell, d.start[0], d.code) for d in run(path).diagnostics]
    assert found == [(2, 3, "MEM201"), (3, 2, "MEM201")]


def test_fix_in_one_pass_edits_every_block(tmp_path):
    text = page(PLATFORM, WRONG + "\n", "import os\n" + WRONG + "\n")
    path = tmp_path / "p.md"
    path.write_text(text, encoding="utf-8")
    run(path, Mode.FIX)
    assert path.read_text(encoding="utf-8") == text.replace('{"$and"', '{"AND"')


def test_a_block_that_does_not_parse_leaves_the_others_in_one_program(tmp_path):
    text = page(PLATFORM, "client.search(\n", WRONG + "\n")
    path = tmp_path / "p.md"
    path.write_text(text, encoding="utf-8")
    report = run(path)
    assert report.info == [
        f"code block at line {row_of(text, 'client.search(') - 1} does not parse; skipped "
        f"(invalid syntax at row {row_of(text, 'client.search(')})"
    ]
    assert rows(report) == [(row_of(text, WRONG), "MEM201")]


def test_a_page_whose_only_blocks_do_not_parse_says_so_once_per_block(tmp_path):
    text = page("from mem0 import MemoryClient\nclient.search(\n", "x = <placeholder>\n")
    path = tmp_path / "p.md"
    path.write_text(text, encoding="utf-8")
    report = run(path)
    assert report.error is None and report.diagnostics == []
    assert len(report.info) == 2
    assert all("does not parse; skipped" in line for line in report.info)
