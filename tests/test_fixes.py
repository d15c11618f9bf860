"""Autofix guarantees: idempotent, parses, repairs what it claims, refuses broken results,
writes atomically; the CLI's `--fix`, `--unsafe-fixes`, `--diff`, `--show-fixes` and the JSON
fix objects (end to end through the `ascend-lint` command)."""

from __future__ import annotations

import ast
import builtins
import dataclasses
import json
import random
import stat
import subprocess
import sys
import types
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import libcst
import pytest
from conftest import CORPUS, FIXTURES, settings, snippet_source
from fla_corpus import fla_ascend_files

from ascend_lint import engine, fixer
from ascend_lint.cli import main
from ascend_lint.config import Settings, load_settings
from ascend_lint.engine import DocumentMemory, lint_file, lint_source
from ascend_lint.fixer import FixedFile, fix_result, write_fixed
from ascend_lint.fixes import FixPlan, Replace, apply_edits
from ascend_lint.model import FileResult
from ascend_lint.registry import all_rules
from ascend_lint.rule import Example
from ascend_lint.rules.launch_num_warps import LaunchNumWarps

CLI = [sys.executable, "-m", "ascend_lint", "check", "--isolated", "--target-all"]
KERNEL_FILES = sorted((FIXTURES / "triton_ascend").glob("*.py"))

# Safe (ASC001, ASC002) and unsafe (ASC003) fixes, a comment and odd spacing to keep.
KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(x, y, o, B, BT: tl.constexpr):
    b_x = tl.load(x + tl.arange(0, BT))   # keep   this comment
    b_y = tl.dot(b_x, tl.load(y))
    tl.store(o, b_x + b_y)
    n = B.to(tl.int64)


def launch(x, y, o, B):
    k[(1,)](x, y, o, B, BT=16,
            num_warps=4)
"""
SAFE_FIXED = KERNEL.replace("B.to(tl.int64)", "tl.cast(B, tl.int64)").replace(
    "BT=16,\n            num_warps=4)", "BT=16)"
)
UNSAFE_FIXED = SAFE_FIXED.replace(
    "    b_y = tl.dot(b_x, tl.load(y))\n    tl.store(o, b_x + b_y)",
    "    b_x_c = (b_x + 0.0).to(b_x.dtype)\n    b_y = tl.dot(b_x, tl.load(y))\n    tl.store(o, b_x_c + b_y)",
)


def run_cli(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def kernel_file(tmp_path) -> Path:
    path = tmp_path / "kernel.py"
    path.write_text(KERNEL)
    return path


def fixed_in_memory(path: Path, unsafe: bool = True):
    config = settings()
    return fix_result(lint_file(str(path), config), config, unsafe=unsafe)


# ---- guarantees, on every fixture kernel -------------------------------------------------


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: p.name)
def test_fixing_twice_changes_nothing(path):
    result, _fixed = fixed_in_memory(path)
    assert result.error is None
    again, refixed = fix_result(result, settings(), unsafe=True)
    assert refixed is None and again.findings == result.findings


def test_lines_fixes_insert_at_one_place_all_go_in_in_one_pass():
    """Two left operands of one statement each need a copy inserted before it (vllm-ascend's
    `kda/solve_tril.py`): one pass inserts both, in the order of the reads they serve (not of
    their names), and a second pass finds nothing to fix."""
    source, _ = snippet_source(
        """
        @triton.jit
        def k(p_z, p_a, p_w, p_o, p_p):
            b_z = tl.load(p_z)
            b_a = tl.load(p_a)
            b_w = tl.load(p_w)
            b_x = tl.dot(b_z, b_w) + tl.dot(b_a, b_w)
            tl.store(p_o, b_x + b_z)
            tl.store(p_p, b_a)
        """
    )
    only = settings(select=["ASC003"])
    result, fixed = fix_result(lint_source(source, "k.py", only), only, unsafe=True)
    assert fixed is not None and result.findings == []
    assert (
        "    b_z_c = (b_z + 0.0).to(b_z.dtype)\n"
        "    b_a_c = (b_a + 0.0).to(b_a.dtype)\n"
        "    b_x = tl.dot(b_z, b_w) + tl.dot(b_a, b_w)\n"
        "    tl.store(p_o, b_x + b_z_c)\n"
        "    tl.store(p_p, b_a_c)\n"
    ) in fixed.fixed
    again, refixed = fix_result(lint_source(fixed.fixed, "k.py", only), only, unsafe=True)
    assert refixed is None and again.findings == []


def test_a_fix_inside_a_statement_a_copy_fix_rewrites_goes_in_with_it():
    """ASC003 spells out `b_a += ...` to read the copy; the ASC002 cast inside the added value
    is applied in the same pass (one fix re-renders the other's code), and a second pass finds
    nothing."""
    source, _ = snippet_source(
        """
        @triton.jit
        def k(p_a, p_b, p_o, T):
            pid = tl.program_id(0)
            b_a = tl.load(p_a)
            b_o = tl.dot(b_a, tl.load(p_b))
            b_a += tl.load(p_a + (pid * T).to(tl.int64))
            tl.store(p_o, b_o + b_a)
        """
    )
    both = settings(select=["ASC002", "ASC003"])
    result, fixed = fix_result(lint_source(source, "k.py", both), both, unsafe=True)
    assert fixed is not None and result.findings == []
    assert "    b_a = b_a_c + tl.load(p_a + tl.cast(pid, tl.int64) * T)\n" in fixed.fixed
    assert fix_result(lint_source(fixed.fixed, "k.py", both), both, unsafe=True)[1] is None


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: p.name)
def test_fixed_file_parses_and_no_fixed_finding_remains(path):
    original = lint_file(str(path), settings())
    result, fixed = fixed_in_memory(path)
    assert result.error is None
    if fixed is not None:
        compile(fixed.fixed, str(path), "exec")
    assert not [f for f in result.findings if f.fix is not None]
    unfixable = Counter(f.code for f in original.findings if f.fix is None)
    assert Counter(f.code for f in result.findings) == unfixable


def fixed_keeping_the_check(path: str, config: Settings) -> tuple[FileResult, FixedFile | None]:
    """Fixed as `--fix` does: the re-lint keeps what the file's check parsed and found."""
    memory = DocumentMemory.empty()
    return fix_result(lint_file(path, config, memory=memory), config, unsafe=True, memory=memory)


def assert_fixed_as_from_scratch(path: str, config: Settings) -> tuple[FileResult, FixedFile | None]:
    """`--fix`, keeping the check's memory for the re-lint, fixes what a fix re-linting from
    scratch fixes, and its re-lint reports what a fresh lint of the fixed text reports: the
    property that makes keeping the memory safe."""
    kept, fixed = fixed_keeping_the_check(path, config)
    scratch, expected = fix_result(lint_file(path, config), config, unsafe=True)
    assert (kept.error, kept.fixed) == (scratch.error, scratch.fixed), path
    assert (fixed and fixed.fixed) == (expected and expected.fixed), path
    if fixed is not None:
        fresh = lint_source(fixed.fixed, path, config)
        assert (kept.source, kept.error, kept.findings) == (fresh.source, fresh.error, fresh.findings), path
    return kept, fixed


def test_fixing_with_the_checks_memory_is_fixing_from_scratch(tmp_path):
    """Over the fixture corpus and every rule's examples, with unsafe fixes."""
    examples = [example for rule in all_rules() for example in rule.INVALID]
    for index, example in enumerate(examples):
        code = example.code if isinstance(example, Example) else example
        (tmp_path / f"example{index}.py").write_text(snippet_source(code)[0], encoding="utf-8")
    config = settings()
    paths = [*CORPUS, *sorted(tmp_path.glob("*.py"))]
    changed = sum(assert_fixed_as_from_scratch(str(path), config)[1] is not None for path in paths)
    assert changed >= 9 + len({rule.CODE for rule in all_rules() if rule.FIX})


def test_safe_fixes_leave_unsafe_ones_offered(kernel_file):
    result, fixed = fixed_in_memory(kernel_file, unsafe=False)
    assert fixed.fixed == SAFE_FIXED
    assert [(f.code, f.fix.applicability) for f in result.findings] == [("ASC003", "unsafe")]


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: p.name)
def test_every_finding_has_a_fix_or_says_why_not(path):
    """README and docs/fixes.md promise `no_fix_reason` on each finding a rule offers no fix
    for: a finding with neither is a rule that forgot to say why."""
    findings = lint_file(str(path), settings()).findings
    assert [(f.code, f.location.row) for f in findings if f.fix is None and not f.no_fix_reason] == []


