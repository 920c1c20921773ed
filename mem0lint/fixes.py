"""Small builders for fix replacements that keep the author's formatting.

Every builder returns a (original node, replacement node) pair or a replacement node; rules
combine them into a `Fix`. New code copies quotes, commas and whitespace from what is there.
"""

from __future__ import annotations

from typing import Sequence

import libcst as cst

from mem0lint.filtertree import Entry

Replacement = tuple[cst.CSTNode, cst.CSTNode]


def string_like(original: cst.BaseExpression | None, text: str) -> cst.SimpleString:
    """A string literal for `text` in the quote style of `original` (double quotes otherwise)."""
    quote = '"'
    if isinstance(original, cst.SimpleString):
        quote = original.quote
    if quote in text or "\\" in text or "\n" in text:
        return cst.SimpleString(repr(text))
    return cst.SimpleString(f"{quote}{text}{quote}")


def rename_key(entry: Entry, new_key: str) -> Replacement:
    key = entry.key_node
    return key, string_like(key, new_key)


def rename_keyword(arg: cst.Arg, new_name: str) -> Replacement:
    return arg.keyword, cst.Name(new_name)


def with_elements(container: cst.CSTNode, elements: Sequence[cst.CSTNode]) -> cst.CSTNode:
    """`container` (Dict, List, Call args) with new elements, keeping the last comma style."""
    opening = getattr(container, "lbrace", None) or getattr(container, "lbracket", None)
    layout = getattr(opening, "whitespace_after", None)
    new = normalise_commas(container.elements, elements, layout=layout)
    return _keep_closing_comment(container, new)


def _keep_closing_comment(container: cst.CSTNode, new: list[cst.CSTNode]) -> cst.CSTNode:
    """A comment before the closing bracket describes the old last element: when elements
    follow it now, the comment goes with it (after its comma), not to the new last one."""
    name = "rbrace" if hasattr(container, "rbrace") else "rbracket"
    closing = getattr(container, name, None)
    before = getattr(closing, "whitespace_before", None)
    old = container.elements
    if not (
        old
        and isinstance(before, cst.ParenthesizedWhitespace)
        and (before.first_line.comment is not None or before.empty_lines)
    ):
        return container.with_changes(elements=new)
    last = next((i for i, e in enumerate(new) if e.value is old[-1].value), None)
    if last is None or last == len(new) - 1 or not isinstance(new[last].comma, cst.Comma):
        return container.with_changes(elements=new)
    styled = new[last].comma.whitespace_after  # the others' line break and indentation
    if isinstance(styled, cst.ParenthesizedWhitespace):
        after = styled.with_changes(first_line=before.first_line, empty_lines=before.empty_lines)
    else:
        after = before
    comma = new[last].comma.with_changes(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=after
    )
    new = [*new[:last], new[last].with_changes(comma=comma), *new[last + 1 :]]
    bare = before.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
    return container.with_changes(
        elements=new, **{name: closing.with_changes(whitespace_before=bare)}
    )


def normalise_commas(
    old: Sequence[cst.CSTNode],
    new: Sequence[cst.CSTNode],
    layout: cst.BaseParenthesizableWhitespace | None = None,
) -> list[cst.CSTNode]:
    """Give every element but the last a comma; the last keeps the old last one's trailing comma.

    New commas copy one between two old elements; failing that, `layout` (the whitespace after
    the opening bracket) puts one element per line in a bracket opened with a line break.
    """
    if not new:
        return []
    trailing = old[-1].comma if old else cst.MaybeSentinel.DEFAULT
    if isinstance(trailing, cst.Comma) and not _same(old[-1], new[-1]):
        trailing = _without_comment(trailing)  # its comment stays with the old last element
    between = [e.comma for e in old[:-1] if isinstance(e.comma, cst.Comma)]
    if between:
        comma_style = _without_comment(between[0])
    elif isinstance(layout, cst.ParenthesizedWhitespace):
        comma_style = _without_comment(cst.Comma(whitespace_after=layout))
    else:
        comma_style = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    result = []
    for index, element in enumerate(new):
        last = index == len(new) - 1
        if last:
            result.append(element.with_changes(comma=trailing))
        elif not isinstance(element.comma, cst.Comma) or (old and _same(element, old[-1])):
            # The old last element's trailing comma has no space after it (or the closing
            # bracket's indentation); it now needs the others' (and keeps its comment).
            result.append(element.with_changes(comma=_commented_like(comma_style, element)))
        else:
            result.append(_leading_comments_dropped(element, old, new, index))
    return result


