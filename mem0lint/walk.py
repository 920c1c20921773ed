"""A read-only walk of a libcst tree, several times cheaper than `module.visit(visitor)`.

libcst's `visit` rebuilds every node of the tree (its traversal is the transformer's, even for
a `CSTVisitor`) and visits every whitespace, comma and parenthesis. A visitor that only reads
needs neither: this walk calls the same `visit_<Node>` / `leave_<Node>` methods, in source
order, skipping subtrees that cannot hold anything but tokens and whitespace. `visit_<Node>`
returning False skips the node's children, as in libcst.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterator, Union

import libcst as cst

# Nodes with nothing inside but tokens and whitespace.
_TOKENS = (
    cst.BaseParenthesizableWhitespace,
    cst.EmptyLine,
    cst.TrailingWhitespace,
    cst.Newline,
    cst.Comment,
    cst.Comma,
    cst.Dot,
    cst.Colon,
    cst.Semicolon,
    cst.AssignEqual,
    cst.LeftParen,
    cst.RightParen,
    cst.LeftSquareBracket,
    cst.RightSquareBracket,
    cst.LeftCurlyBrace,
    cst.RightCurlyBrace,
    cst.BaseBinaryOp,
    cst.BaseBooleanOp,
    cst.BaseCompOp,
    cst.BaseUnaryOp,
    cst.BaseAugOp,
    cst.ImportStar,
    cst.Asynchronous,
)

# Fields that hold only tokens and whitespace, whatever the node.
_TOKEN_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "comma",
        "semicolon",
        "equal",
        "colon",
        "dot",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "relative",
        "trailing_whitespace",
        "newline",
        "operator",
        "asynchronous",
    }
)


def subclasses(base: type) -> set[type]:
    found = {base}
    for sub in base.__subclasses__():
        found |= subclasses(sub)
    return found


_TOKEN_TYPES = frozenset(t for base in _TOKENS for t in subclasses(base))
# The node types a walk enters: one set lookup where `isinstance(value, cst.CSTNode)` (an ABC
# check) and a token test cost several times more, on every field of every node.
_WALKED = frozenset(subclasses(cst.CSTNode) - _TOKEN_TYPES)

# Where a node's dataclass fields are not in source order, the order libcst visits them in.
_SOURCE_ORDER = {
    cst.FunctionDef: ("decorators", "name", "type_parameters", "params", "returns", "body"),
    cst.ClassDef: ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    cst.IfExp: ("body", "test", "orelse"),
}

_Handler = Callable[[cst.CSTVisitor, cst.CSTNode], object]
_fields: dict[type, tuple[str, ...]] = {}
_handlers: dict[tuple[type, type], tuple[_Handler | None, _Handler | None]] = {}


def _fields_of(node_type: type) -> tuple[str, ...]:
    names = _fields.get(node_type)
    if names is None:
        declared = [
            f.name
            for f in dataclasses.fields(node_type)
            if f.name not in _TOKEN_FIELDS and not f.name.startswith("whitespace")
        ]
        ordered = [n for n in _SOURCE_ORDER.get(node_type, ()) if n in declared]
        names = tuple(ordered + [n for n in declared if n not in ordered])
        _fields[node_type] = names
    return names


def _handlers_of(visitor_type: type, node_type: type) -> tuple[_Handler | None, _Handler | None]:
    key = (visitor_type, node_type)
    found = _handlers.get(key)
    if found is None:
        name = node_type.__name__
        found = (_own(visitor_type, f"visit_{name}"), _own(visitor_type, f"leave_{name}"))
        _handlers[key] = found
    return found


def _own(visitor_type: type, name: str) -> _Handler | None:
    """The visitor's method, or None where it is libcst's do-nothing default."""
    handler = getattr(visitor_type, name, None)
    return None if handler is getattr(cst.CSTVisitor, name, None) else handler


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """Call `visitor`'s visit_/leave_ methods over `node` and everything under it."""
    _visit(node, visitor, type(visitor))


# A module-level function rather than a closure: a recursive closure is a reference cycle that
# holds the visitor (and through it a whole tree) until the cycle collector's next full pass,
# which in the language server made every fourth change wait for a 100+ ms collection.
def _visit(node: cst.CSTNode, visitor: cst.CSTVisitor, visitor_type: type) -> None:
    node_type = type(node)
    # The caches read inline: a call per node to read them cost a tenth of the walk.
    enter, leave = _handlers.get((visitor_type, node_type)) or _handlers_of(visitor_type, node_type)
    if enter is None or enter(visitor, node) is not False:
        walked = _WALKED
        for name in _fields.get(node_type) or _fields_of(node_type):
            value = getattr(node, name)
            value_type = type(value)
            if value_type in walked:
                _visit(value, visitor, visitor_type)
            elif value_type is list or value_type is tuple:
                for item in value:
                    if type(item) in walked:
                        _visit(item, visitor, visitor_type)
    if leave is not None:
        leave(visitor, node)