def test_a_tile_read_in_the_dots_own_statement_says_why_it_has_no_fix(lint):
    findings = lint("""\
import triton
import triton.language as tl


@triton.jit
def k(x, h, o, BT: tl.constexpr):
    b_k = tl.load(x + tl.arange(0, BT)[:, None] * BT + tl.arange(0, BT)[None, :])
    b_h = tl.load(h + tl.arange(0, BT)[:, None] * BT + tl.arange(0, BT)[None, :])
    b_k = b_k - tl.dot(b_k, b_h)
    tl.store(o + tl.arange(0, BT)[:, None] * BT + tl.arange(0, BT)[None, :], b_k)
""")
    [finding] = findings
    assert finding.code == "ASC003" and finding.fix is None
    assert finding.no_fix_reason is not None and finding.no_fix_reason.startswith("`b_k` is read in the dot's own")


def test_a_knob_stored_by_a_chained_assignment_names_what_else_it_binds(lint):
    findings = lint("""\
import torch_npu
import triton
import triton.language as tl


@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 1.0)


def run(x, n):
    kw = {"BLOCK": 128}
    kw["num_warps"] = nw = 4
    kw["num_stages"] = 2
    k[(1,)](x, n, **kw)
    return nw
""")
    reasons = {f.location.row: f.no_fix_reason for f in findings}
    assert reasons == {
        13: "the statement also binds `nw`: remove the store by hand",
        14: "the statement adds nothing else: delete it by hand",
    }


def test_declined_fixes_are_not_offered_and_say_why(lint):
    """An OR-ed flag whose arm is reachable with the flag off, a walk whose stride per task is
    not what its entry offset says, a `.to()` with a bitcast: no provably right rewrite
    exists, so no fix, and each finding carries the reason."""
    findings = lint("""\
import triton
import triton.language as tl


@triton.heuristics({"HAS_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, o, W, B, task_num, num_core, BT: tl.constexpr, HAS_H0: tl.constexpr):
    i_t = tl.program_id(0)
    if HAS_H0 or i_t * BT < W:
        b_h = tl.load(h0 + tl.arange(0, 16))
    p_o = o + i_t
    for task_id in tl.range(i_t, task_num, num_core):
        tl.store(p_o, 1.0)
        p_o = p_o + 2 * num_core
    n = B.to(tl.int64, bitcast=True)
""")
    assert sorted(f.code for f in findings) == ["ASC002", "ASC004", "ASC006"]
    assert all(f.fix is None for f in findings)
    reasons = {f.code: f.no_fix_reason for f in findings}
    assert "`bitcast=`" in reasons["ASC002"]
    assert "runs for both values of `HAS_H0`" in reasons["ASC004"]
    assert reasons["ASC006"].startswith("`p_o`'s entry value has no term `2 * i_t`")


def test_a_block_pointer_advanced_across_tasks_is_reported_without_a_fix(lint):
    """`p_x = tl.advance(p_x, ...)` on a block pointer made before the task loop is ASC006's
    loop-carried pointer too; no rebuild is offered (the finding says why), while the plain
    pointer walked beside it keeps its closed form."""
    findings = lint("""\
import triton
import triton.language as tl


@triton.jit
def k(x, y, T, N, D: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    p_x = tl.make_block_ptr(x, (T,), (1,), (core_id * D,), (D,), (0,))
    p_y = y + core_id * D
    for task_id in tl.range(core_id, N, num_core):
        tl.store(p_y + tl.arange(0, D), tl.load(p_x, boundary_check=(0,)))
        p_x = tl.advance(p_x, (num_core * D,))
        p_y += num_core * D
""")
    assert [(f.code, f.location.row) for f in findings] == [("ASC006", 13), ("ASC006", 14)]
    block, walk = findings
    assert block.message.startswith("block pointer `p_x` is moved with `tl.advance` inside a task loop")
    assert block.fix is None
    assert block.no_fix_reason == (
        "a block pointer is not rebuilt automatically: offsets computed from the task index are int64 when the "
        "task count is, and `tl.make_block_ptr` takes int32 offsets only"
    )
    assert walk.fix is not None and "in closed form" in walk.fix.message
    assert [e.content.strip() for e in walk.fix.edits] == ["p_y = y + tl.cast(task_id, tl.int64) * D", ""]


# a kernel walking two pointers across its tasks; the tests add the advances
_TWO_WALKS = """\
import triton
import triton.language as tl


@triton.jit
def k(x, y, n, D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, D)
    p_x = x + pid * D
    p_y = y + pid * D
    for row in tl.range(pid, n, nprog):
        tl.store(p_y + offs, tl.load(p_x + offs))
"""


def test_a_walk_marked_noqa_is_left_out_of_the_closed_form_and_comments_stay(lint):
    """`p_y += ...  # noqa: ASC006` is the user's: the closed form rebinding the walks of the
    loop leaves it (and its comment) as written and rebinds `p_x` alone; the comment on the
    deleted advance of `p_x` goes on the rebinding that replaces it."""
    source = _TWO_WALKS + "        p_x += nprog * D  # next row of this core\n"
    source += "        p_y += nprog * D  # noqa: ASC006  (measured fine)\n"
    (finding,) = lint(source)
    assert finding.fix is not None and finding.fix.message.startswith("Rebind `p_x` in closed form")
    fixed = apply_edits(source, finding.fix.edits)
    assert "        p_x = x + tl.cast(row, tl.int64) * D  # next row of this core\n" in fixed
    assert "p_x += nprog * D" not in fixed
    assert "        p_y += nprog * D  # noqa: ASC006  (measured fine)\n" in fixed


@pytest.mark.parametrize(
    "advance",
    [
        # the finding's own row (the engine suppresses it there), inside the statement's brackets
        "p_y += (  # noqa: ASC006\n            nprog * D\n        )",
        # the last row of the lines a backslash continues from it (where the engine reads it)
        "p_y += \\\n            nprog * D  # noqa: ASC006",
        # a row the deletion of the advance edits (the engine would drop a fix editing it)
        "p_y += (\n            nprog  # noqa: ASC006\n            * D\n        )",
    ],
)
def test_a_multi_line_walk_marked_noqa_on_a_row_the_engine_reads_is_left_out(lint, advance: str):
    """A `# noqa: ASC006` on any row the engine honours for the advance's finding (its row, the
    rows continued from it) or for a fix deleting it (a row it spans) leaves the advance out of
    the closed form, as on the advance's own line: the other walk keeps its fix."""
    source = f"{_TWO_WALKS}        p_x += nprog * D\n        {advance}\n"
    walk = next(finding for finding in lint(source) if finding.location.row == 14)
    assert walk.fix is not None and walk.fix.message.startswith("Rebind `p_x` in closed form")
    fixed = apply_edits(source, walk.fix.edits)
    assert f"        {advance}\n" in fixed


def test_the_comments_inside_a_deleted_advance_stay_above_its_rebinding(lint):
    """The closed form deletes the advance's line: the comments written inside the advance go
    on lines of their own above the rebinding that replaces it, its trailing one on it."""
    source = """\
import triton
import triton.language as tl


@triton.jit
def k(x, y, n, D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, D)
    p_x = x + pid * D
    for row in tl.range(pid, n, nprog):
        tl.store(y + row * D + offs, tl.load(p_x + offs))
        p_x += (  # next row of this core
            nprog  # programs
            * D
        )  # a row apart
"""
    (finding,) = lint(source)
    assert finding.fix is not None
    fixed = apply_edits(source, finding.fix.edits)
    assert fixed.endswith(
        "    for row in tl.range(pid, n, nprog):\n"
        "        # next row of this core\n"
        "        # programs\n"
        "        p_x = x + tl.cast(row, tl.int64) * D  # a row apart\n"
        "        tl.store(y + row * D + offs, tl.load(p_x + offs))\n"
    )


def test_no_fix_edits_a_line_whose_noqa_suppresses_its_code(lint):
    """A fix rewriting a line where `# noqa: ASC006` suppresses ASC006 is dropped, whatever the
    rule planned (here the per-task rebinding renames the read on that line); the finding says
    why. A `# noqa` for another code there does not stop it."""
    source = """\
import triton
import triton.language as tl


@triton.jit
def k(q, o, T, task_num, BT: tl.constexpr):
    pid = tl.program_id(0)
    n = tl.num_programs(0)
    for task_id in tl.range(pid, task_num, n):
        q += task_id * T
        tl.store(o + task_id, tl.sum(tl.load(q + tl.arange(0, BT))))  # noqa: {code}
"""
    (kept,) = lint(source.format(code="ASC006"))
    assert kept.fix is None
    assert kept.no_fix_reason == "the fix would edit line 11, where `# noqa` suppresses ASC006"
    (fixed,) = lint(source.format(code="ASC002"))
    assert fixed.fix is not None and "q_task" in fixed.fix.message


