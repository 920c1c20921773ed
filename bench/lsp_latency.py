"""How long from a `textDocument/didChange` to the published diagnostics, for a 2,000-line file.

Starts `python -m mem0lint server` over stdio with a real LSP client (pygls), opens a generated
2,000-line module full of memory-SDK calls (right and wrong ones, and ordinary code), then edits
one line at a time (as typing does, each change a whole new version) and times each round trip:
didChange sent -> publishDiagnostics received. The server's debounce (server.DEBOUNCE) is part of
the figure, as it is for a user. Not a unit test: run it by hand.

    python bench/lsp_latency.py            # 20 edits; prints the median and the worst
    python bench/lsp_latency.py --edits 50
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

LINES = 2000

HEADER = """\
from __future__ import annotations

import logging
import os

from mem0 import Memory, MemoryClient

log = logging.getLogger(__name__)
client = MemoryClient(api_key=os.environ.get("MEM0_API_KEY", "key"))
memory = Memory()
"""

# Ordinary code: what most of a service module is.
PLAIN = """\


def summarise_{n}(rows: list[dict], key: str = "score") -> dict:
    \"\"\"Block {n}: bookkeeping without any memory SDK.\"\"\"
    total = sum(float(row.get(key, 0)) for row in rows)
    best = max(rows, key=lambda row: row.get(key, 0)) if rows else None
    names = sorted({{str(row.get("name", "")) for row in rows}})
    log.debug("block %s: %d rows, total %.2f", {n}, len(rows), total)
    return {{"total": total, "best": best, "names": names, "block": {n}}}
"""

BLOCK = """\


def recall_{n}(user_id: str, query: str, kind: str = "note") -> list:
    \"\"\"Block {n}: one right call, one wrong one, and ordinary code.\"\"\"
    cutoff = {n} % 7 + 1
    hits = client.search(query, filters={{"AND": [{{"user_id": user_id}}]}}, top_k=cutoff)
    more = client.search(query, filters={{"$and": [{{"user_id": user_id}}]}}, limit=3)
    found = memory.search(query, user_id=user_id, limit=5)
    log.debug("block %s: %d + %d + %d", {n}, len(hits), len(more), len(found))
    return [item for item in (hits, more, found) if item and kind]
"""


def module(lines: int = LINES, every: int = 10) -> str:
    """`every`: one block in this many calls the SDKs (1: every block, the dense worst case)."""
    text, n = HEADER, 0
    while text.count("\n") + BLOCK.count("\n") <= lines:
        text += (BLOCK if n % every == 0 else PLAIN).format(n=n)
        n += 1
    while text.count("\n") < lines:
        text += "\n"
    return text


async def measure(edits: int, every: int) -> list[float]:
    folder = Path(tempfile.mkdtemp(prefix="mem0lint-lsp-bench-"))
    path = folder / "service.py"
    text = module(every=every)
    path.write_text(text)
    uri = path.as_uri()
    client = LanguageClient("lsp-latency", "1")
    received: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(ls, params: types.PublishDiagnosticsParams) -> None:
        received.put_nowait((time.perf_counter(), params))

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(ls, params) -> None:
        return None

    await client.start_io(sys.executable, "-m", "mem0lint", "server")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )
    _, first = await received.get()  # the first lint imports libcst and the rules
    print(f"{LINES}-line file, {len(first.diagnostics)} diagnostics on open")
    timings = []
    lines = text.split("\n")
    for version in range(2, edits + 2):
        # Typing in a block's body: the cutoff's constant changes.
        row = 12 + (version * 11) % (len(lines) - 20)
        while "total = sum(" not in lines[row] and "cutoff =" not in lines[row]:
            row = (row + 1) % len(lines)
        if "cutoff =" in lines[row]:
            lines[row] = f"    cutoff = {version} % 7 + 1"
        else:
            lines[row] = f"    total = sum(float(row.get(key, {version})) for row in rows)"
        changed = "\n".join(lines)
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=changed)],
            )
        )
        arrived, params = await received.get()
        assert params.uri == uri and params.diagnostics, "no diagnostics published"
        timings.append((arrived - sent) * 1000)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return timings


def pipeline_cpu(every: int, rounds: int = 5) -> float:
    """The CPU time (ms, best of `rounds`) of the pipeline the server runs per change, in this
    process: what the latency would be on an idle machine, less the debounce and the I/O."""
    from mem0lint import config
    from mem0lint.modes import Mode
    from mem0lint.pipeline import lint_text

    folder = Path(tempfile.mkdtemp(prefix="mem0lint-lsp-bench-"))
    data = module(every=every).encode()
    finder = config.Finder(None)
    best = float("inf")
    for _ in range(rounds + 1):  # the first imports libcst and the rules
        start = time.process_time()
        lint_text(
            data,
            folder / "service.py",
            Mode.CHECK,
            finder=finder,
            command_line=config.CommandLine(),
        )
        best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument(
        "--every",
        type=int,
        default=10,
        help="one function in EVERY calls the SDKs (default 10: 20 such functions, 60 calls; "
        "1: every function, the dense worst case)",
    )
    args = parser.parse_args()
    timings = asyncio.run(measure(args.edits, args.every))
    print(
        f"didChange -> publishDiagnostics over {len(timings)} edits: "
        f"median {statistics.median(timings):.0f} ms, "
        f"best {min(timings):.0f} ms, worst {max(timings):.0f} ms (goal: <= 300 ms)"
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"the pipeline alone: {pipeline_cpu(args.every):.0f} ms of CPU per change "
        f"(load average {load:.1f} on {os.cpu_count()} CPUs while measuring)"
    )


if __name__ == "__main__":
    main()
