"""
## What it does
Flags every read of a tile after it was the left operand of `tl.dot` — as the left operand
again, as the right operand, stored, used in arithmetic, inserted with `tl.insert_slice`,
copied — until the tile is reassigned. Each read is one finding, naming the first dot that
clobbered the tile; later dots with the same left operand are listed as related locations.
A tile defined before a loop and used as the left operand inside it is reported at the dot:
the next trip reads the clobbered tile.

## Why is this bad?
On Ascend, `tl.dot(lhs, rhs)` may overwrite `lhs` in the unified buffer (CUDA Triton leaves
it intact). Every later read sees corrupted data: silent numeric drift against the Torch
oracle, no compile error. Replaying a real FLA `chunk_o` kernel with the clobber emulated,
removing one documented `+ 0.0` guard turns the max error from 0.0 into NaN.

A tile loaded from global memory and used only by dots is reported too, though whether it is
clobbered is not settled (Details).

## Example
```python
b_A = tl.load(p_A, boundary_check=(0, 1))
b_o = tl.dot(b_A, b_v)
tl.store(p_Ao, b_A)  # clobbered
```

## Use instead
```python
b_A = tl.load(p_A, boundary_check=(0, 1))
b_Ac = b_A + 0.0  # pristine copy, taken BEFORE the first dot that uses b_A as lhs
b_o = tl.dot(b_A, b_v)
tl.store(p_Ao, b_Ac)
```
or reload the tile from global memory. A copy taken after the dot copies corrupted data, and
an alias `b_Ac = b_A` copies nothing.

## Fix safety
Unsafe (applied with `--unsafe-fixes`): every copy costs one tile of UB, which can push a
kernel over its UB budget. The fix inserts a copy right before the statement holding the
first left-operand dot and rewrites the later reads to the copy (`b_A *= s` becomes
`b_A = b_A_c * s`). The copy keeps the tile's dtype: `b_A_c = b_A + 0.0` when the kernel casts
or creates the tile as a float (`.to(tl.float16)`, `tl.zeros(..., tl.float32)`), else
`b_A_c = (b_A + 0.0).to(b_A.dtype)` (a tile loaded from a pointer may be int8, which `+ 0.0`
alone makes fp32, and Triton rejects a dot of fp32 and int8; an integer identity such as `+ 0`
is folded away by the compiler, leaving no copy). Through fp32 and back is exact for 8- and
16-bit integers; a tile the kernel makes a 32- or 64-bit integer gets no fix. Several copies
one statement needs (its dots' left operands) go in in one pass. A later read that is itself the left operand of another dot
followed by more reads gets a copy of its own (`b_A_c2`, ...), all taken before the first dot,
as in hand-written multi-dot sequences. When the later reads do not all run after that
statement in the same block (e.g. in another `if` arm or after the enclosing loop), a later
read is of an alias, or the clobber is loop-carried, the copy is taken right before the dot's
statement and the dot consumes it instead: `tl.dot(b_A_c, ...)`, leaving `b_A` (and every
alias of it) intact. Values are unchanged under
standard `tl.dot` semantics (`+ 0.0` changes only the sign of a zero: `-0.0 + 0.0` is `+0.0`,
which is why the compiler cannot drop it). No fix is offered when the dot's statement is not a
plain one-statement line, nor where it would rewrite inside a `:=` or copy no tile (Details).

## Details
### Tiles only dots use
Every left operand is reported, also a tile loaded from global memory and used only by dots
(which the compiler may stage in the cube core's L1 rather than the unified buffer). Whether
such a tile is clobbered too is not settled: fla's authors guard tiles of that kind (a reload
from global memory of `b_A` in `wy_fast`), while the compiler team's own tests that run on the
device reuse them freely (`q` as the left operand on every trip of the fused-attention
tutorials and of `test_12_hstu_attention`). One run on an A2/A3 device would decide it; until
then the rule keeps them.

### How reads are followed
The analysis follows control flow: the left operand may be wrapped (`b_a.to(...)`,
`tl.trans(b_a)`, `b_a.trans()` or `b_a.T`, a reshape or view, `-b_a`), nested dots clobber
the inner left operand first, a reassignment ends tracking, an alias (`b_keep = b_a`, chained,
or paired in `a, b = x, y`, or bound by `:=`, or given back by a `@triton.jit` function that
returns its parameter as it is, `b_keep = ident(b_a)`: Triton inlines it) is the same tile as
the name it was taken from, and so is a name
bound to a wrapped tile (`p_cast = p.to(v.dtype)`: `tl.dot(p_cast, v)` clobbers `p` as
`tl.dot(p.to(v.dtype), v)` does; also to a choice between two such wraps of it, `p.to(tl.float8e5)
if FP8 else p.to(v.dtype)`), so its reads are reads of the clobbered tile until it is
reassigned itself (`b_ac = b_a + 0.0` is a copy, no alias; a choice between two tiles is
below). Binding the clobbered tile to a name after the dot reads no data (`b_keep = b_a`, a
swap `b_a, b_b = b_b, b_a`, `b_a = b_a`, `(b_t := b_a) is not None` in a test, a starred
target `b_x, *rest = b_b, b_a`): the reads of that name are the findings, each at its read, and
a name never read gives none (a tuple kept whole, `t = (b_a, b_b)`, is a read; triton-ascend 3.2
rejects a starred target anyway, `unsupported AST node type: Starred`). `.dtype`/`.shape`,
`b_a is None` and a compile
hint naming the tile (`extension.compile_hint(a, "dot_pad_only_k")`) are not data reads,
`tl.dot(b_k, tl.trans(b_k))` reads both operands before the dot runs, an operation holding
the dot reads its other operands after the dot has run (`x = x + tl.dot(x, y)` reads the
clobbered `x`, like `tl.dot(x, y) + x`; no fix is offered for a read written before the dot,
while `tl.dot(x, y) + x` reads the copy: `tl.dot(x, y) + x_c`), and reads on an
`if` arm exclusive with the dot (the other arm, or another `if` on the same constexpr test,
or on one that cannot hold with it: `MODE == 1` beside `MODE == 0`, `MODE == 0` beside `MODE !=
0`, `not USE_A` beside `USE_A and MODE == 0`, `MODE >= 1` beside `MODE < 1`, `MODE == 2` beside
`MODE in (0, 1)`: no value of the constexpr passes both; also a test mixing a constexpr with a
runtime value, whose arm runs only where its constexpr part allows, `not USE_A and n > 0`
beside `USE_A`) are not after it. `tl.dot` is pure: a dot whose result (or what it flows into through
arithmetic and names) is read in no constexpr specialisation where a later read runs is
dropped by the compiler there and clobbers nothing for that read. A result passed to a call,
stored or returned is read; a dot accumulating into `acc`, or run through a device function,
is taken to run.

### A choice of tiles
A conditional expression choosing between two tiles, bound to a name (`b_lhs = b_at if
TRANSPOSED else b_a`, then `tl.dot(b_lhs, b_v)`) or written in the dot (`tl.dot(b_a if USE_B
else b_b, w)`), is the chosen tile, not a copy:
- on a constexpr test, Triton's front end folds the choice and compiles the chosen arm alone,
  so the dot clobbers `b_at` where `TRANSPOSED` holds and `b_a` where it does not. A read is
  reported in the specialisations where its tile is the one chosen, and the message names them
  (`` where `TRANSPOSED` is false``); a read of `b_at` under `if not TRANSPOSED:` is not
  reported. An alias bound in the arms of an `if` on a constexpr test is taken the same way;
- on a value known only at run time (`b_c if pid == 0 else b_d`), the front end builds an
  `scf.if` that yields one of the two tiles as it is, so the dot may clobber either: reads of
  both are reported, as for an alias bound in a runtime `if`;
- an arm that is a copy (`b_a + 0.0`) or a new tile adds nothing.

A device function's choice is decided, as its `if`s are, by the constexprs its calls pass
(below). The fix copies the chosen tile by its name in the choice: `tl.dot(b_a_c if USE_B else
b_b, w)`.

### Device functions, per specialisation
A `@triton.jit` device function is compiled once per set of constexpr arguments its callers
pass, so it is checked in those specialisations when the module's calls are all its uses
(`ModuleContext.compiled_outcomes`): a constexpr parameter each call passes a literal, a module
constant or a calling device function's fixed constexpr (by keyword or position; its default
when omitted) decides the `if`s on it, and a dot and a later read are reported only when one
call's specialisation compiles both (`COMPUTE_DQ=False` at every call: the dot under
`if COMPUTE_DQ:` clobbers nothing; `True` at one call: reported), and a choice of tiles on such
a constexpr takes the arm the call's value picks (`lhs = y if SWAP else x` with `SWAP=False`:
`x`). A flag forwarded from a
kernel's own constexpr parameter (another module may launch the kernel), a function written
anywhere but in its calls (passed around, exported) or called with `*args` is checked in every
specialisation, as is a kernel. In every kernel and device function, an `if` on a module
constant or on a name the body binds as a constexpr (`IS_DIVISIBLE: tl.constexpr = False`, as
inductor writes them) is decided: its other arm is never compiled.

### Calls that are a dot
A call of a `@triton.jit` function whose `tl.dot` takes one of its parameters, unchanged or
through a view it binds to a name (`a16 = a.to(tl.float16)`), as the left operand (fla's
`safe_dot(a, b)`, which returns `tl.dot(a, b)`) is that dot: Triton
inlines the function, so the argument passed for that parameter (by position or keyword) is
clobbered in the caller. That holds in each specialisation the function is compiled in: a copy
it makes only under `if PRESCALE:` is no copy when its calls pass `PRESCALE=False` (or the
body binds it so). Each call is that dot in the specialisations it compiles: those agreeing
with every constexpr it passes a literal (by keyword or position) or omits with a literal
default (`ModuleContext.call_outcomes`), so `_mm(a, b, GUARD=True)`, whose dot takes a copy
made under `if GUARD:`, clobbers no `a` though `_mm(b, a, GUARD=False)` clobbers `b`. The function may be defined in the same file or imported from another
module of the package (`from .micro_kernel import micro_kernel_fwd`, or an absolute import
inside the package), or called through such a module (`micro_kernel.micro_kernel_fwd(...)`
after `from . import micro_kernel`, `mk.micro_kernel_fwd(...)` after `import
pkg.ops.micro_kernel as mk`), whose file is read from disk as saved; what that module imports
in turn is not followed, and a module outside the package on disk, missing or not parsing is
not seen.
When exclusive module-level `if` arms define the function several times, the parameter must be
clobbered by every definition. A function that copies its parameter before the dot clobbers
nothing. When the function's own findings are fixed by letting each dot clobbering the parameter
consume a copy (a dot in a loop of the function, whose next trip would read the clobbered tile),
that fix leaves the caller's argument intact too: a call of it (in a loop, say) is still reported,
but gets no copy of its own, which would be a second one (a function of the same module only,
whose fix `--fix` applies in the same pass). A function whose fix edits a line marked `# noqa:
ASC003` (the dot's, say) keeps no copy: that finding and every fix editing the line are dropped,
so the call takes its own copy.

### `a @ b`
`a @ b` is no dot here: triton-ascend 3.2's code generator maps no method to Python's matrix
multiplication operator, and compiling `tl.store(c, x @ y)` stops with a `CompilationError` at
the `@` (its message, `'MatMult' object has no attribute '__name__'`, comes from the report of
the unsupported operator failing in turn). Such a kernel never runs, so nothing is clobbered.

### Assignment expressions
A name bound by `:=` to the tile or a view of it (`tl.dot((b_t := tl.trans(b_A)), b_v)`) is an
alias like one bound by `=`. No fix is offered when a read the copy would replace is in the
value of an assignment expression (`b_t` would then bind the copy), nor when `:=` binds the tile
in the dot's own statement (a copy on the line before would copy an older value, or none). A
name `:=` binds in the left operand to a new tile (`tl.dot((b_a := tl.load(p_a)), b_b)`, also
`(b_a := x * 2.0)`) is that tile: its reads after the dot are reported, with no fix. In a loop
that tile is new on every trip, so no clobber is carried into the dot itself: a read before the
dot (`tl.store(p, b_a)`, then `acc = tl.dot((b_a := tl.load(q)), b_w, acc)`) reads the tile the
previous trip's dot clobbered and is reported at the read, the dot related, as any read after it.

### Left operands that are no tile
A left operand no assignment of the kernel reaches (a global) or a parameter a call passes a
constexpr for gets no fix: the copy would be a `.to` of a constexpr, ASC002's trap.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import libcst as cst

from ascend_lint.fixes import Declined, Delete, FixPlan, InsertBefore, Replace, spared, spelled_out
from ascend_lint.flow import NOTHING, Assumptions, Event, Flow, call_argument
from ascend_lint.imports import dotted_name
from ascend_lint.nodes import suite_lines
from ascend_lint.prefilter import PACKAGE_IMPORT
from ascend_lint.rule import Confirm, Evidence, Example, Kernel, ModuleContext, Report, Rule


class DotLhsReuse(Rule):
    CODE = "ASC003"
    NAME = "dot-lhs-reuse"
    SUMMARY = "A tile read after it was the left operand of `tl.dot`, which may overwrite it on Ascend"
    FIX = "unsafe"
    CONFIRM = Confirm(
        {"npu": Evidence.DEVICE_OUTPUTS, "interpret": Evidence.DOT_CLOBBER_OUTPUTS},
        "tl.dot clobbering its lhs is a runtime behaviour of the NPU",
    )
    REQUIRES_TOKENS = (("dot", PACKAGE_IMPORT),)  # the dot may be in a device function of another module

    VALID = (
        # constexpr tests that cannot hold together: no specialisation runs both arms
        """
