"""Pruning with the project in view (runner.py -> pruning.analyse with an `ImportTaint`) never
changes a finding: whole trees are checked pruned and unpruned (`pruning.unpruned()`) and must
give the same findings, positions, messages and fixes.

What the project adds to pruning, each proved here on trees built to trip it:
- an import taints only when what it binds may be a client (a client class or factory of the SDK
  tables, a configured receiver, or what the project index finds there); `from
  mem0.configs.base import MemoryConfig` does not, whatever words it spells;
- when no import of a file, at any depth, may give a client, the SDK's words taint nothing;
- test files stay unpruned (their conftest fixtures), next to pruned modules of the project.
"""

from __future__ import annotations

import ast
import random
import re
import sys
import textwrap
from pathlib import Path

import pytest

from mem0lint import clientsources, pipeline, pruning
from mem0lint.project import ProjectIndex

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402


def _findings(folder: Path) -> list[tuple]:
    run = pipeline.run(pipeline.Options(paths=(str(folder),), no_cache=True, jobs=1))
    found = []
    for report in run.reports:
        path = str(report.source.path)
        found.append((path, "error", report.error or ""))
        for d in report.diagnostics:
            edits = tuple((e.content, e.location, e.end_location) for e in d.edits)
            found.append((path, d.cell, d.code, d.message, d.start, d.end, str(d.severity), edits))
    return sorted(found, key=repr)


def assert_same_findings(folder: Path) -> list[tuple]:
    pruned = _findings(folder)
    with pruning.unpruned():
        whole = _findings(folder)
    assert pruned == whole
    return [f for f in pruned if f[1] != "error"]


def _write(folder: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def _pruned_text(path: Path, transports: bool = True) -> str:
    """What libcst would parse of `path` in a check (runner.py's seeds and import judge)."""
    view = ProjectIndex().view(path)
    imports = clientsources.ImportTaint(view, (), transports=transports)
    text = path.read_text(encoding="utf-8")
    return pruning.analyse(text, pruning.seed_words(), view.top_level_names(), imports)[0]


# The generated corpus as a project, three ways --------------------------------------------------

CORPUS = generate.generate_sources(count=100, seed=23)
# A project package that re-exports the SDK's classes (`from shim import MemoryClient` gives a
# client through the project index), and one that defines look-alike classes (gives nothing).
SHIMS = {
    "reexport": "from mem0 import AsyncMemory, AsyncMemoryClient, Memory, MemoryClient\n"
    "from memsy import AsyncMemsyClient, MemsyClient\n",
    "lookalike": "".join(
        f"class {name}:\n    pass\n\n\n"
        for name in ("AsyncMemory", "AsyncMemoryClient", "Memory", "MemoryClient")
    )
    + "from memsy import AsyncMemsyClient, MemsyClient\n",
}


@pytest.mark.parametrize("shim", [None, *SHIMS])
def test_pruning_with_the_project_changes_no_finding_in_the_generated_corpus(tmp_path, shim):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'corpus'\n")
    sources = dict(CORPUS)
    if shim is not None:
        (tmp_path / "shim").mkdir()
        (tmp_path / "shim" / "__init__.py").write_text(SHIMS[shim])
        sources = {
            path: re.sub(r"^from mem0 import", "from shim import", text, flags=re.MULTILINE)
            for path, text in sources.items()
        }
    for relative, text in sources.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    found = assert_same_findings(tmp_path)
    assert found  # the corpus has findings in every variant (its other imports stay)


# Imports judged by what they bind ----------------------------------------------------------------


def test_an_import_taints_only_when_it_may_give_a_client_without_a_project():
    judge = clientsources.ImportTaint(None)
    assert judge.may_give("mem0.Memory")
    assert judge.may_give("mem0")  # `import mem0` ... `mem0.MemoryClient()`
    assert judge.may_give("mem0.client")  # `from mem0 import client` ... `client.main....`
    assert judge.may_give("requests")  # `requests.post`, `requests.Session()`
    assert judge.may_give("requests.post")
    assert judge.may_give("memos.api.client.MemOSClient")
    assert not judge.may_give("mem0.configs.base.MemoryConfig")
    assert not judge.may_give("pydantic.BaseModel")
    assert not judge.may_give(".models.Thing")  # relative: only a project finds it
    assert clientsources.ImportTaint(None, ["app.deps.memory"]).may_give("app.deps")


def test_an_import_from_the_project_taints_unless_the_index_proves_it_gives_nothing(tmp_path):
    _write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "app/__init__.py": "",
            "app/models.py": "class Thing:\n    pass\n",
            "app/deps.py": "from mem0 import MemoryClient\n\nmemory = MemoryClient()\n",
            "app/main.py": "x = 1\n",
            "app/sub/__init__.py": "",
            "app/sub/plain.py": "import json\n",
            "app/deep/__init__.py": "",
            "app/deep/er/est.py": "from app.deps import memory\n",  # `er` has no __init__.py
            "app/spaced/plain.py": "x = 1\n",  # a folder without __init__.py
        },
    )
    judge = clientsources.ImportTaint(ProjectIndex().view(tmp_path / "app" / "main.py"))
    assert not judge.may_give("app.models.Thing")  # a class: never a client
    assert not judge.may_give("app.models.Missing")  # not spelled there
    assert not judge.may_give("..beyond.the.top")
    assert judge.may_give("app.deps.memory")
    assert judge.may_give("app.deps")  # a module: `deps.memory`
    assert not judge.may_give("app.sub")  # a package: no module under it may hold one
    assert judge.may_give("app.deep")  # a package: `deep.er.est.memory`
    assert judge.may_give("app.deep.er")  # a folder: `er.est.memory`
    assert not judge.may_give("app.spaced")
    assert judge.may_give(".deps.memory")


