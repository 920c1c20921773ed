"""MEM123: `list()`, `all()`, `get_memories()`, `list_memories()` on a mem0 client."""

from __future__ import annotations

from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.sdk.dialects import MEM0, WRONG_LIST_METHODS
from mem0lint.sdk.mem0_arguments import client_class


class WrongListMethod(Rule):
    code = "MEM123"
    name = "wrong-list-method"
    dialects = MEM0
    methods = WRONG_LIST_METHODS
    severity = Severity.ERROR
    summary = "`list()`, `all()`, `get_memories()`, `list_memories()` on a mem0 client"
    why = (
        "mem0 clients list memories with `get_all(filters=...)`; the other names do not exist "
        "and raise AttributeError."
    )
    fix_safety = (
        "safe (the method is renamed to `get_all`) when the call has no positional argument "
        '(`get_all` takes none: `list("u")` -> `get_all("u")` still fails); no fix otherwise'
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.list(filters={"user_id": "alice"})',
            good='client.get_all(filters={"user_id": "alice"})',
            fixed='client.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_memories(filters={"user_id": "alice"})',
            good='memory.get_all(filters={"user_id": "alice"})',
            fixed='memory.get_all(filters={"user_id": "alice"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        attr = site.call.func.attr
        cls = client_class(site.dialect)
        fix = None
        # `get_all` takes no positional filter or id (Platform: its first positional is the
        # `options` model; open source: keyword-only): `list("u")` -> `get_all("u")` still fails.
        if not site.positional and not any(a.star == "*" for a in site.call.args):
            fix = Fix(
                Applicability.SAFE, "Call `get_all`", ((attr, attr.with_changes(value="get_all")),)
            )
        yield Finding(
            attr,
            f"`{site.method}()` does not exist on `{cls}` (AttributeError); listing without a "
            "query is `get_all(filters=...)`",
            fix,
        )
