"""Judge findings (or compile one kernel's memory plans) in a child process.

The parent calls :func:`replay_in_subprocess` / :func:`memory_in_subprocess`; the child
(``python -m ascend_lint.runtime_check.replay_child TASK RESULT``) runs each job's backend in
turn — one process for a batch of jobs pays the imports (torch, triton, the user's package) once
— and rewrites the result after each job. A crash, a hang (killed at the timeout), a missing
toolchain or an exception becomes an INCONCLUSIVE verdict with the reason for the jobs it left
without an outcome, and the other findings still get theirs.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ascend_lint.socs import DEFAULT_SOC

from . import backends, device
from .capture.launches import KernelRef, Launch
from .capture.workload import Workload
from .jobs import ReplayJob
from .process import run_child
from .targets import compile_target
from .toolchain import ToolchainMissing
from .verdicts import Outcome, inconclusive

WORKLOAD_BACKENDS = frozenset({"interpret"})  # backends whose replay runs the workload again, in the interpreter


def replay_in_subprocess(job: ReplayJob, timeout: float) -> Outcome:
    """Judge ``job`` in a child process; INCONCLUSIVE with the reason when the child fails."""
    return replay_batch_in_subprocess([job], timeout)[0]


def replay_batch_in_subprocess(jobs: list[ReplayJob], timeout: float) -> list[Outcome]:
    """Judge ``jobs`` one after the other in one child process, allowed ``timeout`` seconds each,
    and ``timeout`` more for each job that runs the workload again (the interpret backend: the
    workload run is stopped at ``timeout``, as the capture is, and its launches still replayed)."""
    allowed = timeout * sum(2 if job.backend in WORKLOAD_BACKENDS else 1 for job in jobs)
    data = [{**job.to_json(), "timeout": timeout} for job in jobs]
    finished = run_child(__name__, {"kind": "replay", "jobs": data}, allowed)
    outcomes = [Outcome.from_json(data) for data in finished.result or []]
    failure = finished.failure(allowed)
    outcomes += [inconclusive(job.finding, job.backend, failure) for job in jobs[len(outcomes) :]]
    if len(jobs) == 1:
        outcomes[0].seconds = finished.seconds
    return outcomes


def memory_in_subprocess(
    kernel: KernelRef,
    launches: list[Launch],
    workload: Workload,
    model: str,
    timeout: float,
    soc: str = DEFAULT_SOC.name,
) -> list[dict[str, Any]]:
    """The kernel's planned memory for each launch, compiled in a child process for a model of
    the `target-soc` family ``soc`` (``model`` when it is one)."""
    task = {
        "kind": "memory",
        "kernel": vars(kernel),
        "launches": [x.to_json() for x in launches],
        "workload": workload.to_json(),
        "device": model,
        "soc": soc,
    }
    finished = run_child(__name__, task, timeout)
    if finished.result is None:
        return [{"kernel": kernel.name, "file": kernel.file, "error": finished.failure(timeout), "scopes": []}]
    plans: list[dict[str, Any]] = finished.result
    return plans


def _judge(job: ReplayJob, workdir: Path) -> dict[str, Any]:
    sys.path[:0] = job.workload.sys_path()
    os.environ.update(backends.BACKENDS[job.backend].environment if job.backend in backends.BACKENDS else ())
    try:
        reason = backends.unavailable(job.backend)
        if reason:
            return inconclusive(job.finding, job.backend, reason).to_json()
        if job.backend != "npu":
            device.install(job.device)
        judge: Callable[[ReplayJob, Path], Outcome] = backends.load(backends.BACKENDS[job.backend].entry)
        return judge(job, workdir).to_json()
    except ToolchainMissing as missing:
        return inconclusive(job.finding, job.backend, str(missing)).to_json()
    except Exception as exc:
        where = traceback.format_exc(limit=-2).strip().splitlines()[-3:]
        reason = f"the replay failed: {type(exc).__name__}: {exc}\n" + "\n".join(where)
        return inconclusive(job.finding, job.backend, reason).to_json()


def _write(path: Path, result: Any) -> None:
    """Replace the result file at once: the parent may read it after killing this process."""
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(result))
    os.replace(partial, path)


def _judge_all(task: dict[str, Any], workdir: Path, out: Path) -> None:
    outcomes: list[dict[str, Any]] = []
    for number, data in enumerate(task["jobs"]):
        start = time.perf_counter()
        (workdir / str(number)).mkdir()
        outcome = _judge(ReplayJob.from_json(data), workdir / str(number))
        outcome["seconds"] = round(time.perf_counter() - start, 3)
        outcomes.append(outcome)
        _write(out, outcomes)


def _memory(task: dict[str, Any], workdir: Path) -> list[dict[str, Any]]:
    from .compile.compiler import memory_plans

    sys.path[:0] = Workload.from_json(task["workload"]).sys_path()
    device.install(task["device"])
    launches = [Launch.from_json(x) for x in task["launches"]]
    target = compile_target(task["soc"], task["device"])
    return memory_plans(KernelRef(**task["kernel"]), launches, workdir, task["device"], target)


def main(argv: list[str]) -> int:
    task, out = json.loads(Path(argv[0]).read_text()), Path(argv[1])
    with tempfile.TemporaryDirectory(prefix="ascend-lint-replay-") as workdir:
        if task["kind"] == "replay":
            _judge_all(task, Path(workdir), out)
        else:
            _write(out, _memory(task, Path(workdir)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
