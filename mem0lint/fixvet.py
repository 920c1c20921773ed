"""A safe fix must leave its statement clean under the whole rule set of its dialect.

`vet` applies the safe fixes of one lint (the non-overlapping ones together, as a round of
`engine.fix` would), checks the fixed module again, and compares each statement's findings before
and after. A statement that gains a finding the next round cannot fix safely (a new error or
warning: MEM101's `user_id` + `agent_id` then flagged by MEM403; a rename that makes a MEM601
error; `list("u")` -> `get_all("u")`) had a fix that was not safe: it is downgraded to unsafe.
When several safe fixes share a statement, each is tried alone to find the one to blame.

A finding the fixed statement gains *with* a safe fix of its own is the next step of a chain
(MEM106 turns a positional dict into `filters=`, whose `$and` MEM201 then respells) and blames
nothing; the fix loop applies it in the next round.
"""

from __future__ import annotations

import ast
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Callable, Iterator, Union

import libcst as cst

from mem0lint.results import Applicability, Diagnostic, Fix
from mem0lint.walk import replaced_in

if TYPE_CHECKING:
    from mem0lint.engine import RuleSet

NOTE = " (unsafe: the fixed call has new findings)"

# While set (see `deferred`): where `vet` leaves its work instead of doing it.
_DEFERRED: ContextVar[Union[list, None]] = ContextVar("mem0lint_fixvet_deferred", default=None)


@contextmanager
def deferred() -> Iterator[list[Callable[[], None]]]:
    """Within it, `vet` does nothing but append to the list it yields a callable that vets
    (the same diagnostics, in place, as it would have): the language server publishes findings
    first and vets only when a code action needs to know which fixes are safe. Findings,
    positions and messages do not depend on vetting; only `Diagnostic.fix` does."""
    pending: list[Callable[[], None]] = []
    token = _DEFERRED.set(pending)
    try:
        yield pending
    finally:
        _DEFERRED.reset(token)


def _unit_of(diagnostic: Diagnostic, whole: bool) -> tuple:
    return () if whole else (diagnostic.unit or ())


def _overlaps(a: tuple, b: tuple) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _tally(diagnostics: list[Diagnostic], whole: bool) -> dict[tuple, Counter]:
    counts: dict[tuple, Counter] = {}
    for d in diagnostics:
        counts.setdefault(_unit_of(d, whole), Counter())[d.code] += 1
    return counts


def _unfixable(diagnostic: Diagnostic) -> bool:
    fix = diagnostic.fix
    return fix is None or fix.applicability is not Applicability.SAFE


def vet(
    module: cst.Module,
    diagnostics: list[Diagnostic],
    rules: RuleSet,
    check: Callable[[cst.Module, Union[set, None]], list[Diagnostic]],
) -> None:
    """Downgrade, in place, the safe fixes of `diagnostics` whose fixed statement gains a finding
    that is not safely fixable. `check(module, units)` lints a module the way `diagnostics` were
    made, judging only the calls in `units` (None: every call)."""
    pending = _DEFERRED.get()
    if pending is not None:
        pending.append(lambda: _vet(module, diagnostics, rules, check))
        return
    _vet(module, diagnostics, rules, check)


