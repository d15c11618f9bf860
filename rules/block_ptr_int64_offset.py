"""
## What it does
Flags an int64 value passed as an offset of `tl.make_block_ptr` (its `offsets` or
`block_shape`) or of `tl.advance` (also the method, `p.advance(...)`): the result of `.to(tl.int64)` / `tl.cast(x, tl.int64)`, a
`cu_seqlens` value loaded `.to(tl.int64)` (`bos`, `t0`), a parameter annotated `tl.int64`, or
arithmetic with such an operand (`t0 + i_t * BT`); also a uint32 offset (`.to(tl.uint32)`,
and int32 arithmetic with it). Values whose width is unknown (a plain `tl.load`) are not
flagged.

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
`block_shape`) or of `tl.advance` (also the method, `p.advance(...)`): the result of `.to(tl.int64)` / `tl.cast(x, tl.int64)`, a
`cu_seqlens` value loaded `.to(tl.int64)` (`bos`, `t0`), a cast to a dtype held in a name (`i64 =
tl.int64` in the body, a module constant `INDEX_DTYPE = tl.int64`) or in a constexpr parameter
(`.to(IDX)` with `IDX: tl.constexpr = tl.int64`, or `IDX=tl.int64` passed by every launch of
the module: the constant its launches pass, else its default), a parameter annotated `tl.int64`
(an i64 argument), the index of a `tl.range` loop with such a bound or step (Triton gives the
index the widest of their types: `for t in tl.range(pid, task_num, num_core)` with
`task_num: tl.int64`), a tensor made int64 (`tl.full([], 0, tl.int64)`, `tl.zeros(shape,
dtype=tl.int64)`), a `tl.where` choosing such a value (`tl.where(i_n > 0, bos, 0)`: Triton
promotes the choice to the wider type, as it does `tl.maximum` / `tl.minimum`), or arithmetic
with such an operand (`t0 + i_t * BT`).

### Other integer types
Block pointers take int32 offsets only: triton-ascend 3.2 refuses a uint32 offset with the
same `AssertionError` (measured: `(i_t * BT).to(tl.uint32)`, and `bos + i_t * BT` after `bos =
tl.load(cu_seqlens + i_n).to(tl.uint32)`), as it does int16 and uint64 ones. A uint32 value is
flagged, alone or in arithmetic with int32 values (Triton promotes the pair to the unsigned type
of the same width); the message names the type. A uint64 one is reported as int64 (64-bit).
An int16 or int8 cast is not flagged: arithmetic with any int32 index makes it int32 again, and
a bare `.to(tl.int16)` offset is rare enough that tracking the narrow types is not worth it.

### Device functions, unknown widths, specialisations
A device
function's parameter holds what its callers pass: an int64 a kernel passes to a helper that
uses it as a block offset is flagged in the helper. A value a device function returns is read
as Triton inlines the function (`Kernel.inlined`), with the arguments the call passes: `bos,
eos = _bounds(cu_seqlens, i_n)` returning `.to(tl.int64)` values, `_first(...)` written as the
offset itself, each call of a helper called twice, a helper of another module of the package
(`from .utils import bounds`; when its `tl` means the same in the kernel's module), and the arm
a constexpr argument chooses (`_start(cu_seqlens, i_n, False)` returning its int32 arm is
int32). An int64 one helper returns that the kernel passes to another helper using it as an
offset is reported at that call, with the helper's offset related (the helper alone, read with
what its calls pass, cannot see it); an offset the helper reports itself is not reported
again at the call. Values whose width is unknown (a plain
`tl.load`, an argument of a device function whose callers' values are unknown) are not
flagged. Facts are per specialisation: an int64 `bos` in the `IS_VARLEN` arm does not make
the `bos` of the other arm int64, the arm of an `if` or of a conditional expression (`p =
tl.make_block_ptr(x + bos * D, ...) if IS_VARLEN else tl.make_block_ptr(x, ..., (bos + i_t *
BT, 0), ...)`).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ascend_lint.flow import UNSIGNED, WIDE, Flow
from ascend_lint.nodes import one_line
from ascend_lint.rule import Confirm, Evidence, Kernel, ModuleContext, Report, Rule

HELPER_MESSAGE = (
    "{dtype} block-pointer offset: `{offset}` in device function `{helper}` is {dtype} with the values this call "
    "passes, and `{call}` takes int32 offsets (compile error); keep the offset an int32 index within the "
    "sequence or row and add the int64 part (`bos * stride`) to the base pointer"
)
MESSAGE = (
    "{dtype} block-pointer offset: `{offset}` is {dtype} and `{call}` takes int32 offsets (compile error); "
    "keep the offset an int32 index within the sequence or row and add the int64 part (`bos * stride`) to the base pointer"
)


class BlockPtrInt64Offset(Rule):
    CODE = "ASC007"
    NAME = "block-ptr-int64-offset"
    SUMMARY = "An int64 value as a `tl.make_block_ptr` / `tl.advance` offset (block pointers take int32)"
    NO_FIX = "moving the int64 part into the base pointer also changes the rows the block may touch, which the rule cannot decide"
    # no `int64`: the width may come from a device function another module defines (`bos, eos =
    # bounds(cu_seqlens, i_n)` after `from .utils import bounds`)
    REQUIRES_TOKENS = (("make_block_ptr", "advance"),)
    CONFIRM = Confirm({"compile": Evidence.COMPILE_ERROR}, "the compiler rejects int64 block-pointer offsets")

    VALID = (
        # the arm of a constexpr choice sees the `bos` of its own specialisation: int32 there
        """
