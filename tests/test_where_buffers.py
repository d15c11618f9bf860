"""What a `tl.where` and the comparison making its mask cost in UB, against the compiler.

Each figure is the most UB whose lifetimes overlap in triton-ascend 3.2's memory report
(`bishengir-compile --enable-memory-display`, Ascend910B3) for the kernel below with fp32
pointers, R=64, C=128 (one [64, 128] fp32 tile is 32768 B): the buffers the compiler needs at
once, which its `ub overflow, requires N bits` gives when they do not fit (docs/ub-estimate.md,
"What a `tl.where` costs").
"""

from __future__ import annotations

import pytest
from test_tiles import kernel_of

from ascend_lint.ub_plan import UB_CAPACITY_BYTES, peak

KERNEL = """
@triton.jit
def k(X, Z, O, s, n, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(X + r[:, None] * C + c[None, :])
    z = tl.load(Z + r[:, None] * C + c[None, :])
    y = WHERE
    tl.store(O + r[:, None] * C + c[None, :], STORED)
"""
FP32 = {"X": 4, "Z": 4, "O": 4}

# (`y =`, what is stored, bytes live at once in the compiler's plan)
MEASURED = {
    # the mask takes the buffer of the operand the comparison reads last (z), beside x and the result
    "operand dies at the comparison": ("tl.where(x > z, x, 0.0)", "y", 98368),
    "both operands die: the mask in one": ("tl.where(x > z, 1.0, 0.0)", "y", 65632),
    "no operand dies: a packed mask": ("tl.where(x > z, x, 0.0)", "y + z", 99392),
    "two tile operands, one 32-byte block": ("tl.where(x > z, x, z)", "y", 99360),
    # a comparison with a scalar writes its mask into the scalar's splatted tile
    "the mask in the splat of 0.0": ("tl.where(x > 0.0, x, z)", "y", 131104),
    "the mask in the splat of a runtime scalar": ("tl.where(x > s, z, 0.0)", "y", 98368),
}


def estimate(where: str, stored: str, values: dict[str, int], pointers: dict[str, int]) -> int:
    kernel = kernel_of(KERNEL.replace("WHERE", where).replace("STORED", stored))
    return peak(kernel.tiles, values, pointers).bytes


@pytest.mark.parametrize("case", sorted(MEASURED))
def test_a_where_and_its_mask_take_what_the_compiler_plans(case: str) -> None:
    where, stored, live = MEASURED[case]
    assert estimate(where, stored, {"R": 64, "C": 128}, FP32) == live


VECTOR = """
@triton.jit
def k(x, y, B: tl.constexpr):
    o = tl.arange(0, B)
    v = tl.load(x + o)
    tl.store(y + o, tl.where(v > 1.0, v, 1.0))
"""


def test_a_where_just_over_the_capacity_stays_over_it() -> None:
    # fp32, B=16384: `ub overflow, requires 1573376 bits` (196672 B: the tile, the splat of 1.0
    # holding the mask, the result, and 64 B for the where's scalar)
    tiles = kernel_of(VECTOR).tiles
    needed = peak(tiles, {"B": 16384}, {"x": 4, "y": 4}).bytes
    assert needed == 196672 > UB_CAPACITY_BYTES
    assert peak(tiles, {"B": 4096}, {"x": 4, "y": 4}).bytes == 49216  # the plan at B=4096


# data operands broadcast to the where's shape, each made a full tile of the where's width
# (int32 for index data) before the select; the estimate also holds the aranges `r` and `c`
# (768 B), which the compiler frees once the store's offsets are made
BROADCAST = {
    "integer data": ("tl.where(x > z, r[:, None], c[None, :]).to(tl.float32)", 131104),
    "integer data under a splat's mask": ("tl.where(x > 0.0, r[:, None], c[None, :]).to(tl.float32)", 131104),
    "one integer operand and a scalar": ("tl.where(x > z, r[:, None], 0).to(tl.float32)", 98368),
    "float data": ("tl.where(x > z, z, r[:, None] * 1.0)", 131104),
}


@pytest.mark.parametrize("case", sorted(BROADCAST))
def test_data_broadcast_by_a_where_is_made_a_full_tile(case: str) -> None:
    where, live = BROADCAST[case]
    assert 0 <= estimate(where, "y", {"R": 64, "C": 128}, FP32) - live <= 768


def test_broadcast_data_a_comparison_widened_is_not_made_again() -> None:
    # the widened `r[:, None]` and `c[None, :]` of the comparison are the select's operands:
    # 131104 B live (four [64, 128] int32 tiles); the estimate holds the mask packed instead of
    # in a fourth tile
    where = "tl.where(r[:, None] >= c[None, :], r[:, None], c[None, :]).to(tl.float32)"
    assert estimate(where, "y", {"R": 64, "C": 128}, FP32) <= 131104


def test_a_splat_another_operation_uses_keeps_the_mask_out_of_it() -> None:
    # `y = tl.where(x > 1.0, x, z)`, then `tl.maximum(y, 1.0)`: the compiler plans a packed
    # mask (1024 B) beside the splat of 1.0, which the maximum reads after: 132128 B at the where
    kernel = kernel_of(
        KERNEL.replace("y = WHERE", "y = tl.where(x > 1.0, x, z)\n    w = tl.maximum(y, 1.0)").replace("STORED", "w")
    )
    assert peak(kernel.tiles, {"R": 64, "C": 128}, FP32).bytes == 132128