def test_an_int32_product_that_is_also_a_block_pointer_offset_is_not_widened(lint):
    """ASC008's cast would make `row` int64, and `row` is also a block pointer's offset (in
    `tl.make_block_ptr`, `tl.advance`, or a device function's): block pointers take int32
    offsets only, so the widened kernel would not compile. No fix, and the reason names the
    block-pointer use."""
    findings = lint("""\
import triton
import triton.language as tl


@triton.jit
def _block(o, T, r, K: tl.constexpr):
    return tl.make_block_ptr(o, (T, K), (K, 1), (r, 0), (1, K), (1, 0))


@triton.jit
def k(q, o, cu_seqlens, T, H: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    row = bos * H + i_h
    b_q = tl.load(q + row * K + tl.arange(0, K))
    tl.store(tl.make_block_ptr(o, (T * H, K), (K, 1), (row, 0), (1, K), (1, 0)), b_q[None, :])
    step = bos * H
    step += i_h
    tl.store(q + step * K + tl.arange(0, K), b_q)
    p_o = tl.make_block_ptr(o, (T * H, K), (K, 1), (0, 0), (1, K), (1, 0))
    tl.store(tl.advance(p_o, (step, 0)), b_q[None, :])
    first = tl.where(i_h == 0, bos * H, 0)
    tl.store(q + first * K + tl.arange(0, K), b_q)
    tl.store(_block(o, T * H, first, K), b_q[None, :])
""")
    assert [(f.code, f.location.row) for f in findings] == [("ASC008", 14), ("ASC008", 17), ("ASC008", 22)]
    assert all(f.fix is None for f in findings)
    assert [f.no_fix_reason for f in findings] == [
        "the product also reaches `row`, an offset of `tl.make_block_ptr`; block pointers take int32 offsets only, "
        "so the widened kernel would not compile",
        "the product also reaches `step`, an offset of `tl.advance`; block pointers take int32 offsets only, "
        "so the widened kernel would not compile",
        "the product also reaches `first`, passed to `_block`, which uses it as a block-pointer offset; block "
        "pointers take int32 offsets only, so the widened kernel would not compile",
    ]


def test_a_knob_a_helper_also_passes_to_another_platforms_launch_keeps_it(lint):
    """`num_warps` passed to a helper that launches for CUDA too: the finding stays (it does
    nothing on Ascend), but deleting it would retune the CUDA launch, so there is no fix."""
    [finding] = lint(
        """\
import triton
import triton.language as tl


@triton.jit
def k(x, N, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)


def _launch(kernel, grid, device_type, *args, **kwargs):
    if device_type != "npu":
        kernel[grid](*args, **kwargs)
        return
    kernel[grid](*args, **kwargs)


def run(x, N):
    _launch(k, (N,), x.device.type, x, N, BLOCK=64, num_warps=8)
"""
    )
    assert finding.code == "ASC001" and finding.fix is None
    assert (
        finding.no_fix_reason == "`_launch` also passes it to a launch on another platform, where it tunes the kernel"
    )
    assert [related.location.row for related in finding.related] == [12]


def test_a_knob_host_code_reads_keeps_it(lint):
    """A knob whose entry host code reads out of the dict (`del`, a subscript, `pop`, `get`,
    `in`, also through a copy, a getter's result or a parameter), one a heuristic or the
    autotuner of the launched kernel reads (`Heuristics.run` passes it the launch keywords),
    one whose value binds a name read later: the finding stays, but removing it would raise a
    `KeyError`, change a value or leave a name unbound, so there is no fix. A knob popped on
    every path before the launch is not splatted: no finding."""
    findings = lint(
        """\
import triton
import triton.language as tl


@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)


@triton.heuristics({"SPLIT": lambda args: args["num_warps"] > 4})
@triton.jit
def split(x, n, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)


def _prune(configs, named_args, **kwargs):
    return configs if kwargs.get("num_stages", 1) > 1 else configs[:1]


@triton.autotune(configs=[triton.Config({"BLOCK": 64})], key=["n"], prune_configs_by={"early_config_prune": _prune})
@triton.jit
def pruned(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)


def defaults():
    return {"BLOCK": 64, "num_stages": 2}


def log(options):
    return "num_warps" in options


def report():
    return defaults().get("num_stages") or 1


def launch(x, n, grid, is_npu):
    kw = {"BLOCK": 64, "num_warps": 4}
    if is_npu:
        del kw["num_warps"]
    k[grid](x, n, **kw)
    meta = dict(BLOCK=64, num_stages=2)
    k[grid](x, n, **meta.copy())
    config = defaults()
    k[grid](x, n, **config)
    extra = {"BLOCK": 64, "num_warps": 8}
    log(extra)
    k[grid](x, n, **extra)
    split[grid](x, n, BLOCK=64, num_warps=8)
    pruned[grid](x, n, num_stages=3)
    k[grid](x, n, BLOCK=64, num_warps=(nw := 4))
    dropped = {"BLOCK": 64, "num_stages": 2}
    dropped.pop("num_stages", None)
    k[grid](x, n, **dropped)
    return meta["num_stages"], nw
"""
    )
    reasons = {f.location.row: f.no_fix_reason for f in findings if f.fix is None}
    assert all(f.code == "ASC001" for f in findings)
    read = "reads it out of the dict, which would fail or change without it"
    assert reasons == {
        27: f'`defaults().get("num_stages")` {read}',
        39: f'`del kw["num_warps"]` {read}',
        43: f'`meta["num_stages"]` {read}',
        47: f'`"num_warps" in options` {read}',
        50: "a heuristic of `split` reads it (`Heuristics.run` passes it the launch keywords)",
        51: "`prune_configs_by` of `pruned`'s autotuner reads it (it is given the launch keywords)",
        52: "its value binds `nw` (`:=`), which is read elsewhere",
    }
    # `dropped`'s `num_stages` is popped on every path before the launch: nothing splatted, no finding
    assert [f for f in findings if f.fix is not None] == []
    assert 53 not in {f.location.row for f in findings}


def test_a_knob_a_prune_reads_as_a_config_attribute_keeps_it(lint):
    """An early prune given the configs reads their knobs as attributes (`c.num_warps`,
    `getattr(c, "num_stages")`): removing them changes which configs survive, so no fix."""
    findings = lint(
        """\
import triton
import triton.language as tl


def _prune(configs, nargs, **kw):
    return [c for c in configs if c.num_warps <= 4 and getattr(c, "num_stages") < 3]


@triton.autotune(
    configs=[triton.Config({"B": 64}, num_warps=4, num_stages=2), triton.Config({"B": 128}, num_warps=8)],
    key=["n"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.jit
def ka(x, y, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)
"""
    )
    why = "`prune_configs_by` of `ka`'s autotuner reads it (it is given the launch keywords)"
    assert [(f.code, f.fix, f.no_fix_reason) for f in findings] == [("ASC001", None, why)] * 3


def test_a_knob_another_heuristic_of_its_table_reads_says_why_it_stays(lint):
    """The table's `BLOCK` heuristic reads `num_warps`: no fix, and the reason (before, the
    summary said "no fix offered")."""
    [finding] = lint(
        """
@triton.heuristics({"num_warps": lambda args: 4, "BLOCK": lambda args: 32 * args["num_warps"]})
@triton.jit
def kernel(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)
"""
    )
    assert finding.code == "ASC001" and finding.fix is None
    assert finding.no_fix_reason == (
        "another heuristic of the table reads it (`Heuristics.run` gives it the values set before)"
    )


def test_a_config_list_read_otherwise_keeps_its_configs(lint):
    """A literal config list bound to a name that host code also indexes or measures: keeping
    one copy of each config would move what `CONFIGS[2]` and `len(CONFIGS)` read, so the fix
    only drops the knobs. The same list used only as `configs=` still loses its copies."""
    source = """\
import triton

CONFIGS = [
    triton.Config({"BT": 32}, num_warps=2),
    triton.Config({"BT": 64}, num_warps=2),
    triton.Config({"BT": 32}, num_warps=4),
]
FALLBACK = CONFIGS[2]
COUNT = len(CONFIGS)
TUNED = [
    triton.Config({"BT": 32}, num_warps=2),
    triton.Config({"BT": 32}, num_warps=4),
]


@triton.autotune(configs=TUNED, key=["n"])
@triton.jit
def k(x, n, BT: tl.constexpr):
    pass
"""
    config = settings(select=["ASC001"])
    _, fixed = fix_result(lint_source(source, "configs.py", config), config, unsafe=False)
    assert fixed is not None
    assert fixed.fixed.split("FALLBACK")[0] == (
        "import triton\n\nCONFIGS = [\n"
        '    triton.Config({"BT": 32}),\n'
        '    triton.Config({"BT": 64}),\n'
        '    triton.Config({"BT": 32}),\n'
        "]\n"
    )
    assert 'TUNED = [\n    triton.Config({"BT": 32}),\n]' in fixed.fixed


