"""MEM106: A filter dict passed by position (`search(q, {...})`, `get_all({...})`)."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import literal_value
from mem0lint.fixbuilders import arguments as argument_fixes
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.arguments.shared import filters_positional
from mem0lint.sdk.dialects import MEM0
from mem0lint.sdk.mem0_arguments import FILTER_POSITION, OPTION_KEYS, OPTIONS_MODEL


class PositionalFilters(Rule):
    code = "MEM106"
    versions = {"mem0ai": ">=2.0.0"}
    name = "positional-filters"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.ERROR
    summary = "A filter dict passed by position (`search(q, {...})`, `get_all({...})`)"
    why = (
        "Open source `search()` and `get_all()` take everything after the query by keyword only: "
        "a positional dict raises TypeError. On the Platform that slot is `options`, a "
        "`SearchMemoryOptions` / `GetAllMemoryOptions` model: a plain dict raises AttributeError "
        "('dict' object has no attribute 'model_dump'). A typed options object there is correct."
    )
    fix_safety = (
        "safe (passed as `filters=`) when the dict (or `dict(k=v, ...)`) is a filter and is the "
        "last positional "
        "argument; no fix for a dict of options or a non-dict argument"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", {"user_id": "alice"}, top_k=5)',
            good='client.search("q", filters={"user_id": "alice"}, top_k=5)',
            fixed='client.search("q", filters={"user_id": "alice"}, top_k=5)',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all({"user_id": "alice"})',
            good='memory.get_all(filters={"user_id": "alice"})',
            fixed='memory.get_all(filters={"user_id": "alice"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.search("q", 5, filters={"user_id": "alice"})',
            good='memory.search("q", top_k=5, filters={"user_id": "alice"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = filters_positional(site)
        if arg is None:
            return
        value = argument_fixes.dict_call_as_literal(site, site.follow(arg.value))
        index = FILTER_POSITION[site.method]
        # Platform: the slot is the `options` parameter; only a plain dict there is wrong.
        options_slot = index < site.spec.positional
        if options_slot:
            mechanism = (
                f"AttributeError: this slot is `options`, a `{OPTIONS_MODEL[site.method]}`, "
                "and a dict has no `model_dump`"
            )
        else:
            after = "the arguments after the query are" if index else "all arguments are"
            mechanism = f"TypeError: {after} keyword-only"
        if not isinstance(value, cst.Dict):
            if not options_slot:
                yield Finding(
                    arg,
                    f"`{site.method}()` takes no positional argument here ({mechanism}); pass "
                    "it by keyword",
                )
            return
        keys = {
            literal_value(e.key)[1]
            for e in value.elements
            if isinstance(e, cst.DictElement) and literal_value(e.key)[0]
        }
        if keys & OPTION_KEYS:
            yield Finding(
                arg,
                f"`{site.method}()` takes no positional dict ({mechanism}); pass its entries as "
                "keyword arguments (`filters=...`, `top_k=...`)",
            )
            return
        yield Finding(
            arg,
            f"`{site.method}()` takes no positional filter dict ({mechanism}); pass it as "
            "`filters=`",
            self._fix(site, arg),
        )

    @staticmethod
    def _fix(site: CallSite, arg: cst.Arg) -> Fix | None:
        if site.positional[-1] is not arg or any(a.star == "*" for a in site.call.args):
            return None  # more positionals follow: they would come after a keyword
        if "filters" in site.keywords or "filter" in site.keywords:
            return None  # two filters: the author must choose
        as_keyword = arg.with_changes(
            keyword=cst.Name("filters"),
            equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""),
                whitespace_after=cst.SimpleWhitespace(""),
            ),
        )
        return Fix(Applicability.SAFE, "Pass the dict as `filters=`", ((arg, as_keyword),))