def test_without_an_import_that_gives_a_client_the_sdk_words_taint_nothing(tmp_path):
    """mem0's own code spells its class names and `memories` everywhere; nothing it imports
    gives a client, so only its imports are left for libcst."""
    _write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'lib'\n",
            "lib/__init__.py": "",
            "lib/configs.py": "class MemoryConfig:\n    pass\n",
            "lib/memory.py": '''
                from lib.configs import MemoryConfig


                class Memory:
                    """The Memory class."""

                    def __init__(self, config: MemoryConfig):
                        self.memories = []

                    def search(self, query):
                        memories = self.memories
                        return [m for m in memories if query in m]


                def noise(memory: Memory):
                    return memory.search("q", filters={"user_id": "u"})
                ''',
        },
    )
    pruned = _pruned_text(tmp_path / "lib" / "memory.py")
    assert "from lib.configs import MemoryConfig" in pruned
    assert "memories" not in pruned and "noise" not in pruned
    assert_same_findings(tmp_path)


TREE = {
    "pyproject.toml": "[project]\nname = 'svc'\n",
    "svc/__init__.py": "",
    "svc/models.py": "class Settings:\n    pass\n",
    "svc/deps.py": """
        from mem0 import MemoryClient


        def make():
            return MemoryClient(api_key="k")
        """,
    "svc/service.py": """
        from svc.deps import make
        from svc.models import Settings

        client = make()


        def noise(settings: Settings):
            return settings


        def recall(user):
            return client.search("q", user_id=user, version="v2")
        """,
    "svc/quiet.py": """
        from svc.models import Settings


        def recall(memory, user):
            # `memory` is no client this file can know: silent, pruned or not.
            return memory.search("q", user_id=user)


        def memories(settings: Settings):
            return settings
        """,
    "tests/conftest.py": """
        import pytest
        from mem0 import MemoryClient


        @pytest.fixture
        def client():
            return MemoryClient(api_key="k")


        @pytest.fixture
        def settings():
            return {}
        """,
    "tests/test_service.py": """
        import pytest


        def helper(value):
            return value


        @pytest.fixture
        def memories(settings):
            return helper(settings)


        def test_search(client):
            client.search("q", user_id="u")


        def test_rebound(settings, memories):
            assert helper(memories) == settings


        class TestClient:
            def test_get_all(self, client):
                client.get_all(user_id="u")

            def test_nothing(self, settings):
                assert settings == {}
        """,
    "tests/test_shadow.py": """
        import pytest


        @pytest.fixture
        def client():
            return object()


        def test_search(client):
            client.search("q", user_id="u")
        """,
}