@triton.jit
def k(A, B, o, N: tl.constexpr, MODE: tl.constexpr, USE_A: tl.constexpr):
    r = tl.arange(0, N)
    p = r[:, None] * N + r[None, :]
    b_a = tl.load(A + p)
    b_o = tl.zeros([N, N], dtype=tl.float32)
    if MODE == 0:
        b_o = tl.dot(b_a, tl.load(B + p))
    if MODE == 1:
        b_o += b_a
    if MODE != 0:
        b_o += b_a
    b_c = tl.load(A + p)
    if USE_A and MODE == 0:
        b_o += tl.dot(b_c, tl.load(B + p))
    if not USE_A:
        b_o += b_c
    tl.store(o + p, b_o)
""",
        # a compile hint annotates the tile; it reads no data
        """
import triton
import triton.language as tl
import triton.language.extra.cann.extension as extension

@triton.jit
def k(a_ptr, b_ptr, c_ptr, K, BK: tl.constexpr):
    acc = tl.zeros((16, 16), dtype=tl.float32)
    for i in range(0, K, BK):
        a = tl.load(a_ptr + i + tl.arange(0, 16)[:, None] * K + tl.arange(0, BK)[None, :])
        b = tl.load(b_ptr + i + tl.arange(0, BK)[:, None] * 16 + tl.arange(0, 16)[None, :])
        acc = tl.dot(a, b, acc)
        extension.compile_hint(a, "dot_pad_only_k")
    tl.store(c_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], acc)
""",
        """
@triton.jit
def k(p_a, p_b, p_o, p_p, D: tl.constexpr):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_ac = b_a + 0.0
    b_o = tl.dot(b_a, b_b)
    tl.store(p_o, b_o.to(b_a.dtype))
    tl.store(p_p, b_ac)
    b_k = tl.load(p_a)
    b_kk = tl.dot(b_k, tl.trans(b_k))
    b_c = b_b + 0.0
    b_a = tl.load(p_a)
    tl.store(p_o, b_a + b_c)
""",
        """
@triton.jit
def k(p_a, p_b, p_o, USE_G: tl.constexpr):
    b_a = tl.load(p_a)
    if USE_G:
        b_o = tl.dot(b_a, tl.load(p_b))
    else:
        b_o = b_a * 2
    if not USE_G:
        tl.store(p_o, b_a)
    tl.store(p_o, b_o)
""",
        """
@triton.jit
def k(p_a, p_b, p_o, NT):
    b_h = tl.zeros([16, 16], dtype=tl.float32)
    for i_t in range(NT):
        b_a = tl.load(p_a)
        b_h = tl.dot(b_a, b_h)
    tl.store(p_o, b_h)
""",
        # an alias reassigned before the dot, one on an arm exclusive with it, an unpacked value
        """
@triton.jit
def k(p_a, p_b, p_o, USE_G: tl.constexpr):
    b_a = tl.load(p_a)
    b_keep, b_w = b_a, tl.load(p_b)
    b_keep = b_keep * 2.0
    if USE_G:
        b_g = b_a
    else:
        b_g = tl.load(p_b)
    b_lo, b_hi = tl.split(b_a)
    if not USE_G:
        b_o = tl.dot(b_a, b_w)
        tl.store(p_o, b_o + b_keep + b_g + b_lo)
""",
        # binding the clobbered tile to a name reads nothing: a name rebound before its read, or
        # never read, gives no finding; `is not None` compares no data
        """
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = tl.dot(b_a, b_b)
    b_keep = b_a
    b_last = b_a
    b_last = tl.load(p_a)
    if b_a is not None:
        tl.store(p_o, b_o + b_last)
""",
        # a cast reassigned before the dot is no longer a view of `b_a`; `b_ac` is a copy
        """
@triton.jit
def k(p_a, p_w, p_o):
    b_a = tl.load(p_a)
    b_w = tl.load(p_w)
    b_c = b_a.to(tl.float16)
    b_c = b_w * 2.0
    b_ac = b_a + 0.0
    b_o = tl.dot(b_c, b_w) + tl.dot(b_ac, b_w)
    tl.store(p_o, b_o + b_a)
""",
        # a device function's constexpr that every call of it in the module fixes folds its `if`s:
        # each call passes `COMPUTE_DQ=False`, by keyword, by position, or through a calling device
        # function whose own calls fix its flag, so no specialisation runs the clobbering dot
        """
