"""The scoring of scripts/realworld.py (the real-world check), on made-up findings and labels.

The script itself lints public checkouts and is not run here; these tests pin how a label is
matched to a finding and how precision and recall are counted, so the figures it prints mean
what the README says.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "realworld.py"
LABELS = Path(__file__).resolve().parents[1] / "bench" / "realworld" / "labels.json"
REPOS = Path(__file__).resolve().parents[1] / "bench" / "realworld" / "repos.json"


def load():
    spec = importlib.util.spec_from_file_location("realworld", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["realworld"] = mod
    spec.loader.exec_module(mod)
    return mod


rw = load()


def finding(path, row, code, severity="error", cell=None):
    return {
        "path": path,
        "row": row,
        "code": code,
        "severity": severity,
        "message": "",
        "cell": cell,
    }


def test_label_matches_nearest_finding_within_drift_same_code():
    fs = [
        finding("a.py", 10, "MEM101"),
        finding("a.py", 12, "MEM101"),
        finding("a.py", 11, "MEM102"),
    ]
    labels = [{"path": "a.py", "row": 12, "code": "MEM101", "verdict": "true"}]
    paired, stale = rw.match_findings(fs, labels, drift=3)
    assert paired == {1: labels[0]} and stale == []


def test_label_beyond_drift_or_other_code_is_stale():
    fs = [finding("a.py", 10, "MEM101")]
    labels = [
        {"path": "a.py", "row": 14, "code": "MEM101", "verdict": "true"},
        {"path": "a.py", "row": 10, "code": "MEM102", "verdict": "true"},
    ]
    paired, stale = rw.match_findings(fs, labels, drift=3)
    assert paired == {} and len(stale) == 2


def test_one_finding_takes_one_label():
    fs = [finding("a.py", 10, "MEM101")]
    labels = [
        {"path": "a.py", "row": 10, "code": "MEM101", "verdict": "true"},
        {"path": "a.py", "row": 11, "code": "MEM101", "verdict": "false"},
    ]
    paired, stale = rw.match_findings(fs, labels, drift=3)
    assert list(paired.values()) == [labels[0]] and stale == [labels[1]]


def test_notebook_labels_match_only_their_cell():
    fs = [finding("n.ipynb", 1, "MEM101", cell=3), finding("n.ipynb", 1, "MEM101", cell=5)]
    labels = [{"path": "n.ipynb", "row": 1, "cell": 5, "code": "MEM101", "verdict": "false"}]
    paired, _ = rw.match_findings(fs, labels, drift=3)
    assert list(paired) == [1]


def test_score_counts_precision_recall_and_info_apart():
    fs = [
        finding("a.py", 10, "MEM101"),  # judged true, detects problem at 10
        finding("a.py", 20, "MEM107", "warning"),  # judged false, must not detect problem at 21
        finding("a.py", 30, "MEM102", "warning"),  # unjudged
        finding("a.py", 40, "MEM407", "info"),  # info, judged false
    ]
    entry = {
        "findings": [
            {"path": "a.py", "row": 10, "code": "MEM101", "verdict": "true"},
            {"path": "a.py", "row": 20, "code": "MEM107", "verdict": "false"},
            {"path": "a.py", "row": 40, "code": "MEM407", "verdict": "false"},
        ],
        "problems": [
            {"path": "a.py", "row": 10, "kind": "k"},
            {"path": "a.py", "row": 21, "kind": "k"},
            {"path": "b.py", "row": 10, "kind": "k"},
        ],
    }
    s = rw.score_repo("r", fs, entry, drift=3)
    assert (s["findings"], s["tp"], s["fp"], s["unjudged"]) == (3, 1, 1, 1)
    assert (s["info"], s["info_tp"], s["info_fp"], s["info_unjudged"]) == (1, 0, 1, 0)
    assert (s["problems"], s["missed"]) == (3, 2)
    assert [p["path"] for p in s["missed_rows"]] == ["a.py", "b.py"]


def test_problem_with_codes_needs_one_of_them():
    fs = [finding("a.py", 10, "MEM102", "warning")]
    assert rw.problem_found({"path": "a.py", "row": 10, "kind": "k"}, fs, 3)
    assert not rw.problem_found(
        {"path": "a.py", "row": 10, "kind": "k", "codes": ["MEM101"]}, fs, 3
    )


def test_committed_labels_are_well_formed_and_hold_no_code():
    labels = json.loads(LABELS.read_text())
    repos = {r["repo"]: r for r in json.loads(REPOS.read_text())}
    assert {e["repo"] for e in labels} == set(repos)
    for e in labels:
        assert e["commit"] == repos[e["repo"]]["commit"] and len(e["commit"]) == 40
        for lab in e["findings"]:
            assert set(lab) <= {"path", "row", "cell", "code", "verdict", "reason"}
            assert lab["verdict"] in ("true", "false") and lab["code"].startswith("MEM")
            assert "\n" not in lab["reason"] and len(lab["reason"]) < 200
        for p in e["problems"]:
            assert set(p) <= {"path", "row", "cell", "kind", "reason", "codes"}
            assert "\n" not in p["reason"] and len(p["reason"]) < 200