def test_a_project_with_conftest_fixtures_gives_the_same_findings_pruned_or_not(tmp_path):
    _write(tmp_path, TREE)
    found = assert_same_findings(tmp_path)
    assert {Path(f[0]).name for f in found} >= {"service.py", "test_service.py"}
    assert not any(Path(f[0]).name in ("quiet.py", "test_shadow.py") for f in found)
    quiet = _pruned_text(tmp_path / "svc" / "quiet.py")
    assert "from svc.models import Settings" in quiet and "def memories" not in quiet
    service = _pruned_text(tmp_path / "svc" / "service.py")
    assert "client = make()" in service and "def noise" not in service


INSTANCES = {
    "pyproject.toml": "[project]\nname = 'svc'\n",
    "svc/__init__.py": "",
    "svc/service.py": """
        from mem0 import MemoryClient


        class MemoryService:
            def __init__(self):
                self.client = MemoryClient(api_key="k")

            def __getattr__(self, name):
                return lookup(name)


        class PlainService:
            def __init__(self):
                self.client = MemoryClient(api_key="k")


        def noise():
            return 1


        memory_service = MemoryService()
        plain_service = PlainService()
        """,
    "svc/routes.py": """
        from svc.service import memory_service, plain_service


        def noise():
            return 2


        def recall(user):
            memory_service.client.search("q", user_id=user)
            return plain_service.client.search("q", user_id=user)
        """,
}


def test_attributes_of_a_modules_instances_give_the_same_findings_pruned_or_not(tmp_path):
    _write(tmp_path, INSTANCES)
    found = assert_same_findings(tmp_path)
    # Only the plain class's attribute is followed (the other class has `__getattr__`).
    assert [(Path(f[0]).name, f[2]) for f in found if len(f) > 3] == [("routes.py", "MEM101")]


def test_the_imports_of_a_module_are_found_without_walking_its_expressions():
    sources = {**{k: v for k, v in CORPUS.items()}}
    for path in (ROOT / "fixtures").glob("*.py"):
        sources[path.name] = path.read_text(encoding="utf-8")
    sources["nested"] = textwrap.dedent(
        """
        try:
            import a
        except E:
            from b import c
        else:
            import d
        finally:
            import e
        class K:
            def f(self):
                if x:
                    from .g import h
                while y:
                    import i
                else:
                    with j:
                        import k
        """
    )
    for name, source in sources.items():
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        walked = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
        found = list(clientsources._imports_anywhere(tree.body))
        assert sorted(map(id, found)) == sorted(map(id, walked)), name


# Files with nothing to judge are not parsed at all ------------------------------------------------

