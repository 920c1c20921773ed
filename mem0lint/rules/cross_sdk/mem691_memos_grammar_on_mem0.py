"""MEM691: MemOS methods, keywords or field names used on a mem0 client."""

from __future__ import annotations

from typing import Iterator

from mem0lint import argvalues, fixes
from mem0lint.callsite import CallSite
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.sdk_args import number
from mem0lint.sdk.dialects import MEM0, MEMOS_KEYWORDS
from mem0lint.sdk.mem0_arguments import client_class
from mem0lint.sdk.memos import GRAMMAR

# MemOS Cloud's time field names -> mem0's.
MEM0_TIME_FIELDS = {cloud: mem0 for mem0, cloud in GRAMMAR.time_fields.items()}


class MemosGrammarOnMem0(Rule):
    code = "MEM691"
    versions = {"mem0ai": ">=2.0.0"}
    name = "memos-grammar-on-mem0"
    dialects = MEM0
    claims_keywords = frozenset(MEMOS_KEYWORDS)
    renames = {name: target for name, (target, _) in MEMOS_KEYWORDS.items() if target}
    severity = Severity.ERROR
    summary = "MemOS methods, keywords or field names used on a mem0 client"
    why = (
        "mem0 has no `search_memory()` (AttributeError). MemOS keywords (`memory_limit_number`, "
        "`relativity`, `conversation_id`) are silently ignored by mem0's `search()`, and MemOS "
        "field names (`create_time`) match nothing."
    )
    fix_safety = (
        "safe renames: `memory_limit_number` -> `top_k`, `relativity` -> `threshold` (literal "
        "in range), `create_time` / `update_time` -> `created_at` / `updated_at`"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"}, memory_limit_number=9, relativity=1)',
            good='client.search("q", filters={"user_id": "u"}, top_k=9, threshold=1)',
            fixed='client.search("q", filters={"user_id": "u"}, top_k=9, threshold=1)',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", filters={"user_id": "u", "create_time": {"gt": "2025-01-01"}})',
            good='memory.search("q", filters={"user_id": "u", "created_at": {"gt": "2025-01-01"}})',
            fixed=(
                'memory.search("q", filters={"user_id": "u", "created_at": {"gt": "2025-01-01"}})'
            ),
        ),
        Example(
            "mem0-platform",
            bad='client.search_memory("q", user_id="u")',
            good='client.search("q", filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        instead = GRAMMAR.mem0_equivalents.get(site.method)
        if instead is not None:
            yield Finding(
                site.call.func,
                f"mem0's `{client_class(site.dialect)}` has no `{site.method}()` "
                f"(AttributeError): that is MemOS's API; mem0 uses `{instead}`",
            )
            return
        if site.spec is None or site.method not in ("search", "get_all"):
            return
        if not site.rest:
            yield from self._keywords(site)
        yield from self._time_fields(site)

    def _keywords(self, site: CallSite) -> Iterator[Finding]:
        for name, (target, bounds) in MEMOS_KEYWORDS.items():
            arg = site.keyword(name)
            if arg is None:
                continue
            fix = None
            if target is not None and target in site.spec.params:
                value = number(arg.value)
                in_range = value is None or bounds[0] <= value <= bounds[1]
                accepted = argvalues.verdict(site.dialect.id, target, arg.value)
                if in_range and accepted is not False and site.keyword(target) is None:
                    safe = accepted and not site.has_star_args
                    fix = Fix(
                        Applicability.SAFE if safe else Applicability.UNSAFE,
                        f"Rename `{name}` to `{target}`",
                        (fixes.rename_keyword(arg, target),),
                    )
            else:
                target = None
            message = f"`{name}=` is MemOS's keyword; mem0's `{site.method}()` ignores it"
            message += f": use `{target}`" if target else ""
            yield Finding(arg, message, fix, severity=Severity.WARNING)  # ignored, not raised

    def _time_fields(self, site: CallSite) -> Iterator[Finding]:
        from mem0lint.rules.common import field_conditions

        for condition in field_conditions(site.filters):
            target = MEM0_TIME_FIELDS.get(condition.field)
            if target is None:
                continue
            fix = rename_key_fix(
                condition.owner.node,
                condition.entry,
                target,
                f"Rename `{condition.field}` to `{target}`",
            )
            yield Finding(
                condition.entry.key_node,
                f"`{condition.field}` is MemOS's field name; mem0 calls it `{target}`",
                fix,
                severity=Severity.WARNING,  # an unknown field matches nothing; no error
            )