@triton.jit
def grads(ds, q, k, p_dq, p_dk, COMPUTE_DQ: tl.constexpr = True):
    if COMPUTE_DQ:
        tl.store(p_dq, tl.dot(ds, k))
    tl.store(p_dk, tl.dot(tl.trans(ds), q))


@triton.jit
def dk_step(ds, q, k, p_dq, p_dk, DQ: tl.constexpr):
    grads(ds, q, k, p_dq, p_dk, COMPUTE_DQ=DQ)


@triton.jit
def dk_only(p_s, p_q, p_k, p_dq, p_dk):
    q, k = tl.load(p_q), tl.load(p_k)
    grads(tl.load(p_s), q, k, p_dq, p_dk, COMPUTE_DQ=False)
    grads(tl.load(p_s), q, k, p_dq, p_dk, False)
    dk_step(tl.load(p_s), q, k, p_dq, p_dk, DQ=False)
""",
        # the calls omit the flag: its default, False, is every specialisation's, where `dq_part`
        # runs no dot and clobbers no argument of its caller
        """
@triton.jit
def grads(ds, q, k, p_dq, p_dk, COMPUTE_DQ: tl.constexpr = False):
    if COMPUTE_DQ:
        tl.store(p_dq, tl.dot(ds, k))
    tl.store(p_dk, tl.dot(tl.trans(ds), q))


@triton.jit
def dq_part(ds, k, p_dq, COMPUTE_DQ: tl.constexpr = False):
    if COMPUTE_DQ:
        tl.store(p_dq, tl.dot(ds, k))


@triton.jit
def dk_only(p_s, p_q, p_k, p_dq, p_dk):
    grads(tl.load(p_s), tl.load(p_q), tl.load(p_k), p_dq, p_dk)
    ds = tl.load(p_s)
    dq_part(ds, tl.load(p_k), p_dq)
    tl.store(p_dk, ds)
""",
        # each call compiles its own specialisation: `GUARD=True` dots a copy of `x`, so only the
        # second call, `GUARD=False`, clobbers what it passes for `x` (`b_b`, read no more); where
        # `SWAP` is omitted it is its default, False, where `y`, `b_b`, is the right operand: kept
        """
@triton.jit
def mm(x, y, GUARD: tl.constexpr):
    if GUARD:
        x = x + 0.0
    return tl.dot(x, y)


@triton.jit
def mm_swap(x, y, SWAP: tl.constexpr = False):
    if SWAP:
        return tl.dot(y, x)
    return tl.dot(x, y)


@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    c3 = mm_swap(tl.load(p_o), b_b) + mm_swap(b_a + 0.0, tl.load(p_o), SWAP=True)
    c1 = mm(b_a, b_b, GUARD=True)
    c2 = mm(b_b, b_a, False)
    tl.store(p_o, c1 + c2 + c3 + b_a)
""",
        # a device function's dot clobbers the argument for its left operand only, none when it copies it
        """
@triton.jit
def mm(a, b):
    return tl.dot(a, b)


@triton.jit
def mm_pristine(a, b):
    a_c = (a + 0.0).to(a.dtype)
    return tl.dot(a_c, b)


@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = mm(b=b_b, a=tl.load(p_o))
    b_p = mm_pristine(b_a, b_b)
    tl.store(p_o, b_o + b_p + b_a + b_b)
""",
        # the first dot's result is read only where `b_x` is not read again: the compiler drops it there
        """
@triton.jit
def k(p_x, p_w, p_o, SPLIT: tl.constexpr):
    b_x = tl.load(p_x)
    b_w = tl.load(p_w)
    b_y = tl.dot(b_x, b_w) * 2.0
    b_z = b_y.to(tl.float16)
    if SPLIT:
        b_o = tl.dot(b_x, b_w)
        tl.store(p_o, b_o)
    else:
        tl.store(p_o, b_z)
""",
        # where a constexpr choice gives the dot `b_a`, `b_at` is intact, and the other way round;
        # a device function's choice is decided by the flag its calls pass (`SWAP=False`: `x`)
        """
@triton.jit
def mm(x, y, w, SWAP: tl.constexpr):
    lhs = y if SWAP else x
    return tl.dot(lhs, w)


@triton.jit
def k(p_a, p_b, p_v, p_o, TRANSPOSED: tl.constexpr):
    b_a = tl.load(p_a)
    b_at = tl.load(p_b)
    b_v = tl.load(p_v)
    b_o = tl.dot(b_at if TRANSPOSED else b_a, b_v)
    if TRANSPOSED:
        tl.store(p_o, b_o + b_a)
    else:
        tl.store(p_o, b_o + b_at)
    b_p = mm(tl.load(p_a), b_v, b_o, SWAP=False)
    tl.store(p_o, b_p + b_v)
""",
        # an arm a constexpr the body binds (`IS_DIVISIBLE: tl.constexpr = False`) or a module
        # constant rules out is never compiled (inductor's kernels are written so)
        """
USE_DOT: tl.constexpr = False


@triton.jit
def k(p_a, p_b, p_o, p_p):
    IS_DIVISIBLE: tl.constexpr = False
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    if IS_DIVISIBLE:
        tl.store(p_p, tl.dot(b_a, b_b))
    if USE_DOT:
        tl.store(p_p, tl.dot(b_a, b_b))
    tl.store(p_o, b_a)
""",
    )
    INVALID = (
        # a device function's dot on a view of its parameter bound to a name clobbers the argument;
        # on a copy (`a + 0.0`) it clobbers nothing
        """
@triton.jit
def mm(a, b):
    a16 = a.to(tl.float16)
    return tl.dot(a16, b)


@triton.jit
def mm_copy(a, b):
    a_c = (a + 0.0).to(a.dtype)
    return tl.dot(a_c, b)


@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = mm(b_a, b_b)
    tl.store(p_o, b_a)  # expect
    b_c = tl.load(p_a)
    b_o += mm_copy(b_c, b_b)
    tl.store(p_o, b_c + b_o)
""",
        # a name bound to a cast is the tile it casts, as the cast written in the dot is
        """
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_c = b_a.to(tl.float16)
    b_o = tl.dot(b_c, tl.load(p_b))
    tl.store(p_o, b_o + b_a)  # expect
    tl.store(p_o, b_c)  # expect
""",
        # a row made by adding an axis is a view of the loaded tile (mojo_opset's decode_dsa.py)
        """
@triton.jit
def k(p_x, p_w, p_o, N: tl.constexpr, D: tl.constexpr, BN: tl.constexpr):
    o_d, o_n = tl.arange(0, D), tl.arange(0, BN)
    x = tl.load(p_x + o_d)
    acc = tl.zeros([1, BN], dtype=tl.float32)
    for start in range(0, N, BN):
        w = tl.load(p_w + o_d[:, None] * N + (start + o_n)[None, :])
        acc += tl.dot(x[None, :], w)  # expect
        acc += tl.dot(tl.expand_dims(x, 0), w)  # expect
    tl.store(p_o + o_n[None, :], acc)
""",
        # the addition holding the dot reads `x` once the dot has run; `tl.where` runs before it
        """
@triton.jit
def k(p_a, p_b, p_o):
    o = tl.arange(0, 16)
    b_a = tl.load(p_a + o[:, None] * 16 + o[None, :])
    b_b = tl.load(p_b + o[:, None] * 16 + o[None, :])
    w = b_a * 2.0
    v = tl.where(w > 0, w, 0.0) + tl.dot(w, b_b)
    x = b_a + 1.0
    x = x + tl.dot(x, b_b)  # expect
    tl.store(p_o + o[:, None] * 16 + o[None, :], x + v)
""",
        # the first dot's result is read in the arm reading `b_x` again, not in the other one
        """
@triton.jit
def k(p_x, p_w, p_o, SPLIT: tl.constexpr):
    b_x = tl.load(p_x)
    b_w = tl.load(p_w)
    b_y = tl.dot(b_x, b_w)
    if SPLIT:
        b_s = b_y * 2.0
        tl.store(p_o, tl.dot(b_x, b_w) + b_s)  # expect
    else:
        tl.store(p_o, b_x)
""",
        # a choice between two casts of one tile is that tile either way (the flash-attention
        # `p_cast = p.to(tl.float8e5) if FP8 else p.to(v.dtype)`)
        """
@triton.jit
def k(p_p, p_v, p_o, FP8: tl.constexpr):
    p = tl.load(p_p)
    v = tl.load(p_v)
    p_cast = p.to(tl.float8e5) if FP8 else p.to(v.dtype)
    pv = tl.dot(p_cast, v)
    tl.store(p_o, pv + tl.sum(p, axis=1)[:, None])  # expect
""",
        # a choice of two tiles is the chosen one, not a copy: the front end folds a constexpr
        # test, so the dot clobbers `b_at` where TRANSPOSED holds, `b_a` where not (the `else`
        # arm's `b_at` is intact); a choice made at run time may be either tile
        """
