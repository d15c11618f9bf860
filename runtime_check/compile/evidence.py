"""The evidence the compile backend collects, by kind (:class:`ascend_lint.rule.Evidence`).

A judge looks at one captured specialisation and returns a verdict with the evidence text;
:func:`judge_launches` tries the kernel's distinct specialisations (in workload order; a judge may
select some) and keeps the first that confirms the finding. Judges read what the rule knows
about its finding from ``finding.facts`` (see each kind's comment in ``ascend_lint/rule.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_lint.model import Finding
from ascend_lint.rule import Evidence

from .. import variants
from ..capture.launches import Launch
from ..jobs import statement_rows
from ..verdicts import Verdict
from .compiler import Compiled, CompileError
from .ir import extension_of_i32_multiply, multiplies, without_locations
from .memory import kib, kib_range

if TYPE_CHECKING:
    from .backend import FindingCompiler

MAX_SPECIALISATIONS = 3

Judgement = tuple[Verdict, str]


@dataclass(frozen=True)
class Judge:
    """``check(compiler, launch)`` judges one specialisation; ``select`` picks which to try."""

    check: Callable[[FindingCompiler, Launch], Judgement]
    select: Callable[[FindingCompiler, list[Launch]], list[Launch]] = lambda compiler, launches: launches


def judge_launches(judge: Judge, compiler: FindingCompiler) -> Judgement:
    """The first confirming specialisation's judgement, else the first refuting one's."""
    launches = judge.select(compiler, compiler.job.launches)[:MAX_SPECIALISATIONS]
    judgements = []
    for launch in launches:
        judgement = judge.check(compiler, launch)
        if judgement[0] is Verdict.CONFIRMED:
            return judgement
        judgements.append(judgement)
    refuted = [j for j in judgements if j[0] is Verdict.REFUTED]
    tried = f" ({len(launches)} specialisations tried)" if len(launches) > 1 else ""
    verdict, evidence = (refuted or judgements)[0]
    return verdict, evidence + tried


def _args(launch: Launch, names: list[str]) -> str:
    return ", ".join(f"{n} = {launch.arg_summary.get(n, '?').removeprefix('constexpr = ')}" for n in names)


def _fixed_note(compiler: FindingCompiler, launch: Launch, check: Callable[[Compiled], str] | None = None) -> str:
    fixed = variants.fixed(compiler.source, compiler.job.finding)
    if fixed is None:
        return "the rule offers no automatic fix to verify"
    result = compiler.compile(fixed, launch)
    if not result.ok:
        return f"the fixed variant fails too: {result.error}"
    return check(result) if check else "the fixed variant compiles"


def launch_option_ir(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """The launch option changes nothing in the compiled IR (TTIR and linalg)."""
    option = str(compiler.job.finding.facts.get("option", ""))
    if option not in launch.options:
        return Verdict.INCONCLUSIVE, f"the captured launches do not pass {option or 'the option'}"
    source = compiler.source
    with_option = compiler.compile(variants.original(source), launch)
    without = variants.Variant(f"original without {option}", source, variants.LaunchPatch(drop_options=(option,)))
    without_option = compiler.compile(without, launch)
    for result in (with_option, without_option):
        if not result.ok:
            return Verdict.INCONCLUSIVE, f"{result.variant.name} does not compile: {result.error}"
    value = f"{option}={launch.options[option]}"
    stages = [s for s in ("ttir", "ttadapter") if s in with_option.ir]
    differing = [
        s for s in stages if without_locations(with_option.ir[s]) != without_locations(without_option.ir.get(s, ""))
    ]
    if differing:
        return Verdict.REFUTED, f"{value} changes the compiled {'/'.join(differing)}"
    warning = "; ".join(sorted({x.printed.strip() for x in compiler.job.launches if x.printed}))
    evidence = (
        f"no effect on the compiled kernel: TTIR and linalg are byte-identical with {value} "
        f"and without it, source locations aside (the value only reaches metadata)"
    )
    return Verdict.CONFIRMED, evidence + (f"; triton-ascend printed: {warning}" if warning else "")


def _passing_the_flagged_value(compiler: FindingCompiler, launches: list[Launch]) -> list[Launch]:
    """The launches that pass the option value written at the finding, when there are any."""
    facts = compiler.job.finding.facts
    option, value = facts.get("option"), facts.get("value")
    return [x for x in launches if value is not None and x.options.get(str(option)) == value] or launches


def _elsewhere(compiler: FindingCompiler, error: CompileError) -> str | None:
    """Why a compile error is no evidence about the finding, when it is raised away from the
    finding's statement (the compile stops at the first error: the finding's line may be in a
    branch not compiled for this specialisation, or after the error)."""
    finding = compiler.job.finding
    if error.line in statement_rows(compiler.source, finding):
        return None
    where = f"at line {error.line}" if error.line else "outside the finding's file"
    return (
        f"the compile fails {where}, not at the finding's line {finding.location.row}, "
        f"so it says nothing about that line: {error}"
    )


def index_cast_ir(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """`.to` on a constexpr fails to compile; a cast after an i32 multiply wraps."""
    finding = compiler.job.finding
    row = finding.location.row
    original = compiler.compile(variants.original(compiler.source), launch)
    error = original.error
    if error is not None and "has no attribute 'to'" in error.message:
        elsewhere = _elsewhere(compiler, error)
        if elsewhere is not None:
            return Verdict.INCONCLUSIVE, elsewhere
        fixed = variants.fixed(compiler.source, finding)
        if fixed is None:
            note = "the rule offers no automatic fix to verify"
        else:
            result = compiler.compile(fixed, launch)
            if result.error is not None and result.error.line == _fixed_row(finding):
                return Verdict.INCONCLUSIVE, (
                    f"compiling the captured specialisation fails: {error}; "
                    f"the fixed variant fails on that line too: {result.error}"
                )
            note = (
                "the fixed variant compiles"
                if result.ok
                else f"the fixed variant gets past that line and fails elsewhere: {result.error}"
            )
        return Verdict.CONFIRMED, f"compiling the captured specialisation fails: {error}; {note}"
    if error is not None:
        return Verdict.INCONCLUSIVE, f"the kernel does not compile for another reason: {error}"
    chain = extension_of_i32_multiply(original.ir.get("ttir", ""), original.file, row)
    if chain:
        return Verdict.CONFIRMED, (
            f"the TTIR multiplies in i32, then extends to i64 (line {row}):\n    "
            + "\n    ".join(chain)
            + "\n"
            + _fixed_note(compiler, launch, _multiplies_in_i64(finding))
        )
    if finding.facts.get("cause") == "multiply":
        return Verdict.REFUTED, f"no i32 multiply feeds an extension to i64 on line {row} of the TTIR"
    receiver = str(finding.facts.get("receiver", "the receiver"))
    passed = launch.arg_summary.get(receiver)
    detail = f"{receiver} is {passed}" if passed else f"{receiver} is not a constexpr"
    hint = (
        f" (Triton would specialise {receiver} into a constexpr if the workload passed 1)"
        if passed and passed.startswith("i") and receiver not in launch.do_not_specialize
        else ""
    )
    return Verdict.REFUTED, f"the kernel compiles on this specialisation: {detail}{hint}"


def _multiplies_in_i64(finding: Finding) -> Callable[[Compiled], str]:
    """What the fixed variant multiplies in i64 on the finding's (fixed) line."""

    def check(fixed: Compiled) -> str:
        wide = multiplies(fixed.ir.get("ttir", ""), fixed.file, _fixed_row(finding), "i64")
        if wide:
            return "the fixed variant multiplies in i64:\n    " + "\n    ".join(wide)
        return "the fixed variant compiles (no i64 multiply on that line)"

    return check


