"""Comments a fix's replacement left behind, put back beside the element they described.

A rule builds its replacement from the parts of the original it keeps (a value moved into a
dict, a key renamed, an argument turned into a dict entry); the commas and brackets around them
are new, and so the comments that sat in that whitespace are gone. Each lost comment belonged
to an element (an argument, a dict entry, a list item): the innermost one around it, or for a
comment right after an opening bracket the first element, before a closing bracket the last.
The replacement holds that element again, or its value or key (nodes are reused, not copied):
the comment goes back at the end of that element's line. When no part of its element survived,
the fix is not rewritten (fixcheck refuses it: a comment is never dropped).
"""

from __future__ import annotations

from collections import Counter
from typing import Union

import libcst as cst

from mem0lint.fixcheck import comments

_ELEMENTS = (cst.Arg, cst.DictElement, cst.Element, cst.StarredDictElement, cst.StarredElement)
_CONTAINERS = (cst.Call, cst.Dict, cst.List, cst.Tuple, cst.Set)


class _Owners(cst.CSTVisitor):
    """Every comment with the chain of elements it belongs to, innermost first."""

    def __init__(self) -> None:
        self.stack: list[cst.CSTNode] = []
        self.seen: list[int] = []  # per open container: elements visited so far
        self.found: list[tuple[str, list[cst.CSTNode]]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, _ELEMENTS):
            if self.seen:
                self.seen[-1] += 1
            self.stack.append(node)
        elif isinstance(node, _CONTAINERS):
            self.stack.append(node)
            self.seen.append(0)
        elif isinstance(node, cst.Comment):
            self.found.append((node.value.rstrip(), self._chain()))
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, _ELEMENTS):
            self.stack.pop()
        elif isinstance(original_node, _CONTAINERS):
            self.stack.pop()
            self.seen.pop()

    def _chain(self) -> list[cst.CSTNode]:
        chain: list[cst.CSTNode] = []
        for node in reversed(self.stack):
            if isinstance(node, _CONTAINERS) and not chain:
                # Between elements, not in one: after the opening bracket it describes the
                # first element; after an element, that element (the last one seen).
                elements = _elements_of(node)
                if elements:
                    chain.append(elements[max(self.seen[-1] - 1, 0)])
            elif isinstance(node, _ELEMENTS):
                chain.append(node)
        return chain


def _elements_of(node: cst.CSTNode) -> list[cst.CSTNode]:
    if isinstance(node, cst.Call):
        return list(node.args)
    return list(getattr(node, "elements", ()))


def _parts(element: cst.CSTNode) -> list[cst.CSTNode]:
    parts = [element]
    for name in ("value", "key", "keyword"):
        part = getattr(element, name, None)
        if isinstance(part, cst.CSTNode):
            parts.append(part)
    return parts


class _Index(cst.CSTVisitor):
    """Elements of the replacement by the ids of themselves and their value, key, keyword."""

    def __init__(self) -> None:
        self.by_part: dict[int, cst.CSTNode] = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, _ELEMENTS):
            for part in _parts(node):
                self.by_part.setdefault(id(part), node)
        return True


def _with_comment(
    whitespace: cst.BaseParenthesizableWhitespace, comment: str, then: str
) -> cst.ParenthesizedWhitespace:
    """`whitespace` ending its line with `comment` (the next line starts with `then`)."""
    if isinstance(whitespace, cst.ParenthesizedWhitespace):
        if whitespace.first_line.comment is None:
            first = whitespace.first_line.with_changes(
                whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(comment)
            )
            return whitespace.with_changes(first_line=first)
        line = cst.EmptyLine(indent=True, comment=cst.Comment(comment))
        return whitespace.with_changes(empty_lines=[*whitespace.empty_lines, line])
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(
            whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(comment)
        ),
        empty_lines=[],
        indent=True,
        last_line=cst.SimpleWhitespace(then),
    )


class _Attach(cst.CSTTransformer):
    def __init__(self, target: cst.CSTNode, comment: str) -> None:
        self.target = target
        self.comment = comment
        self.done = False

    def on_leave(self, original_node, updated_node):
        if self.done:
            return updated_node
        if original_node is self.target:
            comma = getattr(updated_node, "comma", None)
            if isinstance(comma, cst.Comma):
                after = _with_comment(comma.whitespace_after, self.comment, "    ")
                self.done = True
                return updated_node.with_changes(comma=comma.with_changes(whitespace_after=after))
            if isinstance(updated_node, cst.Arg):
                after = _with_comment(updated_node.whitespace_after_arg, self.comment, "")
                self.done = True
                return updated_node.with_changes(whitespace_after_arg=after)
            return updated_node  # the last element of a literal: its container takes it
        if isinstance(updated_node, (cst.Dict, cst.Set, cst.List)):
            elements = getattr(original_node, "elements", ())
            if elements and elements[-1] is self.target:
                name = "rbracket" if isinstance(updated_node, cst.List) else "rbrace"
                bracket = getattr(updated_node, name)
                before = _with_comment(bracket.whitespace_before, self.comment, "")
                self.done = True
                return updated_node.with_changes(
                    **{name: bracket.with_changes(whitespace_before=before)}
                )
        return updated_node


class _Elements(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, _ELEMENTS):
            self.found.append(node)
        return True


def _inside(element: cst.CSTNode) -> list[cst.CSTNode]:
    """The element, then the elements inside it, in order."""
    elements = _Elements()
    element.visit(elements)
    return elements.found


def _target(chain: list, by_part: dict) -> Union[cst.CSTNode, None]:
    """The replacement's element holding what the comment's element held: the element itself,
    its value, key or keyword, or else what an element inside it held (its content moved)."""
    for element in chain:
        for inner in _inside(element):
            for part in _parts(inner):
                target = by_part.get(id(part))
                if target is not None:
                    return target
    return None


def _is_part_of(new: cst.CSTNode, chain: list) -> bool:
    return any(any(new is part for part in _parts(inner)) for e in chain for inner in _inside(e))


def _parenthesized(new: cst.BaseExpression, comment: str) -> cst.BaseExpression:
    after = _with_comment(cst.SimpleWhitespace(""), comment, "    ")
    return new.with_changes(
        lpar=[cst.LeftParen(whitespace_after=after), *new.lpar], rpar=[*new.rpar, cst.RightParen()]
    )


def _put_back(new: cst.CSTNode, lost: Counter, owners: list) -> Union[cst.CSTNode, None]:
    for comment, chain in owners:
        if lost[comment] <= 0:
            continue
        index = _Index()
        new.visit(index)
        target = _target(chain, index.by_part)
        if target is None:
            # Its element was unwrapped into the bare value that replaces it.
            if not (isinstance(new, cst.BaseExpression) and _is_part_of(new, chain)):
                return None
            new = _parenthesized(new, comment)
        else:
            attach = _Attach(target, comment)
            new = new.visit(attach)
            if not attach.done:
                return None
        lost[comment] -= 1
    return new


def put_back(replacements: tuple) -> Union[tuple, None]:
    """The replacements with every comment they lost put back; None if one cannot be."""
    result = []
    for old, new in replacements:
        lost = comments([old]) - comments([new])
        if lost:
            owners = _Owners()
            old.visit(owners)
            new = _put_back(new, lost, owners.found)
            if new is None:
                return None
        result.append((old, new))
    return tuple(result)
