"""ASC006 reads a grid-stride loop as a task loop when its step is the start's multiple of the
program id times a kernel parameter, the program count, constexpr or not (`range(pid * BLOCK, n,
NUM_CORE * BLOCK)`, marlin's `range(pid * 2 + sub, M, G * 2)`); a step of the tile alone, the tile
times a literal or the tile times itself walks one program's blocks."""

from __future__ import annotations

from conftest import expected_rows, found_rows

GRID_STRIDE = """
import triton
import triton.language as tl

@triton.jit
def constexpr_cores(X, O, n, NUM_CORE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x_ptr = X + pid * BLOCK
    for start in range(pid * BLOCK, n, NUM_CORE * BLOCK):
        tl.store(O + start + offs, tl.load(x_ptr + offs), mask=start + offs < n)
        x_ptr += NUM_CORE * BLOCK  # expect

@triton.jit
def named_stride(X, O, n, NUM_CORE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    first = pid * BLOCK
    stride = BLOCK * NUM_CORE
    x_ptr = X + first
    for start in tl.range(first, n, stride):
        tl.store(O + start, tl.sum(tl.load(x_ptr + tl.arange(0, BLOCK))))
        x_ptr += stride  # expect

@triton.jit
def two_rows_a_program(X, M, SUB, K: tl.constexpr, G: tl.constexpr):
    vp = tl.program_id(0) * 2 + SUB
    x_ptr = X + vp * K
    for route in range(vp, M, G * 2):
        tl.store(x_ptr + tl.arange(0, K), 0.0)
        x_ptr += G * 2 * K  # expect

@triton.jit
def one_programs_blocks(X, O, T, BS: tl.constexpr):
    i_s = tl.program_id(0)
    rows = X + i_s * BS
    for start in tl.range(i_s * BS, T, BS):
        tl.store(O + start, tl.sum(tl.load(rows + tl.arange(0, BS))))
        rows += BS
    for start in tl.range(i_s * BS, T, 2 * BS):
        tl.store(O + start, 0.0)
        rows += 2 * BS
    for start in tl.range(i_s * BS, T, BS * BS):
        tl.store(O + start, 0.0)
        rows += BS * BS
    for start in tl.range(i_s * BS + T, 2 * T, BS):
        tl.store(O + start, 0.0)
        rows += BS
"""


def test_asc006_reads_grid_stride_loops_over_a_program_count() -> None:
    assert found_rows(GRID_STRIDE, select=["ASC006"]) == expected_rows(GRID_STRIDE, "ASC006")
