"""The evidence the compile backend collects, by kind (:class:`ascend_lint.rule.Evidence`).

A judge looks at one captured specialisation and returns a verdict with the evidence text;
:func:`judge_launches` tries the kernel's distinct specialisations (in workload order; a judge may
select some) and keeps the first that confirms the finding. Judges read what the rule knows
about its finding from ``finding.facts`` (see each kind's comment in ``ascend_lint/rule.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ascend_lint.model import Finding
from ascend_lint.rule import Evidence

from .. import variants
from ..capture.launches import Launch, split_keywords
from ..jobs import cast_row, same_function, statement_rows
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
    """What compiling the fixed variant shows (the original compiled). The verdict rests on the
    original's evidence: a fixed variant failing away from the finding's (fixed) statement only
    leaves the fix unverified."""
    finding = compiler.job.finding
    fixed = variants.fixed(compiler.source, finding)
    if fixed is None:
        return "the rule offers no automatic fix to verify"
    result = compiler.compile(fixed, launch)
    if result.error is None:
        return check(result) if check else "the fixed variant compiles"
    row = variants.row_after_fix(finding.location, finding)
    if result.error.line in _fixed_rows(fixed.source, finding, row):
        return f"the fixed variant fails on that line (line {row} once fixed): {result.error}"
    return _unverified_fix(result.error, row)


def _unverified_fix(error: CompileError, row: int) -> str:
    """The note for a fixed variant failing away from the finding's line (`row` once fixed)."""
    where = f"at line {error.line}" if error.line else "outside the finding's file"
    return (
        f"the fix is not verified: the fixed variant fails {where}, away from the finding's line "
        f"({row} once fixed): {error}"
    )


def _fixed_rows(fixed_source: str, finding: Finding, row: int) -> range:
    """The rows of the fixed variant's statement holding the finding's (moved) line."""
    moved = replace(
        finding, location=replace(finding.location, row=row), end_location=replace(finding.location, row=row)
    )
    return statement_rows(fixed_source, moved)


