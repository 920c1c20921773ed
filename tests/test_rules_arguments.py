"""mem0 call arguments (MEM1xx) and literal values (MEM502, MEM503): the tricky cases.

The rule examples already test the plain bad -> fixed path; this module pins down decoys that must
stay silent, the positional `options` slot of the Platform, `**kwargs` calls, keywords that
several rules would rename into the same name, and where the two mem0 dialects differ.
"""

from __future__ import annotations

import pytest
from conftest import codes, fix_source, lint_source

PLATFORM = "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
OSS = "from mem0 import Memory\n\nmemory = Memory()\n"
ASYNC_PLATFORM = "from mem0 import AsyncMemoryClient\n\nclient = AsyncMemoryClient()\n"


def findings(code: str, rule: str) -> list:
    return [d for d in lint_source(code) if d.code == rule]


def only(code: str, rule: str):
    found = findings(code, rule)
    assert len(found) == 1, [d.message for d in found]
    return found[0]


# --- decoys: receivers that are not certainly a mem0 client -----------------------------------


@pytest.mark.parametrize(
    "code",
    [
        # A user's own object with the same method names.
        "class Store:\n    def search(self, q, limit=10): ...\n\n"
        "Store().search('q', limit=5, min_score=0.2, page=2)\n",
        # Memsy's search really takes `limit` and `threshold`.
        "from memsy import MemsyClient\n\n"
        "c = MemsyClient(base_url='https://m.example', api_key='k')\n"
        "c.search('q', actor_id='u', limit=5, threshold=0.2)\n",
        # An unknown receiver, even next to a mem0 import.
        "import mem0\n\nitems.list()\nrecords.all()\nclient.search('q', filter={'a': 1})\n",
        # pymongo-style calls.
        "from pymongo import MongoClient\n\n"
        "MongoClient().db.memories.find({'user_id': 'u'}).limit(5)\n",
    ],
)
def test_decoys_stay_silent(code):
    assert codes(code) == []


# --- MEM106: the positional slot after the query ---------------------------------------------


def test_platform_typed_options_positional_is_correct():
    code = PLATFORM + (
        "from mem0.client.types import SearchMemoryOptions\n\n"
        "client.search('q', SearchMemoryOptions(filters={'user_id': 'u'}, top_k=5))\n"
    )
    assert codes(code) == []


def test_platform_unknown_positional_is_not_judged():
    # `options` may hold a SearchMemoryOptions built elsewhere: not certainly wrong.
    assert "MEM106" not in codes(PLATFORM + "client.search('q', opts)\n")


def test_oss_any_second_positional_is_a_type_error():
    finding = only(OSS + "memory.search('q', opts)\n", "MEM106")
    assert "TypeError" in finding.message and finding.fix is None


def test_platform_dict_of_options_is_reported_without_fix():
    code = PLATFORM + "client.search('q', {'filters': {'user_id': 'u'}, 'top_k': 3})\n"
    finding = only(code, "MEM106")
    assert "AttributeError" in finding.message and finding.fix is None


def test_positional_filter_name_bound_to_a_dict_is_fixed():
    code = OSS + "f = {'user_id': 'u'}\nmemory.get_all(f)\n"
    assert (
        fix_source(code, select=("MEM106",))
        == OSS + "f = {'user_id': 'u'}\nmemory.get_all(filters=f)\n"
    )


def test_positional_dict_followed_by_more_positionals_is_not_fixed():
    code = PLATFORM + "client.search('q', {'user_id': 'u'}, 5)\n"
    assert only(code, "MEM106").fix is None


def test_positional_dict_and_filter_keyword_leave_the_choice_to_the_author():
    code = PLATFORM + "client.search('q', {'user_id': 'u'}, filter={'user_id': 'x'})\n"
    assert fix_source(code) == code


# --- renames into the same keyword must never produce a repeated keyword ---------------------


@pytest.mark.parametrize(
    "call",
    [
        "client.search('q', filters={'user_id': 'u'}, limit=5, k=3)",
        "client.search('q', filters={'user_id': 'u'}, limit=5, topK=3)",
        "client.search('q', filters={'user_id': 'u'}, limit=5, top_k=3)",
        "client.search('q', filters={'user_id': 'u'}, min_score=0.2, threshold=0.3)",
        "client.get_all(filters={'user_id': 'u'}, top_k=5, limit=3)",
        "client.get_all(filters={'user_id': 'u'}, filter={'agent_id': 'a'})",
    ],
)
def test_competing_renames_are_reported_but_not_fixed(call):
    code = PLATFORM + call + "\n"
    assert codes(code)
    assert fix_source(code, unsafe=True) == code


