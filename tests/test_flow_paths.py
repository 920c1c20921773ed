"""Attributes of other objects than `self` (bind/paths.py), case by case, in the binding-table
style of test_flow_binding.py: `# -> mem0-oss` (one client), `# -> none` (never judged)."""

from __future__ import annotations

import pytest
from test_flow_binding import assert_binding_table

CASES = {
    "a Streamlit session attribute set once to a client": """
        import streamlit as st
        from mem0 import Memory
        if "memory" not in st.session_state:
            st.session_state.memory = Memory()
        st.session_state.memory.search("q", user_id="u")  # -> mem0-oss
        def show():
            return st.session_state.memory.get_all(user_id="u")  # -> mem0-oss
    """,
    "a module-level object's attribute, read in a function": """
        from types import SimpleNamespace
        from mem0 import MemoryClient
        state = SimpleNamespace()
        state.client = MemoryClient(api_key="k")
        def find(q):
            return state.client.search(q)  # -> mem0-platform
    """,
    "two writes of different clients join into a union": """
        import app
        from mem0 import Memory, MemoryClient
        if cloud:
            app.state.mem = MemoryClient()
        else:
            app.state.mem = Memory()
        app.state.mem.search("q")  # -> mem0-oss|mem0-platform
    """,
    "a write of something unknown silences the path": """
        import app
        from mem0 import Memory
        app.state.mem = Memory()
        def reset():
            app.state.mem = build()
        app.state.mem.search("q")  # -> none
    """,
    "an augmented assignment makes the path unknown": """
        import app
        from mem0 import Memory
        app.mem = Memory()
        app.mem += other
        app.mem.search("q")  # -> none
    """,
    "a shorter path assigned: a new object whose attributes are not known": """
        import streamlit as st
        from mem0 import Memory
        st.session_state.memory = Memory()
        st.session_state = load()
        st.session_state.memory.search("q")  # -> none
    """,
    "the container written through [...]: the same attribute in Streamlit": """
        import streamlit as st
        from mem0 import Memory
        st.session_state.memory = Memory()
        st.session_state["memory"] = other()
        st.session_state.memory.search("q")  # -> none
    """,
    "the container updated or given to setattr": """
        import streamlit as st
        import app
        from mem0 import Memory
        st.session_state.memory = Memory()
        st.session_state.update(saved)
        st.session_state.memory.search("q")  # -> none
        app.memory = Memory()
        setattr(app, name, other())
        app.memory.search("q")  # -> none
    """,
    "a rebound root is not stable": """
        from mem0 import Memory
        holder = Box()
        holder.memory = Memory()
        holder = Box()
        holder.memory.search("q")  # -> none
    """,
    "the same spelling on another variable (a local of another function)": """
        from mem0 import Memory
        def setup():
            ctx = Box()
            ctx.memory = Memory()
            ctx.memory.search("q")  # -> mem0-oss
        def other(ctx):
            ctx.memory.search("q")  # -> none
    """,
    "a path nothing in the module assigns stays unknown": """
        import streamlit as st
        st.session_state.memory.search("q")  # -> none
    """,
    "a root bound by a global statement elsewhere is not followed": """
        from mem0 import Memory
        holder = Box()
        holder.memory = Memory()
        def swap():
            global holder
            holder = Other()
        holder.memory.search("q")  # -> none
    """,
    "self attributes keep their own binding; self.a.b is not followed": """
        from mem0 import Memory
        class Agent:
            def __init__(self):
                self.memory = Memory()
                self.state = Box()
                self.state.memory = Memory()
            def run(self):
                self.memory.search("q")  # -> mem0-oss
                self.state.memory.search("q")  # -> none
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_attribute_path_table(name):
    assert_binding_table(CASES[name])


def test_markdown_blocks_carry_the_path_forward_and_never_back(tmp_path):
    """Documents: a later block's call sees the path an earlier block set; an earlier block's
    call never sees a write made in a later block."""
    from test_document_flow import page, row_of, rows, run

    text = page(
        "import streamlit as st\nfrom mem0 import Memory\n"
        'st.session_state.memory.search("q", user_id="u")',
        "st.session_state.memory = Memory()",
        'st.session_state.memory.get_all(user_id="u")',
    )
    path = tmp_path / "page.md"
    path.write_text(text)
    assert rows(run(path)) == [(row_of(text, "get_all"), "MEM101")]


# Documents that use an SDK class without importing it (bind/implicit.py) ----------------------

MEMOS_DELETE = (
    'client = MemOSClient(api_key="k")\n'
    'client.delete_memory(writable_cube_ids=["c"], memory_ids=["m"])'
)


def _page_rows(tmp_path, *blocks, name="page.md"):
    from test_document_flow import page, rows, run

    text = page(*blocks)
    path = tmp_path / name
    path.write_text(text)
    return text, rows(run(path))


def test_a_docs_page_that_never_imports_a_distinctive_class_is_judged(tmp_path):
    from test_document_flow import row_of

    text, found = _page_rows(tmp_path, MEMOS_DELETE)
    assert found == [(row_of(text, "delete_memory"), "MEM653")]


@pytest.mark.parametrize(
    "blocks",
    [
        # bound anywhere on the page, even in a later block: the page's own binding decides
        (MEMOS_DELETE, "from elsewhere import MemOSClient"),
        (MEMOS_DELETE, "MemOSClient = make_fake()"),
        # `import *` may bring any name
        ("from somewhere import *\n" + MEMOS_DELETE,),
        # a parameter of that name
        ("def f(MemOSClient):\n    " + MEMOS_DELETE.replace("\n", "\n    "),),
    ],
)
def test_an_unimported_name_the_page_binds_or_may_bind_is_not_taken(tmp_path, blocks):
    assert _page_rows(tmp_path, *blocks)[1] == []


def test_common_spellings_and_plain_python_files_are_never_taken(tmp_path):
    from conftest import lint_source

    memory = 'm = Memory()\nm.search("q", user_id="u")'
    assert _page_rows(tmp_path, memory)[1] == []
    client = 'c = MemoryClient()\nc.search("q", user_id="u")'
    assert _page_rows(tmp_path, client)[1] == []
    assert lint_source(MEMOS_DELETE) == []
