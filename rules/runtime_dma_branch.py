"""
## What it does
Flags an `if`/`else` whose test is a runtime value under every constexpr specialisation and
whose arms pick different DMA paths: `tl.make_block_ptr` loads/stores in one arm, masked
pointer loads/stores in the other (typically `if is_tail_chunk:`); also a conditional
expression so choosing (`tl.load(x + o, mask=m) if is_tail else tl.load(p_x)`).

## Why is this bad?
The compiler keeps both DMA paths live in the unified buffer: peak UB is their sum, vector
utilisation stalls, and larger tiles fail to compile. Measured with triton-ascend 3.2 on a
2-D copy kernel (fp32, BD=64) with a runtime `if i_t == NT - 1:`: planned peak UB is
16384 B for the kernel vs 8192 B for each arm alone at BT=32, and 65536 B vs 32768 B at
BT=128 — exactly the sum.

Constant propagation decides "runtime under every specialisation": with
`if TAIL_MODE == 0: t = False` / `elif TAIL_MODE == 1: t = True` / `else: t = i_t == NT - 1`,
`if t:` folds away in modes 0 and 1 — that split is the fix, not a finding. Choosing between
`tl.load(p)` and `tl.load(p, boundary_check=...)` on the same block pointer is not this
pattern. Device functions are read as Triton inlines them: a tail flag one computes, a block
pointer one makes or returns (alone or in a tuple), a load or store one does in an arm.

## Example
```python
if i_t == NT - 1:
    b_x = tl.load(x + offs, mask=offs < T * D, other=0.0)
else:
    b_x = tl.load(tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0)))
```

## Use instead
Split on the host: launch the bulk with `TAIL_MODE=0` (block pointers only) and the last
chunk with `TAIL_MODE=1` (masked only), with `TAIL_MODE: tl.constexpr` deciding the path
in the kernel, and keep a runtime arm (`TAIL_MODE=2`) only where it is needed (varlen).

## Details
### Runtime under every specialisation
The test's value is worked out per specialisation (`tl.constexpr` test outcome), through the
names it reads:

- a name bound in `if`/`elif` arms on a constexpr test takes the value of the arm compiled;
- a conditional expression whose test is a constexpr takes the value of the arm it picks:
  `is_tail = (i_t == NT - 1) if TAIL_MODE == 2 else (TAIL_MODE == 1)` is a constant in modes 0
  and 1;
- `and` / `or` with an operand a specialisation decides folds, in either operand order:
  `False and x` and `True or x` are constants, `True and x` and `False or x` are `x`. So
  `is_tail = TAIL_MODE == 1 or (TAIL_MODE == 2 and i_t == NT - 1)` is the same split, and so is
  `if USE_MASK or is_tail:`: with `USE_MASK` True only the masked arm is compiled (measured:
  one load, no `scf.if` after triton-ascend 3.2's `make_ttir`), so the test is not runtime in
  every specialisation. A specialisation that keeps the runtime test (`USE_MASK` False,
  `TAIL_MODE == 2`) is the accepted runtime arm.

A runtime `if` in an arm a constexpr test picks, whose other arm does DMA too (`if TAIL_MODE ==
0: <block> elif TAIL_MODE == 1: <masked> else: if i_t == NT - 1: ...`), is that split's runtime
mode, as `elif TAIL_MODE == 2 and i_t == NT - 1:` is: not flagged. Under a flag whose other
arm does no DMA (`if HAS_RESIDUAL: if is_tail: ...`) the path is chosen at run time wherever
it is compiled: flagged; so it is when the other arm chooses at run time too (the same tail
branch in both arms of `if IS_VARLEN:`): each `if` is flagged, once.

A constexpr test choosing between two runtime values (`(i_t == NT - 1) if IS_VARLEN else
(i_t + 1) * BT > T`) stays runtime in both, and is flagged. A literal has one value in every
specialisation (`is_tail or 0`, `is_tail and 1`, `is_tail or None` are `is_tail`: flagged). A
module-level constant (`FAST = False`) is read as a constexpr that may take either value, so
`if FAST or is_tail:` is not flagged, as the same split written with `if FAST:` arms is not.

### One data, two paths
The two arms must move the same data on the two paths: one tensor (`x` masked in one arm,
through a block pointer in the other), or one tile (`b_h` loaded masked from `h0` in one arm,
from `h` through a block pointer in the other). The arms of a kernel often move other data
each (an empty sequence's scalar `-inf` stored to `lse` in one arm, the sequence's blocks in the
other; an early exit storing an empty result through a block pointer before gathers): that
chooses no DMA path, and is not flagged. A tile counts the tensors it is made from: one loaded
through the same block pointer on both paths (`b = tl.load(p_x, boundary_check=(0, 1))` and
`b = tl.load(p_x)`) and, on one, updated from another tensor's masked load (`b = b -
tl.load(lse + rows, mask=rows < T)[:, None]`) goes by block pointer both ways: not flagged.

An `if` / `elif` / `else` chain choosing among the paths is one choice: flagged once, at its `if`.

### An arm that returns
`if i_t == NT - 1: <masked load and store>; return` followed by the block-pointer path is an
`if` / `else` to Triton: the code after the `if` is its other arm, and both are lowered. It is
read as that `if` / `else`.

### Conditional expressions
A conditional expression whose test is runtime in every specialisation and whose arms hold
the two DMA paths (`b = tl.load(x + offs, mask=m, other=0.0) if i_t == NT - 1 else
tl.load(p_x)`) is flagged as the `if` is: Triton lowers it to the same `scf.if` keeping both
arms (measured with triton-ascend 3.2 on a 2-D copy, fp32, BT=32, BD=64: planned peak UB 67040
B, as for the same choice written as an `if`, vs 42400 B for each arm alone; `confirm` compiles
each arm in its place). One decided by a constexpr test (`... if USE_MASK else ...`) compiles
one arm and is not flagged; the test is read as an `if`'s is, in a device function too.

### Device functions
A tail flag a device function computes is read the same bound to a local first or called in
the test (`if _is_tail(i_t, NT, TAIL_MODE):`, an `elif` test too).

A branch in a device function is read in each caller's body with the function inlined, as
Triton compiles it: its test holds what that caller passes, in each of the caller's
specialisations. A caller that is itself a device function is looked through to the kernels at
the top of the chain (`_copy` called by `_through`, called by the kernel splitting the flag). It is flagged when some caller passes a value that is runtime in all of its
own (`_copy(x, y, i_t, T, i_t == NT - 1, BT)`), not when every caller splits the flag on a
constexpr mode (`is_tail` from `TAIL_MODE`, then `_copy(..., is_tail, BT)`): the verdict of
the same code written inline. A call the flow cannot inline (`*args`, past the inlining
limits) leaves the values of every call joined: runtime if any is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import libcst as cst

from ascend_lint.flow import CALL, DEF, DMA_FNS, Branch, Event, Flow, pointer_arg
from ascend_lint.nodes import walk
from ascend_lint.rule import Confirm, Evidence, Kernel, ModuleContext, Report, Rule

if TYPE_CHECKING:
    from ascend_lint.inline import Inlined

# The first DMA call of each kind ("block" / "masked") in a span of the kernel.
DmaCalls = dict[str, cst.Call]
# The first DMA call per (tensor it goes through, kind) moving one data in a span.
DmaPaths = dict[tuple[str | None, str], cst.Call]


class RuntimeDmaBranch(Rule):
    CODE = "ASC005"
    NAME = "runtime-dma-branch"
    SUMMARY = "A runtime branch between block-pointer and masked DMA keeps both paths live in UB"
    NO_FIX = "the fix is a host-side split of the launch"
    CONFIRM = Confirm({"compile": Evidence.DMA_ARMS_UB}, "the UB plan is the compiler's")
    REQUIRES_TOKENS = (("make_block_ptr", "advance"),)

    VALID = (
        # the branch in a device function whose every caller splits its tail flag on the mode:
        # decided per caller and specialisation, as inline (modes 0 and 1 compile one path)
        """
