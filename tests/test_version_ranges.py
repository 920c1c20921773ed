"""Rules by SDK release: an old pin stays silent, a current pin reports, and upgrade mode says
what breaks on the way to a target release.

The ranges come from the released wheels (see mem0lint/sdk/releases.py): before mem0ai 2.0.0,
top-level `user_id=`, `limit=`, `org_id=` / `project_id=` and `enable_graph=` were the documented
API, and `AsyncMemory.from_config` had to be awaited from 0.1.89 to 1.0.9.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import run_cli
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from mem0lint import engine
from mem0lint.rule import Severity
from mem0lint.rules import all_rules
from mem0lint.sdk.applies import DIALECT_PACKAGE
from mem0lint.sdk.releases import PACKAGES, RELEASES


def lint(code: str, sdks=(), select=()) -> list:
    module = engine.parse(textwrap.dedent(code))
    settings = engine.Settings(select=select, sdks=tuple(sdks))
    return engine.lint(module, engine.RuleSet(settings))


def pinned(dialect: str, version: str, target: str = "") -> tuple:
    """Settings.sdks for a file whose project installs `version` (judged as `target`, if any)."""
    package = DIALECT_PACKAGE[dialect]
    distribution = PACKAGES[package]
    if target:
        return ((package, distribution, target, version),)
    return ((package, distribution, version, ""),)


def outside(distribution: str, specifier: str) -> str:
    """The newest known release the range leaves out."""
    return [v for v in RELEASES[distribution] if Version(v) not in SpecifierSet(specifier)][-1]


# Findings about `noqa` comments, not about SDK calls.
NOT_SDK = {"MEM901", "MEM902"}

VERSIONED = [
    pytest.param(rule, example, id=f"{code}-{index}")
    for code, rule in all_rules().items()
    if rule.versions
    for index, example in enumerate(rule.examples)
]


@pytest.mark.parametrize(("rule", "example"), VERSIONED)
def test_an_old_pin_stays_silent_and_a_current_pin_reports(rule, example):
    program = example.program(example.bad)
    package = DIALECT_PACKAGE[example.dialect]
    distribution = PACKAGES[package]
    left_out = outside(distribution, rule.versions[distribution])
    current = example.release or RELEASES[distribution][-1]
    select = (rule.code,) if rule.opt_in else ()  # an opt-in rule runs only when named
    silent = lint(program, pinned(example.dialect, left_out), select)
    assert rule.code not in [d.code for d in silent]
    assert rule.code in [d.code for d in lint(program, pinned(example.dialect, current), select)]


def test_every_rule_states_its_range_or_holds_for_every_release():
    everywhere = {code for code, rule in all_rules().items() if not rule.versions}
    # Verified in the old wheels: Memory({...}) fails in every release (AttributeError on the
    # dict), no release has list()/all()/get_memories(), open source delete_all has taken only
    # the entity ids since 0.1.x; memsy's other rules and the noqa rules hold everywhere.
    assert everywhere == {
        "MEM116",
        "MEM120",
        "MEM123",
        "MEM125",  # Memory/AsyncMemory(config) only, no **kwargs (0.1.32 to 2.2.1 read)
        "MEM136",  # get/delete/history take the id only in every wheel read (0.1.0 to 2.2.1)
        "MEM137",  # batch_* send their list unchanged to /v1/batch/ (or do not exist at all)
        "MEM141",  # MemoryClient / Memory methods are plain `def` in every wheel (0.1.20-2.2.1)
        "MEM150",  # delete_all forwards "*" as a query parameter (0.1.100, 1.0.3, 2.0.0, 2.2.1)
        "MEM151",  # reset() / id-less delete_users() delete everything (same wheels)
        "MEM152",  # batch_* send the list unchanged; the 1000 cap is the server's
        "MEM154",  # reset(self) on all four clients (0.1.32 to 2.2.1 read)
        "MEM155",  # memory ids are UUIDs in every release
        "MEM156",  # get/delete/history/update name the id `memory_id` (0.1.0 to 2.2.1 read)
        "MEM157",  # open source update() has no **kwargs (0.1.0 to 2.2.1 read)
        "MEM603",
        "MEM605",
        "MEM606",
        "MEM607",
        "MEM610",
        # ingest(events: list[EventPayload]) and EventPayload's fields: the same in 0.3.0 to 0.3.5
        "MEM611",
        "MEM612",
        "MEM613",
        "MEM614",
        "MEM692",
        "MEM901",
        "MEM902",
    }


AWAITED = """\
from mem0 import AsyncMemory

