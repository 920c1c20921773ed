"""Real-world check: lint checked-out public repositories and score the findings by hand labels.

Not run in CI. Standard library only (plus the mem0lint of this checkout, run as a subprocess).

    python scripts/realworld.py                       # every repo of bench/realworld/repos.json
    python scripts/realworld.py --root /work/realworld --repo mem0ai+mem0 --list

Each repository is a folder under ``--root`` named ``owner+name`` (a plain checkout of the commit
recorded in ``bench/realworld/repos.json``; nothing of it lives in this project). For each one the
script runs ``python -m mem0lint --output-format json --no-cache --exit-zero .`` with the repo as
the working directory and this checkout first on ``PYTHONPATH``, so the linter measured is the one
of the current checkout. Then, against ``bench/realworld/labels.json``:

- a finding label ``{path, row, code, verdict}`` matches a finding with the same path and code whose
  row is within ``--drift`` rows of the label's (the call's first row); the nearest wins;
- a problem label ``{path, row, kind}`` (every real bug at the version the repo pins, whether
  mem0lint reports it or not) is *found* when an error or warning finding not judged false lies on
  the same path within ``--drift`` rows (and, if the label names ``codes``, has one of them).
- in a notebook, findings and labels also carry ``cell`` (rows count from the cell's first line).

Printed per repo and overall: error/warning findings, true and false positives, unjudged findings,
labelled problems missed, precision over judged findings and recall over labelled problems.
Info-level findings are scored apart (they are hints, not claims of a failure).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = Path("/work/realworld")
DEFAULT_LABELS = HERE / "bench" / "realworld" / "labels.json"
DEFAULT_REPOS = HERE / "bench" / "realworld" / "repos.json"
LOUD = ("error", "warning")


def run_mem0lint(repo_dir: Path, timeout: int) -> List[Dict[str, Any]]:
    """Lint one checked-out repo by path, with this checkout's mem0lint; return its findings."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(HERE) + (
        os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else ""
    )
    cmd = [
        sys.executable,
        "-m",
        "mem0lint",
        "--output-format",
        "json",
        "--no-cache",
        "--exit-zero",
        ".",
    ]
    proc = subprocess.run(
        cmd,
        cwd=str(repo_dir),
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"mem0lint exited {proc.returncode} on {repo_dir}:\n{proc.stderr[-2000:]}"
        )
    out = proc.stdout.strip()
    data = json.loads(out) if out else []
    findings = []
    for f in data:
        findings.append(
            {
                "path": f["filename"].replace(os.sep, "/"),
                "row": f["location"]["row"],
                "code": f["code"],
                "severity": f.get("severity", "error"),
                "message": f.get("message", ""),
                "sdk_version": f.get("sdk_version"),
                "cell": f.get("cell"),
            }
        )
    findings.sort(key=lambda f: (f["path"], f["cell"] or 0, f["row"], f["code"]))
    return findings


def match_findings(
    findings: List[Dict[str, Any]], labels: List[Dict[str, Any]], drift: int
) -> Tuple[Dict[int, Dict[str, Any]], List[Dict[str, Any]]]:
    """Pair each finding label with the nearest unpaired finding (same path and code)."""
    paired: Dict[int, Dict[str, Any]] = {}
    stale: List[Dict[str, Any]] = []
    for label in sorted(labels, key=lambda x: (x["path"], x.get("cell") or 0, x["row"])):
        best: Optional[int] = None
        for i, f in enumerate(findings):
            if i in paired or f["path"] != label["path"] or f["code"] != label["code"]:
                continue
            if f["cell"] != label.get("cell"):
                continue
            d = abs(f["row"] - label["row"])
            if d <= drift and (best is None or d < abs(findings[best]["row"] - label["row"])):
                best = i
        if best is None:
            stale.append(label)
        else:
            paired[best] = label
    return paired, stale


def problem_found(problem: Dict[str, Any], findings: List[Dict[str, Any]], drift: int) -> bool:
    codes = problem.get("codes")
    for f in findings:
        if f["severity"] not in LOUD or f["path"] != problem["path"]:
            continue
        if f["cell"] != problem.get("cell"):
            continue
        if abs(f["row"] - problem["row"]) > drift:
            continue
        if codes and f["code"] not in codes:
            continue
        return True
    return False


def where(item: Dict[str, Any]) -> str:
    """path:row, or path[cell N]:row inside a notebook (rows count from the cell's first line)."""
    cell = item.get("cell")
    return f"{item['path']}[cell {cell}]:{item['row']}" if cell else f"{item['path']}:{item['row']}"


def ratio(num: int, den: int) -> str:
    return f"{num / den:.3f}" if den else "n/a"