def _same(old: cst.CSTNode, new: cst.CSTNode) -> bool:
    """Is `new` the element `old` (itself, or with a changed value)?"""
    if old is new:
        return True
    for part in ("keyword", "key", "value"):
        mine = getattr(old, part, None)
        if mine is not None and mine is getattr(new, part, None):
            return True
    return False


def _leading_comments_dropped(element, old, new, index):
    """Comments on lines of their own after `element`'s comma describe the element after it;
    when that one moved away (or was removed), they are taken out here (the engine puts them
    back beside the moved element, or its neighbour)."""
    position = next((i for i, e in enumerate(old) if e is element), None)
    if position is None or position + 1 >= len(old) or _same(old[position + 1], new[index + 1]):
        return element
    after = element.comma.whitespace_after
    if not isinstance(after, cst.ParenthesizedWhitespace):
        return element
    lines = [line for line in after.empty_lines if line.comment is None]
    if len(lines) == len(after.empty_lines):
        return element
    comma = element.comma.with_changes(whitespace_after=after.with_changes(empty_lines=lines))
    return element.with_changes(comma=comma)


def _commented_like(comma: cst.Comma, element: cst.CSTNode) -> cst.Comma:
    """`comma`, with the comment that ended the line after `element`'s own comma."""
    mine = getattr(element, "comma", None)
    after = getattr(mine, "whitespace_after", None)
    if not isinstance(after, cst.ParenthesizedWhitespace) or after.first_line.comment is None:
        return comma
    if not isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
        return comma.with_changes(whitespace_before=mine.whitespace_before, whitespace_after=after)
    return comma.with_changes(
        whitespace_after=comma.whitespace_after.with_changes(first_line=after.first_line)
    )


def _without_comment(comma: cst.Comma) -> cst.Comma:
    """A copied comma keeps its line breaks and indentation but not the comments around it
    (they stay where they were: a copy would duplicate them)."""
    return comma.with_changes(
        whitespace_before=_uncommented(comma.whitespace_before),
        whitespace_after=_uncommented(comma.whitespace_after),
    )


def _uncommented(whitespace):
    if not isinstance(whitespace, cst.ParenthesizedWhitespace):
        return whitespace
    first = whitespace.first_line
    if first.comment is not None:
        first = cst.TrailingWhitespace(newline=first.newline)
    lines = [line for line in whitespace.empty_lines if line.comment is None]
    return whitespace.with_changes(first_line=first, empty_lines=lines)


def with_args(call: cst.Call, args: Sequence[cst.Arg]) -> cst.Call:
    return call.with_changes(args=normalise_commas(call.args, args))


def without_arg(call: cst.Call, arg: cst.Arg) -> Replacement:
    """The call without one of its arguments (the fix "Remove `user_id=`")."""
    return (call, with_args(call, [a for a in call.args if a is not arg]))


def keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(
        value=value,
        keyword=cst.Name(name),
        equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        ),
    )


def dict_element(key: str, value: cst.BaseExpression, like: cst.BaseExpression | None = None):
    return cst.DictElement(key=string_like(like, key), value=value)


def single_line_dict(elements: Sequence[cst.BaseDictElement]) -> cst.Dict:
    return cst.Dict(
        elements=normalise_commas(
            [], [e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in elements]
        )
    )


def strip_comma(node: cst.CSTNode) -> cst.CSTNode:
    return node.with_changes(comma=cst.MaybeSentinel.DEFAULT)