def test_oss_get_all_limit_and_page_size_compete_for_top_k():
    code = OSS + "memory.get_all(filters={'user_id': 'u'}, limit=5, page_size=10)\n"
    assert fix_source(code, unsafe=True) == code


def test_a_kwargs_spread_makes_a_rename_unsafe():
    code = PLATFORM + "client.search('q', filters={'user_id': 'u'}, limit=5, **extra)\n"
    assert fix_source(code) == code
    fixed = fix_source(code, unsafe=True)
    assert fixed == PLATFORM + "client.search('q', filters={'user_id': 'u'}, top_k=5, **extra)\n"


# --- MEM103 threshold spellings ----------------------------------------------------------------


def test_threshold_alias_out_of_range_is_reported_without_fix():
    finding = only(
        PLATFORM + "client.search('q', filters={'user_id': 'u'}, min_score=80)\n", "MEM103"
    )
    assert finding.fix is None and "outside [0, 1]" in finding.message


def test_threshold_alias_with_a_string_literal_has_no_fix():
    assert (
        only(OSS + "memory.search('q', filters={'user_id': 'u'}, cutoff='x')\n", "MEM103").fix
        is None
    )


# --- MEM105 filter= ------------------------------------------------------------------------------


def test_filter_next_to_filters_is_a_warning_without_fix():
    finding = only(
        OSS + "memory.search('q', filters={'user_id': 'u'}, filter={'a': 1})\n", "MEM105"
    )
    assert finding.severity.value == "warning" and finding.fix is None


def test_filter_alone_names_the_dialect_mechanism():
    assert (
        "HTTP 400" in only(PLATFORM + "client.get_all(filter={'user_id': 'u'})\n", "MEM105").message
    )
    assert "ValueError" in only(OSS + "memory.get_all(filter={'user_id': 'u'})\n", "MEM105").message


# --- get_all paging (MEM109, MEM110) and search paging (MEM111) --------------------------------


def test_platform_get_all_top_k_is_mem109_only():
    found = codes(PLATFORM + "client.get_all(filters={'user_id': 'u'}, top_k=0)\n")
    assert found == ["MEM109"]  # not MEM112: get_all has no top_k on the Platform


def test_platform_get_all_page_size_beyond_200_gets_no_fix():
    code = PLATFORM + "client.get_all(filters={'user_id': 'u'}, top_k=500)\n"
    assert only(code, "MEM109").fix is None


def test_oss_get_all_limit_is_mem110_not_mem102():
    code = OSS + "memory.get_all(filters={'user_id': 'u'}, limit=5)\n"
    assert codes(code) == ["MEM110"]
    assert fix_source(code) == OSS + "memory.get_all(filters={'user_id': 'u'}, top_k=5)\n"


def test_platform_get_all_paging_is_correct():
    assert (
        codes(PLATFORM + "client.get_all(filters={'user_id': 'u'}, page=2, page_size=50)\n") == []
    )


def test_search_paging_is_reported_on_both_dialects():
    assert codes(PLATFORM + "client.search('q', filters={'user_id': 'u'}, page_size=5)\n") == [
        "MEM111"
    ]
    assert codes(OSS + "memory.search('q', filters={'user_id': 'u'}, page=2)\n") == ["MEM111"]


# --- ranges (MEM112, MEM113) and types (MEM503) -------------------------------------------------


@pytest.mark.parametrize(
    ("preamble", "call", "expected"),
    [
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, top_k=1000)", []),
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, top_k=1001)", ["MEM112"]),
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, top_k=0)", ["MEM112"]),
        (OSS, "memory.search('q', filters={'user_id': 'u'}, top_k=0)", []),
        (OSS, "memory.search('q', filters={'user_id': 'u'}, top_k=5000)", []),
        (OSS, "memory.get_all(filters={'user_id': 'u'}, top_k=-5)", ["MEM112"]),
        (OSS, "memory.search('q', filters={'user_id': 'u'}, threshold=-0.1)", ["MEM113"]),
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, threshold=1)", []),
        # bool is an int to the open source check: threshold=True passes as 1.
        (OSS, "memory.search('q', filters={'user_id': 'u'}, threshold=True)", []),
        # ...but top_k rejects bool and float explicitly.
        (OSS, "memory.search('q', filters={'user_id': 'u'}, top_k=True)", ["MEM503"]),
        (OSS, "memory.search('q', filters={'user_id': 'u'}, top_k=5.0)", ["MEM503"]),
        # Platform sends 5.0 as JSON; its handling is not documented: not judged.
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, top_k=5.0)", []),
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, top_k=n)", []),
    ],
)
def test_numeric_arguments(preamble, call, expected):
    assert codes(preamble + call + "\n") == expected


