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
        self.found: list[tuple[str, list[cst.CSTNode], int, bool]] = []
        self.past_value: set[int] = set()  # elements whose value has been visited
        self.commas = self.own_lines = 0  # inside a comma, an own-line comment

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, _ELEMENTS):
            if self.seen:
                self.seen[-1] += 1
            self.stack.append(node)
        elif isinstance(node, _CONTAINERS):
            self.stack.append(node)
            self.seen.append(0)
        elif isinstance(node, cst.Comma):
            self.commas += 1
        elif isinstance(node, cst.EmptyLine):
            self.own_lines += 1
        elif isinstance(node, cst.Comment):
            chain, own, late = self._chain()
            if self.commas and self.own_lines and chain:
                # On a line of its own after a comma: it describes the element after it.
                following = self._following(chain[0])
                if following is not None:
                    chain, own, late = [following, *chain], 1, None  # None: before it
            self.found.append((node.value.rstrip(), chain, own, late))
        return True

    def _following(self, element: cst.CSTNode) -> Union[cst.CSTNode, None]:
        containers = [n for n in self.stack if isinstance(n, _CONTAINERS)]
        if not containers:
            return None
        siblings = _elements_of(containers[-1])
        index = next((i for i, e in enumerate(siblings) if e is element), None)
        if index is None or index + 1 >= len(siblings):
            return None
        return siblings[index + 1]

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, cst.Comma):
            self.commas -= 1
        elif isinstance(original_node, cst.EmptyLine):
            self.own_lines -= 1
        if isinstance(original_node, _ELEMENTS):
            self.stack.pop()
        elif isinstance(original_node, _CONTAINERS):
            self.stack.pop()
            self.seen.pop()
        if self.stack and getattr(self.stack[-1], "value", None) is original_node:
            self.past_value.add(id(self.stack[-1]))

    def _chain(self) -> tuple[list[cst.CSTNode], int, bool]:
        """The elements, how many of them hold the comment (the rest are neighbours), and
        whether it comes after its element's value (in its comma, or after the argument)."""
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
        # Last resort, for an element the fix removed: its neighbours, the one before first.
        own = len(chain)
        containers = [n for n in self.stack if isinstance(n, _CONTAINERS)]
        if chain and containers:
            siblings = _elements_of(containers[-1])
            index = next((i for i, e in enumerate(siblings) if e is chain[0]), None)
            if index is not None:
                chain += [*reversed(siblings[:index]), *siblings[index + 1 :]]
        if self.stack and isinstance(self.stack[-1], _CONTAINERS) and self.seen[-1] == 0:
            return chain, own, None  # right after the opening bracket: before the first element
        return chain, own, bool(chain) and id(chain[0]) in self.past_value


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


def _with_lines_before(
    whitespace: cst.BaseParenthesizableWhitespace, comments: list[str]
) -> cst.ParenthesizedWhitespace:
    """`whitespace` (before an element) ending with `comments` on lines of their own."""
    lines = [
        cst.EmptyLine(indent=True, whitespace=cst.SimpleWhitespace("    "), comment=cst.Comment(c))
        for c in comments
    ]
    if isinstance(whitespace, cst.ParenthesizedWhitespace):
        return whitespace.with_changes(empty_lines=[*whitespace.empty_lines, *lines])
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(),
        empty_lines=lines,
        indent=True,
        last_line=cst.SimpleWhitespace("    "),
    )


_OPENING = {cst.Call: None, cst.Dict: "lbrace", cst.Set: "lbrace", cst.List: "lbracket"}


class _Attach(cst.CSTTransformer):
    """Comments put beside elements (by id, in the tree visited): the first at the end of the
    element's line, any more on lines of their own just before it."""

    def __init__(self, wanted: dict[int, list[str]]) -> None:
        self.wanted = wanted
        self.done = 0

    def on_leave(self, original_node, updated_node):
        comments = self._trailing(original_node)
        if comments:
            comma = getattr(updated_node, "comma", None)
            if isinstance(comma, cst.Comma):
                after = self._add(comma.whitespace_after, comments, "    ")
                return updated_node.with_changes(comma=comma.with_changes(whitespace_after=after))
            if isinstance(updated_node, cst.Arg):
                after = self._add(updated_node.whitespace_after_arg, comments, "")
                return updated_node.with_changes(whitespace_after_arg=after)
            # The last element of a literal: its closing bracket takes the comment.
        if type(updated_node) in _OPENING:
            return self._container(original_node, updated_node)
        return updated_node

    def _trailing(self, element) -> list[str]:
        own, after, _ = self.wanted.get(id(element), ([], [], []))
        return own[:1] + after

    def _add(self, whitespace, comments: list[str], then: str):
        for comment in comments:
            whitespace = _with_comment(whitespace, comment, then)
            self.done += 1
        return whitespace

    def _container(self, original_node, updated_node):
        is_call = isinstance(updated_node, cst.Call)
        old = list(original_node.args if is_call else original_node.elements)
        new = list(updated_node.args if is_call else updated_node.elements)
        changes = {}
        if old and len(old) == len(new):
            last = self._trailing(old[-1])
            if last and not is_call and not isinstance(old[-1].comma, cst.Comma):
                name = "rbracket" if isinstance(updated_node, cst.List) else "rbrace"
                bracket = getattr(updated_node, name)
                before = self._add(bracket.whitespace_before, last, "")
                changes[name] = bracket.with_changes(whitespace_before=before)
            for index, element in enumerate(old):
                own, _, before = self.wanted.get(id(element), ([], [], []))
                extra = before + own[1:]
                if not extra:
                    continue
                self.done += len(extra)
                if index > 0:
                    comma = new[index - 1].comma
                    if not isinstance(comma, cst.Comma):
                        self.done = -1  # cannot happen: an element before another has a comma
                        continue
                    comma = comma.with_changes(
                        whitespace_after=_with_lines_before(comma.whitespace_after, extra)
                    )
                    new[index - 1] = new[index - 1].with_changes(comma=comma)
                elif is_call:
                    changes["whitespace_before_args"] = _with_lines_before(
                        updated_node.whitespace_before_args, extra
                    )
                else:
                    name = _OPENING[type(updated_node)]
                    bracket = changes.get(name, getattr(updated_node, name))
                    after = _with_lines_before(bracket.whitespace_after, extra)
                    changes[name] = bracket.with_changes(whitespace_after=after)
            changes["args" if is_call else "elements"] = new
        return updated_node.with_changes(**changes)


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


