"""Judge one finding (or compile one kernel's memory plans) in a child process.

The parent calls :func:`replay_in_subprocess` / :func:`memory_in_subprocess`; the child
(``python -m ascend_lint.runtime_check.replay_child TASK RESULT``) runs the job's backend and
writes the result. A crash, a hang (killed at the timeout), a missing toolchain or an exception
becomes an INCONCLUSIVE verdict with the reason, and the other findings still get theirs.
"""

from __future__ import annotations

import json
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from . import backends
from .capture.launches import KernelRef, Launch
from .jobs import ReplayJob
from .process import run_child
from .toolchain import ToolchainMissing
from .verdicts import Outcome, inconclusive


def replay_in_subprocess(job: ReplayJob, timeout: float) -> Outcome:
    """Judge ``job`` in a child process; INCONCLUSIVE with the reason when the child fails."""
    finished = run_child(__name__, {"kind": "replay", "job": job.to_json()}, timeout)
    if finished.result is None:
        return inconclusive(job.finding, job.backend, finished.failure(timeout), finished.seconds)
    outcome = Outcome.from_json(finished.result)
    outcome.seconds = finished.seconds
    return outcome


def memory_in_subprocess(
    kernel: KernelRef, launches: list[Launch], sys_path: list[str], timeout: float
) -> list[dict[str, Any]]:
    """The kernel's planned memory for each launch, compiled in a child process."""
    task = {"kind": "memory", "kernel": vars(kernel), "launches": [x.to_json() for x in launches], "sys_path": sys_path}
    finished = run_child(__name__, task, timeout)
    if finished.result is None:
        return [{"kernel": kernel.name, "file": kernel.file, "error": finished.failure(timeout), "scopes": []}]
    return finished.result


def _judge(task: dict[str, Any], workdir: Path) -> dict[str, Any]:
    job = ReplayJob.from_json(task["job"])
    sys.path[:0] = job.sys_path
    try:
        reason = backends.unavailable(job.backend)
        if reason:
            return inconclusive(job.finding, job.backend, reason).to_json()
        return backends.load(backends.BACKENDS[job.backend].entry)(job, workdir).to_json()
    except ToolchainMissing as missing:
        return inconclusive(job.finding, job.backend, str(missing)).to_json()
    except Exception as exc:
        where = traceback.format_exc(limit=-2).strip().splitlines()[-3:]
        reason = f"the replay failed: {type(exc).__name__}: {exc}\n" + "\n".join(where)
        return inconclusive(job.finding, job.backend, reason).to_json()


def _memory(task: dict[str, Any], workdir: Path) -> list[dict[str, Any]]:
    from .compile.compiler import memory_plans

    sys.path[:0] = task["sys_path"]
    launches = [Launch.from_json(x) for x in task["launches"]]
    return memory_plans(KernelRef(**task["kernel"]), launches, workdir)


def main(argv: list[str]) -> int:
    task = json.loads(Path(argv[0]).read_text())
    handler = {"replay": _judge, "memory": _memory}[task["kind"]]
    with tempfile.TemporaryDirectory(prefix="ascend-lint-replay-") as workdir:
        result = handler(task, Path(workdir))
    Path(argv[1]).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
