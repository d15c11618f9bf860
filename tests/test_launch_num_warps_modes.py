"""ASC001 in triton-ascend's mixed SIMD+SIMT mode, and the fix of configs built in loops.

`compile_mode="simd_simt"` passes `num_warps` to bishengir-compile
(`--enable-simd-simt-mix-compile --num-warps=N`, `linalg_to_bin_enable_npu_compile_910_95`):
its `num_warps` is not reported and no fix deletes it; `num_stages` is reported as in SIMD.
A config built in a loop whose knob reads the loop variable alone would repeat without the
knob: no fix, saying why, rather than a fixed file with each config two or three times."""

from __future__ import annotations

from conftest import lint_and_fix

from ascend_lint.model import Finding

HEADER = """\
import torch_npu  # noqa: F401
import triton
import triton.language as tl


@triton.jit
def k(x, y, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o) * 2)
"""


def _lint(source: str) -> tuple[list[Finding], str | None]:
    return lint_and_fix(source, "k_npu.py", unsafe=True, select=["ASC001"])  # a `num_stages=1` has an unsafe fix


def test_mixed_mode_launch_keeps_num_warps() -> None:
    """A launch selecting the mixed mode: its `num_warps` is silent; `num_stages` there, and
    `num_warps` of a SIMD launch (`"simd"`, `"simd_simt_template"`), are reported."""
    source = (
        HEADER
        + """

def run(x, y):
    k[(4,)](x, y, BLOCK=1024, num_warps=4, compile_mode="simd_simt")
    k[(4,)](x, y, BLOCK=1024, num_warps=4, compile_mode="simt_only")
    k[(4,)](x, y, BLOCK=1024, num_warps=4, num_stages=1, compile_mode="simd_simt")
    k[(4,)](x, y, BLOCK=1024, num_warps=4, compile_mode="simd")
    k[(4,)](x, y, BLOCK=1024, num_warps=4, compile_mode="simd_simt_template")
"""
    )
    findings, fixed = _lint(source)
    assert [(f.location.row, f.message.split("`")[1]) for f in findings] == [
        (15, "num_stages"),
        (16, "num_warps"),
        (17, "num_warps"),
    ]
    assert fixed is not None
    assert 'k[(4,)](x, y, BLOCK=1024, num_warps=4, compile_mode="simd_simt")\n' in fixed
    assert fixed.count("num_warps=4") == 3  # the mixed and pure SIMT launches keep theirs
    assert "num_stages" not in fixed


def test_mixed_mode_dicts_and_configs_keep_num_warps() -> None:
    """A dict selecting the mixed mode, one merged with such a dict, and the configs of a kernel
    every launch of which selects it keep `num_warps`."""
    source = """\
import torch_npu  # noqa: F401
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=w) for w in (8, 32)], key=["n"])
@triton.jit
def tuned(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 1.0)


@triton.jit
def plain(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 1.0)


def run(x, n):
    tuned[(1,)](x, n, compile_mode="simd_simt")
    mixed = {"BLOCK": 64, "num_warps": 4, "compile_mode": "simd_simt"}
    plain[(1,)](x, n, **mixed)
    base = {"BLOCK": 64, "num_warps": 8}
    plain[(1,)](x, n, **{**base, "compile_mode": "simd_simt"})
"""
    findings, _ = _lint(source)
    assert findings == []