@triton.jit
def _copy(x, y, i_t, T, is_tail, BT: tl.constexpr):
    o = i_t * BT + tl.arange(0, BT)
    if is_tail:
        tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)
    else:
        p = tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))
        tl.store(tl.make_block_ptr(y, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.load(p))


@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    if TAIL_MODE == 0:
        is_tail = False
    elif TAIL_MODE == 1:
        is_tail = True
    else:
        is_tail = i_t == NT - 1
    _copy(x, y, i_t, T, is_tail, BT)
""",
        # the same through a second device function: decided in the kernel's inlined body, where
        # the chain passes the kernel's per-mode flag (the middle function's own joins them)
        """
@triton.jit
def _copy(x, y, i_t, T, is_tail, BT: tl.constexpr):
    o = i_t * BT + tl.arange(0, BT)
    if is_tail:
        tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)
    else:
        p = tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))
        tl.store(tl.make_block_ptr(y, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.load(p))


@triton.jit
def _through(x, y, i_t, T, is_tail, BT: tl.constexpr):
    _copy(x, y, i_t, T, is_tail, BT)


@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    is_tail = False if TAIL_MODE == 0 else (True if TAIL_MODE == 1 else i_t == NT - 1)
    _through(x, y, i_t, T, is_tail, BT)
""",
        # the tail flag a device function computes, called in the test; the runtime test in the
        # mode-2 arm of a split whose other modes compile one path each
        """
@triton.jit
def _is_tail(i_t, NT, TAIL_MODE: tl.constexpr):
    return (i_t == NT - 1) if TAIL_MODE == 2 else (TAIL_MODE == 1)


@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    p = tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))
    if _is_tail(i_t, NT, TAIL_MODE):
        tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)
    else:
        tl.store(tl.make_block_ptr(y, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.load(p))
    if TAIL_MODE == 0:
        b = tl.load(p)
    elif TAIL_MODE == 1:
        b = tl.load(x + o, mask=o < T)
    else:
        if i_t == NT - 1:
            b = tl.load(x + o, mask=o < T)
        else:
            b = tl.load(p)
    tl.store(y + o, b, mask=o < T)
""",
        # the tail flag a device function computes from the constexpr mode
        """
@triton.jit
def _is_tail(i_t, T, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    if TAIL_MODE == 0:
        is_tail = False
    elif TAIL_MODE == 1:
        is_tail = True
    else:
        is_tail = (i_t + 1) * BT > T
    return is_tail


@triton.jit
def k(x, y, T, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    is_tail = _is_tail(i_t, T, BT, TAIL_MODE)
    if is_tail:
        o = i_t * BT + tl.arange(0, BT)
        tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)
    else:
        p = tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))
        tl.store(tl.make_block_ptr(y, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.load(p))
""",
        """
@triton.jit
def k(x, y, T, NT, D: tl.constexpr, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    if TAIL_MODE == 0:
        is_tail = False
    elif TAIL_MODE == 1:
        is_tail = True
    else:
        is_tail = i_t == NT - 1
    offs = i_t * BT * D + tl.arange(0, BT * D)
    if is_tail:
        b_x = tl.load(x + offs, mask=offs < T * D, other=0.0)
    else:
        b_x = tl.load(tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0)))
    p_y = tl.make_block_ptr(y, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    if i_t == NT - 1:
        tl.store(p_y, b_x, boundary_check=(0, 1))
    else:
        tl.store(p_y, b_x)
""",
        # the same split written compactly: a conditional expression, and `and` / `or`, whose
        # constexpr test decides the flag in modes 0 and 1 (one DMA path compiled in each)
        """
@triton.jit
def k(x, y, T, NT, D: tl.constexpr, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    offs = i_t * BT * D + tl.arange(0, BT * D)
    is_tail = (i_t == NT - 1) if TAIL_MODE == 2 else (TAIL_MODE == 1)
    if is_tail:
        b_x = tl.load(x + offs, mask=offs < T * D, other=0.0)
    else:
        b_x = tl.load(tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0)))
    at_end = TAIL_MODE == 1 or (TAIL_MODE == 2 and i_t == NT - 1)
    if at_end:
        tl.store(y + offs, b_x, mask=offs < T * D)
    else:
        tl.store(tl.make_block_ptr(y, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0)), b_x)
