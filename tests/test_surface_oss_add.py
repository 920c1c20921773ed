"""MEM143-MEM149: open source `add()` and `from_config`, against the real mem0ai 2.2.1.

Each claim a rule's message makes is run here through the installed SDK (network, LLM and store
stubbed by tests/sdk_harness.py): what raises, raises; what the rules call silently dropped is
shown missing from what reaches the LLM or the store.
"""

from __future__ import annotations

import inspect
import logging
import textwrap
from datetime import date

import pytest
from sdk_harness import Outcome, run, stubbed_network
from test_version_ranges import pinned

from mem0lint import engine
from mem0lint.rule import PREAMBLES
from mem0lint.rules.surface.mem147_oss_temporal_argument import rejected
from mem0lint.sdk.mem0_arguments import (
    OSS_ADD_PARAMS,
    OSS_ADD_ROLES,
    OSS_CONFIG_FIELDS,
    OSS_CONFIG_REMOVED,
    OSS_MEMORY_TYPES,
    OSS_METADATA_IDENTITY_KEYS,
)

PLATFORM = PREAMBLES["mem0-platform"]
OSS = PREAMBLES["mem0-oss"]
CODES = ("MEM143", "MEM144", "MEM145", "MEM146", "MEM147", "MEM148", "MEM149")


