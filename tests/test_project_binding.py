"""Project-wide receiver binding: clients that come from another module of the same project.

Each case writes a small project into a temporary folder, builds the run's index the way the
CLI does (`ProjectIndex.for_paths`), and lints one file of it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mem0lint import engine
from mem0lint.project import ProjectIndex, module_names
from mem0lint.sources import discover

MEMORY = """
from mem0 import MemoryClient
client = MemoryClient()
"""
WRONG = 'search("q", filters={"user_id": "u"}, limit=3)'


def lint_in_project(tmp_path: Path, files: dict[str, str], target: str, given=None) -> list:
    (tmp_path / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    given = [tmp_path / g for g in given] if given else [tmp_path]
    sources = [s.path for s in discover([str(g) for g in given])]
    index = ProjectIndex.for_paths(given, sources)
    path = tmp_path / target
    module = engine.parse(path.read_bytes())
    rules = engine.RuleSet(engine.Settings())
    return [(d.code, d.dialect) for d in engine.lint(module, rules, project=index.view(path))]


BOUND = {
    # The importer sees what reaches the module's end: the first binding was replaced.
    "a name rebound in its module": {
        "app/__init__.py": "",
        "app/memory.py": "from memobase import MemoBaseClient\n"
        + MEMORY.replace(
            "client = MemoryClient()", "client = MemoBaseClient()\nclient = MemoryClient()"
        ),
        "app/search.py": f"from .memory import client\nclient.{WRONG}\n",
    },
    "relative import": {
        "app/__init__.py": "",
        "app/memory.py": MEMORY,
        "app/search.py": f"from .memory import client\nclient.{WRONG}\n",
    },
    "absolute import of a re-export": {
        "app/__init__.py": "",
        "app/memory.py": MEMORY,
        "app/deps.py": "from .memory import client as memory\n",
        "app/routes.py": f"from app.deps import memory\nmemory.{WRONG}\n",
    },
    "import module as alias, attribute": {
        "app/__init__.py": "",
        "app/memory.py": MEMORY,
        "app/deps.py": "from app.memory import client as memory\n",
        "app/routes.py": f"import app.deps as d\nd.memory.{WRONG}\n",
    },
    "from package import module": {
        "app/__init__.py": "",
        "app/memory.py": MEMORY,
        "app/routes.py": f"from app import memory\nmemory.client.{WRONG}\n",
    },
    "factory with a return annotation": {
        "app/__init__.py": "",
        "app/memory.py": "from mem0 import MemoryClient\ndef get() -> MemoryClient: ...\n",
        "app/routes.py": f"from app.memory import get\nget().{WRONG}\n",
    },
    "factory returning a construction": {
        "app/__init__.py": "",
        "app/memory.py": "import mem0\ndef make():\n    return mem0.MemoryClient()\n",
        "app/routes.py": f"from .memory import make\nclient = make()\nclient.{WRONG}\n",
    },
    "re-exported client class": {
        "app/__init__.py": "from mem0 import MemoryClient\n",
        "app/routes.py": f"from app import MemoryClient\nMemoryClient().{WRONG}\n",
    },
    "class attribute aliasing an imported global": {
        "app/__init__.py": "",
        "app/memory.py": MEMORY.replace("client =", "MEM0_CLIENT ="),
        "app/service.py": f"""
            from app.memory import MEM0_CLIENT
            class Service:
                def __init__(self):
                    self.memory = MEM0_CLIENT
                def run(self):
                    return self.memory.{WRONG}
        """,
    },
    "bound-method alias": {
        "app/__init__.py": "",
        "app/memory.py": MEMORY,
        "app/service.py": f"""
            from app.memory import client
            def run():
                search = client.search
                return {WRONG}
        """,
    },
    "fixture in the same file": {
        "tests/test_a.py": f"""
            import pytest
            from mem0 import MemoryClient
            @pytest.fixture
            def memory():
                return MemoryClient()
            def test_it(memory):
                memory.{WRONG}
        """,
    },
    "yield fixture in a conftest above": {
        "tests/conftest.py": """
            import pytest
            from mem0 import MemoryClient
            @pytest.fixture(name="memory")
            def _memory():
                client = MemoryClient()
                yield client
        """,
        "tests/unit/test_a.py": f"def test_it(memory):\n    memory.{WRONG}\n",
    },
    "fixture returning a project factory": {
        "app/__init__.py": "",
        "app/memory.py": MEMORY + "def get_client() -> MemoryClient:\n    return client\n",
        "tests/conftest.py": """
            import pytest
            from app.memory import get_client
            @pytest.fixture
            def memory():
                return get_client()
        """,
        "tests/test_a.py": f"""
            class TestA:
                def test_it(self, memory):
                    memory.{WRONG}
        """,
    },
    "an attribute of a module's instance of its plain class": {
        "app/__init__.py": "",
        "app/service.py": """
            from mem0 import MemoryClient
            class MemoryService:
                def __init__(self):
                    self.client = MemoryClient()
            memory_service = MemoryService()
        """,
        "app/routes.py": f"""
            from app import service
            from app.service import memory_service
            memory_service.client.{WRONG}
            service.memory_service.client.{WRONG}
        """,
    },
}


@pytest.mark.parametrize("files", BOUND.values(), ids=BOUND.keys())
def test_receiver_from_elsewhere_is_bound(tmp_path, files):
    target = list(files)[-1]
    calls = files[target].count(WRONG)
    assert lint_in_project(tmp_path, files, target) == [("MEM102", "mem0-platform")] * calls


def test_other_dialects_travel_too(tmp_path):
    files = {
        "svc/__init__.py": "",
        "svc/clients.py": """
            from memsy import MemsyClient
            from memos.api.client import MemOSClient
            memsy = MemsyClient(base_url="b", api_key="k")
            memos = MemOSClient(api_key="k")
        """,
        "svc/use.py": """
            from svc.clients import memos, memsy
            memsy.search("q", actor_id="u", top_k=3)
            memos.search_memory("q", user_id="u", top_k=3)
            memsy.search("q", actor_id="u", limit=3)
        """,
    }
    assert lint_in_project(tmp_path, files, "svc/use.py") == [
        ("MEM692", "memsy"),
        ("MEM653", "memos"),
    ]


NOT_BOUND = {
    "name rebound in the other module": {
        "app/__init__.py": "",
        "app/memory.py": MEMORY + "client = object()\n",
        "app/routes.py": f"from app.memory import client\nclient.{WRONG}\n",
    },
    "import cycle": {
        "app/__init__.py": "",
        "app/a.py": "from app.b import client\n",
        "app/b.py": f"from app.a import client\nclient.{WRONG}\n",
    },
    "unknown module": {"app/routes.py": f"from elsewhere import client\nclient.{WRONG}\n"},
    "parametrized argument shadows the fixture": {
        "tests/conftest.py": "import pytest\nfrom mem0 import Memory\n@pytest.fixture\n"
        "def memory():\n    return Memory()\n",
        "tests/test_a.py": f"""
            import pytest
            @pytest.mark.parametrize("memory", [object()])
            def test_it(memory):
                memory.{WRONG}
        """,
    },
    "nearer conftest overrides the fixture": {
        "tests/conftest.py": "import pytest\nfrom mem0 import Memory\n@pytest.fixture\n"
        "def memory():\n    return Memory()\n",
        "tests/unit/conftest.py": "import pytest\n@pytest.fixture\ndef memory():\n"
        "    return FakeStore()\n",
        "tests/unit/test_a.py": f"def test_it(memory):\n    memory.{WRONG}\n",
    },
    "a test-named function outside test files gets no conftest fixture": {
        "conftest.py": "import pytest\nfrom mem0 import Memory\n@pytest.fixture\n"
        "def memory():\n    return Memory()\n",
        "app/health.py": f"def test_connection(memory):\n    memory.{WRONG}\n",
    },
    "a plain function parameter is not a fixture": {
        "tests/conftest.py": "import pytest\nfrom mem0 import Memory\n@pytest.fixture\n"
        "def memory():\n    return Memory()\n",
        "tests/helpers.py": f"def helper(memory):\n    memory.{WRONG}\n",
    },
    "generator function is not a factory": {
        "app/__init__.py": "",
        "app/memory.py": "from mem0 import Memory\ndef clients():\n    yield Memory()\n",
        "app/routes.py": f"from app.memory import clients\nclients().{WRONG}\n",
    },
    "a project class with its own search": {
        "app/__init__.py": "",
        "app/store.py": "class Store:\n    def search(self, q, limit=10): ...\nstore = Store()\n",
        "app/routes.py": f"from app.store import store\nstore.{WRONG}\n",
    },
    "an attribute of a module's instance of a class with a base": {
        "app/__init__.py": "",
        "app/service.py": """
            from mem0 import MemoryClient
            class MemoryService(Base):
                def __init__(self):
                    self.client = MemoryClient()
            memory_service = MemoryService()
        """,
        "app/routes.py": f"from app.service import memory_service\nmemory_service.client.{WRONG}\n",
    },
    "an attribute of a class, not of an instance": {
        "app/__init__.py": "",
        "app/service.py": """
            from mem0 import MemoryClient
            class MemoryService:
                def __init__(self):
                    self.client = MemoryClient()
        """,
        "app/routes.py": f"from app.service import MemoryService\nMemoryService.client.{WRONG}\n",
    },
}


@pytest.mark.parametrize("files", NOT_BOUND.values(), ids=NOT_BOUND.keys())
def test_uncertain_receivers_stay_silent(tmp_path, files):
    target = list(files)[-1]
    assert lint_in_project(tmp_path, files, target) == []


def test_one_file_given_still_sees_its_package(tmp_path):
    files = {
        "app/__init__.py": "",
        "app/memory.py": MEMORY,
        "app/search.py": f"from .memory import client\nclient.{WRONG}\n",
    }
    found = lint_in_project(tmp_path, files, "app/search.py", given=["app/search.py"])
    assert found == [("MEM102", "mem0-platform")]


def test_module_names(tmp_path):
    (tmp_path / "src/app/sub").mkdir(parents=True)
    for name in ("src/app/__init__.py", "src/app/sub/__init__.py", "src/app/sub/m.py"):
        (tmp_path / name).write_text("")
    assert module_names(tmp_path / "src/app/sub/m.py", [tmp_path]) == [
        "app.sub.m",
        "src.app.sub.m",
    ]
    assert module_names(tmp_path / "src/app/__init__.py", [tmp_path]) == ["app", "src.app"]


def test_unparsed_modules_cost_nothing(tmp_path):
    """Only modules a linted call asks about are parsed."""
    files = {
        "app/__init__.py": "",
        "app/memory.py": MEMORY,
        "app/unrelated.py": "x = 1\n",
        "app/search.py": f"from .memory import client\nclient.{WRONG}\n",
    }
    lint_in_project(tmp_path, files, "app/search.py")
    index = ProjectIndex.for_paths([tmp_path], [s.path for s in discover([str(tmp_path)])])
    view = index.view(tmp_path / "app/search.py")
    module = engine.parse((tmp_path / "app/search.py").read_bytes())
    engine.lint(module, engine.RuleSet(engine.Settings()), project=view)
    parsed = {p.name for p, v in index._parsed.items() if v is not None}
    assert parsed == {"memory.py"}


def test_configured_receivers_cover_dependency_injection():
    from conftest import lint_source

    code = f"""
    def handler(memory, store):
        memory.{WRONG}
        store.{WRONG}

    class View:
        def get(self):
            return self.memory.{WRONG}
    """
    receivers = {"memory": "mem0-platform", "self.memory": "mem0-oss", "app.make": "memsy"}
    found = [(d.code, d.dialect) for d in lint_source(code, receivers=receivers)]
    assert found == [("MEM102", "mem0-platform"), ("MEM102", "mem0-oss")]


def test_configured_factory_name():
    from conftest import lint_source

    code = """
    from app.di import make_memory
    make_memory().search("q", actor_id="u", top_k=3)
    """
    found = lint_source(code, receivers={"app.di.make_memory": "memsy"})
    assert [(d.code, d.dialect) for d in found] == [("MEM692", "memsy")]


def _cannot_bind_by_regex(data: bytes, name: str) -> bool:
    """`ProjectIndex._cannot_bind`'s question, as its regular expressions first asked it."""
    import re

    word = re.escape(name.encode())
    if re.search(rb"\b" + word + rb"\b", data) is None:
        return True
    return re.search(rb"^class[ \t]+" + word + rb"\b", data, re.MULTILINE) is not None


PIECES = [b"class", b" ", b"\t", b"\f", b"\n", b"\r", b"Foo", b"_", b"x", b"1", b"(", b"\xc3\xa9"]


@given(
    st.lists(st.sampled_from(PIECES), max_size=14).map(b"".join),
    st.sampled_from(["Foo", "Foo_", "x", "class", "F\u00e9e"]),
)
def test_a_name_is_looked_for_as_the_regular_expressions_did(tmp_path_factory, data, name):
    """`_cannot_bind` searches the module's bytes for the whole word instead of compiling two
    regular expressions per name; its verdict is theirs (a module-level class, or no such word)."""
    folder = tmp_path_factory.mktemp("module")
    module = folder / "mod.py"
    module.write_bytes(data)
    index = ProjectIndex.for_paths([folder], [module])
    assert index._cannot_bind(module, name) == _cannot_bind_by_regex(data, name)