""",
        """
@triton.jit
def copy_tail(x, y, n, BLOCK: tl.constexpr,
              USE_BLOCK_PTR: tl.
              constexpr):  # a formatter's line break: still a constexpr
    pid = tl.program_id(0)
    if USE_BLOCK_PTR:
        p = tl.make_block_ptr(x, (n,), (1,), (pid * BLOCK,), (BLOCK,), (0,))
        tl.store(y + pid * BLOCK + tl.arange(0, BLOCK), tl.load(p, boundary_check=(0,)))
    else:
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)
""",
    )
    INVALID = (
        # a device function one caller splits the flag for and another passes a runtime test:
        # that caller keeps both paths live in every launch
        """
@triton.jit
def _copy(x, y, i_t, T, is_tail, BT: tl.constexpr):
    o = i_t * BT + tl.arange(0, BT)
    if is_tail:  # expect
        tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)
    else:
        p = tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))
        tl.store(tl.make_block_ptr(y, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.load(p))


@triton.jit
def k(x, y, T, NT, BT: tl.constexpr, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    if TAIL_MODE == 0:
        is_tail = False
    elif TAIL_MODE == 1:
        is_tail = True
    else:
        is_tail = i_t == NT - 1
    _copy(x, y, i_t, T, is_tail, BT)


@triton.jit
def _through(x, y, i_t, T, is_tail, BT: tl.constexpr):
    _copy(x, y, i_t, T, is_tail, BT)


@triton.jit
def k_runtime(x, y, T, NT, BT: tl.constexpr):
    i_t = tl.program_id(0)
    _through(x, y, i_t, T, i_t == NT - 1, BT)  # through another device function
""",
        # the block-pointer DMA in a device function one arm calls
        """
@triton.jit
def _copy_block(x, y, T, i_t, BT: tl.constexpr):
    p = tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))
    tl.store(tl.make_block_ptr(y, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.load(p))


@triton.jit
def k(x, y, T, BT: tl.constexpr):
    i_t = tl.program_id(0)
    if i_t == tl.cdiv(T, BT) - 1:  # expect
        o = i_t * BT + tl.arange(0, BT)
        tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)
    else:
        _copy_block(x, y, T, i_t, BT)