GATED = {
    "pyproject.toml": "[project]\nname = 'app'\n",
    "app/__init__.py": "",
    "app/deps.py": """
        from mem0 import MemoryClient


        def make():
            return MemoryClient(api_key="k")
        """,
    "app/models.py": "class Memory:\n    pass\n",
    # mem0's own code: spells the SDK everywhere, imports nothing that gives a client.
    "app/plain.py": """
        from app.models import Memory


        def recall(memory: Memory):
            return memory.search("q", filters={"$and": []})
        """,
    "tests/conftest.py": """
        import pytest
        from app.deps import make


        @pytest.fixture
        def client():
            return make()
        """,
    "tests/test_client.py": """
        def test_search(client):
            client.search("q", filters={"$and": [{"user_id": "u"}]})
        """,
    "tests/unit/conftest.py": """
        import pytest


        @pytest.fixture
        def settings():
            return {"Memory": 1}
        """,
    # Its own conftest gives nothing, the one above does: still judged.
    "tests/unit/test_deep.py": """
        def test_deep(client):
            client.get_all(filters={"$and": [{"user_id": "u"}]})
        """,
    "other/pyproject.toml": "[project]\nname = 'other'\n",
    "other/conftest.py": "import pytest\n",
    "other/test_quiet.py": """
        from app.models import Memory


        def test_memory(memory=Memory()):
            memory.search("q", filters={"$and": []})
        """,
}


def _plan(path: Path, receivers: tuple = ()):
    index = ProjectIndex()
    index.configure({name: "mem0-platform" for name in receivers})
    view = index.view(path)
    imports = clientsources.ImportTaint(view, receivers)
    data = path.read_bytes()  # as runner.py reads a file
    return pruning.plan(path, data, pruning.seed_words(receivers), view.top_level_names(), imports)


def test_a_file_where_no_call_can_be_on_a_client_is_not_parsed(tmp_path):
    _write(tmp_path, GATED)
    found = assert_same_findings(tmp_path)
    assert {Path(f[0]).name for f in found} == {"test_client.py", "test_deep.py"}
    assert _plan(tmp_path / "app" / "plain.py") is None
    assert _plan(tmp_path / "other" / "test_quiet.py") is None  # no conftest gives one
    assert _plan(tmp_path / "tests" / "test_client.py") is not None  # a conftest may
    assert _plan(tmp_path / "tests" / "unit" / "test_deep.py") is not None  # the one above
    assert _plan(tmp_path / "app" / "deps.py") is not None
    # A configured receiver needs no import: a file that spells it is judged.
    (tmp_path / "app" / "uses.py").write_text("def f():\n    memory.search('q')\n")
    assert _plan(tmp_path / "app" / "uses.py") is None
    assert _plan(tmp_path / "app" / "uses.py", ("app.state.memory",)) is not None


@pytest.mark.parametrize(
    "tail, codes, parsed",
    [
        (b"# it\x92s mem0's\n", ["MEM002"], True),  # cp1252 bytes without a coding cookie
        (b"from app.models import  # mem0\n", ["MEM001"], True),  # a syntax error
        (b"nonlocal memory  # mem0\n", [], True),  # Python's symbol table refuses it, not libcst
        (b'PATTERN = "\\d+"  # mem0\n', [], False),  # a compiler warning: none of ours
    ],
    ids=["does not decode", "syntax error", "nonlocal at the top", "warning"],
)
def test_a_file_python_cannot_read_is_reported_whether_or_not_it_may_hold_a_client(
    tmp_path, recwarn, tail, codes, parsed
):
    """A byte scan of its imports is enough to know no call in it is on a client, but libcst
    parses a file Python cannot read, to report it as it does unpruned."""
    _write(tmp_path, GATED)
    path = tmp_path / "app" / "plain.py"
    path.write_bytes(path.read_bytes() + tail)
    found = assert_same_findings(tmp_path)
    assert [f[2] for f in found if f[0] == str(path)] == codes
    assert (_plan(path) is not None) == parsed
    assert not recwarn.list


def test_a_file_that_declares_its_encoding_decodes(tmp_path):
    _write(tmp_path, GATED)
    path = tmp_path / "app" / "plain.py"
    path.write_bytes(b"# -*- coding: cp1252 -*-\n" + path.read_bytes() + b"# it\x92s mem0's\n")
    assert _plan(path) is None


