"""MEM145: the `messages` of open source `add()`: `None`, plain strings in a list, messages the
extraction drops (no `role`/`content`, a role other than user/assistant/system), empty input.

Read from mem0ai 2.0.0 to 2.2.1 (`Memory.add`, `_add_to_vector_store` in mem0/memory/main.py,
`parse_vision_messages` / `parse_messages` in mem0/memory/utils.py): `None` raises
Mem0ValidationError (VALIDATION_003); every list item goes through `msg.get("role")` (a string
raises AttributeError); an item without `content` is skipped; the extraction text keeps only the
roles user/assistant/system, and an item without `role` is skipped with `infer=False` too.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import str_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.ossadd import (
    argument,
    follow,
    infers,
    is_none,
    is_text,
    literal_keys,
)
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import OSS_ADD_ROLES

ROLES = " / ".join(OSS_ADD_ROLES)


class OssAddMessagesShape(Rule):
    code = "MEM145"
    name = "oss-add-messages-shape"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"add"})
    # The message handling read in 2.0.0, 2.0.4, 2.0.12, 2.1.0 and 2.2.1 (older releases raise
    # ValueError rather than Mem0ValidationError on `None`; not claimed).
    versions = {"mem0ai": ">=" + releases.V2}
    severity = Severity.WARNING
    summary = (
        "Open source `add()` messages that fail or are dropped: `None`, plain strings in a "
        "list, no `role`/`content`, roles outside user/assistant/system, empty input"
    )
    why = (
        "`Memory.add()` takes a string, one message dict or a list of message dicts. `None` "
        "raises Mem0ValidationError; a list of plain strings fails on `msg.get(...)` "
        "(AttributeError: 'str' object has no attribute 'get'). The rest fails silently: an "
        "item without `content` (or without `role`) is skipped, and the fact extraction reads "
        f'only the roles {ROLES}, so a `"human"` or `"ai"` message never reaches the LLM. '
        'An empty string or list adds nothing, yet still runs the LLM extraction (`""` with '
        "`infer=False` stores an empty memory)."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add(["I like tea", "I live in Paris"], user_id="alice")',
            good=(
                'memory.add([{"role": "user", "content": "I like tea"}, '
                '{"role": "user", "content": "I live in Paris"}], user_id="alice")'
            ),
        ),
        Example(
            "mem0-oss",
            bad='memory.add([{"role": "human", "content": "I like tea"}], user_id="alice")',
            good='memory.add([{"role": "user", "content": "I like tea"}], user_id="alice")',
        ),
        Example(
            "mem0-oss",
            bad='memory.add(None, user_id="alice")',
            good='memory.add("I like tea", user_id="alice")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = argument(site, "messages", 0)
        if arg is None:
            return
        value = follow(site, arg.value)
        # A list bound to a name elsewhere: report at the call (the binding may serve others).
        anchor = None if value is arg.value else arg
        if is_none(value):
            yield Finding(
                arg,
                "`messages=None`: open source `add()` raises Mem0ValidationError (messages must "
                "be str, dict, or list[dict])",
                severity=Severity.ERROR,
            )
            return
        if site.keyword("memory_type") is not None:
            return  # the procedural path reads the messages otherwise (after the same type check)
        text = str_value(value)
        if text is not None:
            if not text.strip():
                yield Finding(arg, self._empty("an empty message", text=True))
            return
        if isinstance(value, cst.Dict):
            yield from self._item(site, arg, value, anchor)
            return
        if not isinstance(value, cst.List):
            return
        if not value.elements:
            yield Finding(arg, self._empty("an empty list", text=False))
            return
        for element in value.elements:
            if not isinstance(element, cst.Element):
                return  # a `*spread`: the list is not fully known
        for element in value.elements:
            item = follow(site, element.value)
            if is_text(item):
                yield Finding(
                    anchor or element.value,
                    "a plain string in the `messages` list: open source `add()` reads each item "
                    "as a message dict (AttributeError: 'str' object has no attribute 'get'); "
                    'write `{"role": "user", "content": ...}`, or pass one string alone',
                    severity=Severity.ERROR,
                )
            elif isinstance(item, cst.Dict):
                yield from self._item(site, anchor or element.value, item, anchor)

    def _empty(self, what: str, text: bool) -> str:
        stored = " (with `infer=False` it is stored as an empty memory)" if text else ""
        return (
            f"{what}: nothing to remember, yet open source `add()` runs the LLM extraction on "
            f"it{stored}; skip the call when there is no text"
        )

    def _item(
        self, site: CallSite, node: cst.CSTNode, item: cst.Dict, anchor: cst.CSTNode | None
    ) -> Iterator[Finding]:
        keys = literal_keys(item)
        if keys is None:
            return
        role = keys.get("role")
        content = keys.get("content")
        if content is None or is_none(content.value):
            yield Finding(
                node,
                'a message without `"content"`: open source `add()` skips it: nothing of it is '
                "remembered",
            )
            return
        if role is None or is_none(role.value):
            yield Finding(
                node,
                'a message without `"role"`: open source `add()` leaves it out of the fact '
                "extraction (and skips it with `infer=False`): nothing of it is remembered",
            )
            return
        text = str_value(content.value)
        if text is not None and not text.strip():
            yield Finding(anchor or content.value, self._empty("an empty message", True))
            return
        name = str_value(role.value)
        if name is not None and name not in OSS_ADD_ROLES and infers(site) is True:
            yield Finding(
                anchor or role.value,
                f'role "{name}": the fact extraction of open source `add()` reads only {ROLES} '
                "messages, so this one never reaches the LLM; use one of those roles",
            )
