"""Decoys: objects that have a `search` or take Mongo-like filters but are not SDK clients."""

from __future__ import annotations

from pathlib import Path

import pytest

from mem0lint import engine
from mem0lint.project import ProjectIndex

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
DECOYS = ["decoys.py", "decoys_other_libraries.py", "project_app/app/local_store.py"]


@pytest.mark.parametrize("name", DECOYS)
def test_decoy_fixture_is_silent(name):
    path = FIXTURES / name
    index = ProjectIndex.for_paths([FIXTURES], [path])
    module = engine.parse(path.read_bytes())
    assert engine.lint(module, engine.RuleSet(engine.Settings()), project=index.view(path)) == []


def test_decoy_fixtures_hold_the_calls_they_claim():
    text = (FIXTURES / "decoys_other_libraries.py").read_text(encoding="utf-8")
    for needle in (
        "mem0.vector_stores",
        "langchain",
        "llama_index",
        "chromadb",
        "pinecone",
        "qdrant_client",
        "pymongo",
        "wandb",
        "elasticsearch",
        "re.search",
        "from memos import MOS",
        "MemsyControlClient",
        "class ProjectStore",
    ):
        assert needle in text