# ---- invalid results are refused -----------------------------------------------------------


class DeliberatelyBrokenFix(LaunchNumWarps):
    """A test double of a rule: ASC001's findings with a fix that replaces the keyword by
    `REPLACEMENT` (unparsable, or parsable but rejected by the compiler)."""

    REPLACEMENT = "("

    def check_module(self, context):
        for report in super().check_module(context):
            plan = FixPlan("safe", "Break the launch", (Replace(report.node, self.REPLACEMENT),))
            yield dataclasses.replace(report, fix=plan)


@pytest.mark.parametrize(("replacement", "reason"), [("(", "SyntaxError"), ("BT=1", "keyword argument repeated")])
def test_fix_producing_invalid_code_leaves_file_untouched(kernel_file, monkeypatch, capsys, replacement, reason):
    monkeypatch.setattr(DeliberatelyBrokenFix, "REPLACEMENT", replacement)
    monkeypatch.setattr(engine, "all_rules", lambda: (DeliberatelyBrokenFix,))
    before = kernel_file.read_bytes()
    status = main(["check", "--isolated", "--target-all", "--fix", str(kernel_file)])
    error = capsys.readouterr().err
    assert status == 2
    assert "fixes for ASC001 would produce invalid code" in error and reason in error
    assert "file left unchanged" in error
    assert kernel_file.read_bytes() == before


# ---- writing ---------------------------------------------------------------------------------


def test_fix_writes_atomically_and_keeps_permissions(kernel_file):
    kernel_file.chmod(0o640)
    inode = kernel_file.stat().st_ino
    # --no-cache: the folder must hold only the kernel afterwards (the cache's writes are test_cache's)
    done = run_cli("--no-cache", "--fix", "--unsafe-fixes", str(kernel_file), cwd=kernel_file.parent)
    assert done.returncode == 0, done.stderr
    assert kernel_file.read_text() == UNSAFE_FIXED
    assert stat.S_IMODE(kernel_file.stat().st_mode) == 0o640
    assert kernel_file.stat().st_ino != inode  # replaced by a rename, not rewritten in place
    assert sorted(p.name for p in kernel_file.parent.iterdir()) == ["kernel.py"]  # no temporary left


