"""A call inside `try: ... finally:` (no `except` clause) expects no failure: its finding is
reported, and judging it does not crash (context.py once read an empty clause list as a
`with` context and raised IndexError on a real repository)."""

from __future__ import annotations

import textwrap

from mem0lint import engine

RULES = engine.RuleSet(engine.Settings())


def codes(source: str) -> list[str]:
    source = textwrap.dedent(source).lstrip("\n")
    return [d.code for d in engine.lint(engine.parse(source), RULES, source=source)]


def test_a_call_in_try_finally_is_reported():
    assert codes(
        """
        from mem0 import MemoryClient

        client = MemoryClient(api_key="k")

        def recall(user):
            try:
                return client.search("q", user_id=user)
            finally:
                print("done")
        """
    ) == ["MEM101"]


def test_try_finally_inside_try_except_keeps_the_outer_clause():
    assert (
        codes(
            """
        from mem0 import MemoryClient

        client = MemoryClient(api_key="k")

        def recall(user):
            try:
                try:
                    return client.search("q", user_id=user)
                finally:
                    print("done")
            except ValueError:
                return None
        """
        )
        == []
    )
