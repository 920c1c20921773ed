"""MEM137: Platform `batch_delete`/`batch_update` items that are not `{"memory_id": ...}` dicts."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint import fixes
from mem0lint.callsite import CallSite
from mem0lint.filtertree import str_value
from mem0lint.rule import Applicability, Example, Finding, Fix, Rule, Severity
from mem0lint.sdk.dialects import PLATFORM

# Keys an author writes for the memory id when copying another API's spelling (the JavaScript
# SDK's `memoryId`, a memory record's own `id`).
ID_SPELLINGS = ("id", "memoryId")
STRINGS = (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)


def _items(site: CallSite) -> tuple[cst.BaseExpression, cst.BaseExpression | None] | None:
    """The `memories` argument when it is a list literal or a list comprehension, and the name
    it is read through (None: written inside the call; only then are its items edited)."""
    positional = site.positional
    keyword = site.keyword("memories")
    node = positional[0].value if positional else keyword.value if keyword else None
    if node is None:
        return None
    through = None
    if isinstance(node, cst.Name):
        bindings = site.scope.bindings.get(node.value, [])
        if len(bindings) != 1 or bindings[0].kind != "value":
            return None
        node, through = bindings[0].value, node
    if isinstance(node, (cst.List, cst.ListComp)):
        return node, through
    return None


def _keys(node: cst.Dict) -> dict[str, cst.DictElement] | None:
    """The literal string keys of a dict; None when a `**spread` or computed key hides some."""
    keys = {}
    for element in node.elements:
        if not isinstance(element, cst.DictElement) or not isinstance(
            element.key, cst.SimpleString
        ):
            return None
        value = str_value(element.key)
        if value is None:
            return None
        keys[value] = element
    return keys


class BatchItemShape(Rule):
    code = "MEM137"
    name = "batch-item-shape"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"batch_delete", "batch_update"})
    # No `versions`: `batch_update(memories)` / `batch_delete(memories)` send the list unchanged
    # as `{"memories": [...]}` in every release that has them (0.1.50 to 2.2.1 read); the
    # server's schema is the same whatever the client release.
    severity = Severity.ERROR
    summary = 'Batch items must be `{"memory_id": ...}` dicts, not bare ids or `{"id": ...}`'
    why = (
        "`batch_delete` and `batch_update` send their list unchanged as the body of "
        "`/v1/batch/`, whose items are objects with a required `memory_id` (openapi; mem0 "
        'issue #2087): a bare id string, `{"id": ...}` or `{"memoryId": ...}` is rejected '
        "(400) and nothing is deleted or updated. In `batch_update`, the new text is `text`: "
        '`"data"` is not a field of the endpoint, so the text is not changed.'
    )
    fix_safety = (
        'safe, for a list written in the call: a string literal becomes `{"memory_id": ...}` in '
        '`batch_delete`; `"id"`/`"memoryId"` become `"memory_id"`; `"data"` becomes `"text"` in '
        "`batch_update` when there is no `text`"
    )
    examples = [
        Example(
            "mem0-platform",
            bad='client.batch_delete(["mem-1", "mem-2"])',
            good='client.batch_delete([{"memory_id": "mem-1"}, {"memory_id": "mem-2"}])',
            fixed='client.batch_delete([{"memory_id": "mem-1"}, {"memory_id": "mem-2"}])',
        ),
        Example(
            "mem0-platform",
            bad='client.batch_update([{"id": "mem-1", "text": "Likes tea"}])',
            good='client.batch_update([{"memory_id": "mem-1", "text": "Likes tea"}])',
            fixed='client.batch_update([{"memory_id": "mem-1", "text": "Likes tea"}])',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        found = _items(site)
        if found is None:
            return
        node, through = found
        if isinstance(node, cst.ListComp):
            elements = [node.elt]
        else:
            elements = [e.value for e in node.elements if isinstance(e, cst.Element)]
        said = set()
        for element in elements:
            for finding in self._item(site, element, through is None):
                if through is not None:  # reported on the call, where a noqa goes, once
                    finding.node = through
                    finding.message += f" (the list bound to `{through.value}`)"
                    if finding.message in said:
                        continue
                    said.add(finding.message)
                yield finding

    def _item(self, site: CallSite, item: cst.BaseExpression, inline: bool) -> Iterator[Finding]:
        method = f"`MemoryClient.{site.method}()`"
        if isinstance(item, STRINGS):
            fix = None
            if inline and site.method == "batch_delete":
                wrapped = cst.Dict([fixes.dict_element("memory_id", item, like=item)])
                fix = Fix(Applicability.SAFE, 'Wrap in `{"memory_id": ...}`', ((item, wrapped),))
            yield Finding(
                item,
                f'{method} takes `{{"memory_id": ...}}` dicts, not bare ids: the API rejects the '
                "request (400)",
                fix,
            )
            return
        if not isinstance(item, cst.Dict):
            return
        keys = _keys(item)
        if keys is None:
            return
        if "memory_id" not in keys:
            spelled = [k for k in ID_SPELLINGS if k in keys]
            fix = None
            if inline and len(spelled) == 1:
                key = keys[spelled[0]].key
                fix = Fix(
                    Applicability.SAFE,
                    f'Rename `"{spelled[0]}"` to `"memory_id"`',
                    ((key, fixes.string_like(key, "memory_id")),),
                )
            what = f'`"{spelled[0]}"`' if spelled else "no `memory_id`"
            yield Finding(
                keys[spelled[0]].key if spelled else item,
                f'{method} items need `"memory_id"` ({what} here): the API rejects the request '
                "(400)",
                fix,
            )
        if site.method == "batch_update" and "data" in keys and "text" not in keys:
            key = keys["data"].key
            fix = None
            if inline:
                fix = Fix(
                    Applicability.SAFE,
                    'Rename `"data"` to `"text"`',
                    ((key, fixes.string_like(key, "text")),),
                )
            yield Finding(
                key,
                f'{method} items take the new text as `"text"`: `"data"` is not a field of the '
                "batch endpoint, so the memory's text is not changed",
                fix,
                Severity.WARNING,
            )