def _vet(module, diagnostics, rules, check) -> None:
    chosen: list[Diagnostic] = []
    taken: list[tuple] = []
    for d in diagnostics:
        if d.fix is None or d.fix.applicability is not Applicability.SAFE or d.edits is None:
            continue
        spans = [(e.location, e.end_location) for e in d.edits]
        if any(_overlaps(s, t) for s in spans for t in taken):
            continue
        taken.extend(spans)
        chosen.append(d)
    if not chosen:
        return

    def gains(group: list[Diagnostic]) -> Union[set[tuple], None]:
        """Units that gain an unfixable finding when `group` is applied; None: no parse."""
        replacements = {}
        for d in group:
            for old, new in d.fix.replacements:
                replacements[id(old)] = new
        try:
            # The replaced tree is checked as it is: no code generation, no second parse; only
            # the statements the fixes are for are rebuilt (all of them if an edit is elsewhere).
            tops = {d.unit[0] for d in group if d.unit}
            fixed = _replace(module, replacements, tops)
        except Exception:  # noqa: BLE001 - a fix that breaks the tree is not safe
            return None
        whole = len(fixed.body) != len(module.body)
        # Only the statements the fixes are for are judged again (a unit of None: all of them).
        units = None if whole else {d.unit for d in group}
        if units is not None and None in units:
            units = None
        after = check(fixed, units)
        before_counts = _tally(diagnostics, whole)
        bad: set[tuple] = set()
        new_counts = _tally([d for d in after if _unfixable(d)], whole)
        for unit, counts in new_counts.items():
            every = before_counts.get(unit, Counter())
            for code, count in counts.items():
                # More unfixable findings than the statement had findings of that code, less
                # those the group answers: the fix made one.
                if count > every[code] - _fixed(group, unit, code, whole):
                    bad.add(unit)
        if whole and bad:
            bad = {_unit_of(d, False) for d in group}
        return bad

    blamed = gains(chosen)
    if blamed is None and any(_requote(module, d, diagnostics) for d in chosen):
        blamed = gains(chosen)  # a string written in the quote of the f-string around it
    if blamed is not None and not blamed:
        return
    suspects = [d for d in chosen if blamed is None or _unit_of(d, False) in blamed]
    by_unit: dict[tuple, list[Diagnostic]] = {}
    for d in suspects:
        by_unit.setdefault(_unit_of(d, False), []).append(d)
    for group in by_unit.values():
        if len(group) == 1 and blamed is not None:
            _downgrade(group[0], diagnostics)
            continue
        for d in group:
            if gains([d]) != set():
                _downgrade(d, diagnostics)


def _fixed(group: list[Diagnostic], unit: tuple, code: str, whole: bool) -> int:
    """How many findings of `code` in `unit` the group's fixes answer (they should go away)."""
    return sum(1 for d in group if d.code == code and _unit_of(d, whole) == unit)


def _downgrade(diagnostic: Diagnostic, diagnostics: list[Diagnostic]) -> None:
    """Make the fix unsafe for every finding that shares it (MEM101 gives one per keyword)."""
    fix = diagnostic.fix
    unsafe = Fix(Applicability.UNSAFE, fix.message + NOTE, fix.replacements)
    for d in diagnostics:
        if d.fix is fix:
            d.fix = unsafe


def _requote(module: cst.Module, diagnostic: Diagnostic, diagnostics: list[Diagnostic]) -> bool:
    """A fix whose rebuilt statement does not parse because it writes a string in the quote of
    an f-string around it (before Python 3.12) is given the other quote, for every finding that
    shares it; True if that changed it."""
    from mem0lint import fixcheck
    from mem0lint.engine import refix

    fix = diagnostic.fix
    tops = {diagnostic.unit[0]} if diagnostic.unit else set(range(len(module.body)))

    def parses(replacements) -> bool:
        try:
            _replace(module, {id(old): new for old, new in replacements}, tops)
        except SyntaxError:
            return False
        return True

    if parses(fix.replacements):
        return False
    for quote in ("'", '"'):
        replacements = fixcheck.requoted(fix.replacements, quote)
        if parses(replacements):
            refix(module, diagnostics, fix, replacements)
            return True
    return False


def _replace(module: cst.Module, replacements: dict, tops: set) -> cst.Module:
    """`module` with the replacements made, looked for in the top-level statements `tops`
    first (the whole module when one is elsewhere); raises SyntaxError when a statement a
    replacement was made in does not parse."""
    statements: list[tuple[cst.CSTNode, cst.CSTNode]] = []
    fixed, _ = replaced_in(module, replacements, tops, statements)
    # Code that does not parse is not a fix: each innermost statement a replacement was made
    # in, read by Python's parser alone (a syntax error does not reach past its statement; the
    # statement, not the class or function around it, is generated).
    for before, after in statements:
        try:
            ast.parse(fixed.code_for_node(after).strip() or "pass")
        except SyntaxError:
            try:
                ast.parse(module.code_for_node(before).strip() or "pass")
            except SyntaxError:
                continue  # newer syntax than this Python's: not ours to judge
            raise
    return fixed