def test_a_file_whose_noqa_names_a_mem0lint_code_is_always_parsed(tmp_path):
    _write(tmp_path, GATED)
    path = tmp_path / "app" / "plain.py"
    text = path.read_text()
    # Other tools' codes and a bare noqa only silence findings: nothing to judge without a call.
    path.write_text(text + "x = 1  # noqa: E501\ny = 2  # noqa\n# mem0lint: noqa\n")
    assert _plan(path) is None
    path.write_text(text + "x = 1  # noqa: MEM201\n")  # may be unused: MEM901
    assert _plan(path) is not None
    assert_same_findings(tmp_path)
    with pruning.unpruned():
        assert _plan(tmp_path / "other" / "test_quiet.py") is not None


def test_a_function_of_a_module_where_nothing_can_be_a_client_gives_none(tmp_path):
    _write(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "app/__init__.py": "",
            "app/utils.py": "import json\n\n\ndef parse(text):\n    return json.loads(text)\n",
            "app/deps.py": (
                "from mem0 import MemoryClient\n\n\ndef make():\n    return MemoryClient()\n"
            ),
            # Through another module: `make` comes from a module that may hold a client.
            "app/wrap.py": "from app.deps import make\n\n\ndef wrapped():\n    return make()\n",
            # An import cycle with no client in reach, and one with a client.
            "app/ping.py": "from app.pong import pong\n\n\ndef ping():\n    return pong()\n",
            "app/pong.py": "from app.ping import ping\n\n\ndef pong():\n    return ping()\n",
            "app/tick.py": "from app.tock import tock\n\n\ndef tick():\n    return tock()\n",
            "app/tock.py": "from app.deps import make\nfrom app.tick import tick\n\n\n"
            "def tock():\n    return make()\n",
            # Its own folder is one of its roots: `import valkey` finds itself.
            "app/valkey.py": "import valkey\n\n\ndef connect():\n    return valkey.Valkey()\n",
            "app/redis.py": "import redis\nfrom mem0 import Memory\n\n\ndef connect():\n"
            "    return redis.Memory()\n",
            "app/main.py": "x = 1\n",
        },
    )
    judge = clientsources.ImportTaint(ProjectIndex().view(tmp_path / "app" / "main.py"))
    assert not judge.may_give("app.valkey.connect")
    assert judge.may_give("app.redis.connect")  # it finds itself, and imports the SDK
    assert not judge.may_give("app.utils.parse")
    assert judge.may_give("app.deps.make")
    assert judge.may_give("app.wrap.wrapped")
    assert not judge.may_give("app.utils")  # `utils.parse`: nothing there is a client
    assert judge.may_give("app.deps")  # `deps.make`
    assert judge.may_give("app")  # a package: `app.deps` is a module under it
    assert not judge.may_give("app.ping.ping")  # a cycle: no client in reach
    assert judge.may_give("app.tick.tick")  # a cycle: `tock` imports one
    call = ".search('q', filters={'$and': []})\n"
    tests = {
        "app/use_ping.py": "from app.ping import ping\n\nping()" + call,
        "app/use_tick.py": "from app.tick import tick\n\ntick()" + call,
        "app/use_redis.py": "from app.redis import connect\n\nconnect()" + call,
        "app/use_valkey.py": "from app.valkey import connect\n\nconnect()" + call,
        "app/use_utils.py": "from app.utils import parse\n\nparse('x')" + call,
        "app/use_wrap.py": "from app.wrap import wrapped\n\nwrapped()" + call,
    }
    _write(tmp_path, tests)
    found = assert_same_findings(tmp_path)
    assert {Path(f[0]).name for f in found} == {"use_wrap.py", "use_redis.py", "use_tick.py"}
    assert _plan(tmp_path / "app" / "use_ping.py") is None
    assert _plan(tmp_path / "app" / "use_utils.py") is None
    assert _plan(tmp_path / "app" / "use_valkey.py") is None
    assert _plan(tmp_path / "app" / "valkey.py") is None


