"""MEM107: A keyword `search()` / `get_all()` does not have (`output_format=`, `version=`...)."""

from __future__ import annotations

import functools
from typing import Iterator

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.arguments.shared import camel_spelling_of, not_a_parameter
from mem0lint.rules.sdk_args import asks_for_2x_default
from mem0lint.sdk.dialects import MEM0


@functools.cache
def explained_elsewhere(dialect: str, method: str) -> frozenset[str]:
    """Keywords another rule explains on this dialect's `method()` (MEM107 stays silent on them):
    the `claims_keywords` the rules declare."""
    from mem0lint.rules import all_rules  # at call time: every rule module is registered by then

    claimed = {
        keyword
        for rule in all_rules().values()
        if dialect in rule.dialects and (rule.methods is None or method in rule.methods)
        for keyword in rule.claims_keywords
    }
    return frozenset(claimed)


class OtherUnknownKwarg(Rule):
    code = "MEM107"
    versions = {"mem0ai": ">=2.0.0"}
    name = "other-unknown-kwarg"
    dialects = MEM0
    methods = frozenset({"search", "get_all"})
    severity = Severity.WARNING
    summary = "A keyword `search()` / `get_all()` does not have (`output_format=`, `version=`...)"
    why = (
        "mem0 `search()` and `get_all()` accept any keyword: open source drops unknown ones, the "
        "Platform SDK sends them and the API ignores them. Options from older versions "
        "(`output_format`, `version`, `enable_graph`) or other libraries do nothing. Where the "
        'value asks for what 2.x does anyway (`version="v2"`, `output_format="v1.1"`, '
        "`api_version=`, `enable_graph=False`) the keyword changes nothing and is not reported."
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.search("q", filters={"user_id": "u"}, enable_graph=True)',
            good='client.search("q", filters={"user_id": "u"})',
        ),
        Example(
            "mem0-oss",
            bad='memory.get_all(filters={"user_id": "u"}, fields=["memory"])',
            good='memory.get_all(filters={"user_id": "u"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        explained = explained_elsewhere(site.dialect.id, site.method)
        for name, arg in site.keywords.items():
            if name in site.spec.params or name in explained or camel_spelling_of(name):
                continue
            if asks_for_2x_default(name, arg.value):
                # Dead code that asks for what 2.x does anyway: no behaviour to change, so a
                # finding would be noise (judged false on every real repository that has one).
                continue
            yield Finding(arg, f"{not_a_parameter(site, name)}; remove it")
