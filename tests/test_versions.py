"""Which SDK, which version: how mem0lint finds the release a file's project installs.

Each test writes a small project the way real ones are laid out and asks what `mem0` (or
`memsy`, `memos`) resolves to for a file inside it, and from which file.
"""

from __future__ import annotations

import codecs
import json
import textwrap
from pathlib import Path

import pytest

from mem0lint.versions import Discovery, nearest_known, parse_targets, poetry_specifier


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (root / ".git").mkdir(exist_ok=True)  # the repository root: the search stops here
    return root


def mem0(root: Path, file: str = "app.py", targets=None):
    found = {s.package: s for s in Discovery().for_path(root / file, targets)}
    return found["mem0"]


def resolved(root: Path, file: str = "app.py") -> tuple[str, str]:
    sdk = mem0(root, file)
    return sdk.distribution, sdk.version


# One test per file format ---------------------------------------------------------------------
FORMATS = {
    "uv.lock": {
        "uv.lock": """\
            version = 1
            [[package]]
            name = "app"
            version = "0.1.0"
            source = { editable = "." }
            [[package]]
            name = "mem0ai"
            version = "0.1.115"
            source = { registry = "https://pypi.org/simple" }
        """,
    },
    "poetry.lock": {
        "poetry.lock": """\
            [[package]]
            name = "mem0ai"
            version = "0.1.115"
            description = "Long-term memory for AI Agents"
            optional = false
        """,
    },
    "pdm.lock": {
        "pdm.lock": """\
            [metadata]
            groups = ["default"]
            [[package]]
            name = "mem0ai"
            version = "0.1.115"
        """,
    },
    "Pipfile.lock": {
        "Pipfile.lock": json.dumps(
            {"_meta": {}, "default": {"mem0ai": {"version": "==0.1.115"}}, "develop": {}}
        ),
    },
    "requirements.txt": {"requirements.txt": "openai>=1\nmem0ai==0.1.115  # pinned\n"},
    "requirements -r include": {
        "requirements.txt": "-r requirements/base.txt\n",
        "requirements/base.txt": "mem0ai == 0.1.115\n",
    },
    "constraints -c": {
        "requirements.txt": "mem0ai\n-c constraints.txt\n",
        "constraints.txt": "mem0ai==0.1.115\n",
    },
    "requirements-dev.txt": {"requirements-dev.txt": "mem0ai[graph]==0.1.115\n"},
    "pyproject [project]": {
        "pyproject.toml": """\
            [project]
            name = "app"
            dependencies = ["mem0ai==0.1.115; python_version >= '3.9'"]
        """,
    },
    "pyproject optional-dependencies": {
        "pyproject.toml": """\
            [project]
            name = "app"
            [project.optional-dependencies]
            memory = ["mem0ai[graph]==0.1.115"]
        """,
    },
    "pyproject [dependency-groups]": {
        "pyproject.toml": """\
            [dependency-groups]
            dev = ["pytest", {include-group = "memory"}]
            memory = ["mem0ai==0.1.115"]
        """,
    },
    "pyproject [tool.poetry] bare version": {
        "pyproject.toml": """\
            [tool.poetry.dependencies]
            python = "^3.10"
            mem0ai = "0.1.115"
        """,
    },
    "pyproject [tool.poetry] group table": {
        "pyproject.toml": """\
            [tool.poetry.group.ai.dependencies]
            mem0ai = {version = "0.1.115", extras = ["graph"]}
        """,
    },
    "Pipfile": {"Pipfile": '[packages]\nmem0ai = "==0.1.115"\n'},
    "setup.cfg": {
        "setup.cfg": """\
            [metadata]
            name = app
            [options]
            install_requires =
                requests
                mem0ai==0.1.115
        """,
    },
    "setup.py literal": {
        "setup.py": """\
            from setuptools import setup
            setup(name="app", install_requires=["mem0ai==0.1.115", "openai"])
        """,
    },
    "setup.py named list": {
        "setup.py": """\
            from setuptools import setup
            REQUIRES = ["mem0ai==0.1.115"]
            setup(name="app", install_requires=REQUIRES)
        """,
    },
}


@pytest.mark.parametrize("files", FORMATS.values(), ids=FORMATS.keys())
def test_each_format_gives_the_installed_release(tmp_path, files):
    write(tmp_path, {**files, "app.py": ""})
    assert resolved(tmp_path) == ("mem0ai", "0.1.115")