@pytest.mark.parametrize("seed", range(40))
def test_a_module_may_hold_a_client_exactly_when_its_imports_reach_one(tmp_path, seed):
    """Random import graphs, cycles and all, asked in a random order of a fresh index: a module
    may hold a client exactly when a chain of imports leads from it to a module that imports
    one (`ProjectIndex._judged` settles a cycle with no client in reach as a no)."""
    rng = random.Random(seed)
    count = 12
    edges = {i: rng.sample(range(count), rng.randint(0, 4)) for i in range(count)}
    sources = set(rng.sample(range(count), rng.randint(0, 2)))
    if seed == 0:  # m0 asks m1 first, which leans on m0 (open) before m0 finds m2's client
        edges, sources = {0: [1, 2], 1: [0], 2: [], **{i: [] for i in range(3, count)}}, {2}
    files = {"pyproject.toml": "[project]\nname = 'app'\n", "app/__init__.py": ""}
    for i in range(count):
        lines = [f"from app.m{j} import f as f{j}" for j in edges[i] if j != i]
        lines += ["from mem0 import MemoryClient"] if i in sources else []
        files[f"app/m{i}.py"] = "\n".join([*lines, "", "", "def f():", "    return None", ""])
    _write(tmp_path, files)

    def reaches(i: int) -> bool:
        seen, todo = set(), [i]
        while todo:
            j = todo.pop()
            if j in sources:
                return True
            if j not in seen:
                seen.add(j)
                todo.extend(edges[j])
        return False

    order = list(range(count))
    rng.shuffle(order)
    if seed == 0:
        order.sort()
    index = ProjectIndex()
    judge = clientsources.ImportTaint(index.view(tmp_path / "app" / "__init__.py"))
    for i in order:
        assert judge.may_give(f"app.m{i}.f") == reaches(i), (i, edges, sources)


def test_a_chain_of_imports_deeper_than_the_stack_allows_may_give_a_client(tmp_path):
    """Each may-hold question is a dozen Python frames: past `_DEEPEST` open questions the
    answer is "may" (the file is parsed), never a RecursionError."""
    files = {"pyproject.toml": "[project]\nname = 'app'\n", "app/__init__.py": ""}
    for i in range(150):
        head = f"from app.m{i + 1} import f as g\n" if i < 149 else "import json as g\n"
        files[f"app/m{i}.py"] = head + "\n\ndef f():\n    return g\n"
    files["app/use.py"] = "from app.m0 import f\n\nf().search('q', filters={'$and': []})\n"
    _write(tmp_path, files)
    judge = clientsources.ImportTaint(ProjectIndex().view(tmp_path / "app" / "use.py"))
    assert judge.may_give("app.m0.f")  # too deep to prove otherwise
    assert not judge.may_give("app.m120.f")  # 30 questions from the end: proved
    assert _plan(tmp_path / "app" / "use.py") is not None
    assert_same_findings(tmp_path)


# HTTP clients count only where the Platform's host and endpoint are spelled ------------------