@triton.jit
def k(x, y, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    else:
        bos = i_n * T
    p = (
        tl.make_block_ptr(x + bos * D, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
        if IS_VARLEN
        else tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, D), (1, 0))
    )
    b = tl.load(tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, D), (1, 0))) if not IS_VARLEN else 0.0
    tl.store(y + tl.arange(0, BT), tl.sum(tl.load(p, boundary_check=(0, 1)) + b, 1))
""",
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
        # a helper's int32 arm, chosen by the constexpr its call passes; its int64 on the base
        """
@triton.jit
def _start(cu_seqlens, i_n, WIDE: tl.constexpr):
    if WIDE:
        b = tl.load(cu_seqlens + i_n).to(tl.int64)
    else:
        b = tl.load(cu_seqlens + i_n).to(tl.int32)
    return b


@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = _start(cu_seqlens, i_n, False)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, D), (1, 0))
    wide = _start(cu_seqlens, i_n, True)
    p_y = tl.make_block_ptr(x + wide * D, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    tl.store(p_y, tl.load(p_x))
""",
        # the dtype a constexpr parameter holds is what the launches pass: int32 here
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, IDX: tl.constexpr = tl.int64):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(IDX)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, D), (1, 0))
    tl.store(x + tl.arange(0, BT), tl.load(p_x))


def run(x, cu_seqlens, T):
    k[(4, 2)](x, cu_seqlens, T, 64, 16, IDX=tl.int32)
""",
    )
    INVALID = (
        # the int64 dtype held in a local, or in a constexpr parameter (its default, or the
        # constant the launches pass)
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, IDX: tl.constexpr = tl.int64):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    i64 = tl.int64
    bos = tl.load(cu_seqlens + i_n).to(i64)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, D), (1, 0))  # expect
    eos = tl.load(cu_seqlens + i_n + 1).to(IDX)
    p_y = tl.make_block_ptr(x, (T, D), (D, 1), (eos - BT, 0), (BT, D), (1, 0))  # expect
    tl.store(p_y, tl.load(p_x))
""",
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, IDX: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(IDX)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, D), (1, 0))  # expect
    tl.store(x + tl.arange(0, BT), tl.load(p_x))


def run(x, cu_seqlens, T):
    k[(4, 2)](x, cu_seqlens, T, 64, 16, IDX=tl.int64)
""",
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, BD), (1, 0))  # expect
    t0 = i_t.to(tl.int64) * BT
    p_y = tl.make_block_ptr(base=x, shape=(T, D), strides=(D, 1), offsets=(t0, 0), block_shape=(BT, BD), order=(1, 0))  # expect
    p_y = tl.advance(p_y, (tl.cast(BT, tl.int64), 0))  # expect
    p_y = p_y.advance((tl.cast(BT, tl.int64), 0))  # expect
""",
        # uint32: int32 arithmetic with it stays uint32, which block pointers refuse too
        """
