"""A bound method through a local pass-through wrapper (bind/wrappers.py), in the binding-table
style of test_flow_binding.py: `# -> mem0-platform` (judged as that client's call), `# -> none`."""

from __future__ import annotations

import textwrap

import pytest
from conftest import fix_source, lint_source
from test_flow_binding import N, _sites_by_line, expected_bindings

HEAD = """
import asyncio
import functools
from functools import wraps
from mem0 import MemoryClient
client = MemoryClient()
"""

WRAP = """
def async_wrap(func):
    \"\"\"Run a blocking call in the default executor.\"\"\"
    @wraps(func)
    async def run(*args, **kwargs):
        log(f"{func.__name__} {args[:1]} {list(kwargs.keys())} {len(args)}")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: func(*args, **kwargs))
    return run
"""

CASES = {
    "a pass-through wrapper, called at once or through a name bound once": WRAP
    + """
async def main():
    await async_wrap(client.search)("q", user_id="u")  # -> mem0-platform
    search = async_wrap(client.search)
    await search(query="q", user_id="u")  # -> mem0-platform
""",
    "a name bound twice is not followed": WRAP
    + """
async def main(flag):
    search = async_wrap(client.search)
    if flag:
        search = other
    await search("q", user_id="u")  # -> none
""",
    "a wrapper that changes kwargs": """
def wrap(func):
    def run(*args, **kwargs):
        kwargs["user_id"] = None
        return func(*args, **kwargs)
    return run
def main():
    wrap(client.search)("q", user_id="u")  # -> none
""",
    "a wrapper that pops from kwargs": """
def wrap(func):
    def run(*args, **kwargs):
        kwargs.pop("user_id", None)
        return func(*args, **kwargs)
    return run
def main():
    wrap(client.search)("q", user_id="u")  # -> none
""",
    "a wrapper that calls with other arguments": """
def wrap(func):
    @functools.wraps(func)
    def run(*args, **kwargs):
        return func(*args, filters={"user_id": "u"})
    return run
def main():
    wrap(client.search)("q", user_id="u")  # -> none
""",
    "a wrapper that rebinds args": """
def wrap(func):
    def run(*args, **kwargs):
        args = args[1:]
        return func(*args, **kwargs)
    return run
def main():
    wrap(client.search)("q", user_id="u")  # -> none
""",
    "a wrapper with another decorator, or decorated itself": """
def wrap(func):
    @retry
    def run(*args, **kwargs):
        return func(*args, **kwargs)
    return run
@cache
def wrap2(func):
    def run(*args, **kwargs):
        return func(*args, **kwargs)
    return run
def main():
    wrap(client.search)("q", user_id="u")  # -> none
    wrap2(client.search)("q", user_id="u")  # -> none
""",
    "a wrapper with a statement after the inner def": """
def wrap(func):
    def run(*args, **kwargs):
        return func(*args, **kwargs)
    run = instrument(run)
    return run
def main():
    wrap(client.search)("q", user_id="u")  # -> none
""",
    "a wrapper that never calls func": """
def wrap(func):
    def run(*args, **kwargs):
        return cached(*args, **kwargs)
    return run
def main():
    wrap(client.search)("q", user_id="u")  # -> none
""",
    "an imported wrapper is not read": """
from helpers import async_wrap
async def main():
    await async_wrap(client.search)("q", user_id="u")  # -> none
""",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_wrapper_table(name):
    code = textwrap.dedent(HEAD) + CASES[name]
    expected = expected_bindings(code)
    assert expected, "every case annotates at least one call"
    by_line = _sites_by_line(code)
    for line, want in expected.items():
        got = "|".join(sorted(by_line.get(line, ()))) or N
        assert got == want, f"line {line}: {code.splitlines()[line - 1].strip()!r}: got {got}"


def test_findings_are_reported_on_the_real_call_and_argument_fixes_apply_there():
    code = (
        textwrap.dedent(HEAD)
        + WRAP
        + ("def main(mid):\n    return async_wrap(client.update)(memory_id=mid, data='x')\n")
    )
    found = [d for d in lint_source(code) if d.code == "MEM132"]
    assert [d.start[0] for d in found] == [len(code.splitlines())]
    assert "async_wrap(client.update)(memory_id=mid, text='x')" in fix_source(code)


def test_a_factory_returning_none_on_failure_still_gives_its_client():
    """`return None` in a set-up function: a call on None raises before it is made."""
    code = textwrap.dedent(HEAD) + (
        "def get_client():\n"
        "    try:\n        return MemoryClient()\n"
        "    except Exception:\n        return None\n"
        'get_client().search("q", user_id="u")  # -> mem0-platform\n'
    )
    by_line = _sites_by_line(code)
    for line, want in expected_bindings(code).items():
        assert "|".join(sorted(by_line.get(line, ()))) == want
