"""``--backend interpret``: judge findings by value in triton-ascend's interpreter, on CPU.

The workload runs in the interpreter (``TRITON_INTERPRET=1``, :mod:`.interpreter`) on the
simulated device, and each launch of the finding's kernel is captured with its inputs and
outputs. Those launches are then replayed.

Evidence ``dot-clobber-outputs`` (``tl.dot`` clobbers its lhs), three replays:

- the original kernel, standard semantics: must reproduce the captured outputs (a control: a
  kernel that is not deterministic on replay proves nothing);
- the original kernel with the finding's dot overwriting its lhs with NaN (see
  :mod:`.ascend_dot`): outputs that change are the clobber made visible — CONFIRMED, naming the
  tensors and the max abs difference; no change (or the dot never ran) means REFUTED on this
  workload;
- the fixed kernel (the finding's own fix), its dot clobbering likewise: "fix verified" when it
  matches the standard-semantics outputs.

Evidence ``fix-outputs`` (a bug only the device shows): the original and the fixed kernel
replayed with standard semantics; "fix verified" when the outputs are identical. The verdict
stays INCONCLUSIVE: the bug itself needs an NPU.

:func:`run_source` runs a self-contained kernel module (kernels, host wrapper, ``workload()``)
under either semantics; :func:`check_fixed_source` replays its launches with a fixed version of
its kernels under both. The autofix tests use them on the linter's own fixed source.
"""

from __future__ import annotations

import importlib.util
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ascend_lint.model import Finding, LineIndex, Position
from ascend_lint.rule import Evidence

from .. import variants
from ..capture.launches import KernelRef
from ..capture.workload import Workload
from ..device import DEFAULT_MODEL
from ..jobs import ReplayJob
from ..verdicts import Outcome, Verdict, inconclusive
from .evidence import describe, differences, fix_note, last_line, never_launched, not_run, reports
from .launches import TensorDifference, ValueLaunch
from .worker import ValueJob, ValueResult, VariantRun, run_in_subprocess, run_job

BACKEND = "interpret"
COLLECTS = frozenset({Evidence.DOT_CLOBBER_OUTPUTS, Evidence.FIX_OUTPUTS})  # evidence this backend collects
NEEDS_NPU = (
    "needs an NPU: the interpreter runs the kernel as written, and this finding goes wrong only in "
    "triton-ascend's NPU code generation (--backend npu)"
)  # evidence fix-outputs adds whether the rule's fix computes what the original does
ASCEND_DOT = "its lhs tile set to NaN after the dot, as the NPU may overwrite it"


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
        job = ValueJob(Workload(file=str(path)), DEFAULT_MODEL, emulate_workload=emulate)
        result = run_in_subprocess(job, timeout)
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
        replays = [VariantRun(variant), VariantRun(variant, ascend_dot=True)]
        job = ValueJob(Workload(file=str(path)), DEFAULT_MODEL, kernel_file=str(path), replays=replays)
        result = run_in_subprocess(job, timeout)
    failures = [result.workload_error] + [run.error for run in result.runs]
    if any(failures):
        raise RuntimeError("\n".join(failure for failure in failures if failure))
    standard, ascend = (differences(result.launches, run) for run in result.runs)
    return FixCheck(standard, ascend)


def _semantics(planned: VariantRun) -> str:
    if not planned.ascend_dot:
        return "standard tl.dot"
    rows, reads = planned.dot_rows, planned.read_rows
    dots = f"Ascend tl.dot at line {', '.join(map(str, rows))}" if rows else "Ascend tl.dot"
    return f"{dots}, read at line {reads[0]}" if reads else dots


def clobbering_dot(finding: Finding) -> Position | None:
    """Where the finding's clobbering ``tl.dot`` is: the finding itself for a loop-carried
    clobber, else its related location (None when the finding does not say)."""
    if finding.facts.get("loop_carried"):
        return finding.location
    return finding.related[0].location if finding.related else None


def read_rows(finding: Finding, fixed: bool = False) -> tuple[int, ...]:
    """The rows of the finding's read (in the fixed variant: where they move to)."""
    first, last = finding.location, finding.end_location
    if fixed:
        return tuple(range(variants.row_after_fix(first, finding), variants.row_after_fix(last, finding) + 1))
    return tuple(range(first.row, last.row + 1))


def read_columns(finding: Finding) -> tuple[int, int]:
    """Where the finding's read starts on its first row and ends on its last (code points, 0-based)."""
    return finding.location.column - 1, finding.end_location.column - 1


def _same_lines(source: str, rows: tuple[int, ...], other: str, other_rows: tuple[int, ...]) -> bool:
    """Whether ``rows`` of ``source`` read as ``other_rows`` of ``other`` (the fix left them be)."""
    lines, others = LineIndex(source).lines(), LineIndex(other).lines()
    return len(rows) == len(other_rows) and all(
        0 < row <= len(lines) and 0 < other_row <= len(others) and lines[row - 1] == others[other_row - 1]
        for row, other_row in zip(rows, other_rows, strict=True)
    )


def _runs(dot: Position | None, times: int) -> str:
    return f"the dot at line {dot.row} ran {times} time(s)" if dot else f"{times} dot execution(s)"


def _one_trip(finding: Finding, where: str) -> str:
    """Why a loop-carried read whose line ran never saw the clobbered tile."""
    return (
        f"line {finding.location.row} ran, but never after {where} clobbered its lhs: the loop around it made "
        "one trip in every captured launch, so no next trip reads the clobbered tile and the replay has no "
        "evidence about it; a workload whose loop makes at least two trips can tell"
    )


