"""Regressions of issue 11, classes 4 and 7: fixed files compile on the project's oldest Python,
comments and layout survive, a CR-only file keeps its last CR."""

from __future__ import annotations

import ast
import textwrap

import pytest
from conftest import run_cli

from mem0lint import engine, fixcheck

UNSAFE = engine.RuleSet(engine.Settings(unsafe_fixes=True))
SAFE = engine.RuleSet(engine.Settings())
HEAD = "from mem0 import MemoryClient\n\nclient = MemoryClient()\nuid = 'u'\n"


def fixed(code: str, target=(3, 9)) -> engine.FixResult:
    return engine.fix(engine.parse(code), UNSAFE, source=code, target=target)


def test_a_key_written_inside_a_double_quoted_fstring_takes_the_other_quote():
    code = HEAD + "print(f\"{client.search('q', user_id=uid)}\")\n"
    result = fixed(code)
    assert result.code is not None
    assert "{'user_id': uid}" in result.code
    ast.parse(result.code, feature_version=(3, 9))
    assert not fixcheck.newer_fstrings(result.module)


def test_a_fix_that_cannot_compile_before_312_is_not_applied_and_stays_reported():
    # Both quotes are taken by the f-strings around the call: no string literal fits.
    code = HEAD + "print(f\"{f'{client.search(uid, user_id=uid)}'}\")\n"
    result = fixed(code)
    assert result.code is None
    left = [d for d in result.diagnostics if d.code == "MEM101"]
    assert left and left[0].fix is None  # reported, and not offered as fixable


def _prefixes(letters: str) -> set[str]:
    """Every spelling of a string prefix made of `letters`, in any order and case."""
    import itertools

    found = set()
    for order in itertools.permutations(letters):
        for cases in itertools.product(*[(c.lower(), c.upper()) for c in order]):
            found.add("".join(cases))
    return found


@pytest.mark.parametrize("prefix", sorted(_prefixes("f") | _prefixes("fr")))
@pytest.mark.parametrize("before", ["x = ", "print(", "'a'", "(", "[1, ", "{"])
def test_every_fstring_prefix_is_seen_where_python_starts_one(prefix, before):
    """The f-string check of a fix runs only when the fixed code has an f-string prefix: no
    spelling Python reads as an f-string may go unseen."""
    code = f"{before}{prefix}'{{1}}'"
    tree = ast.parse(code + {"print(": ")", "(": ")", "[1, ": "]", "{": "}"}.get(before, ""))
    assert any(isinstance(node, ast.JoinedStr) for node in ast.walk(tree))
    assert fixcheck.FSTRING_PREFIX.search(code)


@pytest.mark.parametrize("code", ["'elf'", 'if"x" else 1', "br'x'", "return_f = 1"])
def test_a_word_ending_in_f_before_a_quote_is_no_fstring_prefix(code):
    assert not fixcheck.FSTRING_PREFIX.search(code)


def test_the_same_fstring_is_fixed_for_a_project_on_312():
    code = HEAD + "print(f\"{f'{client.search(uid, user_id=uid)}'}\")\n"
    import sys

    if sys.version_info < (3, 12):
        # This Python cannot compile the 3.12 form: the fix stays refused whatever the target.
        assert fixed(code, target=(3, 12)).code is None
    else:
        assert fixed(code, target=(3, 12)).code is not None


@pytest.mark.parametrize(
    ("specifier", "floor"),
    [
        (">=3.9", (3, 9)),
        (">=3.8,<4", (3, 8)),
        ("~=3.10", (3, 10)),
        (">3.11", (3, 12)),
        ("==3.11.*", (3, 11)),
        (">=3.7, !=3.7.*, !=3.8.*", (3, 9)),
        ("garbage", None),
    ],
)
def test_requires_python_floor(specifier, floor):
    assert fixcheck.floor_of(specifier) == floor


def test_target_is_read_from_the_nearest_project(tmp_path):
    project = tmp_path / "p"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.12"\n')
    assert fixcheck.target_for(project / "pkg" / "m.py") == (3, 12)
    other = tmp_path / "q"
    other.mkdir()
    (other / "setup.cfg").write_text("[options]\npython_requires = >=3.10\n")
    assert fixcheck.target_for(other / "m.py") == (3, 10)


def test_cli_fix_of_an_fstring_writes_code_that_compiles_on_39(tmp_path):
    path = tmp_path / "app.py"
    path.write_text(HEAD + "print(f\"{client.search('q', user_id=uid)}\")\n")
    run_cli("--fix", str(path))
    ast.parse(path.read_text(), feature_version=(3, 9))
    assert "filters=" in path.read_text()


def apply_edits(code: str, edits: list[dict]) -> str:
    """The code with JSON edits (1-based rows and columns, end exclusive) applied, last first."""
    lines = code.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(point: dict) -> int:
        return offsets[point["row"] - 1] + point["column"] - 1

    for edit in sorted(edits, key=lambda e: at(e["location"]), reverse=True):
        code = code[: at(edit["location"])] + edit["content"] + code[at(edit["end_location"]) :]
    return code


FSTRING_FIXES = {
    "a safe fix": (HEAD + "print(f\"{client.search('q', user_id=uid)}\")\n", ()),
    "an unsafe fix": (
        "from mem0 import Memory\n\nmemory = Memory()\n"
        'results = memory.search("tea", filters={"user_id": "u"})\n'
        'print(f"found {len(results)} memories")\n',
        ("--unsafe-fixes",),
    ),
}


