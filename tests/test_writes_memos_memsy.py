"""MemOS and Memsy write calls (MEM666-MEM670, MEM611-MEM614, MEM653's `metadata` -> `info`).

Every claim is checked on the real client code path (MemoryOS 2.0.33's `MemOSClient`, memsy
0.3.5's `MemsyClient`) with only HTTP stubbed (tests/sdk_harness.py): what the client raises and
what it sends. The rules judging plain literals are compared with the client over generated
calls: a finding exactly when the real client raises.
"""

from __future__ import annotations

import itertools
import textwrap

import pytest
from conftest import codes, fix_source, lint_source
from request_validators import Invalid, validate
from sdk_harness import run

from mem0lint.sdk import memos, memsy

MEMOS = 'from memos.api.client import MemOSClient\nclient = MemOSClient(api_key="key")\n'
MEMSY = (
    "from memsy import EventPayload, MemsyClient\n"
    'client = MemsyClient(base_url="https://memsy.example", api_key="key")\n'
)


def only(code: str, prefix: str, select: str) -> list[str]:
    return codes(prefix + textwrap.dedent(code), select=(select,))


def sent_to(outcome, suffix: str) -> list:
    return [s for s in outcome.sent if s.path.endswith(suffix)]


# --- MEM666: filter={} ---------------------------------------------------------------------------


def test_empty_filter_is_sent_as_an_object_and_the_fix_sends_null(monkeypatch):
    bad = MEMOS + 'client.search_memory("q", user_id="u_1", filter={})\n'
    outcome = run(bad, monkeypatch)
    assert outcome.raised is None
    [request] = sent_to(outcome, "/search/memory")
    assert request.body["filter"] == {}  # the client passes it through unchanged
    with pytest.raises(Invalid, match="filter object cannot be empty"):
        validate(request)
    fixed = fix_source(bad, select=("MEM666",))
    assert "filter" not in fixed.splitlines()[-1]
    outcome = run(fixed, monkeypatch)
    [request] = sent_to(outcome, "/search/memory")
    assert request.body["filter"] is None  # what a call without `filter` sends
    validate(request)


def test_empty_filter_only_where_the_cloud_rejects_it():
    assert memos.WRITES.empty_filter_rejected_in == {"search_memory"}
    assert only('client.search_memory("q", user_id="u", filter={})', MEMOS, "MEM666") == ["MEM666"]
    assert only('client.search_memory("q", user_id="u", filter=f)', MEMOS, "MEM666") == []
    assert only('client.search_memory("q", user_id="u", filter={"a": 1})', MEMOS, "MEM666") == []
    # get_memory's empty filter: no report of it being rejected (unknown stays silent)
    assert only('client.get_memory(user_id="u", filter={})', MEMOS, "MEM666") == []


def test_empty_filter_through_a_name_is_reported_without_a_fix():
    code = MEMOS + 'f = {}\nclient.search_memory("q", user_id="u", filter=f)\n'
    assert codes(code, select=("MEM666",)) == ["MEM666"]
    assert fix_source(code, select=("MEM666",)) == code


# --- MEM667: memory ids bound to user_ids --------------------------------------------------------


def test_one_memory_id_by_position_deletes_a_user_named_like_it(monkeypatch):
    outcome = run(MEMOS + 'client.delete_memory(["mem_1"])\n', monkeypatch)
    assert outcome.raised is None
    [request] = sent_to(outcome, "/delete/memory")
    assert request.body == {"user_id": "mem_1"}  # not {"memory_ids": [...]}


def test_several_memory_ids_by_position_raise(monkeypatch):
    outcome = run(MEMOS + 'client.delete_memory(["mem_1", "mem_2"])\n', monkeypatch)
    assert isinstance(outcome.raised, ValueError)
    assert "single user_id" in str(outcome.raised)
    assert outcome.sent == []