async def main():
    memory = await AsyncMemory.from_config({})
"""


@pytest.mark.parametrize("version", ["0.1.89", "0.1.115", "1.0.3", "1.0.9"])
def test_mem121_is_silent_where_the_await_is_required(version):
    assert lint(AWAITED, pinned("mem0-oss", version)) == []


@pytest.mark.parametrize("version", ["1.0.10", "1.0.11", "2.0.0", "2.2.1"])
def test_mem121_reports_where_from_config_is_synchronous(version):
    assert [d.code for d in lint(AWAITED, pinned("mem0-oss", version))] == ["MEM121"]


OLD_STYLE = """\
from mem0 import Memory, MemoryClient

client = MemoryClient(api_key="k", org_id="o", project_id="p")
client.search("q", user_id="u", limit=5, enable_graph=True)
client.get_all(user_id="u", output_format="v1.1")
memory = Memory()
memory.search("q", user_id="u", limit=5)
memory.get_all(user_id="u", limit=10)
"""


@pytest.mark.parametrize("version", ["0.1.100", "0.1.118", "1.0.3", "1.0.11"])
def test_the_documented_api_before_2_0_is_not_reported(version):
    sdks = pinned("mem0-oss", version)
    assert lint(OLD_STYLE, sdks) == []


def test_the_same_code_on_2_x_is_reported():
    found = {d.code for d in lint(OLD_STYLE, pinned("mem0-oss", "2.0.0"))}
    assert {"MEM101", "MEM102", "MEM119"} <= found


@pytest.mark.parametrize("version", ["0.1.118", "1.0.3", "1.0.11"])
def test_below_2_0_only_verified_failures_are_errors_or_warnings(version):
    """Every documented bad example, judged at an old release: what still reports at error or
    warning is only what the old wheel really rejects."""
    left = set()
    for rule in all_rules().values():
        for example in rule.examples:
            if example.dialect not in ("mem0-oss", "mem0-platform"):
                continue
            program = example.program(example.bad)
            for d in lint(program, pinned(example.dialect, version)):
                if d.severity in (Severity.ERROR, Severity.WARNING):
                    left.add(d.code)
    verified = {"MEM116", "MEM120", "MEM123"}
    # Every wheel read (0.1.0 to 2.2.1): `get`/`delete`/`history` take the id only, and
    # `batch_*` send their list unchanged to `/v1/batch/`.
    verified |= {"MEM136", "MEM137"}
    # Every wheel read (0.1.0 to 2.2.1): their first parameter is `memory_id` (`id=`: TypeError).
    verified.add("MEM156")
    # Every wheel read (0.1.0 to 2.2.1): open source `update()` has no `**kwargs`.
    verified.add("MEM157")
    # Every wheel read (0.1.32 to 2.2.1): `Memory(config)` / `AsyncMemory(config)` and
    # `reset(self)` take nothing else (a keyword: TypeError).
    verified |= {"MEM125", "MEM154"}
    # Every wheel read: the async clients' memory methods are coroutine functions (from 0.1.22 /
    # 0.1.89 on), the sync clients' plain functions (a coroutine used as a result, or `await`
    # on a dict, raises TypeError).
    verified |= {"MEM140", "MEM141"}
    # Read in 0.1.100 and 1.0.3 too: `delete_all` forwards `"*"`, `reset()` and an id-less
    # `delete_users()` delete everything, batch lists go out unchanged (the 1000 cap is the
    # server's), memory ids are `uuid.uuid4()` (MEM150-MEM152, MEM155).
    verified |= {"MEM150", "MEM151", "MEM152", "MEM155"}
    if Version(version) >= Version("1.0.0"):
        verified |= {"MEM130", "MEM138"}  # a result is {"results": [...]} from 1.0.0 on
    elif Version(version) >= Version("0.1.59"):
        # Open source `Memory()` (the examples' preamble) returns {"results": [...]} by default
        # from 0.1.59 (sdk/mem0_results.py; run in tests/test_result_shapes_before_1_0.py).
        verified.add("MEM130")
    if Version(version) >= Version("1.0.10"):
        verified.add("MEM121")  # `await` on a plain classmethod's result: TypeError
    # From 0.1.100 open source add() is `add(messages, *, ...)` with no **kwargs (an unknown
    # keyword or a second positional: TypeError; the Platform never took a second positional)
    # and rejects any memory_type but "procedural_memory" (read in 0.1.100 to 2.2.1).
    verified |= {"MEM143", "MEM144", "MEM146"}
    # From 0.1.100 open source add() takes its scope from the id keywords only and raises without
    # one (every release 0.1.100 to 1.0.11 run on a stubbed Memory, and 2.0.0, 2.2.1).
    verified.add("MEM411")
    # From 0.1.100 to 1.0.11 search()/get_all() take their scope from the id keywords only and
    # raise without one, a `filters` entity key or not (every release run on a stubbed Memory).
    verified.add("MEM412")
    # Judged by each release's own attributes (sdk/mem0_attributes.py, every source 0.1.0 to
    # 2.2.1 read): a name the class lacks in that release raises AttributeError there.
    verified.add("MEM126")
    assert left - NOT_SDK <= verified


def test_a_fork_is_not_judged():
    fork = (("mem0", "mem0-polardb", "", ""),)
    for rule in all_rules().values():
        for example in rule.examples:
            if example.dialect in ("mem0-oss", "mem0-platform"):
                found = lint(example.program(example.bad), fork)
                assert [d.code for d in found if d.code not in NOT_SDK] == []


def test_memsy_session_rules_need_a_release_with_sessions():
    code = """\
        from memsy import MemsyClient
        client = MemsyClient(base_url="https://m", api_key="k")
        client.search("q", session_id="a", exclude_session_id="b")
    """
    assert "MEM601" not in [d.code for d in lint(code, pinned("memsy", "0.3.3"))]
    assert "MEM601" in [d.code for d in lint(code, pinned("memsy", "0.3.5"))]


def test_memos_rules_need_the_client_they_were_written_for():
    code = """\
        from memos.api.client import MemOSClient
        client = MemOSClient(api_key="k")
        client.search_memory("q", user_id="u", top_k=5)
    """
    assert lint(code, pinned("memos", "2.0.23")) == []
    assert "MEM653" in [d.code for d in lint(code, pinned("memos", "2.0.24"))]


def test_a_noqa_for_a_rule_the_release_leaves_out_is_not_unused():
    code = (
        'from mem0 import MemoryClient\nMemoryClient().search("q", user_id="u")  # noqa: MEM101\n'
    )
    assert lint(code, pinned("mem0-platform", "1.0.3")) == []
    assert [d.code for d in lint(code, pinned("mem0-platform", "2.2.1"))] == []


# Upgrade mode -----------------------------------------------------------------------------------
def test_upgrade_findings_are_marked():
    found = lint(OLD_STYLE, pinned("mem0-oss", "1.0.3", target="2.2.0"))
    upgrade = [d for d in found if d.upgrade]
    assert {d.code for d in upgrade} >= {"MEM101", "MEM102", "MEM119"}
    for d in upgrade:
        assert d.upgrade == "1.0.3 -> 2.2.0"
        assert d.message.startswith("upgrade mem0ai 1.0.3 -> 2.2.0: ")
        assert (d.sdk, d.sdk_version) == ("mem0ai", "2.2.0")


def test_a_rule_for_every_release_is_an_ordinary_finding_in_upgrade_mode():
    code = 'from mem0 import Memory\nmemory = Memory({"vector_store": {}})\n'
    found = lint(code, pinned("mem0-oss", "1.0.3", target="2.2.0"))
    assert [(d.code, d.upgrade) for d in found] == [("MEM120", "")]


# The command line -------------------------------------------------------------------------------
APP = """\
from mem0 import AsyncMemory, MemoryClient

