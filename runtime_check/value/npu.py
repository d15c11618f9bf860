"""``--backend npu``: run the finding's kernel on an Ascend NPU and compare with the reference.

Needs ``torch_npu`` and a visible Ascend device (CANN installed). The workload runs once in the
interpreter on CPU (a subprocess: the interpreter and the NPU JIT cannot share a process) and
its launches of the finding's kernel are captured with their inputs; that run's outputs are the
reference — what the kernel computes under standard Triton semantics. The same launches are
then replayed on the NPU with the original kernel and with the finding's fixed variant:

- evidence ``device-outputs``: CONFIRMED when the original's NPU outputs differ from the reference
  (tolerance :data:`TOLERANCE`, relative and absolute: NPU matmuls round differently), naming
  the tensors; "fix verified" when the fixed variant's NPU outputs match it. REFUTED when the
  original matches. This is the only backend that can confirm a bug of NPU code generation.

Nothing here imports torch_npu until a replay runs, so the module loads on any machine.
"""

from __future__ import annotations

import functools
import importlib.util
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from ascend_lint.model import Finding
from ascend_lint.rule import Evidence

from .. import variants
from ..jobs import ReplayJob
from ..verdicts import Outcome, Verdict, inconclusive
from .evidence import describe, differences, fix_note, last_line, never_launched, not_run, reports
from .launches import ValueLaunch
from .worker import ReplayRun, ValueJob, ValueResult, VariantRun, WorkerFailed, run_in_subprocess, run_job

BACKEND = "npu"
COLLECTS = frozenset({Evidence.DEVICE_OUTPUTS})  # the evidence kinds this backend can collect
TOLERANCE = 1e-2
REFERENCE_TIMEOUT = 300.0
_PROBE = "import torch, torch_npu; print(torch.npu.device_count())"


@functools.lru_cache(maxsize=1)
def missing_reason() -> str | None:
    """Why no NPU can be used here (None when one can); probes in a subprocess, once."""
    if importlib.util.find_spec("torch_npu") is None:
        return "no Ascend NPU: torch_npu is not installed (it needs CANN and an Ascend device)"
    try:
        probe = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "no Ascend NPU: probing torch_npu timed out"
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["unknown error"])[-1]
        return f"no Ascend NPU: torch_npu cannot be imported ({last})"
    if probe.stdout.strip() in ("", "0"):
        return "no Ascend NPU: torch_npu sees no device"
    return None


def _against_original(launches: list[ValueLaunch], original: ReplayRun, fixed: ReplayRun) -> str:
    """How the fixed variant's NPU outputs compare with the original's, in one sentence."""
    if fixed.error:
        return ""
    as_run = [
        replace(launch, outputs=outputs)
        for launch, outputs in zip(launches, original.outputs, strict=False)
        if outputs is not None
    ]
    changed = differences(as_run, fixed, TOLERANCE)
    return f" On the NPU, fixed vs original: {describe(changed) if changed else 'the same outputs'}."


def judge(finding: Finding, kernel: str, result: ValueResult, reference: ValueResult) -> tuple[Verdict, str]:
    """The verdict from the NPU replays of the reference launches: original, then fixed
    (``reference``: the interpreter's run, which says which rows the launches ran)."""
    launches = result.launches
    original, *fixed = result.runs
    if original.error:
        return Verdict.INCONCLUSIVE, f"running {kernel} on the NPU failed: {last_line(original.error)}"
    wrong = differences(launches, original, TOLERANCE)
    replayed = f"{len(launches)} replayed launch(es)"
    unread = not_run(finding, kernel, reference)
    if not wrong and unread is not None:
        return Verdict.INCONCLUSIVE, f"on the NPU {kernel} matches the reference outputs, but {unread}"
    if not wrong:
        return Verdict.REFUTED, (
            f"on the NPU {kernel} matches the interpreter's standard-semantics outputs over {replayed} "
            f"(tolerance {TOLERANCE:g}); this workload may not reach line {finding.location.row}"
        )
    fixed_run = fixed[0] if fixed else None
    comparison = _against_original(launches, original, fixed_run) if fixed_run else ""
    return Verdict.CONFIRMED, (
        f"on the NPU {kernel} writes outputs that differ from the interpreter's standard-semantics "
        f"outputs over {replayed} (tolerance {TOLERANCE:g}): {describe(wrong)}. "
        f"{fix_note(launches, fixed_run, 'on the NPU', TOLERANCE)}{comparison}"
    )


def judge_on_npu(job: ReplayJob, workdir: Path) -> Outcome:
    """Judge one finding on the NPU (runs inside the replay child)."""
    assert job.kernel is not None
    if job.evidence not in COLLECTS:
        return inconclusive(job.finding, BACKEND, f"the npu backend cannot collect {job.evidence.value} evidence")
    launches_file = str(workdir / "launches.pkl")
    capture = ValueJob(
        workload=job.workload,
        model=job.device,
        kernel_file=job.kernel.file,
        kernel_names=[job.kernel.name],
        launches_file=launches_file,
    )
    try:
        reference = run_in_subprocess(capture, REFERENCE_TIMEOUT)
    except WorkerFailed as failed:
        return inconclusive(job.finding, BACKEND, f"the interpreter reference run failed: {failed}")
    if not reference.launches:
        return inconclusive(job.finding, BACKEND, never_launched(job.kernel.name, reference))
    source = Path(job.kernel.file).read_text()
    fixed = variants.fixed(source, job.finding)
    on_npu = ValueJob(
        workload=job.workload,
        device="npu",
        launches_file=launches_file,
        replays=[VariantRun(v) for v in (variants.original(source), fixed) if v],
    )
    result = run_job(on_npu)  # its launches carry the reference outputs
    verdict, evidence = judge(job.finding, job.kernel.name, result, reference)
    return Outcome(
        job.finding,
        verdict,
        BACKEND,
        evidence,
        reports(on_npu, result, lambda _: "on the NPU"),
    )