def test_memory_ids_by_position_beside_user_id_delete_the_whole_user(monkeypatch):
    code = MEMOS + 'client.delete_memory(["mem_1"], user_id="u_1")\n'
    outcome = run(code, monkeypatch)
    [request] = sent_to(outcome, "/delete/memory")
    assert request.body == {"user_id": "u_1"}  # the ids are dropped
    assert codes(code, select=("MEM667",)) == ["MEM667"]
    # `memory_ids=` beside `user_id=` would be two conditions: no fix is offered
    assert fix_source(code, select=("MEM667",), unsafe=True) == code


def test_the_unsafe_fix_sends_the_ids_as_memory_ids(monkeypatch):
    code = MEMOS + 'client.delete_memory(["mem_1"])\n'
    assert fix_source(code, select=("MEM667",)) == code  # unsafe: not applied by default
    fixed = fix_source(code, select=("MEM667",), unsafe=True)
    assert fixed.endswith('client.delete_memory(memory_ids=["mem_1"])\n')
    [request] = sent_to(run(fixed, monkeypatch), "/delete/memory")
    assert request.body == {"memory_ids": ["mem_1"]}


@pytest.mark.parametrize(
    "call",
    [
        "client.delete_memory(memory_ids)",
        "client.delete_memory(mem_ids)",
        "client.delete_memory([memory_id])",
        "client.delete_memory(self.memory_ids)",
        'client.delete_memory([m["id"] for m in memories])',
        'client.delete_memory(["mem_1", "memory-2"])',
    ],
)
def test_memory_ids_by_position_are_reported(call):
    assert only(call, MEMOS, "MEM667") == ["MEM667"]


@pytest.mark.parametrize(
    "call",
    [
        "client.delete_memory([user_id])",
        "client.delete_memory(user_ids)",
        "client.delete_memory(ids)",  # says nothing about what they are
        'client.delete_memory(["u_1"])',
        "client.delete_memory(user_memory_ids)",  # a user word too: ambiguous
        "client.delete_memory(user_ids, memory_ids)",  # both, by position: correct
        "client.delete_memory(memory_ids, memory_ids=other)",  # `memory_ids=` given: no user
        "client.delete_memory(memory_ids=memory_ids)",
        "client.delete_memory(*memory_ids)",
        "client.delete_memory(member_ids)",  # `member`, not a memory word
    ],
)
def test_other_delete_calls_are_silent(call):
    assert only(call, MEMOS, "MEM667") == []


# --- MEM668: exactly one delete condition, against the real client ------------------------------

ABSENT = object()
CONDITIONS = {
    "memory_ids": [ABSENT, "None", "[]", '["mem_1"]'],
    "user_id": [ABSENT, "None", '""', '"u_1"'],
    "agent_id": [ABSENT, "None", '"bot"'],
    "filter": [ABSENT, "None", "{}", '{"and": [{"scene": "x"}]}'],
}
USER_IDS = [ABSENT, "[]", '["u_2"]']


def delete_calls():
    for user_ids in USER_IDS:
        for values in itertools.product(*CONDITIONS.values()):
            args = [] if user_ids is ABSENT else [user_ids]
            if user_ids is ABSENT and values[0] is not ABSENT:
                args.append(f"memory_ids={values[0]}")
            elif values[0] is not ABSENT:
                args.append(values[0])  # user_ids and memory_ids, both by position
            for name, value in zip(list(CONDITIONS)[1:], values[1:]):
                if value is not ABSENT:
                    args.append(f"{name}={value}")
            yield f"client.delete_memory({', '.join(args)})"


DELETE_CALLS = list(delete_calls())


def test_delete_conditions_agree_with_the_real_client(monkeypatch):
    assert len(DELETE_CALLS) == 3 * 4 * 4 * 3 * 4
    agreed, raised = 0, 0
    for call in DELETE_CALLS:
        outcome = run(MEMOS + call + "\n", monkeypatch)
        raises = isinstance(outcome.raised, ValueError) and "exactly one delete condition" in str(
            outcome.raised
        )
        if outcome.raised is not None and not raises:
            raise AssertionError(f"{call}: {outcome.raised!r}")
        reported = only(call, MEMOS, "MEM668") == ["MEM668"]
        assert reported == raises, call
        agreed += 1
        raised += raises
    assert agreed == len(DELETE_CALLS)
    assert 100 < raised < len(DELETE_CALLS) - 100  # both outcomes are well represented


