"""MEM690-MEM692: one SDK's grammar used on another SDK's client.

Reported in the receiver's dialect (the SDK that will run the call), and the message names both
SDKs so the mix-up is visible at once. Keyword problems that the receiver's own rules already
explain with the right name are left to them (MEM652/MEM653 on MemOS, MEM606 on Memsy for
non-mem0 words); these rules cover methods that do not exist on the receiver and the other SDK's
vocabulary.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import argvalues, fixes
from mem0lint.callsite import CallSite
from mem0lint.dialects import MEM0, MEMOS_KEYWORDS
from mem0lint.filtertree import DictValue, Opaque, Scalar, read_filter
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memsy.shared import MEM0_KEYWORDS, keyword_finding
from mem0lint.rules.sdk_args import number, unknown_keywords

# Methods that exist only in one SDK -> what to call on the other SDK instead.
MEM0_ONLY_METHODS = {
    "memos": {
        "search": "search_memory(query, user_id=..., filter=...)",
        "get_all": "get_memory(user_id=..., filter=...)",
        "delete_all": "delete_memory(user_id=...)",
    },
    "memsy": {
        "get_all": "memories.list(actor_id=...)",
        "delete_all": None,  # Memsy has no bulk delete
    },
}
MEMOS_ONLY_METHODS = {
    "search_memory": "search(query, filters={...})",
    "get_memory": "get_all(filters={...})",
}
MEMOS_TIME_FIELDS = {"create_time": "created_at", "update_time": "updated_at"}


class Mem0GrammarOnMemos(Rule):
    code = "MEM690"
    versions = {"memoryos": ">=2.0.24"}
    name = "mem0-grammar-on-memos"
    dialects = frozenset({"memos"})
    severity = Severity.ERROR
    summary = "mem0's `search()` / `get_all()` / `delete_all()` called on a MemOS client"
    why = (
        "`MemOSClient` has no `search`, `get_all` or `delete_all` (AttributeError): those are "
        "mem0's methods. MemOS searches with `search_memory(query, user_id=..., filter=...)`."
    )
    examples = [
        Example(
            "memos",
            bad='client.search("trip plans", filters={"user_id": "u_1"})',
            good='client.search_memory("trip plans", user_id="u_1")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        instead = MEM0_ONLY_METHODS["memos"].get(site.method)
        if instead is not None:
            yield Finding(
                site.call.func,
                f"`MemOSClient` has no `{site.method}()` (AttributeError): that is mem0's API; "
                f"MemOS uses `{instead}`",
            )


class MemosGrammarOnMem0(Rule):
    code = "MEM691"
    versions = {"mem0ai": ">=2.0.0"}
    name = "memos-grammar-on-mem0"
    dialects = MEM0
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
        instead = MEMOS_ONLY_METHODS.get(site.method)
        if instead is not None:
            yield Finding(
                site.call.func,
                f"mem0's `{type_name(site)}` has no `{site.method}()` (AttributeError): that is "
                f"MemOS's API; mem0 uses `{instead}`",
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
            target = MEMOS_TIME_FIELDS.get(condition.field)
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


def type_name(site: CallSite) -> str:
    return "MemoryClient" if site.dialect.id == "mem0-platform" else "Memory"


class Mem0ArgsOnMemsy(Rule):
    code = "MEM692"
    name = "mem0-args-on-memsy"
    dialects = frozenset({"memsy"})
    severity = Severity.ERROR
    summary = "mem0's keywords (`top_k`, `user_id`, `filters`) or methods on a Memsy client"
    why = (
        "Memsy's `search()` is keyword-only with no `**kwargs`: mem0's `top_k=`, `user_id=` or "
        "`filters=` raise TypeError. Memsy spells them `limit`, `actor_id`, and has no filter "
        "object. `get_all()` does not exist on Memsy (AttributeError)."
    )
    fix_safety = (
        "safe renames: `top_k` -> `limit`, `user_id` / `agent_id` -> `actor_id`; "
        '`filters={"user_id": u}` -> `actor_id=u` is unsafe (only right when ids are actors)'
    )
    examples = [
        Example(
            "memsy",
            bad='client.search("q", user_id="u1", top_k=5)',
            good='client.search("q", actor_id="u1", limit=5)',
            fixed='client.search("q", actor_id="u1", limit=5)',
        ),
        Example(
            "memsy",
            bad='client.search("q", filters={"user_id": "u1"})',
            good='client.search("q", actor_id="u1")',
            fixed='client.search("q", actor_id="u1")',
            unsafe=True,
        ),
        Example(
            "memsy",
            bad='client.get_all(filters={"user_id": "u1"})',
            good='client.memories.list(actor_id="u1")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.method in MEM0_ONLY_METHODS["memsy"]:
            instead = MEM0_ONLY_METHODS["memsy"][site.method]
            advice = f"; Memsy uses `{instead}`" if instead else "; Memsy has no bulk delete"
            yield Finding(
                site.call.func,
                f"`MemsyClient` has no `{site.method}()` (AttributeError): that is mem0's "
                f"API{advice}",
            )
            return
        for arg in unknown_keywords(site):
            name = arg.keyword.value
            if name not in MEM0_KEYWORDS:
                continue  # MEM606
            if name == "filters":
                yield self._filters(site, arg)
            else:
                yield keyword_finding(site, arg, mem0_style=True)

    @staticmethod
    def _filters(site: CallSite, arg: cst.Arg) -> Finding:
        """R47: a one-entity filter is Memsy's `actor_id`, when the ids are the same people."""
        tree = read_filter(arg.value)
        fix = None
        if (
            isinstance(arg.value, cst.Dict)
            and isinstance(tree, DictValue)
            and len(tree.entries) == 1
            and tree.entries[0].key in ("user_id", "agent_id")
            and isinstance(tree.entries[0].value, (Scalar, Opaque))
            and "actor_id" in site.spec.params
            and site.keyword("actor_id") is None
        ):
            value = tree.entries[0].value.node
            fix = Fix(
                Applicability.UNSAFE,
                "Replace `filters` with `actor_id`",
                ((arg, arg.with_changes(keyword=cst.Name("actor_id"), value=value)),),
            )
        return Finding(
            arg,
            f"`filters=` is mem0's; Memsy's `{site.method}()` has no filter object (TypeError): "
            "scope with `actor_id`, `session_id`, `role_ids`, `team_ids`",
            fix,
        )