client = MemoryClient(api_key="k")
client.search("q", user_id="u")


async def main():
    memory = await AsyncMemory.from_config({})
"""
MIGRATED = """\
from mem0 import AsyncMemory, MemoryClient

client = MemoryClient(api_key="k")
client.search("q", filters={"user_id": "u"})


async def main():
    memory = AsyncMemory.from_config({})
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("mem0ai==1.0.3\n")
    (tmp_path / "app.py").write_text(APP)
    return tmp_path


def test_a_project_pinned_to_1_x_is_clean(project):
    result = run_cli("--no-cache", str(project / "app.py"))
    assert result.exit_code == 0, result.stdout


def test_upgrade_mode_reports_what_breaks_in_json(project):
    result = run_cli(
        "--no-cache",
        "--target-version",
        "mem0ai==2.2",
        "--output-format",
        "json",
        str(project / "app.py"),
    )
    findings = json.loads(result.stdout)
    assert [f["code"] for f in findings] == ["MEM101", "MEM121"]
    for finding in findings:
        assert finding["kind"] == "upgrade"
        assert finding["upgrade"] == {"from": "1.0.3", "to": "2.2.0"}
        assert (finding["sdk"], finding["sdk_version"]) == ("mem0ai", "2.2.0")
        assert finding["message"].startswith("upgrade mem0ai 1.0.3 -> 2.2.0: ")