@triton.jit
def k(p_a, p_b, p_v, p_o, TRANSPOSED: tl.constexpr):
    b_a = tl.load(p_a)
    b_at = tl.load(p_b)
    b_v = tl.load(p_v)
    b_lhs = b_at if TRANSPOSED else b_a
    b_o = tl.dot(b_lhs, b_v)
    tl.store(p_o, b_o + b_a)  # expect
    if TRANSPOSED:
        tl.store(p_o, b_at)  # expect
    else:
        tl.store(p_o, b_at)
    b_c = tl.load(p_a)
    b_d = tl.load(p_b)
    b_e = tl.dot(b_c if tl.program_id(0) == 0 else b_d, b_v)
    tl.store(p_o, b_e + b_c)  # expect
    tl.store(p_o, b_d)  # expect
""",
        # a choice written in the dot: the read of `b_a` in it, clobbered by the first dot,
        # and the read after it (clobbered again where USE_B holds) each get a copy, and so
        # does `b_b`, the tile the dot takes where USE_B does not hold
        Example(
            """
@triton.jit
def k(p_a, p_b, p_w, p_o, USE_B: tl.constexpr):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_y = tl.dot(b_a, tl.load(p_w))
    b_z = tl.dot(b_a if USE_B else b_b, b_y)  # expect
    tl.store(p_o, b_z + b_a)  # expect
    tl.store(p_o, b_b)  # expect
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_w, p_o, USE_B: tl.constexpr):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_a_c = (b_a + 0.0).to(b_a.dtype)
    b_a_c2 = (b_a + 0.0).to(b_a.dtype)
    b_y = tl.dot(b_a, tl.load(p_w))
    b_b_c = (b_b + 0.0).to(b_b.dtype)
    b_z = tl.dot(b_a_c if USE_B else b_b, b_y)
    tl.store(p_o, b_z + b_a_c2)
    tl.store(p_o, b_b_c)
""",
            unsafe_fixes=True,
        ),
        # a choice between two views of one tile is that tile either way: the dot consumes a copy
        # in both arms
        Example(
            """
@triton.jit
def k(p_p, p_v, p_o, NT, FP8: tl.constexpr):
    p = tl.load(p_p)
    acc = tl.zeros([16, 16], dtype=tl.float32)
    for i in range(NT):
        v = tl.load(p_v + i)
        acc += tl.dot(p.to(tl.float8e5) if FP8 else p.to(v.dtype), v)  # expect
    tl.store(p_o, acc)
""",
            fixed="""
@triton.jit
def k(p_p, p_v, p_o, NT, FP8: tl.constexpr):
    p = tl.load(p_p)
    acc = tl.zeros([16, 16], dtype=tl.float32)
    for i in range(NT):
        v = tl.load(p_v + i)
        p_c = (p + 0.0).to(p.dtype)
        acc += tl.dot(p_c.to(tl.float8e5) if FP8 else p_c.to(v.dtype), v)
    tl.store(p_o, acc)
""",
            unsafe_fixes=True,
        ),
        # a device function's choice is decided by the flag its calls pass: `SWAP=False` takes `x`
        """
@triton.jit
def mm(x, y, w, SWAP: tl.constexpr):
    lhs = y if SWAP else x
    return tl.dot(lhs, w)


@triton.jit
def k(p_a, p_b, p_w, p_o):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = mm(b_a, b_b, tl.load(p_w), SWAP=False)
    tl.store(p_o, b_o + b_b)
    tl.store(p_o, b_a)  # expect
""",
        # an alias is the same tile, not a copy: the dot consumes a pristine copy instead
        Example(
            """
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_keep = b_a
    b_o = tl.dot(b_a, tl.load(p_b))
    tl.store(p_o, b_o + b_keep)  # expect
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_keep = b_a
    b_a_c = (b_a + 0.0).to(b_a.dtype)
    b_o = tl.dot(b_a_c, tl.load(p_b))
    tl.store(p_o, b_o + b_keep)
""",
            unsafe_fixes=True,
        ),
        # an alias bound after the dot (`b_keep = b_a`, a swap, `:=` in a test) is read where its
        # reads are, not at the binding; the names the swap binds to other tiles are intact
        Example(
            """
@triton.jit
def k(p_a, p_b, p_o, n):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = tl.dot(b_a, b_b)
    b_keep = b_a
    b_a, b_b = b_b, b_a
    tl.store(p_o, b_o + b_keep)  # expect
    tl.store(p_o, b_b)  # expect
    tl.store(p_o, b_a)
    if n > 0:
        tl.store(p_o, b_o)
    elif (b_t := b_keep) is not None:
        tl.store(p_o, b_t)  # expect
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_o, n):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_a_c = (b_a + 0.0).to(b_a.dtype)
    b_o = tl.dot(b_a_c, b_b)
    b_keep = b_a
    b_a, b_b = b_b, b_a
    tl.store(p_o, b_o + b_keep)
    tl.store(p_o, b_b)
    tl.store(p_o, b_a)
    if n > 0:
        tl.store(p_o, b_o)
    elif (b_t := b_keep) is not None:
        tl.store(p_o, b_t)
""",
            unsafe_fixes=True,
        ),
        # a dot under an `if` consumes a copy; the read after a second dot needs that dot's copy too
        Example(
            """
@triton.jit
def k(p_a, p_w, p_o, USE_W: tl.constexpr):
    b_a = tl.load(p_a)
    b_w = tl.load(p_w)
    if USE_W:
        tl.store(p_o, tl.dot(b_a, b_w))
    b_o = tl.dot(b_a, b_w)  # expect
    tl.store(p_o, b_o + b_a)  # expect
""",
            fixed="""
@triton.jit
def k(p_a, p_w, p_o, USE_W: tl.constexpr):
    b_a = tl.load(p_a)
    b_w = tl.load(p_w)
    if USE_W:
        b_a_c = (b_a + 0.0).to(b_a.dtype)
        tl.store(p_o, tl.dot(b_a_c, b_w))
    b_a_c2 = (b_a + 0.0).to(b_a.dtype)
    b_o = tl.dot(b_a, b_w)
    tl.store(p_o, b_o + b_a_c2)
""",
            unsafe_fixes=True,
        ),
        # a device function's dot clobbers the argument passed for its left operand, by position or
        # keyword, also through another device function; the dot consumes a copy
        Example(
            """
@triton.jit
def mm(a, b, allow_tf32: tl.constexpr = None):
    return tl.dot(a, b, allow_tf32=allow_tf32)


@triton.jit
def mm_rt(x, y):
    return mm(y.T, x)


@triton.jit
def k(p_a, p_b, p_o, NT):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = mm(b_a.to(tl.float16), b_b)
    tl.store(p_o, b_a)  # expect
    for i_t in range(NT):
        b_o += mm_rt(b_o, y=b_b)  # expect
""",
            fixed="""
@triton.jit
def mm(a, b, allow_tf32: tl.constexpr = None):
    return tl.dot(a, b, allow_tf32=allow_tf32)


@triton.jit
def mm_rt(x, y):
    return mm(y.T, x)


@triton.jit
def k(p_a, p_b, p_o, NT):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_a_c = (b_a + 0.0).to(b_a.dtype)
    b_o = mm(b_a.to(tl.float16), b_b)
    tl.store(p_o, b_a_c)
    for i_t in range(NT):
        b_b_c = (b_b + 0.0).to(b_b.dtype)
        b_o += mm_rt(b_o, y=b_b_c)
""",
            unsafe_fixes=True,
        ),
        # the tile's own methods wrap it as the `tl.` functions do
        """
@triton.jit
def k(p_a, p_w, p_o):
    b_a = tl.load(p_a)
    b_w = tl.load(p_w)
    b_x = tl.dot(b_a.trans(), b_w)
    b_y = tl.dot(b_a.reshape(16, 16), b_w)  # expect
    b_t = tl.dot(b_a.T, b_w)  # expect
    tl.store(p_o, b_a + b_x + b_y + b_t)  # expect
""",
        # a tile `:=` binds in the dot's left operand is the clobbered one (no fix: no line before holds it)
        """
@triton.jit
def k(p_a, p_b, p_o, p_p):
    b_o = tl.dot((b_a := tl.load(p_a)), tl.load(p_b))
    tl.store(p_o, b_o + b_a)  # expect
    b_q = tl.dot((b_s := b_o * 2.0), tl.load(p_b))
    tl.store(p_p, b_q + b_s)  # expect
""",
        # in a loop: the next trip's read before the dot reads the tile the previous trip clobbered
        """
@triton.jit
def k(p_a, p_b, p_o, NT):
    b_b = tl.load(p_b)
    acc = tl.zeros((16, 16), dtype=tl.float32)
    b_a = tl.zeros((16, 16), dtype=tl.float16)
    for i_t in range(NT):
        tl.store(p_o + i_t, b_a)  # expect
        acc = tl.dot((b_a := tl.load(p_a + i_t)), b_b, acc)
    tl.store(p_o, acc)
""",
        # each later left-operand use followed by more reads gets its own pristine copy
        Example(
            """