def score_repo(
    name: str, findings: List[Dict[str, Any]], entry: Dict[str, Any], drift: int
) -> Dict[str, Any]:
    paired, stale = match_findings(findings, entry.get("findings", []), drift)
    s: Dict[str, Any] = {
        "repo": name,
        "commit": entry.get("commit", ""),
        "pin": entry.get("pinned_sdk", ""),
        "findings": 0,
        "tp": 0,
        "fp": 0,
        "unjudged": 0,
        "info": 0,
        "info_tp": 0,
        "info_fp": 0,
        "info_unjudged": 0,
        "problems": 0,
        "missed": 0,
        "rows": [],
        "stale": stale,
        "missed_rows": [],
    }
    for i, f in enumerate(findings):
        label = paired.get(i)
        verdict = label["verdict"] if label else None
        prefix = "" if f["severity"] in LOUD else "info_"
        if f["severity"] in LOUD:
            s["findings"] += 1
        else:
            s["info"] += 1
        if verdict == "true":
            s[prefix + "tp"] += 1
        elif verdict == "false":
            s[prefix + "fp"] += 1
        else:
            s[prefix + "unjudged"] += 1
        s["rows"].append((f, verdict, label.get("reason", "") if label else ""))
    # A finding judged false is no detection of a problem that happens to lie a row or two away.
    detecting = [f for i, f in enumerate(findings) if paired.get(i, {}).get("verdict") != "false"]
    for p in entry.get("problems", []):
        s["problems"] += 1
        if not problem_found(p, detecting, drift):
            s["missed"] += 1
            s["missed_rows"].append(p)
    return s


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--root", type=Path, default=DEFAULT_ROOT, help="folder of owner+name checkouts"
    )
    ap.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    ap.add_argument(
        "--repos", type=Path, default=DEFAULT_REPOS, help="repos.json (which repos to run)"
    )
    ap.add_argument("--repo", action="append", default=[], help="only this owner+name (repeatable)")
    ap.add_argument("--drift", type=int, default=3, help="rows a label may be off by (default 3)")
    ap.add_argument("--list", action="store_true", help="list every finding with its verdict")
    ap.add_argument("--unjudged", action="store_true", help="list only findings without a label")
    ap.add_argument("--missed", action="store_true", help="list labelled problems nothing reported")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per repo")
    ap.add_argument("--json", type=Path, help="also write the findings and scores here")
    args = ap.parse_args(argv)

    labels = (
        {e["repo"]: e for e in json.loads(args.labels.read_text())} if args.labels.exists() else {}
    )
    if args.repos.exists():
        names = [r["repo"] for r in json.loads(args.repos.read_text())]
    else:
        names = sorted(p.name for p in args.root.iterdir() if p.is_dir())
    if args.repo:
        names = [n for n in names if n in args.repo] or args.repo

    results = []
    for name in names:
        repo_dir = args.root / name
        if not repo_dir.is_dir():
            print(f"{name}: not checked out under {args.root}; skipped", file=sys.stderr)
            continue
        findings = run_mem0lint(repo_dir, args.timeout)
        s = score_repo(name, findings, labels.get(name, {}), args.drift)
        results.append(s)
        if args.list or args.unjudged:
            for f, verdict, reason in s["rows"]:
                if args.unjudged and verdict is not None:
                    continue
                v = {"true": "TP", "false": "FP", None: "??"}[verdict]
                print(
                    f"{v} {name} {where(f)} {f['code']} {f['severity']}"
                    f" {f['message']}" + (f"  -- {reason}" if reason else "")
                )
        if args.missed:
            for p in s["missed_rows"]:
                print(f"MISSED {name} {where(p)} {p['kind']}  -- {p.get('reason', '')}")
        for label in s["stale"]:
            print(
                f"STALE {name} {where(label)} {label['code']}: no such finding now",
                file=sys.stderr,
            )

    head = (
        "repo",
        "commit",
        "pin",
        "findings",
        "TP",
        "FP",
        "unjudged",
        "problems",
        "missed",
        "info T/F/?",
    )
    lines = [head]
    tot = {
        k: 0
        for k in (
            "findings",
            "tp",
            "fp",
            "unjudged",
            "problems",
            "missed",
            "info_tp",
            "info_fp",
            "info_unjudged",
        )
    }
    for s in results:
        for k in tot:
            tot[k] += s[k]
        lines.append(
            (
                s["repo"],
                s["commit"][:10],
                s["pin"],
                str(s["findings"]),
                str(s["tp"]),
                str(s["fp"]),
                str(s["unjudged"]),
                str(s["problems"]),
                str(s["missed"]),
                f"{s['info_tp']}/{s['info_fp']}/{s['info_unjudged']}",
            )
        )
    lines.append(
        (
            "TOTAL",
            "",
            "",
            str(tot["findings"]),
            str(tot["tp"]),
            str(tot["fp"]),
            str(tot["unjudged"]),
            str(tot["problems"]),
            str(tot["missed"]),
            f"{tot['info_tp']}/{tot['info_fp']}/{tot['info_unjudged']}",
        )
    )
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    for row in lines:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    found = tot["problems"] - tot["missed"]
    print(
        f"\nprecision (error/warning, judged) = {tot['tp']}/{tot['tp'] + tot['fp']} = "
        f"{ratio(tot['tp'], tot['tp'] + tot['fp'])}"
        f"   recall (labelled problems) = {found}/{tot['problems']} = "
        f"{ratio(found, tot['problems'])}"
        f"   unjudged = {tot['unjudged']}"
    )
    if args.json:
        out = []
        for s in results:
            out.append(
                {k: s[k] for k in s if k not in ("rows", "stale", "missed_rows")}
                | {"list": [dict(f, verdict=v) for f, v, _ in s["rows"]]}
            )
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
