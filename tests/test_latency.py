"""The language server's per-change work: what it may skip or reuse, and that skipping or
reusing never changes a finding (no timings here: bench/lsp_latency.py measures)."""

from __future__ import annotations

import libcst as cst
import pytest

from mem0lint.walk import _TOKEN_TYPES, children

SAMPLE = '''\
import os
from mem0 import MemoryClient

client = MemoryClient(api_key=os.environ["K"])


@decorated(1)
async def find(query: str, *, limit: int = 3) -> list:
    """Doc."""
    res = await client.search(query, filters={"user_id": "u"})  # a comment
    for item in res[:limit]:
        if "results" in item or item.get("x", [1, 2])[0] > -1:
            yield lambda x=item: (x, [i async for i in x if i], {**x}, f"{x!r:>{limit}}")
    del res
    return [r for r in client.search("q", filters={"user_id": "u"})]


class A(B, metaclass=M):
    x: int = 1

    def m(self, *args, **kw):
        global g
        with open(p) as f, other() as (a, b):
            match = a if b else not f
        try:
            pass
        except (E, F) as e:
            raise X from e
'''


def _all_nodes(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _all_nodes(child)


def test_fast_children_are_libcsts_children_less_tokens() -> None:
    """walk.children (what MEM130's use finder walks with) gives the same nodes, in the same
    order, as libcst's `children`, less the token-only ones."""
    module = cst.parse_module(SAMPLE)
    checked = 0
    for node in _all_nodes(module):
        expected = [c for c in node.children if type(c) not in _TOKEN_TYPES]
        assert [id(c) for c in children(node)] == [id(c) for c in expected], type(node)
        checked += 1
    assert checked > 300


def test_mem130_never_rebuilds_nodes_to_find_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: MEM130's use finder read `node.children` over the whole module, which libcst
    answers by rebuilding the node: 3 s of a 2,000-line file's lint went there. The finding must
    stay the same without it."""
    from mem0lint import config
    from mem0lint.inproject import lint_text

    text = (
        "from mem0 import MemoryClient\n\nclient = MemoryClient(api_key='k')\n\n\n"
        "def f(q):\n    res = client.search(q, filters={'user_id': 'u'})\n"
        "    for r in res:\n        print(r)\n"
    )
    before = lint_text(text, "service.py", finder=config.Finder(None))
    assert "MEM130" in [d.code for d in before.diagnostics]

    def rebuilt(self):
        raise AssertionError("CSTNode.children called")

    monkeypatch.setattr(cst.CSTNode, "children", property(rebuilt))
    after = lint_text(text, "service.py", finder=config.Finder(None))
    assert [(d.code, d.start) for d in after.diagnostics] == [
        (d.code, d.start) for d in before.diagnostics
    ]
