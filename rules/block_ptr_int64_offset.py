"""
## What it does
Flags an int64 value passed as an offset of `tl.make_block_ptr` (its `offsets` or
`block_shape`) or of `tl.advance`: the result of `.to(tl.int64)` / `tl.cast(x, tl.int64)`, a
`cu_seqlens` value loaded `.to(tl.int64)` (`bos`, `t0`), a parameter annotated `tl.int64`, or
arithmetic with such an operand (`t0 + i_t * BT`). Values whose width is unknown (a plain
`tl.load`) are not flagged.

## Why is this bad?
Block pointers take 32-bit offsets. The kernel fails to compile, in every specialisation that
reaches the call; measured with triton-ascend 3.2:
``AssertionError: Block pointers only support 32 bit `offsets/block_shape`, add a
`.to(tl.int32)` or use regular indexing for 64 bit support`` (`ascend-lint confirm --backend
compile` reproduces it on the finding's own kernel). Casting the offset back to int32
compiles but wraps for the large packed offsets the int64 was there for.

## Example
```python
bos = tl.load(cu_seqlens + i_n).to(tl.int64)
p_x = tl.make_block_ptr(x, (T_total, D), (D, 1), (bos + i_t * BT, 0), (BT, BD), (1, 0))
```

## Use instead
```python
bos = tl.load(cu_seqlens + i_n).to(tl.int64)
p_x = tl.make_block_ptr(x + bos * D, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
```
The int64 part goes into the base pointer (pointer arithmetic is 64-bit); the block row offset
stays the int32 index within the sequence, and the shape the sequence's length.

## Fix safety
No automatic fix: moving the int64 part into the base pointer also changes the block's
shape (the rows it may touch), which the rule cannot decide.

## Details
### int64 values
Flags an int64 value passed as an offset of `tl.make_block_ptr` (its `offsets` or
`block_shape`) or of `tl.advance`: the result of `.to(tl.int64)` / `tl.cast(x, tl.int64)`, a
`cu_seqlens` value loaded `.to(tl.int64)` (`bos`, `t0`), a parameter annotated `tl.int64`
(an i64 argument), the index of a `tl.range` loop with such a bound or step (Triton gives the
index the widest of their types: `for t in tl.range(pid, task_num, num_core)` with
`task_num: tl.int64`), a tensor made int64 (`tl.full([], 0, tl.int64)`, `tl.zeros(shape,
dtype=tl.int64)`), a `tl.where` choosing such a value (`tl.where(i_n > 0, bos, 0)`: Triton
promotes the choice to the wider type, as it does `tl.maximum` / `tl.minimum`), or arithmetic
with such an operand (`t0 + i_t * BT`).

### Device functions, unknown widths, specialisations
A device
function's parameter holds what its callers pass: an int64 a kernel passes to a helper that
uses it as a block offset is flagged in the helper. Values whose width is unknown (a plain
`tl.load`, an argument of a device function whose callers' values are unknown) are not
flagged. Facts are per specialisation: an int64 `bos` in the `IS_VARLEN` arm does not make
the `bos` of the other arm int64.
"""

from __future__ import annotations

from collections.abc import Iterator

from ascend_lint.flow import WIDE
from ascend_lint.rule import Confirm, Evidence, Kernel, ModuleContext, Report, Rule

MESSAGE = (
    "int64 block-pointer offset: `{offset}` is int64 and `{call}` takes int32 offsets (compile error); "
    "keep the offset an int32 index within the sequence or row and add the int64 part (`bos * stride`) to the base pointer"
)