ENCODINGS = {
    # `pip freeze > requirements.txt` in Windows PowerShell writes UTF-16 with a byte-order mark.
    "utf-16 (PowerShell)": "openai>=1\r\nmem0ai==0.1.32\r\n".encode("utf-16"),
    "utf-16-be with its mark": codecs.BOM_UTF16_BE + "mem0ai==0.1.32\n".encode("utf-16-be"),
    "utf-8 with a mark": "mem0ai==0.1.32\n".encode("utf-8-sig"),
    "a coding comment": "# -*- coding: latin-1 -*-\n# caf\xe9\nmem0ai==0.1.32\n".encode("latin-1"),
}


@pytest.mark.parametrize("data", ENCODINGS.values(), ids=ENCODINGS.keys())
def test_a_requirements_file_is_decoded_as_pip_decodes_it(tmp_path, data):
    write(tmp_path, {"app.py": ""})
    (tmp_path / "requirements.txt").write_bytes(data)
    assert resolved(tmp_path) == ("mem0ai", "0.1.32")


def test_a_poetry_caret_gives_the_newest_release_it_allows(tmp_path):
    write(tmp_path, {"pyproject.toml": '[tool.poetry.dependencies]\nmem0ai = "^0.1.100"\n'})
    (tmp_path / "app.py").write_text("")
    assert resolved(tmp_path) == ("mem0ai", "0.1.118")


def test_setup_py_is_read_not_run(tmp_path):
    write(
        tmp_path,
        {
            "setup.py": """\
                import sys
                sys.exit("must never run")
                setup(install_requires=["mem0ai==1.0.3"])
            """,
            "app.py": "",
        },
    )
    assert resolved(tmp_path) == ("mem0ai", "1.0.3")


def test_poetry_constraints_become_pep440():
    assert poetry_specifier("^1.0.3") == ">=1.0.3,<2"
    assert poetry_specifier("^0.1.100") == ">=0.1.100,<0.2"
    assert poetry_specifier("~1.0") == ">=1.0,<1.1"
    assert poetry_specifier("1.0.3") == "==1.0.3"
    assert poetry_specifier("*") == ""
    assert poetry_specifier(">=1.0,<2") == ">=1.0,<2"


# Which pin wins ---------------------------------------------------------------------------------
def test_a_floor_only_spec_means_the_newest_known_release(tmp_path):
    write(tmp_path, {"requirements.txt": "mem0ai>=1.0\n", "app.py": ""})
    assert resolved(tmp_path) == ("mem0ai", nearest_known("mem0ai", "99")[0])


def test_a_range_gives_the_newest_release_inside_it(tmp_path):
    write(tmp_path, {"requirements.txt": "mem0ai>=1.0,<2\n", "app.py": ""})
    assert resolved(tmp_path) == ("mem0ai", "1.0.11")


RANGES_THAT_LOOK_EXACT = {
    # pip-compile's output: the hashes are the requirement's own options.
    "hashed": (
        "requirements.txt",
        "mem0ai==0.1.29 \\\n    --hash=sha256:0a1b \\\n    --hash=sha256:2c3d\nopenai==1.0\n",
        "0.1.29",
    ),
    "a wildcard": ("requirements.txt", "mem0ai==0.1.*\n", "0.1.118"),
    "two clauses": ("requirements.txt", "mem0ai>=0.1,==0.1.29\n", "0.1.29"),
    "a Poetry wildcard": (
        "pyproject.toml",
        '[tool.poetry.dependencies]\nmem0ai = "0.1.*"\n',
        "0.1.118",
    ),
}


@pytest.mark.parametrize(
    ("name", "text", "version"), RANGES_THAT_LOOK_EXACT.values(), ids=RANGES_THAT_LOOK_EXACT.keys()
)
def test_what_pip_installs_from_a_pin_that_is_not_a_bare_version(tmp_path, name, text, version):
    write(tmp_path, {name: text, "app.py": ""})
    assert resolved(tmp_path) == ("mem0ai", version)


def test_no_pin_at_all_means_the_newest_known_release(tmp_path):
    write(tmp_path, {"requirements.txt": "openai\n", "app.py": ""})
    sdk = mem0(tmp_path)
    assert (sdk.distribution, sdk.version) == ("mem0ai", "2.2.1")
    assert "no pin" in sdk.source


