"""Context: code that expects the failure, code shown as the old form, elided arguments.

Each snippet marks what must happen to the finding on a line with a trailing comment:

- `# expect: reported MEMxxx` - reported at its own severity (and fixed as usual);
- `# expect: silenced`        - not reported at all (so never fixed);

Lines without a mark must have no finding either.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from conftest import fix_source, lint_source

from mem0lint import context, engine, failures
from mem0lint.documents import markers
from mem0lint.modes import Mode
from mem0lint.pipeline import check_file
from mem0lint.rule import Severity
from mem0lint.rules import all_rules
from mem0lint.sources import SourceFile

OSS = "from mem0 import Memory\nmemory = Memory()\n"
PLATFORM = "from mem0 import MemoryClient\nclient = MemoryClient()\n"
MARK = re.compile(r"# expect: (?P<outcome>reported|silenced|info)(?: (?P<code>MEM\d+))?")


def expected(text: str) -> dict[int, tuple[str, str]]:
    found = {}
    for row, line in enumerate(text.splitlines(), start=1):
        mark = MARK.search(line)
        if mark:
            found[row] = (mark.group("outcome"), mark.group("code"))
    return found


def outcome(rows: dict[int, list]) -> dict[int, tuple[str, str]]:
    result = {}
    for row, diagnostics in rows.items():
        codes = sorted({d.code for d in diagnostics})
        info = all(d.severity is Severity.INFO and d.fix is None for d in diagnostics)
        result[row] = ("info" if info else "reported", codes[0] if len(codes) == 1 else codes)
    return result


def check_marks(text: str, diagnostics) -> None:
    rows: dict[int, list] = {}
    for d in diagnostics:
        rows.setdefault(d.start[0], []).append(d)
    want = {row: v for row, v in expected(text).items() if v[0] != "silenced"}
    assert outcome(rows) == want


# --- 1. code that expects the failure ------------------------------------------------------

EXPECTS = {
    "pytest.raises with the class the SDK raises": OSS
    + """
import pytest

def test_negative_top_k():
    with pytest.raises(ValueError):
        memory.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: silenced
    with pytest.raises(ValueError, match="top_k"):
        memory.get_all(filters={"user_id": "u"}, top_k=-1)  # expect: silenced
    with pytest.raises(expected_exception=ValueError):
        memory.search("q", user_id="u")  # expect: silenced
""",
    "pytest.raises with a class that does not catch it": OSS
    + """
import pytest

def test_negative_top_k():
    with pytest.raises(KeyError):
        memory.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: reported MEM112
    with pytest.raises(TypeError):
        memory.search("q", user_id="u")  # expect: reported MEM101
""",
    "a tuple, `from pytest import raises`, a base class": OSS
    + """
from pytest import raises

def test_tuple():
    with raises((KeyError, ValueError)):
        memory.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: silenced
    with raises(Exception):
        memory.search("   ", filters={"user_id": "u"})  # expect: silenced
    with raises(LookupError):
        memory.search("   ", filters={"user_id": "u"})  # expect: reported MEM114
""",
    "mem0's own exceptions: the Platform's HTTP 400": PLATFORM
    + """
import pytest
import mem0.exceptions
from mem0.exceptions import ValidationError
from mem0.client.utils import ValidationError as Rejected

def test_platform():
    with pytest.raises(ValidationError):
        client.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: silenced
    with pytest.raises(Rejected):
        client.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: silenced
    with pytest.raises(mem0.exceptions.MemoryError):
        client.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: silenced
    with pytest.raises(MemoryError):  # the builtin: catches no HTTP 400
        client.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: reported MEM112
    with pytest.raises(ValueError):  # mem0's ValidationError is no ValueError
        client.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: reported MEM112
    with pytest.raises(ValueError):  # the client checks this one itself
        client.search("q", user_id="u")  # expect: silenced
""",
    "an import inside the test, several context managers in one `with`": PLATFORM
    + """
import pytest
from unittest.mock import patch

def test_local_import():
    from mem0.exceptions import ValidationError

    with patch("os.getcwd"), pytest.raises(ValidationError) as caught:
        client.search("q", filters={"user_id": "u"}, threshold=2)  # expect: silenced
    assert caught
""",
    "a name imported as two different classes is unknown": PLATFORM
    + """
import pytest

def test_mem0():
    from mem0.exceptions import ValidationError

    with pytest.raises(ValidationError):
        client.search("q", filters={"user_id": "u"}, threshold=2)  # expect: reported MEM113

