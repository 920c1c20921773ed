"""MEM692: mem0's keywords (`top_k`, `user_id`, `filters`) or methods on a Memsy client."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Opaque, Scalar, read_filter
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.memsy.shared import keyword_finding
from mem0lint.rules.sdk_args import unknown_keywords
from mem0lint.sdk.memsy import GRAMMAR


class Mem0ArgsOnMemsy(Rule):
    code = "MEM692"
    name = "mem0-args-on-memsy"
    dialects = frozenset({"memsy"})
    # mem0's vocabulary: on a Memsy client these are cross-SDK confusion, reported here (naming
    # both SDKs); MEM606 reports every other unknown keyword.
    claims_keywords = frozenset(
        {
            "top_k",
            "filters",
            "user_id",
            "agent_id",
            "run_id",
            "app_id",
            "rerank",
            "page",
            "page_size",
            "show_expired",
            "reference_date",
            "fields",
            "categories",
            "metadata",
        }
    )
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
        if site.method in GRAMMAR.instead_of_mem0:
            instead = GRAMMAR.instead_of_mem0[site.method]
            advice = f"; Memsy uses `{instead}`" if instead else "; Memsy has no bulk delete"
            yield Finding(
                site.call.func,
                f"`MemsyClient` has no `{site.method}()` (AttributeError): that is mem0's "
                f"API{advice}",
            )
            return
        for arg in unknown_keywords(site):
            name = arg.keyword.value
            if name not in self.claims_keywords:
                continue  # MEM606
            if name == "filters":
                yield self._filters(site, arg)
            else:
                yield keyword_finding(site, arg, mem0_style=True)

    @staticmethod
    def _filters(site: CallSite, arg: cst.Arg) -> Finding:
        """A one-entity filter is Memsy's `actor_id`, when the ids are the same people."""
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