BODY = 'json={"query": "q", "user_id": "u"})\n'  # MEM101 on the Platform's search endpoint
TRANSPORTS = {
    "pyproject.toml": "[project]\nname = 'app'\n",
    "app/__init__.py": "",
    "app/http.py": """
        import httpx

        BASE = "https://api.mem0.ai"
        SEARCH = "/v3/memories/search/"


        def make():
            return httpx.Client()
        """,
    "app/literal.py": "from app.http import make\n\n"
    'make().post("https://api.mem0.ai/v3/memories/search/", ' + BODY,
    "app/side_by_side.py": "import requests\n\n"
    'requests.post("https://api.mem0.ai" "/v3/memories/search/", ' + BODY,
    # The host behind an imported name or an escape, or another host: never judged.
    "app/escaped.py": "import requests\n\n"
    'requests.post("https://api.mem0\\x2eai/v3/memories/search/", ' + BODY,
    "app/imported_base.py": "import requests\nfrom app.http import BASE\n\n"
    'requests.post(f"{BASE}/v3/memories/search/", ' + BODY,
    "app/sidecar.py": "from app.http import make\n\n"
    'make().post("http://localhost:8000/v3/memories/search/", ' + BODY,
    # The host, but another endpoint, or the endpoint behind an imported name: never judged.
    "app/other_endpoint.py": "import requests\n\n"
    'requests.post("https://api.mem0.ai/v1/exports/", ' + BODY,
    "app/imported_endpoint.py": "import requests\nfrom app.http import SEARCH\n\n"
    'requests.post("https://api.mem0.ai" + SEARCH, ' + BODY,
    # The endpoint bound to a name of the module, without its last `/`: judged.
    "app/named_endpoint.py": 'import requests\n\nSEARCH = "/v3/memories/search"\n'
    'requests.post("https://api.mem0.ai" + SEARCH, ' + BODY,
    # An SDK client and an HTTP client: the union is judged by no member.
    "app/mixed.py": """
        import os

        import httpx
        from mem0 import MemoryClient

        either = MemoryClient() if os.environ.get("SDK") else httpx.Client()
        either.search("q", filters={"$and": [{"user_id": "u"}]}, user_id="u")


        def helper():
            return httpx.Client()


        MemoryClient().search("q", user_id="u")
        """,
    "tests/conftest.py": """
        import httpx
        import pytest


        @pytest.fixture
        def http():
            return httpx.Client()
        """,
    "tests/test_platform.py": "def test_search(http):\n"
    '    http.post("https://api.mem0.ai/v3/memories/search/", ' + BODY,
    "tests/test_sidecar.py": "def test_search(http):\n"
    '    http.post("http://sidecar/v3/memories/search/", ' + BODY,
}


def test_an_http_client_counts_only_where_the_module_spells_the_platform_s_endpoint(tmp_path):
    _write(tmp_path, TRANSPORTS)
    found = assert_same_findings(tmp_path)
    judged = {(Path(f[0]).name, f[2]) for f in found}
    assert judged == {
        ("literal.py", "MEM101"),
        ("side_by_side.py", "MEM101"),
        ("named_endpoint.py", "MEM101"),
        ("mixed.py", "MEM101"),
        ("test_platform.py", "MEM101"),
    }
    assert [f[4][0] for f in found if Path(f[0]).name == "mixed.py"] == [14]  # not the union
    for name in (
        "imported_base.py",
        "escaped.py",
        "sidecar.py",
        "other_endpoint.py",
        "imported_endpoint.py",
    ):
        assert _plan(tmp_path / "app" / name) is None, name
    assert _plan(tmp_path / "tests" / "test_sidecar.py") is None
    for name in ("literal.py", "side_by_side.py", "named_endpoint.py", "mixed.py", "http.py"):
        assert _plan(tmp_path / "app" / name) is not None, name
    assert _plan(tmp_path / "tests" / "test_platform.py") is not None
    # In mixed.py the HTTP helper is no seed: nothing kept mentions it.
    assert "def helper" not in _pruned_text(tmp_path / "app" / "mixed.py", transports=False)
    assert "def helper" in _pruned_text(tmp_path / "app" / "mixed.py")


def test_what_may_post_to_the_platform():
    spells = clientsources.may_post_to_platform
    assert spells('URL = "https://api.mem0.ai/v3/memories/search/"\n')
    assert spells('URL = "https://api.mem0.ai"\nLIST = "/v3/memories"\n')  # without the `/`
    assert spells("# see mem0.ai and /v3/memories/\n")  # its bytes: a comment too
    assert spells("\ufeffx = 1  # mem0.ai/v3/memories/\n".encode("utf-16"))  # decoded first
    assert not spells('URL = "https://api.mem0.io/v3/memories/"\nHOST = "mem0"\n')
    assert not spells('URL = "https://api.mem0\\x2eai/v3/memories/"\n')  # an escape is not read
    assert not spells('URL = "https://api.mem0.ai/v1/exports/"\n')  # another endpoint
    assert not spells('URL = "https://api.mem0.ai/v3/memorie\\x73/"\n')