def test_upgrade_mode_in_sarif(project):
    result = run_cli(
        "--no-cache", "--target-version", "mem0ai==2.2", "--output-format", "sarif", str(project)
    )
    results = json.loads(result.stdout)["runs"][0]["results"]
    assert {r["properties"]["kind"] for r in results} == {"upgrade"}
    assert {r["properties"]["upgrade"] for r in results} == {"1.0.3 -> 2.2.0"}


def test_upgrade_mode_fix_migrates(project):
    result = run_cli("--no-cache", "--target-version", "mem0ai==2.2", "--fix", str(project))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (project / "app.py").read_text() == MIGRATED
    again = run_cli("--no-cache", "--target-version", "mem0ai==2.2", str(project))
    assert again.exit_code == 0


def test_target_versions_in_the_configuration(project):
    (project / "pyproject.toml").write_text('[tool.mem0lint]\ntarget-versions = {mem0ai = "2.2"}\n')
    result = run_cli("--no-cache", "--output-format", "json", str(project / "app.py"))
    assert {f["kind"] for f in json.loads(result.stdout)} == {"upgrade"}


def test_a_bad_target_version_is_a_usage_error(project):
    result = run_cli("--target-version", "mem0ai>=2", str(project))
    assert result.exit_code == 2
    (project / "pyproject.toml").write_text('[tool.mem0lint]\ntarget-versions = {numpy = "1"}\n')
    result = run_cli("--no-cache", str(project))
    assert result.exit_code == 2 and "numpy" in result.stderr


