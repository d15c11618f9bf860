"""Value replays for ``--backend interpret`` and ``--backend npu``.

:func:`run_job` (in a worker subprocess; :func:`run_in_subprocess` starts one) runs one
:class:`ValueJob`: it runs the workload under triton-ascend's interpreter on CPU tensors and
captures the launches of the kernels in question (values before and after), then replays those
launches with each kernel-module variant — in the interpreter under Ascend ``tl.dot`` semantics,
or compiled on an NPU. An NPU job runs no workload: it replays the launches an interpreter job
saved (``launches_file``), so both sides see the same inputs.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .. import device
from ..capture.launches import KernelRef
from ..capture.workload import Workload
from ..capture.workload import run_workload as run_user_workload
from ..process import run_child
from ..variants import Variant, import_variant
from .interpreter import run_as_compiled
from .launches import ValueLaunch, capturing, rerun_launch

if TYPE_CHECKING:
    import numpy as np

Device = Literal["interpret", "npu"]


@dataclass(frozen=True)
class VariantRun:
    """Rerun every captured launch with a variant of the kernels' module."""

    variant: Variant
    ascend_dot: bool = False  # in the interpreter: with the Ascend lhs clobber emulated...
    dot_rows: tuple[int, ...] | None = None  # ...at the dots on these rows of the variant only
    read_rows: tuple[int, ...] | None = None  # ...visible to the read on these rows only
    read_columns: tuple[int, int] | None = None  # ...from/to these columns of its first/last row (code points, 0-based)


@dataclass
class ValueJob:
    workload: Workload
    model: str | None = None  # the simulated Ascend device (None: none, or a real NPU)
    kernel_file: str | None = None  # capture launches of the kernels defined here; None: all
    kernel_names: list[str] | None = None  # ...and only these kernels; None: all in the file
    device: Device = "interpret"  # where the replays run
    emulate_workload: bool = False  # run the workload itself under Ascend dot semantics
    replays: list[VariantRun] = field(default_factory=list)  # variants of kernel_file's module
    # interpret: also save the captured launches (with their inputs) here;
    # npu: replay the launches saved here instead of running the workload.
    launches_file: str | None = None
    workload_timeout: float | None = None  # seconds the workload may run; stopped then, its launches kept

    def wants(self, kernel: KernelRef) -> bool:
        return (self.kernel_file is None or kernel.file == os.path.realpath(self.kernel_file)) and (
            self.kernel_names is None or kernel.name in self.kernel_names
        )


@dataclass
class ReplayRun:
    """One replay's outputs, one per captured launch (None where it did not run)."""

    outputs: list[dict[str, np.ndarray[Any, Any]] | None]
    error: str | None = None
    seconds: float = 0.0
    clobbered: int = 0  # dot executions that clobbered their lhs (Ascend semantics)
    exposed: int = 0  # times the read yielded a clobbered tile (VariantRun.read_rows)


@dataclass
class ValueResult:
    launches: list[ValueLaunch]  # as captured; without inputs once returned to the parent
    workload_error: str | None = None
    launch_errors: list[str] = field(default_factory=list)  # launches the interpreter could not run
    stopped: str | None = None  # another kernel's launch the interpreter could not run
    rows: set[int] = field(default_factory=set)  # rows of the kernels' file the captured launches ran
    workload_seconds: float = 0.0
    runs: list[ReplayRun] = field(default_factory=list)  # one per job.replays, in order


def _error() -> str:
    return traceback.format_exc(limit=-3).strip()


def capture_values(job: ValueJob, result: ValueResult) -> None:
    """Run the workload in the interpreter, capturing the wanted launches into ``result``."""
    from .ascend_dot import ascend_dot_semantics  # imports triton: after TRITON_INTERPRET is set

    start = time.perf_counter()
    semantics = ascend_dot_semantics() if job.emulate_workload else nullcontext()
    expired: list[bool] = []
    with capturing(job.wants) as captured, semantics:
        try:
            with _deadline(job.workload_timeout, expired):
                result.workload_error = run_user_workload(job.workload)
        except WorkloadTimeout:
            pass
    if expired:  # the launches captured until then are replayed, as the capture keeps them
        result.workload_error = f"the workload timed out after {job.workload_timeout:g} s"
    result.workload_seconds = time.perf_counter() - start
    result.launches, result.launch_errors, result.rows = captured.launches, captured.failures, captured.rows
    result.stopped = captured.stopped


class WorkloadTimeout(KeyboardInterrupt):
    """Raised in the workload at its deadline. A KeyboardInterrupt, so that neither the
    workload's ``except Exception`` nor pytest (which stops its session on one) carries on."""


