"""Imported by the fork server only (batch.start_server preloads it): the server ends at once.

When the run is done with it, the server leaves its loop and Python would tear down every module
it imported (libcst's ~350 node classes, the rules): 28 ms with the run's process waiting for
it (batch.stop_workers waits, so that the workers' time and memory are counted as its children's).
Nothing is left to do by then: every worker has exited and been reaped (the pool's shutdown
waited for the server to report each one's exit), and the server writes no file. Workers are
forked from the server after this import, but a worker ends with `os._exit` and never runs it.
"""

import atexit
import os

atexit.register(os._exit, 0)
