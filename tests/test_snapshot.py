"""The walk's snapshot (mem0lint/snapshot.py): an unchanged tree is not walked again, and any
change that could change what a walk finds makes the next run walk."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mem0lint import config, pipeline, sources


def age(root: Path) -> None:
    """Everything modified long enough ago for a snapshot to trust it."""
    past = time.time() - 60
    for folder, _, files in os.walk(root):
        for name in files:
            os.utime(os.path.join(folder, name), (past, past))
        os.utime(folder, (past, past))


OPTIONS = ["", "False"]  # command line, --force-exclude


def found(root: Path, cache: Path | None) -> list[str]:
    """What the CLI finds under `root`, saving the snapshot as a run does."""
    excluder = config.Excluder(config.Finder(None))
    listed, snapshot = pipeline.discover(
        (str(root),), excluder, None, OPTIONS, cache and str(cache)
    )
    if snapshot is not None:
        snapshot.update(listed, None)
    return sorted(str(s.path) for s in listed)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "project"
    (root / "app" / "deep").mkdir(parents=True)
    (root / "app" / "one.py").write_text("x = 1\n")
    (root / "app" / "deep" / "two.py").write_text("y = 2\n")
    (root / "notes.md").write_text("# notes\n")
    age(tmp_path)
    return root


def walks(monkeypatch) -> list[str]:
    walked: list[str] = []
    real = os.walk

    def counting(top, *args, **kwargs):
        walked.append(str(top))
        return real(top, *args, **kwargs)

    monkeypatch.setattr(sources.os, "walk", counting)
    return walked


def test_an_unchanged_tree_is_not_walked_again(tree, tmp_path, monkeypatch):
    first = found(tree, tmp_path / "cache")
    walked = walks(monkeypatch)
    again = found(tree, tmp_path / "cache")
    assert walked == []
    assert again == first == found(tree, None)
    assert len(first) == 3


CHANGES = {
    "a file added deep down": lambda root: (root / "app" / "deep" / "three.py").write_text("z\n"),
    "a file removed": lambda root: (root / "app" / "one.py").unlink(),
    "a folder renamed": lambda root: (root / "app" / "deep").rename(root / "app" / "deeper"),
    "a .gitignore created": lambda root: (root / ".gitignore").write_text("deep/\n"),
    "a pyproject.toml with excludes": lambda root: (root / "pyproject.toml").write_text(
        '[tool.mem0lint]\nexclude = ["app/one.py"]\n'
    ),
    "a folder made a virtualenv": lambda root: (root / "app" / "deep" / "pyvenv.cfg").touch(),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_to_the_tree_makes_the_next_run_walk(tree, tmp_path, change):
    before = found(tree, tmp_path / "cache")
    CHANGES[change](tree)
    after = found(tree, tmp_path / "cache")
    assert after == found(tree, None)
    assert after != before


def test_an_edited_gitignore_makes_the_next_run_walk(tree, tmp_path):
    ignore = tree / ".gitignore"
    ignore.write_text("nothing\n")
    age(tmp_path)
    before = found(tree, tmp_path / "cache")
    ignore.write_text("one.py\n")  # the folder's listing is the same: only the file changed
    after = found(tree, tmp_path / "cache")
    assert after == found(tree, None) != before


def test_a_git_repository_created_above_makes_the_next_run_walk(tree, tmp_path):
    (tmp_path / ".gitignore").write_text("one.py\n")  # applies only inside a repository
    age(tmp_path)
    before = found(tree, tmp_path / "cache")
    (tmp_path / ".git").mkdir()
    after = found(tree, tmp_path / "cache")
    assert after == found(tree, None) != before


def test_a_tree_changed_moments_ago_is_not_snapshot(tree, tmp_path):
    (tree / "fresh.py").write_text("x\n")  # the folder's mtime is now
    found(tree, tmp_path / "cache")
    assert not list((tmp_path / "cache").glob("files-*.json"))


def test_files_named_one_by_one_take_no_snapshot(tree, tmp_path):
    """pre-commit names the changed files: nothing to walk, and a snapshot per commit."""
    excluder = config.Excluder(config.Finder(None))
    named = (str(tree / "app" / "one.py"), str(tree / "notes.md"))
    listed, snapshot = pipeline.discover(named, excluder, None, OPTIONS, str(tmp_path / "cache"))
    assert [s.fspath for s in listed] == list(named) and snapshot is None
    assert not list((tmp_path / "cache").glob("files-*.json"))


def test_busy_folders_that_are_never_walked_do_not_spoil_the_snapshot(tree, tmp_path, monkeypatch):
    (tree / ".git").mkdir()
    (tree / "app" / "__pycache__").mkdir()
    age(tmp_path)
    first = found(tree, tmp_path / "cache")
    (tree / ".git" / "index.lock").write_text("")  # git at work
    (tree / "app" / "__pycache__" / "one.cpython-311.pyc").write_text("")
    walked = walks(monkeypatch)
    assert found(tree, tmp_path / "cache") == first
    assert walked == []


def test_an_unchanged_clean_tree_is_clean_without_a_check(tree, tmp_path, monkeypatch):
    """A check that found nothing records every file's stat: the next one with the same
    options, over the same files, needs no verdict at all; any edit brings the check back."""
    from conftest import run_cli

    cache = str(tmp_path / "cache")
    assert run_cli("--cache-dir", cache, str(tree)).stdout == "All checks passed.\n"

    def no_check(*args, **kwargs):
        raise AssertionError("checked again")

    with monkeypatch.context() as patched:
        patched.setattr(pipeline, "check_groups", no_check)
        assert run_cli("--cache-dir", cache, str(tree)).exit_code == 0
    # Other options: another snapshot, a real check.
    assert run_cli("--cache-dir", cache, "--select", "MEM102", str(tree)).exit_code == 0
    bad = "from mem0 import MemoryClient\nMemoryClient().search('q', limit=3)\n"
    (tree / "app" / "one.py").write_text(bad)  # same folder listing, new content
    result = run_cli("--cache-dir", cache, str(tree))
    assert result.exit_code == 1 and "MEM102" in result.stdout
