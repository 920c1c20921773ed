"""Documentation pages that use an SDK class without importing it.

A page of a docs site often shows `client = MemOSClient(api_key="...")` with the import left to
another page. In a document (a Markdown/MDX page or a notebook: `collector.closed`), a call of a
bare name that nothing on the whole page binds (no assignment, import, definition or `import *`,
in any block) is taken for the SDK class only when the name is spelled by one SDK alone and by no
other library we know of. `Memory`, `MemoryClient` and `AsyncMemory` are too common a spelling
(other memory libraries use them): never taken. A plain `.py` file is never judged this way (an
unimported name there is a `NameError`, or comes from somewhere we cannot see).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import libcst as cst

from mem0lint.bind.flow import Point
from mem0lint.sdk.dialects import DOCS_IMPLICIT_CLASSES

if TYPE_CHECKING:
    from mem0lint.binding import BindingCollector


def implicit_class(collector: BindingCollector, func: cst.BaseExpression, scope) -> Optional[str]:
    """The qualified class name a bare, never-bound call of `func` stands for on a page."""
    if not collector.closed or collector.star_import or not isinstance(func, cst.Name):
        return None
    name = func.value
    qualified = DOCS_IMPLICIT_CLASSES.get(name)
    if qualified is None or name in collector.bound_anywhere:
        return None
    inner = scope.scope if isinstance(scope, Point) else scope
    if inner.lookup(name):
        return None  # a parameter of that name
    return qualified