""",
        # the tail stored before a `return`, the block pointer after it: both paths lowered; a
        # runtime choice under a feature flag whose other arm does no DMA
        """
@triton.jit
def k(x, y, r, T, NT, BT: tl.constexpr, HAS_R: tl.constexpr):
    i_t = tl.program_id(0)
    o = i_t * BT + tl.arange(0, BT)
    if HAS_R:
        if i_t == NT - 1:  # expect
            tl.store(r + o, tl.load(x + o, mask=o < T), mask=o < T)
        else:
            tl.store(tl.make_block_ptr(r, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.zeros((BT,), tl.float32))
    if i_t == NT - 1:  # expect
        tl.store(y + o, tl.load(x + o, mask=o < T), mask=o < T)
        return
    p = tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))
    tl.store(tl.make_block_ptr(y, (T,), (1,), (i_t * BT,), (BT,), (0,)), tl.load(p))
""",
        # the same runtime tail branch in both arms of a constexpr `if`: no specialisation
        # compiles one path, so neither arm is a split's runtime mode; each `if` once
        """
@triton.jit
def k(x, y, cu_seqlens, T, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    o = i_t * BT + tl.arange(0, BT)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n).to(tl.int32)
        if i_t * BT + BT <= T:  # expect
            tl.store(y + bos + o, tl.load(tl.make_block_ptr(x + bos, (T,), (1,), (i_t * BT,), (BT,), (0,))))
        else:
            tl.store(y + bos + o, tl.load(x + bos + o, mask=o < T), mask=o < T)
    else:
        if i_t * BT + BT <= T:  # expect
            tl.store(y + i_n * T + o, tl.load(tl.make_block_ptr(x + i_n * T, (T,), (1,), (i_t * BT,), (BT,), (0,))))
        else:
            tl.store(y + i_n * T + o, tl.load(x + i_n * T + o, mask=o < T), mask=o < T)
""",
        # a constexpr test choosing between two runtime tests: runtime in both specialisations
        """