def test_configs_built_in_nested_loops_get_no_fix() -> None:
    """`for bt ...: for nw ...: out.append(Config({"BT": bt}, num_warps=nw))`: without the knob
    the inner loop would append each config three times; the finding says why there is no fix."""
    source = """\
import torch_npu  # noqa: F401
from triton import Config as TConfig, autotune, jit
from triton import language as language


def _configs():
    out = []
    for bt in (32, 64):
        for nw in (2, 4, 8):
            out.append(TConfig({"BT": bt}, num_warps=nw, num_stages=2))
        out.append(TConfig({"BT": bt * 2}, num_warps=bt // 16))
    return out


@autotune(configs=_configs(), key=["T"])
@jit
def _cumsum_kernel(s, o, T, BT: language.constexpr):
    offs = language.program_id(0) * BT + language.arange(0, BT)
    language.store(o + offs, language.load(s + offs, mask=offs < T), mask=offs < T)


def cumsum(s, o, T):
    _cumsum_kernel[(1,)](s, o, T)
"""
    findings, fixed = _lint(source)
    by_knob = {(f.location.row, f.message.split("`")[1]): f for f in findings}
    declined = by_knob[(10, "num_warps")]
    assert declined.fix is None
    assert declined.no_fix_reason is not None and "`nw`" in declined.no_fix_reason
    assert "remove the loop over it by hand" in declined.no_fix_reason
    # the knob no loop variable feeds keeps its fix, and one whose loop variable the config reads too
    assert by_knob[(10, "num_stages")].fix is not None
    assert by_knob[(11, "num_warps")].fix is not None
    assert fixed is not None
    assert 'out.append(TConfig({"BT": bt}, num_warps=nw))\n' in fixed
    assert 'out.append(TConfig({"BT": bt * 2}))\n' in fixed


def test_configs_mapped_by_a_lambda_get_no_fix() -> None:
    """`list(map(lambda p: Config({"BLOCK": p[0]}, num_stages=p[1]), product(...)))`: the part of
    `p` the knob reads, nothing else reads; the fix would leave each config twice."""
    source = """\
import itertools
import torch_npu  # noqa: F401
import triton
import triton.language as tl

_SPACE = list(itertools.product([64, 128], [1, 2]))
CONFIGS = list(map(lambda p: triton.Config({"BLOCK": p[0]}, num_stages=p[1]), _SPACE))
CONFIGS2 = [triton.Config(kwargs={"BLOCK": b}, **{"num_warps": w}) for b in (64, 128) for w in WARPS]
PAIRS = list(map(lambda p: triton.Config({"BLOCK": p[0], "S": p[1]}, num_stages=p[1]), _SPACE))


@triton.autotune(configs=CONFIGS + CONFIGS2 + PAIRS, key=["n"])
@triton.jit
def _neg_kernel(x, y, n, BLOCK: tl.constexpr, S: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, -tl.load(x + o, mask=o < n), mask=o < n)


def neg(x, y, n):
    _neg_kernel[(1,)](x, y, n)
"""
    findings, fixed = _lint(source)
    by_row = {f.location.row: f for f in findings}
    assert by_row[7].fix is None and by_row[7].no_fix_reason is not None
    assert "`p[1]`" in by_row[7].no_fix_reason
    assert by_row[8].fix is None and by_row[8].no_fix_reason is not None  # `**{"num_warps": w}`
    assert "`w`" in by_row[8].no_fix_reason
    assert by_row[9].fix is not None  # `p[1]` is read by the config's dict too: nothing repeats
    assert fixed is not None
    assert 'triton.Config({"BLOCK": p[0]}, num_stages=p[1])' in fixed
    assert 'triton.Config({"BLOCK": p[0], "S": p[1]}), _SPACE' in fixed