def test_a_package_whose_install_files_sit_beside_its_code(tmp_path):
    """No pin above the file: the nearest folder above it with pins below (LightMem's
    `memory_toolkits/envs/rag_requirements.txt` for `memory_toolkits/layers/rag.py`)."""
    write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "app"\ndependencies = ["openai"]\n',
            "src/kit/envs/rag_requirements.txt": "mem0ai==1.0.2\n",
            "src/kit/envs/mem0_requirements.txt": "mem0ai==1.0.2\n",
            "src/kit/layers/rag.py": "",
            "examples/old/requirements.txt": "mem0ai==0.1.29\n",
            "app.py": "",
        },
    )
    sdk = mem0(tmp_path, "src/kit/layers/rag.py")
    assert sdk.version == "1.0.2" and "no pin above the file" in sdk.source
    # The repository's top is never searched below: another project's old pin is not this one's.
    assert resolved(tmp_path, "app.py") == ("mem0ai", "2.2.1")
    # Outside a repository nothing below is searched either.
    (tmp_path / ".git").rmdir()
    assert Discovery().for_path(tmp_path / "src/kit/layers/rag.py", None)[0].version == "2.2.1"


def test_a_lock_beats_a_spec(tmp_path):
    write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "app"\ndependencies = ["mem0ai>=0.1"]\n',
            "uv.lock": '[[package]]\nname = "mem0ai"\nversion = "1.0.3"\n',
            "app.py": "",
        },
    )
    sdk = mem0(tmp_path)
    assert sdk.version == "1.0.3" and sdk.source.endswith("uv.lock")


def test_the_nearest_project_wins(tmp_path):
    write(
        tmp_path,
        {
            "uv.lock": '[[package]]\nname = "mem0ai"\nversion = "2.0.4"\n',
            "services/legacy/requirements.txt": "mem0ai==0.1.115\n",
            "services/legacy/bot.py": "",
            "services/new/app.py": "",
        },
    )
    assert resolved(tmp_path, "services/legacy/bot.py") == ("mem0ai", "0.1.115")
    assert resolved(tmp_path, "services/new/app.py") == ("mem0ai", "2.0.4")


def test_the_sdks_own_source_tree_is_judged_by_its_own_version(tmp_path):
    write(
        tmp_path,
        {"pyproject.toml": '[project]\nname = "mem0ai"\nversion = "1.0.3"\n', "mem0/main.py": ""},
    )
    assert resolved(tmp_path, "mem0/main.py") == ("mem0ai", "1.0.3")


def test_memsy_and_memos_are_resolved_too(tmp_path):
    write(tmp_path, {"requirements.txt": "memsy==0.3.1\nMemoryOS==2.0.10\n", "app.py": ""})
    found = {
        s.package: (s.distribution, s.version) for s in Discovery().for_path(tmp_path / "app.py")
    }
    assert found["memsy"] == ("memsy", "0.3.1")
    assert found["memos"] == ("memoryos", "2.0.10")


# Configuration wins -----------------------------------------------------------------------------
def test_a_configured_target_wins_and_remembers_the_pin(tmp_path):
    write(tmp_path, {"requirements.txt": "mem0ai==1.0.3\n", "app.py": ""})
    sdk = mem0(tmp_path, targets={"mem0ai": "2.2"})
    assert (sdk.version, sdk.source) == ("2.2.0", "configuration")
    assert sdk.pinned == "1.0.3"


def test_target_version_arguments_are_checked():
    assert parse_targets(["mem0ai==2.2", "MemoryOS==2.0.33"]) == {
        "mem0ai": "2.2",
        "memoryos": "2.0.33",
    }
    for bad in ("mem0ai>=2", "mem0ai", "numpy==1.0", "mem0ai==x y"):
        with pytest.raises(ValueError):
            parse_targets([bad])


# Forks, unknown versions, bad input -------------------------------------------------------------
def test_a_fork_provides_mem0_and_nothing_is_judged(tmp_path):
    write(tmp_path, {"requirements.txt": "mem0-polardb==0.2.0\n", "app.py": ""})
    discovery = Discovery()
    sdk = {s.package: s for s in discovery.for_path(tmp_path / "app.py")}["mem0"]
    assert (sdk.distribution, sdk.judged) == ("mem0-polardb", False)
    assert any("mem0-polardb" in note for note in discovery.notes)


def test_a_fork_is_judged_once_configured(tmp_path):
    write(tmp_path, {"requirements.txt": "mem0-polardb==0.2.0\n", "app.py": ""})
    sdk = mem0(tmp_path, targets={"mem0ai": "1.0.3"})
    assert (sdk.distribution, sdk.version) == ("mem0ai", "1.0.3")


