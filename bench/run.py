"""Benchmark mem0lint against Ruff, Semgrep, Fixit and the bare libcst floor (issue 6).

    python bench/run.py [--reps 3] [--cache DIR] [--slow] [--only mem0lint,ruff,...]
                        [--repo PATH] [--site-packages PATH|build] [--trap]

Builds (or reuses) two corpora in a cache folder outside the repository:
  plain/  the running Python's stdlib and Django's sdist (pinned): code that never calls an SDK;
  heavy/  1,000 generated mem0-heavy modules (bench/generate.py, seeded).
and, when asked (the real corpora of issue 14; not run in CI):
  repo           --repo PATH: a checkout of a public repository that uses mem0 in code and docs
                 (mem0ai/mem0 at the commit pinned in bench/realworld/repos.json), linted whole:
                 Python, notebooks, Markdown/MDX;
  site-packages  --site-packages PATH: an ordinary site-packages folder (one without the SDKs;
                 if it holds them, their own code is linted too), or `build`: a fresh virtual
                 environment with common packages pinned in SITE_PACKAGES, in the cache folder;
  stdlib, trap   --trap: a copy of the running Python's standard library, and the same copy plus
                 a two-line config.py that says "memories" and four files that import from it.
Then runs every tool on every corpus, alternating them, `--reps` times, in one run (each run
after a read of the whole corpus: every tool starts with it in the page cache), and prints
per tool the median wall time, user CPU time and peak memory (of the largest process of the
tree), the findings count (so no timing is of a tool that did nothing) and the exit status, a
table of mem0lint's ratios to Ruff and Semgrep per corpus, and the ratios of the issues' goals.

Needs `ruff`, `semgrep` and `fixit` next to this Python (pip install ruff semgrep fixit) or on
PATH; a missing tool is reported and skipped. Fixit and the floor are slow on the plain tree
(minutes per run): they run there only with --slow.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
DJANGO = "5.2.19"
# An ordinary site-packages (`--site-packages build`): common packages, none of the SDKs.
SITE_PACKAGES = [
    "attrs==26.1.0",
    "click==8.5.1",
    "Django==5.2.19",
    "httpx==0.28.1",
    "Jinja2==3.1.6",
    "numpy==2.4.6",
    "pandas==3.1.1",
    "pydantic==2.14.4",
    "pytest==9.2.0",
    "requests==2.34.2",
    "rich==15.0.0",
    "SQLAlchemy==2.1.9",
]
# The one-word trap of issue 14: a module that says "memories" (the Platform's REST word) and
# files that import a name from it.
TRAP_CONFIG = 'MEMORIES_URL = "/v1/memories/"\nX = "memories"\n'
TRAP_USER = "from config import X\n\nprint(X)\n"
sys.path.insert(0, str(HERE))
import generate  # noqa: E402  (bench/generate.py, beside this script)


# --- corpora -------------------------------------------------------------------------------
def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(os.environ.get("MEM0LINT_BENCH_CACHE", os.path.join(base, "mem0lint-bench")))


def build_plain(cache: Path) -> Path:
    plain = cache / "plain"
    stamp = plain / ".complete"
    if stamp.exists():
        return plain
    shutil.rmtree(plain, ignore_errors=True)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for source in stdlib.rglob("*.py"):
        relative = source.relative_to(stdlib)
        if "site-packages" in relative.parts:
            continue
        target = plain / "stdlib" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    downloads = cache / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    archive = downloads / f"django-{DJANGO}.tar.gz"
    if not archive.exists():
        # The sdist, as in the issue's table (its tests/ make the 4,613 files with the stdlib).
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary",
             ":all:", f"django=={DJANGO}", "-d", str(downloads)],
            check=True,
        )  # fmt: skip
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and m.name.endswith(".py")]
        tar.extractall(plain, members=members)  # noqa: S202  (a pinned PyPI sdist)
    finish(plain)
    stamp.write_text(f"stdlib {stdlib}; django {DJANGO}\n")
    return plain


def build_heavy(cache: Path, count: int, seed: int) -> Path:
    heavy = cache / "heavy"
    stamp = heavy / ".complete"
    recipe = f"{count} {seed} {(HERE / 'generate.py').stat().st_mtime_ns}"
    if stamp.exists() and stamp.read_text() == recipe:
        return heavy
    shutil.rmtree(heavy, ignore_errors=True)
    generate.write_corpus(heavy, count, seed)
    # Fixit finds its configuration above the linted files; the rule lives beside it.
    shutil.copyfile(HERE / "fixit.toml", heavy / "fixit.toml")
    shutil.copytree(HERE / "fixit_rules", heavy / "fixit_rules")
    finish(heavy)
    stamp.write_text(recipe)
    return heavy


def copy_stdlib(target: Path) -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for source in stdlib.rglob("*.py"):
        relative = source.relative_to(stdlib)
        if "site-packages" in relative.parts or "dist-packages" in relative.parts:
            continue
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)


def build_trap(cache: Path) -> tuple[Path, Path]:
    """(the standard library alone, the standard library plus the one-word trap)."""
    stdlib, trap = cache / "stdlib", cache / "trap"
    for folder, trapped in ((stdlib, False), (trap, True)):
        stamp = folder / ".complete"
        if stamp.exists():
            continue
        shutil.rmtree(folder, ignore_errors=True)
        copy_stdlib(folder / "stdlib")
        if trapped:
            (folder / "config.py").write_text(TRAP_CONFIG)
            for i in range(1, 5):
                (folder / f"use{i}.py").write_text(TRAP_USER)
        finish(folder)
        stamp.write_text(f"stdlib {sysconfig.get_paths()['stdlib']}; trap {trapped}\n")
    return stdlib, trap


def build_site_packages(cache: Path) -> Path:
    """A fresh virtual environment with SITE_PACKAGES installed; its site-packages folder."""
    venv = cache / "site-venv"
    stamp = venv / ".complete"
    recipe = " ".join(SITE_PACKAGES)
    if not (stamp.exists() and stamp.read_text() == recipe):
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *SITE_PACKAGES], check=True)
        stamp.write_text(recipe)
    found = sorted(venv.glob("lib/python*/site-packages")) or sorted(venv.glob("Lib/site-packages"))
    return found[0]


def finish(corpus: Path) -> None:
    # Semgrep skips test folders unless a .semgrepignore says otherwise; every tool sees all.
    (corpus / ".semgrepignore").write_text("# every file is linted\n")


def count_files(folder: Path) -> tuple[int, int]:
    files = lines = 0
    for path in folder.rglob("*"):
        if path.suffix not in (".py", ".pyi", ".ipynb", ".md", ".mdx") or not path.is_file():
            continue
        files += 1
        with open(path, "rb") as handle:
            lines += handle.read().count(b"\n")
    return files, lines


# --- tools ---------------------------------------------------------------------------------
def executable(name: str) -> str | None:
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def mem0lint_count(out: str) -> str:
    found = re.search(r"Found (\d+) problems? in (\d+) files?", out)
    if not found:
        return "0" if "All checks passed" in out else "?"
    codes = re.findall(r":\d+:\d+: (MEM\d+) ", out)
    same = sum(1 for c in codes if c in ("MEM101", "MEM201"))
    return f"{found.group(1)} ({same} MEM101/201)"


def ruff_count(out: str) -> str:
    return str(out.count('"noqa_row"'))  # one per diagnostic in Ruff's JSON


def semgrep_count(out: str) -> str:
    try:
        results = json.loads(out)["results"]
    except (ValueError, KeyError):
        return "?"
    return str(len(results))


def fixit_count(out: str) -> str:
    return str(out.count("Mem0DollarOperator"))


def floor_count(out: str) -> str:
    found = re.search(r"(\d+) calls visited", out)
    return f"{found.group(1)} calls" if found else "?"


@dataclass
class Tool:
    name: str
    argv: Callable[[Path, Path], list[str]]  # (corpus root, linted folder) -> command
    count: Callable[[str], str]
    slow_on_plain: bool = False
    before: Callable[[Path], None] = lambda root: None


def tools(scratch: Path) -> list[Tool]:
    m0 = [sys.executable, "-m", "mem0lint"]
    cache_dir = scratch / "mem0lint-cache"
    found: list[Tool] = [
        Tool("mem0lint", lambda root, t: [*m0, "--no-cache", str(t)], mem0lint_count),
        Tool(
            "mem0lint cold cache",
            lambda root, t: [*m0, "--cache-dir", str(cache_dir / root.name), str(t)],
            mem0lint_count,
            before=lambda root: shutil.rmtree(cache_dir / root.name, ignore_errors=True),
        ),
        Tool(
            "mem0lint warm cache",
            lambda root, t: [*m0, "--cache-dir", str(cache_dir / root.name), str(t)],
            mem0lint_count,
        ),
    ]
    ruff = executable("ruff")
    if ruff:
        found.append(
            Tool(
                "ruff E,F",
                lambda root, t: [
                    ruff,
                    "check",
                    "--select",
                    "E,F",
                    "--no-cache",
                    "--exit-zero",
                    "--output-format",
                    "json",
                    str(t),
                ],
                ruff_count,
            )  # fmt: skip
        )
    semgrep = executable("semgrep")
    if semgrep:
        found.append(
            Tool(
                "semgrep 2 rules",
                lambda root, t: [
                    semgrep,
                    "scan",
                    "--config",
                    str(HERE / "semgrep.yml"),
                    "--jobs",
                    "2",
                    "--json",
                    "--metrics",
                    "off",
                    "--quiet",
                    "--disable-version-check",
                    "--max-target-bytes",
                    "0",
                    str(t),
                ],
                semgrep_count,
            )  # fmt: skip
        )
    fixit = executable("fixit")
    if fixit:
        found.append(Tool("fixit 1 rule", lambda r, t: [fixit, "lint", str(t)], fixit_count, True))
    found.append(
        Tool(
            "libcst floor",
            lambda root, t: [sys.executable, str(HERE / "floor.py"), str(t)],
            floor_count,
            slow_on_plain=True,
        )
    )
    return found


@dataclass
class Sample:
    wall: float
    user: float
    peak_mb: float
    count: str
    status: int = 0


@dataclass
class Row:
    tool: str
    corpus: str
    samples: list[Sample] = field(default_factory=list)

    def median(self, attribute: str) -> float:
        return statistics.median(getattr(s, attribute) for s in self.samples)


def warm(folder: Path) -> None:
    """Read every file of the corpus, so that each tool starts with it in the page cache. The
    tools run in a fixed order, and this machine reclaims memory as it goes: without this, the
    first tool on a corpus (after Semgrep on the last one) read it from disk and the others did
    not."""
    for directory, _, names in os.walk(folder):
        for name in names:
            try:
                with open(os.path.join(directory, name), "rb") as handle:
                    while handle.read(1 << 20):
                        pass
            except OSError:
                pass


def measure(argv: list[str], cwd: Path, scratch: Path) -> tuple[Sample, str]:
    """Run once; (timing, stdout). GNU time, where installed, reports the child's own peak RSS:
    a child forked straight from this process would inherit this process's high-water mark."""
    timing = scratch / "time"
    gnu_time = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    # %M: the largest resident set of the process and every child it waited for.
    command = [gnu_time, "-f", "%U %M %x", "-o", str(timing), *argv] if gnu_time else argv
    with open(scratch / "out", "w+b") as out, open(scratch / "err", "w+b") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    user, peak_kb = usage.ru_utime, usage.ru_maxrss
    if gnu_time:
        fields = timing.read_text().split()[-3:]  # after any "Command exited with..." line
        user, peak_kb = float(fields[0]), int(fields[1])
        code = int(fields[2])
    else:
        code = process.returncode
    return Sample(wall, user, peak_kb / 1024, "", code), text


