"""`[tool.mem0lint]` configuration: the nearest pyproject.toml, `--config`, every key, clear
errors, and `--show-settings`."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from mem0lint import config

SETUP = "from mem0 import MemoryClient\nclient = MemoryClient()\n"
DOLLAR = 'client.search("q", filters={"$and": [{"user_id": "u"}]})\n'
LIMIT = 'client.search("q", filters={"user_id": "u"}, limit=3)\n'


def project(tmp_path: Path, toml: str, files: dict[str, str]) -> Path:
    (tmp_path / "pyproject.toml").write_text(toml, encoding="utf-8")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def codes_in(result) -> list[str]:
    return [line.split()[1] for line in result.stdout.splitlines() if ": MEM" in line]


def concise(*args):
    return run_cli(*args, "--output-format", "concise", "-q")


def test_select_and_ignore_from_the_nearest_pyproject(tmp_path):
    root = project(
        tmp_path,
        '[tool.mem0lint]\nignore = ["MEM102"]\n',
        {"a.py": SETUP + DOLLAR + LIMIT, "sub/pyproject.toml": "", "sub/b.py": SETUP + LIMIT},
    )
    # sub/pyproject.toml has no [tool.mem0lint]: the one above applies.
    assert codes_in(concise(str(root))) == ["MEM201"]
    (root / "sub" / "pyproject.toml").write_text('[tool.mem0lint]\nselect = ["MEM1"]\n')
    result = concise(str(root))
    assert sorted(codes_in(result)) == ["MEM102", "MEM201"]
    assert "b.py" in result.stdout.split("MEM102")[0].splitlines()[-1]


def test_command_line_select_replaces_and_ignore_extends(tmp_path):
    root = project(
        tmp_path, '[tool.mem0lint]\nselect = ["MEM2"]\n', {"a.py": SETUP + DOLLAR + LIMIT}
    )
    assert codes_in(concise(str(root))) == ["MEM201"]
    assert codes_in(concise(str(root), "--select", "MEM1")) == ["MEM102"]
    assert codes_in(concise(str(root), "--extend-select", "MEM102")) == ["MEM201", "MEM102"]
    assert codes_in(concise(str(root), "--ignore", "MEM201")) == []


def test_per_file_ignores_exclude_and_extend_exclude(tmp_path):
    root = project(
        tmp_path,
        "[tool.mem0lint]\n"
        'exclude = ["legacy/"]\nextend-exclude = ["*_generated.py"]\n'
        '[tool.mem0lint.per-file-ignores]\n"tests/*" = ["MEM2"]\n',
        {
            "legacy/old.py": SETUP + DOLLAR,
            "api_generated.py": SETUP + DOLLAR,
            "tests/test_a.py": SETUP + DOLLAR + LIMIT,
            "app.py": SETUP + DOLLAR,
        },
    )
    result = concise(str(root))
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        str(root / "app.py"),
        str(root / "tests" / "test_a.py"),
    ]
    assert "MEM102" in result.stdout.splitlines()[1]
    # A file named on the command line is linted unless --force-exclude (as pre-commit does).
    assert codes_in(concise(str(root / "legacy" / "old.py"))) == ["MEM201"]
    assert codes_in(concise(str(root / "legacy" / "old.py"), "--force-exclude")) == []


def test_unsafe_fixes_and_output_format_from_config(tmp_path):
    code = SETUP + 'client.get_all(filters=build(), user_id="alice")\n'
    root = project(
        tmp_path,
        '[tool.mem0lint]\nunsafe-fixes = true\noutput-format = "json-lines"\n',
        {"a.py": code},
    )
    result = run_cli(str(root / "a.py"))
    assert result.stdout.startswith('{"code": "MEM101"')
    run_cli(str(root / "a.py"), "--fix")
    assert '{**build(), "user_id": "alice"}' in (root / "a.py").read_text()


def test_receivers_land_in_engine_settings_and_bind_calls(tmp_path, monkeypatch):
    root = project(
        tmp_path,
        '[tool.mem0lint.receivers]\n"myapp.clients.get_memory" = "mem0-oss"\n'
        '"myapp.state.client" = "mem0-platform"\n',
        {
            "a.py": "from myapp.clients import get_memory\n"
            'get_memory().search("q", filters={"user_id": "u", "tier": {"$in": ["a"]}})\n'
            "from myapp.state import client\n" + LIMIT,
        },
    )
    finder = config.Finder()
    resolved = config.resolve(finder.for_path(root / "a.py"), config.CommandLine(), root / "a.py")
    assert resolved.engine_settings().receivers == {
        "myapp.clients.get_memory": "mem0-oss",
        "myapp.state.client": "mem0-platform",
    }
    assert codes_in(concise(str(root))) == ["MEM201", "MEM102"]


BAD_CONFIGS = [
    ('select = ["MEM1"]\nlimit = 3\n', "limit: unknown key"),
    ('select = "MEM1"\n', "select: expected a list of rule codes"),
    ('ignore = ["XYZ9"]\n', "ignore: no rule code starts with 'XYZ9'"),
    ("unsafe-fixes = 1\n", "unsafe-fixes: expected true or false"),
    ('output-format = "xml"\n', "output-format: expected one of text, concise"),
    ('receivers = {client = "mongo"}\n', "receivers.client: expected one of mem0-oss"),
    ('receivers = {"1x" = "memsy"}\n', "receivers: '1x' is not a name"),
    ('file-types = ["rst"]\n', "file-types: expected a list of python, notebook, markdown"),
    ('per-file-ignores = {"a.py" = ["NOPE1"]}\n', "per-file-ignores.'a.py': no rule code"),
    ("select = [\n", "not valid TOML"),
]


@pytest.mark.parametrize(("body", "message"), BAD_CONFIGS, ids=[m for _, m in BAD_CONFIGS])
def test_bad_configuration_is_a_clear_error_naming_file_and_key(tmp_path, body, message):
    root = project(tmp_path, "[tool.mem0lint]\n" + body, {"a.py": SETUP + DOLLAR})
    result = run_cli(str(root))
    assert result.exit_code == 2
    assert str(root / "pyproject.toml") in result.stderr
    assert message in result.stderr


def test_explicit_config_file(tmp_path):
    root = project(tmp_path, '[tool.mem0lint]\nignore = ["MEM201"]\n', {"a.py": SETUP + DOLLAR})
    other = tmp_path / "mem0lint.toml"
    other.write_text('select = ["MEM201"]\n')  # top-level keys, like ruff.toml
    assert codes_in(concise(str(root / "a.py"))) == []
    assert codes_in(concise(str(root / "a.py"), "--config", str(other))) == ["MEM201"]
    empty = tmp_path / "pyproject2.toml"
    empty.write_text("[tool.other]\n")
    assert run_cli(str(root), "--config", str(tmp_path / "missing.toml")).exit_code == 2


def test_show_settings_says_where_each_setting_comes_from(tmp_path):
    root = project(
        tmp_path,
        '[tool.mem0lint]\nselect = ["MEM2"]\n'
        '[tool.mem0lint.per-file-ignores]\n"a.py" = ["MEM201"]\n',
        {"a.py": ""},
    )
    result = run_cli("--show-settings", str(root / "a.py"), "--ignore", "MEM202")
    assert result.exit_code == 0
    pyproject = root / "pyproject.toml"
    assert f"configuration file: {pyproject}" in result.stdout
    assert f"select = ['MEM2']  # from {pyproject} [tool.mem0lint] select" in result.stdout
    assert "ignore = ['MEM202']  # from command line --ignore" in result.stdout
    assert f"per-file-ignores = ['MEM201']  # from {pyproject}" in result.stdout
    assert "unsafe-fixes = False  # from default" in result.stdout


def test_tomli_is_a_dependency_only_before_python_3_11():
    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert "\"tomli>=1.1; python_version < '3.11'\"" in text


def test_show_settings_says_when_a_file_is_excluded(tmp_path):
    root = project(tmp_path, '[tool.mem0lint]\nextend-exclude = ["gen/"]\n', {"gen/a.py": ""})
    assert "excluded: yes" in run_cli("--show-settings", str(root / "gen" / "a.py")).stdout
    assert "excluded" not in run_cli("--show-settings", str(root / "pyproject.toml")).stdout