def _target(
    chain: list, own: int, by_part: dict, late: bool = False
) -> tuple[Union[cst.CSTNode, None], bool]:
    """The replacement's element holding what the comment's element held: the element itself,
    its value, key or keyword, or else what an element inside it held (its content moved);
    and whether it is that element (False: a neighbour of a removed one)."""
    for number, element in enumerate(chain):
        inside = _inside(element)
        for inner in [inside[0], *reversed(inside[1:])] if late else inside:
            for part in _parts(inner):
                target = by_part.get(id(part))
                if target is not None:
                    return target, number < own
    return None, False


def _parenthesized(new: cst.BaseExpression, comment: str) -> cst.BaseExpression:
    after = _with_comment(cst.SimpleWhitespace(""), comment, "    ")
    return new.with_changes(
        lpar=[cst.LeftParen(whitespace_after=after), *new.lpar], rpar=[*new.rpar, cst.RightParen()]
    )


def _put_back(new: cst.CSTNode, lost: Counter, owners: list) -> Union[cst.CSTNode, None]:
    index = _Index()
    new.visit(index)  # before any change: a transformer rebuilds every node it visits
    wanted: dict[int, tuple[list[str], list[str], list[str]]] = {}
    unplaced: list[str] = []
    for comment, chain, own, late in owners:
        if lost[comment] <= 0:
            continue
        lost[comment] -= 1
        target, itself = _target(chain, own, index.by_part, late)
        if target is None and isinstance(new, cst.Call) and new.args:
            target, itself = new.args[-1], False
        if target is None:
            unplaced.append(comment)
        else:
            places = wanted.setdefault(id(target), ([], [], []))
            # Its own element's: the first at its line's end, more on lines just before it;
            # one that came after the element's value, or a removed neighbour's: after it;
            # one on a line of its own before the element: on a line before it again.
            if itself and late is None and target is not new:  # (the root has no line before)
                places[2].append(comment)
            else:
                places[0 if itself and not late else 1].append(comment)
    # Parentheses around the replacement are beside the comment's element only when the
    # replacement is that element's bare value (`[u]` -> `u`); in a rebuilt container they
    # would describe the whole of it: no place, so no fix.
    containers = (cst.Call, cst.Dict, cst.List, cst.Tuple, cst.Set)
    if unplaced and (not isinstance(new, cst.BaseExpression) or isinstance(new, containers)):
        return None
    attach = _Attach(wanted)
    new = new.visit(attach)
    if attach.done != sum(len(a) + len(b) + len(c) for a, b, c in wanted.values()):
        return None
    for comment in unplaced:  # its element was unwrapped into the bare value replacing it
        new = _parenthesized(new, comment)
    return new


class _Drop(cst.CSTTransformer):
    """Copies of a comment beyond the first `keep[comment]` (a fix that copied a key or a
    comma copied the comment beside it)."""

    def __init__(self, keep: Counter) -> None:
        self.keep = keep

    def _surplus(self, comment: Union[cst.Comment, None]) -> bool:
        if comment is None:
            return False
        value = comment.value.rstrip()
        if value not in self.keep:
            return False
        self.keep[value] -= 1
        return self.keep[value] < 0

    def leave_TrailingWhitespace(self, original_node, updated_node):
        if self._surplus(updated_node.comment):
            return updated_node.with_changes(comment=None, whitespace=cst.SimpleWhitespace(""))
        return updated_node

    def leave_EmptyLine(self, original_node, updated_node):
        if self._surplus(updated_node.comment):
            return cst.RemovalSentinel.REMOVE
        return updated_node


def put_back(replacements: tuple) -> Union[tuple, None]:
    """The replacements with every comment they lost put back, and none twice; None if a lost
    one cannot be put back."""
    result = []
    for old, new in replacements:
        had, has = comments([old]), comments([new])
        if has - had:
            new = new.visit(_Drop(Counter({c: had[c] for c in has})))
        lost = had - comments([new])
        if lost:
            owners = _Owners()
            old.visit(owners)
            new = _put_back(new, lost, owners.found)
            if new is None:
                return None
        result.append((old, new))
    return tuple(result)
