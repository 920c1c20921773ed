"""The argument facts of mem0lint/sdk/mem0_arguments.py: plain data, checked against the SDK."""

from __future__ import annotations

import subprocess
import sys

from mem0lint.sdk.dialects import OPEN_SOURCE, PLATFORM
from mem0lint.sdk.mem0_arguments import OPTION_KEYS, client_class


def test_option_keys_are_the_options_models_fields():
    from mem0.client.types import GetAllMemoryOptions, SearchMemoryOptions

    fields = set(SearchMemoryOptions.model_fields) | set(GetAllMemoryOptions.model_fields)
    # `categories` and `metadata` are filter keys too: a dict holding them may be a filter.
    assert (fields - {"categories", "metadata"}) | {"explain"} == OPTION_KEYS


def test_options_dialect_parameters_are_option_keys():
    # Every keyword Platform search/get_all take beyond the query and the options slot.
    for method in ("search", "get_all"):
        params = set(PLATFORM.methods[method].params) - {"query", "options"}
        assert params - {"categories", "metadata", "keywords"} <= OPTION_KEYS, method


def test_client_class_is_the_synchronous_class():
    assert client_class(PLATFORM) == "MemoryClient"
    assert client_class(OPEN_SOURCE) == "Memory"


def test_argument_facts_import_without_libcst():
    probe = (
        "import sys, mem0lint.sdk.mem0_arguments as m; "
        "assert 'libcst' not in sys.modules, 'libcst imported'; print(len(m.OPTION_KEYS))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "14"
