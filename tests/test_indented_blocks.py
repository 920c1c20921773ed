"""Indented (CommonMark, 4-space) code blocks in Markdown: read only when they clearly hold SDK
code (the first line imports an SDK package), never in MDX, never a list item's continuation."""

from __future__ import annotations

from test_document_flow import row_of, rows, run

from mem0lint.modes import Mode

SNIPPET = (
    "    from mem0 import MemoryClient\n"
    "    c = MemoryClient()\n"
    '    hits = c.search("q", user_id="u")\n'
)


def _page(tmp_path, text, name="page.md"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_an_indented_block_that_imports_the_sdk_is_judged_and_fixed(tmp_path):
    text = "Smoke test:\n\n" + SNIPPET + "\nDone.\n"
    path = _page(tmp_path, text)
    assert rows(run(path)) == [(row_of(text, "c.search"), "MEM101")]
    run(path, Mode.FIX)
    fixed = path.read_text()
    assert '    hits = c.search("q", filters={"user_id": "u"})\n' in fixed
    assert fixed.replace('filters={"user_id": "u"}', 'user_id="u"') == text


def test_indented_and_fenced_blocks_are_one_program_in_reading_order(tmp_path):
    text = "Set up:\n\n" + SNIPPET + '\nThen:\n\n```python\nc.get_all(user_id="u")\n```\n'
    found = rows(run(_page(tmp_path, text)))
    assert found == [(row_of(text, "c.search"), "MEM101"), (row_of(text, "get_all"), "MEM101")]


def test_indented_text_that_is_not_clearly_sdk_code_is_never_read(tmp_path):
    code = "    from mem0 import MemoryClient\n    MemoryClient().search('q', user_id='u')\n"
    pages = [
        # no SDK import on the first line
        "Intro:\n\n    c = MemoryClient()\n    c.search('q', user_id='u')\n",
        # continues a paragraph: not a code block in CommonMark
        "Intro:\n" + code,
        # a list item's continuation
        "- step one\n\n" + code,
        # inside a fence of another language
        "```text\n\n" + code + "```\n",
    ]
    for index, text in enumerate(pages):
        assert rows(run(_page(tmp_path, text, f"p{index}.md"))) == [], text


def test_mdx_has_no_indented_code_blocks(tmp_path):
    text = "Smoke test:\n\n" + SNIPPET
    assert rows(run(_page(tmp_path, text, "page.mdx"))) == []