def codes(code: str, sdks=()) -> list[str]:
    module = engine.parse(textwrap.dedent(code))
    settings = engine.Settings(select=CODES, sdks=tuple(sdks))
    return sorted(d.code for d in engine.lint(module, engine.RuleSet(settings)))


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (OSS + 'memory.add("hi", filters={"user_id": "u"})', ["MEM143"]),
        (OSS + 'memory.add("hi", user_id="u", app_id="a")', ["MEM143"]),
        (OSS + 'memory.add("hi", user_id="u", session_id="s")', ["MEM143"]),
        (OSS + 'memory.add("hi", userId="u")', ["MEM143"]),
        (OSS + 'memory.add("hi", user_id="u", timestamp=1700000000)', ["MEM147"]),
        (OSS + 'memory.add("hi", "alice")', ["MEM144"]),
        (OSS + 'memory.add("hi", uid, "agent")', ["MEM144"]),
        (PLATFORM + 'client.add("hi", "alice")', ["MEM144"]),
        (OSS + 'memory.add(["a", "b"], user_id="u")', ["MEM145", "MEM145"]),
        (OSS + 'memory.add(None, user_id="u")', ["MEM145"]),
        (OSS + 'memory.add("", user_id="u")', ["MEM145"]),
        (OSS + 'memory.add([], user_id="u")', ["MEM145"]),
        (OSS + 'memory.add([{"role": "human", "content": "x"}], user_id="u")', ["MEM145"]),
        (OSS + 'memory.add({"content": "x"}, user_id="u")', ["MEM145"]),
        (OSS + 'memory.add([{"role": "user"}], user_id="u")', ["MEM145"]),
        (OSS + 'm = {"role": "ai", "content": "x"}\nmemory.add(m, user_id="u")', ["MEM145"]),
        (OSS + 'm = {"role": "ai", "content": "x"}\nmemory.add([m], user_id="u")', ["MEM145"]),
        (OSS + 'm = None\nmemory.add(m, user_id="u")', ["MEM145"]),
        (OSS + 'memory.add("x", user_id="u", memory_type="semantic")', ["MEM146"]),
        (OSS + 'memory.add("x", user_id="u", memory_type="procedural_memory")', ["MEM146"]),
        (OSS + 'memory.add("x", user_id="u", expiration_date="12/31/2026")', ["MEM147"]),
        (OSS + 'memory.update("m", text="x", expiration_date="2026-02-30")', ["MEM147"]),
        (OSS + 'memory.add("x", user_id="u", metadata={"run_id": "r"})', ["MEM148"]),
        (OSS + 'memory.add("x", user_id="u", metadata={"user_id": "v", **m})', ["MEM148"]),
        (OSS + 'Memory.from_config({"graph_store": {}})', ["MEM149"]),
        (OSS + 'c = {"custom_fact_extraction_prompt": "p"}\nMemory.from_config(c)', ["MEM149"]),
        (OSS + 'Memory.from_config(config_dict={"enable_graph": True})', ["MEM149"]),
        # silent: what the SDK accepts, or what cannot be told
        (OSS + 'memory.add("hi", user_id="u", timestamp=None, infer=False, prompt="p")', []),
        (OSS + 'ts = None\nmemory.add("hi", user_id="u", timestamp=ts)', []),
        (
            OSS + 'ts = None\nif x:\n    ts = 1\nmemory.add("hi", user_id="u", timestamp=ts)',
            ["MEM147"],
        ),
        (OSS + 'memory.add("hi", user_id="u", output_format="v1.1")', []),  # MEM135's
        (OSS + 'memory.add("hi", user_id="u", **options)', []),
        (OSS + 'memory.add("hi", *args)', []),
        (OSS + "memory.add(messages, user_id=uid)", []),
        (PLATFORM + 'client.add("hi", options)', []),
        (PLATFORM + 'client.add("hi", user_id="u", app_id="a", filters={})', []),
        (OSS + 'memory.add([{"role": "human", "content": "x"}], user_id="u", infer=False)', []),
        (OSS + 'memory.add([{"role": r, "content": c}], user_id="u")', []),
        (OSS + 'memory.add([{"role": "user", "content": "x", **extra}], user_id="u")', []),
        (OSS + 'memory.add([*history, "x"], user_id="u")', []),
        # a list bound to a name may be filled in place (the binder tracks dicts only)
        (OSS + 'm = []\nfor t in turns:\n    m.append(t)\nmemory.add(m, user_id="u")', []),
        (OSS + 'm = [{"role": "user"}]\nm[0]["content"] = x\nmemory.add(m, user_id="u")', []),
        (OSS + 'm = {"role": "user"}\nm["content"] = x\nmemory.add([m], user_id="u")', []),
        (OSS + 'c = {"graph_store": {}}\ndel c["graph_store"]\nMemory.from_config(c)', []),
        # a key set to None asks for nothing: dropping it changes nothing (PraisonAI's tests)
        (OSS + 'Memory.from_config({"custom_prompt": None, "graph_store": None})', []),
        # ...or a name bound once to None (a placeholder for a prompt to come; a public practice
        # repository); a name bound twice may hold a prompt
        (OSS + 'p = None\nMemory.from_config({"custom_fact_extraction_prompt": p})', []),
        (
            OSS + 'p = None\nif x:\n    p = "Only food."\n'
            'Memory.from_config({"custom_fact_extraction_prompt": p})',
            ["MEM149"],
        ),
        (
            OSS
            + 'd = {"agent_id": "a"}\nd.pop("agent_id")\nmemory.add("x", user_id="u", metadata=d)',
            [],
        ),
        (OSS + 'memory.add(["x"], agent_id="a", memory_type="procedural_memory")', []),
        (OSS + 'memory.add("", agent_id="a", memory_type="procedural_memory")', []),
        (OSS + 'memory.add({"role": "ai", "content": "x"}, agent_id="a", memory_type=t)', []),
        (OSS + 'memory.add(None, agent_id="a", memory_type="procedural_memory")', ["MEM145"]),
        (OSS + 'memory.add("x", agent_id="a", memory_type="procedural_memory")', []),
        (OSS + 'memory.add("x", user_id="u", memory_type=kind)', []),
        (OSS + 'memory.add("x", user_id="u", expiration_date="2026-12-31")', []),
        (OSS + 'memory.add("x", user_id="u", expiration_date=day)', []),
        (OSS + 'memory.add("x", user_id="u", metadata={"user_id": "u"}, )', []),
        (OSS + 'memory.add("x", user_id=u, metadata={"user_id": u, "k": 1})', []),
        (OSS + 'memory.add("x", user_id="u", metadata=meta)', []),
        (
            OSS + 'Memory.from_config({"llm": {}, "custom_instructions": "x", "version": "v1.1"})',
            [],
        ),
        (OSS + "Memory.from_config(config)", []),
        (
            OSS + 'import pytest\nwith pytest.raises(TypeError):\n    memory.add("x", filters={})',
            [],
        ),
        ('from other import Store\n\ns = Store()\ns.add("x", "u", filters={})', []),
    ],
)
def test_reported_or_silent(code, expected):
    assert codes(code) == expected


