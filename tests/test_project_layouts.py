"""A file gets the same findings whether it is linted alone (pre-commit), on stdin with
`--stdin-filename` (editors), or with its whole tree.

The projects under tests/fixtures/project_layouts/ cover a flat package (pyproject.toml at its
top; relative and absolute imports, a re-export chain, `import a.b as d`, a factory, a cycle,
`import *`, a missing module, an unparsable module, a conftest fixture), a `src/` layout,
namespace packages under a folder declared in setup.cfg, and a package folder declared in
setup.py. Every file is linted in the three ways through the real command line, and the
findings per file must be identical, and equal to the table below.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from mem0lint.modules import MAX_DEPTH, MAX_MODULES, ModuleFinder, imports

LAYOUTS = Path(__file__).resolve().parent / "fixtures" / "project_layouts"

# (file, row, code, dialect) of every finding: the cross-module ones are the point.
EXPECTED = {
    "flat": {
        ("shop/alias.py", 3, "MEM102", "mem0-platform"),  # import shop.deps as d; d.memory
        ("shop/dotted.py", 3, "MEM102", "mem0-platform"),  # import shop; shop.memory.client
        ("shop/memory.py", 11, "MEM102", "mem0-platform"),  # in the module itself
        ("shop/routes.py", 5, "MEM102", "mem0-platform"),  # absolute import of a re-export
        ("shop/service.py", 6, "MEM102", "mem0-platform"),  # from . import memory as mem
        ("shop/service.py", 7, "MEM102", "mem0-platform"),  # a factory's return annotation
        ("tests/test_routes.py", 2, "MEM102", "mem0-platform"),  # a conftest fixture
    },
    "srclayout": {
        ("src/acme/jobs/nightly.py", 3, "MEM102", "mem0-oss"),  # from ..clients import
        ("tests/test_jobs.py", 5, "MEM102", "mem0-oss"),  # tests import from src/
    },
    "namespace": {
        ("lib/corp/memstore/api.py", 3, "MEM692", "memsy"),  # relative, in a namespace package
        ("lib/corp/tools/report.py", 3, "MEM692", "memsy"),  # two levels up, no __init__.py
        ("scripts/report.py", 3, "MEM692", "memsy"),  # `lib` declared in setup.cfg
    },
    "setuppy": {
        ("bin/tool.py", 3, "MEM653", "memos"),  # re-exported by the package's __init__.py
        ("bin/tool_deep.py", 3, "MEM653", "memos"),  # import pkgx.conn; pkgx.conn.memos
    },
}


def _copy(tmp_path: Path, layout: str) -> Path:
    root = tmp_path / layout
    shutil.copytree(LAYOUTS / layout, root)
    return root


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py"))


def _findings(result, root: Path) -> dict[str, set]:
    """{file relative to root: {(row, column, code, dialect)}} from JSON output.

    File problems (MEM00x: cannot be read or parsed) are left out: a file named on the command
    line is always parse-checked, a walked one only when it may hold a finding."""
    found: dict[str, set] = {}
    for item in json.loads(result.stdout or "[]"):
        if item["code"].startswith("MEM00"):
            continue
        name = Path(item["filename"])
        if name.is_absolute():
            name = name.relative_to(root)
        row, column = item["location"]["row"], item["location"]["column"]
        found.setdefault(name.as_posix(), set()).add(
            (row, column, item["code"], item.get("dialect"))
        )
    return found


def _lint(*args: str, input: bytes | None = None):
    from conftest import run_cli

    return run_cli("--no-cache", "--output-format", "json", *args, input=input)


@pytest.mark.parametrize("layout", sorted(EXPECTED))
def test_alone_on_stdin_and_whole_tree_agree(tmp_path, monkeypatch, layout):
    root = _copy(tmp_path, layout)
    monkeypatch.chdir(root)
    tree = _findings(_lint("."), root)
    assert {
        (f, row, code, dialect) for f, rows in tree.items() for row, _, code, dialect in rows
    } == (EXPECTED[layout])
    for name in _files(root):
        alone = _findings(_lint(name), root)
        assert alone.get(name, set()) == tree.get(name, set()), f"{name} alone"
        absolute = _findings(_lint(str(root / name)), root)
        assert absolute.get(name, set()) == tree.get(name, set()), f"{name} named absolute"
        data = (root / name).read_bytes()
        for spelled in (name, str(root / name)):
            stdin = _findings(_lint("-", "--stdin-filename", spelled, input=data), root)
            assert stdin.get(name, set()) == tree.get(name, set()), f"{name} on stdin"


def test_several_files_named_agree_with_the_tree(tmp_path, monkeypatch):
    root = _copy(tmp_path, "flat")
    monkeypatch.chdir(root)
    tree = _findings(_lint("."), root)
    some = _findings(_lint("shop/routes.py", "tests/test_routes.py", "shop/alias.py"), root)
    assert some == {k: v for k, v in tree.items() if k in some}
    assert set(some) == {"shop/routes.py", "tests/test_routes.py", "shop/alias.py"}


def test_a_pool_of_workers_agrees_with_one_process(tmp_path, monkeypatch):
    root = _copy(tmp_path, "flat")
    monkeypatch.chdir(root)
    assert _findings(_lint("--jobs", "2", "."), root) == _findings(_lint("--jobs", "1", "."), root)


def test_documents_bind_across_the_project_too(tmp_path, monkeypatch):
    """A notebook and a Markdown page next to the package, linted alone or with the tree."""
    root = _copy(tmp_path, "flat")
    monkeypatch.chdir(root)
    cell = "from shop.deps import memory\n", "memory.search('q', filters={'user_id': 'u'}, limit=3)"
    notebook = {
        "cells": [{"cell_type": "code", "metadata": {}, "source": list(cell), "outputs": []}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / "demo.ipynb").write_text(json.dumps(notebook, indent=1))
    (root / "guide.md").write_text("# Guide\n\n```python\n" + "".join(cell) + "\n```\n")
    tree = _findings(_lint("."), root)
    assert {"demo.ipynb", "guide.md"} <= set(tree)
    for name in ("demo.ipynb", "guide.md"):
        assert _findings(_lint(name), root).get(name) == tree[name], name


def test_stdin_from_another_folder(tmp_path, monkeypatch):
    """The project is found from --stdin-filename, not from the current folder."""
    root = _copy(tmp_path, "srclayout")
    monkeypatch.chdir(tmp_path)
    name = root / "src/acme/jobs/nightly.py"
    found = _findings(_lint("-", "--stdin-filename", str(name), input=name.read_bytes()), root)
    assert found == {"src/acme/jobs/nightly.py": {(3, 46, "MEM102", "mem0-oss")}}


def test_unsaved_text_is_linted_with_the_project_around_it(tmp_path):
    """`pipeline.lint_text`, the stdin and editor entry point: the text is not on disk."""
    from mem0lint.pipeline import lint_text

    root = _copy(tmp_path, "flat")
    text = "from shop.deps import memory\nmemory.search('q', filters={'user_id': 'u'}, limit=3)\n"
    report = lint_text(text, root / "shop" / "new_module.py")
    assert [(d.code, d.start[0], d.dialect) for d in report.diagnostics] == [
        ("MEM102", 2, "mem0-platform")
    ]
    assert not (root / "shop" / "new_module.py").exists()
    fixed = lint_text(text, root / "shop" / "new_module.py", mode="fix")
    assert b"top_k=3" in fixed.output
    assert not (root / "shop" / "new_module.py").exists()


# The cache and the snapshot: a verdict that depends on another module is checked again when
# that module changes, although the linted file did not. -----------------------------------


def _age(root: Path, *changed: Path) -> None:
    """Every file and folder (or only the `changed` ones and their folders, so the linted
    file's stat stays what the cache recorded) a minute old, so the cache trusts their stats;
    a bit older each time, so a change shows."""
    _age.past = getattr(_age, "past", time.time() - 60) - 5  # type: ignore[attr-defined]
    past = _age.past  # type: ignore[attr-defined]
    paths = [root, *root.rglob("*")] if not changed else [*changed, *(c.parent for c in changed)]
    for path in paths:
        os.utime(path, (past, past))


def _cached(*args: str):
    from conftest import run_cli

    return run_cli("--output-format", "json", *args)


def test_cache_rechecks_a_file_when_the_module_it_binds_through_changes(tmp_path, monkeypatch):
    root = _copy(tmp_path, "flat")
    monkeypatch.chdir(root)
    _age(root)
    first = _findings(_cached("shop/routes.py"), root)
    assert first == {"shop/routes.py": {(5, 57, "MEM102", "mem0-platform")}}
    assert _findings(_cached("shop/routes.py"), root) == first  # replayed
    memory = root / "shop/memory.py"
    memory.write_text(memory.read_text().replace("client = MemoryClient()", "client = object()"))
    _age(root, memory)
    assert _findings(_cached("shop/routes.py"), root) == {}
    memory.write_text(memory.read_text().replace("client = object()", "client = MemoryClient()"))
    _age(root, memory)
    assert _findings(_cached("shop/routes.py"), root) == first


def test_cache_sees_a_module_that_appears(tmp_path, monkeypatch):
    root = _copy(tmp_path, "flat")
    monkeypatch.chdir(root)
    _age(root)
    assert _findings(_cached("shop/missing.py"), root) == {}  # from shop.nowhere import client
    assert _findings(_cached("shop/missing.py"), root) == {}
    (root / "shop/nowhere.py").write_text(
        "from mem0 import MemoryClient\nclient = MemoryClient()\n"
    )
    _age(root, root / "shop/nowhere.py")
    assert _findings(_cached("shop/missing.py"), root) == {
        "shop/missing.py": {(3, 46, "MEM102", "mem0-platform")}
    }


def test_a_dropped_file_is_kept_when_its_import_starts_to_lead_to_a_client(tmp_path, monkeypatch):
    """The prefilter's verdict on a file without SDK words depends on its imports."""
    root = _copy(tmp_path, "flat")
    monkeypatch.chdir(root)
    store = root / "shop/store.py"
    _age(root)
    assert _findings(_cached("shop/uses_store.py"), root) == {}
    store.write_text("from mem0 import MemoryClient\nstore = MemoryClient()\n")
    _age(root, store)
    assert _findings(_cached("shop/uses_store.py"), root) == {
        "shop/uses_store.py": {(3, 45, "MEM102", "mem0-platform")}
    }


def test_snapshot_clean_record_watches_modules_outside_the_named_folder(tmp_path, monkeypatch):
    root = _copy(tmp_path, "flat")
    monkeypatch.chdir(root)
    (root / "shop/memory.py").write_text("client = object()\n")
    _age(root)
    assert _findings(_cached("tests"), root) == {}
    assert _findings(_cached("tests"), root) == {}  # the snapshot's clean record
    (root / "shop/memory.py").write_text(
        "from mem0 import MemoryClient\ndef make() -> MemoryClient: ...\n"
    )
    _age(root, root / "shop/memory.py")
    assert _findings(_cached("tests"), root) == {
        "tests/test_routes.py": {(2, 50, "MEM102", "mem0-platform")}
    }


# The module finder on its own ---------------------------------------------------------------


def test_module_names_and_roots_per_layout():
    finder = ModuleFinder()
    names = {
        "flat/shop/routes.py": "shop.routes",
        "flat/shop/__init__.py": "shop",
        "flat/tests/test_routes.py": "tests.test_routes",
        "srclayout/src/acme/jobs/nightly.py": "acme.jobs.nightly",
        "namespace/lib/corp/memstore/api.py": "corp.memstore.api",
        "namespace/scripts/report.py": "scripts.report",
        "setuppy/code/pkgx/conn.py": "pkgx.conn",
    }
    for path, name in names.items():
        assert finder.module_name(LAYOUTS / path) == name, path
    near = LAYOUTS / "srclayout/tests/test_jobs.py"
    assert finder.locate("acme.clients", near) == LAYOUTS / "srclayout/src/acme/clients.py"
    near = LAYOUTS / "namespace/scripts/report.py"
    found = finder.locate("corp.memstore.backend", near)
    assert found == LAYOUTS / "namespace/lib/corp/memstore/backend.py"
    assert finder.locate("pkgx", LAYOUTS / "setuppy/bin/tool.py") == (
        LAYOUTS / "setuppy/code/pkgx/__init__.py"
    )
    assert finder.locate("shop.nowhere", LAYOUTS / "flat/shop/missing.py") is None


def test_imports_are_read_from_bytes():
    data = (
        b"from ..a.b import (c as d,\n    e)\nimport x.y as z, q.r\nfrom . import m\n"
        b"from x import *\n    from .k import l  # indented\nx = 1; import w\n"
        b"from p import q, \\\n  r\nimportlib.reload(x)\n"
    )
    assert imports(data) == [
        (2, ["a", "b"], [("c", "d"), ("e", "e")]),
        (0, ["x", "y"], [(None, "z")]),
        (0, ["q", "r"], [(None, "q")]),
        (1, [], [("m", "m")]),
        (0, ["x"], []),
        (1, ["k"], [("l", "l")]),
        (0, ["w"], [(None, "w")]),
        (0, ["p"], [("q", "q"), ("r", "r")]),
    ]


def test_a_statement_is_read_to_its_end_within_four_kilobytes():
    """Most statements end within a few hundred bytes of `import` (read in a short window);
    longer ones, continued or parenthesised, are read on to 4 KB, and no further."""
    names = [f"name_{i:03}" for i in range(300)]
    listed = ", ".join(names)
    wrapped = ",\n    ".join(names)
    continued = ", \\\n    ".join(names)
    data = (
        f"from a import ({wrapped})\nfrom b import {continued}\nfrom c import {listed}\n"
    ).encode()
    found = imports(data)
    assert [module for _, module, _ in found] == [["a"], ["b"], ["c"]]
    wrapped_names, continued_names, listed_names = ([n for n, _ in f[2]] for f in found)
    assert wrapped_names == []  # its `)` lies beyond 4 KB: not a statement the scan trusts
    assert continued_names == names[:256]  # 16 bytes a row: what 4 KB holds
    assert listed_names == names  # one row of 3,000 bytes
    short = b"from d import (x,\n    y)\nimport e\n"
    assert imports(short) == [(0, ["d"], [("x", "x"), ("y", "y")]), (0, ["e"], [(None, "e")])]


def _tree(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_reach_reads_only_what_the_imports_lead_to(tmp_path):
    """A huge tree: only the modules on the way are read, never the whole tree."""
    files = {f"app/unrelated_{i}.py": "x = 1\n" for i in range(300)}
    files["app/__init__.py"] = ""
    files["app/memory.py"] = "from mem0 import Memory\nclient = Memory()\n"
    files["app/deps.py"] = "from .memory import client\n"
    files["app/use.py"] = "import os\nfrom app.deps import client\nclient.search('q')\n"
    files["app/idle.py"] = "from app.deps import client\n"  # imported, never used again
    _tree(tmp_path, files)
    finder = ModuleFinder()
    use = tmp_path / "app/use.py"
    assert finder.reaches_sdk(use, use.read_bytes())
    read = {Path(p).name for p in finder.consulted if Path(p).suffix == ".py"}
    assert read == {"deps.py", "memory.py"}
    idle = tmp_path / "app/idle.py"
    assert not finder.reaches_sdk(idle, idle.read_bytes())


def test_reach_is_bounded_on_cycles_star_imports_and_bad_files(tmp_path):
    files = {"app/__init__.py": ""}
    for i in range(400):  # a ring of 400 modules, each importing the next
        files[f"app/m{i}.py"] = f"from app.m{(i + 1) % 400} import client\n"
    files["app/star.py"] = "from app.memory import *\nclient.search('q')\n"
    files["app/memory.py"] = "from mem0 import Memory\nclient = Memory()\n"
    files["app/broken.py"] = "client = (\n"
    files["app/uses_broken.py"] = "from app.broken import client\nclient.search('q')\n"
    files["app/binary.py"] = ""
    _tree(tmp_path, files)
    (tmp_path / "app/binary.py").write_bytes(b"\xff\xfe\x00client\x00")
    finder = ModuleFinder()
    first = tmp_path / "app/m0.py"
    data = first.read_bytes() + b"client.search('q')\n"
    assert not finder.reaches_sdk(first, data)
    read = [p for p in finder.consulted if p.endswith(".py")]
    assert len(read) <= min(MAX_DEPTH, MAX_MODULES) + 1  # the ring is cut, not followed round
    star = tmp_path / "app/star.py"
    assert not finder.reaches_sdk(star, star.read_bytes())  # `import *` binds nothing known
    broken = tmp_path / "app/uses_broken.py"
    assert not finder.reaches_sdk(broken, broken.read_bytes())


def test_cycles_and_bad_modules_stay_silent_through_the_cli(tmp_path, monkeypatch):
    files = {"app/__init__.py": ""}
    for i in range(60):
        files[f"app/m{i}.py"] = (
            f"from app.m{(i + 1) % 60} import client\nclient.search('q', limit=3)\n"
        )
    files["app/binary.py"] = ""
    files["app/uses_binary.py"] = "from app.binary import client\nclient.search('q', limit=3)\n"
    _tree(tmp_path, files)
    (tmp_path / "app/binary.py").write_bytes(b"\xff\xfe\x00client\x00 = 1")
    monkeypatch.chdir(tmp_path)
    for args in (["."], ["app/m7.py"], ["app/uses_binary.py"]):
        result = _lint(*args)
        assert result.exit_code == 0, result.stdout
        assert _findings(result, tmp_path) == {}


@pytest.mark.parametrize(
    "pyproject",
    [
        '[tool.setuptools]\npackage-dir = {"" = "python"}\n',
        '[tool.setuptools.packages.find]\nwhere = ["python"]\n',
    ],
    ids=["package-dir", "packages.find.where"],
)
def test_package_folder_declared_in_pyproject(tmp_path, monkeypatch, pyproject):
    (tmp_path / "pyproject.toml").write_text(pyproject)
    (tmp_path / "python/kit").mkdir(parents=True)
    (tmp_path / "python/kit/__init__.py").write_text("")
    (tmp_path / "python/kit/store.py").write_text(
        "from mem0 import MemoryClient\nclient = MemoryClient()\n"
    )
    (tmp_path / "jobs").mkdir()
    job = tmp_path / "jobs/sync.py"
    job.write_text(
        "from kit.store import client\nclient.search('q', filters={'user_id': 'u'}, limit=3)\n"
    )
    monkeypatch.chdir(tmp_path)
    expected = {"jobs/sync.py": {(2, 46, "MEM102", "mem0-platform")}}
    assert _findings(_lint("jobs/sync.py"), tmp_path) == expected
    assert _findings(
        _lint("-", "--stdin-filename", str(job), input=job.read_bytes()), tmp_path
    ) == (expected)
    assert _findings(_lint("."), tmp_path) == expected
