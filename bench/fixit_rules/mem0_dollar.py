"""One Fixit rule equivalent to mem0lint's MEM201 (dollar-operator), for the benchmark only.

Like mem0lint it resolves the receiver: the call's receiver must be a name whose qualified
name (Fixit's QualifiedNameProvider, through assignments in scope) comes from a mem0 client.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from fixit import LintRule
from libcst.metadata import QualifiedNameProvider, ScopeProvider

CLIENTS = {"mem0.MemoryClient", "mem0.AsyncMemoryClient", "mem0.Memory", "mem0.AsyncMemory"}


class Mem0DollarOperator(LintRule):
    METADATA_DEPENDENCIES = (QualifiedNameProvider, ScopeProvider)
    MESSAGE = "mem0 operators have no `$`; use AND / OR / NOT and eq, in, gte..."

    def visit_Call(self, node: cst.Call) -> None:
        if not m.matches(node.func, m.Attribute(attr=m.Name("search") | m.Name("get_all"))):
            return
        filters = [a for a in node.args if a.keyword and a.keyword.value == "filters"]
        if not filters or not self._is_client(node.func.value):
            return
        for key in _dollar_keys(filters[0].value):
            self.report(key)

    def _is_client(self, receiver: cst.BaseExpression) -> bool:
        scope = self.get_metadata(ScopeProvider, receiver, None)
        if scope is None or not isinstance(receiver, cst.Name):
            return False
        for assignment in scope.assignments[receiver.value]:
            node = getattr(assignment, "node", None)
            value = None
            if isinstance(node, cst.Assign):
                value = node.value
            elif isinstance(node, cst.Param) and node.annotation is not None:
                value = node.annotation.annotation
            if isinstance(value, cst.Call):
                value = value.func
            if value is None:
                continue
            names = self.get_metadata(QualifiedNameProvider, value, set())
            if any(q.name.split(".from_config")[0] in CLIENTS for q in names):
                return True
        return False


def _dollar_keys(node: cst.CSTNode):
    if isinstance(node, cst.Dict):
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                key = element.key
                if isinstance(key, cst.SimpleString) and key.evaluated_value.startswith("$"):
                    yield key
                yield from _dollar_keys(element.value)
    elif isinstance(node, (cst.List, cst.Tuple)):
        for element in node.elements:
            yield from _dollar_keys(element.value)
