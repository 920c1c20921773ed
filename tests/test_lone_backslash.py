"""A line holding only `\\`: libcst drops it when it writes a module's code back
(`x = 1\\n\\\\\\ny = 2\\n` comes back as `x = 1\\ny = 2\\n`), and its positions come from that
code. Regressions: `--fix` (and `--add-noqa`) wrote the file back without that line, and every
finding after it was reported one row too high."""

from __future__ import annotations

import random
import re

import libcst as cst
import pytest
from click.testing import CliRunner

from mem0lint import config, engine
from mem0lint.cli import main
from mem0lint.inproject import lint_text

HEAD = "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
CALL = 'client.search("q", filters={"$and": [{"user_id": "u"}]})\n'
TEXT = HEAD + "x = 1\n\\\n" + CALL


def test_libcst_still_drops_the_line() -> None:
    """The premise: if libcst ever writes the line back, these guards can go."""
    module = cst.parse_module("x = 1\n\\\ny = 2\n")
    assert module.code == "x = 1\ny = 2\n"
    assert engine.lost_row(module, "x = 1\n\\\ny = 2\n") == 2
    assert engine.lost_row(cst.parse_module(HEAD), HEAD) is None


def _expected(text: str) -> list[tuple[int, int]]:
    """Where each `"$and"` is in `text` (1-based row and column)."""
    found = []
    for match in re.finditer(re.escape('"$and"'), text):
        row = text.count("\n", 0, match.start()) + 1
        found.append((row, match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1))
    return found


@pytest.mark.parametrize("as_bytes", [False, True])
def test_findings_after_a_lone_backslash_line_are_on_their_own_rows(as_bytes, tmp_path) -> None:
    """Property: wherever lone `\\` lines stand (top level, in a function, several), each finding
    is at the row and column the source has it, with a path or as bytes from stdin."""
    rng = random.Random(5)
    checked = 0
    for _ in range(25):
        parts = [HEAD]
        for n in range(rng.randint(2, 6)):
            if rng.random() < 0.5:
                parts.append(f"def f{n}():\n    y = {n}\n" + ("\\\n" if rng.random() < 0.7 else ""))
                parts.append("    " + CALL)
            else:
                parts.append(f"z{n} = 1\n" + ("\\\n" if rng.random() < 0.7 else "") + CALL)
            parts.append(rng.choice(["", "\n", "# note\n", "\n\n"]))
        text = "".join(parts)
        source = text.encode() if as_bytes else text
        report = lint_text(source, tmp_path / "app.py", finder=config.Finder(None))
        assert report.error is None, text
        found = [d.start for d in report.diagnostics if d.code == "MEM201"]
        assert found == _expected(text), text
        edits = [e.location for d in report.diagnostics if d.code == "MEM201" for e in d.edits]
        assert edits == found, text  # the quick fix's edit is on the same row
        checked += len(found)
    assert checked > 50


def test_a_noqa_after_a_lone_backslash_line_silences_its_own_row(tmp_path) -> None:
    text = HEAD + "x = 1\n\\\n" + CALL.rstrip("\n") + "  # noqa: MEM201\n" + CALL
    report = lint_text(text, tmp_path / "app.py", finder=config.Finder(None))
    assert [(d.code, d.start[0]) for d in report.diagnostics] == [("MEM201", 7)]


@pytest.mark.parametrize("option", ["--fix", "--unsafe-fixes", "--add-noqa"])
def test_rewriting_refuses_a_file_libcst_cannot_write_back(tmp_path, option) -> None:
    """The file is left byte for byte as it was, with a note that says why; the finding stays
    (and is not offered as fixable)."""
    path = tmp_path / "app.py"
    path.write_bytes(TEXT.encode())
    args = [option, str(path)] if option != "--unsafe-fixes" else ["--fix", option, str(path)]
    result = CliRunner().invoke(main, args)
    assert path.read_bytes() == TEXT.encode()
    assert "would not write line 5 back as it is" in result.output
    if option == "--add-noqa":
        assert result.exit_code == 0, result.output
        assert "no noqa added" in result.output
    else:
        assert result.exit_code == 1, result.output
        assert f"{path}:6:29: MEM201 mem0 operators" in result.output  # no `[*]`: not fixable


def test_a_file_without_such_a_line_is_still_fixed(tmp_path) -> None:
    path = tmp_path / "app.py"
    path.write_text(HEAD + "x = 1\n" + CALL)
    result = CliRunner().invoke(main, ["--fix", str(path)])
    assert result.exit_code == 0, result.output
    assert '"AND"' in path.read_text()


def test_a_backslash_that_joins_code_is_not_refused(tmp_path) -> None:
    """Only a line that libcst drops stops the fix: a backslash continuing a statement stays."""
    path = tmp_path / "app.py"
    text = HEAD + "y = 1 + \\\n    2\n" + CALL
    path.write_text(text)
    result = CliRunner().invoke(main, ["--fix", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text() == text.replace('"$and"', '"AND"')
