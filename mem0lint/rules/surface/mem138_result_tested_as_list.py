"""MEM138: a mem0 `search()` / `get_all()` result tested as a list, its other branch dropping it
(mem0ai >= 1.0)."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.results import discarding_list_tests
from mem0lint.sdk.dialects import MEM0


class ResultTestedAsList(Rule):
    code = "MEM138"
    name = "result-tested-as-list"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    versions = {"mem0ai": ">=1.0.0"}
    severity = Severity.WARNING
    summary = (
        "`isinstance(result, list)` on a `search()` / `get_all()` result, the other branch "
        "dropping it"
    )
    why = (
        'Since mem0ai 1.0 both return a dict, `{"results": [...]}` (MEM130), so '
        "`isinstance(result, list)` is always False. Code written for the old list "
        "(`return found if isinstance(found, list) else []`) then always takes the branch that "
        "drops the result: the caller gets no memory, and nothing fails. Reported only when that "
        "branch does not read the result (code that handles both shapes reads it there)."
    )
    fix_safety = 'none (the list is under `["results"]`, but what the branch should do is yours)'
    examples = [
        Example(
            "mem0-platform",
            bad=(
                "def recall(query):\n"
                '    found = client.search(query, filters={"user_id": "alice"})\n'
                "    return found if isinstance(found, list) else []"
            ),
            good=(
                "def recall(query):\n"
                '    found = client.search(query, filters={"user_id": "alice"})\n'
                '    return found["results"]'
            ),
        ),
        Example(
            "mem0-oss",
            bad=(
                'rows = memory.get_all(filters={"user_id": "alice"})\n'
                "if isinstance(rows, list):\n"
                "    shown = rows\n"
                "else:\n"
                "    shown = []"
            ),
            good=(
                'rows = memory.get_all(filters={"user_id": "alice"})\n'
                "if isinstance(rows, list):\n"
                "    shown = rows\n"
                "else:\n"
                '    shown = rows["results"]'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        # The shape does not depend on any keyword from 1.0.0 on (MEM130); a spread call is
        # left alone all the same.
        if site.has_star_args:
            return
        for name, test in discarding_list_tests(site):
            yield Finding(
                test,
                f"`isinstance({name}, list)` is always False: `{site.method}()` returns a dict "
                '`{"results": [...]}` since mem0ai 1.0, so the branch that keeps '
                f'`{name}` never runs; the memories are `{name}["results"]`',
            )