def judge(finding: Finding, kernel: str, result: ValueResult) -> tuple[Verdict, str]:
    """The verdict on a dot-clobber finding from the runs of :func:`value_job`.

    The clobber is visible to the finding's read only (other reads of the tile see its values),
    so a changed output is this read's doing; both verdicts need that read to have run (a
    loop-carried read, on a later trip than the dot's)."""
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
    dot = clobbering_dot(finding)
    where = f"the tl.dot at line {dot.row}" if dot else "every tl.dot"
    replayed = f"{len(launches)} replayed launch(es)"
    clobbered = differences(launches, emulated)
    tensors = sorted({name for launch in launches for name in launch.outputs})
    unchanged = f"{', '.join(tensors)} identical to standard semantics (max abs diff 0)"
    if not clobbered and dot and emulated.clobbered == 0:  # no evidence: the line never ran
        return Verdict.INCONCLUSIVE, (
            f"on this workload {where} never runs ({replayed} of {kernel}), so nothing clobbers its lhs "
            f"and the replay has no evidence about it ({unchanged}); a workload reaching line {dot.row} can tell"
        )
    row = finding.location.row
    semantics = (
        f"with {where} overwriting its lhs ({ASCEND_DOT}; shown to the read at line {row} only, other reads "
        f"see the tile's values; {_runs(dot, emulated.clobbered)})"
    )
    unread = not_run(finding, kernel, result)
    if unread is not None:
        return Verdict.INCONCLUSIVE, unread
    if emulated.exposed == 0 and finding.facts.get("loop_carried"):
        return Verdict.INCONCLUSIVE, f"{_one_trip(finding, where)} ({semantics})"
    if not clobbered:
        return Verdict.REFUTED, (
            f"{semantics} {kernel} leaves its outputs unchanged over {replayed}: {unchanged}; the read at "
            f"line {row} does not reach them on this workload"
        )
    note = fix_note(launches, fixed[0] if fixed else None, "under Ascend semantics")
    return Verdict.CONFIRMED, (
        f"{semantics} {kernel} writes different outputs over {replayed}: {describe(clobbered)}. {note}"
    )


def value_job(
    finding: Finding, workload: Workload, kernel: KernelRef, model: str | None, timeout: float | None = None
) -> ValueJob:
    """Capture ``kernel``'s launches, replay: control, Ascend semantics at the finding's dot
    (shown to the finding's read only), fixed under Ascend semantics at the same dot and read."""
    source = Path(kernel.file).read_text()
    original = variants.original(source)
    dot = clobbering_dot(finding)
    rows = (dot.row,) if dot else None
    columns = read_columns(finding)
    replays = [
        VariantRun(original),
        VariantRun(original, ascend_dot=True, dot_rows=rows, read_rows=read_rows(finding), read_columns=columns),
    ]
    fixed = variants.fixed(source, finding)
    if fixed is not None:
        fixed_rows = (variants.row_after_fix(dot, finding),) if dot else None
        moved = read_rows(finding, True)
        kept = columns if _same_lines(source, read_rows(finding), fixed.source, moved) else None
        replays.append(VariantRun(fixed, ascend_dot=True, dot_rows=fixed_rows, read_rows=moved, read_columns=kept))
    return ValueJob(
        workload, model, kernel_file=kernel.file, kernel_names=[kernel.name], replays=replays, workload_timeout=timeout
    )


def judge_fix(finding: Finding, kernel: str, result: ValueResult) -> str:
    """Evidence ``fix-outputs``: whether the fixed kernel computes what the original does."""
    launches = result.launches
    if not launches:
        return f"{NEEDS_NPU}. {never_launched(kernel, result)}"
    control, *fixed = result.runs
    grids = ", ".join(sorted({str(launch.grid) for launch in launches}))
    if control.error or differences(launches, control):
        return f"{NEEDS_NPU}. {kernel} does not replay deterministically, so its fix cannot be checked"
    note = fix_note(launches, fixed[0] if fixed else None, "with standard tl.dot semantics")
    return f"{NEEDS_NPU}. On the workload's launches (grid {grids}): {note}"


def fix_job(
    finding: Finding, workload: Workload, kernel: KernelRef, model: str | None, timeout: float | None = None
) -> ValueJob:
    """Capture ``kernel``'s launches, replay the original (a control) and the fixed kernel."""
    source = Path(kernel.file).read_text()
    fixed = variants.fixed(source, finding)
    replays = [VariantRun(variant) for variant in (variants.original(source), fixed) if variant is not None]
    return ValueJob(
        workload, model, kernel_file=kernel.file, kernel_names=[kernel.name], replays=replays, workload_timeout=timeout
    )


def judge_in_interpreter(job: ReplayJob, workdir: Path) -> Outcome:
    """Judge one finding with the interpret backend (runs inside the replay child)."""
    assert job.kernel is not None
    if job.evidence not in COLLECTS:
        return inconclusive(job.finding, BACKEND, f"the interpret backend cannot collect {job.evidence.value} evidence")
    if job.evidence is Evidence.FIX_OUTPUTS:
        values = fix_job(job.finding, job.workload, job.kernel, job.device, job.timeout)
        result = run_job(values)
        verdict, evidence = Verdict.INCONCLUSIVE, judge_fix(job.finding, job.kernel.name, result)
    else:
        values = value_job(job.finding, job.workload, job.kernel, job.device, job.timeout)
        result = run_job(values)
        verdict, evidence = judge(job.finding, job.kernel.name, result)
    return Outcome(
        job.finding,
        verdict,
        BACKEND,
        evidence,
        reports(values, result, _semantics),
    )
