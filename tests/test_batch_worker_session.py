"""Ctrl-C at a terminal goes to the foreground process group; a batch worker is out of it.

A worker ignores SIGINT once it runs (the parent decides, and kills it), but it took a
few hundred milliseconds of imports to get there: Ctrl-C in that window printed a
``KeyboardInterrupt`` traceback from each starting worker under ``nonolab: interrupted``
(audit 18b: ``nonolab batch CORPUS -j 2``, SIGINT to the group 0.5 s in, 2 of 13 tries).
A worker in a session of its own is never sent the terminal's signal at all.
"""

from __future__ import annotations

import os

from nonolab.batch.guard import GuardedWorker


def test_a_worker_is_not_in_the_process_group_a_terminal_signals():
    with GuardedWorker(["native"]) as worker:
        worker.start()
        proc = worker._proc
        assert proc is not None and proc.poll() is None
        assert os.getpgid(proc.pid) != os.getpgid(0)
        assert os.getsid(proc.pid) != os.getsid(0)