def test_a_version_without_data_is_judged_by_the_nearest_below_and_said_once(tmp_path):
    write(
        tmp_path,
        {
            "requirements.txt": "mem0ai==1.0.12\n",
            "a.py": "",
            "sub/b.py": "",
        },
    )
    discovery = Discovery()
    for name in ("a.py", "sub/b.py", "a.py"):
        versions = {s.package: s for s in discovery.for_path(tmp_path / name)}
        assert versions["mem0"].version == "1.0.11"
    assert len([n for n in discovery.notes if "1.0.12" in n]) == 1


def test_a_pin_newer_than_any_known_release_is_judged_as_the_newest(tmp_path):
    write(tmp_path, {"requirements.txt": "mem0ai==9.0.0\n", "app.py": ""})
    assert resolved(tmp_path) == ("mem0ai", "2.2.1")


@pytest.mark.parametrize(
    "name,text",
    [
        ("uv.lock", '[[package]\nname = "mem0ai"'),
        ("poetry.lock", "\x00\xff not toml mem0ai"),
        ("Pipfile.lock", '{"default": {"mem0ai": '),
        ("pyproject.toml", '[project\ndependencies = ["mem0ai"]'),
        ("setup.py", 'setup(install_requires=["mem0ai==2.0.0",\n'),
        ("setup.cfg", "[options\ninstall_requires = mem0ai"),
    ],
)
def test_an_unreadable_project_file_is_passed_over_with_a_note(tmp_path, name, text):
    write(tmp_path, {"requirements.txt": "mem0ai==1.0.3\n", "app.py": ""})
    (tmp_path / name).write_text(text)
    discovery = Discovery()
    versions = {s.package: s for s in discovery.for_path(tmp_path / "app.py")}
    assert versions["mem0"].version == "1.0.3"
    assert any(name in note and "passed over" in note for note in discovery.notes)


def test_conflicting_pins_choose_the_oldest_and_say_so(tmp_path):
    write(
        tmp_path,
        {"requirements.txt": "mem0ai==1.0.3\n", "requirements-prod.txt": "mem0ai==2.0.0\n"},
    )
    (tmp_path / "app.py").write_text("")
    discovery = Discovery()
    versions = {s.package: s for s in discovery.for_path(tmp_path / "app.py")}
    assert versions["mem0"].version == "1.0.3"
    assert any("conflicting" in note and "1.0.3" in note for note in discovery.notes)


def test_an_include_cycle_is_bounded(tmp_path):
    write(
        tmp_path,
        {"requirements.txt": "-r other.txt\nmem0ai==1.0.3\n", "other.txt": "-r requirements.txt\n"},
    )
    (tmp_path / "app.py").write_text("")
    assert resolved(tmp_path) == ("mem0ai", "1.0.3")


def test_each_folder_is_read_once(tmp_path, monkeypatch):
    write(tmp_path, {"requirements.txt": "mem0ai==1.0.3\n"})
    for index in range(50):
        (tmp_path / f"m{index}.py").write_text("")
    discovery = Discovery()
    listed = []
    real = __import__("os").listdir
    monkeypatch.setattr("mem0lint.versions.os.listdir", lambda p: listed.append(p) or real(p))
    for index in range(50):
        discovery.for_path(tmp_path / f"m{index}.py")
    assert listed.count(str(tmp_path)) == 1


def test_the_projects_own_package_in_its_lock_is_not_a_provider(tmp_path):
    write(
        tmp_path,
        {
            "uv.lock": """\
                [[package]]
                name = "mem0-agent"
                version = "0.1.0"
                source = { editable = "." }
                [[package]]
                name = "mem0ai"
                version = "0.1.88"
            """,
            "app.py": "",
        },
    )
    assert resolved(tmp_path) == ("mem0ai", "0.1.88")


def test_a_plugin_next_to_mem0ai_does_not_hide_it(tmp_path):
    write(tmp_path, {"requirements.txt": "mem0ai==1.0.3\nmem0-tools==0.2\n", "app.py": ""})
    assert resolved(tmp_path) == ("mem0ai", "1.0.3")


def test_a_known_fork_next_to_mem0ai_silences_and_says_so(tmp_path):
    write(tmp_path, {"requirements.txt": "mem0ai==1.0.3\nmem0-polardb==0.2\n", "app.py": ""})
    discovery = Discovery()
    sdk = {s.package: s for s in discovery.for_path(tmp_path / "app.py")}["mem0"]
    assert not sdk.judged
    assert any("both mem0ai and mem0-polardb" in note for note in discovery.notes)


