"""The entity-id rules of old open source releases (MEM411, MEM412, MEM413), against the wheels of
those releases: each generated call is run on the release's own `Memory` / `AsyncMemory` (store,
models and telemetry stubbed; the entity check comes before any of them), and is reported
exactly when it raises the release's entity-id error, with an exception the rule predicts. The
one gap allowed: a call with a keyword that some release of the rule's range does not take (the
rule cannot tell which release of its range a project runs: that call may raise TypeError).

The wheels are downloaded from PyPI on first use (`pip download --no-deps`, a cache outside the
repository): the installed mem0ai is the newest, and these releases cannot be installed beside it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from packaging.version import Version
from test_version_ranges import pinned

from mem0lint import engine, failures
from mem0lint.rules.entities.mem412_oss_entity_keyword_before_2 import KEYWORDS as MEM412_KEYWORDS
from mem0lint.rules.entities.mem413_oss_entity_before_0_1_100 import KEYWORDS as MEM413_KEYWORDS
from mem0lint.sdk.mem0_arguments import OSS_ADD_PARAMS
from mem0lint.sdk.releases import OSS_ADD_KEYWORD_ONLY

CODES = ("MEM411", "MEM412", "MEM413")
# 0.1.32: the release QTRAN_PLUS pins; 0.1.99 / 0.1.100: the last of `filters` keys counting and
# the first of keyword-only scopes; 0.1.117 / 0.1.118: ValueError, then mem0's ValidationError;
# 1.0.11: the last release before 2.0.
RELEASES = ("0.1.32", "0.1.99", "0.1.100", "0.1.117", "0.1.118", "1.0.11")

IDS = ("", 'user_id="u"', "user_id=None", 'agent_id="a"', "run_id=None")
FILTERS = (
    "",
    "filters=None",
    "filters={}",
    'filters={"user_id": "u"}',
    'filters={"user_id": None}',
    'filters={"topic": "x"}',
    'filters={"AND": [{"user_id": "u"}]}',
)
EXTRAS = {
    "add": ("", 'metadata={"user_id": "u"}', "infer=False"),
    "search": ("", "limit=3", "threshold=0.5"),
    "get_all": ("", "limit=3"),
}
FIRST = {"add": '"I prefer tea"', "search": '"tea"', "get_all": ""}


def calls(method: str) -> list[str]:
    """Every combination of an id keyword, a `filters` and another keyword, as source."""
    found = []
    for parts in itertools.product(IDS, FILTERS, EXTRAS[method]):
        arguments = ", ".join(p for p in (FIRST[method], *parts) if p)
        found.append(f"memory.{method}({arguments})")
    return found


# Run in a child process with the release's unpacked wheel first on sys.path: prints, for each
# call, "signature" (its arguments do not bind), "entity <exception>" (the entity check raised)
# or "proceeds" (anything else: the check passed).
RUNNER = r"""
import asyncio, inspect, json, logging, sys, warnings
from unittest.mock import MagicMock
warnings.simplefilter("ignore"); logging.disable(logging.CRITICAL)
import mem0.memory.main as main
main.capture_event = lambda *a, **k: None
MARKERS = ("user_id, agent_id or run_id", "'user_id', 'agent_id', or 'run_id'")
def outcome(class_name, call):
    cls = getattr(main, class_name)
    stub = type("Stub", (cls,), {"__getattr__": lambda self, name: MagicMock(name=name)})
    memory = stub.__new__(stub)
    memory.__dict__.update(enable_graph=False, api_version="v1.1", version="v1.1")
    method = call.split("(", 1)[0].split(".", 1)[1]
    arguments = eval("(lambda *a, **k: (a, k))" + call[call.index("("):])
    try:
        inspect.signature(getattr(memory, method)).bind(*arguments[0], **arguments[1])
    except TypeError:
        return "signature"
    try:
        result = eval(call, {"memory": memory})
        if inspect.isawaitable(result):
            asyncio.run(asyncio.wait_for(result, 10))
    except BaseException as error:
        if any(marker in str(error) for marker in MARKERS):
            return f"entity {type(error).__module__}.{type(error).__qualname__}"
    return "proceeds"
