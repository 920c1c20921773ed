"""Checks every SDK needs, written once and driven by the SDK's facts ("mirror" rules).

The same mistake has one rule per SDK, because each SDK words it differently and a user selects
codes per SDK; the check itself is the same. Each function here takes the facts (a `Range`, an
`EmptyText`, the grammar's logical keys, the method's filter keyword) and the call site, and
yields findings worded by the calling rule (`message`), so every rule keeps its code, message
and fix:

- `out_of_range`: MEM112 / MEM113 (mem0), MEM605 (Memsy), MEM654 / MEM655 (MemOS);
- `empty_query`: MEM114 (mem0), MEM663 (MemOS);
- `other_filter_keyword`: MEM105 (`filter=` on mem0), MEM652 (`filters=` on MemOS);
- `logical_key_case`: MEM202 (`and` on mem0), MEM656 (`AND` on MemOS).
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Union

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, literal_value
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Finding, Fix, Severity
from mem0lint.rules.common import logical_name
from mem0lint.rules.sdk_args import argument, number
from mem0lint.sdk.model import EmptyText, Number, Range

# The two spellings of the filter keyword: mem0 takes `filters`, MemOS `filter`.
FILTER_KEYWORDS = ("filter", "filters")


def out_of_range(
    site: CallSite, param: str, bounds: Range, message: Callable[[Number], str]
) -> Iterator[Finding]:
    """A literal number passed as `param` (by keyword or position) outside `bounds`."""
    arg = argument(site, param)
    value = number(arg.value) if arg is not None else None
    if value is None or (bounds.integer and not isinstance(value, int)):
        return  # not a literal number (or a float where an int is judged): other rules
    if not bounds.contains(value):
        yield Finding(arg, message(value))


def empty_query(site: CallSite, param: str, empty: EmptyText, message: str) -> Iterator[Finding]:
    """A literal `param` the SDK rejects as empty before sending the call."""
    arg = argument(site, param)
    if arg is None:
        return
    ok, value = literal_value(arg.value)
    if not ok:
        return
    if isinstance(value, str):
        is_empty = not (value.strip() if empty.strips else value)
    else:
        is_empty = value is None and empty.none
    if is_empty:
        yield Finding(arg, message)


def other_filter_keyword(
    site: CallSite,
    message: Callable[[bool], str],
    rename: Callable[[cst.Arg, str], Union[Fix, None]],
    both_severity: Union[Severity, None] = None,
) -> Iterator[Finding]:
    """The other SDK's spelling of the method's filter keyword (`Method.filter_param`).

    `message(both)` words the finding; `both` says the right keyword is given too, and then no
    rename is offered (it would repeat the keyword) and `both_severity` (None: the rule's) is
    used. Otherwise `rename(arg, right)` is the rule's fix, or None.
    """
    right = site.spec.filter_param if site.spec is not None else None
    if right not in FILTER_KEYWORDS:
        return
    arg = site.keyword(FILTER_KEYWORDS[1 - FILTER_KEYWORDS.index(right)])
    if arg is None:
        return
    if site.keyword(right) is not None:
        yield Finding(arg, message(True), severity=both_severity)
    else:
        yield Finding(arg, message(False), rename(arg, right))


def logical_key_case(
    dicts: Iterable[DictValue],
    logical: Iterable[str],
    message: Callable[[str, str], str],
    *,
    dollar_elsewhere: bool = False,
    keeps_meaning: Union[Callable[[], bool], None] = None,
) -> Iterator[Finding]:
    """Logical keys spelled otherwise than the grammar's `logical` keys (`and` on mem0, whose
    keys are `AND` / `OR` / `NOT`; `AND` or `$and` on MemOS, whose keys are `and` / `or`).

    `dicts` are the dicts in condition position (each SDK has its own reader); a logical key
    the grammar lacks (MemOS has no `not`) is left alone. `dollar_elsewhere`: `$`-spellings
    belong to another rule. `keeps_meaning`: asked before offering the rename (None: always).
    `message(key, right)` words the finding.
    """
    spellings = {logical_name(key): key for key in logical}
    for node in dicts:
        for entry in node.entries:
            key = entry.key
            right = spellings.get(logical_name(key))
            if right is None or key == right or (dollar_elsewhere and key.startswith("$")):
                continue
            fix = rename_key_fix(node, entry, right, f"Replace `{key}` with `{right}`")
            if fix is not None and keeps_meaning is not None and not keeps_meaning():
                fix = None
            yield Finding(entry.key_node, message(key, right), fix)