# --- the SDK facts are the installed SDK's --------------------------------------------------


def test_add_params_are_the_real_closed_signatures():
    from mem0 import AsyncMemory, Memory

    params = set()
    for cls in (Memory, AsyncMemory):
        signature = inspect.signature(cls.add)
        kinds = {p.kind for p in signature.parameters.values()}
        assert inspect.Parameter.VAR_KEYWORD not in kinds  # closed: unknown keywords raise
        assert list(signature.parameters)[:2] == ["self", "messages"]
        rest = list(signature.parameters.values())[2:]
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in rest)
        params |= set(signature.parameters) - {"self"}
    assert params == set(OSS_ADD_PARAMS)


def test_config_fields_are_memory_config_and_extra_keys_are_ignored():
    from mem0.configs.base import MemoryConfig

    assert set(MemoryConfig.model_fields) == set(OSS_CONFIG_FIELDS)
    assert MemoryConfig.model_config.get("extra", "ignore") == "ignore"
    assert not set(OSS_CONFIG_REMOVED) & set(OSS_CONFIG_FIELDS)


def test_memory_types_and_identity_keys_are_the_sdks():
    from mem0.configs.enums import MemoryType
    from mem0.memory import main

    assert (MemoryType.PROCEDURAL.value,) == OSS_MEMORY_TYPES
    assert set(OSS_METADATA_IDENTITY_KEYS) == set(main._IDENTITY_KEYS)


# --- MEM143 / MEM144: raised by the real SDK ------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "text"),
    [
        ('memory.add("hi", filters={"user_id": "u"})', TypeError, "unexpected keyword"),
        ('memory.add("hi", user_id="u", app_id="a")', TypeError, "unexpected keyword"),
        ('memory.add("hi", user_id="u", session_id="s")', TypeError, "unexpected keyword"),
        ('memory.add("hi", userId="u")', TypeError, "unexpected keyword"),
        ('memory.add("hi", user_id="u", timestamp=1700000000)', ValueError, "timestamp"),
        ('memory.add("hi", "alice")', TypeError, "positional argument"),
    ],
)
def test_oss_add_raises(call, error, text, monkeypatch):
    outcome = run(OSS + call + "\n", monkeypatch)
    assert isinstance(outcome.raised, error) and text in str(outcome.raised), outcome.raised


def test_async_oss_add_raises_the_same(monkeypatch):
    program = (
        "from mem0 import AsyncMemory\n\nasync def main():\n    memory = AsyncMemory()\n"
        '    await memory.add("hi", user_id="u", app_id="a")\n'
    )
    outcome = run(program, monkeypatch)
    assert isinstance(outcome.raised, TypeError) and "app_id" in str(outcome.raised)


def test_platform_positional_id_binds_to_options(monkeypatch):
    outcome = run(PLATFORM + 'client.add("hi", "alice")\n', monkeypatch)
    assert isinstance(outcome.raised, AttributeError) and "model_dump" in str(outcome.raised)
    assert not [s for s in outcome.sent if s.method == "POST"]


@pytest.mark.parametrize(
    "code",
    [
        'memory.add("hi", user_id="u", timestamp=None)\n',
        'ts = None\nmemory.add("hi", user_id="u", timestamp=ts)\n',
    ],
)
def test_timestamp_none_runs(monkeypatch, code):
    assert run(OSS + code, monkeypatch).raised is None
    assert codes(OSS + code) == []


# --- MEM145-MEM148: what reaches the LLM and the store --------------------------------------


class RecordingLlm:
    def __init__(self) -> None:
        self.prompts: list[str] = []

    def generate_response(self, messages, **kwargs):
        self.prompts.append(messages[-1]["content"])
        return '{"memory": []}'