@pytest.mark.parametrize(
    "call",
    [
        "client.delete_memory(memory_ids=ids, user_id=uid)",  # either may be empty at run time
        "client.delete_memory(user_id=uid, filter=build())",
        "client.delete_memory(**conditions)",
        "client.delete_memory(user_ids)",
    ],
)
def test_delete_conditions_that_depend_on_values_stay_silent(call):
    assert only(call, MEMOS, "MEM668") == []


def test_delete_conditions_inside_pytest_raises_are_expected():
    code = MEMOS + textwrap.dedent(
        """
        import pytest

        def test_two_conditions():
            with pytest.raises(ValueError):
                client.delete_memory(memory_ids=["mem_1"], user_id="u_1")
        """
    )
    assert codes(code, select=("MEM668",)) == []


# --- MEM669: get_memory(size > 50) ---------------------------------------------------------------


@pytest.mark.parametrize("size", [1, 10, 49, 50, 51, 100, 1000])
@pytest.mark.parametrize("positional", [False, True])
def test_page_size_agrees_with_the_real_client(size, positional, monkeypatch):
    call = (
        f'client.get_memory("u_1", True, 1, {size})'
        if positional
        else f'client.get_memory(user_id="u_1", size={size})'
    )
    outcome = run(MEMOS + call + "\n", monkeypatch)
    raises = isinstance(outcome.raised, ValueError)
    assert raises == (size > memos.GRAMMAR.client_maximums["get_memory"]["size"])
    assert (only(call, MEMOS, "MEM669") == ["MEM669"]) == raises


def test_page_size_from_a_variable_is_silent():
    assert only('client.get_memory(user_id="u_1", size=n)', MEMOS, "MEM669") == []


# --- MEM670: update_memory with nothing to change ------------------------------------------------

FIELD_VALUES = [ABSENT, "None", '""', '"x"']


def update_calls():
    for values in itertools.product(FIELD_VALUES, repeat=3):
        for by_position in (False, True):
            args = ['"mem_1"']
            if by_position:
                # positional up to the last given field; an absent one in between is None
                last = max((i for i, v in enumerate(values) if v is not ABSENT), default=-1)
                args += ["None" if v is ABSENT else v for v in values[: last + 1]]
            else:
                args += [
                    f"{name}={value}"
                    for name, value in zip(memos.WRITES.update_fields, values)
                    if value is not ABSENT
                ]
            yield f"client.update_memory({', '.join(args)})"


def test_update_nothing_agrees_with_the_real_client(monkeypatch):
    calls = sorted(set(update_calls()))
    assert len(calls) > 100
    raised = 0
    for call in calls:
        outcome = run(MEMOS + call + "\n", monkeypatch)
        raises = isinstance(outcome.raised, ValueError)
        if raises:
            assert "content, title or status is required" in str(outcome.raised)
        else:
            assert outcome.raised is None and sent_to(outcome, "/update/memory"), call
        assert (only(call, MEMOS, "MEM670") == ["MEM670"]) == raises, call
        raised += raises
    assert 10 < raised < len(calls) - 10


@pytest.mark.parametrize(
    "call",
    [
        'client.update_memory("mem_1", content=text)',
        'client.update_memory("mem_1", text)',
        'client.update_memory("mem_1", **changes)',
        'client.update_memory("mem_1", text="x")',  # MEM653: a wrong keyword, maybe the change
    ],
)
def test_update_with_an_unknown_change_is_silent(call):
    assert only(call, MEMOS, "MEM670") == []


# --- MEM653: metadata= -> info= on add_message ---------------------------------------------------


