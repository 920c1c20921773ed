"""MEM651-MEM665: MemOS Cloud calls (`MemOSClient.search_memory`, `get_memory`).

Facts from MemoryOS 2.0.33 (`memos/api/client.py`) and the MemOS Cloud docs (seed 004, filter
page): every parameter of `search_memory` is positional-or-keyword (the 4th is `agent_id`),
there is no `**kwargs`, and the client checks `query` and "exactly one of user_id / agent_id"
before sending. Filters are lowercase `and` / `or` groups, or per-source groups under `user`,
`agent`, `public`, `knowledgebase`. `from memos import MOS` (the local orchestrator) is another
API and is never judged here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import DictValue, Entry, FilterNode, ListValue
from mem0lint.renames import rename_key_fix
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.rules.common import logical_name
from mem0lint.rules.sdk_args import (
    argument,
    certainly_non_empty,
    literal,
    number,
    rename_fix,
    unknown_keywords,
)

MEMOS = frozenset({"memos"})
SUBJECT_METHODS = frozenset({"search_memory", "get_memory"})
FILTER_METHODS = frozenset({"search_memory", "get_memory"})

SOURCE_KEYS = frozenset({"user", "agent", "public", "knowledgebase"})
# Operators MemOS Cloud filters understand (a bare value means `=`).
OPERATORS = frozenset({"contains", "gt", "gte", "lt", "lte"})
# Self-hosted / mem0 time field names -> the Cloud names.
TIME_FIELDS = {"created_at": "create_time", "updated_at": "update_time"}
LIMIT_PARAMS = (
    "memory_limit_number",
    "preference_limit_number",
    "tool_memory_limit_number",
    "skill_limit_number",
)
MAX_LIMIT = 25
# Wrong keyword -> MemOS keyword (spec R51-R53), with the literal range the rename keeps valid.
RENAMES = {
    "top_k": "memory_limit_number",
    "limit": "memory_limit_number",
    "threshold": "relativity",
    "min_score": "relativity",
    "session_id": "conversation_id",
}
RENAME_RANGE = {"memory_limit_number": (0, MAX_LIMIT), "relativity": (0, 1)}


# Reading a MemOS filter ---------------------------------------------------------------------


@dataclass(eq=False)
class Group:
    """A dict in condition position: the root, a source group, or an item of an and/or list."""

    node: DictValue
    # "root", "source" (the value of `user`/`agent`/...), or "item" (inside an and/or list).
    role: str

    def logical_entries(self) -> list[Entry]:
        return [e for e in self.node.entries if logical_name(e.key) in ("AND", "OR")]

    def field_entries(self) -> list[Entry]:
        return [
            e
            for e in self.node.entries
            if e.key is not None
            and logical_name(e.key) is None
            and not (self.role == "root" and e.key in SOURCE_KEYS)
        ]


def groups(root: FilterNode | None) -> Iterator[Group]:
    if not isinstance(root, DictValue):
        return
    yield from _groups(root, "root")


def _groups(node: DictValue, role: str) -> Iterator[Group]:
    group = Group(node, role)
    yield group
    for entry in node.entries:
        if role == "root" and entry.key in SOURCE_KEYS and isinstance(entry.value, DictValue):
            yield from _groups(entry.value, "source")
        elif logical_name(entry.key) in ("AND", "OR") and isinstance(entry.value, ListValue):
            for item in entry.value.items:
                if isinstance(item, DictValue):
                    yield from _groups(item, "item")


def fields(root: FilterNode | None) -> Iterator[Entry]:
    """Field conditions (`scene: "chat"`, `create_time: {...}`), inside `info` wrappers too."""
    for group in groups(root):
        for entry in group.field_entries():
            yield entry
            if entry.key == "info" and isinstance(entry.value, DictValue):
                yield from (e for e in entry.value.entries if e.key is not None)


# Call arguments -----------------------------------------------------------------------------


class MemosSubjectExactlyOne(Rule):
    code = "MEM651"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-subject-exactly-one"
    dialects = MEMOS
    methods = SUBJECT_METHODS
    severity = Severity.ERROR
    summary = "MemOS `search_memory()` / `get_memory()` without exactly one `user_id` / `agent_id`"
    why = (
        "The client raises ValueError('exactly one of user_id or agent_id is required') before "
        "sending when both or neither is given (an empty string counts as absent). One user per "
        "request; agent-wide memory goes through `agent_id` alone."
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory(query="trip plans", conversation_id="0928")',
            good='client.search_memory(query="trip plans", user_id="memos_user_123")',
        ),
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", agent_id="travel_bot")',
            good='client.search_memory("q", agent_id="travel_bot")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if site.has_star_args:
            return
        states = [_presence(argument(site, p)) for p in ("user_id", "agent_id")]
        if states == ["absent", "absent"] or states == ["present", "present"]:
            what = "neither is given" if states[0] == "absent" else "both are given"
            yield Finding(
                site.call.func,
                f"`{site.method}()` needs exactly one of `user_id` / `agent_id`, but {what} "
                "(ValueError)",
            )


def _presence(arg: cst.Arg | None) -> str:
    """ "absent" (missing, None or ""), "present" (a non-empty literal) or "unknown"."""
    if arg is None or literal(arg.value) in (None, ""):
        return "absent"
    return "present" if certainly_non_empty(arg.value) else "unknown"


class MemosFiltersPlural(Rule):
    code = "MEM652"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-filters-plural"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "`filters=` (mem0's spelling) on MemOS, which takes `filter=`"
    why = (
        "MemOS methods have no `**kwargs`: `filters=` raises TypeError. The singular `filter=` "
        "is MemOS's name; `filters=` is mem0's."
    )
    fix_safety = "safe (renamed to `filter`, unless `filter` is already given)"
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", filters={"and": [{"scene": "chat"}]})',
            good='client.search_memory("q", user_id="u_1", filter={"and": [{"scene": "chat"}]})',
            fixed='client.search_memory("q", user_id="u_1", filter={"and": [{"scene": "chat"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("filters")
        if arg is None:
            return
        fix = rename_fix(site, arg, "filter", {"filters": "filter"})
        yield Finding(
            arg,
            f"MemOS `{site.method}()` takes `filter=`, not mem0's `filters=` (TypeError)",
            fix,
        )


class MemosUnknownKwarg(Rule):
    code = "MEM653"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-unknown-kwarg"
    dialects = MEMOS
    methods = FILTER_METHODS | {"add_message", "delete_memory", "update_memory"}
    severity = Severity.ERROR
    summary = "A keyword MemOS's method does not declare (`top_k`, `limit`, `metadata`...)"
    why = (
        "MemOS methods have no `**kwargs`: an unknown keyword raises TypeError. The result cap "
        "is `memory_limit_number`, the score floor `relativity`, the conversation "
        "`conversation_id` (it prioritises, it does not filter)."
    )
    fix_safety = (
        "safe renames: `top_k` / `limit` -> `memory_limit_number` (value <= 25), `threshold` / "
        "`min_score` -> `relativity` (value in [0, 1]), `session_id` -> `conversation_id`; "
        "unsafe beside `**kwargs` (it may hold the new keyword)"
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", top_k=9, threshold=0.8)',
            good='client.search_memory("q", user_id="u_1", memory_limit_number=9, relativity=0.8)',
            fixed='client.search_memory("q", user_id="u_1", memory_limit_number=9, relativity=0.8)',
        ),
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", session_id="0928")',
            good='client.search_memory("q", user_id="u_1", conversation_id="0928")',
            fixed='client.search_memory("q", user_id="u_1", conversation_id="0928")',
        ),
        Example(
            "memos",
            bad='client.add_message(messages, user_id="u_1", metadata={"k": "v"})',
            good='client.add_message(messages, user_id="u_1", info={"k": "v"})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for arg in unknown_keywords(site):
            name = arg.keyword.value
            if name == "filters":
                continue  # MEM652
            target = RENAMES.get(name)
            if target is not None and target not in site.spec.params:
                target = None
            fix = None
            if target is not None:
                value = number(arg.value)
                low, high = RENAME_RANGE.get(target, (None, None))
                if value is None or low is None or low <= value <= high:
                    fix = rename_fix(site, arg, target, RENAMES)
            message = f"`{name}` is not a MemOS `{site.method}()` parameter (TypeError)"
            if target is not None:
                message += f"; use `{target}`"
            yield Finding(arg, message, fix)


class MemosRelativityRange(Rule):
    code = "MEM654"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-relativity-range"
    dialects = MEMOS
    methods = frozenset({"search_memory"})
    severity = Severity.ERROR
    summary = "MemOS `relativity` outside [0, 1]"
    why = "`relativity` is a similarity floor between 0 and 1 (default 0.45; 0 disables it)."
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", relativity=45)',
            good='client.search_memory("q", user_id="u_1", relativity=0.45)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = argument(site, "relativity")
        value = number(arg.value) if arg is not None else None
        if value is not None and not 0 <= value <= 1:
            yield Finding(arg, f"`relativity={value}` must be in [0, 1]")


class MemosLimitMax(Rule):
    code = "MEM655"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-limit-max"
    dialects = MEMOS
    methods = frozenset({"search_memory"})
    severity = Severity.WARNING
    summary = "A MemOS `*_limit_number` over the documented maximum of 25"
    why = "The API documents a maximum of 25 for every `*_limit_number` of `search_memory`."
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u_1", memory_limit_number=50)',
            good='client.search_memory("q", user_id="u_1", memory_limit_number=25)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for name in LIMIT_PARAMS:
            arg = argument(site, name)
            value = number(arg.value) if arg is not None else None
            if value is not None and value > MAX_LIMIT:
                yield Finding(arg, f"`{name}={value}` exceeds the documented maximum {MAX_LIMIT}")


class MemosEmptyQuery(Rule):
    code = "MEM663"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-empty-query"
    dialects = MEMOS
    methods = frozenset({"search_memory"})
    severity = Severity.ERROR
    summary = "MemOS `search_memory()` with an empty `query`"
    why = "The client raises ValueError('query is required') for a falsy query."
    examples = [
        Example(
            "memos",
            bad='client.search_memory("", user_id="u_1")',
            good='client.search_memory("travel plans", user_id="u_1")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = argument(site, "query")
        if arg is not None and literal(arg.value) in ("", None):
            yield Finding(arg, "`query` is required: an empty query raises ValueError")


class MemosPositionalArgs(Rule):
    code = "MEM665"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-positional-args"
    dialects = MEMOS
    methods = frozenset({"search_memory"})
    severity = Severity.WARNING
    summary = "More than three positional arguments to MemOS `search_memory()`"
    why = (
        "Every parameter is positional-or-keyword, in the order query, user_id, "
        "conversation_id, agent_id, memory_limit_number...: a 4th positional argument meant as "
        "a limit becomes `agent_id`."
    )
    fix_safety = (
        "safe: each positional argument past the third gets the keyword it binds to; none when "
        "`user_id` is given too (then the 4th was surely meant as a limit, and the call raises "
        "ValueError with both ids: MEM651)"
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", None, "0928", "agent_7")',
            good='client.search_memory("q", conversation_id="0928", agent_id="agent_7")',
            fixed='client.search_memory("q", None, "0928", agent_id="agent_7")',
        ),
        Example(
            "memos",
            bad='client.search_memory("q", "u_1", "0928", 10)',
            good='client.search_memory("q", "u_1", "0928", memory_limit_number=10)',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        positional = site.positional
        if len(positional) <= 3 or site.has_star_args:
            return
        params = site.spec.params
        fix = None
        user = argument(site, "user_id")
        user_given = user is not None and literal(user.value) not in (None, "")
        if len(positional) <= len(params) and not user_given:
            args = [
                a.with_changes(
                    keyword=cst.Name(params[i]),
                    equal=cst.AssignEqual(
                        whitespace_before=cst.SimpleWhitespace(""),
                        whitespace_after=cst.SimpleWhitespace(""),
                    ),
                )
                if 3 <= i < len(positional)
                else a
                for i, a in enumerate(site.call.args)
            ]
            fix = Fix(
                Applicability.SAFE,
                "Pass the arguments past the third by keyword",
                ((site.call, fixes.with_args(site.call, args)),),
            )
        for index, arg in enumerate(positional[3:], start=3):
            if index >= len(params):
                break
            yield Finding(
                arg,
                f"positional argument #{index + 1} binds to `{params[index]}`"
                + (" (the 4th is `agent_id`, not a limit)" if index == 3 else ""),
                fix,
            )


# Filter grammar -----------------------------------------------------------------------------


class MemosUppercaseLogic(Rule):
    code = "MEM656"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-uppercase-logic"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`AND` / `OR` / `$and` in a MemOS filter: MemOS logic is lowercase `and` / `or`"
    why = (
        "MemOS reads only lowercase `and` / `or`. An uppercase (mem0-style) or `$` key is not a "
        "logical group: the server treats the root as something else and drops the filter."
    )
    fix_safety = "safe"
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u", filter={"AND": [{"scene": "chat"}]})',
            good='client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}]})',
            fixed='client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for group in groups(site.filters):
            for entry in group.logical_entries():
                lower = logical_name(entry.key).lower()
                if entry.key == lower:
                    continue
                fix = rename_key_fix(
                    group.node, entry, lower, f"Replace `{entry.key}` with `{lower}`"
                )
                yield Finding(
                    entry.key_node,
                    f"MemOS logical keys are lowercase: `{lower}`, not `{entry.key}`",
                    fix,
                )


class MemosRootShape(Rule):
    code = "MEM657"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-root-shape"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "A bare condition at the root of a MemOS filter (or of a source group)"
    why = (
        "The root must be one `and` / `or` group, or source keys (`user`, `agent`, `public`, "
        '`knowledgebase`) each holding such a group. A bare `{"scene": "chat"}` root is '
        "not read as a condition and the filter is ignored."
    )
    fix_safety = "safe (the bare conditions are wrapped in, or moved into, the `and` group)"
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u", filter={"scene": "chat", "biz_id": "b1"})',
            good=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}, '
                '{"biz_id": "b1"}]})'
            ),
            fixed=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}, '
                '{"biz_id": "b1"}]})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for group in groups(site.filters):
            if group.role == "item":
                continue
            node = group.node
            if group.role == "root" and SOURCE_KEYS.intersection(node.keys()):
                continue  # per-source mode; a bare key next to source keys is MEM661's
            bare = group.field_entries()
            if not bare:
                continue
            yield Finding(
                bare[0].element,
                "a bare condition at the filter root is ignored by MemOS; put the conditions "
                'in an `"and"` list',
                self._fix(group, bare),
            )

    @staticmethod
    def _fix(group: Group, bare: list[Entry]) -> Fix | None:
        node = group.node
        if not node.complete:
            return None
        logical = group.logical_entries()
        conditions = [
            cst.Element(fixes.single_line_dict([fixes.strip_comma(e.element)])) for e in bare
        ]
        if not logical:
            new = node.node.with_changes(
                elements=[fixes.dict_element("and", cst.List(conditions), like=bare[0].key_node)]
            )
        elif len(logical) == 1 and logical[0].key == "and" and len(bare) + 1 == len(node.entries):
            # Siblings of the root `and` are ANDed with it: moving them inside keeps the meaning.
            items = logical[0].value
            if not isinstance(items, ListValue) or not isinstance(items.node, cst.List):
                return None
            new_list = fixes.with_elements(items.node, [*items.node.elements, *conditions])
            new = node.node.with_changes(
                elements=fixes.normalise_commas(
                    node.node.elements, [logical[0].element.with_changes(value=new_list)]
                )
            )
        else:
            return None
        return Fix(
            Applicability.SAFE, 'Wrap the conditions in an `"and"` list', ((node.node, new),)
        )


class MemosUnsupportedOp(Rule):
    code = "MEM658"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-unsupported-op"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "An operator MemOS filters do not support (`ne`, `in`, `nin`, `icontains`, `$gte`...)"
    why = (
        "MemOS Cloud filters support equality (a bare value), `contains` (tags) and "
        "`gt` / `gte` / `lt` / `lte` (times). Unknown operators are skipped: the condition "
        "silently stops filtering."
    )
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u", filter={"and": [{"scene": {"ne": "x"}}]})',
            good='client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for entry in fields(site.filters):
            if entry.key == "info" or not isinstance(entry.value, DictValue):
                continue
            for op in entry.value.entries:
                if op.key is not None and op.key not in OPERATORS:
                    yield Finding(
                        op.key_node,
                        f"`{op.key}` is not supported in MemOS filters (only a bare value, "
                        "`contains`, `gt`, `gte`, `lt`, `lte`); the condition is skipped",
                    )


class MemosInfoWrapper(Rule):
    code = "MEM659"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-info-wrapper"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = 'Info fields wrapped in `{"info": {...}}` in a MemOS filter'
    why = "MemOS Cloud filters address `info` fields by their bare name (`scene`, `biz_id`)."
    fix_safety = "safe"
    examples = [
        Example(
            "memos",
            bad='client.search_memory("q", user_id="u", filter={"and": [{"info": {"a": "x"}}]})',
            good='client.search_memory("q", user_id="u", filter={"and": [{"a": "x"}]})',
            fixed='client.search_memory("q", user_id="u", filter={"and": [{"a": "x"}]})',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for group in groups(site.filters):
            for entry in group.field_entries():
                if entry.key != "info" or not isinstance(entry.value, DictValue):
                    continue
                inner = entry.value
                fix = None
                clash = set(group.node.keys()).intersection(inner.keys())
                if inner.complete and inner.entries and not clash:
                    elements = []
                    for element in group.node.node.elements:
                        if element is entry.element:
                            elements.extend(inner.node.elements)
                        else:
                            elements.append(element)
                    new = fixes.with_elements(group.node.node, elements)
                    fix = Fix(
                        Applicability.SAFE, "Unwrap the `info` fields", ((group.node.node, new),)
                    )
                yield Finding(
                    entry.key_node,
                    "write info fields by their bare name, not under `info`",
                    fix,
                )


# The hosts of MemOS Cloud (MemOSClient's defaults); a self-hosted MemOS server names its time
# fields `created_at` / `updated_at`.
CLOUD_HOSTS = ("memos.memtensor.cn", "api.memt.ai")


def _may_be_self_hosted(site: CallSite) -> bool:
    """Does the file make a MemOSClient with a `base_url=` that is not MemOS Cloud's? Then which
    server a call reaches, and so its time field names, cannot be told."""
    from mem0lint.filtertree import literal_value

    resolver = site.resolver
    for call, scope in resolver.collector.calls:
        if resolver.qualified_name(call.func, scope) != "memos.api.client.MemOSClient":
            continue
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "base_url":
                ok, value = literal_value(arg.value)
                if not (ok and isinstance(value, str) and any(h in value for h in CLOUD_HOSTS)):
                    return True
    return False


class MemosTimeFieldName(Rule):
    code = "MEM660"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-time-field-name"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`created_at` / `updated_at` in a MemOS Cloud filter"
    why = (
        "MemOS Cloud time fields are `create_time` / `update_time`; `created_at` is mem0's (and "
        "self-hosted MemOS's) name and matches nothing on the Cloud."
    )
    fix_safety = "safe"
    examples = [
        Example(
            "memos",
            bad=(
                'client.search_memory("q", user_id="u", '
                'filter={"and": [{"created_at": {"gte": "2025-01-01"}}]})'
            ),
            good=(
                'client.search_memory("q", user_id="u", '
                'filter={"and": [{"create_time": {"gte": "2025-01-01"}}]})'
            ),
            fixed=(
                'client.search_memory("q", user_id="u", '
                'filter={"and": [{"create_time": {"gte": "2025-01-01"}}]})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        if _may_be_self_hosted(site):
            return
        for group in groups(site.filters):
            for entry in group.field_entries():
                target = TIME_FIELDS.get(entry.key)
                if target is None:
                    continue
                fix = rename_key_fix(
                    group.node, entry, target, f"Rename `{entry.key}` to `{target}`"
                )
                yield Finding(
                    entry.key_node,
                    f"MemOS Cloud time fields are `create_time` / `update_time`: use `{target}`",
                    fix,
                )


class MemosMixedFilterModes(Rule):
    code = "MEM661"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-mixed-filter-modes"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.ERROR
    summary = "A global `and` / `or` (or bare condition) next to source keys at a MemOS root"
    why = (
        "A filter is either one global `and` / `or` group or per-source groups (`user`, "
        "`agent`, `public`, `knowledgebase`), not both."
    )
    examples = [
        Example(
            "memos",
            bad=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}], '
                '"public": {"and": [{"tags": {"contains": "notice"}}]}})'
            ),
            good=(
                'client.search_memory("q", user_id="u", filter={"user": {"and": [{"scene": '
                '"chat"}]}, "public": {"and": [{"tags": {"contains": "notice"}}]}})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        root = site.filters
        if not isinstance(root, DictValue) or not SOURCE_KEYS.intersection(root.keys()):
            return
        for entry in root.entries:
            if entry.key is not None and entry.key not in SOURCE_KEYS:
                yield Finding(
                    entry.key_node,
                    f"do not mix `{entry.key}` with source keys (user / agent / public / "
                    "knowledgebase) at the filter root; put it inside a source group",
                )


class MemosAndOrSiblings(Rule):
    code = "MEM662"
    versions = {"memoryos": ">=2.0.24"}
    name = "memos-and-or-siblings"
    dialects = MEMOS
    methods = FILTER_METHODS
    severity = Severity.WARNING
    summary = "`and` and `or` side by side in one MemOS group"
    why = (
        "A group holds one logical key. With `and` and `or` as siblings one branch is ignored "
        "(the server keeps `or`); nest one inside the other."
    )
    examples = [
        Example(
            "memos",
            bad=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}], '
                '"or": [{"biz_id": "a"}, {"biz_id": "b"}]})'
            ),
            good=(
                'client.search_memory("q", user_id="u", filter={"and": [{"scene": "chat"}, '
                '{"or": [{"biz_id": "a"}, {"biz_id": "b"}]}]})'
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        for group in groups(site.filters):
            logical = group.logical_entries()
            names = {logical_name(e.key) for e in logical}
            if names == {"AND", "OR"}:
                yield Finding(
                    logical[-1].key_node,
                    "`and` and `or` at one level: one branch is ignored; nest the `or` group "
                    "inside the `and` list",
                )
