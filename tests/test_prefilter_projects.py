"""The prefilter loses no finding on whole projects whose files import each other by common names.

The prefilter drops a file unparsed unless it spells an SDK word itself or a name it imports
and uses again resolves, on disk, to a module that leads to one (batch.triage,
ModuleFinder.reaches_sdk). Projects are generated at random (seeded): packages, a `src/`
layout, the same common module names (`config`, `utils`, `memory`...) in several packages,
modules that build a client, that re-export one (relative and absolute imports, `import a.b as
m`, a factory, a package `__init__.py`), that use one, that only look alike, and conftest
fixtures. Every project is checked twice: through the pipeline (triage, then the check of what
is kept) and with every file parsed and checked against the same project index. The findings
must be identical; and the projects must be worth the comparison (cross-module findings, and
files the prefilter drops although they import a common name that some SDK module also has).
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from mem0lint import batch, engine, pipeline, runner
from mem0lint.modes import Mode
from mem0lint.modules import ModuleFinder
from mem0lint.sources import SourceFile

COMMON = ["config", "utils", "helpers", "settings", "core", "memory", "db", "common", "deps"]
CALL = 'search("q", filters={"user_id": "u"}, limit=3)'  # MEM102 on a Platform client


def _module_name(package: str, name: str) -> str:
    return f"{package.replace('/', '.')}.{name}" if package else name


def generate(root: Path, seed: int) -> dict[str, str]:
    """{relative path: text} of a random project, written under `root`."""
    rng = random.Random(seed)
    src = rng.random() < 0.4
    base = "src/" if src else ""
    packages = ["app", "app/sub", "lib", ""]  # "" : top-level modules beside the packages
    modules: list[tuple[str, str]] = []  # (package, name)
    for package in packages:
        for name in rng.sample(COMMON, rng.randint(2, 5)):
            modules.append((package, name))
    rng.shuffle(modules)
    files: dict[str, str] = {}
    providers: list[tuple[str, str]] = []  # modules known to bind `client` to a client

    def path_of(package: str, name: str) -> str:
        folder = f"{base}{package}/" if package else ""
        return f"{folder}{name}.py"

    def import_of(importer: tuple[str, str], target: tuple[str, str], name: str) -> str:
        """An import of `name` from the module `target`, as `importer` may spell it."""
        (ipkg, _), (tpkg, tname) = importer, target
        if ipkg and ipkg == tpkg and rng.random() < 0.5:
            return f"from .{tname} import {name}"
        if ipkg and tpkg and ipkg.startswith(tpkg + "/") and rng.random() < 0.5:
            return f"from ..{tname} import {name}"
        return f"from {_module_name(tpkg, tname)} import {name}"

    for index, module in enumerate(modules):
        package, name = module
        earlier = modules[:index]
        role = rng.choice(["sdk", "reexport", "user", "dotted", "plain", "plain", "lookalike"])
        if role in ("reexport", "user", "dotted") and not providers:
            role = "sdk" if rng.random() < 0.5 else "plain"
        if role == "sdk":
            text = (
                "from mem0 import MemoryClient\n\n"
                "client = MemoryClient()\n\n\n"
                "def make() -> MemoryClient:\n    return MemoryClient()\n"
            )
            if rng.random() < 0.5:
                text += f"\n\ndef warm():\n    client.{CALL}\n"
            providers.append(module)
        elif role == "reexport":
            target = rng.choice(providers)
            text = import_of(module, target, "client") + "\n"
            if rng.random() < 0.5:
                text += "\n__all__ = ['client']\n"
            providers.append(module)
        elif role == "user":
            target = rng.choice(providers)
            what = rng.choice(["client", "make"])
            receiver = "client" if what == "client" else "make()"
            text = (
                import_of(module, target, what)
                + f"\n\n\ndef run():\n    return {receiver}.{CALL}\n"
            )
        elif role == "dotted":
            target = rng.choice(providers)
            tpkg, tname = target
            spelled = [f"import {_module_name(*target)} as m"]
            if tpkg:  # the module imported from its package: `from app import config as m`
                spelled.append(f"from {tpkg.replace('/', '.')} import {tname} as m")
            if tpkg and tpkg == package:
                spelled.append(f"from . import {tname} as m")
            text = f"{rng.choice(spelled)}\n\n\ndef run():\n    return m.client.{CALL}\n"
        elif role == "lookalike":
            text = "client = object()\n\n\ndef make():\n    return client\n"
            if earlier and rng.random() < 0.5:
                other = rng.choice(earlier)
                text = import_of(module, other, "X") + "\n" + text
        else:  # plain: imports a common name that is not a client, says "memories"
            text = 'X = "memories"\n'
            if earlier:
                other = rng.choice(earlier)
                text = import_of(module, other, "X") + f"\n\nY = X\n{text}"
            text += f"\n\ndef run(client):\n    return client.{CALL}\n"
        files[path_of(package, name)] = text
    for package in packages:
        if package:
            init = ""
            inside = [m for m in providers if m[0] == package]
            if inside and rng.random() < 0.5:
                init = f"from .{inside[0][1]} import client\n"
                providers.append((package.rpartition("/")[0], package.rpartition("/")[2]))
            files[f"{base}{package}/__init__.py"] = init
    # A package re-export used from a script, and tests with a conftest fixture.
    package_providers = [p for p in providers if (p[0] + "/" + p[1]).strip("/") in packages]
    if package_providers:
        target = rng.choice(package_providers)
        files["scripts/run_it.py"] = (
            f"from {_module_name(*target)} import client\n\nclient.{CALL}\n"
        )
    fixture_from = rng.choice(providers) if providers else None
    if fixture_from is not None:
        files["tests/conftest.py"] = (
            "import pytest\n\n"
            f"from {_module_name(*fixture_from)} import client as c\n\n\n"
            "@pytest.fixture\ndef memory():\n    return c\n"
        )
    files["tests/test_use.py"] = f"def test_it(memory):\n    memory.{CALL}\n"
    files["tests/test_plain.py"] = f"from config import X\n\n\ndef test_it(db):\n    db.{CALL}\n"
    (root / "pyproject.toml").write_text("[project]\nname = 'generated'\n")
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return files


def _sources(root: Path) -> list[SourceFile]:
    return [SourceFile(p) for p in sorted(root.rglob("*.py"))]


def _findings(reports, root: Path) -> set[tuple]:
    return {
        (Path(r.source.fspath).relative_to(root).as_posix(), d.code, d.start, d.message)
        for r in reports
        for d in r.diagnostics
    }


def filtered(root: Path, monkeypatch, within: Path | None = None) -> tuple[set, list[str]]:
    """Through the pipeline: triage, then the check of what it kept. (findings, files parsed)
    `within`: the folder the run is given (default: the whole project)."""
    within = within or root
    parsed: list[str] = []

    def counting(source, *args, **kwargs):
        parsed.append(Path(source.fspath).relative_to(root).as_posix())
        return runner.process(source, *args, **kwargs)

    monkeypatch.setattr(batch, "process", counting)
    settings = engine.Settings()
    finder = ModuleFinder()
    factory = pipeline.ProjectRecipe(finder, {})
    reports = pipeline.check_files(
        _sources(within), settings, Mode.CHECK, [within], 1, None, factory, finder
    )
    monkeypatch.undo()
    return _findings(reports, root), parsed


def unfiltered(root: Path, within: Path | None = None) -> set:
    """Every file parsed and checked, with the same kind of project index."""
    within = within or root
    rules = engine.RuleSet(engine.Settings())
    finder = ModuleFinder()
    index = pipeline.ProjectRecipe(finder, {})()
    reports = [
        runner.process(source, rules, Mode.CHECK, [within], project=index)
        for source in _sources(within)
    ]
    return _findings(reports, root)


SEEDS = range(40)


@pytest.mark.parametrize("seed", SEEDS)
def test_filtered_run_equals_unfiltered_run(tmp_path, monkeypatch, seed):
    generate(tmp_path, seed)
    found, _ = filtered(tmp_path, monkeypatch)
    assert found == unfiltered(tmp_path)


def test_generated_projects_are_worth_the_comparison(tmp_path, monkeypatch):
    """Cross-module findings exist (in files that spell no SDK word), and files that import a
    common name some SDK module also has are dropped unparsed."""
    cross = dropped_common = 0
    for seed in SEEDS:
        root = tmp_path / str(seed)
        root.mkdir()
        files = generate(root, seed)
        found, parsed = filtered(root, monkeypatch)
        cross += len({f for f, *_ in found if "mem0" not in files[f]})
        sdk_names = {Path(f).stem for f, text in files.items() if "MemoryClient" in text}
        for relative, text in files.items():
            if relative in parsed or "mem0" in text:
                continue
            if any(f"import {n}" in text or f".{n} import" in text for n in sdk_names):
                dropped_common += 1
    print(f"cross-module findings {cross}, dropped importers of a common name {dropped_common}")
    assert cross > 100
    assert dropped_common > 20


def test_a_run_of_a_folder_that_spells_no_sdk_word_keeps_what_leads_outside_it(
    tmp_path, monkeypatch
):
    """Each folder of a generated project given alone, where none of its files spells an SDK
    word: the triage first asks whether everything the dropped files lead to is known to spell
    none (ModuleFinder.closed_without_sdk); the modules outside the run that build the client
    must still keep their importers. The findings are those of every file parsed."""
    across = 0
    for seed in SEEDS:
        root = tmp_path / str(seed)
        root.mkdir()
        files = generate(root, seed)
        folders = {str(Path(f).parent) for f in files} - {"."}
        for folder in sorted(folders):
            inside = [f for f in files if f.startswith(folder + "/")]
            if any("mem0" in files[f] for f in inside):
                continue  # a file of the run spells the SDK: not the case under test
            found, _ = filtered(root, monkeypatch, root / folder)
            assert found == unfiltered(root, root / folder), (seed, folder)
            across += len(found)
    print(f"findings in runs of folders that spell no SDK word: {across}")
    assert across > 40


def test_a_tree_that_leads_to_no_sdk_word_is_dropped_and_watched(tmp_path):
    """Nothing in the tree spells an SDK word: every file is dropped unparsed, and what the
    dropped files import is recorded as consulted, so that a cached verdict falls when one of
    those modules starts building a client."""
    from mem0lint.cache import Cache

    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "helpers.py").write_text("client = None\n")
    (tmp_path / "app.py").write_text(f"from helpers import client\n\nclient.{CALL}\n")
    (tmp_path / "plain.py").write_text("import os\nprint(os.sep)\n")

    def run() -> tuple[list, set]:
        finder = ModuleFinder()
        cache = Cache(tmp_path / "cache", engine.Settings())
        found = batch.triage(_sources(tmp_path), engine.Settings(), Mode.CHECK, cache, finder)
        factory = pipeline.ProjectRecipe(finder, {})
        reports = pipeline.check_files(
            _sources(tmp_path), engine.Settings(), Mode.CHECK, [tmp_path], 1, cache, factory
        )
        return [Path(s.fspath).name for _, s, _ in found.todo], _findings(reports, tmp_path)

    finder = ModuleFinder()
    found = batch.triage(_sources(tmp_path), engine.Settings(), Mode.CHECK, None, finder)
    assert found.todo == [] and len(found.dropped) == 3
    assert str(tmp_path / "helpers.py") in finder.consulted  # app.py imports it
    assert str(tmp_path / "app.py") not in finder.consulted  # its own bytes decide its verdict
    assert run() == ([], set())
    (tmp_path / "helpers.py").write_text("from mem0 import MemoryClient\nclient = MemoryClient()\n")
    past = time.time() - 60  # not within the timestamp tick of a run (never trusted there)
    os.utime(tmp_path / "helpers.py", (past, past))
    kept, findings = run()
    assert sorted(kept) == ["app.py", "helpers.py"]
    assert {(f, code) for f, code, *_ in findings} == {("app.py", "MEM102")}


def test_a_common_name_alone_keeps_nothing(tmp_path, monkeypatch):
    """`config` builds a client in one package; a top-level `config.py` says "memories" and is
    imported by many files: none of those is parsed. The importer of the real one is."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "app").mkdir()
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/config.py").write_text(
        "from mem0 import MemoryClient\nclient = MemoryClient()\n"
    )
    (tmp_path / "app/use.py").write_text(f"from .config import client\nclient.{CALL}\n")
    (tmp_path / "config.py").write_text('X = "memories"\nclient = None\n')
    for i in range(20):
        (tmp_path / f"plain_{i}.py").write_text(f"from config import X, client\nclient.{CALL}\n")
    found, parsed = filtered(tmp_path, monkeypatch)
    assert sorted(parsed) == ["app/config.py", "app/use.py"]
    assert found == unfiltered(tmp_path)
    assert {f for f, *_ in found} == {"app/use.py"}


