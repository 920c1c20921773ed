"""The dataclass methods kept between runs (mem0lint/codecache.py) are the code `exec` would
compile from the same text, classes made with them behave the same, and a kept file that is
damaged, or a place that cannot be written, only costs a compilation."""

from __future__ import annotations

import dataclasses
import marshal
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from mem0lint import codecache

# Dataclasses of every kind `dataclasses` writes methods for; made anew in each test.
CLASSES = textwrap.dedent(
    """
    import dataclasses
    from dataclasses import dataclass, field
    from typing import Optional

    @dataclass(frozen=True)
    class Point:
        x: int
        y: int = 0

    @dataclass(order=True)
    class Ranked:
        rank: int
        tags: list = field(default_factory=list)
        note: Optional[str] = field(default=None, compare=False, repr=False)

    @dataclass(unsafe_hash=True)
    class Keyed:
        name: str
        scope: "str" = "user"

        def __post_init__(self):
            self.name = self.name.strip()
    """
)


def _made(path: Path | None) -> tuple[dict, dict]:
    """The classes of CLASSES, made with the code kept at `path`; and the code seen."""
    namespace: dict = {}
    with codecache.dataclass_code_kept(path) as seen:
        exec(compile(CLASSES, "<classes>", "exec"), namespace)
    return namespace, dict(seen)


def _behaviour(namespace: dict) -> list:
    point, ranked, keyed = namespace["Point"], namespace["Ranked"], namespace["Keyed"]
    a, b = ranked(1, ["x"], note="n"), ranked(2)
    return [
        repr(point(1)),
        point(1, 2) == point(1, 2),
        hash(point(1, 2)) == hash(point(1, 2)),
        repr(a),
        a < b,
        a == ranked(1, ["x"], note="other"),
        repr(keyed("  ann ")),
        hash(keyed("ann")) == hash(keyed(" ann")),
        [f.name for f in dataclasses.fields(ranked)],
    ]


def test_classes_made_from_kept_code_behave_as_freshly_compiled_ones(tmp_path, monkeypatch):
    path = tmp_path / "kept.marshal"
    fresh, _ = _made(None)
    first, seen = _made(path)
    assert seen and path.exists()
    for text, code in seen.items():
        assert code == compile(text, "<string>", "exec", dont_inherit=True)
    written = path.stat().st_mtime_ns

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled a text that was kept")

    monkeypatch.setattr(codecache, "compile", no_compiling, raising=False)
    again, seen_again = _made(path)
    assert seen_again.keys() == seen.keys()
    assert path.stat().st_mtime_ns == written  # nothing new: not written again
    assert _behaviour(fresh) == _behaviour(first) == _behaviour(again)


def test_the_hook_is_gone_after_use_and_leaves_another_in_place(tmp_path):
    with codecache.dataclass_code_kept(tmp_path / "kept.marshal"):
        assert "exec" in vars(dataclasses)
        with codecache.dataclass_code_kept(tmp_path / "inner.marshal") as inner:
            namespace: dict = {}
            exec(compile(CLASSES, "<classes>", "exec"), namespace)
        assert inner == {} and not (tmp_path / "inner.marshal").exists()
    assert "exec" not in vars(dataclasses)


def test_a_damaged_file_is_compiled_past_and_rewritten(tmp_path):
    path = tmp_path / "kept.marshal"
    _, seen = _made(path)
    whole = path.read_bytes()
    for damaged in [b"", b"not ours", whole[: len(whole) // 2], codecache._HEADER + b"\xff\x00"]:
        path.write_bytes(damaged)
        namespace, seen_again = _made(path)
        assert seen_again.keys() == seen.keys()
        assert _behaviour(namespace) == _behaviour(_made(None)[0])
        assert codecache._load(path).keys() == seen.keys()
    path.write_bytes(codecache._HEADER + marshal.dumps(["a list"]))
    assert codecache._load(path) == {}


def test_nothing_is_written_where_nothing_can_be(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    namespace, seen = _made(blocked / "kept.marshal")
    assert seen and _behaviour(namespace) == _behaviour(_made(None)[0])
    assert sorted(os.listdir(tmp_path)) == ["file"]


def test_libcst_is_imported_through_the_kept_code_and_builds_the_same_trees(tmp_path):
    """Two fresh processes import the engine with the cache in `tmp_path`: the first writes
    every text libcst's classes compile, the second finds them all (it writes nothing) and
    parses and prints a module exactly as a process without the cache."""
    program = textwrap.dedent(
        """
        import sys
        from mem0lint import engine  # libcst's first import
        import libcst
        text = open(sys.argv[1]).read()
        module, again = libcst.parse_module(text), libcst.parse_module(text)
        print(repr(module) == repr(again), len(repr(module)))
        print(module.deep_equals(again), module.code == text)
        """
    )
    sample = Path(codecache.__file__)

    def run(cache: Path) -> str:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        done = subprocess.run(
            [sys.executable, "-c", program, str(sample)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    blocked = tmp_path / "blocked"  # a file where the cache's folder would be: no cache at all
    blocked.write_text("not a folder")
    cache = tmp_path / "cache"
    first = run(cache)
    (kept,) = (cache / "mem0lint").iterdir()
    texts = codecache._load(kept)
    assert len(texts) > 100  # libcst's node classes: a text per method, one per class on 3.13
    assert all(
        code == compile(text, "<string>", "exec", dont_inherit=True) for text, code in texts.items()
    )
    written = kept.stat().st_mtime_ns
    assert run(cache) == first == run(blocked / "x")
    assert kept.stat().st_mtime_ns == written
    assert first.split()[0] == "True" and first.split()[2:] == ["True", "True"]