def add(monkeypatch, messages, **kwargs):
    """Run the real `Memory.add`; return (result or exception, LLM prompts, created memories)."""
    from mem0 import Memory

    with stubbed_network(Outcome(), monkeypatch):
        memory = Memory()
        memory.llm = RecordingLlm()
        created: list[tuple[str, dict]] = []
        memory._create_memory = lambda data, embeddings, metadata: (
            created.append((data, metadata)) or "id"
        )
        procedural: list = []
        memory._create_procedural_memory = lambda *a, **k: procedural.append(a) or {"results": []}
        kwargs.setdefault("user_id", "alice")
        try:
            result = memory.add(messages, **kwargs)
        except Exception as error:  # the SDK's answer is the evidence
            result = error
        return result, memory.llm.prompts, created, procedural


def new_messages(prompt: str) -> str:
    """The "New Messages" section of the extraction prompt: what the LLM extracts from."""
    return prompt.split("## New Messages", 1)[1].split("##", 1)[0].strip()


def test_plain_strings_in_a_list_raise(monkeypatch):
    for infer in (True, False):
        result, *_ = add(monkeypatch, ["I like tea"], infer=infer)
        assert isinstance(result, AttributeError) and "get" in str(result)


def test_none_raises_validation_error(monkeypatch):
    from mem0.exceptions import ValidationError

    result, *_ = add(monkeypatch, None)
    assert isinstance(result, ValidationError) and result.error_code == "VALIDATION_003"


@pytest.mark.parametrize("role", ["human", "ai", "User", "tool"])
def test_other_roles_never_reach_the_llm(role, monkeypatch):
    assert role not in OSS_ADD_ROLES
    _, prompts, created, _ = add(monkeypatch, [{"role": role, "content": "I like green tea"}])
    assert prompts and new_messages(prompts[0]) == "" and created == []
    _, prompts, _, _ = add(monkeypatch, [{"role": "user", "content": "I like green tea"}])
    assert "I like green tea" in new_messages(prompts[0])


@pytest.mark.parametrize("message", [{"content": "I like tea"}, {"role": "user"}])
def test_messages_without_role_or_content_are_dropped(message, monkeypatch):
    for infer in (True, False):
        result, prompts, created, _ = add(monkeypatch, [message], infer=infer)
        assert result == {"results": []} and created == []
        assert all(new_messages(p) == "" for p in prompts)


def test_empty_input_still_runs_the_extraction(monkeypatch):
    for messages in ("", [], [{"role": "user", "content": "  "}]):
        result, prompts, created, _ = add(monkeypatch, messages)
        assert result == {"results": []} and len(prompts) == 1 and created == []
    _, prompts, created, _ = add(monkeypatch, "", infer=False)
    assert prompts == [] and [data for data, _ in created] == [""]  # an empty memory


def test_memory_type_other_values_raise(monkeypatch):
    from mem0.exceptions import ValidationError

    for kind in ("semantic", "episodic", "procedural"):
        result, *_ = add(monkeypatch, "x", memory_type=kind)
        assert isinstance(result, ValidationError) and result.error_code == "VALIDATION_002"


def test_procedural_without_agent_id_is_an_ordinary_memory(monkeypatch):
    _, prompts, _, procedural = add(monkeypatch, "Step 1", memory_type="procedural_memory")
    assert procedural == [] and "Step 1" in new_messages(prompts[0])
    _, prompts, _, procedural = add(
        monkeypatch, "Step 1", user_id=None, agent_id="bot", memory_type="procedural_memory"
    )
    assert len(procedural) == 1 and prompts == []


@pytest.mark.parametrize(
    "text",
    ["31/12/2026", "12/31/2026", "2026/12/31", "31-12-2026", "2026-02-30", "2026-12-31T00:00", ""],
)
def test_rejected_expiration_dates_raise(text, monkeypatch):
    assert rejected(text)
    result, *_ = add(monkeypatch, "x", infer=False, expiration_date=text)
    assert isinstance(result, ValueError) and "YYYY-MM-DD" in str(result)


@pytest.mark.parametrize("text", ["2026-12-31", "2027-01-01"])
def test_accepted_expiration_dates_run(text, monkeypatch):
    assert not rejected(text)
    _, _, created, _ = add(monkeypatch, "x", infer=False, expiration_date=text)
    assert created[0][1]["expiration_date"] == date.fromisoformat(text).isoformat()