def test_a_file_libcst_rejects_is_not_analysed_when_dropped(tmp_path):
    """The one-word trap around a file Python accepts and libcst rejects (a parenthesised
    annotated name, as in the standard library's test_grammar.py): the file is dropped, never
    parsed, and the run exits 0."""
    import subprocess
    import sys

    import libcst

    rejected = "from config import X\n\n\ndef f():\n    (name): int\n    return X\n"
    compile(rejected, "grammar.py", "exec")  # Python accepts it
    with pytest.raises(libcst.ParserSyntaxError):
        libcst.parse_module(rejected)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "grammar.py").write_text(rejected)
    (tmp_path / "config.py").write_text('MEMORIES_URL = "/v1/memories/"\nX = "memories"\n')
    for i in range(3):
        (tmp_path / f"use{i}.py").write_text("from config import X\n\nprint(X)\n")
    result = subprocess.run(
        [sys.executable, "-m", "mem0lint", "--no-cache", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All checks passed" in result.stdout


def _dotted_uses_reference(data: bytes, bound: str, module: str, limit: int = 20) -> list[str]:
    """The byte-by-byte scan `_dotted_uses` replaced, kept here as its specification."""
    import re

    dotted = re.compile(rb"\w+(?:\.\w+)*")
    word = bound.encode("utf-8") + b"."
    parts = module.split(".")
    spelled_in_full = bound == parts[0] and bound != module
    found: dict[str, None] = {}
    at = data.find(word)
    while at >= 0 and len(found) < limit:
        before = data[at - 1 : at] if at else b""
        match = dotted.match(data, at + len(word))
        at = data.find(word, at + len(word))
        if before and (before.isalnum() or before in b"_."):
            continue
        if match is None:
            continue
        rest = match.group(0).decode("utf-8", "replace").split(".")
        full = [bound, *rest] if spelled_in_full else [*parts, *rest]
        for end in range(len(parts) + 1, len(full)):
            found[".".join(full[:end])] = None
    return list(found)


@pytest.mark.parametrize("seed", range(300))
def test_dotted_uses_scan_equals_its_specification(seed):
    from mem0lint.modules import _dotted_uses

    rng = random.Random(seed)
    pieces = ["app", "m", "x", "é", "memory", "client", "_", "1", ".", " ", "\n", "(", "a.b"]
    data = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 400))).encode("utf-8")
    bound = rng.choice(["app", "m", "x", "memory"])
    module = rng.choice([bound, f"{bound}.deps", "app.memory", "pkg.sub"])
    limit = rng.choice([1, 3, 20])
    assert _dotted_uses(data, bound, module, limit) == _dotted_uses_reference(
        data, bound, module, limit
    )