@triton.jit
def k(x, y, T, NT, D: tl.constexpr, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t = tl.program_id(0)
    offs = i_t * BT * D + tl.arange(0, BT * D)
    is_tail = (i_t == NT - 1) if IS_VARLEN else ((i_t + 1) * BT > T)
    if is_tail:  # expect
        b_x = tl.load(x + offs, mask=offs < T * D, other=0.0)
    else:
        b_x = tl.load(tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0)))
    tl.store(y + offs, b_x, mask=offs < T * D)
""",
        # block pointers a device function returns, alone or in a tuple
        """
@triton.jit
def _ptr(x, i_t, T, BT: tl.constexpr):
    return tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,))


@triton.jit
def _ptrs(x, y, i_t, T, BT: tl.constexpr):
    return tl.make_block_ptr(x, (T,), (1,), (i_t * BT,), (BT,), (0,)), _ptr(y, i_t, T, BT)


@triton.jit
def k(x, y, z, T, BT: tl.constexpr):
    i_t = tl.program_id(0)
    p_x = _ptr(x, i_t, T, BT)
    o = i_t * BT + tl.arange(0, BT)
    if i_t < tl.cdiv(T, BT) - 1:  # expect
        b = tl.load(p_x)
    else:
        b = tl.load(x + o, mask=o < T)
    p_y, p_z = _ptrs(y, z, i_t, T, BT)
    if i_t < tl.cdiv(T, BT) - 1:  # expect
        tl.store(p_z, tl.load(p_y))
    else:
        tl.store(z + o, tl.load(y + o, mask=o < T), mask=o < T)
""",
        # a conditional expression choosing the DMA path at run time; one a constexpr decides
        """
@triton.jit
def k(x, y, T, NT, D: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr, USE_MASK: tl.constexpr):
    i_t = tl.program_id(0)
    offs = i_t * BT * D + tl.arange(0, BT)[:, None] * D + tl.arange(0, BD)[None, :]
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    b = tl.load(x + offs, mask=offs < T * D, other=0.0) if i_t == NT - 1 else tl.load(p_x)  # expect
    c = tl.load(x + offs, mask=offs < T * D, other=0.0) if USE_MASK else tl.load(p_x)
    tl.store(y + offs, b + c, mask=offs < T * D)
""",
        """
@triton.jit
def k(x, y, T, NT, D: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    is_tail_chunk = i_t == NT - 1
    offs = i_t * BT * D + tl.arange(0, BT * D)
    if is_tail_chunk:  # expect
        b_x = tl.load(x + offs, mask=offs < T * D, other=0.0)
        tl.store(y + offs, b_x, mask=offs < T * D)
    else:
        p_x = tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
        tl.store(tl.make_block_ptr(y, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0)), tl.load(p_x))
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        inlined = kernel.inlined  # a test, a block pointer, a DMA of a device function, read inlined
        flow = inlined.flow
        chained: set[cst.CSTNode] = set()  # the `elif`s of a chain reported at its `if`
        for branch in flow.branches:
            if not inlined.in_function(branch.node):
                continue
            if branch.node in chained:  # the chain is one choice, reported once
                if isinstance(branch.node.orelse, cst.If):
                    chained.add(branch.node.orelse)
                continue
            # an arm that returns leaves the code after the `if` to the other one
            after_body, after_else = flow.only_after_arm(branch, True), flow.only_after_arm(branch, False)
            body = [*flow.events_in(branch.body), *after_body]
            orelse = [*flow.events_in(branch.orelse), *after_else]
            # the two paths of one tensor or tile: the rest of a kernel often moves other data
            # both ways (an empty sequence's one `-inf` stored beside the sequence's blocks)
            moved = _dma_by_data(flow, orelse)
            pairs = (
                _opposite(_paths(data, calls, moved.get(data, {})), _paths(data, moved.get(data, {}), calls))
                for data, calls in _dma_by_data(flow, body).items()
            )
            pair = next((found for found in pairs if found is not None), None)
            if pair is None or not _runtime_everywhere(kernel, inlined.written(branch.node), branch):
                continue
            if isinstance(branch.node.orelse, cst.If):
                chained.add(branch.node.orelse)
            after = {event.node for event in (*after_body, *after_else)}
            yield _report(inlined, branch.node, branch.node.test, pair, after)
        for choice in flow.conditional_expressions:  # `tl.load(x + o, mask=m) if is_tail else tl.load(p)`
            if not inlined.in_function(choice):
                continue
            pair = _opposite(_dma_kinds_chosen(flow, choice, True), _dma_kinds_chosen(flow, choice, False))
            if pair is None or not _choice_runtime_everywhere(kernel, inlined.written(choice), flow, choice):
                continue
            yield _report(inlined, choice, None, pair)