def test_unchanged_file_is_not_written(kernel_file):
    kernel_file.write_text(SAFE_FIXED)
    before = kernel_file.stat()
    done = run_cli("--fix", str(kernel_file), cwd=kernel_file.parent)
    assert done.returncode == 1  # the unsafe ASC003 fix is only offered
    after = kernel_file.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_line_endings_encoding_and_untouched_bytes_are_kept(tmp_path):
    path = tmp_path / "kernel.py"
    source = "\ufeff# -*- coding: utf-8 -*-\n" + KERNEL.replace("# keep", "# garder é")
    path.write_bytes(source.replace("\n", "\r\n").encode("utf-8"))
    done = run_cli("--fix", "--unsafe-fixes", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    expected = "\ufeff# -*- coding: utf-8 -*-\n" + UNSAFE_FIXED.replace("# keep", "# garder é")
    assert path.read_bytes() == expected.replace("\n", "\r\n").encode("utf-8")


def test_missing_final_newline_stays_missing(tmp_path):
    """The last statement is replaced whole (ASC004's nesting); libcst's assumed final newline
    must not be added."""
    path = tmp_path / "kernel.py"
    path.write_text(
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def k(ht, x, NT, STORE_FINAL_STATE: tl.constexpr):\n"
        "    if STORE_FINAL_STATE and tl.program_id(0) == NT - 1:\n        tl.store(ht, tl.load(x))"
    )
    done = run_cli("--fix", "--unsafe-fixes", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert path.read_text().endswith(
        "    if STORE_FINAL_STATE:\n        if tl.program_id(0) == NT - 1:\n            tl.store(ht, tl.load(x))"
    )


PARENTHESISED_TEST = """\
import triton
import triton.language as tl


@triton.jit
def k(x, h0, o, W, USE_H0: tl.constexpr):
    t0 = tl.program_id(0)
    if (USE_H0 and{comment}
            t0 >=
            W):
        b = tl.load(x + t0) + tl.load(h0 + t0)
    else:
        b = tl.load(x + t0)
    tl.store(o + t0, b)


def launch(x, o, W, h0=None):
    k[(4,)](x, h0, o, W, USE_H0=h0 is not None)
"""


def test_a_parenthesised_test_across_lines_is_nested_with_its_runtime_operand_parenthesised() -> None:
    """`(FLAG and a >=⏎ b)`: the runtime operand spans lines only inside the parentheses, so as
    the test of its own `elif` it gets parentheses of its own."""
    config = settings(select=["ASC004"])
    result, fixed = fix_result(lint_source(PARENTHESISED_TEST.format(comment=""), "k.py", config), config, unsafe=True)
    assert fixed is not None and result.error is None
    assert "    if not USE_H0:\n        b = tl.load(x + t0)\n    elif (t0 >=\n            W):\n" in fixed.fixed


def test_a_comment_inside_the_test_is_not_dropped_by_the_nesting() -> None:
    config = settings(select=["ASC004"])
    [finding] = lint_source(PARENTHESISED_TEST.format(comment="  # h0 only"), "k.py", config).findings
    assert finding.fix is None and finding.no_fix_reason == "the test holds a comment, which the nesting would drop"


COMMENTED_IFS = """
import triton
import triton.language as tl


@triton.heuristics({{"USE_H0": lambda args: args["h0"] is not None}})
@triton.jit
def k(x, h0, o, W, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    b = tl.load(x + i_t)
{body}
    tl.store(o + i_t, b)
"""

# (the mixed `if`, its nesting): the `if` line's comment once, on the nesting's first line
COMMENTED_NESTINGS = {
    "or": (
        "    if not USE_H0 or i_t >= W:  # noqa: ASC003\n        b = b * 2.0\n    else:\n        b += tl.load(h0)",
        "    if not USE_H0:  # noqa: ASC003\n        b = b * 2.0\n    elif i_t >= W:\n        b = b * 2.0\n"
        "    else:\n        b += tl.load(h0)",
    ),
    "and": (
        "    if USE_H0 and i_t < W:  # noqa: ASC003\n        b += tl.load(h0)",
        "    if USE_H0:  # noqa: ASC003\n        if i_t < W:\n            b += tl.load(h0)",
    ),
    "and, else": (
        "    if USE_H0 and i_t < W:  # state\n        b += tl.load(h0)\n    else:  # none\n        b = b * 2.0",
        "    if not USE_H0:  # state\n        b = b * 2.0\n    elif i_t < W:\n        b += tl.load(h0)\n"
        "    else:  # none\n        b = b * 2.0",
    ),
    "one line": (
        "    if USE_H0 and i_t < W: b += tl.load(h0)  # state",
        "    if USE_H0:  # state\n        if i_t < W: b += tl.load(h0)",
    ),
}


@pytest.mark.parametrize("name", sorted(COMMENTED_NESTINGS))
def test_the_nesting_keeps_the_if_lines_comment_once_on_its_first_line(name) -> None:
    """The nesting wrote the `if` line's comment on the new `if` and again on the `elif` (or
    only on the inner `if`): a `# noqa` there was repeated."""
    body, nested = COMMENTED_NESTINGS[name]
    config = settings(select=["ASC004"])
    result, fixed = fix_result(lint_source(COMMENTED_IFS.format(body=body), "k.py", config), config, unsafe=True)
    assert fixed is not None and result.error is None
    assert fixed.fixed == COMMENTED_IFS.format(body=nested), fixed.fixed


def test_file_changed_while_fixing_is_not_overwritten(kernel_file):
    stale = FixedFile(str(kernel_file), KERNEL.replace("16", "32"), SAFE_FIXED)
    error = write_fixed(stale)
    assert "changed while it was being fixed" in error.message
    assert kernel_file.read_text() == KERNEL


# ---- the command line ------------------------------------------------------------------------


def test_diff_prints_a_unified_diff_and_writes_nothing(kernel_file, tmp_path):
    done = run_cli("--diff", "--unsafe-fixes", kernel_file.name, cwd=tmp_path)
    assert done.returncode == 1
    assert kernel_file.read_text() == KERNEL
    assert done.stdout.startswith("--- kernel.py\n+++ kernel.py\n@@ ")
    patched = subprocess.run(
        ["patch", "-p0", "-o", "-", "kernel.py"],
        input=done.stdout,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert patched.stdout == UNSAFE_FIXED


def test_diff_without_fixes_prints_nothing(tmp_path):
    path = tmp_path / "clean.py"
    path.write_text("import triton\n")
    done = run_cli("--diff", path.name, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "Would fix 2 findings (1 fix available with `--unsafe-fixes`).\n"),
        (("--unsafe-fixes",), "Would fix 3 findings.\n"),
        (("--select", "ASC003"), "No findings would be fixed (1 fix available with `--unsafe-fixes`).\n"),
        (("--output-format", "json"), ""),  # data formats: stderr holds errors only
    ],
)
def test_diff_says_on_stderr_what_it_would_fix_as_ruff_does(kernel_file, tmp_path, args, said):
    done = run_cli("--diff", *args, kernel_file.name, cwd=tmp_path)
    assert done.stderr == said


def test_statistics_cannot_go_with_diff(kernel_file, tmp_path):
    """As ruff: the diff is what `--diff` prints, so a statistics table was dropped without a word."""
    done = run_cli("--diff", "--statistics", kernel_file.name, cwd=tmp_path)
    assert done.returncode == 2
    assert "--statistics cannot be used with --diff" in done.stderr


def test_diff_names_the_files_it_cannot_fix_and_exits_2(kernel_file, tmp_path):
    """A file that does not parse, beside one with fixes: the diff of the fixable file on stdout,
    the other's syntax error on stderr, exit status 2 (not 1: a CI job must not read it as
    "only fixable findings")."""
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    done = run_cli("--diff", "--unsafe-fixes", "broken.py", kernel_file.name, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stdout.startswith("--- kernel.py\n+++ kernel.py\n@@ ")
    assert done.stderr.startswith("broken.py:1:7: error: SyntaxError"), done.stderr


def test_show_fixes_lists_each_fix_per_file(kernel_file):
    done = run_cli("--fix", "--unsafe-fixes", "--show-fixes", kernel_file.name, cwd=kernel_file.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        "Fixed 3 findings:\n"
        "- kernel.py:\n"
        "    1 × ASC001 (Remove `num_warps`)\n"
        "    1 × ASC002 (Use `tl.cast`)\n"
        "    1 × ASC003 (Copy `b_x` before the dot and read the copy afterwards)\n"
    )


def test_show_fixes_and_the_summary_say_why_the_rest_was_not_fixed(tmp_path):
    path = tmp_path / "kernel.py"
    path.write_text(
        KERNEL
        + """

@triton.jit
def walk(q, total, BT: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, total, tl.num_programs(0)):
        for i in range(4):
            q -= BT
            tl.store(q, 0.0)
"""
    )
    done = run_cli("--fix", "--show-fixes", path.name, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    fixed = path.read_text().splitlines()
    read, advance = (next(n for n, line in enumerate(fixed, 1) if text in line) for text in ("b_x + b_y", "q -= BT"))
    reasons = [  # where the findings are in the fixed file
        f"  kernel.py:{read}:{fixed[read - 1].index('b_x + b_y') + 1}: ASC003 unsafe fix not applied (use `--unsafe-fixes`)",
        f"  kernel.py:{advance}:13: ASC006 the advance is in an inner loop, not once per task",
    ]
    # the summary counts what was fixed and lists, once, the findings that have no fix at all
    assert done.stdout.endswith(
        "Found 4 findings (2 fixed, 2 remaining: ASC003: 1, ASC006: 1) in 1 file checked.\n"
        f"1 more fixable with `--fix --unsafe-fixes` (unsafe: review them).\nNo fix for 1 finding:\n{reasons[1]}\n"
    )
    assert done.stdout.count(reasons[1]) == 1 and reasons[0] not in done.stdout
    json_out = run_cli("--output-format", "json", path.name, cwd=tmp_path)
    (walk,) = [f for f in json.loads(json_out.stdout) if f["code"] == "ASC006"]
    assert walk["fix"] is None and walk["no_fix_reason"] == "the advance is in an inner loop, not once per task"


@pytest.mark.parametrize("show_fixes", [(), ("--show-fixes",)], ids=["", "show-fixes"])
def test_fix_counts_the_findings_it_fixed_as_ruff_does(kernel_file, show_fixes):
    """`Found 3 findings (3 fixed, 0 remaining)`, with or without `--show-fixes` (before, `--fix`
    alone said "All checks passed" and nothing of what it had fixed)."""
    done = run_cli("--fix", "--unsafe-fixes", *show_fixes, kernel_file.name, cwd=kernel_file.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("Found 3 findings (3 fixed, 0 remaining) in 1 file checked.\n")
    assert done.stdout.startswith("Fixed 3 findings:\n- kernel.py:\n") == bool(show_fixes)
    again = run_cli("--fix", kernel_file.name, cwd=kernel_file.parent)
    assert again.stdout == "All checks passed (1 file checked).\n"


def test_show_fixes_keeps_data_formats_parseable(kernel_file):
    done = run_cli("--fix", "--show-fixes", "--output-format", "json", kernel_file.name, cwd=kernel_file.parent)
    assert [finding["code"] for finding in json.loads(done.stdout)] == ["ASC003"]
    assert kernel_file.read_text() == SAFE_FIXED


def test_json_output_carries_each_fix(kernel_file):
    done = run_cli("--output-format", "json", kernel_file.name, cwd=kernel_file.parent)
    findings = json.loads(done.stdout)
    assert {(f["code"], f["fix"]["applicability"]) for f in findings} == {
        ("ASC001", "safe"),
        ("ASC002", "safe"),
        ("ASC003", "unsafe"),
    }
    dot = next(f["fix"] for f in findings if f["code"] == "ASC003")
    assert dot["edits"] == [
        {
            "content": "b_x_c = (b_x + 0.0).to(b_x.dtype)\n    ",
            "location": {"row": 8, "column": 5},
            "end_location": {"row": 8, "column": 5},
        },
        {"content": "b_x_c", "location": {"row": 9, "column": 17}, "end_location": {"row": 9, "column": 20}},
    ]


# ---- real kernels: fla-core 0.6.0 -------------------------------------------------------------


@pytest.mark.network
def test_fixes_on_fla_core_parse_and_repair_what_they_claim():
    paths = [str(p) for p in fla_ascend_files()]
    config = load_settings(paths[:1], isolated=True)
    repaired: Counter[str] = Counter()
    for path in paths:
        original = lint_file(path, config)
        result, fixed = assert_fixed_as_from_scratch(path, config)
        assert result.error is None, result.error
        if fixed is None:
            continue
        compile(fixed.fixed, path, "exec")
        assert not [f for f in result.findings if f.fix is not None]
        assert Counter(f.code for f in result.findings) == Counter(f.code for f in original.findings if f.fix is None)
        assert fix_result(result, config, unsafe=True)[1] is None
        repaired.update(code for (code, _), count in result.fixed.items() for _ in range(count))
    assert repaired == {"ASC001": 26, "ASC003": 13}


def test_apply_edits_counts_rows_like_libcst():
    """A lone carriage return ends a row for libcst's positions, so it does for edits too."""
    from ascend_lint.model import Edit, Position

    assert apply_edits("a\rbc\n", [Edit(Position(2, 2), Position(2, 3), "X")]) == "a\rbX\n"


def test_walking_by_fields_reaches_the_code_children_reaches():
    """`nodes.walk` / `child_nodes` (what `fixes.names_in`, `fixes.contains` and the rules walk
    with) skip only tokens and whitespace: every expression, statement, parameter and argument
    `CSTNode.children` reaches, `*args` and `**kwargs` included (fields named like the `*` token)."""
    from ascend_lint.fixes import contains, names_in
    from ascend_lint.nodes import walk

    code = (libcst.BaseExpression, libcst.BaseStatement, libcst.BaseSmallStatement, libcst.Param, libcst.Arg)

    def by_children(node: libcst.CSTNode) -> set[int]:
        found, stack = set(), [node]
        while stack:
            current = stack.pop()
            if isinstance(current, code):
                found.add(id(current))
            stack.extend(current.children)
        return found

    star = libcst.parse_module("f = lambda a, *b, c=1, **d: a + c\ndef g(x, *args, y, **kwargs): pass\n")
    assert names_in(star) == {"f", "a", "b", "c", "d", "g", "x", "args", "y", "kwargs"}
    function = star.body[1]
    assert isinstance(function, libcst.FunctionDef) and isinstance(function.params.star_kwarg, libcst.Param)
    assert contains(function, function.params.star_kwarg.name)
    for path in [*CORPUS, *fla_ascend_files()[:40]]:
        module = libcst.parse_module(path.read_text(encoding="utf-8"))
        assert {id(node) for node in walk(module) if isinstance(node, code)} == by_children(module), path


def test_walking_costs_a_few_calls_per_node():
    """Every analysis walks its trees (`nodes.walk`, `walk_with_inner_variables`): a node costs a
    few Python calls, no child list asked of a leaf (a name, a number), and no `isinstance` of
    a libcst class per node (they are ABCs: `ABCMeta.__instancecheck__` runs in Python)."""
    from ascend_lint.nodes import walk, walk_with_inner_variables

    module = libcst.parse_module(fla_ascend_files()[0].read_text(encoding="utf-8"))

    def calls_per_node(walker: Callable[[libcst.CSTNode], Iterator[object]]) -> float:
        calls = 0

        def count(frame: object, event: str, arg: object) -> None:
            nonlocal calls
            calls += event in ("call", "c_call")

        sys.setprofile(count)
        try:
            nodes = sum(1 for _ in walker(module))
        finally:
            sys.setprofile(None)
        return calls / nodes

    plain = calls_per_node(walk)
    assert plain < 7, plain
    assert calls_per_node(walk_with_inner_variables) < 1.5 * plain


def test_reading_a_node_asks_libcst_no_abc_check():
    """libcst's node classes are ABCs: a failing `isinstance(node, cst.Name)` runs
    `ABCMeta.__instancecheck__` in Python. The reads made of every node a walk or a value
    read meets (`one_line`'s strings, `is_item`, `int_literal`, `axes_view_of`, `updates_name`)
    test the node's type instead (node types are final)."""
    from ascend_lint.flow import axes_view_of
    from ascend_lint.host.bindings import updates_name
    from ascend_lint.host.shapes import is_item
    from ascend_lint.imports import int_literal
    from ascend_lint.nodes import one_line, walk

    value = libcst.parse_expression("min(n + pad, x.shape * 2, -y.T, f'{z}', 'a')")
    expressions = [node for node in walk(value) if isinstance(node, libcst.BaseExpression)]
    checks = 0

    def count(frame: types.FrameType, event: str, arg: object) -> None:
        nonlocal checks
        caller = frame.f_back
        checks += (
            event == "call"
            and frame.f_code.co_name == "__instancecheck__"
            and caller is not None
            and "ascend_lint" in caller.f_code.co_filename
        )

    sys.setprofile(count)
    try:
        one_line(value)
        updates_name(value, "n")
        for node in expressions:
            is_item(node), int_literal(node), axes_view_of(node)
    finally:
        sys.setprofile(None)
    assert checks == 0


# ---- ASC001 on config lists: one copy of each distinct config ---------------------------------


def _config_list(rng: random.Random) -> str:
    """A random autotune list: a literal list, or a comprehension whose clauses feed the
    config's parameters, the knobs, or nothing."""
    if rng.random() < 0.5:
        configs = []
        for _ in range(rng.randint(1, 6)):
            params = ", ".join(f'"{p}": {rng.choice([16, 32])}' for p in rng.sample(["BT", "BK"], rng.randint(0, 2)))
            knobs = "".join(f", {k}={rng.choice([1, 2, 4])}" for k in ("num_warps", "num_stages") if rng.random() < 0.6)
            configs.append(f"    triton.Config({{{params}}}{knobs}),\n")
        return "configs = [\n" + "".join(configs) + "]\n"
    clauses, params, knobs = [], [], []
    for index in range(rng.randint(1, 4)):
        name, values = f"v{index}", sorted(rng.sample([1, 2, 4, 8], rng.randint(1, 3)))
        clauses.append(f" for {name} in {values}")
        role = rng.choice(["param", "num_warps", "num_stages", "unused"])
        if role == "param":
            params.append(f'"P{index}": {name}')
        elif role != "unused" and role not in (k for k, _ in knobs):
            knobs.append((role, name))
    keywords = "".join(f", {knob}={name}" for knob, name in knobs) or ", num_warps=4"
    return f"configs = [triton.Config({{{', '.join(params)}}}{keywords}){''.join(clauses)}]\n"


def _evaluated(source: str) -> list[tuple]:
    """The configs a module's `configs` list holds, each as (params, options)."""

    class FakeTriton:
        @staticmethod
        def Config(kwargs, **options):
            return tuple(sorted(kwargs.items())), tuple(sorted(options.items()))

    namespace = {"triton": FakeTriton}
    exec(source.replace("import triton\n", ""), namespace)
    return namespace["configs"]


@pytest.mark.parametrize("seed", range(80))
def test_config_list_fix_keeps_each_distinct_config_once(seed):
    source = "import triton\n" + _config_list(random.Random(seed))
    config = settings(select=["ASC001"])
    # unsafe fixes too: removing a `num_stages` that may be 1 is one (the merge is the same)
    result, fixed = fix_result(lint_source(source, "configs.py", config), config, unsafe=True)
    assert fixed is not None and not result.findings, source
    distinct = list(dict.fromkeys(params for params, _ in _evaluated(source)))
    assert _evaluated(fixed.fixed) == [(params, ()) for params in distinct], f"{source}\n{fixed.fixed}"
    assert fix_result(result, config, unsafe=True)[1] is None  # fixing again changes nothing


def test_config_merge_keeps_loops_it_cannot_prove_harmless():
    """A loop over a parameter (maybe empty) or one filtered by an `if` stays, and so does its
    knob: without it the loop would build copies of one config. No fix, saying why."""
    source = """\
import triton
NUM_WARPS = [2, 4]


def from_parameter(NUM_WARPS):
    return [triton.Config({}, num_warps=w) for w in NUM_WARPS]


def filtered():
    return [triton.Config({"BT": bt}, num_warps=w) for bt in [32, 64] for w in NUM_WARPS if bt * w < 256]


def from_module():
    return [triton.Config({}, num_warps=w) for w in NUM_WARPS]
"""
    config = settings(select=["ASC001"])
    result, fixed = fix_result(lint_source(source, "configs.py", config), config, unsafe=False)
    assert fixed.fixed.split("\n\n\n")[1:] == [
        "def from_parameter(NUM_WARPS):\n    return [triton.Config({}, num_warps=w) for w in NUM_WARPS]",
        'def filtered():\n    return [triton.Config({"BT": bt}, num_warps=w) for bt in [32, 64] for w in NUM_WARPS if bt * w < 256]',
        "def from_module():\n    return [triton.Config({})]\n",
    ]
    assert [(f.location.row, f.no_fix_reason is not None and "`w`" in f.no_fix_reason) for f in result.findings] == [
        (6, True),
        (10, True),
    ]


# ---- ASC001 in multi-line calls and dicts: a removed knob takes exactly its own lines -----------


def _argument_lines(rng: random.Random, dict_entries: bool) -> list[tuple[str, bool]]:
    """The lines of a multi-line launch's keywords (or of a launch dict's entries), each with
    whether it is a knob's: keywords and knobs with or without a comment of their own, comment
    lines between them, the last one with or without its comma."""
    lines: list[tuple[str, bool]] = []
    for index in range(rng.randint(1, 5)):
        if rng.random() < 0.3:
            lines.append((f"# about what follows {index}", False))
        unused = [name for name in ("num_warps", "num_stages") if not any(name in line for line, _ in lines)]
        knob = bool(unused) and rng.random() < 0.5
        name = rng.choice(unused) if knob else f"P{index}"
        text = f'"{name}": {index}' if dict_entries else f"{name}={index}"
        comment = f"  # {name} {index}" if rng.random() < 0.6 else ""
        lines.append((f"{text},{comment}", knob))
    if rng.random() < 0.3:
        lines.append(("# after the last one", False))
    if not any(knob for _, knob in lines):
        lines.insert(
            rng.randint(0, len(lines)), ("num_warps=8,  # its own" if not dict_entries else '"num_warps": 8,', True)
        )
    if rng.random() < 0.5:  # no comma after the last argument
        last = max(index for index, (line, _) in enumerate(lines) if not line.startswith("#"))
        line, knob = lines[last]
        lines[last] = (line.replace(",", "", 1), knob)
    return lines


@pytest.mark.parametrize("seed", range(40))
def test_a_knob_alone_on_its_line_leaves_with_exactly_that_line(seed):
    """Every other line stays as it was: the other arguments with their comments, the comment
    lines between them, the closing bracket on its own line."""
    rng = random.Random(seed)
    dict_entries = rng.random() < 0.4
    lines = _argument_lines(rng, dict_entries)

    def module(kept: list[tuple[str, bool]]) -> str:
        body = "".join(f"        {line}\n" for line, _ in kept)
        if dict_entries:
            return f'def launch(x, n):\n    kw = {{\n        "B": 1,  # first\n{body}    }}\n    k[(n,)](x, **kw)\n'
        return f"def launch(x, n):\n    k[(n,)](\n        x,  # first\n{body}    )\n"

    source = module(lines)
    config = settings(select=["ASC001"])
    result, fixed = fix_result(lint_source(source, "launch.py", config), config, unsafe=True)
    assert fixed is not None and not result.findings, source
    kept = [(line, knob) for line, knob in lines if not knob]
    assert fixed.fixed == module(kept), f"{source}\n{fixed.fixed}"


def test_a_last_knob_with_a_trailing_comma_on_its_line_leaves_no_stray_comma():
    """`f(a, num_warps=4,)` -> `f(a)`, not `f(a, )`: the trailing comma goes with the comma
    before the knob, as for a last knob without one."""
    source = """\
def launch(x, n):
    k[(n,)](x, num_warps=4,)
    k[(n,)](x, B=1, num_warps=4, num_stages=2,)
    kw = {"B": 1, "num_warps": 4,}
    k[(n,)](x, **kw)
"""
    config = settings(select=["ASC001"])
    fixed = fix_result(lint_source(source, "launch.py", config), config, unsafe=True)[1]
    rows = fixed.fixed.splitlines()[1:4] if fixed is not None else []
    assert rows == ["    k[(n,)](x)", "    k[(n,)](x, B=1)", '    kw = {"B": 1}']


def test_a_knob_sharing_its_line_leaves_with_its_comma():
    """`f(a, num_warps=4, b=1)` -> `f(a, b=1)`, `f(a, num_warps=4)` -> `f(a)`; the line break
    (and comment) ending the knob's line stays, on its line."""
    source = """\
def launch(x, n):
    k[(n,)](x, num_warps=4, B=1)
    k[(n,)](x, num_warps=4)
    k[(n,)](x, num_warps=4, num_stages=2)
    k[(n,)](num_warps=4, x=x)
    k[(n,)](
        x, num_warps=4,  # the row
        B=1,
    )
    k[(n,)](
        x, B=1, num_warps=4
    )
    k[(n,)](
        num_warps=4, x=x,
        B=1,
    )
    kw = {"B": 1, "num_warps": 4}
    k[(n,)](x, **kw, **{"num_stages": 1})
"""
    config = settings(select=["ASC001"])
    _, fixed = fix_result(lint_source(source, "launch.py", config), config, unsafe=True)
    assert fixed is not None
    assert (
        fixed.fixed
        == """\
def launch(x, n):
    k[(n,)](x, B=1)
    k[(n,)](x)
    k[(n,)](x)
    k[(n,)](x=x)
    k[(n,)](
        x,  # the row
        B=1,
    )
    k[(n,)](
        x, B=1
    )
    k[(n,)](
        x=x,
        B=1,
    )
    kw = {"B": 1}
    k[(n,)](x, **kw)
"""
    )


def test_config_merge_keeps_the_comments_and_drops_repeated_tuples():
    """The later copies of a literal list leave with their lines; a loop over a literal's tuples
    loses the parts that fed only the knobs and the later copies of what is left, its comments
    kept; a loop whose literal calls something keeps its tuples, and its knob (no fix: the
    configs would repeat)."""
    source = """\
import triton

configs = [
    triton.Config({"BT": 32}, num_warps=2),  # fits the UB
    triton.Config({"BT": 32}, num_warps=4),  # the same once the knob goes
    # large tiles
    triton.Config({"BT": 64}, num_warps=4),
]
tuples = [
    triton.Config({"BT": bt, "BK": bk}, num_warps=w, num_stages=s)
    for bt, bk, w, s in [
        (32, 64, 4, 1),  # small
        (32, 64, 8, 2),
        # large tiles
        (64, 64, 4, 1),
    ]
    if bt <= bk
]
called = [triton.Config({"BT": bt}, num_warps=w) for bt, w in ((int(32), 4), (int(32), 8))]
"""
    config = settings(select=["ASC001"])
    result, fixed = fix_result(lint_source(source, "configs.py", config), config, unsafe=True)
    assert fixed is not None
    assert [(f.location.row, f.no_fix_reason is not None and "`w`" in f.no_fix_reason) for f in result.findings] == [
        (17, True)
    ]
    assert (
        fixed.fixed
        == """\
import triton

configs = [
    triton.Config({"BT": 32}),  # fits the UB
    # large tiles
    triton.Config({"BT": 64}),
]
tuples = [
    triton.Config({"BT": bt, "BK": bk})
    for bt, bk in [
        (32, 64),  # small
        # large tiles
        (64, 64),
    ]
    if bt <= bk
]
called = [triton.Config({"BT": bt}, num_warps=w) for bt, w in ((int(32), 4), (int(32), 8))]
"""
    )


def test_the_re_lint_takes_the_module_the_fixer_compiled(monkeypatch) -> None:
    """The fixer compiles the fixed text to check it; the re-lint's `compile_python` takes that
    module rather than compiling the text again, and finds what a lint from scratch finds."""
    path = FIXTURES / "triton_ascend" / "asc002_constexpr_to.py"
    config = settings()
    memory = DocumentMemory.empty()
    checked = lint_source(path.read_text(encoding="utf-8"), str(path), config, memory=memory)
    compiled: list[object] = []  # what was compiled to code (not `ast.parse`)
    real_compile = builtins.compile

    def compile_to_code(source, filename, mode, flags=0, *args, **kwargs):
        if not flags & ast.PyCF_ONLY_AST:
            compiled.append(source)
        return real_compile(source, filename, mode, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "compile", compile_to_code)
    result, fixed = fix_result(checked, config, unsafe=True, memory=memory)
    monkeypatch.undo()
    assert fixed is not None and result.error is None
    assert fixed.fixed not in compiled  # the fixer compiled its tree
    assert [type(source) for source in compiled] == [ast.Module]
    assert result.findings == lint_source(fixed.fixed, str(path), config).findings


@pytest.mark.parametrize("declared", [True, False])
def test_a_name_bound_by_a_global_in_a_function_the_fixes_do_not_touch_resolves(declared) -> None:
    """The names check leaves out the bodies of the functions the edits do not touch, unless
    one can bind a module name (`global`): a read of `a_c` bound only there still resolves."""
    declaration = "    global a_c\n" if declared else ""
    original = f"def helper():\n{declaration}    a_c = 1\n\n\ndef kernel(a):\n    return a\n"
    fixed = original.replace("return a\n", "return a_c\n")
    read = fixed.rindex("a_c\n")
    if declared:
        assert fixer.compiled_fix(original, fixed, [(read, read + 3)]).co_filename == "<fixed>"
    else:
        with pytest.raises(fixer.FixRefused, match=r"^read undefined names \(a_c\)$"):
            fixer.compiled_fix(original, fixed, [(read, read + 3)])


GUARDED = """\
import triton
import triton.language as tl


@triton.heuristics({"HAS_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(x, h0, y, HAS_H0: tl.constexpr):
"""
# libcst's tokenizer takes a nested block's indentation only when its first line opens with the
# text that opens the enclosing block's first line (form feeds included); CPython counts columns.
FORM_FEED_BLOCKS = {
    "the_block_opens_with_a_form_feed": (  # found by bench/fuzz.py (seed 101)
        "\f    i_t = tl.program_id(0)\n    if HAS_H0 and i_t == 0:\n\f        b_h = tl.load(h0)\n"
        "    else:\n\f        b_h = tl.zeros([4], dtype=tl.float32)\n    tl.store(y, b_h)\n",
        "\f    i_t = tl.program_id(0)\n    if not HAS_H0:\n\f        b_h = tl.zeros([4], dtype=tl.float32)\n"
        "\f    elif i_t == 0:\n\f        b_h = tl.load(h0)\n\f    else:\n\f        b_h = tl.zeros([4], dtype=tl.float32)\n"
        "    tl.store(y, b_h)\n",
    ),
    "only_the_statement_opens_with_one": (
        "    i_t = tl.program_id(0)\n\f    if HAS_H0 and i_t == 0:\n        b_h = tl.load(h0)\n"
        "    else:\n        b_h = tl.zeros([4], dtype=tl.float32)\n    tl.store(y, b_h)\n",
        "    i_t = tl.program_id(0)\n\f    if not HAS_H0:\n        b_h = tl.zeros([4], dtype=tl.float32)\n"
        "    elif i_t == 0:\n        b_h = tl.load(h0)\n    else:\n        b_h = tl.zeros([4], dtype=tl.float32)\n"
        "    tl.store(y, b_h)\n",
    ),
}


@pytest.mark.parametrize("name", sorted(FORM_FEED_BLOCKS))
def test_new_lines_open_as_their_block_does_so_libcst_reads_the_fixed_file(name) -> None:
    """ASC004's rewrite of the `if`: its new lines open with the text that opens the block's
    first line. Before, they opened with spaces (plus a form feed when the rewritten statement's
    line had one), which libcst cannot tokenize: "the fixed file could not be linted (valid
    Python that libcst cannot parse (tokenizer error: no matching outer block for dedent))"."""
    body, fixed_body = FORM_FEED_BLOCKS[name]
    config = settings()
    result, fixed = fix_result(lint_source(GUARDED + body, "k.py", config), config, unsafe=True)
    assert result.error is None, result.error.message
    assert fixed is not None
    assert fixed.fixed == GUARDED + fixed_body, repr(fixed.fixed)
    libcst.parse_module(fixed.fixed)  # raises ParserSyntaxError if libcst cannot tokenize it


# ---- ASC002's cast of the index terms keeps the expression's value -----------------------------

_OPERAND_PLACES = (
    "{c}",
    "x + {c} * K",
    "K * {c}",
    "2 * {c}",
    "{c} ** 2",
    "{c} // 4",
    "{c} % 7",
    "-{c}",
    "1 - {c}",
    "{c} << 1",
)
_INDEX_SUMS = ("i_t * T", "i_t * T + i_h", "i_t * H + i_h", "(i_t * H + i_h) * T + 1", "i_h + i_t * T - 3")


@pytest.mark.parametrize("seed", range(40))
def test_index_cast_fix_keeps_the_value_in_every_operand_place(seed):
    """`(E).to(tl.int64)` in any operand place: the fixed expression, with `tl.cast` as the
    identity, equals the original's on random values (the sum stays one operand)."""
    rng = random.Random(seed)
    expression = rng.choice(_OPERAND_PLACES).format(c=f"({rng.choice(_INDEX_SUMS)}).to(tl.int64)")
    source = f"""\
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["T", "H"])
def k(x, T, H, K: tl.constexpr):
    i_t, i_h = tl.program_id(0), tl.program_id(1)
    r = {expression}
    tl.store(x + r, 0.0)
"""
    config = settings(select=["ASC002"])
    _, fixed = fix_result(lint_source(source, "k.py", config), config, unsafe=False)
    assert fixed is not None, source
    [line] = [line for line in fixed.fixed.splitlines() if line.startswith("    r = ")]

    class Language:
        int64 = "int64"

        @staticmethod
        def cast(value, dtype):
            return value

    for _ in range(5):
        values = {name: rng.randint(1, 50) for name in ("x", "T", "H", "K", "i_t", "i_h")}
        original = eval(expression.replace(".to(tl.int64)", ""), dict(values))
        assert eval(line.removeprefix("    r = "), {"tl": Language, **values}) == original, (expression, line)


def test_a_fix_nested_in_another_with_lines_of_its_own_goes_in_with_it(tmp_path):
    """`b_q -= tl.dot(b_s, ...)`: the fix of `b_q` rewrites the statement, which holds the read
    of `b_s` the other fix renames, and the fix of `b_s` inserts its copy lines elsewhere. The
    outer fix takes the inner one (`fixes.with_nested`), so one run fixes both (it took two)."""
    path = tmp_path / "kernel.py"
    path.write_text(DOT_TWICE)
    first = run_cli("--fix", "--unsafe-fixes", "--target-all", path.name, cwd=tmp_path)
    assert first.stdout.endswith("Found 2 findings (2 fixed, 0 remaining) in 1 file checked.\n"), first.stdout
    assert path.read_text() == DOT_TWICE.replace(
        "    b_s = tl.dot(b_q, b_k)\n", "    b_q_c = (b_q + 0.0).to(b_q.dtype)\n    b_s = tl.dot(b_q, b_k)\n"
    ).replace(
        "    b_o = tl.dot(b_s, b_k)\n    b_q -= tl.dot(b_s, b_k)\n",
        "    b_s_c = (b_s + 0.0).to(b_s.dtype)\n    b_o = tl.dot(b_s, b_k)\n    b_q = b_q_c - tl.dot(b_s_c, b_k)\n",
    )


DOT_TWICE = """import triton
import triton.language as tl


@triton.jit
def k(q, kp, o, BT: tl.constexpr):
    offs = tl.arange(0, BT)
    tile = offs[:, None] * BT + offs[None, :]
    b_q = tl.load(q + tile)
    b_k = tl.load(kp + tile)
    b_s = tl.dot(b_q, b_k)
    b_o = tl.dot(b_s, b_k)
    b_q -= tl.dot(b_s, b_k)
    tl.store(o + tile, b_q + b_o)
"""


def test_a_fix_left_because_it_shares_text_with_an_applied_one_says_run_again(tmp_path):
    """ASC004's safe nesting rewrites the `if`, in whose arm ASC003's unsafe fix inserts a
    copy line: one run applies the nesting only. The summary said "1 more fixable with
    `--fix --unsafe-fixes`" to a user who had just passed both flags."""
    path = tmp_path / "kernel.py"
    path.write_text(
        """import triton
import triton.language as tl


@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, kp, o, W, BT: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    offs = tl.arange(0, BT)
    tile = offs[:, None] * BT + offs[None, :]
    b_k = tl.load(kp + tile)
    if USE_H0 and i_t * BT < W:
        b_h = tl.load(h0 + tile)
        b_s = tl.dot(b_h, b_k)
        b_h += b_s
    else:
        b_h = tl.zeros([BT, BT], dtype=tl.float32)
    tl.store(o + tile, b_h)
"""
    )
    first = run_cli("--fix", "--unsafe-fixes", "--target-all", path.name, cwd=tmp_path)
    assert first.stdout.endswith(
        "Found 2 findings (1 fixed, 1 remaining: ASC003: 1) in 1 file checked.\n"
        "[*] 1 more fixable by running the same command again: its fix shares text with fixes made in this run.\n"
    ), first.stdout
    second = run_cli("--fix", "--unsafe-fixes", "--target-all", path.name, cwd=tmp_path)
    assert second.stdout.endswith("Found 1 finding (1 fixed, 0 remaining) in 1 file checked.\n"), second.stdout


_PIECES_KERNEL = """\
{imports}


@jit
def k(x, o, cu_seqlens, task_num, H: constexpr, D: constexpr):
    i_n = program_id(0)
    bos = load(cu_seqlens + i_n).to(int32)
    store(o + bos * H * D, load(x + i_n))
    row = (i_n * D).to(int64)
    store(o + row, 1.0)
    p = x + i_n * D
    for task_id in range(i_n, task_num, num_programs(0)):
        store(p, 1.0)
        p += D * num_programs(0)
"""
_PIECES = "from triton.language import constexpr, int32, int64, load, num_programs, program_id, store"


@pytest.mark.parametrize(
    ("imports", "spelled"),
    [
        (f"import triton\nfrom triton import jit\n{_PIECES}", "triton.language.cast("),
        (f"import triton as tr\nfrom triton import jit\n{_PIECES}", "tr.language.cast("),
        # an alias another function imports is no name in the kernel
        (
            f"import triton\nfrom triton import jit\n{_PIECES}\n\n\ndef h():\n    import triton.language as tl",
            "triton.language.cast(",
        ),
        (f"from triton import jit\n{_PIECES}", None),  # no name for triton.language: no fix
    ],
)
def test_a_cast_fix_names_triton_language_as_the_module_can(imports, spelled):
    """ASC002, ASC006 and ASC008 write `tl.cast`: in a module importing pieces of
    triton.language they write it through the module's name for Triton, and without one they
    offer no fix (before, the fix read an undefined `tl` and the file was left as an error)."""
    source = _PIECES_KERNEL.format(imports=imports)
    config = settings(select=["ASC002", "ASC006", "ASC008"])
    result = lint_source(source, "k.py", config)
    assert sorted(f.code for f in result.findings) == ["ASC002", "ASC006", "ASC008"]
    relinted, fixed = fix_result(result, config, unsafe=True)
    assert relinted.error is None, relinted.error
    if spelled is None:
        assert fixed is None
        assert all(f.fix is None and "names no `triton.language`" in f.no_fix_reason for f in result.findings)
        return
    assert fixed is not None and fixed.fixed.count(spelled) == 3, fixed
    ast.parse(fixed.fixed)
    assert relinted.findings == []
