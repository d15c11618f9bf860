"""The tile model (`ascend_lint.tiles`) and the visible configurations
(`ascend_lint.specialisations`), tested directly.

The UB figures in `MEASURED` are what triton-ascend 3.2's memory planner reported for these
kernels (`bishengir-compile --enable-memory-display`, peak offset + extent of the UB buffers,
fp32 pointers); the last test compiles two of them again when the compiler is installed.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from conftest import found_rows, snippet_source

from ascend_lint.imports import ImportMap
from ascend_lint.kernels import find_kernels
from ascend_lint.rule import ModuleContext
from ascend_lint.socs import SOCS
from ascend_lint.ub_plan import UB_CAPACITY_BYTES, peak


def context_of(code: str) -> ModuleContext:
    source, _ = snippet_source(code)
    module = cst.parse_module(source)
    imports = ImportMap(module)
    return ModuleContext("k.py", source, module, imports, find_kernels(module, imports))


def kernel_of(code: str):
    return context_of(code).kernels[0]


def code(node) -> str:
    return cst.Module([]).code_for_node(node)


HEADER = """
@triton.jit
def k(a, b, c, d, n, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pa = tl.make_block_ptr(a, (BM, BK), (BK, 1), (0, 0), (BM, BK), (1, 0))
    pb = tl.make_block_ptr(b, (BK, BN), (BN, 1), (0, 0), (BK, BN), (1, 0))
    pc = tl.make_block_ptr(c, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    pd = tl.make_block_ptr(d, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
"""
SIZES = {"BM": 64, "BN": 128, "BK": 64}
FP32 = {"a": 4, "b": 4, "c": 4, "d": 4}

# (body, planned peak UB in bytes as measured with BM=64, BN=128, BK=64 and fp32 pointers)
MEASURED = {
    "dot result stored: stays on the cube core": (
        "x = tl.load(pa)\ny = tl.load(pb)\ntl.store(pc, tl.dot(x, y))",
        0,
    ),
    "dot result cast and stored: the cube's fixpipe casts": (
        "x = tl.load(pa)\ny = tl.load(pb)\ntl.store(pc, tl.dot(x, y).to(tl.bfloat16))",
        0,
    ),
    "accumulator read after its loop, cast and stored: the cube's fixpipe casts": (
        "acc = tl.zeros([BM, BN], dtype=tl.float32)\nfor i in range(n):\n"
        "    acc = tl.dot(tl.load(pa), tl.load(pb), acc)\ntl.store(pc, acc.to(tl.bfloat16))",
        0,
    ),
    "accumulating dots with += on a tl.zeros tile: as tl.dot(a, b, acc)": (
        "acc = tl.zeros([BM, BN], dtype=tl.float32)\nfor i in range(n):\n"
        "    acc += tl.dot(tl.load(pa), tl.load(pb))\ntl.store(pc, acc.to(tl.bfloat16))",
        0,
    ),
    "a dot result plus a tl.zeros accumulator: as tl.dot(a, b, acc)": (
        "acc = tl.zeros([BM, BN], dtype=tl.float32)\nfor i in range(n):\n"
        "    acc = tl.dot(tl.load(pa), tl.load(pb)) + acc\ntl.store(pc, acc.to(tl.bfloat16))",
        0,
    ),
    "accumulating dots in a loop": (
        "acc = tl.zeros([BM, BN], dtype=tl.float32)\nfor i in range(n):\n"
        "    acc = tl.dot(tl.load(pa), tl.load(pb), acc)\ntl.store(pc, acc)",
        0,
    ),
    "vector work on a dot result: half a tile per vector core": (
        "x = tl.load(pa)\ny = tl.load(pb)\ntl.store(pc, tl.dot(x, y) * 2.0)",
        16384,
    ),
    "vector work on a dot operand": (
        "x = tl.load(pa)\ny = tl.load(pb)\ntl.store(pc, tl.dot(x * 2.0, y))",
        8192,
    ),
    "vector tile unrelated to the dot: whole tile": (
        "tl.store(pc, tl.dot(tl.load(pa), tl.load(pb)))\nz = tl.load(pd)\ntl.store(pd, z * 2.0)",
        32768,
    ),
    "reduction scratch": (
        "z = tl.load(pd)\ntl.store(a + tl.arange(0, BM), tl.sum(z, axis=1))",
        49408,
    ),
    "transpose copy": (
        "z = tl.load(pa)\ntl.store(tl.make_block_ptr(d, (BK, BM), (BM, 1), (0, 0), (BK, BM), (1, 0)), tl.trans(z))",
        32768,
    ),
    "tl.where gets its own buffer, the mask one bit per element": (
        "x = tl.load(pc)\ny = tl.load(pd)\ntl.store(pc, tl.where(x > y, x, y))",
        99360,
    ),
    "in place when an operand dies": (
        "x = tl.load(pc)\ny = tl.load(pd)\nz = x * y\nw = x + y\ntl.store(pc, z)\ntl.store(pd, w)",
        98304,
    ),
    "a load in a loop is double buffered": (
        "acc = tl.zeros([BM, BN], dtype=tl.float32)\nfor i in range(n):\n    x = tl.load(pc)\n    acc += x * x\n"
        "tl.store(pd, acc)",
        98304,
    ),
    "both arms of a runtime branch": (
        "if n > 3:\n    x = tl.load(pc)\n    tl.store(pd, x * 2.0)\nelse:\n    y = tl.load(pd)\n    tl.store(pc, y + 1.0)",
        65536,
    ),
    "tl.gather: its own buffer of the index's shape, an int32 index tile while it runs": (
        "x = tl.load(pa)\ni = tl.load(pd).to(tl.int32)\ntl.store(pc, tl.gather(x, i, 1))",
        114688,
    ),
    "causal mask on a dot result: integer compare of broadcasts": (
        "r = tl.dot(tl.load(pa), tl.load(pb))\no = tl.arange(0, BM)\n"
        "r = tl.where(o[:, None] >= tl.arange(0, BN)[None, :], r, 0.0)\ntl.store(pc, r)",
        68288,
    ),
    "a scalar operand of tl.maximum is splatted; the select lays out two fp32 temporaries": (
        "x = tl.load(pc)\ntl.store(pd, tl.maximum(x, 1.0))",
        164960,
    ),
    "a compare's scalar splatted once, held for the whole loop": (
        "acc = tl.zeros([BM, BN], dtype=tl.float32)\nfor i in range(n):\n    x = tl.load(pc)\n"
        "    acc += tl.where(x > 1.0, x, 0.0)\ntl.store(pd, acc)",
        164928,
    ),
    "arithmetic with a scalar takes no splat": (
        "x = tl.load(pc)\ntl.store(pd, x + 1.0)",
        32768,
    ),
}


def measured_kernel(body: str):
    indented = "\n".join("    " + line for line in body.splitlines())
    return kernel_of(HEADER + indented + "\n")


@pytest.mark.parametrize("case", sorted(MEASURED))
def test_estimate_matches_the_measured_plan(case):
    body, planned = MEASURED[case]
    estimate = peak(measured_kernel(body).tiles, SIZES, FP32).planned
    assert abs(estimate - planned) <= 0.1 * planned + 64, f"estimate {estimate} vs planned {planned}"


def test_shapes_follow_the_tile_expressions():
    kernel = kernel_of(
        """
@triton.jit
def k(x, y, w, T, BT: tl.constexpr, BD: tl.constexpr, BK: tl.constexpr):
    o_t = tl.arange(0, BT)
    o_d = tl.arange(0, BD)
    b_x = tl.load(x + o_t[:, None] * BD + o_d[None, :])
    p_w = tl.make_block_ptr(w, (BD, BK), (BK, 1), (0, 0), (BD, BK), (1, 0))
    b_w = tl.load(p_w)
    b_o = tl.dot(b_x, b_w)
    b_t = tl.trans(b_o)
    b_s = tl.sum(b_t, axis=0)
    b_z = tl.zeros([BT, 2 * BK], dtype=tl.bfloat16)
    tl.store(y + o_t, b_s + tl.max(b_z, axis=1))
"""
    )
    shapes = {name: value.shape_text() for name, value in kernel.tiles.tiles}
    assert shapes == {
        "o_t": "[BT]",
        "o_d": "[BD]",
        "b_x": "[BT, BD]",
        "b_w": "[BD, BK]",
        "b_o": "[BT, BK]",
        "b_t": "[BK, BT]",
        "b_s": "[BT]",
        "b_z": "[BT, 2 * BK]",
    }
    widths = {name: value.width.resolve({}) for name, value in kernel.tiles.tiles}
    assert widths["b_o"] == 32 and widths["b_z"] == 16 and widths["b_x"] == 16  # unknown loads: 16-bit


def test_where_values_live():
    kernel = kernel_of(
        """
@triton.jit
def k(a, b, c, T, BT: tl.constexpr, BK: tl.constexpr):
    o_t = tl.arange(0, BT)
    p_a = tl.make_block_ptr(a, (T, BK), (BK, 1), (0, 0), (BT, BK), (1, 0))
    b_a = tl.load(p_a)
    b_b = tl.load(b + o_t[:, None] * BK + tl.arange(0, BK)[None, :], mask=o_t[:, None] < T)
    b_s = tl.dot(b_a, tl.trans(b_b))
    tl.store(c + o_t, tl.sum(b_s, axis=1), mask=o_t < T)
"""
    )
    placed = {name: (value.ub, value.split) for name, value in kernel.tiles.tiles}
    assert placed["o_t"] == (False, False)  # only addresses and masks: DMA parameters
    assert placed["b_a"] == (False, False)  # only a dot operand: the cube core's L1
    assert placed["b_b"] == (False, False)  # transposed into a dot: still the cube's
    assert placed["b_s"] == (True, True)  # reduced by the vector cores, half each


FOLDING = """
@triton.jit
def k(x, y, n, BT: tl.constexpr, WIDE: tl.constexpr):
    if WIDE:
        b = tl.load(x + tl.arange(0, 16 * BT)).to(tl.float32)
        tl.store(y + tl.arange(0, 16 * BT), b * b)
    else:
        b = tl.load(x + tl.arange(0, BT)).to(tl.float32)
        tl.store(y + tl.arange(0, BT), b * b)
"""


def test_constexpr_branch_counts_only_the_compiled_arm():
    tiles = kernel_of(FOLDING).tiles
    wide = peak(tiles, {"BT": 1024, "WIDE": True}).bytes
    narrow = peak(tiles, {"BT": 1024, "WIDE": False}).bytes
    assert wide == 16 * narrow
    assert peak(tiles, {"BT": 1024}).bytes == wide  # flag unknown: the larger arm


def test_runtime_branch_arms_add_up_until_they_no_longer_fit():
    tiles = kernel_of(FOLDING.replace("if WIDE:", "if n > 0:").replace("16 * BT", "BT")).tiles
    fits = peak(tiles, {"BT": 4096})
    assert not fits.arms_overlapped
    assert fits.bytes == 2 * peak(tiles, {"BT": 4096, "n": 1}).bytes  # a known n folds the test
    over = peak(tiles, {"BT": 32768})
    assert over.arms_overlapped and over.bytes == peak(tiles, {"BT": 32768, "n": 1}).bytes


UNEVEN_ARMS = """
@triton.jit
def k(x, y, n, BT: tl.constexpr):
    if n > 0:
        b = tl.load(x + tl.arange(0, 2 * BT)).to(tl.float32)
        tl.store(y + tl.arange(0, 2 * BT), b * b)
    else:
        tl.store(y + tl.arange(0, BT), tl.load(x + tl.arange(0, BT)))
"""


def test_whether_runtime_branch_arms_share_buffers_depends_on_the_socs_capacity():
    tiles = kernel_of(UNEVEN_ARMS).tiles
    on_910b = peak(tiles, {"BT": 16384})  # 229376 B together: the arms share (192 KiB)
    assert on_910b.arms_overlapped and on_910b.bytes == peak(tiles, {"BT": 16384, "n": 1}).bytes == 196608
    on_950 = peak(tiles, {"BT": 16384}, capacity=SOCS["ascend950"].ub_bytes)  # fits in 248 KiB
    assert not on_950.arms_overlapped and on_950.bytes == 229376


STRIDED = """
@triton.jit
def k(g, o, T, stride_h, H: tl.constexpr, BT: tl.constexpr):
    p = tl.make_block_ptr(g, (T,), (STEP,), (0,), (BT,), (0,))
    tl.store(o + tl.arange(0, BT), tl.load(p) * 2.0)
"""


def test_strided_dma_takes_32_bytes_per_element():
    tiles = kernel_of(STRIDED.replace("STEP", "stride_h")).tiles
    load = next(v for v in tiles.values if v.kind == "load")
    assert load.bytes(tiles.lookup({"BT": 64}), {}) == 64 * 32
    assert load.bytes(tiles.lookup({"BT": 64}), {}, dense=True) == 64 * 2  # a runtime stride: what ASC013 reports on
    assert peak(tiles, {"BT": 64}, dense=True).bytes < peak(tiles, {"BT": 64}).bytes


def test_a_stride_the_configuration_fixes_counts_in_the_dense_estimate():
    tiles = kernel_of(STRIDED.replace("STEP", "H")).tiles
    load = next(v for v in tiles.values if v.kind == "load")
    assert load.bytes(tiles.lookup({"BT": 64, "H": 4}), {}, dense=True) == 64 * 32
    assert load.bytes(tiles.lookup({"BT": 64, "H": 1}), {}, dense=True) == 64 * 2
    assert load.bytes(tiles.lookup({"BT": 64}), {}, dense=True) == 64 * 2  # H unknown: not proved


CARRIED = """
@triton.jit
def k(c, d, z_out, n, BM: tl.constexpr, BN: tl.constexpr):
    pc = tl.make_block_ptr(c, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    pd = tl.make_block_ptr(d, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    z = tl.zeros([BN], dtype=tl.float32)
    for i in range(n):
        x = tl.load(pc)
        tl.store(pd, x + z[None, :])
        UPDATE
    tl.store(z_out + tl.arange(0, BN), z)
"""


def test_a_vector_carried_round_a_loop_and_broadcast_in_it_takes_a_block_per_element():
    # Measured with fp32 pointers, BM=64, BN=128: `ub overflow, requires 6324224 bits` (790528 B);
    # with `z = tl.sum(x, 0)` (replaced, not accumulated) the compiler plans 164352 B.
    sizes, fp32 = {"BM": 64, "BN": 128}, {"c": 4, "d": 4, "z_out": 4}
    carried = peak(kernel_of(CARRIED.replace("UPDATE", "z += tl.sum(x, 0)")).tiles, sizes, fp32, dense=True)
    assert carried.bytes > UB_CAPACITY_BYTES
    assert any(c.value.blocked and c.bytes == 64 * 128 * 32 for c in carried.contributors)
    reset = peak(kernel_of(CARRIED.replace("UPDATE", "z = tl.sum(x, 0)")).tiles, sizes, fp32, dense=True)
    assert reset.bytes < UB_CAPACITY_BYTES and not any(c.value.blocked for c in reset.contributors)


def test_unsized_tiles_count_as_one_32_byte_block_and_are_listed():
    found = peak(kernel_of(FOLDING).tiles, {"WIDE": False})
    assert found.bytes == 32 and found.unsized


def test_sized_tiles_at_the_capacity_with_one_left_open_are_over_it():
    # Measured (fixtures/runtime/triton_ascend/asc013_gather_source.py, fp32 weights, int32
    # timestamps): at COL_BLOCK_SIZE=8192 the sized tiles are 196608 B; the gathered row of
    # `inp_row_stride` elements adds 32 B at 1 element, 64 B at 16, 544 B at 129 (`ub overflow,
    # requires 1577216 bits`); two fp32 tiles of exactly 196608 B (`add_kernel`) compile
    path = Path(__file__).parent.parent / "fixtures" / "runtime" / "triton_ascend" / "asc013_gather_source.py"
    source = path.read_text()
    assert found_rows(source, str(path), select=["ASC013"]) == {
        (row_of(source, "rab_time_forward_kernel[grid]("), "ASC013")
    }
    kernels = {kernel.name: kernel for kernel in context_of(source).kernels}
    fp32 = {"inp": 4, "out": 4, "index": 4}
    sized = peak(
        kernels["rab_time_forward_kernel"].tiles, {"COL_BLOCK_SIZE": 8192, "inp_row_stride": 1}, fp32, dense=True
    )
    assert sized.bytes == 196640
    assert peak(kernels["add_kernel"].tiles, {"BLOCK": 24576}, {"x": 4, "y": 4}, dense=True).bytes == UB_CAPACITY_BYTES


def row_of(source: str, fragment: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if fragment in line)


CONFIGS = """
BLOCK = 64

@triton.heuristics({"EVEN": lambda args: True, "HAS_B": lambda args: args["b"] is not None})
@triton.autotune(configs=[triton.Config({"BT": bt, "BD": bd}) for bt in [16, 32] for bd in (64, 2 * BLOCK) if bt * bd <= 2048], key=["T"])
@triton.jit
def k(x, b, T, BT: tl.constexpr, BD: tl.constexpr, BK: tl.constexpr, EVEN: tl.constexpr, HAS_B: tl.constexpr, W: tl.constexpr = 4):
    pass

def launch(x, T, chunk_size: int = 32):
    BK = chunk_size
    k[(T,)](x, None, T, BK=BK)
    k[(T,)](x, None, T, BK=triton.next_power_of_2(T))
"""


def test_configurations_the_module_makes_visible():
    context = context_of(CONFIGS)
    configurations = context.configurations(context.kernels[0])
    seen = [
        (c.values.get("BT"), c.values.get("BD"), c.values.get("BK"), c.values.get("EVEN"), c.values.get("W"))
        for c in configurations
    ]
    assert seen == [
        (16, 64, 32, True, 4),
        (16, 128, 32, True, 4),
        (32, 64, 32, True, 4),
        (16, 64, None, True, 4),
        (16, 128, None, True, 4),
        (32, 64, None, True, 4),
    ]
    assert "HAS_B" not in configurations[0].values  # a heuristic of the arguments: not literal
    assert configurations[0].label == "autotune config {BT=16, BD=64}; launch with {BK=32}"
    assert isinstance(configurations[0].node, cst.Call) and code(configurations[0].node.func) == "triton.Config"


def test_a_file_without_kernels_builds_no_tile_model(monkeypatch):
    import ascend_lint.tiles as tiles

    def fail(*args, **kwargs):
        raise AssertionError("tile model built")

    monkeypatch.setattr(tiles, "build_tiles", fail)
    from conftest import settings

    from ascend_lint.engine import lint_source

    result = lint_source("import triton\nBLOCK: int = 64\n", "k.py", settings(select=["ASC013"]))
    assert result.error is None and result.findings == []
    result = lint_source(
        "import triton\nimport triton.language as tl\n@triton.jit\ndef k(x, BT: tl.constexpr = 64):\n"
        "    tl.store(x + tl.arange(0, BT), 1.0)\n",
        "k.py",
        settings(select=["ASC001"]),
    )
    assert result.error is None


def test_capacity_is_the_compilers():
    assert UB_CAPACITY_BYTES * 8 == 1572864  # "... while 1572864 bits available!"


def test_a_cast_does_not_take_the_next_trips_copy_of_a_double_buffered_load():
    # Measured (bf16 pointers, BT = BS = 64): the compiler plans 49152 B, the load (8192 B) and
    # its fp32 cast (16384 B) each double buffered; the cast never lands in the load's buffers.
    tiles = kernel_of(
        """
@triton.jit
def k(s, o, n, BT: tl.constexpr, BS: tl.constexpr):
    for i in range(n):
        p_s = tl.make_block_ptr(s, (BT * n, BS), (BS, 1), (i * BT, 0), (BT, BS), (1, 0))
        p_o = tl.make_block_ptr(o, (BT * n, BS), (BS, 1), (i * BT, 0), (BT, BS), (1, 0))
        b_s = tl.load(p_s).to(tl.float32)
        tl.store(p_o, (b_s * 2.0).to(tl.bfloat16))
"""
    ).tiles
    assert peak(tiles, {"BT": 64, "BS": 64}).planned >= 2 * 8192 + 16384


def test_arithmetic_mixing_a_16_bit_tile_with_an_fp32_one_copies_it_to_fp32():
    # The compiler plans 20480 B for this fixture at BT=64 with bf16 pointers: the bias load,
    # its fp32 copy for `b_o + b_bias` and the dot result, half a tile each.
    path = Path(__file__).parent.parent / "fixtures" / "runtime" / "triton_ascend" / "asc003_safe_dtype_read.py"
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    kernel = next(k for k in find_kernels(module, ImportMap(module)) if k.name == "attend_plus_bias_kernel")
    assert abs(peak(kernel.tiles, {"BT": 64}).planned - 20480) <= 2048


SIGMOID = """
@triton.jit
def k(x, y, B: tl.constexpr):
    o = tl.arange(0, B)
    v = tl.load(x + o).to(tl.float32)
    tl.store(y + o, tl.FN(v).to(tl.bfloat16))
"""


def test_sigmoid_expands_into_one_more_fp32_tile():
    # Measured at B=2048 with bf16 pointers: the compiler plans 20480 B for tl.sigmoid and
    # 12288 B for tl.exp (load 4096 B, fp32 tile 8192 B, and for sigmoid one more 8192 B).
    sigmoid = peak(kernel_of(SIGMOID.replace("FN", "sigmoid")).tiles, {"B": 2048}).planned
    exp = peak(kernel_of(SIGMOID.replace("FN", "exp")).tiles, {"B": 2048}).planned
    assert (sigmoid, exp) == (20480, 12288)


VECTOR = """
@triton.jit
def k(x, y, s, n, B: tl.constexpr):
    o = tl.arange(0, B)
BODY
"""

# (body, planned peak UB as measured at B=4096 with fp32 pointers: a 16 KiB tile)
SPLATS = {
    "two scalars, two splats": ("v = tl.load(x + o)\ntl.store(y + o, tl.minimum(tl.maximum(v, 1.0), 7.0))", 148672),
    "the same scalar twice, one splat": (
        "v = tl.load(x + o)\ntl.store(y + o, tl.minimum(tl.maximum(v, 1.0), 1.0))",
        132288,
    ),
    "a runtime scalar": ("v = tl.load(x + o)\ntl.store(y + o, tl.maximum(v, s))", 82528),
    "two tiles: no splat, the temporaries": (
        "v = tl.load(x + o)\nw = tl.load(y + o)\ntl.store(y + o, tl.maximum(v, w))",
        83008,
    ),
    "a splat made before the loop that precedes its use": (
        "acc = tl.zeros([B], dtype=tl.float32)\nfor i in range(n):\n    acc += tl.load(x + i * B + o)\n"
        "tl.store(y + o, tl.maximum(acc, 1.0))",
        115296,
    ),
}


@pytest.mark.parametrize("case", sorted(SPLATS))
def test_scalars_splatted_into_tiles_match_the_measured_plan(case):
    body, planned = SPLATS[case]
    indented = "\n".join("    " + line for line in body.splitlines())
    tiles = kernel_of(VECTOR.replace("BODY", indented)).tiles
    estimate = peak(tiles, {"B": 4096}, {"x": 4, "y": 4}).planned
    assert abs(estimate - planned) <= 0.1 * planned, f"estimate {estimate} vs planned {planned}"


@pytest.mark.parametrize(
    "call",
    ["tl.maximum(v, 1.0, propagate_nan=tl.PropagateNan.ALL)", "tl.clamp(v, 1.0, 7.0, tl.PropagateNan.ALL)"],
)
def test_a_max_propagating_nans_is_a_plain_vector_max(call):
    # Measured (fp32, B=4096): with propagate_nan=ALL the compiler plans only the loaded tile
    # (16384 B): no splat, no temporaries, the result in place
    tiles = kernel_of(VECTOR.replace("BODY", f"    v = tl.load(x + o)\n    tl.store(y + o, {call})")).tiles
    assert peak(tiles, {"B": 4096}, {"x": 4, "y": 4}).planned == 16384


def test_a_minimum_a_discrete_store_reads_is_computed_element_by_element():
    # fla's logsigmoid_fwd_kernel (`offs // D` rows): measured at B=4096 (bf16 pointers), the
    # compiler plans 131618 B and no tile for `tl.minimum(0., b_x)` or its splat
    tiles = kernel_of(
        """
@triton.jit
def k(x, y, T, D: tl.constexpr, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    b_x = tl.load(x + (offs // D) * 1024 + offs % D, mask=offs < T, other=0.).to(tl.float32)
    b_m = tl.minimum(0., b_x)
    tl.store(y + (offs // D) * 1024 + offs % D, (b_m - tl.log(1. + tl.exp(-tl.abs(b_x)))).to(tl.bfloat16), mask=offs < T)
"""
    ).tiles
    assert not dict(tiles.tiles)["b_m"].ub


def test_an_integer_maximum_takes_no_splat_and_no_temporaries():
    # Measured (int32 tiles): `tl.maximum(v, 1)` plans only the loaded tile
    tiles = kernel_of(
        VECTOR.replace("BODY", "    v = tl.load(x + o).to(tl.int32)\n    tl.store(y + o, tl.maximum(v, 1))")
    ).tiles
    assert not any(v.splats or v.expanded for v in tiles.values)


def test_a_landing_ring_is_sized_and_named_by_the_first_of_equal_dot_results():
    # Two dot results of one size streamed to the vector cores in the same loop: the ring is
    # named after the first in program order (it was set order by id, which varied between runs).
    tiles = kernel_of(
        HEADER
        + """
    for i in range(n):
        x = tl.load(pa)
        y = tl.load(pb)
        s = tl.dot(x, y)
        t = tl.dot(x, y)
        tl.store(pc, s * 2.0 + t * 3.0)
"""
    ).tiles
    dots = [v for v in tiles.values if v.kind == "dot"]
    needed = peak(tiles, SIZES, FP32)
    rings = [c for c in needed.contributors if c.name is None and c.value.kind == "dot"]
    assert len(dots) == 2 and [c.value for c in rings] == [dots[0]]
    assert rings[0].bytes == 64 * 128 * 4 // 2  # one slot without multi-buffering, half a tile per core


def _summary(result) -> tuple[object, ...]:
    return (
        result.bytes,
        result.layout,
        result.statement,
        [(c.name, id(c.value), c.bytes) for c in result.contributors],
        result.arms_overlapped,
    )


def test_the_multi_buffered_simulation_reusing_statements_equals_a_full_one():
    # `peak` simulates without multi-buffering first; the multi-buffered simulation then reuses
    # every statement whose sizes multi-buffering leaves alone. It must equal simulating all.
    from ascend_lint import ub_plan

    compared = reused = 0
    for path in sorted((Path(__file__).parent.parent / "fixtures").rglob("*.py")):
        module = cst.parse_module(path.read_text(encoding="utf-8"))
        imports = ImportMap(module)
        context = ModuleContext(str(path), module.code, module, imports, find_kernels(module, imports))
        for kernel in context.kernels:
            for configuration in context.configurations(kernel):
                lookup = kernel.tiles.lookup(configuration.values)
                paths = ub_plan._Paths(kernel.tiles, lookup)
                measures = ub_plan._Measures(kernel.tiles, lookup, {}, True)
                unbuffered = ub_plan._Evaluation(paths, measures, ub_plan.UB_CAPACITY_BYTES, multi_buffer=False)
                unbuffered.peak()
                alone = ub_plan._Evaluation(paths, measures, ub_plan.UB_CAPACITY_BYTES, multi_buffer=True).peak()
                reusing = ub_plan._Evaluation(
                    paths, measures, ub_plan.UB_CAPACITY_BYTES, multi_buffer=True, reuse=unbuffered
                )
                assert _summary(reusing.peak()) == _summary(alone), (path.name, kernel.name, configuration.label)
                compared += 1
                reused += sum(
                    reusing.statement_peaks[i] is unbuffered.statement_peaks[i] for i in reusing.statement_peaks
                )
    assert compared > 50 and reused > 0


DIMENSIONS = ("BT", "(BT)", "BK", "64", "0x40", "(64)", "BT * 2", "BT*2", "1", "(1)", "0x1", "0b1", "1_0", "10", "0")


def test_dimensions_compare_by_their_code_and_a_literal_one_by_its_value():
    # bare names and integers are compared by their text without generating code: the answers
    # must be those of comparing generated code, and of evaluating the literal
    from ascend_lint.arithmetic import is_one
    from ascend_lint.tiles import differs

    nodes = [cst.parse_expression(text) for text in DIMENSIONS]
    for x in nodes:
        for y in nodes:
            assert differs((x,), (y,)) == (code(x) != code(y)), (code(x), code(y))
        assert is_one(x) == (isinstance(x, cst.Integer) and x.evaluated_value == 1), code(x)
    assert differs((nodes[0],), (nodes[0], nodes[0]))  # ranks differ


def test_local_constants_are_worked_out_for_the_names_a_configuration_asks_about(monkeypatch):
    kernel = kernel_of(
        """
@triton.jit
def k(x, K, BK: tl.constexpr, BT: tl.constexpr):
    NK: tl.constexpr = 4 * BK
    scale = K * 2
    b = tl.load(x + tl.arange(0, NK)).to(tl.float32)
    tl.store(x + tl.arange(0, NK), b * scale)
"""
    )
    asked: list[str] = []
    flags = kernel.flow.flags
    monkeypatch.setattr(kernel.flow, "flags", lambda node, spec=None: asked.append(code(node)) or flags(node, spec))
    tiles = kernel.tiles
    assert asked == []  # building the model asks the flow about no name's constancy
    assert tiles.lookup({"BK": 8, "BT": 16})("NK") == 32 and asked == ["4 * BK"]
    assert tiles.lookup({"BK": 8})("scale") is None  # `K` is a runtime argument
    assert peak(tiles, {"BK": 8, "BT": 16}, dense=True).bytes > 0


def test_a_strided_block_pointer_feeding_a_dot_takes_no_ub():
    # Measured (runtime strides 1024 on the last axis, BM=64, BN=128, BK=64): the compiler plans
    # no UB; the blocks go to the cube core's L1 by DMA. Pointer arithmetic with such a stride is
    # gathered through UB instead (163840 B planned for a 128x128x128 matmul).
    tiles = kernel_of(
        """
@triton.jit
def k(a, b, c, s_k, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pa = tl.make_block_ptr(a, (BM, BK), (BK, s_k), (0, 0), (BM, BK), (1, 0))
    pb = tl.make_block_ptr(b, (BK, BN), (BN, s_k), (0, 0), (BK, BN), (1, 0))
    pc = tl.make_block_ptr(c, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(pc, tl.dot(tl.load(pa), tl.load(pb)))
"""
    ).tiles
    assert peak(tiles, SIZES, FP32).planned == 0 and peak(tiles, SIZES, FP32, dense=True).bytes == 0


STRIDED_GEMM = """
@triton.jit
def k(a, b, c, K, s_k, s_n, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, S: tl.constexpr):
    o_m = tl.program_id(0) * BM + tl.arange(0, BM)
    o_n = tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BK)):
        o_k = kb * BK + tl.arange(0, BK)
        x = tl.load(a + o_m[:, None] * K + o_k[None, :] * A_STEP)
        y = tl.load(b + o_k[:, None] * BN + o_n[None, :] * B_STEP)
        acc = tl.dot(x, y, acc)
    tl.store(c + o_m[:, None] * BN + o_n[None, :], acc.to(tl.bfloat16))
"""


def test_a_dot_operand_addressed_with_a_runtime_stride_takes_no_ub_in_the_dense_estimate():
    # Measured (bf16 pointers, BM=128, BN=256, BK=256): with both strides 1 (a contiguous
    # launch: Triton specialises them to the constant 1) the compiler plans no UB; with 1024
    # the vector cores gather both operands into UB (65536 + 131072 B: element width, not 32
    # bytes per element as for a step the configuration fixes).
    tiles = kernel_of(STRIDED_GEMM.replace("A_STEP", "s_k").replace("B_STEP", "s_n")).tiles
    sizes = {"BM": 128, "BN": 256, "BK": 256, "S": 1}
    assert peak(tiles, sizes, dense=True).bytes == 0
    placed = dict(tiles.tiles)
    assert placed["x"].ub and placed["y"].ub and peak(tiles, sizes).bytes > 0  # the full model keeps the gather


def test_a_dot_operand_is_gathered_when_the_configuration_fixes_its_step_other_than_1():
    # Measured (bf16 pointers, BM=64, BN=128, BK=128, constexpr steps): S=1 plans no UB, S=2
    # 147456 B, S=1024 overflows (`requires` 557056 B: about 32 bytes per element).
    tiles = kernel_of(STRIDED_GEMM.replace("A_STEP", "S").replace("B_STEP", "S")).tiles
    sizes = {"BM": 64, "BN": 128, "BK": 128}
    for dense in (False, True):
        assert peak(tiles, {**sizes, "S": 1}, dense=dense).bytes == 0
        assert peak(tiles, {**sizes, "S": 1024}, dense=dense).bytes > UB_CAPACITY_BYTES


def test_a_discrete_store_computes_its_arithmetic_element_by_element():
    # `bench/calibrate_ub.py` on the fixture (bf16 pointers, D=128): the compiler plans 49954 B
    # at B=2048, 163904 B at B=8192 and overflows at B=32768 (`requires` 589824 B). The offsets
    # made with `//` and `%` and the stored arithmetic are computed element by element in the
    # store's loop; the loaded tiles, the mask and `tl.sigmoid`'s exponential stay tiles.
    path = Path(__file__).parent.parent / "fixtures" / "triton_ascend" / "asc013_discrete_access.py"
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    tiles = find_kernels(module, ImportMap(module))[0].tiles
    placed = {name: value.ub for name, value in tiles.tiles}
    assert not any(placed[name] for name in ("row", "col", "b_y", "b_g", "b_xs", "b_dx", "b_dy"))
    assert placed["b_x"] and placed["b_s"] and placed["mask"]  # `tl.sigmoid` reads b_x as a tile
    assert abs(peak(tiles, {"D": 128, "B": 2048}).planned - 49954) <= 0.25 * 49954
    assert peak(tiles, {"D": 128, "B": 8192}, dense=True).bytes <= UB_CAPACITY_BYTES
    assert peak(tiles, {"D": 128, "B": 32768}, dense=True).bytes > UB_CAPACITY_BYTES


def test_an_int64_program_index_makes_int64_offsets():
    # fla's activations: `i_n = tl.program_id(0).to(tl.int64)`, then `offs = i_n * B + tl.arange(0, B)`:
    # the compiler holds the offsets in int64 lanes (8192xi64 buffers at B=8192).
    tiles = kernel_of(
        """
@triton.jit
def k(x, y, T, B: tl.constexpr):
    i_n = tl.program_id(0).to(tl.int64)
    offs = i_n * B + tl.arange(0, B)
    tl.store(y + offs, tl.load(x + offs, mask=offs < T), mask=offs < T)
"""
    ).tiles
    assert dict(tiles.tiles)["offs"].width.resolve({}) == 64


@pytest.mark.parametrize(
    ("loop", "bits"),
    [
        ("for i in tl.range(pid, n, tl.num_programs(0)):", 32),
        # Triton gives a loop index the widest type of its bounds (vllm-ascend 0.30's categorical_sample);
        # measured on such a kernel (BLOCK=8192, fp32): needs 278592 B of UB (overflow), 163968 B with int32 bounds
        ("for i in tl.range(pid.to(tl.int64), n, tl.num_programs(0)):", 64),
        ("for i in tl.range(tl.cast(pid, tl.int64), n, tl.num_programs(0)):", 64),
        ("for i in tl.range(pid, n64, tl.num_programs(0)):", 64),  # `n64: tl.int64`
    ],
)
def test_offsets_built_from_a_loop_index_take_its_width(loop: str, bits: int) -> None:
    tiles = kernel_of(
        f"""
@triton.jit(do_not_specialize=["n"])
def k(x, y, n, n64: tl.int64, B: tl.constexpr):
    pid = tl.program_id(0)
    {loop}
        offs = i * B + tl.arange(0, B)
        tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)
"""
    ).tiles
    assert dict(tiles.tiles)["offs"].width.resolve({}) == bits


def test_a_peak_just_over_the_capacity_is_not_rounded_to_it():
    # fla's matmul_kernel at BM=128, BK=64, BN=256 estimates just over 192 KiB: "needs about 192 KiB ... over
    # the 192 KiB the Ascend 910B has" read wrong
    from rules.ub_overflow_estimate import _kib_over

    assert _kib_over(196864, UB_CAPACITY_BYTES) == "192.2 KiB"
    assert _kib_over(262144, UB_CAPACITY_BYTES) == "256 KiB"


def test_a_cast_to_an_address_tiles_element_type_takes_the_pointees_width():
    # `p_a.dtype.element_ty` of `p_a = attn + (i_bh * T + o[:, None]) * T + o[None, :]` is attn's
    # element type (bf16 here), not the width of the int64 offsets computed for the address
    tiles = kernel_of(
        """
@triton.jit
def k(x, attn, T, BT: tl.constexpr):
    i_bh = tl.program_id(0).to(tl.int64)
    o = tl.arange(0, BT)
    b_s = tl.load(x + o[:, None] * BT + o[None, :]).to(tl.float32) * 2.0
    p_a = attn + (i_bh * T + o[:, None]) * T + o[None, :]
    tl.store(p_a, b_s.to(p_a.dtype.element_ty))
"""
    ).tiles
    cast = next(v for v in tiles.values if v.kind == "cast" and "element_ty" in code(v.node))
    assert cast.width.resolve({"attn": 16}) == 16


def test_an_autotune_config_launched_several_ways_is_reported_once_for_its_largest_estimate():
    from conftest import settings

    from ascend_lint.engine import lint_source

    source = """\
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 32768})], key=["n"])
@triton.jit
def scale(x, y, n, BLOCK: tl.constexpr, TWICE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)
    w = tl.exp(v) * tl.sigmoid(v)
    if TWICE:
        w = w * tl.exp(w) + tl.sigmoid(w) * v
    tl.store(y + offs, w + v, mask=offs < n)


def run(x, y):
    scale[(1,)](x, y, x.numel(), TWICE=False)
    scale[(1,)](x, y, x.numel(), TWICE=True)
"""
    result = lint_source(source, "k.py", settings(select=["ASC013"]))
    (finding,) = result.findings
    assert finding.location.row == 5
    assert "(and 1 other launch of it)" in finding.message
    estimates = [peak(kernel_of(source).tiles, {"BLOCK": 32768, "TWICE": twice}, dense=True).bytes for twice in (0, 1)]
    assert finding.facts["estimate_bytes"] == max(estimates) > UB_CAPACITY_BYTES


def test_the_estimate_counts_loads_at_the_width_the_launches_show():
    from conftest import settings

    from ascend_lint.engine import lint_source

    source = """\
import torch
import triton
import triton.language as tl


@triton.jit
def k(a, b, c, d, out, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_a = tl.load(a + o, mask=o < n)
    b_b = tl.load(b + o, mask=o < n)
    b_c = tl.load(c + o, mask=o < n)
    b_d = tl.load(d + o, mask=o < n)
    tl.store(out + o, b_a * b_b + b_c * b_d, mask=o < n)


def run(x, y, n):
    a = torch.randn(n, dtype=torch.float32)
    k[(1,)](a, a.float(), y.to(torch.int8), x, a, n, BLOCK=32768)
"""
    (finding,) = lint_source(source, "k.py", settings(select=["ASC013"])).findings
    assert finding.message.endswith(
        "(float32 elements in `a`, `b` as launched; int8 elements in `c` as launched, counted as 16-bit)"
    )
    notes = {(note.location.row, note.message) for note in finding.related}
    assert (17, "float32 elements, as the launches pass for `a`") in notes
    assert (18, "float32 elements, as the launches pass for `b`") in notes
    values = {"BLOCK": 32768}
    widths = {"a": 4, "b": 4, "c": 2}
    assert finding.facts["estimate_bytes"] == peak(kernel_of(source).tiles, values, widths, dense=True).bytes


def kernel_named(code: str, name: str):
    return next(kernel for kernel in context_of(code).kernels if kernel.name == name)


# (the module's device functions, the kernel's call, the same work written in the kernel)
HELPERS = {
    "a helper's loads, dot result and softmax temporaries": (
        "@triton.jit\ndef scores(q, x, BN: tl.constexpr, D: tl.constexpr):\n"
        "    kk = tl.load(x + tl.arange(0, BN)[:, None] * D + tl.arange(0, D)[None, :])\n"
        "    s = tl.dot(q, tl.trans(kk)) * 0.125\n"
        "    return tl.exp(s - tl.max(s, 1)[:, None])\n",
        "u = scores(q, y, BLOCK_N, D)",
        "kk = tl.load(y + tl.arange(0, BLOCK_N)[:, None] * D + tl.arange(0, D)[None, :])\n"
        "s = tl.dot(q, tl.trans(kk)) * 0.125\nu = tl.exp(s - tl.max(s, 1)[:, None])",
    ),
    "a pair returned, sizes from an expression of the caller's constexprs": (
        "@triton.jit\ndef pair(x, N: tl.constexpr):\n    a = tl.load(x + tl.arange(0, N))\n    return a * 2.0, tl.exp(a)\n",
        "u, w = pair(y, BLOCK_N * 2)\nu = u + w",
        "a = tl.load(y + tl.arange(0, BLOCK_N * 2))\nu, w = a * 2.0, tl.exp(a)\nu = u + w",
    ),
    "a helper calling a helper, a default argument": (
        "@triton.jit\ndef inner(a, scale=2.0):\n    return tl.exp(a * scale)\n\n"
        "@triton.jit\ndef outer(x, N: tl.constexpr):\n    b = tl.load(x + tl.arange(0, N))\n    return inner(b) + b\n",
        "u = outer(y, BLOCK_N)",
        "b = tl.load(y + tl.arange(0, BLOCK_N))\nu = tl.exp(b * 2.0) + b",
    ),
    "loop-carried names returned into the caller's": (
        "@triton.jit\ndef running(acc, m, x, n, BN: tl.constexpr):\n"
        "    for i in range(n):\n        b = tl.load(x + i * BN + tl.arange(0, BN))\n"
        "        m = tl.maximum(m, b)\n        acc = acc * tl.exp(m) + b\n"
        "    return acc, m\n",
        "acc = tl.zeros([BLOCK_N], dtype=tl.float32)\nm = tl.zeros([BLOCK_N], dtype=tl.float32)\n"
        "acc, m = running(acc, m, y, 8, BLOCK_N)\nu = acc / m",
        "acc = tl.zeros([BLOCK_N], dtype=tl.float32)\nm = tl.zeros([BLOCK_N], dtype=tl.float32)\n"
        "for i in range(8):\n    b = tl.load(y + i * BLOCK_N + tl.arange(0, BLOCK_N))\n"
        "    m = tl.maximum(m, b)\n    acc = acc * tl.exp(m) + b\nu = acc / m",
    ),
}


def helper_kernel(helpers: str, body: str) -> str:
    lines = "\n".join("    " + line for line in body.splitlines())
    return (
        f"{helpers}\n@triton.jit\n"
        "def k(x, y, o, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):\n"
        "    q = tl.load(x + tl.arange(0, BLOCK_M)[:, None] * D + tl.arange(0, D)[None, :])\n"
        f"{lines}\n    tl.store(o, tl.sum(u, 0))\n"
    )


@pytest.mark.parametrize("case", HELPERS, ids=list(HELPERS))
def test_a_device_function_plans_its_tiles_at_the_call_site(case):
    """Triton inlines device functions: a call plans what its body written in the kernel
    plans, sized by the caller's constexprs (a call taken as elementwise plans one tile)."""
    helpers, call, written = HELPERS[case]
    called_model = kernel_named(helper_kernel(helpers, call), "k").tiles
    written_model = kernel_named(helper_kernel("", written), "k").tiles
    values = {"BLOCK_M": 64, "BLOCK_N": 256, "D": 64}
    called, inline = peak(called_model, values), peak(written_model, values)
    assert (called.bytes, called.planned) == (inline.bytes, inline.planned)
    assert called.bytes > 2 * 256 * 4


def test_a_device_function_returning_a_block_pointer_loads_through_it():
    """(A read of a result the arms of an `if` assign takes the first arm's: fla's activation
    kernels compile `_flat_offset`'s `if IS_LINEAR: return offs` arm, and the other arm's
    discrete address would make every load a loop over elements.)"""
    code = (
        "@triton.jit\ndef block(p, T, BT: tl.constexpr, CONTIG: tl.constexpr):\n"
        "    if CONTIG:\n        return tl.make_block_ptr(p, (T,), (1,), (0,), (BT,), (0,))\n"
        "    return tl.make_block_ptr(p, (T,), (4,), (0,), (BT,), (0,))\n\n"
        "@triton.jit\ndef k(x, o, T, BT: tl.constexpr, CONTIG: tl.constexpr):\n"
        "    b = tl.load(block(x, T, BT, CONTIG), boundary_check=(0,))\n"
        "    tl.store(o + tl.arange(0, BT), tl.exp(b.to(tl.float32)))\n"
    )
    loads = [v for v in kernel_named(code, "k").tiles.values if v.kind == "load"]
    assert [v.shape_text() for v in loads] == ["[BT]"]


def test_a_recursive_device_function_stays_a_call():
    code = (
        "@triton.jit\ndef f(a, N: tl.constexpr):\n    return f(a * 2.0, N)\n\n"
        "@triton.jit\ndef k(x, o, BLOCK: tl.constexpr):\n"
        "    u = f(tl.load(x + tl.arange(0, BLOCK)), BLOCK)\n    tl.store(o + tl.arange(0, BLOCK), u)\n"
    )
    model = kernel_named(code, "k").tiles
    # inlined once: the bf16 load and `a * 2.0` in fp32; the call of `f` inside `f` stays elementwise (in place)
    assert peak(model, {"BLOCK": 1024}).bytes == 1024 * 2 + 1024 * 4


def _prefetch_fixture(name: str):
    path = Path(__file__).parent.parent / "fixtures" / "triton_ascend" / "asc013_prefetched_tiles.py"
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    return next(k for k in find_kernels(module, ImportMap(module)) if k.name == name)


def test_a_tile_read_only_in_the_next_trip_through_a_copy_lives_in_ub():
    # `a_nxt = tl.load(...)` is read only by `a_cur = a_nxt` at the end of the trip, and through
    # it by the next trip's `a_cur.to(tl.float32)`: its users are next-trip users
    tiles = _prefetch_fixture("prefetched").tiles
    loads = [v for v in tiles.values if v.kind == "load" and "off_n" in code(v.node)]
    found = [(v.ub, len(v.users), len(v.next_trip_users)) for v in loads]
    assert found == [(True, 0, 1)] * 4


@pytest.mark.parametrize(
    ("block", "prefetched", "fetched"),
    # the compiler (bf16 pointers, D=32768): `prefetched` at BLOCK=8192 `ub overflow, requires
    # 2621440 bits` (327680 B), `fetched` plans 196608 B there; at 2048 they plan 114944 B and
    # 114944 B, at 4096 196608 B each
    [(8192, 327680, 196608), (4096, 163840, 98304)],
)
def test_tiles_prefetched_for_the_next_trip_add_to_the_estimate(block, prefetched, fetched):
    # before: the prefetched loads took no UB, and the estimate was the same as (or below) the
    # kernel loading each block in its own trip (196608 B at 8192, not flagged)
    values = {"D": 32768, "BLOCK": block}
    found = [peak(_prefetch_fixture(name).tiles, values, dense=True).bytes for name in ("prefetched", "fetched")]
    assert found == [prefetched, fetched]


def test_a_tile_carried_by_a_copy_keeps_its_buffer_until_the_copy():
    # the planner holds the loop's iteration argument (`a_cur`) from the top of the trip to the
    # copy `a_cur = a_nxt` that refills it, after its last read too; every `*_cur` tile is live
    # at the peak statement (the `y0` line), though `a_cur` is last read above it
    contributors = peak(_prefetch_fixture("prefetched").tiles, {"D": 32768, "BLOCK": 8192}, dense=True).contributors
    live = {c.name for c in contributors}
    assert {"a_cur", "b_cur", "c_cur", "d_cur", "a_nxt", "b_nxt", "c_nxt", "d_nxt"} <= live


def test_a_column_major_dot_operand_is_gathered_for_the_cube_core():
    # `w + o_k[:, None] + o_n[None, :] * S`: stride 1 down the rows. Measured (bf16 pointers):
    # with S a constexpr 1024 at 64x128x128 the compiler gathers `y` in 32-byte blocks
    # (memref<128x128x16xbf16>) and compacts it (memref<128x128xbf16>): `requires 4456448 bits`
    # (557056 B); with a runtime stride it gathers it at its element width (128x128x1024:
    # memref<1024x128xbf16>, `requires 2097152 bits`); a block pointer with strides (1, S)
    # plans no UB.
    column = STRIDED_GEMM.replace("o_k[:, None] * BN", "o_k[:, None]").replace("A_STEP", "1")
    tiles = kernel_of(column.replace("B_STEP", "S")).tiles
    assert peak(tiles, {"BM": 64, "BN": 128, "BK": 128, "S": 1024}, dense=True).bytes == 557056
    tiles = kernel_of(column.replace("B_STEP", "s_n")).tiles
    assert peak(tiles, {"BM": 128, "BN": 128, "BK": 1024, "S": 1}, dense=True).bytes == 262144
    block = column.replace(
        "tl.load(b + o_k[:, None] + o_n[None, :] * B_STEP)",
        "tl.load(tl.make_block_ptr(b, (K, BN), (1, S), (kb * BK, 0), (BK, BN), (0, 1)))",
    )
    tiles = kernel_of(block).tiles
    assert peak(tiles, {"BM": 64, "BN": 128, "BK": 128, "S": 1024}, dense=True).bytes == 0


FLASH_STEP = """
@triton.jit
def k(Q, K, V, O, n, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    o = tl.arange(0, BM)[:, None] * D + tl.arange(0, D)[None, :]
    q = tl.load(Q + o)
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for s in range(0, n, BN):
        k = LOAD_K
        qk = tl.dot(q, k.T) * 0.125
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        v = LOAD_V
        acc = tl.dot(p.to(tl.bfloat16), v, acc * alpha[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_new
    tl.store(O + o, (acc / l_i[:, None]).to(tl.bfloat16))
"""
KV_LOADS = {
    "pointer": "tl.load(X + (s + tl.arange(0, BN))[:, None] * D + tl.arange(0, D)[None, :])",
    "block pointer": "tl.load(tl.make_block_ptr(X, (n, D), (D, 1), (s, 0), (BN, D), (1, 0)))",
    "tensor descriptor": "tl.make_tensor_descriptor(X, shape=[n, D], strides=[D, 1], block_shape=[BN, D]).load([s, 0])",
    "positional descriptor": "tl.make_tensor_descriptor(X, [n, D], [D, 1], [BN, D]).load([s, 0])",
    "experimental descriptor load": "tl._experimental_descriptor_load(X, [s, 0], [BN, D], tl.bfloat16)",
}


@pytest.mark.parametrize("spelling", sorted(KV_LOADS))
def test_a_block_a_descriptor_loads_for_a_dot_takes_no_ub(spelling):
    # Measured (bf16 pointers, BM=BN=D=128): the compiler plans 159232 B for this kernel whether
    # K and V come through pointers, a block pointer or `tl.make_tensor_descriptor(...).load`
    # (docs/ub-estimate.md, "Tensor descriptors"); the blocks go to the cube core's L1. Read as
    # a call of no tile before, a descriptor's load hid both dots: no split between the vector
    # cores, 68608 B estimated.
    load = KV_LOADS[spelling]
    body = FLASH_STEP.replace("LOAD_K", load.replace("X", "K")).replace("LOAD_V", load.replace("X", "V"))
    tiles = kernel_of(body).tiles
    placed = dict(tiles.tiles)
    assert not placed["k"].ub and not placed["v"].ub and placed["qk"].split
    estimate = peak(tiles, {"BM": 128, "BN": 128, "D": 128}, {"Q": 2, "K": 2, "V": 2, "O": 2}, dense=True)
    assert estimate.bytes == 148480 and abs(estimate.planned - 159232) <= 0.1 * 159232


CAUSAL_STEP = FLASH_STEP.replace(
    "        k = LOAD_K\n", "        o_n = s + tl.arange(0, BN)\n        k = LOAD_K\n"
).replace(
    "        m_new =",
    '        qk = tl.where(tl.arange(0, BM)[:, None] >= o_n[None, :], qk, float("-inf"))\n        m_new =',
)


def causal_step_peak(params: str, made: str, before_loop: str = ""):
    """The dense UB estimate of `CAUSAL_STEP` at BM=BN=D=128 with `qk` made by `made`."""
    load = KV_LOADS["pointer"].replace("(s + tl.arange(0, BN))", "o_n")
    body = CAUSAL_STEP.replace("LOAD_K", load.replace("X", "K")).replace("LOAD_V", load.replace("X", "V"))
    body = body.replace("n, BM", f"n, {params}, BM").replace("tl.dot(q, k.T) * 0.125", made)
    body = body.replace("    for s in", before_loop + "    for s in")
    sizes = {"BM": 128, "BN": 128, "D": 128}
    return peak(kernel_of(body).tiles, sizes, {"Q": 2, "K": 2, "V": 2, "O": 2}, dense=True)


@pytest.mark.parametrize(
    "made",
    [
        "tl.dot(q, k.T) * 0.125",
        "tl.dot(q, k.T) * scale",
        "tl.dot(q, k.T) - 1.0",
        "tl.dot(q, k.T)",
        "tl.dot(q, k.T) * (scale * 0.125)",
        "tl.dot(q, k.T) * scale * 0.125",
    ],
)
def test_arithmetic_on_a_landed_dot_result_is_done_in_its_landing_slot(made):
    # Measured (bf16 pointers, BM=BN=D=128, docs/ub-estimate.md "Arithmetic on a landed dot
    # result"): the compiler plans this causal step alike (181760 B, 165376 B live at once) with
    # the dot result scaled by a constant or a runtime scalar, shifted, or left alone: the
    # arithmetic runs in the buffer the dot result landed in, which dies there. Counted as a
    # buffer of its own, it made a kernel the compiler fits 198400 B, over the UB. A second
    # scalar step (`* scale * 0.125`, fla's `* scale * RCP_LN2`) takes the dying product's
    # buffer, the slot, as `* (scale * 0.125)` does: it was counted beside the slot (198400 B).
    # The 64 B over 165632 are the `tl.where`'s blocks for its operands and its `-inf` (the
    # compiler's 16xf32 buffer on that line, tests/test_where_buffers.py).
    needed = causal_step_peak("scale", made).bytes
    assert needed == 165696 <= UB_CAPACITY_BYTES


def test_a_landed_dot_result_beside_a_hoisted_tile_still_overflows():
    # Measured: with an fp32 [BM, BN] bias loaded before the loop and added to the scaled dot
    # result, the compiler needs 198144 B (`ub overflow`): the bias's 64 KiB and 32 KiB more than
    # without it, the sum computed in the product's slot. Given a buffer of its own beside the
    # slot, the sum made 231168 B.
    bias = "    bias = tl.load(Bias + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]).to(tl.float32)\n"
    needed = causal_step_peak("Bias", "tl.dot(q, k.T) * 0.125 + bias", bias).bytes
    assert needed == 198464 > UB_CAPACITY_BYTES  # with the where's 64 B


STICK_STEP = """
@triton.jit
def k(Q, K, O, scale, n, BT: tl.constexpr, BS: tl.constexpr, D: tl.constexpr):
    q = tl.load(Q + tl.arange(0, BT)[:, None] * D + tl.arange(0, D)[None, :])
    rem = tl.zeros([BT], dtype=tl.float32)
    for s in range(0, n, BS):
        k = tl.load(K + tl.arange(0, D)[:, None] + (s + tl.arange(0, BS))[None, :] * D)
        b_s = MADE
        b_p = tl.exp2(b_s + rem[:, None])
        rem += tl.sum(b_p, 1)
    tl.store(O + tl.arange(0, BT), rem)
"""


@pytest.mark.parametrize(
    "made", ["tl.dot(q, k) * scale * 1.5", "tl.dot(q, k) * (scale * 1.5)", "tl.dot(q, k) * scale", "tl.dot(q, k)"]
)
def test_a_product_laid_out_a_block_per_element_does_not_fit_its_dot_results_landing_slot(made):
    # fla's stickbreaking attention: `rem`, carried round the loop and broadcast in it, lays the
    # tiles computed with it out a 32-byte block per element (64 KiB for [64, 32]), the product
    # `tl.dot(q, k) * scale` among them, while the dot result lands dense (4 KiB a core). A 64 KiB
    # result cannot run in a 4 KiB slot: it takes its own buffer, which `b_s + rem[:, None]`
    # then takes in place. Put in the ring, it grew the slot to 64 KiB for the whole loop and
    # left the sum no dying buffer to take (167936 B, 60 KiB more, for all but the bare dot).
    # The peak is now where the column-major `k` is gathered for the cube core (its 128 KiB of
    # 32-byte blocks, measured: memref<128x32x16xbf16>; the compiler plans 153600 B for `* scale`).
    estimate = peak(
        kernel_of(STICK_STEP.replace("MADE", made)).tiles,
        {"BT": 64, "BS": 32, "D": 128},
        {"Q": 2, "K": 2, "O": 4},
        dense=True,
    )
    needed, ring = estimate.bytes, [c.bytes for c in estimate.contributors if c.name is None and c.value.kind == "dot"]
    assert needed == 145408 and ring == [4096]


INT8_CASTS = """
@triton.jit
def q8(x, y, BM: tl.constexpr, D: tl.constexpr):
    o = tl.arange(0, BM)[:, None] * D + tl.arange(0, D)[None, :]
    v = tl.load(x + o).to(tl.float32)
    s = tl.maximum(tl.max(tl.abs(v), 1) / 127.0, 1e-12)
    tl.store(y + o, (v / s[:, None]).to(tl.int8))


@triton.jit
def c1(x, y, B: tl.constexpr):
    o = tl.arange(0, B)
    tl.store(y + o, tl.load(x + o).to(tl.int8))
"""


@pytest.mark.parametrize(
    ("kernel", "sizes", "pointers", "needed"),
    [
        # measured (`requires N bits`): the int8 result, two int32 per element while the cast runs
        ("c1", {"B": 16384}, {"x": 4}, 212992),  # fp32 [16384] 65536 B, i8 16384 B, memref<32768xi32>
        ("c1", {"B": 16384}, {"x": 2}, 229376),  # fp16: through an fp32 copy
        ("q8", {"BM": 32, "D": 512}, {"x": 4}, 212992),
        ("q8", {"BM": 64, "D": 256}, {"x": 4}, 212992),
        # fewer than 32 rows: padded to 32, through memref<32x512xi32> and memref<32768xi32>
        ("q8", {"BM": 16, "D": 512}, {"x": 4}, 229376),
        ("q8", {"BM": 8, "D": 512}, {"x": 4}, 212992),
        ("q8", {"BM": 16, "D": 1024}, {"x": 4}, 458752),
    ],
)
def test_a_float_tile_cast_to_int8_goes_through_int32_scratch(kernel, sizes, pointers, needed):
    model = next(k for k in context_of(INT8_CASTS).kernels if k.name == kernel).tiles
    assert peak(model, sizes, pointers, dense=True).bytes == needed
