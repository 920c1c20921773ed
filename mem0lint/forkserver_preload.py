"""Imported by the check's fork server only (batch.start_server preloads it), before it forks
any worker.

What every worker needs is imported and made here, once. Else each worker imports it after
its fork, on the way to its first file. The server does it while this run discovers and
triages, on the other core. What a worker needs:
- libcst and the rules (the engine);
- the pool's worker loop (`concurrent.futures.process`);
- `batch`, and the `pipeline` whose project recipe a worker unpickles;
- what a first rule set and a first file import and compile: `packaging`'s specifiers, the SDK
  release table, libcst's native parser, the documents, the vet of safe fixes. A small program
  with a finding and a safe fix is checked here for them.
Without this, each worker paid 35-45 ms of imports and 25 ms for its first rule set after its
fork: it began its first file 65 to 90 ms after the pool asked for it, and now 20 to 35 ms after
(two-job runs on mem0's repository, timed in each process).

And the server ends at once. When the run is done with it, the server leaves its loop, and
Python would tear down every module it imported (libcst's ~350 node classes, the rules): 28 ms
with the run's process waiting for it (batch.stop_workers waits, so that the workers' time and
memory are counted as its children's). Nothing is left to do by then: every worker has exited
and been reaped (the pool's shutdown waited for the server to report each one's exit), and the
server writes no file. A worker inherits the exit hook, but ends with `os._exit` and never runs
it.
"""

import atexit
import os
from concurrent.futures import process  # noqa: F401 - the pool's worker loop
from contextlib import suppress
from pathlib import Path

from mem0lint import batch, engine, pipeline, runner  # noqa: F401 - what a worker unpickles
from mem0lint.modes import Mode
from mem0lint.settings import Settings
from mem0lint.sources import SourceFile

WARM_UP = b"from mem0 import MemoryClient\n\nMemoryClient().search('q', limit=3)\n"

# Never the server's end: where it fails, each worker does it for itself.
with suppress(Exception):
    runner.process(
        SourceFile(Path("warm_up.py")), engine.RuleSet(Settings()), Mode.CHECK, [], data=WARM_UP
    )

atexit.register(os._exit, 0)
