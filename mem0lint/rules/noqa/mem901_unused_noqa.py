"""MEM901: A `# noqa: MEM...` code on a line where that rule reports nothing."""

from __future__ import annotations

from mem0lint.rule import Example
from mem0lint.rules.noqa.shared import SuppressionRule


class UnusedNoqa(SuppressionRule):
    code = "MEM901"
    name = "unused-noqa"
    summary = "A `# noqa: MEM...` code on a line where that rule reports nothing"
    why = (
        "A suppression that suppresses nothing hides the next real finding on that line and "
        "misleads readers into thinking the call is wrong. Codes of rules that are not enabled "
        "count as unused, as in Ruff."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"}, top_k=3)  # noqa: MEM102',
            good='client.search("q", filters={"user_id": "u"}, top_k=3)',
            fixed='client.search("q", filters={"user_id": "u"}, top_k=3)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u"})  # noqa: E501, MEM201',
            good='memory.search("q", filters={"user_id": "u"})  # noqa: E501',
            fixed='memory.search("q", filters={"user_id": "u"})  # noqa: E501',
        ),
    ]