@triton.jit
def k(p_a, p_w, p_o):
    b_a = tl.load(p_a)
    b_w = tl.load(p_w)
    b_x = tl.dot(b_a, b_w)
    b_y = tl.dot(b_a, b_w)  # expect
    b_z = tl.dot(tl.trans(b_a), b_w)  # expect
    tl.store(p_o, b_a + b_x + b_y + b_z)  # expect
""",
            fixed="""
@triton.jit
def k(p_a, p_w, p_o):
    b_a = tl.load(p_a)
    b_w = tl.load(p_w)
    b_a_c = (b_a + 0.0).to(b_a.dtype)
    b_a_c2 = (b_a + 0.0).to(b_a.dtype)
    b_a_c3 = (b_a + 0.0).to(b_a.dtype)
    b_x = tl.dot(b_a, b_w)
    b_y = tl.dot(b_a_c, b_w)
    b_z = tl.dot(tl.trans(b_a_c2), b_w)
    tl.store(p_o, b_a_c3 + b_x + b_y + b_z)
""",
            unsafe_fixes=True,
        ),
        # the left operands of one statement each get a copy, both inserted in one pass; a tile
        # the kernel casts to a float dtype is copied with `+ 0.0`, one of unstated dtype through
        # fp32 and back to its own dtype (`+ 0.0` alone would make an int8 tile fp32)
        Example(
            """
@triton.jit
def k(p_a, p_b, p_w, p_o, p_p):
    b_a = tl.load(p_a).to(tl.float16)
    b_b = tl.load(p_b)
    b_w = tl.load(p_w)
    b_x = tl.dot(b_a, b_w) + tl.dot(b_b, b_w)
    tl.store(p_o, b_x + b_a)  # expect
    tl.store(p_p, b_b)  # expect
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_w, p_o, p_p):
    b_a = tl.load(p_a).to(tl.float16)
    b_b = tl.load(p_b)
    b_w = tl.load(p_w)
    b_a_c = b_a + 0.0
    b_b_c = (b_b + 0.0).to(b_b.dtype)
    b_x = tl.dot(b_a, b_w) + tl.dot(b_b, b_w)
    tl.store(p_o, b_x + b_a_c)
    tl.store(p_p, b_b_c)
""",
            unsafe_fixes=True,
        ),
        # an int8 tile keeps its dtype through the copy (the dot needs both operands int8); a
        # 32-bit integer tile gets no fix: fp32 does not hold it exactly, and the compiler folds
        # an integer identity (`idx + 0`) away, leaving no copy
        Example(
            """
@triton.jit
def k(p_a, p_b, p_i, p_o):
    a = tl.load(p_a).to(tl.int8)
    b = tl.load(p_b).to(tl.int8)
    acc = tl.dot(a, b, out_dtype=tl.int32)
    acc += tl.dot(a, b, out_dtype=tl.int32)  # expect
    idx = tl.load(p_i).to(tl.int32)
    acc += tl.dot(idx.to(tl.int8), b, out_dtype=tl.int32)
    tl.store(p_o, acc + idx)  # expect
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_i, p_o):
    a = tl.load(p_a).to(tl.int8)
    b = tl.load(p_b).to(tl.int8)
    a_c = (a + 0.0).to(a.dtype)
    acc = tl.dot(a, b, out_dtype=tl.int32)
    acc += tl.dot(a_c, b, out_dtype=tl.int32)
    idx = tl.load(p_i).to(tl.int32)
    acc += tl.dot(idx.to(tl.int8), b, out_dtype=tl.int32)
    tl.store(p_o, acc + idx)
""",
            unsafe_fixes=True,
        ),
        Example(
            """
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = tl.dot(b_a.to(tl.float16), b_b)
    tl.store(p_o, b_a)  # expect
    b_d = tl.dot(tl.trans(b_b), b_a)  # expect
    b_e = -tl.dot(-b_d, b_b)  # expect
    b_c = b_d + 0.0  # expect
    tl.store(p_o, b_o + b_e)
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_a_c = (b_a + 0.0).to(b_a.dtype)
    b_o = tl.dot(b_a.to(tl.float16), b_b)
    tl.store(p_o, b_a_c)
    b_b_c = (b_b + 0.0).to(b_b.dtype)
    b_d = tl.dot(tl.trans(b_b), b_a_c)
    b_d_c = (b_d + 0.0).to(b_d.dtype)
    b_e = -tl.dot(-b_d, b_b_c)
    b_c = b_d_c + 0.0
    tl.store(p_o, b_o + b_e)
""",
            unsafe_fixes=True,
        ),
        Example(
            """
@triton.jit
def k(p_a, p_b, p_c, p_o):
    b_a = tl.load(p_a)
    b_o = tl.dot(tl.dot(b_a, tl.load(p_b)), tl.load(p_c))
    b_a *= 2.0  # expect
    tl.store(p_o, b_a)
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_c, p_o):
    b_a = tl.load(p_a)
    b_a_c = (b_a + 0.0).to(b_a.dtype)
    b_o = tl.dot(tl.dot(b_a, tl.load(p_b)), tl.load(p_c))
    b_a = b_a_c * 2.0
    tl.store(p_o, b_a)
""",
            unsafe_fixes=True,
        ),
        Example(
            """
@triton.jit
def k(p_a, p_b, p_o, NT):
    b_a = tl.load(p_a)
    b_h = tl.zeros([16, 16], dtype=tl.float32)
    for i_t in range(NT):
        b_h += tl.dot(b_a, tl.load(p_b + i_t))  # expect
    tl.store(p_o, b_h)
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_o, NT):
    b_a = tl.load(p_a)
    b_h = tl.zeros([16, 16], dtype=tl.float32)
    for i_t in range(NT):
        b_a_c = (b_a + 0.0).to(b_a.dtype)
        b_h += tl.dot(b_a_c, tl.load(p_b + i_t))
    tl.store(p_o, b_h)
""",
            unsafe_fixes=True,
        ),
        Example(
            """
@triton.jit
def k(p_a, p_b, p_o, USE_G: tl.constexpr):
    b_a = tl.load(p_a)
    if USE_G:
        b_o = tl.dot(b_a, tl.load(p_b))
    if USE_G:
        b_o = tl.insert_slice(b_o, b_a, [0, 0], [16, 16], [1, 1])  # expect
    tl.store(p_o, b_o)
""",
            fixed="""
@triton.jit
def k(p_a, p_b, p_o, USE_G: tl.constexpr):
    b_a = tl.load(p_a)
    if USE_G:
        b_a_c = (b_a + 0.0).to(b_a.dtype)
        b_o = tl.dot(b_a_c, tl.load(p_b))
    if USE_G:
        b_o = tl.insert_slice(b_o, b_a, [0, 0], [16, 16], [1, 1])
    tl.store(p_o, b_o)
""",
            unsafe_fixes=True,
        ),
        # one call passes `COMPUTE_DQ=True` (or omits it: the default is True): that
        # specialisation runs the dot, then reads `ds`
        """
@triton.jit
def grads(ds, q, k, p_dq, p_dk, COMPUTE_DQ: tl.constexpr = True):
    if COMPUTE_DQ:
        tl.store(p_dq, tl.dot(ds, k))
    tl.store(p_dk, tl.dot(tl.trans(ds), q))  # expect


@triton.jit
def dk_only(p_s, p_q, p_k, p_dq, p_dk):
    grads(tl.load(p_s), tl.load(p_q), tl.load(p_k), p_dq, p_dk, COMPUTE_DQ=False)


@triton.jit
def both(p_s, p_q, p_k, p_dq, p_dk):
    grads(tl.load(p_s), tl.load(p_q), tl.load(p_k), p_dq, p_dk, True)
""",
        """
@triton.jit
def grads(ds, q, k, p_dq, p_dk, COMPUTE_DQ: tl.constexpr = True):
    if COMPUTE_DQ:
        tl.store(p_dq, tl.dot(ds, k))
    tl.store(p_dk, tl.dot(tl.trans(ds), q))  # expect


@triton.jit
def dk_only(p_s, p_q, p_k, p_dq, p_dk):
    grads(tl.load(p_s), tl.load(p_q), tl.load(p_k), p_dq, p_dk, COMPUTE_DQ=False)
    grads(tl.load(p_s), tl.load(p_q), tl.load(p_k), p_dq, p_dk)
""",
        # a kernel's own constexpr (another module may launch it with True), or the function
        # passed around: its specialisations are not all known here
        """
@triton.jit
def grads(ds, q, k, p_dq, p_dk, COMPUTE_DQ: tl.constexpr = True):
    if COMPUTE_DQ:
        tl.store(p_dq, tl.dot(ds, k))
    tl.store(p_dk, tl.dot(tl.trans(ds), q))  # expect


@triton.jit
def step(p_s, p_q, p_k, p_dq, p_dk, DQ: tl.constexpr):
    grads(tl.load(p_s), tl.load(p_q), tl.load(p_k), p_dq, p_dk, COMPUTE_DQ=DQ)


def launch(s, q, k, dq, dk):
    step[(1,)](s, q, k, dq, dk, DQ=False)
""",
        """
@triton.jit
def grads(ds, q, k, p_dq, p_dk, COMPUTE_DQ: tl.constexpr = True):
    if COMPUTE_DQ:
        tl.store(p_dq, tl.dot(ds, k))
    tl.store(p_dk, tl.dot(tl.trans(ds), q))  # expect