def test_a_project_shipping_its_own_mem0_package_is_a_fork(tmp_path):
    write(
        tmp_path,
        {
            "pyproject.toml": '[tool.poetry]\nname = "mem0-avatar"\nversion = "0.0.1"\n',
            "mem0/__init__.py": "",
            "docs/quickstart.py": "",
        },
    )
    sdk = mem0(tmp_path, "docs/quickstart.py")
    assert not sdk.judged and "own copy" in sdk.source


def test_a_copy_of_mem0_above_the_folder_that_pins_mem0ai_is_a_fork(tmp_path):
    # The server pins a release, but `mem0/` at the repository's top is what `from mem0 import`
    # finds when the top is on `sys.path` (its Dockerfile sets PYTHONPATH to it): which code a
    # call reaches is not in the files, so nothing is judged.
    write(
        tmp_path,
        {
            "mem0/__init__.py": "",
            "mem0/memory/main.py": "",
            "server/requirements.txt": "mem0ai>=0.1.48\n",
            "server/main.py": "",
            "test/main_postgresql.py": "",
        },
    )
    for file in ("server/main.py", "test/main_postgresql.py", "mem0/memory/main.py"):
        discovery = Discovery()
        sdk = {s.package: s for s in discovery.for_path(tmp_path / file)}["mem0"]
        assert not sdk.judged and "own copy" in sdk.source, file
        assert any("is the project's own copy" in note for note in discovery.notes)
    # A target version still judges it.
    assert mem0(tmp_path, "server/main.py", {"mem0ai": "2.2.1"}).judged


def test_a_package_beside_a_script_is_what_the_script_imports(tmp_path):
    # `python examples/demo.py` puts `examples/` first on `sys.path`: its `mem0` is not the SDK.
    write(
        tmp_path,
        {
            "requirements.txt": "mem0ai==1.0.3\n",
            "examples/mem0/__init__.py": "",
            "examples/demo.py": "",
            "src/app.py": "",
        },
    )
    assert not mem0(tmp_path, "examples/demo.py").judged
    assert resolved(tmp_path, "src/app.py") == ("mem0ai", "1.0.3")


def test_the_sdks_own_tree_above_a_pinning_folder_is_no_copy(tmp_path):
    # mem0's own repository: `server/` pins a release and the top is the SDK's source tree.
    write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "mem0ai"\nversion = "2.0.18"\n',
            "mem0/__init__.py": "",
            "server/requirements.txt": "mem0ai>=1.0.0\n",
            "server/main.py": "",
        },
    )
    assert resolved(tmp_path, "server/main.py") == ("mem0ai", "2.2.1")


def test_the_sdks_own_poetry_tree_is_judged_by_its_version(tmp_path):
    write(
        tmp_path,
        {
            "pyproject.toml": '[tool.poetry]\nname = "mem0ai"\nversion = "0.1.29"\n',
            "mem0/__init__.py": "",
            "docs/quickstart.py": "",
        },
    )
    assert resolved(tmp_path, "docs/quickstart.py") == ("mem0ai", "0.1.29")


def test_a_vendored_copy_of_the_sdk_tree_makes_the_project_a_fork(tmp_path):
    # requirements name the release, but the README installs `pip install -e ./thirdparty/mem0`:
    # which copy runs is not in the files, so nothing is judged.
    write(
        tmp_path,
        {
            "requirements.txt": "mem0ai[graph]\n",
            "thirdparty/mem0/pyproject.toml": '[project]\nname = "mem0ai"\nversion = "1.0.1"\n',
            "thirdparty/mem0/mem0/__init__.py": "",
            "src/app.py": "",
        },
    )
    sdk = mem0(tmp_path, "src/app.py")
    assert not sdk.judged and "vendored SDK tree" in sdk.source
    # The vendored tree itself is judged at its own version.
    assert resolved(tmp_path, "thirdparty/mem0/mem0/__init__.py") == ("mem0ai", "1.0.1")


def test_a_folder_named_like_the_package_without_the_sdks_project_file_is_no_fork(tmp_path):
    write(
        tmp_path,
        {
            "requirements.txt": "mem0ai==1.0.3\n",
            "examples/mem0/__init__.py": "",
            "src/app.py": "",
        },
    )
    assert resolved(tmp_path, "src/app.py") == ("mem0ai", "1.0.3")
