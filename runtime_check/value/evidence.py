"""Evidence text shared by the value-replay backends (interpret, npu)."""

from __future__ import annotations

from collections.abc import Callable

from ascend_lint.model import Finding

from ..verdicts import VariantReport
from .launches import TensorDifference, ValueLaunch, compare
from .worker import ReplayRun, ValueJob, ValueResult, VariantRun

SHOWN_DIFFERENCES = 3


def differences(launches: list[ValueLaunch], run: ReplayRun, tolerance: float = 0.0) -> list[TensorDifference]:
    """What a replay changed in the captured launches' outputs."""
    return [
        difference
        for launch, outputs in zip(launches, run.outputs, strict=False)
        if outputs is not None
        for difference in compare(launch, outputs, tolerance)
    ]


def describe(found: list[TensorDifference]) -> str:
    shown = "; ".join(d.describe() for d in found[:SHOWN_DIFFERENCES])
    more = len(found) - SHOWN_DIFFERENCES
    return shown + (f"; and {more} more tensors" if more > 0 else "")


def reports(job: ValueJob, result: ValueResult, where: Callable[[VariantRun], str]) -> list[VariantReport]:
    """One report per replay; ``where(replay)`` names how it ran."""
    launches = ", ".join(launch.label for launch in result.launches)
    return [
        VariantReport(
            variant=f"{replay.variant.name} ({where(replay)})",
            launch=launches,
            ok=run.error is None,
            error=run.error,
            seconds=round(run.seconds, 3),
        )
        for replay, run in zip(job.replays, result.runs, strict=False)
    ]


def fix_note(launches: list[ValueLaunch], run: ReplayRun | None, how: str, tolerance: float = 0.0) -> str:
    """Whether the fixed variant, run ``how``, reproduces the standard-semantics outputs."""
    if run is None:
        return "The rule offers no fix to verify."
    if run.error:
        return f"The fixed variant failed {how}: {last_line(run.error)}"
    left = differences(launches, run, tolerance)
    if left:
        return f"Fix NOT verified: {how} the fixed variant still differs: {describe(left)}."
    return (
        f"Fix verified: {how} the fixed variant matches the standard-semantics outputs "
        f"on all {len(launches)} launch(es)."
    )


def last_line(error: str) -> str:
    """The exception line of a traceback (the report keeps the whole text)."""
    return error.strip().splitlines()[-1]


# The upstream interpreter's tl.dot asserts this; the NPU compiles smaller dots.
_SMALL_DOT = "M >= 16, N >= 16 and K >= 16"
SMALL_DOT_CAUSE = (
    "the upstream Triton interpreter's tl.dot needs M, N and K >= 16: give the workload shapes whose dot "
    "tiles are at least 16 in every dimension"
)


def _known_cause(error: str) -> str:
    return f" ({SMALL_DOT_CAUSE})" if _SMALL_DOT in error else ""


def never_launched(kernel: str, result: ValueResult) -> str:
    """Why no launch of ``kernel`` was captured: the interpreter's own error when the workload
    launched it (or an earlier kernel) and the interpreter could not run it, else the workload's."""
    if result.launch_errors:
        more = len(result.launch_errors) - 1
        others = f" (and {more} more launch(es) failed)" if more > 0 else ""
        first = result.launch_errors[0]
        return f"the interpreter could not run {first}{others}{_known_cause(first)}"
    if result.stopped:
        return (
            f"the interpreter could not run {result.stopped}, so the workload stopped before it launched {kernel}"
            f"{_known_cause(result.stopped)}"
        )
    failed = result.workload_error
    return f"the workload never launched {kernel}" + (f" (the workload failed: {last_line(failed)})" if failed else "")


def not_run(finding: Finding, kernel: str, result: ValueResult) -> str | None:
    """Why the captured launches are no evidence about the finding: none of them ran its line
    (a branch a constexpr or the inputs did not take). None when one did."""
    rows = range(finding.location.row, finding.end_location.row + 1)
    if any(row in result.rows for row in rows):
        return None
    return (
        f"line {finding.location.row} never ran in the {len(result.launches)} captured launch(es) of {kernel} "
        "(a branch the launches' constexprs or inputs do not take), so the replay has no evidence about it; "
        "a workload reaching that line can tell"
    )