@triton.jit
def dk_only(p_s, p_q, p_k, p_dq, p_dk):
    grads(tl.load(p_s), tl.load(p_q), tl.load(p_k), p_dq, p_dk, COMPUTE_DQ=False)


GRADS = grads
""",
        # a copy the helper makes only under a flag no call sets (a constexpr the body binds, a
        # literal at the one call) is not made: the dot clobbers the caller's tile
        """
@triton.jit
def scores(q, k, acc, PRESCALE: tl.constexpr):
    SCALE_K: tl.constexpr = False
    if PRESCALE:
        q = (q * 0.125).to(tl.float16)
    if SCALE_K:
        k = k * 0.5
    return acc + tl.dot(q, k)

@triton.jit
def kern(p_q, p_k, p_o):
    q = tl.load(p_q)
    acc = scores(q, tl.load(p_k), tl.zeros([64, 64], dtype=tl.float32), False)
    tl.store(p_o, acc + q)  # expect
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        flow = kernel.flow
        outcomes = context.compiled_outcomes(kernel)
        engine = _Dots(context)
        dots = engine.of(kernel)
        copies = _CopyPlanner(kernel, context, dots)
        clobbered: dict[int, tuple[Event, list[tuple[_Dot, FixPlan | Declined | None, list[Assumptions]]]]] = {}
        for dot in dots:
            event, tile = dot.event, dot.tile
            where, carriers = _clobbered_reads(dot, flow, outcomes)
            reads = [where[index][0] for index in sorted(where)]
            fix = copies.plan(dot, reads) if reads else None
            if isinstance(fix, FixPlan):
                fix = _kept_by_helper_fixes(dot, kernel, context, engine, frozenset()) or fix
            # a tile `:=` binds in the dot is new on every trip: a read before the dot reads the
            # previous trip's clobbered tile, a read after the dot like any other
            fresh = _bound_in_dot(dot, flow)
            carried = [read for read in reads if read.index < event.index and not fresh]
            carrying = list({carriers[read.index].index: carriers[read.index] for read in carried}.values())
            for read, outcome_sets in where.values():
                if read.index > event.index or fresh:
                    clobbered.setdefault(read.index, (read, []))[1].append((dot, fix, outcome_sets))
            for read in flow.reads_consumed_after(event, tile.value):  # `x + tl.dot(x, y)`: no copy to take
                if flow.compiled_under(read, dot.assumed):
                    same_statement = Declined(
                        f"`{tile.value}` is read in the dot's own statement, which the copy rewrite does not"
                        f" split: copy it on the line before and read the copy there"
                    )
                    clobbered.setdefault(read.index, (read, []))[1].append((dot, same_statement, [dot.assumed]))
            if carried:
                yield Report(
                    event.node,
                    _loop_carried_message(dot, carrying, _shown(flow, dot, *where[carried[0].index])),
                    related=tuple(_loop_carried_reads(tile, carrying)),
                    fix=fix,
                    facts={"tile": tile.value, "loop_carried": True},
                )
        # one finding per read, naming the first dot that clobbered the tile
        for index in sorted(clobbered):
            read, clobbers = clobbered[index]
            (first, _, outcome_sets), *others = clobbers
            tile_name = first.tile.value
            fix = _protecting(read, [fix for _, fix, _ in clobbers])
            yield Report(
                read.node,
                _read_message(
                    read,
                    first,
                    _shown(flow, first, read, outcome_sets),
                    read.index < first.event.index and _bound_in_dot(first, flow),
                ),
                related=(
                    (first.event.node, f"{first.label} that may clobber `{tile_name}`"),
                    *(
                        (other.event.node, f"another {other.label} that may clobber `{other.tile.value}`")
                        for other, _, _ in others
                    ),
                ),
                fix=fix,
                facts={"tile": tile_name, "loop_carried": False},
            )


def _clobbered_reads(
    dot: _Dot, flow: Flow, outcomes: list[Assumptions]
) -> tuple[dict[int, tuple[Event, list[Assumptions]]], dict[int, Event]]:
    """Each read of the tile the dot clobbers (`Flow.tile_reads_after`), by index, with every set
    of outcomes under which the dot clobbers what it reads, and the name carrying the tile into
    the next trip to it."""
    where: dict[int, tuple[Event, list[Assumptions]]] = {}
    carriers: dict[int, Event] = {}
    for read, assumed, carrier in flow.tile_reads_after(dot.event, dot.tile.value, dot.assumed):
        if dot.runs_with(read, flow, outcomes, assumed):
            known = where.setdefault(read.index, (read, []))[1]
            carriers.setdefault(read.index, carrier)
            if assumed not in known:
                known.append(assumed)
    return where, carriers


def _kept_by_helper_fixes(
    dot: _Dot, kernel: Kernel, context: ModuleContext, engine: _Dots, seen: frozenset[Kernel]
) -> Declined | None:
    """For a dot run through a device function of the module: a reason to take no copy here
    when the fixes of the function's own findings already let each of its dots clobbering the
    parameter consume a copy (a dot in its own loop), so the argument is left intact and a copy
    here would be a second one. None when some such dot keeps clobbering the parameter, also
    because the engine drops its fix: a `# noqa` suppressing ASC003 on its finding's row or on
    a row the fix edits (`spared`)."""
    helpers = kernel.device_functions_called(dot.event.call)
    if dot.param is None or not helpers or any(h not in kernel.module_kernels or h in seen for h in helpers):
        return None
    for helper in helpers:
        inner = engine.clobbers(helper, context.call_outcomes(helper, dot.event.call)).get(dot.param, [])
        if not inner:
            return None
        flow, outcomes = helper.flow, context.compiled_outcomes(helper)
        planner = _CopyPlanner(helper, context, engine.of(helper))
        for clobber in inner:
            where, _ = _clobbered_reads(clobber, flow, outcomes)
            plan = planner.plan(clobber, [where[index][0] for index in sorted(where)]) if where else None
            consumed = (
                isinstance(plan, FixPlan)
                and not spared(plan, clobber.event.node, context, helper.node, DotLhsReuse.CODE)
                and any(
                    isinstance(change, Replace) and change.node in (clobber.names or (clobber.tile,))
                    for change in plan.changes
                )
            )
            if not consumed and _kept_by_helper_fixes(clobber, helper, context, engine, seen | {kernel}) is None:
                return None
    return Declined(
        f"the fix of `{dot.helper}` lets its dot consume a copy of `{dot.param[1]}`, which leaves `{dot.tile.value}`"
        " intact: that fix is the one copy this call needs"
    )


def _bound_in_dot(dot: _Dot, flow: Flow) -> bool:
    """The dot's left operand binds its tile by `:=` (`tl.dot((b := tl.load(p)), w)`)."""
    named = flow.parents.get(dot.tile)
    return isinstance(named, cst.NamedExpr) and named.target is dot.tile


def _shown(flow: Flow, dot: _Dot, read: Event, assumed: list[Assumptions]) -> list[Assumptions]:
    """The sets of outcomes under which the dot clobbers the tile `read` reads that a message
    names: those the `if` arms and choices around the read and the dot do not already state;
    none when one set is all stated (the read is clobbered wherever it is compiled)."""
    decided = flow.decided_arms(read) | flow.decided_arms(dot.event)
    shown = [each - decided for each in assumed]
    return [] if not all(shown) else shown


def _where(assumed: list[Assumptions]) -> str:
    """The specialisations a choice of tile holds in: `` where `TRANSPOSED` is false``, each
    set of outcomes joined by `or`."""
    if not assumed:
        return ""
    sets = [
        " and ".join(f"`{key}` is {'true' if holds else 'false'}" for key, holds in sorted(each)) for each in assumed
    ]
    return " where " + ", or ".join(sorted(sets))


def _read_message(read: Event, dot: _Dot, assumed: list[Assumptions], previous_trip: bool) -> str:
    """The message of a read of the clobbered tile; `assumed`: the constexpr test outcomes under
    which the dot's left operand is that tile (a choice of tile), named in the message;
    `previous_trip`: the read comes before the dot in its loop (a tile `:=` binds in the dot)."""
    tile, where = dot.tile.value, _where(assumed)
    trip = " on the loop's previous trip" if previous_trip else ""
    clobber = f"the left operand of {dot.label} (line {{related_line}}){trip}{where}, which may overwrite it on Ascend"
    if read.name == tile:
        return f"`{tile}` is read after it was {clobber}"
    return f"`{read.name}` is read after `{tile}`, the same tile (an alias, not a copy), was {clobber}"


def _loop_carried_message(dot: _Dot, carried: list[Event], assumed: list[Assumptions]) -> str:
    tile, where = dot.tile.value, _where(assumed)
    if any(read.name == tile for read in carried):
        return (
            f"`{tile}` is the left operand of this {dot.label} in a loop{where} but defined before it: "
            "the next trip reads the tile this dot may have clobbered on Ascend"
        )
    aliases = ", ".join(dict.fromkeys(f"`{read.name}`" for read in carried))
    return (
        f"`{tile}` is the left operand of this {dot.label} in a loop{where} and its alias {aliases} (not a copy) "
        "is read on the next trip: it reads the tile this dot may have clobbered on Ascend"
    )


