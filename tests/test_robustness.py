"""A sample of the robustness run (scripts/robustness.py) in the normal test suite.

The full run (every .py file of the interpreter's standard library and site-packages) is
documented in the README; here a random sample and a sample of the files the prefilter lets
through (those that are parsed, bound and checked) must come out clean, well within a minute.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "robustness.py"


def load_script():
    spec = importlib.util.spec_from_file_location("robustness", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["robustness"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_random_sample_is_clean(capsys):
    start = time.perf_counter()
    assert load_script().main(["--sample", "400", "--seed", "7"]) == 0, capsys.readouterr().out
    assert time.perf_counter() - start < 60


def test_files_that_pass_the_prefilter_are_clean(capsys):
    start = time.perf_counter()
    status = load_script().main(["--may-matter", "--sample", "30", "--seed", "3"])
    assert status == 0, capsys.readouterr().out
    assert time.perf_counter() - start < 60