def pointer_offset_ir(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """The pointer offset on the finding's line is multiplied in i32 (it wraps silently)."""
    finding = compiler.job.finding
    row = finding.location.row
    original = compiler.compile(variants.original(compiler.source), launch)
    if original.error is not None:
        return Verdict.INCONCLUSIVE, f"the kernel does not compile: {original.error}"
    narrow = multiplies(original.ir.get("ttir", ""), original.file, row, "i32")
    if not narrow:
        return Verdict.REFUTED, f"no i32 multiply on line {row} of the TTIR"
    return Verdict.CONFIRMED, (
        f"the TTIR multiplies the offset in i32 before adding it to the pointer (line {row}):\n    "
        + "\n    ".join(narrow)
        + "\n"
        + _fixed_note(compiler, launch, _multiplies_in_i64(finding))
    )


def compile_error(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """The compiler rejects the kernel with the message the rule predicts (`error` fact)."""
    phrase = str(compiler.job.finding.facts.get("error", ""))
    error = compiler.compile(variants.original(compiler.source), launch).error
    if error is None:
        return Verdict.REFUTED, "the kernel compiles on this specialisation"
    if phrase and phrase in error.message:
        elsewhere = _elsewhere(compiler, error)
        if elsewhere is not None:
            return Verdict.INCONCLUSIVE, elsewhere
        return Verdict.CONFIRMED, f"compiling the captured specialisation fails: {error}"
    return Verdict.INCONCLUSIVE, f"the kernel does not compile for another reason: {error}"


def _fixed_row(finding: Finding) -> int:
    edits = finding.fix.edits if finding.fix else ()
    return edits[0].start.row if edits else finding.location.row


def _passing_none(compiler: FindingCompiler, launches: list[Launch]) -> list[Launch]:
    """The launches that pass ``None`` for a pointer, when there are any: they compile the
    optional path exactly as the workload does, with no value made up by the replay."""
    return [x for x in launches if None in x.constants.values()] or launches


def _names(finding: Finding, fact: str) -> list[str]:
    value = finding.facts.get(fact, ())
    return list(value) if isinstance(value, tuple) else []


def none_pointer_compile(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """With the optional pointer None the mixed constexpr/runtime test still lowers its arm."""
    finding = compiler.job.finding
    flags = _names(finding, "flags")
    pointers = [p for p in _names(finding, "optional_pointers") if launch.signature.get(p, "").startswith("*")]
    if not pointers:
        return Verdict.INCONCLUSIVE, "the captured launches pass no optional pointer of the finding"
    if any(launch.constants.get(p, 0) is None for p in pointers):
        patch, how = variants.LaunchPatch(), "as captured"
    elif not flags:
        return Verdict.INCONCLUSIVE, f"no constexpr flag guards {', '.join(pointers)}: cannot pass None"
    else:
        patch = variants.LaunchPatch(constants={**{f: False for f in flags}, **{p: None for p in pointers}})
        how = "set by the replay"
    original = compiler.compile(variants.Variant("original", compiler.source, patch), launch)
    state = _args(patch.apply(launch), [*pointers, *flags])
    if original.error is None:
        return Verdict.REFUTED, f"compiles with {state} ({how}): the guarded arm is not lowered"
    error = original.error
    if "NoneType" not in error.message:
        return Verdict.INCONCLUSIVE, f"with {state} the kernel fails for another reason: {error}"
    fixed = variants.fixed(compiler.source, finding)
    fixed_note = "the rule offers no automatic fix to verify"
    if fixed is not None:
        result = compiler.compile(variants.Variant("fixed", fixed.source, patch), launch)
        fixed_note = "the fixed variant compiles" if result.ok else f"the fixed variant fails too: {result.error}"
    return Verdict.CONFIRMED, (
        f"with {state} ({how}) the compile fails: {error} — both arms of the mixed "
        f"constexpr/runtime test are lowered; {fixed_note}"
    )


def dma_arms_ub(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """A runtime branch keeps both DMA arms' buffers in UB."""
    finding = compiler.job.finding
    row = finding.location.row
    arms = variants.if_arms(compiler.source, row, _names(finding, "dma_arms"))
    if len(arms) != 2:
        return Verdict.INCONCLUSIVE, "no two-armed `if` statement at the finding"
    original = compiler.compile(variants.original(compiler.source), launch)
    alone = [compiler.compile(variants.arm_alone(compiler.source, row, arm), launch) for arm in arms]
    failing = next((a for a in alone if not a.ok), None)
    if failing is not None:
        return Verdict.INCONCLUSIVE, f"{failing.variant.name} does not compile: {failing.error}"
    peaks = [a.memory.peak("UB") for a in alone]
    arm_text = ", ".join(f"{arm.kind} arm alone {kib(p)}" for arm, p in zip(arms, peaks, strict=True))
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
    per_arm = joined.join(f"{a.kind} arm {kib(p)}" for a, p in zip(arms, peaks, strict=True))
    return Verdict.CONFIRMED, (
        f"peak UB: original {kib(peak)} {relation} {per_arm} (each arm alone); "
        f"both arms' buffers hold UB at once{placement}; {split}"
    )


def _configuration(finding: Finding) -> dict[str, object]:
    """The finding's constexpr configuration, from its `configuration` fact ("NAME=value")."""
    values: dict[str, object] = {}
    for entry in _names(finding, "configuration"):
        name, _, text = entry.partition("=")
        try:
            values[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            continue
    return values


def ub_plan(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """A configuration the static estimate puts over the UB: does the compiler reject it?"""
    finding = compiler.job.finding
    configuration = _configuration(finding)
    if not configuration:
        return Verdict.INCONCLUSIVE, "the finding names no constexpr configuration to compile"
    patch = variants.LaunchPatch(constants=configuration)
    original = compiler.compile(variants.Variant("original", compiler.source, patch), launch)
    estimate = finding.facts.get("estimate_bytes")
    estimated = f" (static estimate {kib(estimate)})" if isinstance(estimate, int) else ""
    state = _args(patch.apply(launch), list(configuration))
    target = compiler.toolchain.compile_target
    if not original.ok:
        overflow = original.memory.overflow or str(original.error)
        if "ub overflow" in overflow:
            return Verdict.CONFIRMED, (
                f"with {state} the compiler rejects the kernel for {target.model}: {overflow}{estimated}"
            )
        return Verdict.INCONCLUSIVE, f"with {state} the kernel fails for another reason: {original.error}"
    planned = original.memory.peak("UB")
    return Verdict.REFUTED, (
        f"compiles with {state} for {target.model}: the compiler plans {kib(planned)} "
        f"of {kib(target.soc.ub_bytes)} of UB{estimated}"
    )


def _arm_placement(compiled: Compiled, arms: list[variants.Arm]) -> str:
    usage = compiled.memory.get("UB")
    if usage is None:
        return ""
    parts = []
    for arm in arms:
        mine = [b for b in usage.buffers if arm.holds(b.line)]
        if mine:
            low = min(min(b.offsets, default=0) for b in mine)
            high = max(b.end for b in mine)
            lines = ", ".join(str(n) for n in sorted({b.line for b in mine if b.line is not None}))
            parts.append(f"{arm.kind} arm (line {lines}) at {kib_range(low, high)}")
    return f" ({'; '.join(parts)})" if parts else ""


JUDGES: dict[Evidence, Judge] = {
    Evidence.LAUNCH_OPTION_IR: Judge(launch_option_ir, select=_passing_the_flagged_value),
    Evidence.INDEX_CAST_IR: Judge(index_cast_ir),
    Evidence.COMPILE_ERROR: Judge(compile_error),
    Evidence.POINTER_OFFSET_IR: Judge(pointer_offset_ir),
    Evidence.NONE_POINTER_COMPILE: Judge(none_pointer_compile, select=_passing_none),
    Evidence.DMA_ARMS_UB: Judge(dma_arms_ub),
    Evidence.UB_PLAN: Judge(ub_plan),
}