def test_pydantic():
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        client.search("q", filters={"user_id": "u"}, threshold=2)  # expect: reported MEM113
""",
    "mem0's ValidationError does not catch open source's ValueError": OSS
    + """
import pytest
from mem0.exceptions import ValidationError

def test_oss():
    with pytest.raises(ValidationError):
        memory.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: reported MEM112
""",
    "closed signatures raise TypeError": """
import pytest
from mem0 import Memory, MemoryClient
from memsy import MemsyClient

memory = Memory()
memsy = MemsyClient(base_url="https://m.example", api_key="k")

def test_types():
    with pytest.raises(TypeError):
        MemoryClient(api_key="k", org_id="o")  # expect: silenced
    with pytest.raises(ValueError):
        MemoryClient(api_key="k", org_id="o")  # expect: reported MEM119
    with pytest.raises(TypeError):
        memory.delete_all(filters={"user_id": "u"})  # expect: silenced
    with pytest.raises(TypeError):
        memsy.search("q", org_id="o")  # expect: silenced
    with pytest.raises(AttributeError):
        memory.list()  # expect: silenced
""",
    "MemOS raises ValueError without a subject": """
import pytest
from memos.api.client import MemOSClient

memos = MemOSClient(api_key="k")

def test_subject():
    with pytest.raises(ValueError, match="exactly one"):
        memos.search_memory("q")  # expect: silenced
    with pytest.raises(TypeError):
        memos.search_memory("q")  # expect: reported MEM651
""",
    "unittest's assertRaises as a context manager": OSS
    + """
import unittest

class T(unittest.TestCase):
    def test_it(self):
        with self.assertRaises(ValueError):
            memory.search("q", user_id="u")  # expect: silenced
        with self.assertRaisesRegex(TypeError, "unexpected keyword"):
            memory.delete_all(filters={"user_id": "u"})  # expect: silenced
        with self.assertRaises(KeyError):
            memory.search("q", user_id="u")  # expect: reported MEM101
""",
    "try / except: the named class, a tuple, not another": OSS
    + """
try:
    memory.search("q", user_id="u")  # expect: silenced
except ValueError as error:
    print(error)

try:
    memory.search("q", user_id="u")  # expect: silenced
except (KeyError, ValueError):
    pass

try:
    memory.search("q", user_id="u")  # expect: reported MEM101
except KeyError:
    pass
""",
    "try / except: a catch-all proves nothing (application code logs any error)": OSS
    + """
try:
    memory.search("q", user_id="u")  # expect: reported MEM101
except Exception as error:
    print(error)

try:
    memory.search("q", user_id="u")  # expect: reported MEM101
except:
    pass
""",
    "only the try body expects it; else, finally, handlers and functions do not": OSS
    + """
import pytest

try:
    pass
except ValueError:
    memory.search("q", user_id="u")  # expect: reported MEM101
else:
    memory.search("q", user_id="u")  # expect: reported MEM101
finally:
    memory.search("q", user_id="u")  # expect: reported MEM101

with pytest.raises(ValueError):
    def later():
        memory.search("q", user_id="u")  # expect: reported MEM101
""",
    "warnings raise nothing: reported inside any handler": OSS
    + """
import pytest

try:
    memory.search("q", filters={"user_id": "u"}, limit=5)  # expect: reported MEM102
except ValueError:
    pass

with pytest.raises(Exception):
    memory.search("q", filters={"user_id": "u"}, limit=5)  # expect: reported MEM102
""",
    "a rule whose failure is unknown, a raw REST call": PLATFORM
    + """
import pytest
import requests

URL = "https://api.mem0.ai/v3/memories/search/"

with pytest.raises(Exception):
    client.delete_all(filters={"user_id": "u"})  # expect: reported MEM117

with pytest.raises(Exception):
    requests.post(URL, json={"query": "q", "user_id": "u"})  # expect: reported MEM101
""",
    "bindings in a top-level `try` or `if` block count, whatever is around the calls": PLATFORM
    + """
import pytest

try:
    from mem0.exceptions import ValidationError
except ImportError:
    pass

if pytest:
    class ValueError(Exception):  # the builtin's name, bound in a block
        pass

def test_blocks():
    with pytest.raises(ValidationError):
        client.search("q", filters={"user_id": "u"}, top_k=-5)  # expect: silenced
    with pytest.raises(ValueError):
        client.search("q", user_id="u")  # expect: reported MEM101
""",
    "a name bound to something else is not the SDK's class": OSS
    + """
import pytest

class ValueError(Exception):
    pass

