"""MEM118: `delete_all()` without any entity id."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.delete_all import METHODS
from mem0lint.rules.arguments.shared import camel_spelling_of, is_none
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import UNSCOPED_DELETE_ALL

# Keywords that show the author tried to scope the call; judged by the rules that own them.
SCOPING_ATTEMPTS = frozenset({"filters", "filter", "options"})


class DeleteAllUnscoped(Rule):
    code = "MEM118"
    versions = {"mem0ai": ">=2.0.0"}
    name = "delete-all-unscoped"
    dialects = MEM0
    methods = METHODS
    severity = Severity.ERROR
    summary = "`delete_all()` without any entity id"
    why = (
        "mem0 refuses to delete without a scope: open source raises ValueError, the Platform API "
        "rejects the request. Pass the ids to delete for."
    )
    examples = [
        Example(
            "mem0-platform",
            bad="client.delete_all()",
            good='client.delete_all(user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad="memory.delete_all(user_id=None)",
            good='memory.delete_all(user_id="alice")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.positional or site.has_star_args:
            return  # open source: positional ids; Platform: typed options
        entities = site.dialect.grammar.entity_fields
        for name, arg in site.keywords.items():
            if name in SCOPING_ATTEMPTS or camel_spelling_of(name) is not None:
                return  # MEM116 / MEM117 / MEM124 explain those
            if name in entities and not is_none(arg.value):
                return
        yield Finding(
            site.call, f"`delete_all()` without an entity id {UNSCOPED_DELETE_ALL[site.dialect.id]}"
        )