def _loop_carried_reads(tile: cst.Name, carried: list[Event]) -> Iterator[tuple[cst.CSTNode, str]]:
    """The related locations of a loop-carried clobber: the tile, and each alias read."""
    if any(read.name == tile.value for read in carried):
        yield tile, f"`{tile.value}` read here on every trip"
    for read in carried:
        if read.name != tile.value:
            yield read.node, f"`{read.name}`, an alias of `{tile.value}`, read here on the next trip"


def _protecting(read: Event, fixes: list[FixPlan | Declined | None]) -> FixPlan | Declined | None:
    """The fix that keeps a read from every dot clobbering it: the first dot's plan, with the
    next dots' plans added while the plans so far only let their dots consume copies (the tile
    itself is still clobbered by a later dot) and none rewrites the read."""
    plans: list[FixPlan] = []
    for fix in fixes:
        if not isinstance(fix, FixPlan):
            return fix
        plans.append(fix)
        if any(_reads_copy(change, read) for change in fix.changes):
            break
    if len(plans) == 1:
        return plans[0]
    message = "; ".join(dict.fromkeys(plan.message for plan in plans))
    return FixPlan("unsafe", message, tuple(change for plan in plans for change in plan.changes))


def _reads_copy(change: InsertBefore | Replace | Delete, read: Event) -> bool:
    if not isinstance(change, Replace):
        return False
    node = change.node
    return node is read.node or (isinstance(node, cst.AugAssign) and node.target is read.node)


@dataclass(frozen=True)
class _Dot:
    """A call running a `tl.dot` whose left operand is `tile`: the dot itself, or a call of a
    device function (`helper`, of the module or imported) whose dot takes the argument passed for one of
    its parameters (Triton inlines the function, so the caller's tile is clobbered)."""

    event: Event
    tile: cst.Name
    helper: str | None = None
    # where the left operand is `tile`: the constexpr test outcomes a choice of tiles written
    # in the dot's argument assumes (`tl.dot(b_at if TRANSPOSED else b_a, ...)`), else none
    assumed: Assumptions = NOTHING
    # the names in the left operand that are `tile`: both arms of `p.to(a) if FP8 else p.to(b)`
    names: tuple[cst.Name, ...] = ()
    # the device function's parameter (position, name) the tile is passed for
    param: tuple[int, str] | None = None

    @property
    def label(self) -> str:
        return "`tl.dot`" if self.helper is None else f"`tl.dot` through `{self.helper}`"

    def runs_with(self, read: Event, flow: Flow, outcomes: list[Assumptions], assumed: Assumptions) -> bool:
        """Whether the dot runs in a constexpr specialisation where `read` does and reads the
        tile it clobbers (`assumed`: where it does): one of `outcomes`
        (`ModuleContext.compiled_outcomes`) agreeing with `assumed` compiles both, and the
        dot's result is read there (`tl.dot` is pure, so the compiler drops a dot whose result
        nothing reads). A device function's dot (the function may use the result itself) and
        one accumulating into `acc` are taken to run."""
        if not any(
            flow.implications.consistent(o, assumed)
            and flow.compiled_under(self.event, o | assumed)
            and flow.compiled_under(read, o | assumed)
            for o in outcomes
        ):
            return False
        call = self.event.call
        if self.helper is not None or call_argument(call, 2, "acc") is not None:
            return True
        return flow.value_is_read(call, alongside=read)


class _Dots:
    """The dots of the module's kernels, through the device functions they call."""

    def __init__(self, context: ModuleContext) -> None:
        self._context = context
        self._clobbered: dict[tuple[Kernel, tuple[Assumptions, ...]], dict[tuple[int, str], list[_Dot]]] = {}

    def of(self, kernel: Kernel) -> list[_Dot]:
        """The kernel's calls that run a `tl.dot` with a named left operand, in evaluation order,
        that some specialisation of it compiles."""
        dots: list[_Dot] = []
        flow, outcomes = kernel.flow, self._context.compiled_outcomes(kernel)
        for event in flow.calls:
            if not any(flow.compiled_under(event, o) for o in outcomes):
                continue
            call = event.call
            if kernel.imports.is_tl(call.func, "dot"):
                args = [a for a in call.args if a.keyword is None or a.keyword.value in ("input", "a")]
                if args:
                    dots.extend(self._operands(event, args[0].value, kernel, None))
                continue
            helper = dotted_name(call.func)
            for param in self._clobbered_params(call, kernel):
                argument = call_argument(call, *param)
                if argument is not None and helper is not None:
                    dots.extend(self._operands(event, argument, kernel, helper, param))
        return dots

    def _operands(
        self,
        event: Event,
        node: cst.BaseExpression,
        kernel: Kernel,
        helper: str | None,
        param: tuple[int, str] | None = None,
    ) -> list[_Dot]:
        """The dot `event` runs for each tile its left operand `node` is (`Flow.view_choices`:
        each arm of a choice of tiles, where it is chosen) in a specialisation of the kernel
        compiling that arm."""
        flow, outcomes = kernel.flow, self._context.compiled_outcomes(kernel)
        names = flow.view_names(node)  # both arms of a choice between views of one tile
        operands = []
        for tile, held in flow.view_choices(node):
            read = flow.read_events.get(tile)  # none for a name the module imports
            if any(
                flow.implications.consistent(o, held) and (read is None or flow.compiled_under(read, o | held))
                for o in outcomes
            ):
                operands.append(_Dot(event, tile, helper, held, tuple(names) if tile in names else (tile,), param))
        return operands

    def _clobbered_params(self, call: cst.Call, caller: Kernel) -> list[tuple[int, str]]:
        """The parameters (position, name) a dot clobbers in every device function `call` may
        run (Ascend runs one of them, which one is not known from this file), in the
        specialisations the call compiles (`ModuleContext.call_outcomes`)."""
        helpers = caller.device_functions_called(call)
        if not helpers:
            return []
        clobbered = (set(self.clobbers(helper, self._context.call_outcomes(helper, call))) for helper in helpers)
        return sorted(set.intersection(*clobbered))

    def clobbers(self, helper: Kernel, outcomes: list[Assumptions]) -> dict[tuple[int, str], list[_Dot]]:
        """The helper's parameters (position, name) that are, unchanged or through a view bound
        to a name (`a2 = a.to(t)`), the left operand of one of its dots (directly or through a
        device function it calls in turn) in one of the specialisations `outcomes` fix (those a
        call compiles, `ModuleContext.call_outcomes`), each with those dots: a copy made only
        under `if PRESCALE:` is no copy where `PRESCALE` is false."""
        key = (helper, tuple(outcomes))
        if key not in self._clobbered:
            self._clobbered[key] = {}  # while computing: a recursive call clobbers nothing
            positions: dict[cst.CSTNode, tuple[int, str]] = {
                param.node: (index, param.name) for index, param in enumerate(helper.params)
            }
            flow = helper.flow
            clobbered: dict[tuple[int, str], list[_Dot]] = {}
            for dot in self.of(helper):
                origins = flow.value_origins(dot.tile)
                for outcome in outcomes:
                    if not flow.implications.consistent(outcome, dot.assumed) or not flow.compiled_under(
                        dot.event, outcome
                    ):
                        continue
                    # each specialisation an origin is chosen in (`b = x if T else y`: `x` where `T` holds)
                    for where in dict.fromkeys(outcome | dot.assumed | held for _, held in origins):
                        compiled = [
                            origin
                            for origin, held in origins
                            if flow.implications.consistent(held, where)
                            and flow.implications.consistent(where, where)
                            and flow.compiled_under(origin, where)
                        ]
                        if len(compiled) == 1 and compiled[0].node in positions:
                            known = clobbered.setdefault(positions[compiled[0].node], [])
                            if dot not in known:
                                known.append(dot)
            self._clobbered[key] = dict(sorted(clobbered.items()))
        return self._clobbered[key]