with pytest.raises(ValueError):
    memory.search("q", user_id="u")  # expect: reported MEM101
""",
}


@pytest.mark.parametrize("name", list(EXPECTS))
def test_expected_failures(name):
    text = textwrap.dedent(EXPECTS[name])
    check_marks(text, lint_source(text))


def test_expected_failures_are_never_fixed():
    text = OSS + textwrap.dedent(
        """
        import pytest

        with pytest.raises(ValueError):
            memory.search("q", user_id="u")
        memory.search("q", user_id="u")
        """
    )
    fixed = fix_source(text)
    assert 'with pytest.raises(ValueError):\n    memory.search("q", user_id="u")\n' in fixed
    assert fixed.endswith('memory.search("q", filters={"user_id": "u"})\n')


def test_catch_all_try_is_one_switch(monkeypatch):
    text = OSS + 'try:\n    memory.search("q", user_id="u")\nexcept Exception:\n    pass\n'
    assert [d.code for d in lint_source(text)] == ["MEM101"]
    monkeypatch.setattr(context, "CATCH_ALL_TRY", True)
    assert lint_source(text) == []


def test_every_predicted_failure_is_an_error_rule_of_that_dialect_with_known_classes():
    known = all_rules()  # those of old releases only too, whatever the newest release runs
    for code, by_dialect in failures.PREDICTED.items():
        rule = known[code]
        for dialect, classes in by_dialect.items():
            assert dialect in rule.dialects, (code, dialect)
            for name in classes:
                assert failures.ancestors(name)[-1] == "builtins.BaseException", name


@pytest.mark.parametrize(
    ("handled", "failure", "covered"),
    [
        ({"builtins.Exception"}, ("mem0.exceptions.ValidationError",), True),
        ({"mem0.exceptions.MemoryError"}, ("mem0.exceptions.ValidationError",), True),
        ({"builtins.MemoryError"}, ("mem0.exceptions.ValidationError",), False),
        ({"builtins.ValueError"}, ("mem0.exceptions.ValidationError",), False),
        ({"builtins.KeyError"}, ("builtins.ValueError",), False),
        ({"pydantic.ValidationError"}, ("builtins.ValueError",), False),
        ({"builtins.ValueError"}, ("builtins.ValueError", "builtins.TypeError"), False),
        (
            {"builtins.ValueError", "builtins.TypeError"},
            ("builtins.ValueError", "builtins.TypeError"),
            True,
        ),
        ({"memsy.MemsyAPIError"}, ("memsy.exceptions.MemsyAPIError",), True),
        ({"myapp.Error"}, ("builtins.ValueError",), False),
    ],
)
def test_the_exception_hierarchy(handled, failure, covered):
    assert failures.covers(frozenset(handled), failure) is covered


# --- 3. `...`: arguments elided -------------------------------------------------------------

ELIDED = {
    "placeholders in docs": """
from mem0 import Memory, MemoryClient
from memsy import MemsyClient
from memos.api.client import MemOSClient

client = MemoryClient(...)
memory = Memory(...)
client.search(...)
client.get_all(...)
memory.search(...)
memory.search("q", ...)
memory.delete_all(...)
memsy = MemsyClient(...)
memsy.search("q", ...)
memos = MemOSClient(...)
memos.search_memory(...)
client.search("q", filters=...)
memory.search("q", filters=..., top_k=..., threshold=...)
""",
    "what is spelled out is still judged": """
from mem0 import Memory, MemoryClient

client = MemoryClient(...)
memory = Memory()
client.search(..., user_id="u")  # expect: reported MEM101
client.search("q", user_id=...)  # expect: reported MEM101
memory.search(..., filters={"user_id": "u"}, limit=3)  # expect: reported MEM102
memory.search()  # expect: reported MEM401
""",
}


@pytest.mark.parametrize("name", list(ELIDED))
def test_elided_arguments(name):
    text = textwrap.dedent(ELIDED[name]).lstrip("\n")
    check_marks(text, lint_source(text))


# --- fallbacks written for another release ----------------------------------------------------

FALLBACKS = {
    # The `except` clause runs only where the first call raises TypeError: on no release of 2.x
    # (MEM101's ValueError is not one), so its 1.x-only form is not judged there.
    "a fallback for 1.x after the 2.x form": (
        "2.2.1",
        """
def probe(user_id):
    try:
        return memory.get_all(filters={"user_id": user_id}, top_k=1)
    except TypeError:
        return memory.get_all(user_id=user_id, limit=1)  # expect: silenced
