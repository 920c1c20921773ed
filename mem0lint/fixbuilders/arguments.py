"""Missing argument fixes: MEM103 with a numeric string, MEM106 with `dict(...)`, MEM101 when the
keyword repeats what `filters` already says.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from mem0lint.filtertree import DictValue, Scalar, literal_value
from mem0lint.rule import Applicability, Fix


def numeric_string_rename(arg: cst.Arg, rename: Callable[[cst.Arg], Optional[Fix]]) -> Fix | None:
    """MEM103: `min_score="0.5"` -> `threshold=0.5`. The string spells the number the author
    meant; the renamed keyword is checked (a string raises on open source, the Platform answers
    400), so the value is written as the number. `rename(arg)` is the rule's own rename of an arg
    holding that number (conflicts with other keywords, `**kwargs`, the accepted range)."""
    from mem0lint.rules.values.mem503_numeric_arg_type import numeric_text

    ok, text = literal_value(arg.value)
    if not ok or not isinstance(text, str):
        return None
    value = numeric_text(text, float)
    if value is None:
        return None
    number = cst.parse_expression(repr(value))
    fix = rename(arg.with_changes(value=number))
    if fix is None:
        return None
    return Fix(
        fix.applicability,
        f"{fix.message} and write the number {value!r}",
        (*fix.replacements, (arg.value, number)),
    )


def dict_call_as_literal(site, value: cst.BaseExpression) -> cst.BaseExpression:
    """MEM106: `dict(user_id="u")` read as the dict literal it builds (keywords only: no
    positional mapping, no `**spread`, and `dict` not rebound in the module)."""
    if not (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value == "dict"
        and value.args
        and all(a.keyword is not None and not a.star for a in value.args)
    ):
        return value
    if site.scope.lookup("dict"):
        return value  # a local `dict`: not the builtin
    return cst.Dict(
        [cst.DictElement(cst.SimpleString(repr(a.keyword.value)), a.value) for a in value.args]
    )


def repeated_entities(site, moved: list[cst.Arg]) -> Fix | None:
    """MEM101: `search(q, user_id="u", filters={"user_id": "u", ...})`. The keyword asks for what
    the filter's root already requires (root keys are ANDed), so the filter alone means the same:
    the keyword is dropped. Only when every moved keyword is such a repeat: the same key, exactly
    spelled, at the filter's root, last of its name and after every `**spread` (which could
    otherwise replace it), holding an equal literal of the same type."""
    tree = site.filters
    if not isinstance(tree, DictValue) or not moved:
        return None
    for arg in moved:
        ok, wanted = literal_value(arg.value)
        if not ok or wanted is None or isinstance(wanted, bool):
            return None
        name = arg.keyword.value
        entries = tree.entries
        last = max((i for i, e in enumerate(entries) if e.key == name), default=None)
        if last is None or any(e.key is None for e in entries[last + 1 :]):
            return None
        value = entries[last].value
        if not isinstance(value, Scalar) or type(value.value) is not type(wanted):
            return None
        if value.value != wanted:
            return None
    kept = [a for a in site.call.args if not any(a is m for m in moved)]
    from mem0lint import fixes

    names = ", ".join(f"`{a.keyword.value}=`" for a in moved)
    return Fix(
        Applicability.SAFE,
        f"Drop {names}: `filters` already requires the same value",
        ((site.call, fixes.with_args(site.call, kept)),),
    )