def test_numeric_string_is_fixed_then_range_checked():
    code = PLATFORM + "client.search('q', filters={'user_id': 'u'}, top_k='5000')\n"
    assert only(code, "MEM503").severity.value == "warning"  # Platform: API handling inferred
    # The number 5000 is out of range (MEM112): the fixed call has a new error, so the fix is
    # not safe (issue 11, class 6) and `--fix` leaves the string.
    assert only(code, "MEM503").fix.applicability.value == "unsafe"
    assert fix_source(code) == code


def test_non_numeric_string_has_no_fix():
    code = OSS + "memory.search('q', filters={'user_id': 'u'}, top_k='five')\n"
    finding = only(code, "MEM503")
    assert finding.fix is None and finding.severity.value == "error"


def test_int_string_for_a_float_parameter():
    code = OSS + "memory.search('q', filters={'user_id': 'u'}, threshold='1')\n"
    assert fix_source(code) == OSS + "memory.search('q', filters={'user_id': 'u'}, threshold=1)\n"


# --- MEM114 empty query ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("client.search('', filters={'user_id': 'u'})", ["MEM114"]),
        ("client.search(query='\\n\\t', filters={'user_id': 'u'})", ["MEM114"]),
        ("client.search(q, filters={'user_id': 'u'})", []),
        ("client.search(f'{q}', filters={'user_id': 'u'})", []),
        ("client.search(' q ', filters={'user_id': 'u'})", []),
    ],
)
def test_empty_query(call, expected):
    assert codes(PLATFORM + call + "\n") == expected


# --- MEM123 wrong list method -----------------------------------------------------------------


def test_wrong_list_method_chains_with_entity_move():
    code = PLATFORM + "client.list(user_id='u')\n"
    assert fix_source(code) == PLATFORM + "client.get_all(filters={'user_id': 'u'})\n"


def test_wrong_list_method_on_an_awaited_async_client():
    code = ASYNC_PLATFORM + "async def f():\n    return await client.list_memories(filters=F)\n"
    assert codes(code) == ["MEM123"]


def test_memsy_memories_list_is_not_mem123():
    code = (
        "from memsy import MemsyClient\n\n"
        "c = MemsyClient(base_url='https://m.example', api_key='k')\n"
        "c.memories.list(actor_id='u')\n"
    )
    assert "MEM123" not in codes(code)


# --- MEM124 camelCase ----------------------------------------------------------------------------


def test_oss_app_id_has_no_equivalent():
    finding = only(OSS + "memory.get_all(filters={'user_id': 'u'}, appId='a')\n", "MEM124")
    assert finding.fix is None and "no `app_id` scope" in finding.message


def test_platform_app_id_is_an_entity_and_an_error():
    code = PLATFORM + "client.get_all(appId='a')\n"
    finding = only(code, "MEM124")
    assert finding.severity.value == "error"
    assert fix_source(code) == PLATFORM + "client.get_all(filters={'app_id': 'a'})\n"


def test_oss_delete_all_camel_case_raises():
    finding = only(OSS + "memory.delete_all(userId='u')\n", "MEM124")
    assert finding.severity.value == "error" and "TypeError" in finding.message


def test_camel_entity_next_to_the_same_key_in_filters_is_not_renamed():
    # Renaming would swap a silently ignored keyword for a ValueError MEM101 cannot fix.
    code = PLATFORM + "client.search('q', filters={'user_id': 'u'}, userId='x')\n"
    assert only(code, "MEM124").fix is None


def test_camel_case_that_is_no_mem0_parameter_is_just_unknown():
    code = PLATFORM + "client.search('q', filters={'user_id': 'u'}, myFlag=True)\n"
    assert codes(code) == ["MEM107"]