def test_configs_a_helper_returns_get_no_fix_for_a_knob_only_a_parameter_feeds() -> None:
    """`_make2(64, 4)` and `_make2(64, 8)` of `def _make2(block, warps): return Config({"BLOCK":
    block}, num_warps=warps)`: without the knob both calls build the same config, which
    autotune would time twice, as the loop's configs; a knob whose parameter the config reads
    too keeps its fix."""
    source = """\
import torch_npu  # noqa: F401
import triton
import triton.language as tl


def _make2(block, warps):
    return triton.Config({"BLOCK": block}, num_warps=warps)


def _scaled(block):
    return triton.Config({"BLOCK": block}, num_warps=block // 16)


@triton.autotune(configs=[_make2(64, 4), _make2(64, 8), _scaled(64)], key=["n"])
@triton.jit
def _neg_kernel(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, -tl.load(x + o, mask=o < n), mask=o < n)


def neg(x, y, n):
    _neg_kernel[(1,)](x, y, n)
"""
    findings, fixed = _lint(source)
    by_row = {f.location.row: f for f in findings}
    assert by_row[7].fix is None and by_row[7].no_fix_reason is not None
    assert "`warps`, a parameter of `_make2`" in by_row[7].no_fix_reason
    assert by_row[11].fix is not None
    assert fixed is not None
    assert 'return triton.Config({"BLOCK": block}, num_warps=warps)\n' in fixed
    assert 'return triton.Config({"BLOCK": block})\n' in fixed


def test_configs_a_helper_returns_keep_the_fix_when_no_two_calls_build_one_alike() -> None:
    """`_make2(64, 4)` beside `_make2(128, 8)`, or a single call: without the knob the configs
    stay distinct, so the knob gets its fix; a call in a loop may repeat, and keeps none."""
    source = """\
import torch_npu  # noqa: F401
import triton
import triton.language as tl


def _make2(block, warps):
    return triton.Config({"BLOCK": block}, num_warps=warps)


def _make3(block, warps):
    return triton.Config({"BLOCK": block}, num_warps=warps)


def _make4(block, warps):
    return triton.Config({"BLOCK": block}, num_warps=warps)


@triton.autotune(configs=[_make2(64, 4), _make2(block=128, warps=8), _make3(64, 4)], key=["n"])
@triton.jit
def _neg_kernel(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, -tl.load(x + o, mask=o < n), mask=o < n)


@triton.autotune(configs=[_make4(64, w) for w in (4, 8)], key=["n"])
@triton.jit
def _abs_kernel(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.abs(tl.load(x + o, mask=o < n)), mask=o < n)


def neg(x, y, n):
    _neg_kernel[(1,)](x, y, n)
    _abs_kernel[(1,)](x, y, n)
"""
    findings, _ = _lint(source)
    by_row = {f.location.row: f for f in findings}
    assert by_row[7].fix is not None
    assert by_row[11].fix is not None
    assert by_row[15].fix is None and "`warps`, a parameter of `_make4`" in (by_row[15].no_fix_reason or "")


def test_a_merge_keeps_the_knob_a_kept_clause_varies() -> None:
    """The merge drops the clause over a literal that fed `num_stages` but must keep the one over
    `NUM_WARPS` (a name it cannot prove non-empty): `num_warps` stays, without a fix, rather
    than leave each config two or three times."""
    source = """\
import torch_npu  # noqa: F401
import triton
import triton.language as tl
from fla.ops.common.chunk_o import NUM_WARPS

CONFIGS = [
    triton.Config({"BT": bt}, num_warps=num_warps, num_stages=num_stages)
    for bt in [16, 32, 64]
    for num_warps in NUM_WARPS
    for num_stages in [2, 3, 4]
]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def k(x, n, BT: tl.constexpr):
    tl.store(x + tl.arange(0, BT), 1.0)


def run(x, n):
    k[(1,)](x, n)
"""
    findings, fixed = _lint(source)
    by_knob = {f.message.split("`")[1]: f for f in findings}
    assert by_knob["num_warps"].fix is None
    assert by_knob["num_warps"].no_fix_reason is not None and "`num_warps`" in by_knob["num_warps"].no_fix_reason
    assert by_knob["num_stages"].fix is not None
    assert by_knob["num_stages"].fix.message == "Remove `num_stages` and keep one copy of each config"
    assert fixed is not None
    assert (
        """CONFIGS = [
    triton.Config({"BT": bt}, num_warps=num_warps)
    for bt in [16, 32, 64]
    for num_warps in NUM_WARPS
]
"""
        in fixed
    )
