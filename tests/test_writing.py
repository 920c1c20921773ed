"""What `--fix` promises about the files it writes, and what hostile input cannot do to it.

Writing: a temporary file beside the target and an atomic rename; a file changed since it was
read is not overwritten; read-only files and symlinks leading out of the linted tree are reported,
not written; mode, newlines, encoding cookie, BOM and comments survive; a SIGKILL at the moment of
writing leaves every file old or new. Reading: mem0lint never imports the code; hostile files
each get one clear line, in bounded time, and the other files are still linted.
"""

from __future__ import annotations

import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mem0lint import engine, pipeline
from mem0lint.modes import Mode
from mem0lint.results import FileReport
from mem0lint.sources import SourceFile

BAD = (
    "from mem0 import MemoryClient\n\n"
    "client = MemoryClient()\n"
    'client.search("q", user_id="alice")\n'
)
FIXED = (
    "from mem0 import MemoryClient\n\n"
    "client = MemoryClient()\n"
    'client.search("q", filters={"user_id": "alice"})\n'
)


def fix_file(path: Path, roots: list[Path] | None = None) -> FileReport:
    rules = engine.RuleSet(engine.Settings())
    return pipeline.check_file(SourceFile(path, explicit=True), rules, Mode.FIX, roots or [path])


def mem0lint(*args: str, cwd: Path, timeout: float = 120, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mem0lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def no_temporary_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*") if p.name.endswith(".mem0lint-tmp")]


# --- writing ------------------------------------------------------------------------------------


def test_fix_writes_the_fixed_text_and_nothing_else(tmp_path):
    path = tmp_path / "bot.py"
    path.write_text(BAD)
    report = fix_file(path)
    assert report.error is None and report.fixed == 1
    assert path.read_text() == FIXED
    assert no_temporary_files(tmp_path)


def test_a_file_changed_since_it_was_read_is_not_overwritten(tmp_path, monkeypatch):
    path = tmp_path / "bot.py"
    path.write_text(BAD)
    edited = BAD + "# the author's edit, saved while mem0lint was working\n"
    real_fix = engine.fix

    def fix_while_the_author_saves(module, rules, **options):
        path.write_text(edited)
        return real_fix(module, rules, **options)

    monkeypatch.setattr(engine, "fix", fix_while_the_author_saves)
    report = fix_file(path)
    assert path.read_text() == edited
    assert "changed on disk since it was read" in report.error
    assert report.fixed == 0
    assert no_temporary_files(tmp_path)


def test_a_read_only_file_gets_a_clear_message(tmp_path):
    path = tmp_path / "bot.py"
    path.write_text(BAD)
    path.chmod(0o444)
    report = fix_file(path)
    assert report.error == "read-only file; not fixed"
    assert path.read_text() == BAD
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


def test_mode_bits_are_kept(tmp_path):
    path = tmp_path / "bot.py"
    path.write_text(BAD)
    path.chmod(0o754)
    fix_file(path)
    assert path.read_text() == FIXED
    assert stat.S_IMODE(path.stat().st_mode) == 0o754


def test_a_symlink_inside_the_tree_is_fixed_at_its_target(tmp_path):
    tree = tmp_path / "project"
    tree.mkdir()
    target = tree / "real.py"
    target.write_text(BAD)
    link = tree / "link.py"
    link.symlink_to(target)
    report = fix_file(link, roots=[tree])
    assert report.error is None
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == FIXED


def test_a_symlink_leading_out_of_the_tree_is_not_followed(tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text(BAD)
    tree = tmp_path / "project"
    tree.mkdir()
    link = tree / "link.py"
    link.symlink_to(outside)
    result = mem0lint("--fix", "project", cwd=tmp_path)
    # A record like a finding (issue 12): MEM002 in the report itself.
    assert "MEM002 symlink to" in result.stdout
    assert "outside the linted folders; not fixed" in result.stdout
    assert outside.read_text() == BAD and link.is_symlink()


@pytest.mark.parametrize(
    ("name", "original", "fixed"),
    [
        ("crlf", BAD.replace("\n", "\r\n").encode(), FIXED.replace("\n", "\r\n").encode()),
        (
            "latin-1 cookie",
            ("# -*- coding: latin-1 -*-\n# café\n" + BAD).encode("latin-1"),
            ("# -*- coding: latin-1 -*-\n# café\n" + FIXED).encode("latin-1"),
        ),
        ("bom", b"\xef\xbb\xbf" + BAD.encode(), b"\xef\xbb\xbf" + FIXED.encode()),
        (
            "comments in the filter",
            (
                b"from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
                b"client.search(\n"
                b'    "q",\n'
                b"    filters={\n"
                b'        "$or": [  # either one\n'
                b'            {"user_id": "a"},  # the user\n'
                b'            {"agent_id": "b"},\n'
                b"        ],\n"
                b"    },\n"
                b")\n"
            ),
            (
                b"from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
                b"client.search(\n"
                b'    "q",\n'
                b"    filters={\n"
                b'        "OR": [  # either one\n'
                b'            {"user_id": "a"},  # the user\n'
                b'            {"agent_id": "b"},\n'
                b"        ],\n"
                b"    },\n"
                b")\n"
            ),
        ),
    ],
)
def test_fix_keeps_newlines_encoding_bom_and_comments(tmp_path, name, original, fixed):
    path = tmp_path / "bot.py"
    path.write_bytes(original)
    report = fix_file(path)
    assert report.error is None, report.error
    assert path.read_bytes() == fixed


@pytest.mark.parametrize("seed", range(4))
def test_sigkill_while_writing_leaves_every_file_old_or_new(tmp_path, seed):
    names = [f"bot{i}.py" for i in range(4)]
    for name in names:
        (tmp_path / name).write_text(BAD)
    marker = tmp_path / "writing"
    process = subprocess.Popen(
        [sys.executable, "-m", "mem0lint", "--fix", *names],
        cwd=tmp_path,
        env={
            **os.environ,
            "MEM0LINT_TEST_PAUSE_BEFORE_RENAME": "0.2",
            "MEM0LINT_TEST_PAUSE_MARKER": str(marker),
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert marker.exists(), "mem0lint never reached the moment of writing"
    time.sleep(random.Random(seed).uniform(0, 0.6))  # the first write, or a later one
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    contents = {(tmp_path / name).read_text() for name in names}
    assert contents <= {BAD, FIXED}, contents


def test_linting_never_imports_or_runs_the_code(tmp_path):
    path = tmp_path / "bot.py"
    path.write_text(
        "import pathlib, sys\npathlib.Path('SIDE_EFFECT').write_text('ran')\nsys.exit(7)\n" + BAD
    )
    for args in (["bot.py"], ["--fix", "bot.py"]):
        result = mem0lint(*args, cwd=tmp_path)
        assert result.returncode in (0, 1), result.stderr
        assert not (tmp_path / "SIDE_EFFECT").exists()
    assert 'filters={"user_id": "alice"}' in path.read_text()


# --- hostile input ------------------------------------------------------------------------------

HEADER = "from mem0 import Memory\n"  # gets every hostile file past the prefilter


def hostile_files(folder: Path) -> dict[str, str | None]:
    """File name -> the message it must get (None: no message, nothing to say)."""
    big = HEADER.encode() + b"x = 1\n" * (50 * 1024 * 1024 // 6)
    (folder / "huge.py").write_bytes(big)
    (folder / "nested_brackets.py").write_text(HEADER + "x = " + "(" * 10_000 + ")" * 10_000)
    (folder / "nested_unary.py").write_text(HEADER + "x = " + "-" * 10_000 + "1\n")
    (folder / "long_chain.py").write_text(HEADER + "x = 1" + " + 1" * 10_000 + "\n")
    (folder / "nul.py").write_bytes(HEADER.encode() + b"x = '\x00'\n")
    (folder / "invalid_utf8.py").write_bytes(HEADER.encode() + b"x = '\xff\xfe'\n")
    (folder / "empty.py").write_bytes(b"")
    (folder / "bom.py").write_bytes(b"\xef\xbb\xbf" + BAD.encode())
    loop = folder / "loop"
    loop.mkdir()
    (loop / "again").symlink_to(folder, target_is_directory=True)
    (folder / "z_real.py").write_text(BAD)
    return {
        "huge.py": "too large to analyse",
        "nested_brackets.py": "too deeply nested",
        "nested_unary.py": "too deeply nested",
        "long_chain.py": "too deeply nested",
        "nul.py": "NUL byte",
        "invalid_utf8.py": "cannot decode",
        "empty.py": None,
        "bom.py": None,
    }


@pytest.mark.parametrize("mode", ["check", "fix"])
def test_hostile_input_gets_one_clear_line_each(tmp_path, mode):
    expected = hostile_files(tmp_path)
    start = time.monotonic()
    args = ["--fix", "."] if mode == "fix" else ["."]
    result = mem0lint("--output-format", "concise", *args, cwd=tmp_path, timeout=180)
    assert time.monotonic() - start < 120, "no bounded time"
    assert result.returncode == 2, result.stderr  # some files could not be checked
    # Each is one record in the report (issue 12: MEM001/MEM002, like a finding).
    lines = [line for line in result.stdout.splitlines() if " MEM00" in line]
    for name, message in expected.items():
        about = [line for line in lines if line.startswith(f"{name}:") or f"/{name}:" in line]
        if message is None:
            assert not about, about
        else:
            assert len(about) == 1 and message in about[0], (name, lines)
    assert len(lines) == sum(m is not None for m in expected.values()), lines
    if mode == "fix":  # the ordinary files beside them were still fixed
        assert (tmp_path / "z_real.py").read_text() == FIXED
        assert (tmp_path / "bom.py").read_bytes() == b"\xef\xbb\xbf" + FIXED.encode()
    else:
        assert "MEM101" in result.stdout and "z_real.py" in result.stdout
    assert "All checks passed" not in result.stdout
