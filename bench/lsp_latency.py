"""How long from a `textDocument/didChange` to the published diagnostics, for a 2,000-line file.

Starts `python -m mem0lint server` over stdio with a real LSP client (pygls), opens a generated
2,000-line module full of memory-SDK calls (right and wrong ones, and ordinary code), then edits
one line at a time (as typing does, each change a whole new version) and times each round trip:
didChange sent -> publishDiagnostics received. Whatever the server waits before linting (its
`debounce`, 0 by default: it lints as soon as its worker is free) is part of the figure, as it is
for a user. Not a unit test: run it by hand.

    python bench/lsp_latency.py            # 20 edits; prints the median, p90 and the worst
    python bench/lsp_latency.py --edits 50

It also prints `uptime` before and after (the machine is shared: a figure taken under load says
so), the server process's CPU time per change (from /proc: everything it did, reading the
message and publishing included), and the CPU time per change of the server's own path in this
process (`Mem0lintServer._run_python`: incremental re-parse, placement from the re-parse's
layout, per-statement memo, fix vetting deferred) beside a cold `lint_text` of the same text.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
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


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (Linux; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(edits: int, every: int) -> tuple[list[float], float]:
    """The round trips (ms), and the server process's CPU time per change (ms)."""
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
    pid = client._server.pid if client._server is not None else -1
    cpu_before = process_cpu(pid)
    for version in range(2, edits + 2):
        changed = edited(lines, version)
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
    cpu = (process_cpu(pid) - cpu_before) / max(edits, 1) * 1000
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return timings, cpu


def edited(lines: list[str], version: int) -> str:
    """The text after the edit of `version` (changes `lines` in place)."""
    # Typing in a block's body: the cutoff's constant changes.
    row = 12 + (version * 11) % (len(lines) - 20)
    while "total = sum(" not in lines[row] and "cutoff =" not in lines[row]:
        row = (row + 1) % len(lines)
    if "cutoff =" in lines[row]:  # never the block's own number: the text must change
        lines[row] = f"    cutoff = {version + 10_000} % 7 + 1"
    else:
        lines[row] = f"    total = sum(float(row.get(key, {version})) for row in rows)"
    return "\n".join(lines)


def pipeline_cpu(every: int, rounds: int = 10) -> tuple[float, float]:
    """The median CPU time (ms) per change of the server's path and of a cold lint of the same
    texts, in this process: the latency on an idle machine, less the debounce and the I/O."""
    from mem0lint import config
    from mem0lint.modes import Mode
    from mem0lint.pipeline import lint_text
    from mem0lint.server import Mem0lintServer
    from mem0lint.versions import Discovery

    folder = Path(tempfile.mkdtemp(prefix="mem0lint-lsp-bench-"))
    path = folder / "service.py"
    text = module(every=every)
    lines = text.split("\n")
    server = Mem0lintServer()
    server._run_python("bench", path, text.encode())  # the first imports libcst and the rules
    served, cold = [], []
    for version in range(2, rounds + 2):
        data = edited(lines, version).encode()
        start = time.process_time()
        server._run_python("bench", path, data)
        served.append(time.process_time() - start)
        start = time.process_time()
        lint_text(
            data,
            path,
            Mode.CHECK,
            finder=config.Finder(None),
            command_line=config.CommandLine(),
            discovery=Discovery(),
        )
        cold.append(time.process_time() - start)
    return statistics.median(served) * 1000, statistics.median(cold) * 1000


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
    print(f"uptime before: {uptime()}")
    before = load()
    timings, server_cpu = asyncio.run(measure(args.edits, args.every))
    after = load()
    p90 = statistics.quantiles(timings, n=10)[-1] if len(timings) > 1 else timings[0]
    print(
        f"didChange -> publishDiagnostics over {len(timings)} edits: "
        f"median {statistics.median(timings):.0f} ms, p90 {p90:.0f} ms, "
        f"best {min(timings):.0f} ms, worst {max(timings):.0f} ms (goal: <= 300 ms)"
    )
    print(f"load average (1 min) {before:.1f} before, {after:.1f} after, on {os.cpu_count()} CPUs")
    print(f"uptime after: {uptime()}")
    print(
        f"the server process's CPU per change: {server_cpu:.0f} ms (reading the change, the "
        "lint, conversion, serialisation: about the round trip on an idle machine)"
    )
    served, cold = pipeline_cpu(args.every)
    print(
        f"CPU per change, median: the server's path {served:.0f} ms, a cold lint {cold:.0f} ms "
        f"(load average {load():.1f})"
    )


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "(no uptime command)"


def load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


if __name__ == "__main__":
    main()
