"""A run whose files spell no SDK word searches only the imports that can leave the walk.

When every file the walk gave is scanned and none spells an SDK word, an import that can only
find modules in folders the walk saw whole finds files of the run, known to spell none: the
triage searches only the other imports (`sources.Coverage`, `ModuleFinder.uncovered_targets`,
batch.triage). A folder is seen whole unless the walk left out something an import could find
there: a skipped or excluded folder holding modules, a symlinked folder, an excluded module, a
virtual environment. The triage must keep and drop exactly the files it keeps and drops when it
searches every import, on generated projects run whole and folder by folder, and on trees
built to lead out of the walk.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mem0lint import batch, engine, pipeline
from mem0lint.modes import Mode
from mem0lint.modules import ModuleFinder
from mem0lint.sources import Coverage, discover
from tests.test_prefilter_projects import CALL, SEEDS, _findings, generate, unfiltered

CLIENT = "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
USER = f"from helpers import client\n\nclient.{CALL}\n"


def _walk(folder: Path) -> tuple[list, Coverage]:
    coverage = Coverage()
    return list(discover([str(folder)], coverage=coverage)), coverage


def _triage(folder: Path, covered: bool, jobs: int = 1) -> tuple[list, list, set, bool]:
    """(files kept, files dropped, what the run consulted, whether only uncovered imports were
    searched), with or without the walk's coverage."""
    sources, coverage = _walk(folder)
    finder = ModuleFinder()
    finder.coverage = coverage if covered else None
    searched: list[bool] = []
    uncovered = finder.uncovered_targets

    def counting(path, data):
        searched.append(True)
        return uncovered(path, data)

    finder.uncovered_targets = counting  # type: ignore[method-assign]
    found = batch.triage(sources, engine.Settings(), Mode.CHECK, None, finder, None, jobs)
    kept = sorted(source.fspath for _, source, _ in found.todo)
    dropped = sorted(source.fspath for _, source, *_ in found.dropped)
    return kept, dropped, finder.consulted, bool(searched)


def _run(folder: Path, cache: Path | None = None) -> set:
    options = pipeline.Options(
        paths=(str(folder),), no_cache=cache is None, cache_dir=str(cache) if cache else None
    )
    return _findings(pipeline.run(options).reports, folder)


def test_a_walk_knows_what_it_left_out(tmp_path):
    """What an import could find and the walk does not give: the folder holding it is not
    seen whole for that name."""
    root = tmp_path / "project"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "build").mkdir()  # a skipped folder name, with a module in it
    (root / "build/helpers.py").write_text("")
    (root / "pkg/__pycache__").mkdir()  # skipped, but holds compiled files only
    (root / "pkg/__pycache__/x.cpython-311.pyc").write_bytes(b"")
    (root / ".tox").mkdir()  # skipped, and no import can name it
    (root / ".tox/x.py").write_text("")
    (root / "env").mkdir()  # a virtual environment: never walked
    (root / "env/pyvenv.cfg").write_text("")
    (root / "env/site.py").write_text("")
    (root / ".gitignore").write_text("secret.py\n")
    (root / ".git").mkdir()
    (root / "secret.py").write_text("")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/__init__.py").write_text("")
    os.symlink(tmp_path / "elsewhere", root / "linked")  # listed, never entered

    sources, coverage = _walk(root)
    assert sorted(Path(s.fspath).relative_to(root).as_posix() for s in sources) == [
        "pkg/__init__.py"
    ]
    top = os.path.abspath(root)
    assert coverage.covers(top, "pkg")
    assert coverage.covers(top, "missing")  # nothing there: nothing to find
    assert coverage.covers(os.path.join(top, "pkg"), "__pycache__")
    assert coverage.covers(top, "tox")
    for name in ("build", "env", "secret", "linked"):
        assert not coverage.covers(top, name), name
    assert not coverage.covers(str(tmp_path), "project")  # not walked


@pytest.mark.parametrize("seed", SEEDS[::4])
def test_the_triage_keeps_and_drops_the_same_files_with_the_walks_coverage(tmp_path, seed):
    """Generated projects, run whole and folder by folder (the folders whose files spell no
    SDK word are the runs where the coverage is used): the same files kept and dropped as when
    every import is searched."""
    generate(tmp_path, seed)
    folders = sorted({p.parent for p in tmp_path.rglob("*.py")} | {tmp_path})
    used = 0
    for folder in folders:
        with_coverage = _triage(folder, covered=True)
        without = _triage(folder, covered=False)
        assert with_coverage[:2] == without[:2], folder
        used += with_coverage[3]
    assert used  # some runs spelled no SDK word


