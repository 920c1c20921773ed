"""The failure each rule predicts, as the SDKs raise it: exception classes and their bases.

A finding at error severity says "this call raises" (or "is rejected"); code that expects that
very exception (`pytest.raises(E)`, `self.assertRaises(E)`, `try: ... except E:`) is not wrong,
it tests or demonstrates the failure. To tell, each rule states, per dialect, the exceptions
the call can raise: read from the SDK source of mem0ai 2.2.1, memsy 0.3.5 and MemoryOS 2.0.33.

- mem0 open source (`mem0/memory/main.py`): argument checks raise the builtin `ValueError`
  (`_validate_search_params`, `_validate_and_trim_entity_id`, `_reject_top_level_entity_params`,
  the "filters must contain at least one of" check, `delete_all` without an id); closed
  signatures (`search(query, *, ...)`, `delete_all(user_id, agent_id, run_id)`) raise
  `TypeError`.
- mem0 Platform (`mem0/client/main.py`): the client checks a few things itself (`ValueError`:
  top-level entity keywords on `search`/`get_all`, an empty query); everything else is sent,
  and `mem0.client.utils.api_error_handler` turns an HTTP error into
  `mem0.exceptions.create_exception_from_response(...)`: 400, 409 and 422 raise
  `mem0.exceptions.ValidationError`, 500 raises `mem0.exceptions.MemoryError` (mem0's own class,
  a subclass of `Exception`, not the builtin `MemoryError`).
- Memsy (`memsy/client.py`): keyword-only, closed signatures (`TypeError`); the server's 4xx
  become `memsy.exceptions.MemsyAPIError` (or a subclass: we claim only the base).
- MemOS (`memos/api/client.py`): closed signatures (`TypeError`); `_validate_required_params`
  and `_validate_profile_subject` raise `ValueError`.

A rule (or a dialect of it) missing here predicts no known exception: its findings are kept
wherever they are. Warnings (silently wrong results) are never listed: nothing is raised.
"""

from __future__ import annotations

from typing import Union

# Qualified name -> qualified name of its base class (None for the root). Only what the rules
# below predict and what a handler commonly names; a class not listed covers only itself.
BASES: dict[str, Union[str, None]] = {
    "builtins.BaseException": None,
    "builtins.Exception": "builtins.BaseException",
    "builtins.ValueError": "builtins.Exception",
    "builtins.TypeError": "builtins.Exception",
    "builtins.AttributeError": "builtins.Exception",
    "builtins.LookupError": "builtins.Exception",
    "builtins.KeyError": "builtins.LookupError",
    "builtins.IndexError": "builtins.LookupError",
    "builtins.RuntimeError": "builtins.Exception",
    "builtins.NotImplementedError": "builtins.RuntimeError",
    "builtins.OSError": "builtins.Exception",
    "builtins.MemoryError": "builtins.Exception",
    "builtins.AssertionError": "builtins.Exception",
    "builtins.UnicodeError": "builtins.ValueError",
    # mem0/exceptions.py
    "mem0.exceptions.MemoryError": "builtins.Exception",
    "mem0.exceptions.AuthenticationError": "mem0.exceptions.MemoryError",
    "mem0.exceptions.RateLimitError": "mem0.exceptions.MemoryError",
    "mem0.exceptions.ValidationError": "mem0.exceptions.MemoryError",
    "mem0.exceptions.MemoryNotFoundError": "mem0.exceptions.MemoryError",
    "mem0.exceptions.NetworkError": "mem0.exceptions.MemoryError",
    "mem0.exceptions.ConfigurationError": "mem0.exceptions.MemoryError",
    "mem0.exceptions.MemoryQuotaExceededError": "mem0.exceptions.MemoryError",
    "mem0.exceptions.VectorStoreError": "mem0.exceptions.MemoryError",
    "mem0.exceptions.LLMError": "mem0.exceptions.MemoryError",
    # mem0/client/utils.py: deprecated, raised by nothing today
    "mem0.client.utils.APIError": "builtins.Exception",
    # memsy/exceptions.py
    "memsy.exceptions.MemsyError": "builtins.Exception",
    "memsy.exceptions.MemsyConnectionError": "memsy.exceptions.MemsyError",
    "memsy.exceptions.MemsyAPIError": "memsy.exceptions.MemsyError",
    # memos/exceptions.py
    "memos.exceptions.MemOSError": "builtins.Exception",
    # requests/exceptions.py: MemOSClient calls `response.raise_for_status()` on a 4xx
    "requests.exceptions.RequestException": "builtins.OSError",
    "requests.exceptions.HTTPError": "requests.exceptions.RequestException",
    # pydantic's ValidationError is a ValueError (pydantic_core)
    "pydantic_core._pydantic_core.ValidationError": "builtins.ValueError",
}