# The byte scan of imports, where it says it saw every import, saw them all -----------------------

HAZARDS = {
    "compound": "if TYPE_CHECKING: from mem0 import Memory\n",
    "continued": "from mem0 \\\n    import Memory\n",
    "comment in parentheses": "from mem0 import (  # the client (see docs)\n    Memory,\n)\n",
    "other encoding": "# coding: latin-1\nfrom caf\xe9 import Memory\n",
    "a name outside ASCII": "from caf\xe9 import Memory\n",
    "in parentheses": "from caf\xe9 import (\n    Memory,\n)\n",
    "carriage returns": "x = 1\rfrom mem0 import Memory\r",
    "form feed": "\ffrom mem0 import Memory\n",
    "long parentheses": "from mem0 import (\n" + "    a,\n" * 1000 + "    Memory,\n)\n",
}


def _ast_names(source: str) -> set[str]:
    tree = ast.parse(source)
    return {
        name
        for node in clientsources._imports_anywhere(tree.body)
        if not clientsources._standard_library_only(node, frozenset())
        for name in clientsources._imported(node)
    }


def _scanned_names(source: str) -> set[str]:
    from mem0lint.modules import imports

    data = source.encode("utf-8")
    return {
        name
        for level, module, names in imports(data)
        if level or not module or module[0] not in clientsources._STANDARD
        for name in clientsources._scanned_dotted(level, module, names)
    }


def test_a_complete_byte_scan_finds_every_import_python_reads():
    sources = dict(CORPUS)
    for path in (ROOT / "fixtures").glob("*.py"):
        sources[path.name] = path.read_text(encoding="utf-8")
    for path in (ROOT / "mem0lint").rglob("*.py"):
        sources[str(path)] = path.read_text(encoding="utf-8")
    sources["shapes"] = textwrap.dedent(
        """
        import a.b
        import c.d as e, f
        from . import g
        from .h import (i as j,
            k)
        from ..l.m import n; import o
        try:
            from p import q
        except ImportError:
            q = None
        def r():
            import s.t as s
        x = "from u import v"  # a string: a superset is fine
        """
    )
    sources["elsewhere"] = "# caf\xe9 \u2615\nimport os\nfrom app import client\nx = '\u00e9'\n"
    complete = 0
    for name, source in sources.items():
        data = source.encode("utf-8")
        if not clientsources._scan_complete(data):
            continue
        complete += 1
        assert _ast_names(source) <= _scanned_names(source), name
    assert complete > len(sources) // 2  # most files need no parser
    assert clientsources._scan_complete(sources["elsewhere"].encode("utf-8"))
    for name, source in HAZARDS.items():
        assert _ast_names(source) - _scanned_names(source), name  # the scan alone misreads it
        data = source.encode("latin-1" if name == "other encoding" else "utf-8")
        assert not clientsources._scan_complete(data), name


def test_the_byte_scan_says_what_python_s_parser_says_of_the_generated_corpus(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'corpus'\n")
    index = ProjectIndex()
    for relative, text in CORPUS.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    said = 0
    for relative, text in CORPUS.items():
        view = index.view(tmp_path / relative)
        imports = clientsources.ImportTaint(view, ())
        local = view.top_level_names()
        gives = clientsources.scanned_gives(text, imports, local)
        if gives is None:
            continue
        said += 1
        parsed = clientsources.python_tree(text)
        assert parsed is not None
        holds = not clientsources.holds_no_client(text, parsed[1], imports, local, False)
        assert holds <= gives, relative  # a yes by bytes may be a string; a no never misses
    assert said > len(CORPUS) // 2