def test_rejected_agrees_with_the_sdk_normalizer():
    """Over many spellings: what MEM147 calls rejected, the SDK rejects (never the reverse)."""
    from mem0.memory.main import _normalize_expiration_date

    spellings = [
        f"{a}{sep}{b}{sep}{c}"
        for a, b, c in [("2026", "12", "31"), ("31", "12", "2026"), ("2026", "2", "3")]
        for sep in ("-", "/", ".", "")
    ] + ["2026-W01-1", "20261231", "2026-12-31 ", "tomorrow", "2026-12-31T10:00:00Z"]
    for text in spellings:
        try:
            _normalize_expiration_date(text)
            sdk_rejects = False
        except ValueError:
            sdk_rejects = True
        if rejected(text):
            assert sdk_rejects, text


def test_identity_keys_in_metadata_are_dropped(monkeypatch, caplog):
    with caplog.at_level(logging.WARNING):
        _, _, created, _ = add(
            monkeypatch, "x", infer=False, metadata={"agent_id": "barista", "topic": "tea"}
        )
    ((_, stored),) = created
    assert stored["topic"] == "tea" and "agent_id" not in stored and stored["user_id"] == "alice"
    assert "identity fields cannot be set through metadata" in caplog.text


def test_ignored_config_keys_are_dropped(monkeypatch):
    from mem0 import Memory

    with stubbed_network(Outcome(), monkeypatch):
        config = {"custom_fact_extraction_prompt": "Only food.", "graph_store": {"x": 1}}
        memory = Memory.from_config({**config, "enable_graph": True})
    dumped = memory.config.model_dump()
    assert not {"custom_fact_extraction_prompt", "graph_store", "enable_graph"} & set(dumped)
    assert memory.custom_instructions is None  # the prompt reached nothing


# --- versions ---------------------------------------------------------------------------------


def test_versions():
    unknown = OSS + 'memory.add("hi", user_id="u", filters={})\n'
    assert codes(unknown, pinned("mem0-oss", "0.1.99")) == []  # `filters` was a parameter
    assert codes(unknown, pinned("mem0-oss", "0.1.100")) == ["MEM143"]
    positional = OSS + 'memory.add("hi", "alice")\n'
    assert codes(positional, pinned("mem0-oss", "0.1.99")) == []  # bound to user_id then
    assert codes(positional, pinned("mem0-oss", "0.1.100")) == ["MEM144"]
    expiry = OSS + 'memory.add("hi", user_id="u", expiration_date="31/12/2026")\n'
    assert codes(expiry, pinned("mem0-oss", "2.0.8")) == []
    assert codes(expiry, pinned("mem0-oss", "2.0.10")) == ["MEM147"]
    identity = OSS + 'memory.add("hi", user_id="u", metadata={"agent_id": "a"})\n'
    assert codes(identity, pinned("mem0-oss", "2.0.15")) == []
    assert codes(identity, pinned("mem0-oss", "2.0.16")) == ["MEM148"]
    config = OSS + 'Memory.from_config({"graph_store": {}})\n'
    assert codes(config, pinned("mem0-oss", "1.0.11")) == []  # graph_store was read in 1.x
    assert codes(config, pinned("mem0-oss", "2.0.0")) == ["MEM149"]


def test_unsafe_fix_passes_the_id_as_user_id():
    module = engine.parse(OSS + 'memory.add("hi", "alice")\nmemory.add("hi", uid, "x")\n')
    safe = engine.fix(module, engine.RuleSet(engine.Settings(select=("MEM144",)))).module.code
    assert 'memory.add("hi", "alice")' in safe  # not applied without --unsafe-fixes
    settings = engine.Settings(select=("MEM144",), unsafe_fixes=True)
    fixed = engine.fix(module, engine.RuleSet(settings)).module.code
    assert 'memory.add("hi", user_id="alice")' in fixed
    assert 'memory.add("hi", uid, "x")' in fixed  # three positionals: no guess
