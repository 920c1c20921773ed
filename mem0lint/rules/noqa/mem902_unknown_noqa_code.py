"""MEM902: A `MEM` code in a `noqa` comment that is not a mem0lint rule."""

from __future__ import annotations

from mem0lint.rule import Example
from mem0lint.rules.noqa.shared import SuppressionRule


class UnknownNoqaCode(SuppressionRule):
    code = "MEM902"
    name = "unknown-noqa-code"
    summary = "A `MEM` code in a `noqa` comment that is not a mem0lint rule"
    why = (
        "A misspelt code (`MEM2O1`, `MEM2010`) suppresses nothing; the author meant to silence "
        "something else, and the finding they meant is still reported."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"})  # noqa: MEM000',
            good='client.search("q", filters={"user_id": "u"})',
            fixed='client.search("q", filters={"user_id": "u"})',
        ),
    ]