class BlockPtrInt64Offset(Rule):
    CODE = "ASC007"
    NAME = "block-ptr-int64-offset"
    SUMMARY = "An int64 value as a `tl.make_block_ptr` / `tl.advance` offset (block pointers take int32)"
    NO_FIX = "moving the int64 part into the base pointer also changes the rows the block may touch, which the rule cannot decide"
    REQUIRES_TOKENS = (("make_block_ptr", "advance"), ("int64",))
    CONFIRM = Confirm({"compile": Evidence.COMPILE_ERROR}, "the compiler rejects int64 block-pointer offsets")

    VALID = (
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n).to(tl.int64)
        eos = tl.load(cu_seqlens + i_n + 1).to(tl.int64)
        T = (eos - bos).to(tl.int32)
    else:
        bos = i_n * T
    p_x = tl.make_block_ptr(x + bos * D, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    p_y = tl.make_block_ptr(x, (T, D), (D, 1), ((bos + i_t * BT).to(tl.int32), 0), (BT, BD), (1, 0))
    p_x = tl.advance(p_x, (BT, 0))
    t0 = tl.load(cu_seqlens + i_n)
    p_z = tl.make_block_ptr(x, (T, D), (D, 1), (t0, 0), (BT, BD), (1, 0))
""",
        """
@triton.jit
def k(x, T, D: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t = tl.program_id(0)
    if IS_VARLEN:
        row = i_t * BT
    else:
        row = tl.cast(i_t, tl.int64) * BT
        row = 0
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (row, 0), (BT, BD), (1, 0))
""",
        """
@triton.jit
def _load_rows(x, T, D: tl.constexpr, row, BT: tl.constexpr, BD: tl.constexpr):
    p = tl.make_block_ptr(x, (T, D), (D, 1), (row, 0), (BT, BD), (1, 0))
    return tl.load(p, boundary_check=(0, 1))
""",
        # a choice between int32 values, an int32 constructor: int32
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    row = tl.where(i_n > 0, (bos * 0).to(tl.int32), 0) + i_t * BT
    p_x = tl.make_block_ptr(x + bos * D, (T, D), (D, 1), (row, 0), (BT, D), (1, 0))
    start = tl.full([], 0, tl.int32) + tl.zeros([], dtype=tl.int32) + i_t * BT
    p_y = tl.make_block_ptr(x, (T, D), (D, 1), (start, 0), (BT, D), (1, 0))
    tl.store(p_y, tl.load(p_x))
""",
    )
    INVALID = (
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, BD), (1, 0))  # expect
    t0 = i_t.to(tl.int64) * BT
    p_y = tl.make_block_ptr(base=x, shape=(T, D), strides=(D, 1), offsets=(t0, 0), block_shape=(BT, BD), order=(1, 0))  # expect
    p_y = tl.advance(p_y, (tl.cast(BT, tl.int64), 0))  # expect
""",
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    else:
        bos = i_n * T
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, BD), (1, 0))  # expect
""",
        """
@triton.jit
def k(x, y, T, OFF: tl.int64, task_num: tl.int64, num_core, BT: tl.constexpr):
    p = tl.make_block_ptr(x, (T,), (1,), (OFF,), (BT,), (0,))  # expect
    tl.store(y + tl.arange(0, BT), tl.load(p, boundary_check=(0,)))
    for task_id in tl.range(tl.program_id(0), task_num, num_core):
        q = tl.make_block_ptr(x, (T,), (1,), (task_id * BT,), (BT,), (0,))  # expect
        tl.store(y + task_id * BT + tl.arange(0, BT), tl.load(q, boundary_check=(0,)))
""",
        """
@triton.jit
def _load_rows(x, T, D: tl.constexpr, row, BT: tl.constexpr, BD: tl.constexpr):
    p = tl.make_block_ptr(x, (T, D), (D, 1), (row, 0), (BT, BD), (1, 0))  # expect
    return tl.load(p, boundary_check=(0, 1))


@triton.jit
def k(x, y, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    b = _load_rows(x, T, D, bos + i_t * BT, BT, BD)
    tl.store(y + tl.arange(0, BT)[:, None] * D + tl.arange(0, BD)[None, :], b)
""",
        # the width flows through a choice and from an int64 constructor
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    row = tl.where(i_n > 0, bos, 0) + i_t * BT
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (row, 0), (BT, D), (1, 0))  # expect
    tl.store(p_x, tl.zeros([BT, D], dtype=tl.float32))
    start = tl.full([], 0, tl.int64) + i_t * BT
    p_y = tl.make_block_ptr(x, (T, D), (D, 1), (start, 0), (BT, D), (1, 0))  # expect
    tl.store(p_y, tl.zeros([BT, D], dtype=tl.float32))
    first = tl.zeros([], dtype=tl.int64) + i_t * BT
    p_z = tl.advance(p_y, (first, 0))  # expect
    tl.store(p_z, tl.zeros([BT, D], dtype=tl.float32))
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        flow = kernel.flow
        for part, function in flow.block_offsets.items():
            if flow.flags(part) & WIDE:
                offset = context.module.code_for_node(part)
                yield Report(
                    part,
                    MESSAGE.format(offset=offset, call=function),
                    facts={"offset": offset, "error": "Block pointers only support 32 bit"},
                )