@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.uint32)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, BD), (1, 0))  # expect
    p_y = tl.make_block_ptr(x, (T, D), (D, 1), ((bos + i_t * BT).to(tl.int32), 0), (BT, BD), (1, 0))
    tl.store(p_y, tl.load(p_x))
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
        # values a device function returns: read as Triton inlines it
        """
@triton.jit
def _bounds(cu_seqlens, i_n):
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    eos = tl.load(cu_seqlens + i_n + 1).to(tl.int64)
    return bos, eos


@triton.jit
def _first(cu_seqlens, i_n):
    return tl.load(cu_seqlens + i_n).to(tl.int64)


@triton.jit
def k(x, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos, eos = _bounds(cu_seqlens, i_n)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (bos + i_t * BT, 0), (BT, D), (1, 0))  # expect
    p_y = tl.make_block_ptr(x, (T, D), (D, 1), (_first(cu_seqlens, i_n + 1), 0), (BT, D), (1, 0))  # expect
    tl.store(p_y, tl.load(p_x))
""",
        # an int64 one helper returns, passed to another using it as an offset: at the call
        """
@triton.jit
def _first(cu_seqlens, i_n):
    return tl.load(cu_seqlens + i_n).to(tl.int64)


@triton.jit
def _load_rows(x, T, D: tl.constexpr, row, BT: tl.constexpr):
    p = tl.make_block_ptr(x, (T, D), (D, 1), (row, 0), (BT, D), (1, 0))
    return tl.load(p, boundary_check=(0, 1))


@triton.jit
def k(x, y, cu_seqlens, T, D: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = _first(cu_seqlens, i_n)
    b = _load_rows(x, T, D, bos + i_t * BT, BT)  # expect
    tl.store(y + tl.arange(0, BT)[:, None] * D + tl.arange(0, D)[None, :], b)
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        inlined = kernel.inlined  # a helper's returned `bos` is the value its body computes
        found = _own_offsets(kernel)
        for where, (part, function) in found.items():
            offset = one_line(where)
            yield Report(
                where,
                MESSAGE.format(dtype=_refused_type(inlined.flow, part), offset=offset, call=function),
                facts={"offset": offset, "error": "Block pointers only support 32 bit"},
            )
        reported = set(found)
        for part, function in inlined.flow.block_offsets.items():
            if (inlined.in_function(part) and inlined.call_site(part) is None) or not _refused_type(inlined.flow, part):
                continue
            # an offset of a device function's copy, int64 only with this kernel's values (an
            # int64 another helper returns, passed on): reported at the kernel's call of it
            site, source = inlined.call_site(part), inlined.written(part)
            if site is None or site in reported:
                continue
            helper = inlined.function_of(part)
            if helper is None:  # the kernel's argument, read in place of the helper's parameter
                called = kernel.device_functions_called(site)
                helper = called[0] if len(called) == 1 else None
                wide = isinstance(source, cst.BaseExpression) and _refused_type(kernel.flow, source)
                if helper is None or (helper in kernel.module_kernels and wide):
                    continue  # (int64 as the kernel's own flow reads it: the helper reports it)
            elif source in _own_offsets(helper):
                continue
            reported.add(site)
            offset = one_line(source)
            related = ((source, "the offset"),) if inlined.function_of(part) in kernel.module_kernels else ()
            yield Report(
                site,
                HELPER_MESSAGE.format(
                    dtype=_refused_type(inlined.flow, part), offset=offset, helper=helper.name, call=function
                ),
                related=related,
                facts={"offset": offset, "error": "Block pointers only support 32 bit"},
            )


def _own_offsets(kernel: Kernel) -> dict[cst.CSTNode, tuple[cst.BaseExpression, str]]:
    """The int64 block-pointer offsets of the function's own calls (not of a helper's copy, where
    an argument is read in place of its parameter), read with the device
    functions it calls inlined (`bos, eos = _bounds(cu_seqlens, i_n)` returning `.to(tl.int64)`
    values), each where it is written, with the part of the inlined body and what takes it."""
    inlined = kernel.inlined
    flow = inlined.flow
    return {
        inlined.written(part): (part, function)
        for part, function in flow.block_offsets.items()
        if inlined.in_function(part) and inlined.call_site(part) is None and _refused_type(flow, part)
    }


def _refused_type(flow: Flow, part: cst.BaseExpression) -> str:
    """The integer type of an offset a block pointer refuses, as a message says it: `int64`
    (int64 or uint64: 64-bit), `uint32` (what int32 arithmetic with a uint32 makes); else ""."""
    flags = flow.flags(part)
    return "int64" if flags & WIDE else "uint32" if flags & UNSIGNED else ""