class _CopyPlanner:
    """Plans the pristine-copy fix for the clobbering dots of one kernel.

    Preferred form: copies of the tile taken right before the statement holding the first
    left-operand dot, the later reads rewritten to them; a later read that is itself the left
    operand of a dot followed by more reads ends one copy's use, the reads after it get the
    next copy. That needs every later read to run after that statement in the same block and
    to see the same definition of the tile. Otherwise (and for loop-carried clobbers) the copy
    is taken right before the dot's statement and the dot consumes it, so the tile itself is
    never clobbered.
    """

    def __init__(self, kernel: Kernel, context: ModuleContext, dots: list[_Dot]):
        self.kernel, self.flow, self.context, self.dots = kernel, kernel.flow, context, dots

    @cached_property
    def paths(self) -> dict[cst.CSTNode, tuple[tuple[cst.CSTNode, int], ...]]:
        return _statement_paths(self.kernel.node)

    @cached_property
    def dot_of_lhs(self) -> dict[cst.CSTNode, Event]:
        """The dot each named left operand belongs to."""
        return {name: dot.event for dot in self.dots for name in dot.names or (dot.tile,)}

    def plan(self, clobber: _Dot, reads: list[Event]) -> FixPlan | Declined:
        dot, tile = clobber.event, clobber.tile
        statement = dot.statement
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            return Declined("the dot is not in a plain one-statement line, so there is no place for the copy")
        named = self.flow.parents.get(tile)
        if isinstance(named, cst.NamedExpr) and named.target is tile:  # `tl.dot((b_a := tl.load(p)), b)`
            return Declined(
                f"`{tile.value}` is bound by `:=` in the dot's own statement, so no line before it holds the tile"
                " to copy: bind it on a line of its own"
            )
        lhs_read = next(e for e in reversed(self.flow.events[: dot.index]) if e.node is tile)
        definitions = self.flow.reaching_defs(lhs_read, tile.value)
        if not definitions:  # a global, which Triton reads as a constexpr: `.to` of it is ASC002's
            return Declined(f"no assignment of the kernel reaches `{tile.value}`: it is no tile the kernel computes")
        if any(self.flow.is_python_constexpr(tile, assumed) for _, assumed in self.flow.variants(tile)):
            return Declined(f"`{tile.value}` may be a constexpr here (a call passes one): it is no tile to copy")
        if any(definition.statement is statement for definition in definitions):
            return Declined(
                f"`{tile.value}` is bound by `:=` in the dot's own statement, so a copy on the line before"
                " would copy an older value"
            )
        dtypes = {self._stated_dtype(definition) for definition in definitions}
        if dtypes & _WIDE_INTS:
            return Declined(
                "the tile holds 32- or 64-bit integers: no copy of it is both exact and kept by the compiler"
            )
        copy_of = _float_copy if dtypes and dtypes <= _FLOATS else _dtype_keeping_copy
        groups = self._read_groups(lhs_read, dot, tile, statement, reads)
        rewritten = (clobber.names or (tile,)) if groups is None else [read.node for group in groups for read in group]
        bound = next(filter(None, (_binding_around(node, self.flow) for node in rewritten)), None)
        if bound is not None:
            return Declined(
                f"a read the copy would replace is in the value `:=` binds to `{bound.value}`:"
                f" the rewrite would change what `{bound.value}` holds; copy `{tile.value}` by hand"
            )
        if groups is None:
            copy = self.context.fresh_names.fresh(f"{tile.value}_c")
            changes: tuple[InsertBefore | Replace, ...] = (
                InsertBefore(statement, copy_of(copy, tile.value)),
                *(Replace(name, copy) for name in clobber.names or (tile,)),
            )
            return FixPlan("unsafe", f"Let the dot consume a pristine copy of `{tile.value}`", changes)
        copies: list[InsertBefore | Replace] = []
        for group in groups:
            copy = self.context.fresh_names.fresh(f"{tile.value}_c")
            copies.append(InsertBefore(statement, copy_of(copy, tile.value)))
            copies.extend(_read_copy(read, tile.value, copy) for read in group)
        return FixPlan("unsafe", f"Copy `{tile.value}` before the dot and read the copy afterwards", tuple(copies))

    def _stated_dtype(self, definition: Event) -> str | None:
        """The dtype a definition of the tile states (`x.to(tl.float16)`, `tl.cast(x, tl.int8)`,
        `tl.zeros(shape, tl.float32)`, `tl.full(shape, v, tl.float32)`; `tl.arange` is int32),
        else None (a load's element type is the pointer's, which the kernel does not state)."""
        value, imports = definition.value, self.kernel.imports
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        if imports.is_tl(func, "arange"):
            return "int32"
        cast = self.flow.cast_parts(value)
        if cast is not None:
            dtype: cst.BaseExpression | None = cast[1]
        else:
            position = {"zeros": 1, "full": 2}.get(imports.language_name(func) or "")
            dtype = call_argument(value, position, "dtype") if position is not None else None
        return imports.language_name(dtype) if dtype is not None else None

    def _read_groups(
        self, lhs_read: Event, dot: Event, tile: cst.Name, statement: cst.BaseStatement, reads: list[Event]
    ) -> list[list[Event]] | None:
        """The later reads split by the copy each uses, or None when copies cannot serve them."""
        defs = _indices(self.flow.reaching_defs(lhs_read, tile.value))
        groups: list[list[Event]] = [[]]
        split_after = None
        for read in reads:
            if read.name != tile.value or read.index < dot.index or read.statement is None:
                return None  # an alias stays intact only when the dot consumes the copy
            if not self._runs_after(statement, read.statement):
                return None
            if _indices(self.flow.reaching_defs(read, tile.value)) != defs:
                return None
            if split_after is not None and read.index > split_after:
                groups.append([])
                split_after = None
            groups[-1].append(read)
            later_dot = self.dot_of_lhs.get(read.node)
            if later_dot is not None:
                after = self.flow.reads_after(later_dot, tile.value)
                if any(r.index < later_dot.index for r in after):
                    return None
                if after:
                    split_after = min(later_dot.index, split_after or later_dot.index)
        return groups

    def _runs_after(self, statement: cst.CSTNode, other: cst.CSTNode) -> bool:
        """Whether `other` is `statement` or a statement after it in the same block, or inside
        one (so every path to `other` passes `statement`)."""
        here, there = self.paths[statement], self.paths[other]
        depth = len(here) - 1
        if len(there) <= depth or there[:depth] != here[:depth]:
            return False
        (block, index), (other_block, other_index) = here[depth], there[depth]
        return other_block is block and other_index >= index


def _binding_around(node: cst.CSTNode, flow: Flow) -> cst.Name | None:
    """The name an assignment expression holding `node` binds (`b_t` of `(b_t := tl.trans(b))` for `b`), if any."""
    parent = flow.parents.get(node)
    while isinstance(parent, cst.BaseExpression | cst.Arg | cst.Element | cst.BaseSlice | cst.SubscriptElement):
        if isinstance(parent, cst.NamedExpr) and isinstance(parent.target, cst.Name):
            return parent.target
        parent = flow.parents.get(parent)
    return None


def _read_copy(read: Event, tile: str, copy: str) -> Replace:
    """Read `copy` instead of the tile; `b *= s` becomes `b = copy * s`."""
    statement = read.statement  # an `if` or `elif` for a read in its test
    for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
        if isinstance(small, cst.AugAssign) and small.target is read.node:
            return Replace(small, spelled_out(small, tile, copy))
    return Replace(read.node, copy)


def _statement_paths(kernel: cst.FunctionDef) -> dict[cst.CSTNode, tuple[tuple[cst.CSTNode, int], ...]]:
    """Where each statement of the kernel sits: ((block, index), ...) from the kernel down; an
    `elif` is index 0 of a block of its own. Reads statement fields only, never expressions."""
    paths: dict[cst.CSTNode, tuple[tuple[cst.CSTNode, int], ...]] = {kernel: ((kernel, 0),)}
    pending: list[cst.CSTNode] = [kernel]
    while pending:
        statement = pending.pop()
        path = paths[statement]
        for block in _suites(statement):
            for index, child in enumerate(suite_lines(block)):
                paths[child] = (*path, (block, index))
                pending.append(child)
        orelse = getattr(statement, "orelse", None)
        if isinstance(orelse, cst.If):
            paths[orelse] = (*path, (orelse, 0))
            pending.append(orelse)
    return paths


def _suites(statement: cst.CSTNode) -> list[cst.BaseSuite]:
    """The suites directly inside a compound statement (body, else, handlers, finally, cases)."""
    parts = [getattr(statement, "body", None)]
    for name in ("orelse", "finalbody"):
        part = getattr(statement, name, None)
        if part is not None and not isinstance(part, cst.If):
            parts.append(part.body)
    parts.extend(clause.body for clause in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())))
    return [part for part in parts if isinstance(part, cst.BaseSuite)]


_FLOATS = frozenset({"float16", "bfloat16", "float32", "float64"})
_WIDE_INTS = frozenset({"int32", "int64", "uint32", "uint64"})


def _float_copy(copy: str, tile: str) -> str:
    """A copy of a float tile: `+ 0.0` keeps its dtype (a Python float does not promote a float
    tile) and the compiler keeps the addition (it turns -0.0 into +0.0, so it is no identity)."""
    return f"{copy} = {tile} + 0.0"


def _dtype_keeping_copy(copy: str, tile: str) -> str:
    """A copy of a tile whose dtype the kernel does not state: `+ 0.0` alone makes an integer
    tile fp32 (Triton then rejects the dot, both operands must be the same dtype), and an
    integer identity (`+ 0`, `^ 0`, `* 1`) is folded away by the compiler's canonicalizer, so no
    copy is left. Through fp32 and back is exact for 8- and 16-bit integers; on a float tile the
    cast is a no-op and this is the `+ 0.0` copy."""
    return f"{copy} = ({tile} + 0.0).to({tile}.dtype)"


def _indices(events: list[Event]) -> set[int]:
    return {event.index for event in events}
