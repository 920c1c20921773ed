"""The pre-commit hooks, tried as a new user would: `pre-commit try-repo` against a clone of
this project, on a fresh repository holding a wrong call. Slow (pre-commit installs mem0lint into
its own environment), but part of the normal run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BAD = (
    "from mem0 import MemoryClient\n\n"
    "client = MemoryClient()\n"
    'client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=3)\n'
)
FIXED = BAD.replace("$and", "AND").replace("limit=", "top_k=")


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    """This project as it is now (tracked and new files, uncommitted edits too), committed in a
    temporary git repository: what `try-repo` clones."""
    clone = tmp_path_factory.mktemp("mem0lint-clone")
    listed = git(ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    git(clone, "init", "-q")
    git(clone, "add", "-A")
    git(clone, "commit", "-q", "-m", "snapshot")
    return clone


def try_repo(hook_repo: Path, repo: Path, hook: str, home: Path):
    env = {**os.environ, "PRE_COMMIT_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.slow
def test_hooks_fail_on_a_wrong_call_then_pass_once_fixed(hook_repo, tmp_path):
    repo = tmp_path / "user-repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "app.py").write_text(BAD)
    (repo / "notes.md").write_text(f"# Notes\n\n```python\n{BAD}```\n")
    git(repo, "add", "-A")
    home = tmp_path / "pre-commit-home"

    check = try_repo(hook_repo, repo, "mem0lint", home)
    assert check.returncode == 1, check.stdout + check.stderr
    assert "MEM201" in check.stdout and "app.py" in check.stdout and "notes.md" in check.stdout

    fix = try_repo(hook_repo, repo, "mem0lint-fix", home)
    assert fix.returncode == 1, fix.stdout + fix.stderr  # it changed files: re-stage
    assert (repo / "app.py").read_text() == FIXED
    assert FIXED in (repo / "notes.md").read_text()

    git(repo, "add", "-A")
    again = try_repo(hook_repo, repo, "mem0lint", home)
    assert again.returncode == 0, again.stdout + again.stderr
    assert try_repo(hook_repo, repo, "mem0lint-fix", home).returncode == 0


def _readme_blocks(language: str) -> list[str]:
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


@pytest.mark.slow
def test_the_readme_pre_commit_snippet_runs_as_written(tmp_path):
    """Issue 12: the README named `rev: v0.1.0`, which does not exist. Its snippet now is the
    `repo: local` form; run as written, with mem0lint installed (this venv) on PATH."""
    [snippet] = [
        block for block in _readme_blocks("yaml") if "pre-commit" not in block and "repos:" in block
    ]
    assert "rev:" not in snippet
    repo = tmp_path / "user-repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / ".pre-commit-config.yaml").write_text(snippet)
    (repo / "app.py").write_text(BAD)
    git(repo, "add", "-A")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "home"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "MEM201" in done.stdout and "app.py" in done.stdout


def test_the_readme_set_up_commands_use_separate_environments():
    blocks = [b for b in _readme_blocks("") if "python3 -m venv" in b]
    folders = [b.split("python3 -m venv ")[1].split()[0] for b in blocks]
    assert len(folders) == 2 and len(set(folders)) == 2, folders