def test_metadata_raises_and_info_is_sent(monkeypatch):
    messages = '[{"role": "user", "content": "I like tea"}]'
    bad = MEMOS + f'client.add_message({messages}, user_id="u_1", metadata={{"k": "v"}})\n'
    outcome = run(bad, monkeypatch)
    assert isinstance(outcome.raised, TypeError) and "metadata" in str(outcome.raised)
    fixed = fix_source(bad, select=("MEM653",))
    assert "info={" in fixed
    [request] = sent_to(run(fixed, monkeypatch), "/add/message")
    assert request.body["info"] == {"k": "v"}


def test_metadata_is_renamed_only_where_info_exists():
    code = MEMOS + 'client.search_memory("q", user_id="u", metadata={"k": "v"})\n'
    assert codes(code, select=("MEM653",)) == ["MEM653"]
    assert fix_source(code, select=("MEM653",)) == code  # search_memory has no `info`


# --- Memsy ingest: MEM611, MEM612 -----------------------------------------------------------------


def test_one_payload_raises_and_the_wrapped_one_is_sent(monkeypatch):
    bad = MEMSY + 'client.ingest(EventPayload("u1", "s1", "user_message", "I like tea"))\n'
    outcome = run(bad, monkeypatch)
    assert isinstance(outcome.raised, TypeError) and "not iterable" in str(outcome.raised)
    assert outcome.sent == []
    fixed = fix_source(bad, select=("MEM611",))
    outcome = run(fixed, monkeypatch)
    assert outcome.raised is None
    [request] = sent_to(outcome, "/ingest")
    assert request.body == {
        "events": [
            {"actor_id": "u1", "session_id": "s1", "kind": "user_message", "content": "I like tea"}
        ]
    }


def test_a_dict_or_dicts_raise_attribute_error(monkeypatch):
    event = '{"actor_id": "u1", "session_id": "s1", "kind": "user_message", "content": "hi"}'
    for call, code in (
        (f"client.ingest({event})", "MEM612"),
        (f"client.ingest([{event}])", "MEM612"),
    ):
        outcome = run(MEMSY + call + "\n", monkeypatch)
        assert isinstance(outcome.raised, AttributeError), call
        assert "to_dict" in str(outcome.raised)
        assert only(call, MEMSY, code) == [code]


@pytest.mark.parametrize(
    "call",
    [
        "client.ingest(events)",
        "client.ingest([event])",
        'client.ingest([EventPayload("u1", "s1", "user_message", "hi")])',
        "client.ingest([EventPayload(**e) for e in rows])",
        "client.ingest(make_event())",  # may return a list
        "client.ingest(*batches)",
    ],
)
def test_other_ingest_calls_are_silent(call):
    assert codes(MEMSY + call + "\n") == []


def test_a_look_alike_event_class_is_not_memsy():
    code = """
    from memsy import MemsyClient
    from myapp.events import EventPayload

    client = MemsyClient(base_url="https://memsy.example", api_key="key")
    client.ingest(EventPayload("u1", "s1", "user_message", "hi"))
    """
    assert codes(code) == []


# --- MEM613: kind; MEM614: metadata ---------------------------------------------------------------


@pytest.mark.parametrize(
    "kind",
    [
        "user_message",
        "assistant_message",
        "tool_result",
        "app_event",
        "user",
        "assistant",
        "tool",
        "message",
        "USER_MESSAGE",
        "",
    ],
)
def test_kinds_agree_with_what_the_client_sends_and_the_server_accepts(kind, monkeypatch):
    call = f'client.ingest([EventPayload("u1", "s1", "{kind}", "hi")])'
    outcome = run(MEMSY + call + "\n", monkeypatch)
    assert outcome.raised is None  # the client checks nothing
    [request] = sent_to(outcome, "/ingest")
    assert request.body["events"][0]["kind"] == kind  # sent unchanged
    try:
        validate(request)
        rejected = False
    except Invalid:
        rejected = True
    assert rejected == (kind not in memsy.INGEST.kinds)
    assert (only(call, MEMSY, "MEM613") == ["MEM613"]) == rejected