@contextmanager
def _deadline(seconds: float | None, expired: list[bool]) -> Iterator[None]:
    """Raise :class:`WorkloadTimeout` in the main thread after ``seconds`` (once; ``expired``
    records that it fired). Nothing without a limit or off the main thread."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        expired.append(True)
        raise WorkloadTimeout(f"the workload timed out after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _jit_function(module: Any, name: str) -> Any:
    """The kernel's jit function, under any ``triton.autotune`` / ``triton.heuristics``."""
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction

    kernel = getattr(module, name)
    while not isinstance(kernel, (JITFunction, InterpretedFunction)):
        kernel = kernel.fn
    return kernel


def run_variant(planned: VariantRun, launches: list[ValueLaunch], device: Device, workdir: Path) -> ReplayRun:
    from .ascend_dot import DotSites, ascend_dot_semantics  # imports triton: after TRITON_INTERPRET is set

    run = ReplayRun(outputs=[None] * len(launches))
    if not launches:
        return run
    start = time.perf_counter()
    # A job's launches all come from kernels of one file: the module the variant replaces.
    name = launches[0].kernel.module
    previous = sys.modules.get(name)
    try:
        module = import_variant(planned.variant, launches[0].kernel, workdir)
        if device == "npu":
            import torch_npu  # noqa: F401  (registers the "npu" device with torch)
        dots, reads = planned.dot_rows, planned.read_rows
        sites = (
            DotSites(
                str(module.__file__),
                None if dots is None else frozenset(dots),
                None if reads is None else frozenset(reads),
                planned.read_columns,
            )
            if dots is not None or reads is not None
            else None
        )
        with ascend_dot_semantics(sites) if planned.ascend_dot else nullcontext() as clobbers:
            for i, launch in enumerate(launches):
                kernel = _jit_function(module, launch.kernel.name)
                run.outputs[i] = rerun_launch(kernel, launch, "cpu" if device == "interpret" else "npu")
        if clobbers is not None:
            run.clobbered, run.exposed = clobbers.count, clobbers.exposed
    except Exception:
        run.error = _error()
    finally:  # the workload, run again in this process, must find the module it imports
        if previous is not None:
            sys.modules[name] = previous
    run.seconds = time.perf_counter() - start
    return run


def _without_inputs(launches: list[ValueLaunch]) -> list[ValueLaunch]:
    """What the parent process needs: no torch tensors, so it can unpickle without torch."""
    return [replace(launch, inputs={}, options={}) for launch in launches]


def run_job(job: ValueJob) -> ValueResult:
    result = ValueResult(launches=[])
    if job.device == "interpret":
        os.environ["TRITON_INTERPRET"] = "1"  # read by @triton.jit when a module is imported
        device.install(job.model)
        run_as_compiled()
        capture_values(job, result)
        if job.launches_file:
            Path(job.launches_file).write_bytes(pickle.dumps(result.launches))
    else:
        assert job.launches_file is not None, "an NPU job replays the launches an interpreter job saved"
        os.environ.pop("TRITON_INTERPRET", None)  # compile for the device
        result.launches = pickle.loads(Path(job.launches_file).read_bytes())
    with tempfile.TemporaryDirectory(prefix="ascend-lint-replays-") as workdir:
        for number, planned in enumerate(job.replays):
            result.runs.append(run_variant(planned, result.launches, job.device, Path(workdir) / str(number)))
    result.launches = _without_inputs(result.launches)
    return result


class WorkerFailed(RuntimeError):
    """The worker subprocess crashed, timed out or wrote no result."""


def run_in_subprocess(job: ValueJob, timeout: float) -> ValueResult:
    """Run ``job`` in a fresh interpreter process (user code: isolated, with a timeout)."""
    with tempfile.TemporaryDirectory(prefix="ascend-lint-value-job-") as tmp:
        job_file, result_file = Path(tmp) / "job.pkl", Path(tmp) / "result.pkl"
        job_file.write_bytes(pickle.dumps(job))
        finished = run_child(__name__, {"job": str(job_file), "result": str(result_file)}, timeout)
        if not result_file.exists():
            raise WorkerFailed(finished.failure(timeout))
        result: ValueResult = pickle.loads(result_file.read_bytes())
        return result


def main(argv: list[str]) -> int:
    """``TASK RESULT`` as :func:`.worker.run_child` passes them; the job and result are pickles."""
    task = json.loads(Path(argv[0]).read_text())
    job = pickle.loads(Path(task["job"]).read_bytes())
    Path(task["result"]).write_bytes(pickle.dumps(run_job(job)))
    Path(argv[1]).write_text("{}")
    return 0


if __name__ == "__main__":
    # Run the imported module's main so that pickles name its classes, not ``__main__``'s.
    from ascend_lint.runtime_check.value import worker

    sys.exit(worker.main(sys.argv[1:]))
