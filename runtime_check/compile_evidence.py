"""What the compile backend takes as evidence for each rule.

A judge looks at one captured specialisation and returns a verdict with the evidence text;
:func:`judge_launches` tries the kernel's distinct specialisations (in workload order; a judge may
select some) and keeps the first that confirms the finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import kernel_source, variants
from .capture import Launch
from .ir import extension_of_i32_multiply, i64_multiplies
from .jobs import LAUNCH_OPTIONS
from .memory import kib, kib_range
from .verdicts import Verdict

MAX_SPECIALISATIONS = 3
RUNTIME_ONLY = {
    "ASC003": "tl.dot clobbering its lhs is a runtime behaviour of the NPU",
    "ASC006": "pointer accumulation across tasks is mis-compiled only at run time",
}

Judgement = tuple[Verdict, str]


@dataclass(frozen=True)
class Judge:
    """``check(replay, launch)`` judges one specialisation; ``select`` picks which to try."""

    check: Callable[..., Judgement]
    select: Callable[..., list[Launch]] = lambda replay, launches: launches


def not_judged(code: str) -> str:
    if code in RUNTIME_ONLY:
        needs = "an NPU" if code == "ASC006" else "the interpreter or an NPU"
        hint = "--backend npu" if code == "ASC006" else "--backend interpret or npu"
        return f"needs {needs}: {RUNTIME_ONLY[code]} (try {hint})"
    return f"the compile backend has no evidence to collect for {code}"


def judge_launches(judge: Judge, replay) -> Judgement:
    """The first confirming specialisation's judgement, else the first refuting one's."""
    launches = judge.select(replay, replay.job.launches)[:MAX_SPECIALISATIONS]
    judgements = []
    for launch in launches:
        judgement = judge.check(replay, launch)
        if judgement[0] is Verdict.CONFIRMED:
            return judgement
        judgements.append(judgement)
    refuted = [j for j in judgements if j[0] is Verdict.REFUTED]
    tried = f" ({len(launches)} specialisations tried)" if len(launches) > 1 else ""
    verdict, evidence = (refuted or judgements)[0]
    return verdict, evidence + tried


def _args(launch: Launch, names) -> str:
    return ", ".join(f"{n} = {launch.arg_summary.get(n, '?').removeprefix('constexpr = ')}" for n in names)


def _fixed_note(replay, launch: Launch, check: Callable | None = None) -> str:
    fixed = variants.fixed(replay.source, replay.job.finding)
    if fixed is None:
        return "the rule offers no automatic fix to verify"
    result = replay.compile(fixed, launch)
    if not result.ok:
        return f"the fixed variant fails too: {result.error}"
    return check(result) if check else "the fixed variant compiles"


def launch_options(replay, launch: Launch) -> Judgement:
    """ASC001: num_warps / num_stages change nothing in the compiled IR."""
    passed = [k for k in LAUNCH_OPTIONS if k in launch.options]
    if not passed:
        return Verdict.INCONCLUSIVE, "the captured launches pass no num_warps / num_stages"
    source = replay.source
    with_options = replay.compile(variants.original(source), launch)
    without = variants.Variant(
        "original without " + "/".join(passed), source, variants.LaunchPatch(drop_options=tuple(passed))
    )
    without_options = replay.compile(without, launch)
    for result in (with_options, without_options):
        if not result.ok:
            return Verdict.INCONCLUSIVE, f"{result.variant.name} does not compile: {result.error}"
    values = ", ".join(f"{k}={launch.options[k]}" for k in passed)
    stages = [s for s in ("ttir", "ttadapter") if s in with_options.ir]
    differing = [s for s in stages if with_options.ir[s] != without_options.ir.get(s)]
    if differing:
        return Verdict.REFUTED, f"{values} changes the compiled {'/'.join(differing)}"
    warning = "; ".join(sorted({x.printed.strip() for x in replay.job.launches if x.printed}))
    evidence = (
        f"no effect on the compiled kernel: TTIR and linalg are byte-identical with {values} "
        f"and without them (the values only reach metadata)"
    )
    return Verdict.CONFIRMED, evidence + (f"; triton-ascend printed: {warning}" if warning else "")


def _passing_the_flagged_value(replay, launches: list[Launch]) -> list[Launch]:
    """The launches that pass the option value written at the finding, when there are any."""
    finding = replay.job.finding  # often in host code, possibly another file than the kernel
    source = Path(finding.filename).read_text()
    option = kernel_source.int_option_at(source, finding.location.row, finding.location.column)
    return [x for x in launches if option and x.options.get(option[0]) == option[1]] or launches


def index_cast(replay, launch: Launch) -> Judgement:
    """ASC002: `.to` on a constexpr fails to compile; a cast after an i32 multiply wraps."""
    finding = replay.job.finding
    row = finding.location.row
    original = replay.compile(variants.original(replay.source), launch)
    error = original.error
    if error is not None and "has no attribute 'to'" in error.message:
        return Verdict.CONFIRMED, (
            f"compiling the captured specialisation fails: {error}; {_fixed_note(replay, launch)}"
        )
    if error is not None:
        return Verdict.INCONCLUSIVE, f"the kernel does not compile for another reason: {error}"
    chain = extension_of_i32_multiply(original.ir.get("ttir", ""), original.file, row)
    if chain:

        def multiplies_in_i64(fixed) -> str:
            wide = i64_multiplies(fixed.ir.get("ttir", ""), fixed.file, _fixed_row(finding))
            if wide:
                return "the fixed variant multiplies in i64:\n    " + "\n    ".join(wide)
            return "the fixed variant compiles (no i64 multiply on that line)"

        return Verdict.CONFIRMED, (
            f"the TTIR multiplies in i32, then extends to i64 (line {row}):\n    "
            + "\n    ".join(chain)
            + "\n"
            + _fixed_note(replay, launch, multiplies_in_i64)
        )
    if re.search(r"multipl", finding.message, re.I):
        return Verdict.REFUTED, f"no i32 multiply feeds an extension to i64 on line {row} of the TTIR"
    receiver = kernel_source.to_receiver(replay.source, row) or "the receiver"
    passed = launch.arg_summary.get(receiver)
    detail = f"{receiver} is {passed}" if passed else f"{receiver} is not a constexpr"
    hint = (
        f" (Triton would specialise {receiver} into a constexpr if the workload passed 1)"
        if passed and passed.startswith("i") and receiver not in launch.do_not_specialize
        else ""
    )
    return Verdict.REFUTED, f"the kernel compiles on this specialisation: {detail}{hint}"


def _fixed_row(finding) -> int:
    edits = finding.fix.edits if finding.fix else ()
    return edits[0].start.row if edits else finding.location.row


def _passing_none(replay, launches: list[Launch]) -> list[Launch]:
    """The launches that pass ``None`` for a pointer, when there are any: they compile the
    optional path exactly as the workload does, with no value made up by the replay."""
    return [x for x in launches if None in x.constants.values()] or launches


def optional_pointer(replay, launch: Launch) -> Judgement:
    """ASC004: with the optional pointer None the OR-ed guard still lowers its arm."""
    guard = kernel_source.optional_pointer_guard(replay.source, replay.job.finding.location.row)
    if guard is None:
        return Verdict.INCONCLUSIVE, "no `if` statement at the finding"
    pointers = [p for p in guard.pointers if launch.signature.get(p, "").startswith("*")]
    if not pointers:
        return Verdict.INCONCLUSIVE, "no optional pointer parameter found in the arms of the `if`"
    if any(launch.constants.get(p, 0) is None for p in pointers):
        patch, how = variants.LaunchPatch(), "as captured"
    elif not guard.flags:
        return Verdict.INCONCLUSIVE, f"no constexpr flag guards {', '.join(pointers)}: cannot pass None"
    else:
        patch = variants.LaunchPatch(constants={**{f: False for f in guard.flags}, **{p: None for p in pointers}})
        how = "set by the replay"
    original = replay.compile(variants.Variant("original", replay.source, patch), launch)
    state = _args(patch.apply(launch), [*pointers, *guard.flags])
    if original.ok:
        return Verdict.REFUTED, f"compiles with {state} ({how}): the guarded arm is not lowered"
    error = original.error
    if "NoneType" not in error.message:
        return Verdict.INCONCLUSIVE, f"with {state} the kernel fails for another reason: {error}"
    fixed = variants.fixed(replay.source, replay.job.finding)
    fixed_note = "the rule offers no automatic fix to verify"
    if fixed is not None:
        result = replay.compile(variants.Variant("fixed", fixed.source, patch), launch)
        fixed_note = "the fixed variant compiles" if result.ok else f"the fixed variant fails too: {result.error}"
    return Verdict.CONFIRMED, (
        f"with {state} ({how}) the compile fails: {error} — both arms of the mixed "
        f"constexpr/runtime test are lowered; {fixed_note}"
    )


def dma_branch(replay, launch: Launch) -> Judgement:
    """ASC005: a runtime branch keeps both DMA arms' buffers in UB."""
    row = replay.job.finding.location.row
    arms = variants.if_arms(replay.source, row)
    if len(arms) != 2:
        return Verdict.INCONCLUSIVE, "no two-armed `if` statement at the finding"
    original = replay.compile(variants.original(replay.source), launch)
    alone = [replay.compile(variants.arm_alone(replay.source, row, arm), launch) for arm in arms]
    if not all(a.ok for a in alone):
        failing = next(a for a in alone if not a.ok)
        return Verdict.INCONCLUSIVE, f"{failing.variant.name} does not compile: {failing.error}"
    peaks = [a.memory.peak("UB") for a in alone]
    arm_text = ", ".join(f"{arm.kind} arm alone {kib(p)}" for arm, p in zip(arms, peaks, strict=False))
    split = f"a constexpr split would plan at most {kib(max(peaks))} per launch"
    if not original.ok:
        overflow = original.memory.overflow or str(original.error)
        if "overflow" in overflow:
            return Verdict.CONFIRMED, f"the original overflows: {overflow}; {arm_text}; {split}"
        return Verdict.INCONCLUSIVE, f"the original does not compile: {original.error}"
    peak = original.memory.peak("UB")
    if peak <= max(peaks):
        return Verdict.REFUTED, (
            f"the original plans {kib(peak)} of UB, no more than the larger arm alone ({arm_text}): "
            "the two arms' buffers do not hold UB together on this specialisation"
        )
    relation = "=" if peak == sum(peaks) else "vs"
    joined = " + " if relation == "=" else ", "
    placement = _arm_placement(original, arms)
    return Verdict.CONFIRMED, (
        f"peak UB: original {kib(peak)} {relation} {joined.join(f'{a.kind} arm {kib(p)}' for a, p in zip(arms, peaks, strict=False))}"
        f" (each arm alone); both arms' buffers hold UB at once{placement}; {split}"
    )


def _arm_placement(compiled, arms) -> str:
    usage = compiled.memory.get("UB")
    if usage is None:
        return ""
    parts = []
    for arm in arms:
        mine = [b for b in usage.buffers if arm.holds(b.line)]
        if mine:
            low = min(min(b.offsets, default=0) for b in mine)
            high = max(b.end for b in mine)
            lines = ", ".join(str(n) for n in sorted({b.line for b in mine}))
            parts.append(f"{arm.kind} arm (line {lines}) at {kib_range(low, high)}")
    return f" ({'; '.join(parts)})" if parts else ""


JUDGES: dict[str, Judge] = {
    "ASC001": Judge(launch_options, select=_passing_the_flagged_value),
    "ASC002": Judge(index_cast),
    "ASC004": Judge(optional_pointer, select=_passing_none),
    "ASC005": Judge(dma_branch),
}
