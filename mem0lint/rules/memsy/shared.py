"""Helpers and facts shared by several Memsy rules."""

from __future__ import annotations

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Finding
from mem0lint.rules.sdk_args import rename_fix

MEMSY = frozenset({"memsy"})
SESSION_PARAMS = ("session_id", "exclude_session_id")


# Wrong keyword -> Memsy's keyword (spec R40-R43). A rename applies only where the method has
# the target parameter (`memories.list` has no `threshold` or `session_id`).
RENAMES = {
    "top_k": "limit",
    "k": "limit",
    "n": "limit",
    "max_results": "limit",
    "min_score": "threshold",
    "score_threshold": "threshold",
    "user_id": "actor_id",
    "agent_id": "actor_id",
    "conversation_id": "session_id",
    "thread_id": "session_id",
}


# mem0's vocabulary: on a Memsy client these are cross-SDK confusion, reported by MEM692 (which
# names both SDKs); MEM606 reports every other unknown keyword.
MEM0_KEYWORDS = frozenset(
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


def keyword_finding(site: CallSite, arg: cst.Arg, mem0_style: bool) -> Finding:
    name = arg.keyword.value
    target = RENAMES.get(name)
    if target is not None and target not in site.spec.params:
        target = None
    fix = rename_fix(site, arg, target, RENAMES) if target else None
    if mem0_style:
        message = f"`{name}=` is mem0's vocabulary; Memsy's `{site.method}()` has no `{name}` "
        message += "parameter (TypeError)"
    else:
        message = f"`{site.method}()` has no parameter `{name}` (TypeError)"
    if target:
        message += f"; did you mean `{target}`?"
    return Finding(arg, message, fix)
