"""Child processes with a timeout: every piece of user code (workloads, kernel modules) runs in one.

``run_child(module, task, timeout)`` writes the task as JSON and starts ``python -m module TASK
RESULT`` with this process's package root first on ``sys.path`` — so the child runs the same
ascend_lint whatever its working directory holds (a source checkout next to an installed
wheel, another worktree). The child writes RESULT; a crash, a hang (its process group is
killed at the timeout) or a missing result becomes a :class:`Finished` without a result, and
the caller turns that into an INCONCLUSIVE verdict with the reason. The child's temporary
files go to a directory this process removes afterwards (``TMPDIR``), also when the child was
killed.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import ascend_lint

_STDERR_TAIL = 6  # lines of a failed child's stderr shown in the reason
_STDERR_KEPT = 64 * 1024  # bytes of stderr read back (a child may print gigabytes)
PACKAGE_ROOT = str(Path(ascend_lint.__file__).resolve().parents[1])
_BOOTSTRAP = (
    "import runpy, sys; root, module = sys.argv[1:3]; del sys.argv[1:3]; sys.path.insert(0, root); "
    "runpy.run_module(module, run_name='__main__', alter_sys=True)"
)
T = TypeVar("T")


@dataclass
class Finished:
    """What a child process left: its result (if any), exit code, stderr tail and duration."""

    result: Any
    returncode: int | None
    stderr: str
    seconds: float
    timed_out: bool = False

    def failure(self, timeout: float) -> str:
        """Why the child left no result, in one sentence and the tail of its stderr."""
        if self.timed_out:
            return f"timed out after {timeout:g} s"
        code = self.returncode or 0
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            how = f"was killed by signal {name}"
        else:
            how = f"exited with code {code} without a result"
        tail = "\n".join(self.stderr.strip().splitlines()[-_STDERR_TAIL:])
        return f"the child process {how}" + (f":\n{tail}" if tail else "")


def run_child(module: str, task: Any, timeout: float) -> Finished:
    """Run ``python -m module TASK RESULT`` with JSON files; kill its process group at the timeout."""
    with tempfile.TemporaryDirectory(prefix="ascend-lint-") as tmp:
        task_path, result_path = Path(tmp) / "task.json", Path(tmp) / "result.json"
        task_path.write_text(json.dumps(task))
        child_tmp = Path(tmp) / "tmp"
        child_tmp.mkdir()
        start = time.perf_counter()
        with open(Path(tmp) / "stderr", "w+b") as stderr:
            child = subprocess.Popen(
                [sys.executable, "-c", _BOOTSTRAP, PACKAGE_ROOT, module, str(task_path), str(result_path)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env={**os.environ, "TMPDIR": str(child_tmp)},
                start_new_session=True,
            )
            try:
                child.wait(timeout=timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                timed_out = True
            with contextlib.suppress(ProcessLookupError):  # also what the child left running
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            stderr.seek(max(0, stderr.seek(0, os.SEEK_END) - _STDERR_KEPT))
            text = stderr.read().decode(errors="replace")
        seconds = time.perf_counter() - start
        result = json.loads(result_path.read_text()) if result_path.exists() else None
        return Finished(result, child.returncode, text, seconds, timed_out)


def run_all(tasks: Sequence[Callable[[], T]], jobs: int, done: Callable[[int, T], None]) -> list[T]:
    """Run tasks on ``jobs`` threads (each starts its own subprocess); report each as it ends."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(task) for task in tasks]
        results = []
        for index, future in enumerate(futures):
            results.append(future.result())
            done(index, results[-1])
    return results