# --- MEM502 dates ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "reported"),
    [
        ("'2024-01-05'", False),
        ("'2024-01-05T10:30:00Z'", False),
        ("'2024-01-05T10:30:00.123+02:00'", False),
        ("'2024-01-05 10:30'", False),
        ("'*'", False),
        ("1704067200", False),  # not a string: not this rule's business
        ("d", False),
        ("'2024-02-30'", True),
        ("'05/01/2024'", True),
        ("'2024-1-5'", True),
        ("'yesterday'", True),
    ],
)
def test_platform_date_literals(value, reported):
    condition = f"{{'created_at': {{'gte': {value}}}}}"
    code = PLATFORM + f"client.get_all(filters={{'AND': [{{'user_id': 'u'}}, {condition}]}})\n"
    assert ("MEM502" in codes(code)) is reported


def test_dates_in_in_lists_and_bare_values():
    code = PLATFORM + (
        "client.get_all(filters={'user_id': 'u', 'timestamp': '1/1/24', "
        "'updated_at': {'in': ['2024-01-01', 'Jan 2']}})\n"
    )
    assert [d.message.split(" ")[0] for d in findings(code, "MEM502")] == ["'1/1/24'", "'Jan"]


def test_oss_timestamp_is_not_a_time_field():
    code = OSS + "memory.get_all(filters={'user_id': 'u', 'timestamp': 'soon'})\n"
    assert "MEM502" not in codes(code)


def test_platform_get_all_date_keywords():
    code = PLATFORM + "client.get_all(filters={'user_id': 'u'}, start_date='2024/01/01')\n"
    assert codes(code) == ["MEM502"]


# --- MEM107 other unknown keywords: parameters differ per dialect -----------------------------


@pytest.mark.parametrize(
    ("preamble", "call", "expected"),
    [
        (OSS, "memory.search('q', filters={'user_id': 'u'}, explain=True)", []),
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, explain=True)", ["MEM107"]),
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, fields=['memory'])", []),
        (OSS, "memory.search('q', filters={'user_id': 'u'}, fields=['memory'])", ["MEM107"]),
        (PLATFORM, "client.get_all(filters={'user_id': 'u'}, keywords='tea')", []),
        (PLATFORM, "client.get_all(filters={'user_id': 'u'}, enable_graph=True)", ["MEM107"]),
        # One finding per keyword: owned by the more specific rule.
        (PLATFORM, "client.search('q', filters={'user_id': 'u'}, limit=3)", ["MEM102"]),
        (OSS, "memory.search('q', filters={'user_id': 'u'}, app_id='a')", ["MEM122"]),
    ],
)
def test_unknown_keywords_per_dialect(preamble, call, expected):
    assert codes(preamble + call + "\n") == expected


@pytest.mark.parametrize(
    ("call", "severity"),
    [
        # 1.x keywords whose value asks for what 2.x does anyway: dead code that changes
        # nothing, so not reported (judged noise on every real repository that has one).
        ("client.search('q', filters={'user_id': 'u'}, version='v2')", []),
        ("client.search('q', filters={'user_id': 'u'}, output_format='v1.1')", []),
        ("client.get_all(filters={'user_id': 'u'}, api_version='v1')", []),
        ("client.get_all(filters={'user_id': 'u'}, enable_graph=False)", []),
        ("client.add('I like tea', user_id='u', version='v2')", []),
        ("client.add('I like tea', user_id='u', async_mode=True)", []),
        ("client.search('q', filters={'user_id': 'u'}, async_mode=True)", []),
        # What 2.x no longer does: the caller silently gets something else.
        ("client.search('q', filters={'user_id': 'u'}, output_format='v1.0')", ["warning"]),
        ("client.get_all(filters={'user_id': 'u'}, enable_graph=True)", ["warning"]),
        ("client.search('q', filters={'user_id': 'u'}, enable_graph=0)", ["warning"]),
        ("client.search('q', filters={'user_id': 'u'}, version=v)", ["warning"]),
        ("client.add('I like tea', user_id='u', async_mode=False)", ["warning"]),
    ],
)
def test_removed_keywords_that_ask_for_the_default_are_not_reported(call, severity):
    assert [d.severity.value for d in lint_source(PLATFORM + call + "\n")] == severity


def test_reference_date_none_is_allowed_on_oss():
    assert codes(OSS + "memory.search('q', filters={'user_id': 'u'}, reference_date=None)\n") == []
    assert codes(OSS + "memory.search('q', filters={'user_id': 'u'}, reference_date=d)\n") == [
        "MEM115"
    ]


