"""`mem0lint server`, end to end: a real LSP client (pytest-lsp) talks to `python -m mem0lint
server` over stdio. Diagnostics on open, change and save; each code action; configuration
reload; a notebook; a Markdown page."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

BAD = textwrap.dedent(
    """\
    from mem0 import MemoryClient

    client = MemoryClient()
    client.search("q", filters={"$and": [{"user_id": "u"}]}, limit=3)
    """
)
GOOD = BAD.replace('"$and"', '"AND"').replace("limit=", "top_k=")


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mem0lint", "server"])
)
async def client(lsp_client: LanguageClient):
    lsp_client.registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(ls, params: types.RegistrationParams) -> None:
        ls.registrations.extend(params.registrations)

    capabilities = client_capabilities("visual-studio-code")
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities, root_uri=None)
    )
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mem0lint", "server"])
)
async def patient_client(lsp_client: LanguageClient):
    """A client whose server waits 3 s after a change before linting it."""

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(ls, params: types.RegistrationParams) -> None:
        return None

    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options={"debounce": 3},
        )
    )
    yield
    await lsp_client.shutdown_session()


async def published(client: LanguageClient, uri: str, timeout: float = 30.0) -> list:
    """The next diagnostics published for `uri` (callers pop the old ones first)."""

    async def wait() -> list:
        while uri not in client.diagnostics:
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(wait(), timeout)


def codes(diagnostics: list) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


def open_text(client: LanguageClient, path: Path, text: str, language: str = "python") -> str:
    path.write_text(text)
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id=language, version=1, text=text
            )
        )
    )
    return uri


def change(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions; the test texts are ASCII) to `text`."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def at(position: types.Position) -> int:
        return offsets[position.line] + position.character

    for edit in sorted(edits, key=lambda e: at(e.range.start), reverse=True):
        text = text[: at(edit.range.start)] + edit.new_text + text[at(edit.range.end) :]
    return text


async def actions(client, uri: str, diagnostics: list, only=None, line: int = 3) -> list:
    everywhere = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=line, character=200)
    )
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=everywhere,
            context=types.CodeActionContext(diagnostics=diagnostics, only=only),
        )
    )
    return result or []


@pytest.mark.asyncio
async def test_diagnostics_on_open_change_and_save(client: LanguageClient, tmp_path):
    uri = open_text(client, tmp_path / "app.py", BAD)
    found = await published(client, uri)
    assert codes(found) == ["MEM102", "MEM201"]
    mem201 = next(d for d in found if d.code == "MEM201")
    # 0-based: row 4 column 29 of the CLI is line 3, character 28.
    assert (mem201.range.start.line, mem201.range.start.character) == (3, 28)
    assert mem201.source == "mem0lint"
    assert mem201.severity == types.DiagnosticSeverity.Error

    change(client, uri, GOOD, 2)
    assert await published(client, uri) == []

    change(client, uri, BAD.replace(", limit=3", ""), 3)
    assert codes(await published(client, uri)) == ["MEM201"]

    client.diagnostics.pop(uri, None)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert codes(await published(client, uri)) == ["MEM201"]


@pytest.mark.asyncio
async def test_changes_are_debounced_into_one_lint(client: LanguageClient, tmp_path):
    uri = open_text(client, tmp_path / "app.py", GOOD)
    assert await published(client, uri) == []
    count = {"n": 0}
    original = client.diagnostics

    class Counting(dict):
        def __setitem__(self, key, value):
            if key == uri:
                count["n"] += 1
            super().__setitem__(key, value)

    client.diagnostics = Counting(original)
    client.diagnostics.pop(uri, None)
    for version in range(2, 12):  # ten quick keystrokes
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=BAD)],
            )
        )
    assert codes(await published(client, uri)) == ["MEM102", "MEM201"]
    await asyncio.sleep(0.5)
    assert count["n"] == 1


@pytest.mark.asyncio
async def test_a_syntax_error_is_a_diagnostic(client: LanguageClient, tmp_path):
    uri = open_text(
        client, tmp_path / "broken.py", "from mem0 import MemoryClient\nclient.search(\n"
    )
    [found] = await published(client, uri)
    assert found.code == "MEM001"
    assert (found.range.start.line, found.range.start.character) == (1, 13)


@pytest.mark.asyncio
async def test_the_quick_fix_of_one_finding(client: LanguageClient, tmp_path):
    uri = open_text(client, tmp_path / "app.py", BAD)
    found = await published(client, uri)
    mem201 = next(d for d in found if d.code == "MEM201")
    offered = await actions(client, uri, [mem201])
    fixes = [
        a for a in offered if a.kind == types.CodeActionKind.QuickFix and "noqa" not in a.title
    ]
    fix = next(a for a in fixes if a.title.startswith("MEM201"))
    assert fix.is_preferred is True
    assert "unsafe" not in fix.title
    after = apply(BAD, fix.edit.changes[uri])
    assert '"AND"' in after and "limit=3" in after  # this finding's fix only


@pytest.mark.asyncio
async def test_an_unsafe_fix_is_labelled_and_not_preferred(client: LanguageClient, tmp_path):
    # MEM109's documented example: its fix is unsafe (the CLI's JSON says so too).
    from tests.conftest import run_cli

    source = (
        "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
        'client.get_all(filters={"user_id": "alice"}, top_k=20)\n'
    )
    path = tmp_path / "unsafe.py"
    path.write_text(source)
    findings = json.loads(run_cli("--output-format", "json", str(path)).stdout)
    unsafe_codes = {
        f["code"] for f in findings if f["fix"] and f["fix"]["applicability"] == "unsafe"
    }
    assert unsafe_codes, findings  # the example must hold an unsafe fix
    uri = open_text(client, path, source)
    found = await published(client, uri)
    offered = await actions(client, uri, found)
    unsafe = [a for a in offered if a.title.split(":")[0] in unsafe_codes and "noqa" not in a.title]
    assert unsafe
    for action in unsafe:
        assert "unsafe" in action.title
        assert not action.is_preferred


@pytest.mark.asyncio
async def test_fix_all_applies_safe_fixes_only(client: LanguageClient, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.mem0lint]\nunsafe-fixes = true\n")
    uri = open_text(client, tmp_path / "app.py", BAD)
    await published(client, uri)
    offered = await actions(client, uri, [], only=["source.fixAll.mem0lint"])
    [fix_all] = offered
    assert fix_all.kind == "source.fixAll.mem0lint"
    after = apply(BAD, fix_all.edit.changes[uri])
    from tests.conftest import run_cli

    fixed = tmp_path / "fixed.py"
    fixed.write_text(BAD)
    run_cli("--fix", str(fixed))  # the CLI's safe fixes, as a reference
    assert after == fixed.read_text()


@pytest.mark.asyncio
async def test_add_noqa_silences_the_finding(client: LanguageClient, tmp_path):
    uri = open_text(client, tmp_path / "app.py", BAD)
    found = await published(client, uri)
    mem201 = next(d for d in found if d.code == "MEM201")
    offered = await actions(client, uri, [mem201])
    noqa = next(a for a in offered if a.title == "MEM201: add `# noqa: MEM201`")
    after = apply(BAD, noqa.edit.changes[uri])
    assert after.splitlines()[3].endswith("limit=3)  # noqa: MEM201")
    change(client, uri, after, 2)
    assert codes(await published(client, uri)) == ["MEM102"]
    # A second code joins the same comment.
    found = client.diagnostics[uri]
    offered = await actions(client, uri, found)
    noqa = next(a for a in offered if a.title == "MEM102: add `# noqa: MEM102`")
    after = apply(after, noqa.edit.changes[uri])
    assert after.splitlines()[3].endswith("# noqa: MEM201, MEM102")


@pytest.mark.asyncio
async def test_configuration_is_reloaded_when_pyproject_changes(client: LanguageClient, tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.mem0lint]\n")
    uri = open_text(client, tmp_path / "app.py", BAD)
    assert codes(await published(client, uri)) == ["MEM102", "MEM201"]
    pyproject.write_text('[tool.mem0lint]\nignore = ["MEM201"]\n')
    client.diagnostics.pop(uri, None)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=pyproject.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    assert codes(await published(client, uri)) == ["MEM102"]
    # The server asked the client to watch pyproject.toml files.
    watched = [r for r in client.registrations if r.method == "workspace/didChangeWatchedFiles"]
    assert watched and "pyproject.toml" in json.dumps(
        client.protocol._converter.unstructure(watched[0].register_options)
    )


@pytest.mark.asyncio
async def test_a_notebook_is_linted_as_one_program(client: LanguageClient, tmp_path):
    notebook_uri = (tmp_path / "book.ipynb").as_uri()
    cells = [
        ("from mem0 import MemoryClient\nclient = MemoryClient()", types.NotebookCellKind.Code),
        ("# Searching", types.NotebookCellKind.Markup),
        ('client.search("q", filters={"$and": [{"user_id": "u"}]})', types.NotebookCellKind.Code),
    ]
    cell_uris = [f"vscode-notebook-cell:{tmp_path / 'book.ipynb'}#cell{i}" for i in range(3)]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook_uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(kind=kind, document=cell_uri)
                    for (_, kind), cell_uri in zip(cells, cell_uris)
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(
                    uri=cell_uri,
                    language_id="python" if kind == types.NotebookCellKind.Code else "markdown",
                    version=1,
                    text=text,
                )
                for (text, kind), cell_uri in zip(cells, cell_uris)
            ],
        )
    )
    found = await published(client, cell_uris[2])
    assert codes(found) == ["MEM201"]
    assert (found[0].range.start.line, found[0].range.start.character) == (0, 28)
    assert await published(client, cell_uris[0]) == []
    # A cell edited: the notebook is linted again.
    client.diagnostics.pop(cell_uris[2], None)
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(
                uri=notebook_uri, version=2
            ),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(
                                uri=cell_uris[2], version=2
                            ),
                            changes=[
                                types.TextDocumentContentChangeWholeDocument(
                                    text='client.search("q", filters={"AND": [{"user_id": "u"}]})'
                                )
                            ],
                        )
                    ]
                )
            ),
        )
    )
    assert await published(client, cell_uris[2]) == []


@pytest.mark.asyncio
async def test_a_markdown_page(client: LanguageClient, tmp_path):
    page = f"# Search\n\nSome text.\n\n```python\n{BAD}```\n"
    uri = open_text(client, tmp_path / "guide.md", page, language="markdown")
    found = await published(client, uri)
    assert codes(found) == ["MEM102", "MEM201"]
    mem201 = next(d for d in found if d.code == "MEM201")
    assert mem201.range.start.line == 8  # the row in the page, 0-based
    offered = await actions(client, uri, found, only=["source.fixAll.mem0lint"], line=10)
    [fix_all] = offered
    after = apply(page, fix_all.edit.changes[uri])
    assert '"AND"' in after and after.startswith("# Search\n")


def test_the_command_line_does_not_import_pygls():
    import subprocess

    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from mem0lint.cli import main\n"
        "CliRunner().invoke(main, ['--version'])\n"
        "assert 'pygls' not in sys.modules and 'lsprotocol' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_server_command_is_listed_and_starts(tmp_path):
    """`mem0lint server` answers an LSP `initialize` on stdio (a raw exchange, no client
    library), and says it offers the fix-all code action kind and notebook sync."""
    import subprocess

    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "processId": None,
                "rootUri": None,
                "capabilities": {"notebookDocument": {"synchronization": {}}},
            },
        }
    )
    exit_ = json.dumps({"jsonrpc": "2.0", "method": "exit"})
    message = "".join(f"Content-Length: {len(b)}\r\n\r\n{b}" for b in (body, exit_))
    done = subprocess.run(
        [sys.executable, "-m", "mem0lint", "server"],
        input=message.encode(),
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    reply = done.stdout.decode()
    payload = json.loads(reply[reply.index("{") :])
    capabilities = payload["result"]["capabilities"]
    assert "source.fixAll.mem0lint" in capabilities["codeActionProvider"]["codeActionKinds"]
    assert capabilities["notebookDocumentSync"]["notebookSelector"]
    assert payload["result"]["serverInfo"]["name"] == "mem0lint"


@pytest.mark.asyncio
async def test_other_kinds_of_files_are_left_alone(client: LanguageClient, tmp_path):
    uri = open_text(client, tmp_path / "notes.txt", "def f(:\n", language="plaintext")
    assert await published(client, uri) == []
    # A script without a suffix, in Python: read as Python.
    uri = open_text(client, tmp_path / "tool", BAD, language="python")
    assert codes(await published(client, uri)) == ["MEM102", "MEM201"]


@pytest.mark.asyncio
async def test_code_actions_right_after_a_change_use_the_new_text(
    patient_client: LanguageClient, tmp_path
):
    client = patient_client
    uri = open_text(client, tmp_path / "app.py", GOOD)
    assert await published(client, uri) == []
    # Asked before the debounced lint ran: the actions are computed on the changed text.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=BAD)],
        )
    )
    offered = await actions(client, uri, [])
    titles = [a.title for a in offered]
    assert any(t.startswith("MEM201") and "noqa" not in t for t in titles), titles


@pytest.mark.asyncio
async def test_changes_arriving_while_linting_are_coalesced(client: LanguageClient, tmp_path):
    """No fixed sleep after a change: the server lints at once, in a worker thread, and reads
    the client's messages meanwhile. Edits that arrive during a lint are coalesced into one lint
    of the newest text, and a lint whose text changed meanwhile publishes nothing (its
    positions would be stale). Here ten edits arrive while the long first lint runs: the client
    sees the newest text's diagnostics, and never those of an older version."""
    header = "from mem0 import MemoryClient\n\nclient = MemoryClient()\n"
    body = "".join(
        f"\n\ndef f{n}(q):\n"
        f"    return client.search(q, filters={{'$and': [{{'user_id': 'u'}}]}}, limit=3)\n"
        for n in range(300)
    )

    def version_text(version: int) -> str:  # `version` comment lines push every finding down
        return header + "# edit\n" * version + body

    path = tmp_path / "big.py"
    path.write_text(version_text(1))
    uri = path.as_uri()
    seen: list[list] = []
    original = client.diagnostics

    class Recording(dict):
        def __setitem__(self, key, value):
            if key == uri:
                seen.append(list(value))
            super().__setitem__(key, value)

    client.diagnostics = Recording(original)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=version_text(1)
            )
        )
    )
    for version in range(2, 12):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangeWholeDocument(text=version_text(version))
                ],
            )
        )
    first_finding = 3 + 11 + 2 + 1  # 0-based: the header, 11 comment lines, 2 blank, the def

    async def newest() -> None:
        while not seen or min(d.range.start.line for d in seen[-1]) != first_finding:
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    await asyncio.wait_for(newest(), 120)
    await asyncio.sleep(0.5)
    assert len(seen) == 1, [min(d.range.start.line for d in found) for found in seen]
    assert min(d.range.start.line for d in seen[-1]) == first_finding
    assert codes(seen[-1]).count("MEM201") == 300
