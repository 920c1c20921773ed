"""MEM148: identity keys (`user_id`, `agent_id`, `run_id`, `actor_id`) inside `metadata=` of open
source `add()`.

Read from 2.0.13 to 2.2.1 (`_build_filters_and_metadata`, `_strip_identity_keys` in
mem0/memory/main.py): from 2.0.16, `add()` drops these keys from the caller's metadata with a
logged warning (issue #6655), so they neither scope the memory nor stay in its metadata. Before
2.0.16 they were copied into the stored payload, where a key not also passed as a keyword set the
memory's scope: a different bug, not claimed here.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mem0lint.callsite import CallSite
from mem0lint.filtertree import str_value
from mem0lint.rule import Example, Finding, Rule, Severity
from mem0lint.rules.surface.ossadd import follow, literal_keys
from mem0lint.sdk import releases
from mem0lint.sdk.dialects import OPEN_SOURCE
from mem0lint.sdk.mem0_arguments import OSS_METADATA_IDENTITY_KEYS

INSTEAD = {"actor_id": 'name the speaker with the message\'s `"name"`'}


class OssIdentityInMetadata(Rule):
    code = "MEM148"
    name = "oss-identity-in-metadata"
    dialects = frozenset({OPEN_SOURCE.id})
    methods = frozenset({"add"})
    # add() strips identity keys from metadata from 2.0.16 (read in 2.0.15, 2.0.16, 2.0.17,
    # 2.0.20, 2.1.0, 2.2.1); before, they were stored and could change the scope.
    versions = {"mem0ai": ">=" + releases.OSS_METADATA_IDENTITY}
    severity = Severity.WARNING
    summary = '`metadata={"user_id": ...}` on open source `add()`: identity keys are dropped'
    why = (
        "Scope comes only from the `user_id=` / `agent_id=` / `run_id=` keywords. Since mem0ai "
        "2.0.16 open source `add()` removes `user_id`, `agent_id`, `run_id` and `actor_id` from "
        "`metadata` and logs `ignoring metadata['user_id'] - identity fields cannot be set "
        "through metadata`: the value scopes nothing and is not stored. Pass it as the keyword."
    )
    examples = [
        Example(
            "mem0-oss",
            bad='memory.add("I like tea", user_id="alice", metadata={"agent_id": "barista"})',
            good='memory.add("I like tea", user_id="alice", agent_id="barista")',
        ),
    ]

    def check(self, site: CallSite) -> Iterator[Finding]:
        arg = site.keyword("metadata")
        if arg is None:
            return
        value = follow(site, arg.value)
        keys = literal_keys(value) if isinstance(value, cst.Dict) else None
        if keys is None:
            # A dict with a `**spread` still shows its literal keys.
            if not isinstance(value, cst.Dict):
                return
            keys = {}
            for element in value.elements:
                if isinstance(element, cst.DictElement) and isinstance(
                    element.key, cst.SimpleString
                ):
                    key = str_value(element.key)
                    if key is not None:
                        keys[key] = element
        for key in OSS_METADATA_IDENTITY_KEYS:
            element = keys.get(key)
            if element is None:
                continue
            top = site.keyword(key)
            if top is not None and top.value.deep_equals(element.value):
                continue  # the same value as the keyword: nothing is lost
            where = arg if value is not arg.value else element
            instead = INSTEAD.get(key, f"pass it as `{key}=`")
            if top is not None:
                instead = f"the `{key}=` keyword already sets the scope; remove it here"
            yield Finding(
                where,
                f'`metadata["{key}"]`: open source `add()` drops identity keys from metadata '
                f"(logged warning): it neither scopes the memory nor is stored; {instead}",
            )
