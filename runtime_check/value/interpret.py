"""``--backend interpret``: judge findings by value in triton-ascend's interpreter, on CPU.

Evidence ``dot-clobber-outputs`` (``tl.dot`` clobbers its lhs): the workload runs in triton-ascend's interpreter (``TRITON_INTERPRET=1``) with standard
``tl.dot`` semantics, and each launch of the finding's kernel is captured with its inputs and
outputs. Those launches are then replayed three ways:

- the original kernel, standard semantics: must reproduce the captured outputs (a control: a
  kernel that is not deterministic on replay proves nothing);
- the original kernel under Ascend semantics (every dot overwrites its lhs with NaN, see
  :mod:`.ascend_dot`): outputs that change are the clobber made visible — CONFIRMED, naming
  the tensors and the max abs difference; no change means REFUTED on this workload;
- the fixed kernel (the finding's own fix) under Ascend semantics: "fix verified" when it
  matches the standard-semantics outputs.

:func:`run_source` runs a self-contained kernel module (kernels, host wrapper, ``workload()``)
under either semantics; :func:`check_fixed_source` replays its launches with a fixed version of
its kernels under both. The autofix tests use them on the linter's own fixed source.
"""

from __future__ import annotations

import importlib.util
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ascend_lint.model import Finding
from ascend_lint.rule import Evidence

from .. import variants
from ..jobs import ReplayJob
from ..verdicts import Outcome, Verdict, inconclusive
from .evidence import describe, differences, fix_note, last_line, never_launched, reports
from .launches import TensorDifference, ValueLaunch
from .worker import ValueJob, ValueResult, VariantRun, run_in_subprocess, run_job

BACKEND = "interpret"
COLLECTS = frozenset({Evidence.DOT_CLOBBER_OUTPUTS, Evidence.FIX_OUTPUTS})  # evidence this backend collects
NEEDS_NPU = (
    "needs an NPU: the interpreter runs the kernel as written, and this finding goes wrong only in "
    "triton-ascend's NPU code generation (--backend npu)"
)
ASCEND_DOT = "every tl.dot overwrites its lhs tile with NaN afterwards, as on the NPU"


def missing_reason() -> str | None:
    """Why the interpreter cannot run here, or None when it can."""
    for module in ("triton", "torch"):
        if importlib.util.find_spec(module) is None:
            return f"`{module}` is not installed; install the runtime extra (pip install 'ascend-lint[runtime]')"
    return None


def run_source(source: str, *, emulate: bool, timeout: float = 120.0) -> list[ValueLaunch]:
    """Run a kernel module's ``workload()`` in the interpreter; every launch with its outputs.

    ``emulate`` selects Ascend ``tl.dot`` semantics (lhs clobbered) instead of standard ones.
    Raises ``RuntimeError`` when the workload fails. Runs in a subprocess.
    """
    with tempfile.TemporaryDirectory(prefix="ascend-lint-run-source-") as tmp:
        path = Path(tmp) / "kernel_module.py"
        path.write_text(source)
        result = run_in_subprocess(ValueJob(workload=str(path), emulate_workload=emulate), timeout)
    if result.workload_error:
        raise RuntimeError(f"the workload failed:\n{result.workload_error}")
    return result.launches


@dataclass(frozen=True)
class FixCheck:
    """What a fixed source changes in the original's outputs, launch by launch."""

    standard: list[TensorDifference]  # fixed vs original, both with standard tl.dot
    ascend: list[TensorDifference]  # fixed with Ascend tl.dot vs original with standard tl.dot


def check_fixed_source(original: str, fixed: str, *, timeout: float = 120.0) -> FixCheck:
    """Replay every launch of ``original``'s ``workload()`` with ``fixed``'s kernels.

    Both are self-contained kernel modules; one subprocess. Raises ``RuntimeError`` when the
    workload or a replay fails.
    """
    with tempfile.TemporaryDirectory(prefix="ascend-lint-fix-check-") as tmp:
        path = Path(tmp) / "kernel_module.py"
        path.write_text(original)
        variant = variants.Variant("fixed", fixed)
        job = ValueJob(
            workload=str(path),
            kernel_file=str(path),
            replays=[VariantRun(variant), VariantRun(variant, ascend_dot=True)],
        )
        result = run_in_subprocess(job, timeout)
    failures = [result.workload_error] + [run.error for run in result.runs]
    if any(failures):
        raise RuntimeError("\n".join(failure for failure in failures if failure))
    standard, ascend = (differences(result.launches, run) for run in result.runs)
    return FixCheck(standard, ascend)


def _semantics(planned: VariantRun) -> str:
    return f"{'Ascend' if planned.ascend_dot else 'standard'} tl.dot"


def judge(finding: Finding, kernel: str, result: ValueResult) -> tuple[Verdict, str]:
    """The verdict on an ASC003 finding from the runs of :func:`value_job`."""
    launches = result.launches
    if not launches:
        return Verdict.INCONCLUSIVE, never_launched(kernel, result)
    control, emulated, *fixed = result.runs
    for name, run in (("standard", control), ("Ascend", emulated)):
        if run.error:
            failed = last_line(run.error)
            return Verdict.INCONCLUSIVE, f"replaying {kernel} with {name} tl.dot semantics failed: {failed}"
    unstable = differences(launches, control)
    if unstable:
        return Verdict.INCONCLUSIVE, f"{kernel} is not deterministic on replay: {describe(unstable)}"
    clobbered = differences(launches, emulated)
    replayed = f"{len(launches)} replayed launch(es)"
    if not clobbered:
        return Verdict.REFUTED, (
            f"with Ascend tl.dot semantics ({ASCEND_DOT}) {kernel} writes the same outputs over "
            f"{replayed}; this workload may not reach the read at line {finding.location.row}"
        )
    how = "under Ascend semantics"
    return Verdict.CONFIRMED, (
        f"with Ascend tl.dot semantics ({ASCEND_DOT}) {kernel} writes different outputs over "
        f"{replayed}: {describe(clobbered)}. {fix_note(launches, fixed[0] if fixed else None, how)}"
    )


def value_job(finding: Finding, workload: str, kernel_file: str, kernel: str) -> ValueJob:
    """Capture ``kernel``'s launches, replay: control, Ascend semantics, fixed under Ascend."""
    source = Path(kernel_file).read_text()
    original = variants.original(source)
    replays = [VariantRun(original), VariantRun(original, ascend_dot=True)]
    fixed = variants.fixed(source, finding)
    if fixed is not None:
        replays.append(VariantRun(fixed, ascend_dot=True))
    return ValueJob(workload=workload, kernel_file=kernel_file, kernel_names=[kernel], replays=replays)


def judge_in_interpreter(job: ReplayJob, workdir: Path) -> Outcome:
    """Judge one finding with the interpret backend (runs inside the replay child)."""
    assert job.kernel is not None
    if job.evidence is Evidence.FIX_OUTPUTS:
        return inconclusive(job.finding, BACKEND, NEEDS_NPU)
    if job.evidence not in COLLECTS:
        return inconclusive(job.finding, BACKEND, f"the interpret backend cannot collect {job.evidence.value} evidence")
    start = time.perf_counter()
    values = value_job(job.finding, job.workload, job.kernel.file, job.kernel.name)
    result = run_job(values)
    verdict, evidence = judge(job.finding, job.kernel.name, result)
    return Outcome(
        job.finding,
        verdict,
        BACKEND,
        evidence,
        reports(values, result, _semantics),
        seconds=time.perf_counter() - start,
    )