@pytest.mark.parametrize("name", list(FSTRING_FIXES))
@pytest.mark.parametrize("requires", ["", ">=3.12"])
def test_the_edits_a_check_shows_in_an_fstring_are_what_fix_writes(tmp_path, name, requires):
    """A check's edits (JSON, SARIF, the language server) are written for the project's oldest
    Python as `--fix` writes them, whatever Python runs mem0lint: the other quote before 3.12."""
    import json

    code, flags = FSTRING_FIXES[name]
    if requires:
        (tmp_path / "pyproject.toml").write_text(
            f'[project]\nname = "x"\nrequires-python = "{requires}"\n'
        )
    path = tmp_path / "app.py"
    path.write_text(code)
    shown = json.loads(run_cli("--output-format", "json", str(path)).stdout)
    edits = [edit for finding in shown if finding["fix"] for edit in finding["fix"]["edits"]]
    assert edits
    run_cli("--fix", *flags, str(path))
    assert apply_edits(code, edits) == path.read_text()
    if not requires:
        ast.parse(path.read_text(), feature_version=(3, 9))


@pytest.mark.parametrize("final", ["\r", ""])
def test_a_cr_only_file_keeps_its_last_line_ending(tmp_path, final):
    path = tmp_path / "cr.py"
    body = "from mem0 import MemoryClient\r\rclient = MemoryClient()\r"
    path.write_bytes((body + 'client.search("q", user_id="u")' + final).encode())
    run_cli("--fix", str(path))
    data = path.read_bytes()
    assert b"filters=" in data
    assert data.endswith(b")" + final.encode())
    assert b"\n" not in data


def test_a_keyword_moved_into_a_multi_line_filter_keeps_its_layout_and_comments():
    code = HEAD + textwrap.dedent(
        """\
        client.search(
            "q",
            filters={
                "categories": {"contains": "food"},  # what
                "run_id": "r",  # which run
            },
            user_id="u",  # who
        )
        """
    )
    out = engine.fix(engine.parse(code), SAFE, source=code).code
    assert out is not None and "user_id=" not in out
    for comment in ("# what", "# which run", "# who"):
        assert out.count(comment) == 1
    assert '        "categories": {"contains": "food"},  # what\n' in out
    assert '        "run_id": "r",  # which run\n' in out
    assert '        "user_id": "u",  # who\n' in out  # its own line, the dict's indentation
    assert "    },\n)" in out  # the trailing comma style kept


def test_a_comment_after_the_last_entry_stays_with_it_when_an_entry_is_added():
    code = HEAD + 'client.search("q", filters={\n    "agent_id": "a"  # the bot\n}, user_id=uid)\n'
    out = fixed(code).code
    assert out is not None
    line = next(line for line in out.splitlines() if "# the bot" in line)
    assert '"agent_id": "a"' in line


def test_an_own_line_comment_moves_with_the_keyword_it_describes():
    code = HEAD + textwrap.dedent(
        """\
        client.search(
            "q",
            # the signed-in user
            user_id=uid,
            top_k=5,
        )
        """
    )
    out = fixed(code).code
    assert out is not None and out.count("# the signed-in user") == 1
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "# the signed-in user" in line)
    assert "user_id" in lines[at] or "user_id" in lines[at + 1]


def test_copied_commas_do_not_copy_comments():
    code = HEAD + 'client.search("q"  # query\n    , user_id="u", top_k=5)\n'
    out = fixed(code).code
    assert out is not None and out.count("# query") == 1


def test_mem403_keeps_a_multi_line_and_list_multi_line():
    """MEM403's OR built from a multi-line AND list keeps that list's lines and commas."""
    code = HEAD + textwrap.dedent(
        """\
        client.search(
            "q",
            filters={
                "AND": [
                    {"user_id": "u"},  # the user
                    {"agent_id": "a"},
                ]
            },
        )
        """
    )
    result = fixed(code)
    assert result.code == code.replace('"AND": [', '"OR": ['), result.code


def test_class_8_fixes_keep_a_multi_line_dict_multi_line():
    """MEM305 into an existing multi-line metadata dict, MEM208 into a multi-line AND list."""
    code = HEAD + textwrap.dedent(
        """\
        client.search(
            "q",
            filters={
                "user_id": "u",
                "metadata": {
                    "topic": "food",
                },
                "metadata.tier": "gold",
            },
        )
        client.get_all(
            filters={
                "AND": [
                    {"user_id": "u"},
                ],
                "metadata": {"tier": {"in": ["gold", "trial"]}},
            }
        )
        """
    )
    result = engine.fix(engine.parse(code), SAFE, source=code, target=(3, 9))
    assert result.code == HEAD + textwrap.dedent(
        """\
        client.search(
            "q",
            filters={
                "user_id": "u",
                "metadata": {
                    "topic": "food",
                    "tier": "gold",
                },
            },
        )
        client.get_all(
            filters={
                "AND": [
                    {"user_id": "u"},
                    {"OR": [{"metadata": {"tier": "gold"}}, {"metadata": {"tier": "trial"}}]},
                ],
            }
        )
        """
    ), result.code