# --- report --------------------------------------------------------------------------------
def ratio_line(label: str, value: float | None, goal: str, ok: bool | None) -> str:
    if value is None:
        return f"  {label:<58} n/a"
    verdict = "met" if ok else "MISSED"
    return f"  {label:<58} {value:6.2f}   goal {goal:<7} {verdict}"


def compile_mem0lint() -> None:
    """Byte-compile mem0lint, as `pip install` does: an editable install run with
    PYTHONDONTWRITEBYTECODE set would compile every module on every start."""
    import compileall

    import mem0lint

    compileall.compile_dir(os.path.dirname(mem0lint.__file__), quiet=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=default_cache())
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--count", type=int, default=1000, help="generated mem0-heavy files")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--slow", action="store_true", help="Fixit and the floor on plain too")
    parser.add_argument("--only", default="", help="comma-separated tool name prefixes")
    parser.add_argument(
        "--corpus",
        default="plain,heavy",
        help="the generated corpora to run: plain, heavy, both or none (the real ones run "
        "when their options are given)",
    )
    parser.add_argument(
        "--repo",
        type=Path,
        help="a checkout of a repository that uses mem0 in code and docs (not fetched here: "
        "mem0ai/mem0 at the commit in bench/realworld/repos.json)",
    )
    parser.add_argument(
        "--site-packages",
        help="a site-packages folder, or `build` for a fresh one with common packages",
    )
    parser.add_argument(
        "--trap",
        action="store_true",
        help="the standard library alone and with the one-word trap (built in the cache)",
    )
    args = parser.parse_args()

    args.cache.mkdir(parents=True, exist_ok=True)
    compile_mem0lint()
    corpora = {}
    if "plain" in args.corpus:
        corpora["plain"] = (build_plain(args.cache), ".")
    if "heavy" in args.corpus:
        corpora["heavy"] = (build_heavy(args.cache, args.count, args.seed), "memapp")
    if args.repo is not None:
        if not args.repo.is_dir():
            parser.error(f"--repo {args.repo}: not a folder")
        corpora["repo"] = (args.repo.resolve(), ".")
    if args.site_packages:
        if args.site_packages == "build":
            site = build_site_packages(args.cache)
        else:
            site = Path(args.site_packages).resolve()
            if not site.is_dir():
                parser.error(f"--site-packages {site}: not a folder")
        corpora["site-packages"] = (site, ".")
    if args.trap:
        stdlib, trap = build_trap(args.cache)
        corpora["stdlib"] = (stdlib, ".")
        corpora["trap"] = (trap, ".")
    scratch = Path(tempfile.mkdtemp(prefix="mem0lint-bench-"))
    chosen = [
        t
        for t in tools(scratch)
        if not args.only or any(t.name.startswith(p) for p in args.only.split(","))
    ]
    missing = [n for n in ("ruff", "semgrep", "fixit") if not executable(n)]

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, cache {args.cache}")
    for name, (root, target) in corpora.items():
        files, lines = count_files(root / target)
        print(f"corpus {name}: {files} files, {lines:,} lines ({root / target})")
    if missing:
        print(f"not installed, skipped: {', '.join(missing)}")
    print(f"load average before: {os.getloadavg()}")

    rows: dict[tuple[str, str], Row] = {}
    for rep in range(args.reps):
        for name, (root, target) in corpora.items():
            for tool in chosen:
                if name != "heavy" and tool.slow_on_plain and not args.slow:
                    continue
                if name not in ("plain", "heavy") and "cache" in tool.name:
                    continue  # the real corpora: the uncached run is the one compared
                tool.before(root)
                warm(root / target)
                sample, text = measure(tool.argv(root, Path(target)), root, scratch)
                sample.count = tool.count(text)
                rows.setdefault((tool.name, name), Row(tool.name, name)).samples.append(sample)
                print(
                    f"  rep {rep + 1} {name:<13} {tool.name:<20} {sample.wall:7.2f} s wall "
                    f"{sample.user:7.2f} s user {sample.peak_mb:7.1f} MB  findings {sample.count}"
                    f"  exit {sample.status}",
                    flush=True,
                )
    print(f"load average after: {os.getloadavg()}")

    print(f"\nMedians over {args.reps} alternating repetitions")
    print(f"{'corpus':<14}{'tool':<21}{'wall s':>8}{'user s':>8}{'peak MB':>9}  exit  findings")
    for row in rows.values():
        print(
            f"{row.corpus:<14}{row.tool:<21}{row.median('wall'):8.2f}{row.median('user'):8.2f}"
            f"{max(s.peak_mb for s in row.samples):9.1f}  {row.samples[-1].status:>4}  "
            f"{row.samples[-1].count}"
        )

    def wall(tool: str, corpus: str) -> float | None:
        row = rows.get((tool, corpus))
        return row.median("wall") if row else None

    def ratio(a: float | None, b: float | None) -> float | None:
        return a / b if a is not None and b else None

    def shown(value: float | None) -> str:
        return f"{value:.2f}" if value is not None else "n/a"

    print("\nmem0lint against Ruff E,F and Semgrep, per corpus (wall-time medians of this run)")
    print(f"{'corpus':<14}{'mem0lint s':>11}{'ruff s':>8}{'semgrep s':>10}"
          f"{'/ ruff':>8}{'/ semgrep':>10}{'peak MB':>9}")  # fmt: skip
    for corpus in corpora:
        mine = rows.get(("mem0lint", corpus))
        print(
            f"{corpus:<14}{shown(wall('mem0lint', corpus)):>11}"
            f"{shown(wall('ruff E,F', corpus)):>8}{shown(wall('semgrep 2 rules', corpus)):>10}"
            f"{shown(ratio(wall('mem0lint', corpus), wall('ruff E,F', corpus))):>8}"
            f"{shown(ratio(wall('mem0lint', corpus), wall('semgrep 2 rules', corpus))):>10}"
            f"{shown(max(s.peak_mb for s in mine.samples) if mine else None):>9}"
        )

    print("\nGoals (issues 6 and 14)")
    lines = []
    value = ratio(wall("mem0lint", "repo"), wall("semgrep 2 rules", "repo"))
    lines.append(ratio_line("repo: mem0lint / Semgrep (wall)", value, "<= 0.5",
                            value is not None and value <= 0.5))  # fmt: skip
    for corpus in ("site-packages", "stdlib", "trap"):
        value = ratio(wall("mem0lint", corpus), wall("ruff E,F", corpus))
        lines.append(ratio_line(f"{corpus}: mem0lint / Ruff E,F (wall)", value, "<= 1.0",
                                value is not None and value <= 1))  # fmt: skip
    value = ratio(wall("mem0lint", "plain"), wall("ruff E,F", "plain"))
    lines.append(
        ratio_line("plain: mem0lint / Ruff E,F (wall)", value, "<= 1.0", value and value <= 1)
    )
    value = ratio(wall("mem0lint", "heavy"), wall("semgrep 2 rules", "heavy"))
    lines.append(
        ratio_line("heavy: mem0lint / Semgrep (wall)", value, "<= 1.0", value and value <= 1)
    )
    value = ratio(wall("fixit 1 rule", "heavy"), wall("mem0lint", "heavy"))
    lines.append(ratio_line("heavy: Fixit / mem0lint (wall)", value, ">= 4", value and value >= 4))
    for corpus in corpora:
        value = ratio(wall("mem0lint warm cache", corpus), wall("mem0lint cold cache", corpus))
        lines.append(
            ratio_line(
                f"{corpus}: warm / cold cache (wall)", value, "<= 0.3", value and value <= 0.3
            )
        )
        peaks = [
            max(s.peak_mb for s in row.samples)
            for (tool, c), row in rows.items()
            if c == corpus and tool.startswith("mem0lint")
        ]
        value = max(peaks) if peaks else None
        lines.append(ratio_line(f"{corpus}: mem0lint peak MB per process", value, "<= 250",
                                value and value <= 250))  # fmt: skip
    print("\n".join(lines))
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