# Where libcst's `children` order differs from `_fields_of` (which `walk` keeps as it is).
_CHILD_ORDER = {cst.Arg: ("keyword", "value"), cst.ExceptHandler: ("type", "name", "body")}


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`node.children` in source order, less the token-only nodes (whitespace, commas,
    parentheses, operators, comments): read from the fields, where libcst's own `children`
    rebuilds the node to find them (costly enough to make a walk of a tree quadratic)."""
    found: list[cst.CSTNode] = []
    walked = _WALKED
    node_type = type(node)
    for name in _CHILD_ORDER.get(node_type) or _fields_of(node_type):
        value = getattr(node, name)
        value_type = type(value)
        if value_type in walked:
            found.append(value)
        elif value_type is list or value_type is tuple:
            found.extend([v for v in value if type(v) in walked])
    return found


def parents_within(root: cst.CSTNode) -> dict[int, cst.CSTNode]:
    """id(node) -> its parent, for every node under `root` (not `root` itself)."""
    parents: dict[int, cst.CSTNode] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for child in children(node):
            parents[id(child)] = node
            stack.append(child)
    return parents


# Every node type, tokens included: a replacement may be anywhere.
_NODE_TYPES = frozenset(subclasses(cst.CSTNode))
_all_fields: dict[type, tuple[str, ...]] = {}


def replaced(
    node: cst.CSTNode,
    replacements: dict[int, cst.CSTNode],
    statements: Union[list, None] = None,
    syntax_only: bool = False,
) -> tuple[cst.CSTNode, int]:
    """`node` with each node whose id is a key of `replacements` replaced by its value, as a
    `CSTTransformer` that returns the replacement on leaving a node gives it (a replacement of
    an outer node wins over one inside it), and how many replacements were made (one inside a
    replaced node does not count).

    Only the nodes on the way to a replacement are rebuilt; the rest stay the very same objects.
    libcst's `visit` rebuilds every node it enters, which made vetting a fix cost more than
    finding it. `statements`: given a list, (before, after) is appended for each innermost
    statement a replacement was made in (or `node` itself, when none holds it). `syntax_only`:
    look among the nodes `walk` enters only (no token, no whitespace): what is found there is
    replaced as by the whole search, which finds nothing else when it finds as many."""
    made = [0]
    hit = [False] if statements is not None else None
    fields, types = (_fields_of, _WALKED) if syntax_only else (_every_field, _NODE_TYPES)
    after = _replaced(node, replacements, made, hit, statements, fields, types)
    if hit is not None and hit[0]:
        statements.append((node, after))  # type: ignore[union-attr]
    return after, made[0]


def replaced_in(
    module: cst.Module,
    replacements: dict[int, cst.CSTNode],
    tops: set[int],
    statements: Union[list, None] = None,
) -> tuple[cst.Module, set[int]]:
    """`replaced(module, replacements)`, looking in the top-level statements `tops` only (a
    module of thousands of nodes with one fix), among their syntax nodes first; in the whole
    module when a replacement is elsewhere. Also: the indices of the statements looked in.
    `statements`: as `replaced`'s."""
    for syntax_only in (True, False):
        body = list(module.body)
        made = 0
        found: list = []
        for index in sorted(tops):
            if index < len(body):
                body[index], count = replaced(body[index], replacements, found, syntax_only)
                made += count
        if made == len(replacements):
            break
    else:
        whole = replaced(module, replacements, statements)[0]
        return whole, set(range(len(body)))  # type: ignore[return-value]
    if statements is not None:
        statements.extend(found)
    if not made:
        return module, set(tops)
    return module.with_changes(body=type(module.body)(body)), set(tops)


def comment_nodes(node: cst.CSTNode) -> Iterator[cst.Comment]:
    """Every `Comment` under `node` (itself included), in no particular order: read from the
    fields, where a `CSTVisitor` would rebuild every node it enters."""
    stack = [node]
    while stack:
        current = stack.pop()
        if type(current) is cst.Comment:
            yield current  # type: ignore[misc]
            continue
        for name in _every_field(type(current)):
            value = getattr(current, name)
            value_type = type(value)
            if value_type in _NODE_TYPES:
                stack.append(value)
            elif value_type is list or value_type is tuple:
                stack.extend([item for item in value if type(item) in _NODE_TYPES])


_STATEMENTS = frozenset(subclasses(cst.SimpleStatementLine) | subclasses(cst.BaseCompoundStatement))


def _every_field(node_type: type) -> tuple[str, ...]:
    names = _all_fields.get(node_type)
    if names is None:
        names = _all_fields[node_type] = tuple(f.name for f in dataclasses.fields(node_type))
    return names


def _replaced(
    node: cst.CSTNode,
    replacements: dict,
    made: list[int],
    hit: Union[list[bool], None],
    statements: Union[list, None],
    fields: Callable[[type], tuple[str, ...]],
    types: frozenset[type],
) -> cst.CSTNode:
    new = replacements.get(id(node))
    if new is not None:
        made[0] += 1
        if hit is not None:
            hit[0] = True  # the innermost statement around it will say so
        return new
    node_type = type(node)
    statement = hit is not None and node_type in _STATEMENTS
    if statement:
        outer, hit[0] = hit[0], False  # type: ignore[index]
    changes: dict[str, object] = {}
    for name in fields(node_type):
        value = getattr(node, name)
        value_type = type(value)
        if value_type in types:
            after = _replaced(value, replacements, made, hit, statements, fields, types)
            if after is not value:
                changes[name] = after
        elif value_type is list or value_type is tuple:
            items = None
            for index, item in enumerate(value):
                if type(item) in types:
                    after = _replaced(item, replacements, made, hit, statements, fields, types)
                    if after is not item:
                        if items is None:
                            items = list(value)
                        items[index] = after
            if items is not None:
                changes[name] = value_type(items)
    rebuilt = node.with_changes(**changes) if changes else node
    if statement:
        if hit[0]:  # type: ignore[index]
            statements.append((node, rebuilt))  # type: ignore[union-attr]
        hit[0] = outer  # type: ignore[index]
    return rebuilt