# Where the same class is importable under another name: module prefix -> defining module.
# `from mem0.client.utils import ValidationError` is `mem0.exceptions.ValidationError`.
REEXPORTS: dict[str, str] = {
    "mem0.client.utils": "mem0.exceptions",
    "mem0.memory.main": "mem0.exceptions",
    "memsy": "memsy.exceptions",
    "pydantic": "pydantic_core._pydantic_core",
    "pydantic_core": "pydantic_core._pydantic_core",
    "exceptions": "builtins",  # Python 2 spelling, harmless
    "requests": "requests.exceptions",
}

VALUE = "builtins.ValueError"
TYPE = "builtins.TypeError"
ATTRIBUTE = "builtins.AttributeError"
PLATFORM_REJECTS = "mem0.exceptions.ValidationError"  # HTTP 400 / 409 / 422
PLATFORM_FAILS = "mem0.exceptions.MemoryError"  # HTTP 500
MEMSY_REJECTS = "memsy.exceptions.MemsyAPIError"  # HTTP 4xx
MEMOS_REJECTS = "requests.exceptions.HTTPError"  # MemOSClient: `raise_for_status()`

P, OSS, Y, S = "mem0-platform", "mem0-oss", "memsy", "memos"

# rule code -> dialect -> the exceptions an error finding of the rule says the call raises.
# More than one class: the call raises one of them (which one we cannot tell); a handler
# must cover every one to expect the failure.
PREDICTED: dict[str, dict[str, tuple[str, ...]]] = {
    "MEM101": {P: (VALUE,), OSS: (VALUE,)},  # _reject_top_level_entity_params / client check
    "MEM105": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},  # dropped, then no entity in filters
    "MEM106": {P: (ATTRIBUTE,), OSS: (TYPE,)},  # P: dict.model_dump; O: keyword-only
    "MEM112": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},
    "MEM113": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},
    "MEM114": {P: (VALUE,), OSS: (VALUE,)},  # _validate_and_trim_search_query
    "MEM115": {OSS: (VALUE,)},
    "MEM116": {OSS: (TYPE,)},  # delete_all(user_id, agent_id, run_id): closed
    "MEM118": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},
    "MEM119": {P: (TYPE,)},  # MemoryClient(api_key, host, client): closed
    "MEM120": {OSS: (ATTRIBUTE,)},  # a dict has no `.embedder`
    "MEM121": {OSS: (TYPE,)},  # awaiting a Memory object
    "MEM122": {OSS: (VALUE,)},  # error only when app_id is the only entity
    "MEM123": {P: (ATTRIBUTE,), OSS: (ATTRIBUTE,)},
    "MEM126": {P: (ATTRIBUTE,), OSS: (ATTRIBUTE,)},  # the class has no such attribute
    # a result dict indexed with an int (KeyError) or sliced (TypeError; KeyError on 3.12+)
    "MEM130": {P: ("builtins.KeyError", TYPE), OSS: ("builtins.KeyError", TYPE)},
    "MEM133": {P: (ATTRIBUTE,)},  # update(mid, "text"): str.model_dump
    "MEM134": {P: (VALUE,), OSS: (VALUE,)},
    "MEM135": {OSS: (TYPE,)},  # Memory.add / update: no **kwargs
    # a coroutine used as a result: TypeError (iterated, indexed, len) or AttributeError (.get)
    "MEM140": {P: (TYPE, ATTRIBUTE), OSS: (TYPE, ATTRIBUTE)},
    "MEM141": {P: (TYPE,), OSS: (TYPE,)},  # await on a dict / list
    "MEM143": {OSS: (TYPE,)},  # Memory.add: keyword-only, no **kwargs
    "MEM144": {P: (ATTRIBUTE,), OSS: (TYPE,)},  # P: str.model_dump; O: keyword-only
    # None: Mem0ValidationError (VALIDATION_003); a plain string item: str.get
    "MEM145": {OSS: (PLATFORM_REJECTS, ATTRIBUTE)},
    "MEM146": {OSS: (PLATFORM_REJECTS,)},  # Mem0ValidationError VALIDATION_002
    "MEM147": {OSS: (VALUE,)},  # timestamp / _normalize_expiration_date
    # MEM124 is not here: its errors are a TypeError (closed signatures) or, for a camelCase
    # entity id on the Platform, whatever the API answers; which one, the table cannot say.
    "MEM201": {P: (PLATFORM_REJECTS,)},
    # The operator rules' own words: "HTTP 400" on the Platform, "ValueError" in open source
    # (`_process_metadata_filters`, or the default Qdrant store on the raw path).
    "MEM203": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},
    "MEM204": {P: (PLATFORM_REJECTS,)},
    "MEM205": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},
    "MEM206": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},
    "MEM208": {P: (PLATFORM_REJECTS,)},
    "MEM209": {P: (PLATFORM_REJECTS,)},
    "MEM210": {P: (PLATFORM_REJECTS,)},
    "MEM211": {P: (PLATFORM_REJECTS,)},
    "MEM212": {P: (PLATFORM_FAILS,)},  # HTTP 500
    "MEM213": {P: (PLATFORM_REJECTS,)},
    "MEM214": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},
    "MEM215": {OSS: (VALUE,)},  # _validate_and_trim_entity_id on a dict / list
    "MEM216": {P: (PLATFORM_REJECTS,)},
    "MEM218": {OSS: (VALUE,)},  # Qdrant: a range and a match on one field
    "MEM301": {OSS: (VALUE,)},  # "NOT operator requires a non-empty list"
    "MEM303": {P: (PLATFORM_REJECTS,)},
    "MEM305": {P: (PLATFORM_REJECTS,)},
    "MEM312": {OSS: (VALUE,)},
    "MEM401": {P: (PLATFORM_REJECTS,), OSS: (VALUE,)},
    "MEM402": {OSS: (VALUE,)},
    "MEM404": {P: (PLATFORM_REJECTS,)},  # O: raises only when no other entity id is there
    "MEM405": {P: (PLATFORM_REJECTS,)},
    # add() without an entity id: ValueError up to 0.1.117, mem0's ValidationError from 0.1.118
    "MEM411": {OSS: (VALUE, PLATFORM_REJECTS)},
    "MEM412": {OSS: (VALUE, PLATFORM_REJECTS)},  # search()/get_all(), the same (0.1.100-1.x)
    "MEM413": {OSS: (VALUE,)},  # add()/search() before 0.1.100
    "MEM409": {OSS: (VALUE,)},
    "MEM410": {OSS: (VALUE,)},
    "MEM503": {OSS: (VALUE,)},
    "MEM601": {Y: (MEMSY_REJECTS,)},
    "MEM602": {Y: (MEMSY_REJECTS,)},
    "MEM604": {Y: (MEMSY_REJECTS,)},
    "MEM605": {Y: (MEMSY_REJECTS,)},
    "MEM606": {Y: (TYPE,)},
    "MEM607": {Y: (TYPE,)},
    "MEM610": {Y: (TYPE,)},  # MemsyClient(base_url, api_key): required
    "MEM611": {Y: (TYPE,)},  # iterating one EventPayload
    "MEM612": {Y: (ATTRIBUTE,)},  # `dict.to_dict`; one dict: `str.to_dict` of its keys
    "MEM613": {Y: (MEMSY_REJECTS,)},  # HTTP 422: kind outside the enum
    "MEM651": {S: (VALUE,)},
    "MEM652": {S: (TYPE,)},
    "MEM653": {S: (TYPE,)},
    "MEM663": {S: (VALUE,)},
    "MEM666": {S: (MEMOS_REJECTS,)},  # HTTP 400: filter object cannot be empty
    "MEM667": {S: (VALUE,)},  # several ids as user ids (one id: a wrong, successful delete)
    "MEM668": {S: (VALUE,)},  # "exactly one delete condition is required"
    "MEM669": {S: (VALUE,)},  # "size must be less than or equal to 50"
    "MEM670": {S: (VALUE,)},  # "content, title or status is required"
    "MEM690": {S: (ATTRIBUTE,)},  # MemOSClient has no search / get_all / delete_all
}


def canonical(qualified: str) -> str:
    """`mem0.client.utils.ValidationError` -> `mem0.exceptions.ValidationError`."""
    module, _, name = qualified.rpartition(".")
    target = REEXPORTS.get(module)
    if target is not None and f"{target}.{name}" in BASES:
        return f"{target}.{name}"
    return qualified


def ancestors(qualified: str) -> list[str]:
    """The class and its bases, nearest first (only itself when the class is unknown)."""
    chain, current = [], canonical(qualified)
    while current is not None and current not in chain:
        chain.append(current)
        current = BASES.get(current)
    return chain


def predicted(code: str, dialect: str) -> Union[tuple[str, ...], None]:
    """The exceptions an error finding of `code` predicts for `dialect`; None: unknown."""
    return PREDICTED.get(code, {}).get(dialect)


def covers(handled: frozenset[str], failure: tuple[str, ...]) -> bool:
    """Does a handler for the classes `handled` catch every exception `failure` may be?"""
    handled = frozenset(canonical(name) for name in handled)
    return all(any(base in handled for base in ancestors(name)) for name in failure)
