"""The code table is the rules' file names (mem0lint/codes.py): one rule per file, named by code."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

from mem0lint import codes
from mem0lint.rules import all_rules


def test_every_rule_lives_in_the_file_named_by_its_code():
    files = codes.rule_files()
    rules = all_rules()
    assert sorted(files) == sorted(rules)
    for code, rule in rules.items():
        path = os.path.relpath(inspect.getfile(rule), codes.RULES).replace(os.sep, "/")
        assert path == files[code], code
        assert path.split("/")[-1].startswith(code.lower() + "_"), path


def test_file_names_spell_the_rule_names():
    for code, rule in all_rules().items():
        name = codes.rule_files()[code].split("/")[-1]
        assert name == f"{code.lower()}_{rule.name.replace('-', '_')}.py", code


def test_prefixes_are_validated_from_the_table():
    assert codes.is_known("ALL")
    assert codes.is_known("MEM2")
    assert codes.is_known("MEM201")
    assert not codes.is_known("MEM999")
    assert not codes.is_known("E501")


def test_select_is_validated_without_importing_a_rule_or_libcst(tmp_path):
    script = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from mem0lint.cli import main\n"
        "result = CliRunner().invoke(main, ['--select', 'MEM999', '.'])\n"
        "assert result.exit_code == 2, result.output\n"
        "assert 'MEM999' in result.output, result.output\n"
        "loaded = [m for m in sys.modules if m == 'libcst' or m.startswith('mem0lint.rules')]\n"
        "assert not loaded, loaded\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root}  # this checkout's mem0lint, whatever is installed
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
