"""Attributes of an instance of a class of the module (bind/instances.py), in the binding-table
style of test_flow_binding.py: `# -> mem0-oss` (one client), `# -> none` (never judged)."""

from __future__ import annotations

import textwrap

import pytest
from test_flow_binding import assert_binding_table

CASES = {
    "an instance's attribute set in __init__": """
        from mem0 import MemoryClient
        class Writer:
            def __init__(self):
                self.mem0 = MemoryClient()
        writer = Writer()
        writer.mem0.search("q", user_id="u")  # -> mem0-platform
    """,
    "an instance made in a function, the class defined below it": """
        from mem0 import Memory
        def main():
            bot = Bot()
            bot.memory.add("hi", user_id="u")  # -> mem0-oss
        class Bot:
            def __init__(self):
                self.memory = Memory()
    """,
    "an attribute set in two methods to two clients: a union": """
        from mem0 import Memory, MemoryClient
        class Store:
            def __init__(self, cloud):
                self.memory = Memory()
            def use_cloud(self):
                self.memory = MemoryClient()
        store = Store(False)
        store.memory.search("q")  # -> mem0-oss|mem0-platform
    """,
    "a None placeholder does not make it ambiguous": """
        from mem0 import Memory
        class Lazy:
            def __init__(self):
                self.memory = None
            def connect(self):
                self.memory = Memory()
        lazy = Lazy()
        lazy.memory.search("q")  # -> mem0-oss
    """,
    "an attribute also set to something unknown": """
        from mem0 import Memory
        class Holder:
            def __init__(self, given):
                self.memory = given or Memory()
        holder = Holder(None)
        holder.memory.search("q")  # -> none
    """,
    "an attribute the class never sets": """
        from mem0 import Memory
        class Holder:
            def __init__(self):
                self.other = Memory()
        holder = Holder()
        holder.memory.search("q")  # -> none
    """,
    "a class with a base: the base may set it": """
        from mem0 import Memory
        class Holder(Base):
            def __init__(self):
                self.memory = Memory()
        holder = Holder()
        holder.memory.search("q")  # -> none
    """,
    "a decorated class or one with a metaclass": """
        from dataclasses import dataclass
        from mem0 import Memory
        @dataclass
        class Config:
            memory: Memory
        config = Config(other)
        config.memory.search("q")  # -> none
        class Meta(metaclass=Registry):
            def __init__(self):
                self.memory = Memory()
        meta = Meta()
        meta.memory.search("q")  # -> none
    """,
    "a class that decides its attributes itself": """
        from mem0 import Memory
        class Proxy:
            def __init__(self):
                self.memory = Memory()
            def __getattribute__(self, name):
                return wrapped(name)
        proxy = Proxy()
        proxy.memory.search("q")  # -> none
        class Factory:
            def __new__(cls):
                return other()
            def __init__(self):
                self.memory = Memory()
        made = Factory()
        made.memory.search("q")  # -> none
    """,
    "a property of that name is a function, not a value": """
        from mem0 import Memory
        class Holder:
            @property
            def memory(self):
                return pick()
        holder = Holder()
        holder.memory.search("q")  # -> none
    """,
    "the attribute written through the instance: bind/paths.py decides": """
        from mem0 import Memory, MemoryClient
        class Holder:
            def __init__(self):
                self.memory = Memory()
        holder = Holder()
        holder.memory = MemoryClient()
        holder.memory.search("q")  # -> mem0-platform
        other = Holder()
        other.memory = build()
        other.memory.search("q")  # -> none
    """,
    "the attribute written on another object: it may be this instance": """
        from mem0 import Memory, MemoryClient
        class Holder:
            def __init__(self):
                self.memory = Memory()
        def use_cloud(target):
            target.memory = MemoryClient()
        holder = Holder()
        use_cloud(holder)
        holder.memory.search("q")  # -> none
    """,
    "a context manager binds what __enter__ returns": """
        from mem0 import Memory
        class Session:
            def __init__(self):
                self.memory = Memory()
            def __enter__(self):
                return self.memory
            def __exit__(self, *exc):
                return False
        with Session() as session:
            session.memory.search("q")  # -> none
    """,
    "the instance changed through setattr or [...]": """
        from mem0 import Memory
        class Holder:
            def __init__(self):
                self.memory = Memory()
        holder = Holder()
        setattr(holder, name, build())
        holder.memory.search("q")  # -> none
    """,
    "a rebound instance, a rebound class, a global from elsewhere": """
        from mem0 import Memory
        class Holder:
            def __init__(self):
                self.memory = Memory()
        one = Holder()
        one = Other()
        one.memory.search("q")  # -> none
        two = Holder()
        def swap():
            global two
            two = Other()
        two.memory.search("q")  # -> none
    """,
    "a class name bound twice": """
        from mem0 import Memory
        class Holder:
            def __init__(self):
                self.memory = Memory()
        if legacy:
            Holder = OldHolder
        holder = Holder()
        holder.memory.search("q")  # -> none
    """,
    "an instance given the client: the parameter decides": """
        from mem0 import Memory
        class Holder:
            def __init__(self, memory):
                self.memory = memory
        holder = Holder(Memory())
        holder.memory.search("q")  # -> none
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_instance_attribute_table(name):
    assert_binding_table(CASES[name])


def test_a_finding_through_an_instance_is_reported():
    from conftest import lint_source

    code = textwrap.dedent(
        """
        from mem0 import MemoryClient
        class Writer:
            def __init__(self):
                self.mem0 = MemoryClient()
        writer = Writer()
        found = writer.mem0.search("q", user_id="u")
        """
    )
    assert [d.code for d in lint_source(code)] == ["MEM101"]
