"""Each replay in its own subprocess, with a timeout.

The parent writes a task file and starts ``python -m ascend_lint.runtime_check.worker TASK
RESULT``; the child runs the backend and writes the result file. A crash, a hang (killed at the
timeout), a missing toolchain or an exception becomes an INCONCLUSIVE verdict with the reason,
and the other findings still get theirs.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ascend_lint

from . import backends
from .capture import Capture, KernelRef, Launch
from .jobs import ReplayJob
from .toolchain import ToolchainMissing
from .verdicts import Outcome, inconclusive

_STDERR_TAIL = 6
# The directory that holds the ascend_lint package this process imported. A child puts it first
# on sys.path, so it runs the same code whatever its working directory holds (a source checkout
# next to an installed wheel, another worktree).
PACKAGE_ROOT = str(Path(ascend_lint.__file__).resolve().parents[1])
_BOOTSTRAP = (
    "import runpy, sys; root, module = sys.argv[1:3]; del sys.argv[1:3]; sys.path.insert(0, root); "
    "runpy.run_module(module, run_name='__main__', alter_sys=True)"
)


@dataclass
class Finished:
    """What a child process left: its result (if any), exit code, stderr tail and duration."""

    result: Any
    returncode: int | None
    stderr: str
    seconds: float
    timed_out: bool = False

    def failure(self, timeout: float) -> str:
        if self.timed_out:
            return f"timed out after {timeout:g} s"
        tail = "\n".join(self.stderr.strip().splitlines()[-_STDERR_TAIL:])
        return f"the replay process crashed (exit code {self.returncode})" + (f":\n{tail}" if tail else "")


def run_child(module: str, task: Any, timeout: float, cwd: str | None = None) -> Finished:
    """Run ``python -m module TASK RESULT`` with JSON files; kill its process group at the timeout."""
    with tempfile.TemporaryDirectory(prefix="ascend-lint-") as tmp:
        task_path, result_path = Path(tmp) / "task.json", Path(tmp) / "result.json"
        task_path.write_text(json.dumps(task))
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-c", _BOOTSTRAP, PACKAGE_ROOT, module, str(task_path), str(result_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            start_new_session=True,
        )
        try:
            _, stderr = child.communicate(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            _, stderr = child.communicate()
            timed_out = True
        seconds = time.perf_counter() - start
        result = json.loads(result_path.read_text()) if result_path.exists() else None
        return Finished(result, child.returncode, stderr, seconds, timed_out)


def capture(workload: Path, timeout: float) -> Capture:
    """Run the workload in a subprocess with launches captured."""
    finished = run_child("ascend_lint.runtime_check.capture", str(workload.resolve()), timeout)
    if finished.result is None:
        return Capture(workload=str(workload), error=f"the workload could not run: {finished.failure(timeout)}")
    return Capture.from_json(finished.result)


def replay(job: ReplayJob, timeout: float) -> Outcome:
    finished = run_child(__name__, {"kind": "replay", "job": job.to_json()}, timeout)
    if finished.result is None:
        return inconclusive(job.finding, job.backend, finished.failure(timeout), finished.seconds)
    outcome = Outcome.from_json(finished.result)
    outcome.seconds = finished.seconds
    return outcome


def memory(kernel: KernelRef, launches: list[Launch], sys_path: list[str], timeout: float) -> list[dict]:
    task = {"kind": "memory", "kernel": vars(kernel), "launches": [x.to_json() for x in launches], "sys_path": sys_path}
    finished = run_child(__name__, task, timeout)
    if finished.result is None:
        return [{"kernel": kernel.name, "file": kernel.file, "error": finished.failure(timeout), "scopes": []}]
    return finished.result


def run_all(tasks: list[Callable[[], Any]], jobs: int, done: Callable[[int, Any], None]) -> list[Any]:
    """Run tasks on ``jobs`` threads (each starts its own subprocess); report each as it ends."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(task) for task in tasks]
        results = []
        for index, future in enumerate(futures):
            results.append(future.result())
            done(index, results[-1])
    return results


def _backend_function(name: str) -> Callable:
    module, _, function = backends.BACKENDS[name].replay.partition(":")
    return getattr(importlib.import_module(module), function)


def _child_replay(task: dict, workdir: Path) -> dict:
    job = ReplayJob.from_json(task["job"])
    sys.path[:0] = job.sys_path
    try:
        reason = backends.unavailable(job.backend)
        if reason:
            return inconclusive(job.finding, job.backend, reason).to_json()
        return _backend_function(job.backend)(job, workdir).to_json()
    except ToolchainMissing as missing:
        return inconclusive(job.finding, job.backend, str(missing)).to_json()
    except Exception as exc:
        where = traceback.format_exc(limit=-2).strip().splitlines()[-3:]
        reason = f"the replay failed: {type(exc).__name__}: {exc}\n" + "\n".join(where)
        return inconclusive(job.finding, job.backend, reason).to_json()


def _child_memory(task: dict, workdir: Path) -> list[dict]:
    from .compile_backend import memory_plans

    sys.path[:0] = task["sys_path"]
    launches = [Launch.from_json(x) for x in task["launches"]]
    return memory_plans(KernelRef(**task["kernel"]), launches, workdir)


def main(argv: list[str]) -> int:
    task = json.loads(Path(argv[0]).read_text())
    handler = {"replay": _child_replay, "memory": _child_memory}[task["kind"]]
    with tempfile.TemporaryDirectory(prefix="ascend-lint-replay-") as workdir:
        result = handler(task, Path(workdir))
    Path(argv[1]).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