def test_role_names_get_an_unsafe_fix_to_their_kind(monkeypatch):
    for role, kind in memsy.INGEST.kind_for_role.items():
        bad = MEMSY + f'client.ingest([EventPayload("u1", "s1", "{role}", "hi")])\n'
        assert fix_source(bad, select=("MEM613",)) == bad
        fixed = fix_source(bad, select=("MEM613",), unsafe=True)
        [request] = sent_to(run(fixed, monkeypatch), "/ingest")
        assert request.body["events"][0]["kind"] == kind
        validate(request)
    other = MEMSY + 'client.ingest([EventPayload("u1", "s1", "message", "hi")])\n'
    assert fix_source(other, select=("MEM613",), unsafe=True) == other


def test_dict_metadata_is_sent_as_an_object(monkeypatch):
    call = 'client.ingest([EventPayload("u1", "s1", "user_message", "hi", metadata={"a": 1})])'
    outcome = run(MEMSY + call + "\n", monkeypatch)
    [request] = sent_to(outcome, "/ingest")
    assert request.body["events"][0]["metadata"] == {"a": 1}  # not the documented string
    assert only(call, MEMSY, "MEM614") == ["MEM614"]
    [finding] = lint_source(MEMSY + call + "\n", select=("MEM614",))
    assert finding.severity.value == "warning"
    for value in ('json.dumps({"a": 1})', "meta", "None", '"{}"'):
        call = f'client.ingest([EventPayload("u1", "s1", "user_message", "hi", metadata={value})])'
        assert only(call, MEMSY, "MEM614") == [], value


# --- expected failures: the exceptions each rule predicts -------------------------------------


@pytest.mark.parametrize(
    ("handler", "silenced"),
    [
        ("requests.exceptions.HTTPError", True),
        ("requests.HTTPError", True),
        ("requests.RequestException", True),
        ("OSError", True),  # RequestException is an OSError (IOError)
        ("ValueError", False),
    ],
)
def test_an_empty_filter_is_expected_where_the_http_error_is_caught(handler, silenced):
    import requests

    code = MEMOS + textwrap.dedent(
        f"""
        import requests

        try:
            client.search_memory("q", user_id="u", filter={{}})
        except {handler}:
            pass
        """
    )
    assert issubclass(requests.exceptions.HTTPError, OSError)  # the table's base is real
    assert (codes(code, select=("MEM666",)) == []) == silenced


def test_write_errors_inside_pytest_raises_are_expected():
    code = (
        MEMOS
        + MEMSY.replace("client", "memsy_client")
        + textwrap.dedent(
            """
        import pytest

        def test_errors():
            with pytest.raises(ValueError):
                client.delete_memory(["mem_1", "mem_2"])
            with pytest.raises(ValueError):
                client.get_memory(user_id="u", size=100)
            with pytest.raises(ValueError):
                client.update_memory("mem_1")
            with pytest.raises(TypeError):
                memsy_client.ingest(EventPayload("u1", "s1", "user_message", "hi"))
            with pytest.raises(AttributeError):
                memsy_client.ingest([{"actor_id": "u1"}])
        """
        )
    )
    assert codes(code) == []


# --- add_message("plain text"): not judged --------------------------------------------------------


def test_plain_text_messages_are_sent_unchanged_and_not_judged(monkeypatch):
    """The claim "reports success and stores nothing" (MemTensor/MemOS#1274) is about a raw
    `/product/add` request to a self-hosted MemOS 2.0.8-2.0.9, not about `MemOSClient`. The
    client checks only that `messages` is truthy and sends a string unchanged; MemoryOS 2.0.33's
    own server types `messages` as `str | MessageList | RawMessageList` (memos/types/
    general_types.py `MessagesType`), and the Cloud's handling of a string is undocumented. No
    rule reports it: unknown stays silent."""
    call = 'client.add_message("I like tea", user_id="u_1")'
    outcome = run(MEMOS + call + "\n", monkeypatch)
    assert outcome.raised is None
    [request] = sent_to(outcome, "/add/message")
    assert request.body["messages"] == "I like tea"
    assert codes(MEMOS + call + "\n") == []
