"""Helpers and facts shared by several Memsy rules."""

from __future__ import annotations

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Finding
from mem0lint.rules.sdk_args import rename_fix
from mem0lint.sdk.memsy import GRAMMAR

MEMSY = frozenset({"memsy"})


def keyword_finding(site: CallSite, arg: cst.Arg, mem0_style: bool) -> Finding:
    name = arg.keyword.value
    target = GRAMMAR.keyword_renames.get(name)
    if target is not None and target not in site.spec.params:
        target = None
    fix = rename_fix(site, arg, target, GRAMMAR.keyword_renames) if target else None
    if mem0_style:
        message = f"`{name}=` is mem0's vocabulary; Memsy's `{site.method}()` has no `{name}` "
        message += "parameter (TypeError)"
    else:
        message = f"`{site.method}()` has no parameter `{name}` (TypeError)"
    if target:
        message += f"; did you mean `{target}`?"
    return Finding(arg, message, fix)
