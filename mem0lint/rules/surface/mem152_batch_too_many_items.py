"""MEM152: Platform `batch_delete`/`batch_update` with a literal list of more than 1000 items."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.mem137_batch_item_shape import _items
from mem0lint.sdk.dialects import PLATFORM
from mem0lint.sdk.mem0_arguments import BATCH_MAX_ITEMS


class BatchTooManyItems(Rule):
    code = "MEM152"
    name = "batch-too-many-items"
    dialects = frozenset({PLATFORM.id})
    methods = frozenset({"batch_delete", "batch_update"})
    # No `versions`: the client sends the list unchanged in every release that has the batch
    # calls (0.1.50 to 2.2.1); the limit is the server's (openapi `maxItems: 1000`).
    severity = Severity.ERROR
    summary = f"A batch call with a literal list of more than {BATCH_MAX_ITEMS} items"
    why = (
        "`batch_delete` and `batch_update` send their list as the body of `/v1/batch/`, whose "
        f"`memories` array holds at most {BATCH_MAX_ITEMS} items (openapi `maxItems`; the "
        f'server answers 400 "Maximum of {BATCH_MAX_ITEMS} memories ..."): the whole request is '
        "rejected and nothing is deleted or updated. Only a list written out item by item is "
        "counted (a `*spread` or a comprehension is not). Send it in chunks."
    )
    fix_safety = "none (splitting the call changes what a failure leaves behind)"
    examples = [
        Example(
            "mem0-platform",
            # 1,001 items (each `item` stands for a `{"memory_id": ...}` dict), 25 a line.
            bad=(
                "client.batch_delete([\n"
                + ("    " + ", ".join(["item"] * 25) + ",\n") * (BATCH_MAX_ITEMS // 25)
                + "    item,\n])"
            ),
            good=(
                'items = [{"memory_id": f"id-{i}"} for i in range(1001)]\n'
                "for start in range(0, len(items), 1000):\n"
                "    client.batch_delete(items[start : start + 1000])"
            ),
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        found = _items(site)
        if found is None or not isinstance(found[0], cst.List):
            return
        node, through = found
        if any(not isinstance(e, cst.Element) for e in node.elements):
            return
        count = len(node.elements)
        if count <= BATCH_MAX_ITEMS:
            return
        where = f" (the list bound to `{through.value}`)" if through is not None else ""
        yield Finding(
            through if through is not None else node,
            f"`MemoryClient.{site.method}()` is given {count} items{where}: the batch endpoint "
            f"takes at most {BATCH_MAX_ITEMS} and rejects the whole request (400); send it in "
            "chunks",
        )