# --- delete_all (MEM116-MEM118) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("preamble", "call", "expected"),
    [
        (OSS, "memory.delete_all('alice')", []),  # positional user_id
        (OSS, "memory.delete_all(user_id='alice', run_id=r)", []),
        (OSS, "memory.delete_all()", ["MEM118"]),
        (OSS, "memory.delete_all(**scope)", []),
        (OSS, "memory.delete_all(userId='u')", ["MEM124"]),  # not also MEM116 / MEM118
        (PLATFORM, "client.delete_all(app_id='*')", []),
        (PLATFORM, "client.delete_all(user_id=None)", ["MEM118"]),
        (PLATFORM, "client.delete_all(options)", []),
        (PLATFORM, "client.delete_all(filters=f)", ["MEM117"]),  # not also MEM118
    ],
)
def test_delete_all(preamble, call, expected):
    assert codes(preamble + call + "\n") == expected


def test_platform_delete_all_filters_with_operators_has_no_fix():
    code = PLATFORM + "client.delete_all(filters={'user_id': {'in': ['a', 'b']}})\n"
    assert only(code, "MEM117").fix is None


def test_delete_all_wildcard_from_filters_needs_unsafe_fixes():
    code = OSS + "memory.delete_all(filters={'user_id': '*'})\n"
    assert fix_source(code) == code
    assert fix_source(code, unsafe=True) == OSS + "memory.delete_all(user_id='*')\n"


def test_delete_all_filters_key_also_given_as_keyword_is_not_fixed():
    code = PLATFORM + "client.delete_all(user_id='a', filters={'user_id': 'b'})\n"
    assert only(code, "MEM117").fix is None


# --- construction (MEM119-MEM121) -------------------------------------------------------------


def test_removed_client_params_on_the_async_client():
    code = (
        "from mem0 import AsyncMemoryClient\n\nc = AsyncMemoryClient(key, org_id=o, project_id=p)\n"
    )
    assert codes(code) == ["MEM119", "MEM119"]
    assert fix_source(code) == "from mem0 import AsyncMemoryClient\n\nc = AsyncMemoryClient(key)\n"


def test_memory_with_a_config_object_is_correct():
    code = (
        "from mem0 import Memory\nfrom mem0.configs.base import MemoryConfig\n\n"
        "m = Memory(MemoryConfig())\nn = Memory(config=cfg)\n"
    )
    assert codes(code) == []


def test_memory_config_keyword_dict_becomes_positional():
    code = "from mem0 import Memory\n\ncfg = {'llm': {}}\nm = Memory(config=cfg)\n"
    fixed = fix_source(code)
    assert fixed == "from mem0 import Memory\n\ncfg = {'llm': {}}\nm = Memory.from_config(cfg)\n"


def test_await_from_config_keeps_parentheses():
    code = (
        "from mem0 import AsyncMemory\n\nasync def f(c):\n"
        "    return (await AsyncMemory.from_config(c)).search\n"
    )
    assert codes(code) == ["MEM121"]
    assert fix_source(code) == (
        "from mem0 import AsyncMemory\n\nasync def f(c):\n"
        "    return (AsyncMemory.from_config(c)).search\n"
    )


def test_from_config_without_await_is_correct():
    assert codes("from mem0 import AsyncMemory\n\nm = AsyncMemory.from_config(c)\n") == []


# MEM101's unsafe fix spreads a filter it cannot read: the spread must parse, and must not be
# `**None` (found on a public plugin: `filters=filters if filters else None`).
@pytest.mark.parametrize(
    ("filters", "spread"),
    [
        ("base", "**base"),
        ("filters or {}", "**(filters or {})"),
        ("dict(base)", "**dict(base)"),
    ],
)
def test_mem101_spreads_an_unread_filter_so_that_it_parses(filters, spread):
    code = (
        "from mem0 import Memory\n\nmemory = Memory()\n"
        f'memory.search("q", user_id="u", filters={filters})\n'
    )
    (finding,) = [d for d in lint_source(code, select=("MEM101",))]
    (edit,) = finding.edits
    assert edit.content == f'memory.search("q", filters={{{spread}, "user_id": "u"}})'
    compile(fix_source(code, select=("MEM101",), unsafe=True), "<fixed>", "exec")


def test_mem101_offers_no_spread_of_what_may_be_none():
    code = (
        "from mem0 import Memory\n\nmemory = Memory()\n"
        'memory.search("q", user_id="u", filters=filters if filters else None)\n'
    )
    (finding,) = lint_source(code, select=("MEM101",))
    assert finding.fix is None