def test_show_settings_says_which_release_and_where_from(project):
    result = run_cli("--show-settings", str(project / "app.py"))
    assert f"sdk mem0: mem0ai 1.0.3  # from {project / 'requirements.txt'}" in result.stdout
    assert "sdk memsy: memsy 0.3.5  # from no pin found" in result.stdout
    result = run_cli("--target-version", "mem0ai==2.2", "--show-settings", str(project / "app.py"))
    assert "sdk mem0: mem0ai 2.2.0  # from configuration (the project installs 1.0.3" in (
        result.stdout
    )


def test_a_fork_is_silent_and_said_once(project):
    (project / "requirements.txt").write_text("mem0-polardb==0.2.0\n")
    (project / "other.py").write_text(APP)
    result = run_cli("--no-cache", str(project))
    assert result.exit_code == 0
    assert result.stderr.count("provided by mem0-polardb") == 1


def test_an_unknown_version_is_said_once_per_run(project):
    (project / "requirements.txt").write_text("mem0ai==2.0.9\n")  # never released
    (project / "other.py").write_text(APP)
    result = run_cli("--no-cache", "--output-format", "json", str(project))
    assert result.stderr.count("no data for mem0ai 2.0.9") == 1
    assert {f["sdk_version"] for f in json.loads(result.stdout)} == {"2.0.8"}


def test_the_cache_notices_a_changed_pin(project, tmp_path_factory):
    cache = str(tmp_path_factory.mktemp("cache"))
    first = run_cli("--cache-dir", cache, "--output-format", "json", str(project))
    assert json.loads(first.stdout) == []
    (project / "requirements.txt").write_text("mem0ai==2.0.0\n")
    second = run_cli("--cache-dir", cache, "--output-format", "json", str(project))
    assert [f["code"] for f in json.loads(second.stdout)] == ["MEM101", "MEM121"]
    (project / "requirements.txt").write_text("mem0ai==1.0.3\n")
    third = run_cli("--cache-dir", cache, "--output-format", "json", str(project))
    assert json.loads(third.stdout) == []


def test_stdin_is_judged_by_the_project_of_its_filename(project):
    named = str(project / "app.py")
    old = run_cli("-", "--stdin-filename", named, "--output-format", "json", input=APP)
    assert json.loads(old.stdout) == []
    (project / "requirements.txt").write_text("mem0ai==2.0.0\n")
    new = run_cli("-", "--stdin-filename", named, "--output-format", "json", input=APP)
    assert [f["code"] for f in json.loads(new.stdout)] == ["MEM101", "MEM121"]


def test_every_range_starts_at_a_release_of_the_timeline():
    from mem0lint.sdk import releases

    starts = {
        "mem0ai": {
            ">=" + release
            for release in (
                releases.V1,
                releases.FROM_CONFIG_SYNC,
                releases.V2,
                releases.EMPTY_QUERY_REJECTED,
                releases.OSS_REFERENCE_DATE,
                releases.UPDATE_OPTIONAL,
                releases.OSS_UPDATE_TEXT,
                releases.OSS_ADD_KEYWORD_ONLY,
                releases.OSS_EXPIRATION_DATE,
                releases.OSS_METADATA_IDENTITY,
                releases.ASYNC_CLIENT,
                releases.OSS_RESULTS_CONFIG,
                releases.OSS_RESULTS_DEFAULT,
                releases.ATTRIBUTES_READ,
            )
        },
        "memsy": {">=" + releases.MEMSY_SESSIONS},
        "memoryos": {">=" + releases.MEMOS_CLIENT},
    }
    assert all_rules()["MEM121"].versions == {"mem0ai": ">=" + releases.FROM_CONFIG_SYNC}
    # A range may also end (`<` a release of the timeline): a rule of old releases only.
    bounds = {name: ends | {"<" + end[2:] for end in ends} for name, ends in starts.items()}
    for code, rule in all_rules().items():
        for distribution, specifier in rule.versions.items():
            clauses = specifier.split(",")
            assert all(clause in bounds[distribution] for clause in clauses), code
            assert sum(clause.startswith(">=") for clause in clauses) <= 1, code