def _report(
    inlined: Inlined,
    node: cst.If | cst.IfExp,
    end_node: cst.BaseExpression | None,
    pair: tuple[tuple[cst.Call, str], tuple[cst.Call, str]],
    after: set[cst.CSTNode] | frozenset[cst.CSTNode] = frozenset(),
) -> Report:
    """The finding at the `if` or conditional expression; `after`: the nodes after an `if`
    one of whose arms returns (the other arm's, to Triton)."""
    (block_call, block_where), (masked_call, masked_where) = pair

    def arm(call: cst.Call, where: str) -> str:
        return f"after the `if`, its {where} arm" if call in after else f"{where} arm"

    return Report(
        inlined.written(node),
        "runtime branch between block-pointer DMA and masked-pointer DMA keeps both paths "
        "live in UB; split the tail on the host with a constexpr mode",
        end_node=inlined.written(end_node) if end_node is not None else None,  # a test's inlined call: the call
        related=(
            (inlined.written(block_call), f"block-pointer DMA ({arm(block_call, block_where)})"),
            (inlined.written(masked_call), f"masked-pointer DMA ({arm(masked_call, masked_where)})"),
        ),
        facts={"dma_arms": ("block_ptr", "masked") if block_where == "if" else ("masked", "block_ptr")},
    )


def _choice_runtime_everywhere(kernel: Kernel, written: cst.CSTNode, flow: Flow, choice: cst.IfExp) -> bool:
    """A conditional expression's test is runtime in every specialisation, read as
    `_runtime_everywhere` reads an `if`'s (in a device function: in some caller's inlined body)."""
    if not _runtime_unsplit(flow, choice, choice.test):
        return False
    copies = kernel.choices_in_callers(written) if isinstance(written, cst.IfExp) else None
    if copies is None:
        return True
    return any(_runtime_unsplit(copy_flow, copy, copy.test) for _, (copy_flow, copy) in copies)


def _runtime_everywhere(kernel: Kernel, written: cst.CSTNode, branch: Branch) -> bool:
    """The test is runtime in every specialisation. In a device function, in every one of
    some caller's, read in its inlined body (`Kernel.branches_in_callers`): the function's own
    flow joins every call's values, so a tail flag a caller splits on `TAIL_MODE` (a constant
    in modes 0 and 1, runtime in mode 2) would be runtime there, as it is not inline."""
    if not _runtime_unsplit(branch.flow, branch.node, branch.node.test):
        return False
    copies = kernel.branches_in_callers(written) if isinstance(written, cst.If) else None
    if copies is None:
        return True
    return any(_runtime_unsplit(copy.flow, copy.node, copy.node.test) for _, copy in copies)


def _runtime_unsplit(flow: Flow, node: cst.If | cst.IfExp, test: cst.BaseExpression) -> bool:
    """The test is runtime in every specialisation, and the choice is not the runtime mode of
    a split (`_in_split_arm`)."""
    return flow.runtime_everywhere(test) and not _in_split_arm(flow, node)


def _in_split_arm(flow: Flow, node: cst.If | cst.IfExp) -> bool:
    """In the arm a constexpr test picks whose other arm does DMA too (`if TAIL_MODE == 0:
    <block> elif TAIL_MODE == 1: <masked> else: if i_t == NT - 1: ...`): the other modes compile
    one path, as `elif TAIL_MODE == 2 and i_t == NT - 1:` does. Not one whose other arm does
    none (`if HAS_RESIDUAL: if is_tail: ...`): wherever the DMA is compiled, it is chosen at
    run time; nor one whose other arm chooses its path at run time as well (`if IS_VARLEN: if
    is_tail: ... else: if is_tail: ...`): no specialisation compiles one path."""
    for outer, arm in flow.constexpr_arms_around(node):
        if isinstance(outer, Branch):
            span = outer.orelse if arm else outer.body
            other = _dma_kinds(flow, flow.events_in(span))
            if other and not any(b.point.index in span and _chooses_at_run_time(flow, b) for b in flow.branches):
                return True
        elif _dma_kinds_chosen(flow, outer, not arm):
            return True
    return False