print(json.dumps([outcome(class_name, call) for class_name, call in json.load(sys.stdin)]))
"""


def wheel(release: str) -> Path:
    """The unpacked mem0ai wheel of `release` (downloaded once into the cache; two test workers
    may ask at once: each unpacks in a scratch folder and the first rename wins)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mem0lint-tests"
    target = cache / f"mem0ai-{release}"
    if not (target / "mem0").is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache) as scratch:
            command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
            command += ["--only-binary", ":all:", "--dest", scratch, f"mem0ai=={release}"]
            subprocess.run(command, check=True, timeout=300)
            (found,) = Path(scratch).glob(f"mem0ai-{release}-*.whl")
            unpacked = Path(scratch) / "unpacked"
            with zipfile.ZipFile(found) as archive:
                archive.extractall(unpacked)
            with contextlib.suppress(OSError):  # another worker's is there already
                os.rename(unpacked, target)
    return target


@functools.cache
def outcomes_on(release: str) -> dict[tuple[str, str], str]:
    """(class, call) -> its outcome on `release`, for every class the release has and every
    call of `calls` (one child process per release: importing mem0 takes seconds)."""
    asked = [(name, call) for name in classes(release) for m in EXTRAS for call in calls(m)]
    return run_on_release(release, RUNNER, asked)


def run_on_release(release: str, runner: str, asked: list[tuple[str, str]]) -> dict:
    """`runner` in a child process with `release`'s unpacked wheel first on sys.path, given
    `asked` as JSON on stdin; what it printed last (a JSON list, one answer per question), by
    question."""
    environment = {**os.environ, "PYTHONPATH": str(wheel(release)), "MEM0_TELEMETRY": "False"}
    done = subprocess.run(
        [sys.executable, "-c", runner],
        input=json.dumps(asked),
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return dict(zip(asked, json.loads(done.stdout.strip().splitlines()[-1])))


def classes(release: str) -> tuple[str, ...]:
    """AsyncMemory came in 0.1.89."""
    return ("Memory",) if Version(release) < Version("0.1.89") else ("Memory", "AsyncMemory")


def reported(release: str, class_name: str, sources: list[str]) -> dict[int, list[str]]:
    """For each call (by its index), the codes among CODES reported at `release`."""
    awaiting = "await " if class_name == "AsyncMemory" else ""
    program = f"from mem0 import {class_name}\n\nmemory = {class_name}()\n"
    program += "".join(f"{awaiting}{source}\n" for source in sources)
    settings = engine.Settings(select=CODES, sdks=pinned("mem0-oss", release))
    found: dict[int, list[str]] = {}
    for diagnostic in engine.lint(engine.parse(program), engine.RuleSet(settings)):
        found.setdefault(diagnostic.start[0] - 4, []).append(diagnostic.code)
    return found


def judged_keywords(release: str, method: str) -> frozenset[str]:
    """The keywords the rule judging `method` at `release` reads: a call with another one is
    left alone, since some release of the rule's range does not take it (TypeError first)."""
    if Version(release) < Version(OSS_ADD_KEYWORD_ONLY):
        return MEM413_KEYWORDS.get(method, frozenset())
    if method == "add":
        return frozenset(OSS_ADD_PARAMS)
    return MEM412_KEYWORDS[method]


@pytest.mark.parametrize("release", RELEASES)
def test_reported_exactly_when_the_release_raises_its_entity_error(release):
    outcomes = outcomes_on(release)
    wrong = []
    for class_name, method in itertools.product(classes(release), EXTRAS):
        sources = calls(method)
        found = reported(release, class_name, sources)
        judged = judged_keywords(release, method)
        for index, source in enumerate(sources):
            outcome, codes = outcomes[class_name, source], found.get(index, [])
            keywords = set(re.findall(r"(\w+)=", source))
            if outcome.startswith("entity ") and (codes or keywords <= judged):
                raised = outcome.split(" ", 1)[1]
                predicted = [failures.predicted(code, "mem0-oss") or () for code in codes]
                if len(codes) != 1 or raised not in predicted[0]:
                    wrong.append(f"{class_name} {source}: raises {raised}, reported {codes}")
            elif codes and not outcome.startswith("entity "):
                wrong.append(f"{class_name} {source}: {outcome}, yet reported {codes}")
    assert not wrong, f"mem0ai {release}:\n" + "\n".join(wrong)


def test_the_oracle_sees_each_kind_of_outcome():
    """The comparison above is worth something only if the releases raise, and not always."""
    seen = {outcome.split(" ")[0] for outcome in outcomes_on("0.1.32").values()}
    assert seen == {"signature", "entity", "proceeds"}