""",
    ),
    "a fallback for 2.x after the 1.x form": (
        "1.0.2",
        """
def probe(user_id):
    try:
        return memory.get_all(user_id=user_id, limit=1)
    except TypeError:
        return memory.get_all(filters={"AND": [{"user_id": user_id}]})  # expect: silenced
""",
    ),
    # The first call raises ValueError on 2.x (MEM401, MEM101): the clause does run, and is
    # judged like any other call.
    "a fallback the clause does reach": (
        "2.2.1",
        """
def probe(user_id):
    try:
        return memory.get_all(user_id=user_id)
    except ValueError:
        return memory.get_all()  # expect: reported MEM401
""",
    ),
    # Another method, or another receiver, is no fallback of the call tried.
    "another call in the clause": (
        "2.2.1",
        """
def probe(other, user_id):
    try:
        return other.get_all(filters={"user_id": user_id})
    except TypeError:
        return memory.get_all(user_id=user_id)  # expect: reported MEM101
""",
    ),
}


@pytest.mark.parametrize("name", list(FALLBACKS))
def test_fallbacks_for_another_release(name):
    release, body = FALLBACKS[name]
    text = OSS + textwrap.dedent(body)
    sdks = (("mem0", "mem0ai", release, ""),)
    check_marks(text, lint_source(text, sdks=sdks))


# --- 2. documents that show the old form on purpose ---------------------------------------


def run(path: Path, mode: str = Mode.CHECK):
    return check_file(SourceFile(path), engine.RuleSet(engine.Settings()), mode, [path.parent])


WRONG = 'client.search("q", user_id="u")'
PAGE = f"""\
# Migrating from v2 to v3

```python
from mem0 import MemoryClient
client = MemoryClient()
{WRONG}  # expect: reported MEM101
```

## Before you begin

```python
{WRONG}  # expect: reported MEM101
```

## Before (v2)

```python
{WRONG}  # expect: silenced
```

## After (v3)

```python
{WRONG}  # expect: reported MEM101
```

<CodeGroup>
```python Old
{WRONG}  # expect: silenced
```

```python New
{WRONG}  # expect: reported MEM101
```
</CodeGroup>

<Tabs>
  <Tab title="Deprecated">
    ```python
    {WRONG}  # expect: silenced
    ```
  </Tab>
  <Tab title="Current">
    ```python
    {WRONG}  # expect: reported MEM101
    ```
  </Tab>
</Tabs>

### ❌ Wrong

```python
{WRONG}  # expect: silenced
```

### Search

```python
# Before: entity ids as keywords
{WRONG}  # expect: silenced

# After
{WRONG}  # expect: reported MEM101
```

```python
# Old (v2)
{WRONG}  # expect: silenced
```