def _chooses_at_run_time(flow: Flow, branch: Branch) -> bool:
    """A runtime `if` whose arms pick different DMA paths (read as written: not asking whether
    it is a split's runtime mode in turn)."""
    body, orelse = _dma_kinds(flow, flow.events_in(branch.body)), _dma_kinds(flow, flow.events_in(branch.orelse))
    return _opposite(body, orelse) is not None and flow.runtime_everywhere(branch.node.test)


def _dma_calls(flow: Flow, events: Iterable[Event]) -> Iterator[cst.Call]:
    """The loads and stores among the events."""
    for event in events:
        if event.kind == CALL and isinstance(event.node, cst.Call) and flow.imports.is_tl(event.node.func, *DMA_FNS):
            yield event.node


def _dma_kinds(flow: Flow, events: Iterable[Event]) -> DmaCalls:
    """First block-pointer and first plain-pointer load/store among the events."""
    found: DmaCalls = {}
    for call in _dma_calls(flow, events):
        found.setdefault(_kind(flow, call), call)
    return found


def _dma_by_data(flow: Flow, events: list[Event]) -> dict[str, DmaPaths]:
    """The first load or store of each path per data moved: the tensor a load or store goes
    through (`Flow.pointer_root`) and, for a load bound to a name (`b_h = tl.load(...)`, `=
    name`), the tile it makes: two arms loading `b_h`, one from `h0` masked and one from `h`
    through a block pointer, choose its path."""
    bound = {
        node: event.name
        for event in events
        if event.kind == DEF and event.value is not None
        for node in walk(event.value)
        if isinstance(node, cst.Call)
    }
    found: dict[str, DmaPaths] = {}
    for call in _dma_calls(flow, events):
        tile = bound.get(call)
        root = flow.pointer_root(pointer_arg(call))
        for data in (root, None if tile is None else f"= {tile}"):
            if data is not None:
                found.setdefault(data, {}).setdefault((root, _kind(flow, call)), call)
    return found


def _paths(data: str, mine: DmaPaths, theirs: DmaPaths) -> DmaCalls:
    """The DMA kinds one arm moves `data` by. For a tile, not by a tensor the other arm moves into
    it the same way: with `b = tl.load(p_x)` on both paths, `b = b - tl.load(lse + rows, mask=m)`
    on one adds a masked load of another tensor, and chooses no path for `b`."""
    found: DmaCalls = {}
    for (root, kind), call in mine.items():
        if root is None or root == data or (root, kind) not in theirs:
            found.setdefault(kind, call)
    return found


def _kind(flow: Flow, call: cst.Call) -> str:
    return "block" if flow.is_block_pointer(pointer_arg(call)) else "masked"


def _dma_kinds_chosen(flow: Flow, choice: cst.IfExp, arm: bool) -> DmaCalls:
    """First block-pointer and first plain-pointer load/store in one arm of a conditional
    expression (True: its body, the value before `if`)."""
    found: DmaCalls = {}
    imports = flow.imports
    for event in flow.calls:
        if (choice, arm) in event.choices and imports.is_tl(event.call.func, *DMA_FNS):
            kind = "block" if flow.is_block_pointer(pointer_arg(event.call)) else "masked"
            found.setdefault(kind, event.call)
    return found


def _opposite(body: DmaCalls, orelse: DmaCalls) -> tuple[tuple[cst.Call, str], tuple[cst.Call, str]] | None:
    """((block call, arm), (masked call, arm)) when the arms pick different DMA paths."""
    if body.keys() == orelse.keys():
        return None
    if "block" in body and "masked" in orelse:
        return (body["block"], "if"), (orelse["masked"], "else")
    if "masked" in body and "block" in orelse:
        return (orelse["block"], "else"), (body["masked"], "if")
    return None