def test_a_folder_whose_imports_lead_out_of_the_run_keeps_its_importers(tmp_path):
    """The run is one folder; its module imports the client from the folder above (outside
    the run), from a skipped folder, from an excluded module: each importer is kept."""
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    (root / "helpers.py").write_text(CLIENT)  # above the run
    (root / "app/use.py").write_text(USER)
    assert {(f, code) for f, code, *_ in _run(root / "app")} == {("use.py", "MEM102")}

    inside = tmp_path / "inside"
    (inside / "build").mkdir(parents=True)
    (inside / "pyproject.toml").write_text("")
    (inside / "build/helpers.py").write_text(CLIENT)
    (inside / "use.py").write_text(f"from build.helpers import client\n\nclient.{CALL}\n")
    (inside / ".git").mkdir()
    (inside / ".gitignore").write_text("config.py\n")
    (inside / "config.py").write_text(CLIENT)
    (inside / "other.py").write_text(f"from config import client\n\nclient.{CALL}\n")
    assert {(f, code) for f, code, *_ in _run(inside)} == {
        ("use.py", "MEM102"),
        ("other.py", "MEM102"),
    }
    for folder in (root / "app", inside):
        assert _triage(folder, True)[:2] == _triage(folder, False)[:2]
        assert _triage(folder, True)[3]  # the runs took the covered path


def test_a_scan_in_a_pool_with_the_walks_coverage_equals_the_scan_in_this_process(
    tmp_path, monkeypatch
):
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the pool is used only where processes can be forked")
    for index in range(30):
        (tmp_path / f"m{index}.py").write_text(f"import m{(index + 1) % 30}\nimport os\n")
    serial = _triage(tmp_path, True)
    monkeypatch.setattr(batch, "SCAN_IN_POOL_FROM", 2)
    assert _triage(tmp_path, True, jobs=2) == serial
    assert serial[3] and not serial[0] and len(serial[1]) == 30


def test_a_tree_dropped_through_the_walks_coverage_is_watched_whole(tmp_path):
    """Every file of the run and every folder of the walk is recorded as consulted (an import
    may find any of them), so a cached verdict falls when one starts building a client, or
    when a new module appears."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "helpers.py").write_text("client = None\n")
    (tmp_path / "app.py").write_text(USER)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/plain.py").write_text("import os\nprint(os.sep)\n")
    kept, dropped, consulted, searched = _triage(tmp_path, True)
    assert kept == [] and len(dropped) == 3 and searched
    for path in ("helpers.py", "app.py", "pkg/plain.py", "pkg", "."):
        assert os.path.normpath(os.path.abspath(tmp_path / path)) in consulted, path

    cache = tmp_path / "cache"
    assert _run(tmp_path, cache) == set()
    (tmp_path / "helpers.py").write_text(CLIENT)
    past = time.time() - 60  # not within the timestamp tick of a run (never trusted there)
    os.utime(tmp_path / "helpers.py", (past, past))
    assert {(f, code) for f, code, *_ in _run(tmp_path, cache)} == {("app.py", "MEM102")}


def test_the_findings_of_runs_through_the_walks_coverage_are_those_of_every_file_parsed(
    tmp_path,
):
    """Folder runs of generated projects whose files spell no SDK word, through the whole
    pipeline: the findings of every file parsed."""
    across = 0
    for seed in SEEDS[:12]:
        root = tmp_path / str(seed)
        root.mkdir()
        files = generate(root, seed)
        for folder in sorted({str(Path(f).parent) for f in files} - {"."}):
            if any("mem0" in files[f] for f in files if f.startswith(folder + "/")):
                continue
            found = {(f"{folder}/{f}", *rest) for f, *rest in _run(root / folder)}
            assert found == unfiltered(root, root / folder), (seed, folder)
            across += len(found)
    assert across > 10


def test_a_tree_holding_an_sdk_package_searches_every_import_from_the_start(tmp_path):
    """A folder named like an SDK package (a site-packages with the SDK installed): some file
    will spell an SDK word, and every dropped file's imports would be searched again; they are
    searched whole from the start. The decisions are the same."""
    (tmp_path / "mem0").mkdir()
    (tmp_path / "mem0/__init__.py").write_text("class MemoryClient: ...\n")
    for index in range(5):
        (tmp_path / f"m{index}.py").write_text("import os\n")
    covered = _triage(tmp_path, True)
    assert not covered[3]
    assert covered[:2] == _triage(tmp_path, False)[:2]


def test_a_pooled_scan_that_meets_an_sdk_word_midway_decides_as_the_serial_scan(
    tmp_path, monkeypatch
):
    """Files scanned for their uncovered imports before some process met an SDK word are
    scanned again whole: kept, dropped and consulted are those of the serial scan, and of the
    scan that searches every import."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the pool is used only where processes can be forked")
    (tmp_path / "pyproject.toml").write_text("")
    for index in range(40):
        text = CLIENT if index == 20 else f"from m20 import client\n\nclient.{CALL}\n"
        (tmp_path / f"m{index}.py").write_text(text if index % 3 == 2 else "import os\n")
    serial = _triage(tmp_path, True)
    monkeypatch.setattr(batch, "SCAN_IN_POOL_FROM", 2)
    pooled = _triage(tmp_path, True, jobs=2)
    assert pooled[:3] == serial[:3] == _triage(tmp_path, False)[:3]
    assert len(serial[0]) == 13  # m20 and its twelve importers