```python
# Don't forget the filters
{WRONG}  # expect: reported MEM101
```
"""


def test_markdown_old_blocks_are_not_reported_and_after_blocks_are_judged(tmp_path):
    path = tmp_path / "page.mdx"
    path.write_text(PAGE, encoding="utf-8")
    check_marks(PAGE, run(path).diagnostics)


def test_markdown_old_blocks_are_never_fixed(tmp_path):
    path = tmp_path / "page.mdx"
    path.write_text(PAGE, encoding="utf-8")
    run(path, Mode.FIX)
    after = path.read_text(encoding="utf-8").splitlines()
    for row, (outcome_, _) in expected(PAGE).items():
        fixed = 'filters={"user_id": "u"}' in after[row - 1]
        assert fixed is (outcome_ == "reported"), (row, after[row - 1])


def test_v1_v2_mark_only_next_to_v3(tmp_path):
    text = f"## v2\n\n```python\n{PLATFORM}{WRONG}\n```\n"
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    assert [d.severity for d in run(path).diagnostics] == [Severity.ERROR]
    path.write_text(text + "\nSee the v3 guide.\n", encoding="utf-8")
    assert run(path).diagnostics == []


def test_a_bold_lead_in_line_right_above_the_fence_is_a_label(tmp_path):
    text = (
        f"```python\n{PLATFORM}```\n\n**v0.x (Lenient):**\n```python\n{WRONG}\n```\n\n"
        f"**v1.0.0 (Strict):**\n\n```python\n{WRONG}\n```\n\n"
        f"**Before:**\n\nSome prose in between.\n\n```python\n{WRONG}\n```\n"
    )
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    wrong_rows = [i + 1 for i, line in enumerate(text.splitlines()) if line == WRONG]
    # The v0.x block is silenced; the v1.0.0 block and the block after prose are judged.
    assert [d.start[0] for d in run(path).diagnostics] == wrong_rows[1:]


def test_notebook_markdown_cell_right_above_marks_the_code_cell(tmp_path):
    def cell(kind, text):
        extra = {"execution_count": None, "outputs": []} if kind == "code" else {}
        return {"cell_type": kind, "metadata": {}, "source": text.splitlines(True), **extra}

    cells = [
        cell("code", "from mem0 import MemoryClient\nclient = MemoryClient()\n"),
        cell("markdown", "### Old way (v2)\n"),
        cell("code", WRONG + "\n"),
        cell("markdown", "### New way\n"),
        cell("code", WRONG + "\n"),
    ]
    document = {"cells": cells, "metadata": {"language_info": {"name": "python"}}, "nbformat": 4}
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    found = [(d.cell, d.severity) for d in run(path).diagnostics]
    assert found == [(5, Severity.ERROR)]


def test_python_file_comment_range(tmp_path):
    text = PLATFORM + f"# ❌ Wrong\n{WRONG}\n# ✅ Right\n{WRONG}\n"
    path = tmp_path / "example.py"
    path.write_text(text, encoding="utf-8")
    assert [(d.start[0], d.severity) for d in run(path).diagnostics] == [(6, Severity.ERROR)]


def test_a_comment_in_a_python_file_marks_only_the_lines_it_heads(tmp_path):
    # A comment that reads like a label ("Don't ...", "Legacy ...") in application code heads
    # the lines under it, to a blank line or the end of its block: not the rest of the file.
    text = PLATFORM + (
        "def save(m):\n"
        "    try:\n"
        "        client.add(m, user_id='u')\n"
        "    except Exception:\n"
        "        # Don't fail, but log for monitoring\n"
        f"        {WRONG}  # expect: silenced\n"
        f"    {WRONG}  # expect: reported MEM101\n"
        "\n"
        "# Legacy support\n"
        f"{WRONG}  # expect: silenced\n"
        "\n"
        "\n"
        "def find(q):\n"
        f"    return {WRONG}  # expect: reported MEM101\n"
        "\n"
        "# ❌ Wrong\n"
        "# (a second comment line)\n"
        f"{WRONG}  # expect: silenced\n"
        f"{WRONG}  # expect: silenced\n"
        "\n"
        "# Before (v2)\n"
        "\n"
        f"{WRONG}  # expect: silenced\n"
        "\n"
        f"{WRONG}  # expect: reported MEM101\n"
    )
    path = tmp_path / "service.py"
    path.write_text(text, encoding="utf-8")
    check_marks(text, run(path).diagnostics)


@pytest.mark.parametrize(
    ("label", "old"),
    [
        ("Before", True),
        ("Before (v2)", True),
        ("Before: top-level user_id", True),
        ("Old", True),
        ("Old API", True),
        ("Open Source (Old)", True),
        ("Deprecated", True),
        ("Legacy client", True),
        ("❌ Wrong", True),
        ("❌ This raises ValueError", True),
        ("Incorrect", True),
        ("Don't", True),
        ("Avoid", True),
        ("v2", True),
        ("v0.x (Lenient):", True),
        ("v0.x Filters (basic):", True),
        ("Search (deprecated)", True),
        ("Before you begin", False),
        ("Before starting", False),
        ("Don't forget your API key", False),
        ("Old memories are removed after 30 days", False),
        ("Migrating from v2 to v3", False),
        ("Before and after", False),
        ("After", False),
        ("✅ Correct", False),
        ("Platform (New)", False),
        ("Search", False),
        ("Holdout set", False),
    ],
)
def test_labels(label, old):
    assert markers.is_old(label) is old


def test_a_python_file_s_v2_comment_marks_the_code_under_it_only_next_to_v3(tmp_path):
    """A Python file is read for v3 only when a comment may mark code old (markers.py); the
    comment still needs the file to mention v3, and a file without one is judged as ever."""
    path = tmp_path / "app.py"
    path.write_text(f"{PLATFORM}{WRONG}\n", encoding="utf-8")
    assert [d.severity for d in run(path).diagnostics] == [Severity.ERROR]
    path.write_text(f"{PLATFORM}# v2\n{WRONG}\n", encoding="utf-8")
    assert [d.severity for d in run(path).diagnostics] == [Severity.ERROR]
    path.write_text(f"{PLATFORM}# v2\n{WRONG}\n# the v3 guide\n", encoding="utf-8")
    assert run(path).diagnostics == []
