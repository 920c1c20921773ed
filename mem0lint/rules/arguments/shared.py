"""What several mem0 argument rules need: the wrong keyword spellings and value ranges, keyword
renames that never repeat a keyword, number literals, the positional filter slot.
"""

from __future__ import annotations

import functools
import re

import libcst as cst

from mem0lint import argvalues, fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value
from mem0lint.rule import Applicability, Fix
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import FILTER_POSITION, KNOWN_SNAKE, UNKNOWN_KEYWORD_FATE


def not_a_parameter(site: CallSite, keyword: str) -> str:
    return f"`{keyword}=` is not a `{site.method}()` parameter ({ignored_by(site)})"


@functools.lru_cache(maxsize=1024)  # asked of every keyword of every call, by three rules
def camel_to_snake(name: str) -> str:
    return _HUMP.sub(r"_\1", name).lower()


_HUMP = re.compile(r"(?<=[a-z0-9])([A-Z])")


def camel_spelling_of(name: str) -> str | None:
    """The snake_case mem0 keyword `name` is a camelCase spelling of (MEM124), else None."""
    snake = camel_to_snake(name)
    return snake if snake != name and snake in KNOWN_SNAKE else None


@functools.cache
def _keyword_renames() -> dict[str, frozenset[str]]:
    """Keyword -> every keyword the fix of some mem0 rule may rename it to: the rules' declared
    `renames` of keywords they claim (`claims_keywords`), so filter-key renames do not count."""
    from mem0lint.rules import all_rules  # at call time: every rule module is registered by then

    targets: dict[str, set[str]] = {}
    for rule in all_rules().values():
        if rule.dialects & MEM0:
            for old, new in rule.renames.items():
                if old in rule.claims_keywords:
                    targets.setdefault(old, set()).add(new)
    return {old: frozenset(new) for old, new in targets.items()}


def _could_become(name: str) -> frozenset[str]:
    """Every keyword some rule may rename `name` to (conservative: any method, any dialect)."""
    targets = set(_keyword_renames().get(name, ()))
    snake = camel_to_snake(name)  # MEM124 renames any camelCase spelling: not a fixed table
    if snake != name:
        targets.add(snake)
    return frozenset(targets)


def rename_fix(site: CallSite, arg: cst.Arg, target: str, message: str, safe: bool = True):
    """A fix renaming the keyword of `arg` to `target`, or None when that could repeat a keyword.

    Several rules rename into the same keyword (`limit=` and `topK=` both become `top_k=`) and
    the fix loop applies non-overlapping fixes of one round together: a fix is offered only when
    no other keyword of the call is, or may become, `target`. With `**kwargs` in the call the
    target may already be in the spread (a TypeError after the rename): unsafe.
    """
    for name in site.keywords:
        if name != arg.keyword.value and (name == target or target in _could_become(name)):
            return None
    if target == "filters" and positional_filter_dict(site) is not None:
        return None  # MEM106 turns the positional dict into `filters=`
    applicability = Applicability.SAFE if safe else Applicability.UNSAFE
    accepted = argvalues.verdict(site.dialect.id, target, arg.value)
    if accepted is False:
        return None  # the renamed call would raise (argvalues.py)
    if accepted is None:
        applicability = Applicability.UNSAFE
        message += f" (the value must be one `{target}` accepts)"
    if site.has_star_args:
        applicability = Applicability.UNSAFE
        message += " (the `**` spread may hold it already)"
    return Fix(applicability, message, (fixes.rename_keyword(arg, target),))


def number(arg: cst.Arg) -> int | float | None:
    """The value of an int or float literal (bool excluded), else None."""
    ok, value = literal_value(arg.value)
    if ok and isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def in_range(value: float, bounds: tuple) -> bool:
    low, high = bounds
    return (low is None or value >= low) and (high is None or value <= high)


def filters_positional(site: CallSite) -> cst.Arg | None:
    """The positional argument in the place of the filter (`search(q, HERE)`, `get_all(HERE)`)."""
    index = FILTER_POSITION.get(site.method)
    if index is None:
        return None
    positional = site.positional
    return positional[index] if len(positional) > index else None


def positional_filter_dict(site: CallSite) -> cst.Arg | None:
    """That argument when it is a dict literal (or a name bound once to one)."""
    arg = filters_positional(site)
    if arg is not None and isinstance(site.follow(arg.value), cst.Dict):
        return arg
    return None


def ignored_by(site: CallSite) -> str:
    """How the called method treats a keyword it does not declare, for messages."""
    return UNKNOWN_KEYWORD_FATE[site.spec.on_unknown]


def is_none(node: cst.BaseExpression) -> bool:
    """The literal `None` (`user_id=None` means no user: no scope)."""
    return isinstance(node, cst.Name) and node.value == "None"