def launch_option_ir(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """The launch option changes nothing in the compiled IR (TTIR and linalg)."""
    facts = compiler.job.finding.facts
    option, flagged = str(facts.get("option", "")), facts.get("value")
    if option not in launch.options:
        return Verdict.INCONCLUSIVE, f"the captured launches do not pass {option or 'the option'}"
    if flagged is not None and launch.options[option] != flagged:
        return Verdict.INCONCLUSIVE, (
            f"no captured launch passes the flagged {option}={flagged} (they pass {option}="
            f"{launch.options[option]}): another launch's value is no evidence about this one"
        )
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
    warning = launch.printed.strip()  # what this launch made triton-ascend print
    evidence = (
        f"no effect on the compiled kernel: TTIR and linalg are byte-identical with {value} "
        f"and without it, source locations aside (the value only reaches metadata)"
    )
    return Verdict.CONFIRMED, evidence + (f"; triton-ascend printed: {warning}" if warning else "")


def _passing_the_flagged_value(compiler: FindingCompiler, launches: list[Launch]) -> list[Launch]:
    """The launches that pass the option value written at the finding, when there are any (else
    all: :func:`launch_option_ir` then says they pass another value, which is no evidence)."""
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


def _away_from_finding(compiler: FindingCompiler, compiled: Compiled, error: CompileError) -> str | None:
    """Why a compile error away from the finding's statement is no evidence about it (None when
    it is raised there). The front end lowers a function's statements in order: when the finding
    sits before the error in the same function and was not lowered, a constexpr pruned it for
    this specialisation — that is the reason, not that the compile stopped elsewhere."""
    elsewhere = _elsewhere(compiler, error)
    if elsewhere is None:
        return None
    rows = statement_rows(compiler.source, compiler.job.finding)
    if error.line and rows[-1] < error.line and same_function(compiler.source, rows.start, error.line):
        return _not_lowered(compiler, compiled) or elsewhere
    return elsewhere


def _constexprs(launch: Launch) -> str:
    """The launch's constexpr values (``None`` pointers included), naming its specialisation."""
    names = [n for n, text in launch.arg_summary.items() if text.startswith("constexpr") or text == "None"]
    return _args(launch, names) or "no constexpr"


def _not_lowered(compiler: FindingCompiler, compiled: Compiled, rows: Iterable[int] = ()) -> str | None:
    """Why a compile of the original says nothing about the finding, when it never lowered the
    finding's statement (or any of ``rows``): the line sits in a branch a constexpr prunes for
    this specialisation (or after a constexpr `return`). None when it lowered it."""
    finding = compiler.job.finding
    wanted = set(rows) or {*statement_rows(compiler.source, finding), finding.location.row}
    if compiled.rows & wanted:
        return None
    return (
        f"line {finding.location.row} was not compiled for the launched specialisation "
        f"({_constexprs(compiled.launch)}): a constexpr prunes the code holding it, so this replay "
        "has no evidence about it; a workload whose launches reach that line can tell"
    )


def index_cast_ir(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """`.to` on a constexpr fails to compile; a cast after an i32 multiply wraps."""
    finding = compiler.job.finding
    original = compiler.compile(variants.original(compiler.source), launch)
    error = original.error
    if error is not None and "has no attribute 'to'" in error.message:
        elsewhere = _away_from_finding(compiler, original, error)
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
    pruned = _not_lowered(compiler, original)
    if pruned is not None:
        return Verdict.INCONCLUSIVE, pruned
    cast = cast_row(compiler.source, finding)
    chain = extension_of_i32_multiply(original.ir.get("ttir", ""), original.file, cast)
    if chain:
        shown = f"the TTIR multiplies in i32, then extends to i64 (line {cast}):\n    " + "\n    ".join(chain)
        return Verdict.CONFIRMED, f"{shown}\n{_fixed_note(compiler, launch, _multiplies_in_i64(finding))}"
    if finding.facts.get("cause") == "multiply":
        return Verdict.REFUTED, f"no i32 multiply feeds an extension to i64 on line {cast} of the TTIR"
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
    """What the fixed variant multiplies in i64 in the finding's (fixed) statement: a receiver
    written over several lines keeps its multiply on a line of its own."""

    def check(fixed: Compiled) -> str:
        rows = _fixed_rows(fixed.variant.source, finding, _fixed_row(finding))
        wide = [line for row in rows for line in multiplies(fixed.ir.get("ttir", ""), fixed.file, row, "i64")]
        if wide:
            return "the fixed variant multiplies in i64:\n    " + "\n    ".join(wide)
        return "the fixed variant compiles (no i64 multiply in that statement)"

    return check


def pointer_offset_ir(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """The pointer offset on the finding's line is multiplied in i32 (it wraps silently)."""
    finding = compiler.job.finding
    row = finding.location.row
    original = compiler.compile(variants.original(compiler.source), launch)
    if original.error is not None:
        return Verdict.INCONCLUSIVE, f"the kernel does not compile: {original.error}"
    pruned = _not_lowered(compiler, original)
    if pruned is not None:
        return Verdict.INCONCLUSIVE, pruned
    narrow = multiplies(original.ir.get("ttir", ""), original.file, row, "i32")
    if not narrow:
        return Verdict.REFUTED, f"no i32 multiply on line {row} of the TTIR"
    shown = f"the TTIR multiplies the offset in i32 before adding it to the pointer (line {row}):\n    " + (
        "\n    ".join(narrow)
    )
    return Verdict.CONFIRMED, f"{shown}\n{_fixed_note(compiler, launch, _multiplies_in_i64(finding))}"


def compile_error(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """The compiler rejects the kernel with the message the rule predicts (`error` fact)."""
    phrase = str(compiler.job.finding.facts.get("error", ""))
    original = compiler.compile(variants.original(compiler.source), launch)
    error = original.error
    if error is None:
        pruned = _not_lowered(compiler, original)
        if pruned is not None:
            return Verdict.INCONCLUSIVE, pruned
        return Verdict.REFUTED, "the kernel compiles on this specialisation"
    if phrase and phrase in error.message:
        elsewhere = _away_from_finding(compiler, original, error)
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
    guarded = _guarded_rows(compiler.source, finding.location.row, set(flags))
    if original.error is None:
        pruned = _not_lowered(compiler, original, guarded)
        if pruned is not None:
            return Verdict.INCONCLUSIVE, pruned
        return Verdict.REFUTED, f"compiles with {state} ({how}): the guarded arm is not lowered"
    error = original.error
    derived = _names(finding, "derived_names")
    if not _fails_on_the_pointer(error.message, derived):
        return Verdict.INCONCLUSIVE, f"with {state} the kernel fails for another reason: {error}"
    if error.line not in _if_rows(compiler.source, finding.location.row, finding.end_location.row):
        where = f"at line {error.line}" if error.line else "outside the finding's file"
        return Verdict.INCONCLUSIVE, (
            f"with {state} ({how}) the compile fails {where}, not in the `if` at the finding's line "
            f"{finding.location.row}, so it says nothing about that test: {error}"
        )
    fixed = variants.fixed(compiler.source, finding)
    fixed_note = "the rule offers no automatic fix to verify"
    if fixed is not None:
        result = compiler.compile(variants.Variant("fixed", fixed.source, patch), launch)
        if result.error is not None:
            moved = variants.row_after_fix(finding.location, finding)
            if _fails_on_the_pointer(result.error.message, derived) and result.error.line in _if_rows(
                fixed.source, moved
            ):
                return Verdict.INCONCLUSIVE, (
                    f"with {state} ({how}) the compile fails: {error}; the fixed (nested) variant fails "
                    f"there too: {result.error}, so the mixed test is not the cause"
                )
            fixed_note = _unverified_fix(result.error, moved)
        else:
            fixed_note = "the fixed variant compiles"
    return Verdict.CONFIRMED, (
        f"with {state} ({how}) the compile fails: {error} — both arms of the mixed "
        f"constexpr/runtime test are lowered; {fixed_note}"
    )


def _fails_on_the_pointer(message: str, derived: list[str]) -> bool:
    """The compile error a None pointer gives in a lowered arm: `None + offset` (an attribute of
    NoneType), or a name bound from the pointer only under its flag, undefined with the flag
    False (`NameError('p_h0 is not defined')`; measured on triton-ascend 3.2.0)."""
    return "NoneType" in message or any(f"{name} is not defined" in message for name in derived)


def _if_rows(source: str, row: int, end_row: int | None = None) -> range:
    """The rows of the ``if`` statements starting at ``row``, their arms included (in the fixed
    variant, the nested form); for a conditional expression (no ``if`` statement there), the
    rows of the finding up to ``end_row``."""
    arms = variants.if_arms(source, row)
    return range(row, max((arm.last_row for arm in arms), default=end_row or row) + 1)


def _guarded_rows(source: str, row: int, flags: set[str]) -> range:
    """The rows whose lowering shows the ``if`` at ``row`` was reachable for the specialisation:
    the ``if`` itself, or the outermost ``if`` around it testing only the finding's constexpr
    flags (the nested guard, which prunes it by design when the flag is False)."""
    tree = ast.parse(source)
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    node: ast.AST | None = next((n for n in ast.walk(tree) if isinstance(n, ast.If) and n.lineno == row), None)
    region = node
    while node is not None:
        parent = parents.get(id(node))
        names = (
            {n.id for n in ast.walk(parent.test) if isinstance(n, ast.Name)} if isinstance(parent, ast.If) else set()
        )
        if not (names and names <= flags):
            break
        region = node = parent
    if not isinstance(region, ast.If):
        return range(row, row + 1)
    return range(region.lineno, (region.end_lineno or region.lineno) + 1)


def dma_arms_ub(compiler: FindingCompiler, launch: Launch) -> Judgement:
    """A runtime branch keeps both DMA arms' buffers in UB."""
    finding = compiler.job.finding
    row = finding.location.row
    arms = variants.if_arms(compiler.source, row, _names(finding, "dma_arms"), finding.location.column)
    if len(arms) != 2:
        return Verdict.INCONCLUSIVE, "no two-armed `if` statement or conditional expression at the finding"
    original = compiler.compile(variants.original(compiler.source), launch)
    lowered = original.ok or (original.error is not None and original.error.type == "MLIRCompilationError")
    pruned = _not_lowered(compiler, original, [row]) if lowered else None  # the front end went through
    if pruned is not None:
        return Verdict.INCONCLUSIVE, pruned
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
    constants, options = split_keywords(configuration, launch.parameters())
    patch = variants.LaunchPatch(constants=constants, options=options)
    original = compiler.compile(variants.Variant("original", compiler.source, patch), launch)
    estimate = finding.facts.get("estimate_bytes")
    estimated = f" (static estimate {kib(estimate)})" if isinstance(estimate, int) else ""
    shown = [_args(patch.apply(launch), list(constants)), *(f"option {k} = {v!r}" for k, v in options.items())]
    state = ", ".join(part for part in shown if part)
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
