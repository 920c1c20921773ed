"""Lint public repositories (snapshots under /work/.mirror, brought in with the `fetch` tool) by
path and list what mem0lint reports, with the SDK release each file was judged by, for judging
by hand against that release's source. Not run in CI.

    python scripts/realworld_versions.py /work/.mirror/owner+name/repo ... [-- mem0lint options]

Each snapshot is exported (`git archive HEAD`) to a temporary folder; nothing is copied into
the project.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path

WANTED = (".py", ".pyi", ".ipynb", ".md", ".mdx", ".txt", ".toml", ".lock", ".cfg", "Pipfile")


def git(git_dir: Path, *args: str, data: bytes = b"") -> bytes:
    return subprocess.run(
        ["git", "--git-dir", str(git_dir), *args], input=data, capture_output=True, check=True
    ).stdout


def export(git_dir: Path, into: Path) -> str:
    """The files mem0lint may read (sources, documents, project files) of HEAD; blobs missing
    from the snapshot are passed over."""
    commit = git(git_dir, "rev-parse", "HEAD").decode().strip()
    listing = git(git_dir, "ls-tree", "-r", "-z", "HEAD").split(b"\0")
    for entry in listing:
        if not entry:
            continue
        meta, _, path = entry.partition(b"\t")
        mode, kind, blob = meta.split()
        name = path.decode("utf-8", "replace")
        if kind != b"blob" or mode == b"120000" or not name.endswith(WANTED):
            continue
        try:
            content = git(git_dir, "cat-file", "blob", blob.decode())
        except subprocess.CalledProcessError:
            continue
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    (into / ".git").mkdir(exist_ok=True)  # the repository root for version discovery
    return commit


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    repos = argv[: argv.index("--")] if "--" in argv else argv
    for repo in repos:
        git_dir = Path(repo)
        name = git_dir.parent.name.replace("+", "/")
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            commit = export(git_dir, root)
            result = subprocess.run(
                [sys.executable, "-m", "mem0lint", "--no-cache", "--output-format", "json"]
                + extra
                + [str(root)],
                capture_output=True,
                text=True,
            )
            findings = json.loads(result.stdout or "[]")
            print(f"## {name} @ {commit[:12]}: {len(findings)} finding(s)")
            for line in result.stderr.splitlines():
                if "info:" in line and "skipped" not in line:
                    print(f"   {line.replace(str(root) + '/', '')}")
            by_release = collections.Counter((f["sdk"], f["sdk_version"]) for f in findings)
            for (sdk, version), count in sorted(by_release.items(), key=str):
                print(f"   judged as {sdk} {version}: {count}")
            for f in findings:
                where = f["filename"].replace(str(root) + "/", "")
                row = f["location"]["row"]
                kind = " [upgrade]" if f["kind"] == "upgrade" else ""
                print(f"   {where}:{row} {f['code']} {f['severity']}{kind} {f['message'][:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