def _triage(root: Path, jobs: int) -> tuple[list, list, set]:
    finder = ModuleFinder()
    found = batch.triage(_sources(root), engine.Settings(), Mode.CHECK, None, finder, None, jobs)
    kept = [index for index, _, _ in found.todo]
    dropped = [index for index, *_ in found.dropped]
    return kept, dropped, finder.consulted


def test_a_pooled_scan_reads_each_file_once_and_cancels_no_future(tmp_path, monkeypatch):
    """The workers take chunks of files from the start, this process from the end, each chunk
    claimed in shared memory (batch.Claims): taking a chunk back with `Future.cancel()` once hung
    the pool's shutdown in CI. Every file is scanned by exactly one process."""
    import multiprocessing
    from concurrent.futures import Future

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the pool is used only where processes can be forked")
    (tmp_path / "tree").mkdir()
    generate(tmp_path / "tree", 0)
    log = tmp_path / "scanned.log"
    scan = batch._scan

    def logged(path, names, modules):  # the forked workers inherit it
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(path + "\n")  # one short append: whole, whichever process writes
        return scan(path, names, modules)

    def refused(self):
        raise AssertionError("a pooled scan cancelled a future")

    monkeypatch.setattr(batch, "_scan", logged)
    monkeypatch.setattr(Future, "cancel", refused)
    monkeypatch.setattr(batch, "SCAN_IN_POOL_FROM", 2)
    sources = _sources(tmp_path / "tree")
    batch.triage(sources, engine.Settings(), Mode.CHECK, None, ModuleFinder(), None, 2)
    scanned = log.read_text(encoding="utf-8").splitlines()
    assert len(scanned) == len(set(scanned))
    assert set(scanned) == {os.path.abspath(source.fspath) for source in sources}


@pytest.mark.parametrize("seed", range(0, 40, 5))
def test_a_scan_in_a_pool_equals_the_scan_in_this_process(tmp_path, monkeypatch, seed):
    """Many files are read, scanned and their imports resolved in forked workers
    (batch._scanned): the files kept and dropped, what the run consulted (the cache's
    dependencies) and the findings are those of the scan in this process."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the pool is used only where processes can be forked")
    generate(tmp_path, seed)
    serial = _triage(tmp_path, 1)
    monkeypatch.setattr(batch, "SCAN_IN_POOL_FROM", 2)
    pooled = _triage(tmp_path, 2)
    assert pooled == serial
    assert serial[0] and serial[1]  # some kept, some dropped
    finder = ModuleFinder()
    factory = pipeline.ProjectRecipe(finder, {})
    reports = pipeline.check_files(
        _sources(tmp_path), engine.Settings(), Mode.CHECK, [tmp_path], 2, None, factory, finder
    )
    assert _findings(reports, tmp_path) == unfiltered(tmp_path)
