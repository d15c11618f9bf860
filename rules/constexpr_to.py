"""
## What it does
Flags `.to(...)` calls in a kernel whose receiver is

1. a constexpr value (a `tl.constexpr` parameter, a literal, an expression of those) or an
   integer Triton-Ascend may specialise into one (an unannotated scalar parameter not listed
   in `do_not_specialize`) — *constexpr has no `.to`*; or
2. integer arithmetic that multiplies a runtime int32 index and casts to int64 (or uint64)
   afterwards, `(i_b * T).to(tl.int64)` — *the multiply wraps in int32 first*; also
   `(B * T).to(tl.int64)` over unannotated sizes (int32 when not 1).

Not flagged: a name assigned in the kernel body (`c = BT * 2; c.to(...)`), a scalar the host
passes as a float, a multiply with an operand already int64, a cast to a pointer type, and a
program id by itself.

## Why is this bad?
1. On a constexpr, `x.to(tl.int64)` fails to compile:
   `AttributeError: 'constexpr' object has no attribute 'to'`. An unannotated int argument
   is specialised into a constexpr when its value is 1 (measured on triton-ascend 3.2), so
   `B.to(tl.int64)` compiles for B=3 and fails for B=1: the kernel breaks only for some
   shapes. Listing the parameter in `do_not_specialize` (or using `tl.cast`) avoids it.
2. `(i_b * T).to(tl.int64)` multiplies in int32 and widens afterwards: packed offsets wrap
   silently, e.g. `offset * D` with `D = 4096` wraps past `T ≈ 524K`;
   `(NT - 1) * DH_CS` wraps at `T > 131K` for `HV = 64, K = V = 128, BT = 64`. This holds
   even when `T` is in `do_not_specialize`.

## Example
```python
bos = (i_b * T).to(tl.int64)
n = B.to(tl.int64)
```

## Use instead
```python
bos = tl.cast(i_b, tl.int64) * T
n = tl.cast(B, tl.int64)
```
`tl.cast` works on constexprs and tensors alike; cast the index operand before the
arithmetic. `.to()` on loaded values (`tl.load(cu_seqlens + i_n).to(tl.int64)`), on
`(eos - bos)`, on float tiles, on `tl.range` indices and to pointer types is fine.

## Fix safety
Safe. `x.to(tl.int64)` becomes `tl.cast(x, tl.int64)` (same value, also valid on a
constexpr). For a cast after arithmetic, every index term (program ids, loop indices and
names derived from them) inside the expression is cast first —
`(i_b * T + i_t).to(tl.int64)` becomes `tl.cast(i_b, tl.int64) * T + tl.cast(i_t, tl.int64)` —
so each product is computed in int64 (in uint64 for a `.to(tl.uint64)`, the cast's own
dtype); the result has the same value whenever the int32
computation did not overflow, and the right value when it did. The rewritten sum stays one
operand (parenthesized where the cast was an operand, `(...).to(tl.int64) * K`), keeps the
parentheses that hold its lines when written over several, and keeps the outer cast when its
value may be fractional (a `/`, a float literal, a parameter a launch passes a float, a call
other than `tl.arange` / `tl.program_id` / `tl.cdiv`): there the cast truncates to an int. A
parameter nothing shows to be a float is taken for an int, as the finding takes it. A
receiver choosing between values on a constexpr test (`(tl.load(cu + i_b) if IS_VARLEN else i_b
* T).to(tl.int64)`) has each arm's index terms cast and keeps the outer cast, which widens an
arm with no index (a load, a literal); an index term in an arm chosen at run time gets no fix
(Triton needs both arms of an `scf.if` of one type). No fix either when the rewrite would leave
an int32 multiply (see Details), nor a receiver holding an assignment
expression (`(r := i_b * T).to(tl.int64)`: casting inside it would make `r` int64 too), nor a
`.to(` whose parentheses hold a comment (`B.to(  # batch count` over several lines): the
rewrite keeps the comments of the receiver only.

## Details
### The two forms
Flags `.to(...)` calls in a kernel whose receiver is

1. a constexpr value (a `tl.constexpr` parameter, a literal, a `tl.static_range` index, a
   name declared `x: tl.constexpr = ...`, an expression of those) or an integer
   Triton-Ascend may specialise into one (an unannotated scalar parameter not listed in
   `do_not_specialize`, written out or as a module-level list `do_not_specialize=_SIZES`)
   — *constexpr has no `.to`*; or
2. integer arithmetic that multiplies a runtime int32 index (program id, loop index, a
   `do_not_specialize`, typed or unannotated size, a value picked at run time) and casts to
   int64 afterwards (a shift left, `(pid << LOG).to(tl.int64)`, multiplies as ASC008 reads it), e.g. `(i_b * T).to(tl.int64)`, `((NT - 1) * DH_CS).to(tl.int64)`, or the
   offset tile `(pid * BLOCK + tl.arange(0, BLOCK)).to(tl.int64)` — *the multiply wraps in
   int32 first* (the TTIR multiplies `pid * BLOCK` in i32, splats it and extends the tile:
   offsets wrap once `pid * BLOCK` passes 2^31, on tensors over 2G elements). The index of
   a 1-D core-grid task loop (`for task in range(tl.program_id(0), n_tasks, CORES)`) is a
   flattened program id, so `task * BLOCK + tl.arange(0, BLOCK)` is such a tile too. A tile
   whose multiply is a loop index's block (`(i_d * BD + tl.arange(0, BD)).to(tl.int64)` in
   `for i_d in range(tl.cdiv(D, BD))`) stays within one dimension and is not flagged.
   The multiply's own operands decide, not what else the receiver holds: in
   `(pid * T + tl.load(idx)).to(tl.int64)` or `(i_b * T + i_c * BT).to(tl.int64)` with `i_c`
   loaded from `chunk_indices`, `pid * T` / `i_b * T` has wrapped before the load is added.
   A multiply with an operand read from memory or computed from a tile (`i_c * BT`,
   `tl.load(idx) * T`, `tl.load(idx) * pid`) is no index arithmetic and not flagged: a
   loaded value is data, not an index (ASC008 judges loaded sequence offsets), and
   `i_c * BT` is a chunk's start, below `T`; the fix casts only the index terms
   (`tl.cast(i_b, tl.int64) * T + i_c * BT`). `.to()` on a load itself is not flagged.

### What a constexpr value is
RULES.md's "constexpr value" is read as the front end reads it: a `tl.constexpr` parameter,
a literal, a `tl.static_range` index, a name declared `x: tl.constexpr = ...`, and
expressions of those written in the receiver. A name assigned in the kernel body is not one,
even when every value it is given is (`n = BT` under `if MODE == 0:`, `n = T` else, then
`n.to(tl.int64)`): measured on triton-ascend 3.2, such a name is a tensor to the front end
and `.to()` on it compiles, so it is not flagged.

### Values per specialisation; what Triton specialises
Values are taken where the `.to` stands, in each specialisation of the constexpr tests they
depend on: after `if IS_VARLEN: bos = tl.load(...) else: bos = i_n * T`, the non-varlen
`bos` is an int32 product, and the message says when (`wraps in int32 (when `IS_VARLEN` is
false)`). A conditional expression is split the same way, as the front end folds it:
`off = tl.load(cu_seqlens + i_b) if IS_VARLEN else (i_b * T * H + i_h) * K`, then
`off.to(tl.int64)` (or the choice written in the receiver), wraps when `IS_VARLEN` is false;
one whose test is runtime (`(... * K if i_n > 0 else 0).to(tl.int64)`) may be either arm.
Tests are compared through the names the body binds once to a test (`A: tl.constexpr = F`,
`B = A and X`): a cast under `if not A:` is compiled only with `F` false, so a product bound
under `if F:` (or `if B:`) does not reach it, and the "when" names a test that can hold there.
A test the module or the body fixes (`IS_VARLEN = tl.constexpr(True)` at module level,
`IS_VARLEN: tl.constexpr = True` in the body: `Flow.decided`) has one specialisation: the
definitions of the arm it rules out reach no read, so there `bos.to(tl.int64)` widens the
loaded offset only.
Measured on triton-ascend 3.2 (docs/specialisation.md): a name
assigned in the kernel body is a tensor to the front end, so `c = BT * 2; c.to(...)`
compiles and is not flagged; only int arguments equal to 1 are specialised, never floats, so
`.to()` on a scalar the host passes as a float (`eps=1e-6`, a `float` default,
`float(...)`, a caller's float; for a kernel its module never launches, at a launch another
module of the package makes) or that the kernel uses only in float arithmetic (beside a float
literal or a value cast to a float dtype, `b / softcap` after `b = tl.load(x).to(tl.float32)`,
or in a float math function such as `tl.exp`) is not
flagged, nor one whose own default in the kernel's signature is a float
(`def k(x, n, eps=1e-6)`) when a launch may leave it out (none shows, or one passes nothing
visible for it): when every launch passes the parameter the default never reaches the
kernel, and `k[grid](x, n, 1)` is flagged (the 1 is specialised); one piece of float
evidence is enough, as for the host's values, but for a launch passing the parameter the int
literal 1 (or a name that may hold it): that launch specialises it, whatever the default or
the other launches pass (`k[grid](x, n)` beside `k[grid](x, n, 1)` is flagged, and the
message names that launch); another int (`0`, `16`: divisibility by 16 makes no constexpr)
leaves the float evidence standing. Nor is one the kernel shows to be a tensor, unless a launch
passes it 1: a pointer, a `tl.dot` operand (also under `tl.trans`), a name whose `.dtype` or
`.shape` it reads (`(ds + 0.0).to(ds.dtype)`, the copy ASC003's fix makes). With no evidence either way the
message says the rule assumed an int (a parameter annotated `int` is one: specialised like an unannotated one,
measured).

### Operands that cannot wrap
An
operand already cast to int64 (`tl.program_id(0).to(tl.int64)`), a parameter annotated
`tl.int64` (an i64 argument) or the index of a `tl.range` loop it bounds (Triton widens the
index to its bounds' type) makes the multiply an int64 one, and a factor known to be 0 or 1
cannot wrap. Nor can a quotient times its divisor:
after `i_n, i_h = i_nh // H, i_nh % H`, `(i_n * H + i_h)` is `i_nh` again; nor a remainder,
which is below its divisor (`c = offs % stride; c.to(tl.int64)`), nor the divisor of a quotient,
which divides an index (`(pid // (NV * NT)).to(tl.int64)`: below the grid). A multiply written
in a remainder's dividend still wraps before the `%`: `(i_b * T % B).to(tl.int64)` is
flagged (the fix gives `tl.cast(i_b, tl.int64) * T % B`), while the offset tile `offs` above is
a name whose own multiply the remainder does not repeat.

### Where the multiply may be
The multiply may be made before the cast: in the definitions reaching a name the receiver
reads (`off = (i_b * T + i_t) * D` ... `off.to(tl.int64)`, per specialisation) or under
`tl.minimum` / `tl.maximum` / `tl.cdiv`, or in a value `tl.where` chooses
(`tl.where(pid * T < n, pid * T, 0).to(tl.int64)`; not its test alone), and under what keeps
its value: a broadcast (`offs[:, None].to(tl.int64)` of the offset tile `offs = pid * BT +
tl.arange(0, BT)`) or an int32 cast (`(i_b * T).to(tl.int32).to(tl.int64)`). Not when the cast's result is multiplied again
(`i_ti.to(tl.int64) * HV * K`, also shifted left: `i_ti.to(tl.int64) << 7`), also through a sum or difference, a broadcast or a name
assigned any of these (`(bt.to(tl.int64) * HW + p.to(tl.int64))[:, None] * C`;
`row = p.to(tl.int64) + base` then `row * C`; `row += base` and `row *= C`): that widens an
index before its stride, and the product it was made from earlier is a position bounded by a
dimension (`i_ti = i_t * BT`, `row_start = pid * row_chunk`, a tile
`p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)` within one image), not the element offset that
wraps.

### Pointer casts
A cast to a pointer type (`p.to(tl.pointer_type(tl.uint8))`, or
`addr.to(tl.int64).to(tl.pointer_type(...))` on the way there, also with offsets added after
it: `(src.to(tl.int64) + offs).to(tl.pointer_type(tl.uint8))`) is no *constexpr has no
`.to`*: its receiver is an address, a tensor argument (a pointer, never specialised) or an
int device address (never the 1 Triton specialises); measured on triton-ascend 3.2, both
compile. Nor is `.to()` on a parameter the kernel loads or stores through (a pointer), or one a
launch passes a torch tensor for (`torch.empty(...)`, `torch.randint(..., dtype=...)`,
`torch.empty_like(x)`): a pointer, also when the kernel hands its address to a device function
of another module.

### Device functions
A `@triton.jit` device function is inlined with its caller's values (Triton passes a
constexpr on as one), so its parameters are what the module's calls of it pass: `eps.to(...)`
in a helper its kernel passes an unannotated `eps` is flagged as in the kernel (not when the
kernel's `eps` is a float by the evidence above), `(i_b * T).to(tl.int64)` with `i_b` a
caller's program id is a cast after a multiply, `n.to(...)` with `n` a caller's constexpr
cannot compile (so with `n` left out of a call, `def _h(x, n=1)` called as `_h(x)`: Triton's
code generator binds the literal default, an int or a float alike, as a constexpr; a kernel's
float default is another matter, passed by the launch), and a dtype parameter every call passes `tl.int64` for (or a caller's
`INDEX_DTYPE: tl.constexpr = tl.int64`) is `tl.int64`; a parameter `.to(tl.int64)` a caller
passes an int32 product (`_tail(x, y, pid * T)`, or a name bound to one) is a cast after a
multiply too (reported once, at the cast, with the caller's multiply related; the fix is the
caller's). A device function called only from other modules (or through `*args`) takes any
runtime value and is not flagged on its parameters. Triton binds a device function's
parameters from the values its calls pass, whatever the annotation: `offs_m: tl.constexpr`
given a tile is that tile (`offs_m.to(tl.float32)` compiles).

A kernel's values are read through the device functions it calls, as Triton inlines them:
`i_v, i_n, i_h = _head(H)` returning `tl.program_id(1) // H` gives a program id to multiply,
and `_row_off(i_bh, T, H, K).to(tl.int64)`, `_row_off` returning `(i_b * T * H + i_h) * K`,
casts a product made in int32 (reported at the cast, the helper's multiply related; no fix:
the index must be cast in the helper).

### What the fix casts, and when it declines
A device function's call returning an index (`_batch(H)` returning
`tl.program_id(1) // H`) is an index term: `(_batch(H) * T).to(tl.int64)` becomes
`tl.cast(_batch(H), tl.int64) * T`. A runtime choice beside the index
(`i_b * T + (1 if i_t > 0 else 0)`) keeps the fix. No fix for a `.to()` with options beyond
the dtype (`bitcast=True`, `fp_downcast_rounding=`), a multiply made before the cast (the index
must be cast where it is made) or written in a call of the receiver (`tl.minimum(i_b * T,
B).to(tl.int64)`: the reason names the call), an int32 cast around the multiply in the
receiver (`(i_b * T).to(tl.int32).to(tl.int64)`: casting inside it would narrow the product
again; drop it by hand), a rewrite that would cast no operand of the int32 multiply the
finding names, or a term to cast that may hold a fraction (`/`): the fix never removes the
finding while the wrap stays. In a product of sizes only (`(B * T * H).to(tl.int64)`,
`((NT - 1) * DH).to(tl.int64)` with `NT = tl.cdiv(T, BT)`), each term read from a size is cast:
`tl.cast(B, tl.int64) * tl.cast(T, tl.int64) * H`, `(tl.cast(NT, tl.int64) - 1) * DH`, as for
sizes in `do_not_specialize`; reported as a wrap, not as *constexpr has no `.to`* (when every size is 1
the product is a constexpr, and the fix compiles then too). A product with a size a launch passes a float for, or the
kernel shows to be a tensor, is no int32 multiply. A term to cast that was itself made by a multiply (`x = i_b * T`
then `(x * K).to(tl.int64)` → `tl.cast(x, tl.int64) * K`) is cast as written: that product is a
position bounded by a dimension (see "Where the multiply may be"), the one after it the offset
that wraps.

### The dtype
The dtype may be a name: a module-level alias (`IDX = tl.int64`) or one the kernel binds as a
constexpr (`INDEX_DTYPE: tl.constexpr = tl.int64`, as inductor writes it).

### Program ids
Program ids are runtime values: measured on triton-ascend 3.2, `tl.program_id(0).to(...)`
and `i_t.to(...)` with `i_t = tl.program_id(0)` compile, also on a grid of one program (the
grid is not part of the compiled specialisation), so they are not flagged by themselves.

### Where the finding is
The finding spans the call; for a receiver written over several lines it starts at the `to` of
`).to(tl.int64)`, the line `# noqa` goes on. Triton 3.2 locates the cast (its `arith.extsi`,
which the compile replay looks for there) on the row of the call's last argument: that line,
or the dtype's own line (`.to(` with `tl.int64` on the next line).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ascend_lint.fixes import NO_LANGUAGE_NAME, Declined, FixPlan, Replace, fitted
from ascend_lint.flow import FOLDABLE, INDEX, MULTIPLYING, SPEC, Assumptions, Event, Flow, axes_view_of
from ascend_lint.host import HostIndex
from ascend_lint.imports import ImportMap
from ascend_lint.inline import Inlined
from ascend_lint.nodes import comments_in, one_line, walk
from ascend_lint.rule import Confirm, Evidence, Example, Kernel, ModuleContext, Report, Rule
from ascend_lint.scalars import float_evidence

ASSUMED_INT_MESSAGE = (
    "constexpr has no .to: `{receiver}` can be a constexpr on Ascend (Triton specialises an int argument equal "
    "to 1; the rule assumed {params} is an int); use `tl.cast({receiver}, ...)`"
)
PASSED_ONE_MESSAGE = (
    "constexpr has no .to: `{receiver}` can be a constexpr on Ascend ({passes}, and Triton specialises an int "
    "argument equal to 1); use `tl.cast({receiver}, ...)`"
)
ANNOTATED_INT_MESSAGE = (
    "constexpr has no .to: `{receiver}` can be a constexpr on Ascend (Triton specialises an int argument equal "
    "to 1, annotated `int` or not); use `tl.cast({receiver}, ...)`"
)
CONSTEXPR_MESSAGE = "constexpr has no .to: `{receiver}` can be a constexpr on Ascend; use `tl.cast({receiver}, ...)`"
MADE_ELSEWHERE = "the int32 multiply is not written in the cast's receiver (it is in a definition or a call it reads): cast its index there"
CHOSEN_AT_RUN_TIME = (
    "an index to cast is in an arm of a value chosen at run time (`a if test else b`): Triton needs "
    "both arms of one type, so cast each arm to the same dtype by hand"
)
BINDS_A_NAME = (
    "the receiver binds `{name}` (`{name} := ...`): casting its index terms would make `{name}` int64 too; "
    "cast the index by hand where `{name}` should stay int32, or bind it on a line of its own"
)
IN_A_CALL = (
    "the int32 multiply is an argument of `{call}` in the receiver, which the rewrite does not "
    "enter: cast its index there (`tl.cast(i, tl.int64) * ...`)"
)
NARROWED_AGAIN = (
    "the receiver casts the int32 multiply to `{dtype}` first (`{cast}`): cast its index first "
    "and drop that cast by hand, as casting the index inside it would narrow the product again"
)
NOT_WIDENED = (
    "casting the index terms written in the receiver would leave the int32 multiply uncast "
    "(no index to cast is written there): cast the index where it is multiplied"
)
DROPS_A_COMMENT = "the `.to(...)` call holds a comment outside its receiver, which the rewrite would drop"
FRACTIONAL_TERM = "an index term to cast may hold a fraction (a `/` makes it): casting it first would truncate it"
WRAP_MESSAGE = "cast after multiply wraps in int32{when}: cast the index first (`tl.cast(..., tl.int64) * ...`)"


class ConstexprTo(Rule):
    CODE = "ASC002"
    NAME = "constexpr-to"
    SUMMARY = "`.to()` on a constexpr or specialisable int (`'constexpr' object has no attribute 'to'`), or an int64 cast after an int32 multiply that already wrapped"
    FIX = "safe"
    CONFIRM = Confirm({"compile": Evidence.INDEX_CAST_IR}, "both failures are the compiler's")
    REQUIRES_TOKENS = (("to",),)

    VALID = (
        # the arm of a constexpr choice sees the `i` of its own specialisation: loaded there
        """
@triton.jit
def k(y, cu_seqlens, T, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_n = tl.program_id(0)
    if IS_VARLEN:
        i = tl.load(cu_seqlens + i_n)
    else:
        i = i_n
    start = (i * T).to(tl.int64) if IS_VARLEN else tl.cast(i, tl.int64) * T
    tl.store(y + start + tl.arange(0, BT), tl.zeros([BT], dtype=tl.float32))
""",
        # a product dividing an index is no offset (fla's `wall_attn` decode: below the grid)
        """
@triton.jit
def k(x, T, BT: tl.constexpr, BV: tl.constexpr, V: tl.constexpr):
    pid = tl.program_id(0)
    NV, NT = tl.cdiv(V, BV), tl.cdiv(T, BT)
    i_bh = (pid // (NV * NT)).to(tl.int64)
    tl.store(x + i_bh, 0.0)
""",
        # used only beside a float tile: a float (gemma's `softcap`)
        """
@triton.jit
def k(x, y, softcap, N: tl.constexpr):
    b = tl.load(x + tl.arange(0, N)).to(tl.float32)
    tl.store(y + tl.arange(0, N), softcap.to(tl.float32) * tl.sigmoid(b / softcap))
""",
        # a size times a scalar the launch passes a float: no int32 multiply
        """
@triton.jit
def k(x, scale, n, BLOCK: tl.constexpr):
    o = (scale * n).to(tl.int64)
    tl.store(x + o + tl.arange(0, BLOCK), 1.0)

def run(x):
    k[(1,)](x, 0.5, x.numel(), BLOCK=16)
""",
        # the kernel's own float default, which a launch leaving `eps` out passes: never specialised
        """
@triton.jit
def k(x, n, eps=1e-6, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + eps.to(tl.float32), mask=offs < n)

def run(x):
    k[(4,)](x, x.numel())
""",
        # a loaded value's product is no index arithmetic (a chunk's start, below T; ASC008
        # judges loaded sequence offsets)
        """
@triton.jit
def k(x, chunk_indices, BT: tl.constexpr):
    i_t = tl.program_id(0)
    i_c = tl.load(chunk_indices + i_t).to(tl.int32)
    o = (i_c * BT).to(tl.int64)
    tl.store(x + o, 0.0)
""",
        # a float in a dict of launch arguments, splatted by the helper the dict is passed to
        """
@triton.jit
def norm_kernel(x, eps, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n).to(tl.float32)
    tl.store(x + offs, b_x / (tl.sum(b_x * b_x) + eps.to(tl.float32)), mask=offs < n)

def _launch(n, common):
    norm_kernel[(triton.cdiv(n, 1024),)](**common)

def norm(x):
    n = x.numel()
    _launch(n, dict(x=x, eps=1e-6, n=n, BLOCK=1024))
""",
        # a float a caller puts in the dict it passes to the helper that splats it
        """
@triton.jit
def shift_kernel(x, n, offset, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_x = tl.load(x + offs, mask=offs < n)
    tl.store(x + offs, b_x + offset.to(tl.float32), mask=offs < n)

def _launch(x, n, common):
    shift_kernel[(triton.cdiv(n, 1024),)](x, n, **common)

def shift(x, offset=0.0):
    common = dict(offset=offset, BLOCK=1024)
    _launch(x, x.numel(), common)
""",
        # a remainder is below its divisor, whatever the multiply its dividend was made with
        """
@triton.jit
def keep_mask(lens, out, stride, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    c = offs % stride
    limit = tl.load(lens + offs // stride, mask=offs < n, other=0).to(tl.int64)
    tl.store(out + offs, (c.to(tl.int64) < limit).to(tl.int32), mask=offs < n)
""",
        """
@triton.jit
def k(x, cu_seqlens, T, i_b_runtime: tl.int32, BT: tl.constexpr):
    i_n = tl.program_id(0)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    eos = tl.load(cu_seqlens + i_n + 1).to(tl.int64)
    T_cur = (eos - bos).to(tl.int32)
    b_x = tl.load(x + tl.arange(0, BT)).to(tl.float32)
    off = tl.cast(i_n, tl.int64) * T
    y = i_b_runtime.to(tl.int64)
    i_t = tl.program_id(0)
    i_t64 = i_t.to(tl.int64)
    i_h64 = tl.program_id(1).to(tl.int64)
""",
        """
@triton.jit
def k(h, K: tl.constexpr, H: tl.constexpr):
    i_nh = tl.program_id(1)
    i_n, i_h = i_nh // H, i_nh % H
    h += (i_n * H + i_h).to(tl.int64) * K
    h += (H * (i_nh // H)).to(tl.int64) * K
""",
        """
@triton.jit
def k(x, y, T: tl.int64, BT: tl.constexpr):
    i_b = tl.program_id(0)
    bos = (i_b * T).to(tl.int64)
    tl.store(y + bos + tl.arange(0, BT), 1.0)
    for task_id in tl.range(i_b, T, 4):
        o_t = (task_id * BT).to(tl.int64)
""",
        """
@triton.jit
def k(x, y, BT: tl.constexpr, HV: tl.constexpr, K: tl.constexpr):
    i_t = tl.program_id(0)
    i_ti = i_t * BT
    p = x + i_ti.to(tl.int64) * HV * K
    row = i_ti.to(tl.int64)
    tl.store(y + row * K, tl.load(p))
    tl.store(y + (i_ti.to(tl.int64) << 7), tl.load(p))  # a shift left multiplies too
    col = i_ti.to(tl.int64)
    col <<= 7
    tl.store(y + col, tl.load(p))
""",
        """
@triton.jit(do_not_specialize=["B"])
def k(x, B, num_core: tl.int32, task_num: tl.int32):
    n = B.to(tl.int64)
    core_id = tl.program_id(0)
    for task_id in tl.range(core_id, task_num, num_core):
        t = task_id.to(tl.int64)
""",
        """
@triton.jit
def k(src, dst, address, n, BLOCK: tl.constexpr):
    s = src.to(tl.pointer_type(tl.uint8))
    d = address.to(tl.int64).to(tl.pointer_type(tl.uint8))
    e = tl.where(n > 4, src.to(tl.int64), address.to(tl.int64)).to(tl.pointer_type(tl.uint8))
    o = tl.arange(0, BLOCK)
    f = (dst.to(tl.int64) + o).to(tl.pointer_type(tl.uint8))
    tl.store(f, tl.load(e + o, mask=o < n), mask=o < n)
    tl.store(d + o, tl.load(s + o, mask=o < n) + tl.load(e + o, mask=o < n), mask=o < n)
    last = dst.to(tl.int64)
    tl.store(dst + o, last)
""",
        """
_SIZES = ["B", "T"]


@triton.jit(do_not_specialize=_SIZES + ["N"])
def k(x, B, T, N, BT: tl.constexpr):
    n = B.to(tl.int64) + T.to(tl.int64) + N.to(tl.int64)
    tl.store(x + n + tl.arange(0, BT), 0.0)
""",
        """
@triton.jit
def k(x, y, stride_m, BM: tl.constexpr, BD: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    rm = rows.to(tl.int64)
    o_d = tl.arange(0, BD)
    tl.store(y + rm[:, None] * stride_m + o_d[None, :], tl.load(x + rm[:, None] * stride_m + o_d[None, :]))

@triton.jit
def blocks(x, y, D, BD: tl.constexpr):
    for i_d in range(tl.cdiv(D, BD)):
        o_d = (i_d * BD + tl.arange(0, BD)).to(tl.int64)  # a loop index's block: within one dimension
        tl.store(y + o_d, tl.load(x + o_d, mask=o_d < D), mask=o_d < D)
""",
        """
@triton.jit
def k(x, y, HW, C, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_p, bt = tl.program_id(0), tl.program_id(1)
    p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)  # a position within one image
    c = tl.arange(0, BLOCK_C)
    off = (bt.to(tl.int64) * HW + p.to(tl.int64))[:, None] * C + c[None, :]
    row = p.to(tl.int64) + bt.to(tl.int64) * HW
    col = p.to(tl.int64)
    col -= 1
    col *= C
    tl.store(y + row * C + col, tl.load(x + off))
""",
        """
@triton.jit
def k(x, n, BLOCK: tl.constexpr, CORES: tl.constexpr):
    for task in range(tl.program_id(0), tl.cdiv(n, BLOCK), CORES):
        t = task.to(tl.int64)  # a bare task index: nothing multiplied before the cast
        offs = t * BLOCK + tl.arange(0, BLOCK)
        tl.store(x + offs, 0.0, mask=offs < n)
""",
        """
@triton.jit
def copy_rows(x, y, T, D: tl.constexpr):
    base = tl.program_id(0) * T.to(tl.int64)  # a device function: `T` is the int64 its caller passes
    tl.store(y + base + tl.arange(0, D), tl.load(x + base + tl.arange(0, D)))

@triton.jit
def copy_rows_twice(x, y, z, T: tl.int64, D: tl.constexpr):
    copy_rows(x, y, T, D)
    copy_rows(y, z, T, D)
""",
        """
@triton.jit
def shift(x, y, offset, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n) + offset.to(tl.float32), mask=offs < n)

def run(x, y, offset: float = 0.5):
    kernel = shift  # launched through a name bound only to the kernel: the launch passes a float
    kernel[(triton.cdiv(x.numel(), 1024),)](x, y, offset, x.numel(), BLOCK=1024)
""",
        """
@triton.jit
def shift(x, y, offset, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n) + offset.to(tl.float32), mask=offs < n)

def run(x, y, offset: float = 0.5):
    args = (x, y, offset, x.numel())  # splatted into the launch: its third item is a float
    shift[(triton.cdiv(x.numel(), 1024),)](*args, BLOCK=1024)
""",
        # a device function's parameter annotated `tl.constexpr` is what its calls pass: a tile
        # here (Triton binds a device function's parameters from the values, measured)
        """
@triton.jit
def _below(offs_m: tl.constexpr, N: tl.constexpr):
    return offs_m.to(tl.float32) < N

@triton.jit
def k(out, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, _below(offs, N).to(tl.float32))
""",
        # device functions read with what their calls pass: a float the kernel is launched with,
        # an index its caller already widened
        """
@triton.jit
def _scale(x, eps):
    return x / (tl.sum(x * x) + eps.to(tl.float32))

@triton.jit
def _offsets(i_b, T, BLOCK: tl.constexpr):
    return (i_b * T).to(tl.int64) + tl.arange(0, BLOCK)

@triton.jit
def norm(x, y, eps, T, BLOCK: tl.constexpr):
    i_b = tl.program_id(0).to(tl.int64)
    offs = _offsets(i_b, T, BLOCK)
    tl.store(y + offs, _scale(tl.load(x + offs), eps))

def run(x, y):
    norm[(x.shape[0],)](x, y, 1e-6, x.shape[1], BLOCK=1024)
""",
        # a row widened before its stride, through a choice and compiler hints (Triton's persistent
        # matmul): the int32 product is a row position, bounded by M
        """
@triton.jit
def _tile(tile_id, num_pid_n):
    return tile_id // num_pid_n, tile_id % num_pid_n

@triton.jit
def k(a_ptr, c_ptr, M, stride_am, BLOCK_M: tl.constexpr, NUM_SMS: tl.constexpr, A_LARGE: tl.constexpr):
    for tile_id in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M) * 4, NUM_SMS):
        pid_m, pid_n = _tile(tile_id, 4)
        offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        if A_LARGE:
            offs_am = offs_am.to(tl.int64)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_M), BLOCK_M)
        tl.store(c_ptr + offs_am, tl.load(a_ptr + offs_am * stride_am))
""",
        # a flag the body fixes: the index product is in the arm no specialisation compiles, so
        # it reaches no later read; the loaded offset widened is no index arithmetic
        """
@triton.jit
def k(o, cu_seqlens, T, D: tl.constexpr):
    IS_VARLEN: tl.constexpr = True
    i_n = tl.program_id(0)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n)
    else:
        bos = i_n * T
    tl.store(o + bos.to(tl.int64) + tl.arange(0, D), 1.0)
""",
        # the same flag fixed by the module
        """
IS_VARLEN = tl.constexpr(True)

@triton.jit
def k(o, cu_seqlens, T, D: tl.constexpr):
    i_n = tl.program_id(0)
    if not IS_VARLEN:
        bos = i_n * T
    else:
        bos = tl.load(cu_seqlens + i_n)
    tl.store(o + bos.to(tl.int64) + tl.arange(0, D), 1.0)
""",
    )
    INVALID = (
        # a loaded chunk index beside the batch offset (fla's `chunk_indices`): `i_b * T` has
        # wrapped whatever is added; `i_c * BT` (a loaded value's product, below T) is left as it is
        Example(
            """
@triton.jit
def k(x, chunk_indices, T, BT: tl.constexpr):
    i_t, i_b = tl.program_id(0), tl.program_id(1)
    i_c = tl.load(chunk_indices + i_t).to(tl.int32)
    o = (i_b * T + i_c * BT).to(tl.int64)  # expect
    tl.store(x + o, 0.0)
""",
            fixed="""
@triton.jit
def k(x, chunk_indices, T, BT: tl.constexpr):
    i_t, i_b = tl.program_id(0), tl.program_id(1)
    i_c = tl.load(chunk_indices + i_t).to(tl.int32)
    o = tl.cast(i_b, tl.int64) * T + i_c * BT
    tl.store(x + o, 0.0)
""",
        ),
        # a value `tl.where` chooses, as one `tl.minimum` keeps (no fix: the multiply is in the call)
        """
@triton.jit
def k(x, T, n):
    pid = tl.program_id(0)
    o = tl.where(pid * T < n, pid * T, 0).to(tl.int64)  # expect
    tl.store(x + o, 0.0)
""",
        # a broadcast and an int32 cast keep the product's wrapped value; a device function's
        # literal default, passed when a call leaves it out, is a constexpr
        """
@triton.jit
def _h(x, n=1):
    tl.store(x, n.to(tl.int64))  # expect


@triton.jit
def k(x, T, BT: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BT + tl.arange(0, BT)
    tl.store(x + offs[:, None].to(tl.int64), 0.0)  # expect
    tl.store(x + (pid * T).to(tl.int32).to(tl.int64), 0.0)  # expect
    _h(x)
""",
        # the offset tile broadcast in the receiver: its index is cast inside the broadcast
        Example(
            """
@triton.jit
def k(x, T, BT: tl.constexpr):
    pid = tl.program_id(0)
    o = (pid * T + tl.arange(0, BT))[:, None].to(tl.int64)  # expect
    tl.store(x + o, 0.0)
""",
            fixed="""
@triton.jit
def k(x, T, BT: tl.constexpr):
    pid = tl.program_id(0)
    o = (tl.cast(pid, tl.int64) * T + tl.arange(0, BT))[:, None]
    tl.store(x + o, 0.0)
""",
        ),
        # a remainder is below its divisor, but a multiply written in its dividend wraps first
        Example(
            """
@triton.jit
def k(x, T: tl.constexpr, B):
    i_b = tl.program_id(0)
    o = (i_b * T % B).to(tl.int64)  # expect
    tl.store(x + o, 0.0)
""",
            fixed="""
@triton.jit
def k(x, T: tl.constexpr, B):
    i_b = tl.program_id(0)
    o = tl.cast(i_b, tl.int64) * T % B
    tl.store(x + o, 0.0)
""",
        ),
        # a float default every launch overrides never reaches the kernel: the 1 passed is specialised
        """
@triton.jit
def k(x, n, eps=1e-6, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + eps.to(tl.float32), mask=offs < n)  # expect

def run(x):
    k[(4,)](x, x.numel(), 1)
""",
        # a launch passing the int 1 specialises it, though another leaves `eps` to its float default
        """
@triton.jit
def k(x, n, eps=1e-6, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + eps.to(tl.float32), mask=offs < n)  # expect

def run(x):
    k[(4,)](x, x.numel())
    k[(4,)](x, x.numel(), eps=1)
""",
        # a cast to uint64 comes as late as one to int64 (FlagOS's `(batch * TS + start).to(tl.uint64)`)
        Example(
            """
@triton.jit
def k(x, T, D: tl.constexpr):
    i_b = tl.program_id(0)
    b = tl.load(x + (i_b * T * D).to(tl.uint64))  # expect
""",
            fixed="""
@triton.jit
def k(x, T, D: tl.constexpr):
    i_b = tl.program_id(0)
    b = tl.load(x + tl.cast(i_b, tl.uint64) * T * D)
""",
        ),
        # the product made by the caller, cast in the device function
        """
@triton.jit
def _tail(x, y, prod):
    off = prod.to(tl.int64)  # expect
    tl.store(y + off, tl.load(x + off))


@triton.jit
def k(x, y, T):
    pid = tl.program_id(0)
    prod = pid * T
    _tail(x, y, prod)
    _tail(y, x, pid * T)
""",
        # the dtype a constant every call of the device function passes
        Example(
            """
@triton.jit
def _tail(x, y, T, IDX):
    pid = tl.program_id(0)
    off = (pid * T).to(IDX)  # expect
    tl.store(y + off, tl.load(x + off))


@triton.jit
def k(x, y, T):
    INDEX_DTYPE: tl.constexpr = tl.int64
    _tail(x, y, T, INDEX_DTYPE)
    _tail(y, x, T, tl.int64)
""",
            fixed="""
@triton.jit
def _tail(x, y, T, IDX):
    pid = tl.program_id(0)
    off = tl.cast(pid, IDX) * T
    tl.store(y + off, tl.load(x + off))


@triton.jit
def k(x, y, T):
    INDEX_DTYPE: tl.constexpr = tl.int64
    _tail(x, y, T, INDEX_DTYPE)
    _tail(y, x, T, tl.int64)
""",
        ),
        Example(
            """
@triton.jit
def k(x, B, T, BT: tl.constexpr):
    n = B.to(tl.int64)  # expect
    m = BT.to(tl.int32)  # expect
    i_b = tl.program_id(0)
    bos = (i_b * T).to(tl.int64)  # expect
    eos = (i_b * T + T).to(tl.int64)  # expect
""",
            fixed="""
@triton.jit
def k(x, B, T, BT: tl.constexpr):
    n = tl.cast(B, tl.int64)
    m = tl.cast(BT, tl.int32)
    i_b = tl.program_id(0)
    bos = tl.cast(i_b, tl.int64) * T
    eos = tl.cast(i_b, tl.int64) * T + T
""",
        ),
        # the rewritten sum stays one operand: parenthesized where the cast was an operand
        Example(
            """
@triton.jit
def k(h, x, T, H, K: tl.constexpr, V: tl.constexpr):
    i_h, i_t = tl.program_id(0), tl.program_id(1)
    h_base = h + (i_t * H + i_h).to(tl.int64) * K * V  # expect
    a = x + 2 * (i_t * T + 1).to(tl.int64)  # expect
    b = x + (i_t * T - 1).to(tl.int64) ** 2  # expect
    c = x + (i_t * T + tl.arange(0, 16)).to(tl.int64)[:, None] * V  # expect
    d = -(i_t * T + i_h).to(tl.int64)  # expect
""",
            fixed="""
@triton.jit
def k(h, x, T, H, K: tl.constexpr, V: tl.constexpr):
    i_h, i_t = tl.program_id(0), tl.program_id(1)
    h_base = h + (tl.cast(i_t, tl.int64) * H + tl.cast(i_h, tl.int64)) * K * V
    a = x + 2 * (tl.cast(i_t, tl.int64) * T + 1)
    b = x + (tl.cast(i_t, tl.int64) * T - 1) ** 2
    c = x + (tl.cast(i_t, tl.int64) * T + tl.arange(0, 16))[:, None] * V
    d = -(tl.cast(i_t, tl.int64) * T + tl.cast(i_h, tl.int64))
""",
        ),
        # a receiver that may be fractional keeps the outer cast (it truncates); one written over
        # several lines keeps the parentheses holding its lines
        Example(
            """
@triton.jit
def k(x, T, S, BLOCK: tl.constexpr):
    i_t = tl.program_id(0)
    mid = (i_t * T / 2).to(tl.int64)  # expect
    src = ((i_t * T + tl.arange(0, BLOCK)) * 0.5).to(tl.int64)  # expect
    off = (
        i_t * T
        + i_t * S
    ).to(tl.int64)  # expect
""",
            fixed="""
@triton.jit
def k(x, T, S, BLOCK: tl.constexpr):
    i_t = tl.program_id(0)
    mid = tl.cast(tl.cast(i_t, tl.int64) * T / 2, tl.int64)
    src = tl.cast((tl.cast(i_t, tl.int64) * T + tl.arange(0, BLOCK)) * 0.5, tl.int64)
    off = (
        tl.cast(i_t, tl.int64) * T
        + tl.cast(i_t, tl.int64) * S
    )
""",
        ),
        """
@triton.jit(do_not_specialize=["T"])
def k(x, T, BT: tl.constexpr):
    i_t, i_b = tl.program_id(0), tl.program_id(1)
    base = (i_b * tl.cdiv(T, BT) + i_t).to(tl.int64)  # expect
""",
        # Python's `int` annotation: specialised like no annotation (measured)
        """
@triton.jit
def k(x, vocab_size: int, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK)).to(tl.int64)
    tl.store(x + tl.arange(0, BLOCK), v % vocab_size.to(tl.int64))  # expect
""",
        """
@triton.jit(do_not_specialize=["T"])
def k(x, T, BT: tl.constexpr, DH_CS: tl.constexpr):
    NT = tl.cdiv(T, BT)
    last = ((NT - 1) * DH_CS).to(tl.int64)  # expect
""",
        # a shift left multiplies
        Example(
            """
@triton.jit
def k(x, LOG: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(x + (pid << LOG).to(tl.int64), 1)  # expect
""",
            fixed="""
@triton.jit
def k(x, LOG: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(x + (tl.cast(pid, tl.int64) << LOG), 1)
""",
        ),
        # unannotated sizes are int32 whenever not 1: their product wraps (fla's `chunk_delta_h`);
        # the fix casts them first, which compiles too when each is 1 (a constexpr product)
        Example(
            """
@triton.jit
def k(x, B, T, H: tl.constexpr, BT: tl.constexpr, DH: tl.constexpr):
    o = (B * T * H).to(tl.int64)  # expect
    NT = tl.cdiv(T, BT)
    last = ((NT - 1) * DH).to(tl.int64)  # expect
    n = T * H
    tl.store(x + o + last + n.to(tl.int64), 1.0)  # expect
""",
            fixed="""
@triton.jit
def k(x, B, T, H: tl.constexpr, BT: tl.constexpr, DH: tl.constexpr):
    o = tl.cast(B, tl.int64) * tl.cast(T, tl.int64) * H
    NT = tl.cdiv(T, BT)
    last = (tl.cast(NT, tl.int64) - 1) * DH
    n = T * H
    tl.store(x + o + last + n.to(tl.int64), 1.0)  # expect
""",
        ),
        """
@triton.jit
def k(x, T, W: tl.constexpr):
    for i_w in tl.static_range(W):
        o = i_w.to(tl.int64)  # expect
""",
        """
@triton.jit
def k(h, K: tl.constexpr, H: tl.constexpr):
    i_nh = tl.program_id(1)
    i_n = i_nh // H
    if K > 64:
        i_n = i_nh // K
    h += (i_n * H).to(tl.int64) * K  # expect
    h += (i_n * K).to(tl.int64) * K  # expect
""",
        """
@triton.jit(do_not_specialize=["T"])
def k(x, y, T, D: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_b, i_t = tl.program_id(0), tl.program_id(1)
    off = (i_b * T + i_t) * D
    b = tl.load(x + off.to(tl.int64))  # expect
    last = tl.minimum(i_b * T * D, 0).to(tl.int64)  # expect
    if IS_VARLEN:
        bos = tl.load(x + i_b).to(tl.int32)
    else:
        bos = i_b * T
    tl.store(y + bos.to(tl.int64) + last, b)  # expect
    row = i_t + 1
    row *= D  # an augmented assignment multiplies as written
    tl.store(y + row.to(tl.int64), b)  # expect
""",
        """
@triton.jit(do_not_specialize=["T"])
def k(h, cu_seqlens, T, N: tl.constexpr, H: tl.constexpr, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    for i_n in range(N):  # the varlen arm's `T` never reaches the other arm on a later trip
        if IS_VARLEN:
            T = tl.load(cu_seqlens + i_n + 1) - tl.load(cu_seqlens + i_n)
            boh = tl.load(cu_seqlens + i_n).to(tl.int64)
        else:
            boh = i_n * tl.cdiv(T, BT)
        for i_h in range(H):
            tl.store(h + (boh * H + i_h).to(tl.int64), 0.0)  # expect
""",
        Example(
            """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = (pid * BLOCK + tl.arange(0, BLOCK)).to(tl.int64)  # expect
    block_start = pid * BLOCK
    tile = block_start + tl.arange(0, BLOCK)
    tl.store(y + tile.to(tl.int64), tl.load(x + offs, mask=offs < n))  # expect
""",
            fixed="""
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.cast(pid, tl.int64) * BLOCK + tl.arange(0, BLOCK)
    block_start = pid * BLOCK
    tile = block_start + tl.arange(0, BLOCK)
    tl.store(y + tile.to(tl.int64), tl.load(x + offs, mask=offs < n))  # expect
""",
        ),
        Example(
            """
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr, CORES: tl.constexpr):
    for task in range(tl.program_id(0), tl.cdiv(n, BLOCK), CORES):  # a task index: a flattened program id
        offs = (task * BLOCK + tl.arange(0, BLOCK)).to(tl.int64)  # expect
        tile = task * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + tile.to(tl.int64), tl.load(x + offs, mask=offs < n), mask=tile < n)  # expect
""",
            fixed="""
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr, CORES: tl.constexpr):
    for task in range(tl.program_id(0), tl.cdiv(n, BLOCK), CORES):  # a task index: a flattened program id
        offs = tl.cast(task, tl.int64) * BLOCK + tl.arange(0, BLOCK)
        tile = task * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + tile.to(tl.int64), tl.load(x + offs, mask=offs < n), mask=tile < n)  # expect
""",
        ),
        """
@triton.jit
def k(x, y, C, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    p = pid * BLOCK + tl.arange(0, BLOCK)
    o = p.to(tl.int64) + 1  # expect
    o += C
    tl.store(y + o, tl.load(x + (p.to(tl.int64) - 1) // C))  # expect
""",
        """
@triton.jit
def copy_rows(x, y, T, D: tl.constexpr):
    base = tl.program_id(0) * T.to(tl.int64)  # expect
    tl.store(y + base + tl.arange(0, D), tl.load(x + base + tl.arange(0, D)))

@triton.jit
def copy_rows_twice(x, y, z, T, D: tl.constexpr):  # a fused variant calls it inline
    copy_rows(x, y, T, D)
    copy_rows(y, z, T, D)

def run(x, y):
    copy_rows[(x.shape[0],)](x, y, x.shape[1], D=64)  # launched too: `T` is specialised here
""",
        # Triton inlines a device function with its caller's values: a specialisable int, a
        # program id, a constexpr (Triton passes it on as one)
        """
@triton.jit
def _scale(x, eps):
    return x / (tl.sum(x * x) + eps.to(tl.float32))  # expect

@triton.jit
def _offsets(i_b, T, BLOCK: tl.constexpr):
    return (i_b * T).to(tl.int64) + tl.arange(0, BLOCK)  # expect

@triton.jit
def _widen(n):
    return n.to(tl.int64)  # expect

@triton.jit
def norm(x, y, eps, T, BLOCK: tl.constexpr):
    i_b = tl.program_id(0)
    offs = _offsets(i_b, T, BLOCK)
    tl.store(y + offs + _widen(BLOCK), _scale(tl.load(x + offs), eps))
""",
        # an index dtype the body binds as a constexpr (inductor's `INDEX_DTYPE`)
        """
@triton.jit
def k(x, y, T):
    INDEX_DTYPE: tl.constexpr = tl.int64
    pid = tl.program_id(0)
    off = (pid * T).to(INDEX_DTYPE)  # expect
    tl.store(y + off, tl.load(x + off))
""",
        # indices a device function computes: Triton inlines it, so `i_n` is `i_nh // H`
        """
@triton.jit
def _head(H):
    i_v, i_nh = tl.program_id(0), tl.program_id(1)
    return i_v, i_nh // H, i_nh % H

@triton.jit(do_not_specialize=["T", "H"])
def k(h, T, H, K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr):
    i_v, i_n, i_h = _head(H)
    NT = tl.cdiv(T, BT)
    for i_t in range(NT):
        h_base = h + ((i_n * NT + i_t) * H + i_h).to(tl.int64) * K * V  # expect
        tl.store(h_base, 0.0)
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        yield from self._callers_products(kernel, context)
        for event in kernel.flow.calls:
            call = event.call
            func = call.func
            if not _is_to(call, kernel.imports):
                continue
            assert isinstance(func, cst.Attribute)
            # read through the device functions the kernel calls (`i_n, i_h = _head(H)` is `i_nh // H`,
            # a program id; `_row_off(i_bh, T).to(tl.int64)` casts the product `_row_off` returns):
            # `copy` is the cast there; the fix and the messages quote the cast as written
            flow, copy = kernel.at_call(call)
            event = flow.call_events[copy]
            assert isinstance(copy.func, cst.Attribute)
            receiver, written_receiver, dtype = copy.func.value, func.value, call.args[0].value
            # each specialisation the receiver's value depends on (`if IS_VARLEN:` ... `else:`)
            specs = flow.specialisations(receiver)
            multiplies = flow.index_multiplies_widened(copy)
            wrapping = [
                spec
                for spec, multiply in multiplies.items()
                if multiply is not None and not _never_int(multiply, spec, kernel, flow, context)
            ]
            if wrapping:
                multiply = multiplies[wrapping[0]]
                assert multiply is not None
                written = flow.index_arithmetic_multiply(receiver, wrapping[0], follow=False)
                terms = _Terms(kernel, context, flow, copy is not call)
                fix = self._wrap_fix(call, written_receiver, dtype, terms, wrapping)
                yield Report(
                    _cast_start(call),
                    WRAP_MESSAGE.format(when=_when(wrapping, specs, receiver, event, flow)),
                    end_node=call,
                    related=_made_at(multiply, flow, context, kernel.inlined) if not written else (),
                    fix=fix if written else _not_written(multiply, receiver, flow),
                    facts={"receiver": one_line(written_receiver), "cause": "multiply"},
                )
                continue
            made = self._constexpr_template(receiver, specs, kernel, flow, context)
            if made is not None and _makes_an_address(copy, flow):  # asked last: it maps the parents
                made = None
            if made is not None:
                template, launch = made
                code = one_line(written_receiver)
                yield Report(
                    _cast_start(call),
                    template.format(receiver=one_line(_unparenthesized(written_receiver))),
                    end_node=call,
                    fix=self._cast_fix(call, written_receiver, dtype, kernel.imports.language_alias),
                    facts={"receiver": code, "cause": "constexpr"},
                    related=() if launch is None else ((launch, "the launch passing 1"),),
                )

    def _callers_products(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        """In a device function, a cast of a value a caller multiplies in int32 and passes in
        (`_tail(x, y, pid * T)`, then `prod.to(tl.int64)` in `_tail`): read in each calling
        kernel's inlined body (`Kernel.inlined`), reported once at the cast. A multiply the
        function makes itself is found in its own flow."""
        if not kernel.passed_flags:
            return
        casts = {event.call for event in kernel.flow.calls if _is_to(event.call, kernel.imports)}
        reported: set[cst.Call] = set()
        for caller in dict.fromkeys(caller for caller, _ in kernel.calls_in_module()):
            inlined = caller.inlined
            for event in inlined.flow.calls:
                source = inlined.written(event.call)
                if not isinstance(source, cst.Call) or source not in casts or source in reported:
                    continue
                own_flow, own_cast = kernel.at_call(source)
                if _wraps(own_cast, own_flow):
                    continue  # the function's own finding
                multiplies = inlined.flow.index_multiplies_widened(event.call)
                made = [m for m in multiplies.values() if m is not None and inlined.in_function(m)]
                if not made:
                    continue
                assert isinstance(source.func, cst.Attribute)
                reported.add(source)
                where, code = inlined.written(inlined.flow.written(made[0])), one_line(made[0])
                yield Report(
                    _cast_start(source),
                    WRAP_MESSAGE.format(when=f" (`{caller.name}` passes a product)"),
                    end_node=source,
                    related=((where, f"`{code}` multiplies in int32 here"),),
                    fix=Declined(MADE_ELSEWHERE),
                    facts={"receiver": one_line(source.func.value), "cause": "multiply"},
                )

    def _wrap_fix(
        self,
        call: cst.Call,
        receiver: cst.BaseExpression,
        dtype: cst.BaseExpression,
        terms: _Terms,
        wrapping: list[Assumptions],
    ) -> FixPlan | Declined:
        """Each index term written in the receiver cast before the arithmetic, read with the flow
        the finding was (`Kernel.at_call`: `_batch(H)` in `(_batch(H) * T).to(tl.int64)` is the
        program id the device function returns). Declined when a term to cast is an arm of a
        choice made at run time, when the receiver binds a name (`:=`), or when the rewrite would
        leave an int32 multiply the finding names uncast (the finding would go and the wrap stay)."""
        alias = terms.kernel.imports.language_alias
        if alias is None:
            return Declined(NO_LANGUAGE_NAME)
        bound = next((part for part in walk(receiver) if isinstance(part, cst.NamedExpr)), None)
        if bound is not None:
            return Declined(BINDS_A_NAME.format(name=one_line(bound.target)))
        cast: list[cst.BaseExpression] = []
        cast_terms = _cast_index_terms(receiver, terms, dtype, alias, cast)
        if any(_in_runtime_arm(term, receiver, terms) for term in cast):
            return Declined(CHOSEN_AT_RUN_TIME)
        narrowing = _narrowing_cast(receiver, terms, wrapping)
        if narrowing is not None:
            return Declined(NARROWED_AGAIN.format(dtype=one_line(narrowing[1]), cast=one_line(narrowing[0])))
        if not _widens_every_multiply(receiver, cast, terms, wrapping):
            return Declined(NOT_WIDENED)
        if any(_may_be_fractional(terms.seen(term), terms.flow) for term in cast):
            return Declined(FRACTIONAL_TERM)
        # `((...) * scale).to(tl.int64)`: the cast truncates; `(a if c else b)`: an arm with no
        # index to cast (`tl.load(...)`, `0`) is widened by the cast alone
        if not _integral(receiver, terms) or _chooses(receiver):
            cast_terms = _tl_cast(cast_terms, dtype, alias)
        cast_terms = fitted(cast_terms, call, terms.kernel.flow.parents.get(call))
        return self._fix(call, cast_terms, "Cast the index terms before the arithmetic")

    def _constexpr_template(
        self,
        receiver: cst.BaseExpression,
        specs: list[Assumptions],
        kernel: Kernel,
        flow: Flow,
        context: ModuleContext,
    ) -> tuple[str, cst.CSTNode | None] | None:
        """The message (its `{receiver}` still to fill in) when the receiver is a constexpr in
        some specialisation: for sure, or when its scalar parameters are ints Triton
        specialises (not when one is a float, unless a launch passes it the int 1: that launch
        specialises it, whatever the others or its default pass), and the launch to relate when
        one passing 1 is what shows it."""
        if any(flow.is_python_constexpr(receiver, spec) for spec in specs):
            return CONSTEXPR_MESSAGE, None
        if not any(flow.is_specialisable(receiver, spec) for spec in specs):
            return None
        scalars = _specialisable_params(receiver, flow)
        host = context.host
        ones = {name: evidence for name in scalars if (evidence := host.one_passed(kernel, name)) is not None}
        if any(name not in ones and _never_specialised(name, kernel, flow, host) for name in scalars):
            return None  # a tensor (a pointer, a dot's operand) or a float is never specialised, unless passed 1
        if scalars and ones.keys() == set(scalars):
            evidence = ones[scalars[0]]
            passes = f"{evidence.where} {evidence.why}".replace("{", "{{").replace("}", "}}")  # kept by `format`
            return PASSED_ONE_MESSAGE.replace("{passes}", passes), evidence.related
        annotated_int = {param.name for param in kernel.params if param.annotation == "int"}
        if set(scalars) <= annotated_int:
            return ANNOTATED_INT_MESSAGE, None
        assumed = ", ".join(f"`{name}`" for name in scalars)
        return ASSUMED_INT_MESSAGE.replace("{params}", assumed), None

    def _cast_fix(
        self, call: cst.Call, receiver: cst.BaseExpression, dtype: cst.BaseExpression, alias: str | None
    ) -> FixPlan | Declined:
        """`x.to(dtype)` rewritten as `tl.cast(x, dtype)`, in the module's name for `triton.language`."""
        if alias is None:
            return Declined(NO_LANGUAGE_NAME)
        return self._fix(call, _tl_cast(_unparenthesized(receiver), dtype, alias), "Use `tl.cast`")

    def _fix(self, call: cst.Call, replacement: cst.BaseExpression, message: str) -> FixPlan | Declined:
        """The rewrite, when `.to` has only its dtype (other options, e.g. `bitcast=`, would be lost)."""
        if len(call.args) != 1:
            return Declined("`.to()` has options besides the dtype (e.g. `bitcast=`) that the rewrite would lose")
        if len(comments_in(replacement)) < len(comments_in(call)):
            return Declined(DROPS_A_COMMENT)
        return FixPlan("safe", message, (Replace(call, replacement),))


def _not_written(multiply: cst.BinaryOperation, receiver: cst.BaseExpression, flow: Flow) -> Declined:
    """Why no fix casts a multiply not written in the receiver's arithmetic: it is an argument of
    a call there (`tl.minimum(i_b * T, B)`, `tl.where(c, pid * T, 0)`; the innermost holding it),
    or it is made in a definition or a call the receiver reads."""
    calls = [
        part for part in walk(receiver) if isinstance(part, cst.Call) and any(sub is multiply for sub in walk(part))
    ]
    if calls:
        return Declined(IN_A_CALL.format(call=one_line(calls[-1].func)))
    return Declined(MADE_ELSEWHERE)


def _narrowing_cast(
    receiver: cst.BaseExpression, terms: _Terms, wrapping: list[Assumptions]
) -> tuple[cst.Call, cst.BaseExpression] | None:
    """A cast to int32 or narrower in the receiver holding the int32 multiply the finding names
    (`(i_b * T).to(tl.int32)`), with its dtype, else None."""
    flow = terms.flow
    multiply = flow.index_arithmetic_multiply(terms.seen(receiver), wrapping[0], follow=False)
    if multiply is None:
        return None
    made = terms.written(multiply)
    for part in walk(receiver):
        if not isinstance(part, cst.Call):
            continue
        parts = flow.cast_parts(part)
        if parts is not None and flow.is_narrow_int(parts[1]) and any(sub is made for sub in walk(part)):
            return part, parts[1]
    return None


def _wraps(cast: cst.Call, flow: Flow) -> bool:
    """The cast widens an int32 multiply in some specialisation (`Flow.index_multiplies_widened`)."""
    return any(multiply is not None for multiply in flow.index_multiplies_widened(cast).values())


def _never_int(
    multiply: cst.BinaryOperation, spec: Assumptions, kernel: Kernel, flow: Flow, context: ModuleContext
) -> bool:
    """A multiply over specialisable parameters only (no index), one of which is a tensor or a
    float by the kernel's or the host's evidence: no int32 multiply."""
    return not flow.flags(multiply, spec) & INDEX and any(
        _never_specialised(name, kernel, flow, context.host) for name in _specialisable_params(multiply, flow)
    )


def _never_specialised(name: str, kernel: Kernel, flow: Flow, host: HostIndex) -> bool:
    """A scalar parameter the kernel shows to be a tensor (a pointer, a dot's operand, a `.dtype`
    read), a launch passes a torch tensor for, or that is a float by the evidence."""
    return (
        name in flow.tensor_names
        or host.tensor_passed(kernel, name) is not None
        or float_evidence(kernel, name, host) is not None
    )


def _is_to(call: cst.Call, imports: ImportMap) -> bool:
    """`x.to(dtype, ...)` on a value (not a module's `to` function)."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value == "to" and bool(call.args) and not imports.resolve(func)


def _when(
    wrapping: list[Assumptions], specs: list[Assumptions], receiver: cst.BaseExpression, cast: Event, flow: Flow
) -> str:
    """` (when `IS_VARLEN` is false)`: the test outcomes the `wrapping` specialisations share,
    leaving out the tests around the cast itself, when every other specialisation multiplies no
    int32 index (not when it multiplies a loaded int32 value, which may wrap as well: ASC008's)."""
    around = {branch.key[0] for branch, _ in cast.conds}
    shared = {(key, outcome) for key, outcome in frozenset.intersection(*wrapping) if key not in around}
    others = [spec for spec in specs if spec not in wrapping]
    follow = not flow.scaled_after(cast.call)
    if not shared or not others or any(flow.int32_index_multiply(receiver, spec, follow) for spec in others):
        return ""
    return f" (when {flow.outcomes_text(frozenset(shared))})"


def _makes_an_address(cast: cst.Call, flow: Flow) -> bool:
    """The `.to` makes a pointer of its receiver (`p.to(tl.pointer_type(tl.uint8))`), or its
    result is made one, directly, as an arm of `tl.where` or as the first term of a sum
    (`addr.to(tl.int64).to(tl.pointer_type(tl.uint64))`,
    `tl.where(c, p.to(tl.int64), q.to(tl.int64)).to(tl.pointer_type(...))`,
    `(src.to(tl.int64) + offs).to(tl.pointer_type(tl.uint8))`): the receiver is
    an address, a tensor argument (a pointer: never specialised) or an int device address
    (never the 1 Triton specialises): not a constexpr."""
    if _to_pointer(cast, flow):
        return True
    node: cst.CSTNode = cast
    parent = flow.parents.get(node)
    while isinstance(parent, cst.Arg | cst.BinaryOperation):
        if isinstance(parent, cst.BinaryOperation):  # the address an offset is added to
            if not (isinstance(parent.operator, cst.Add | cst.Subtract) and parent.left is node):
                return False
            node, parent = parent, flow.parents.get(parent)
            continue
        where = flow.parents.get(parent)  # an arm of `tl.where(test, a, b)`
        if not (
            isinstance(where, cst.Call)
            and flow.imports.is_tl(where.func, "where")
            and any(parent is arm for arm in where.args[1:])
        ):
            return False
        node, parent = where, flow.parents.get(where)
    outer = flow.parents.get(parent) if isinstance(parent, cst.Attribute) and parent.value is node else None
    return isinstance(outer, cst.Call) and outer.func is parent and _to_pointer(outer, flow)


def _to_pointer(call: cst.Call, flow: Flow) -> bool:
    """`x.to(tl.pointer_type(...))`."""
    func = call.func
    dtype = call.args[0].value if call.args else None
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "to"
        and isinstance(dtype, cst.Call)
        and flow.imports.is_tl(dtype.func, "pointer_type")
    )


def _specialisable_params(node: cst.BaseExpression, flow: Flow) -> list[str]:
    """The parameters read in `node` that Triton may specialise (unannotated scalars)."""
    names: list[str] = []
    for sub in walk(node):
        if (
            isinstance(sub, cst.Name)
            and sub.value not in names
            and any(_specialisable(definition.value_flags) for definition in flow.reaching(sub))
        ):
            names.append(sub.value)
    return names


def _specialisable(flags: int | None) -> bool:
    """A parameter Triton may specialise: unannotated, or a device function's a call passes such
    a value or a constexpr for."""
    return flags is not None and bool(flags & SPEC) and not flags & ~FOLDABLE


def _made_at(
    multiply: cst.BinaryOperation | None, flow: Flow, context: ModuleContext, inlined: Inlined
) -> tuple[tuple[cst.CSTNode, str], ...]:
    """Where a multiply the receiver does not spell out is made (`x *= D`: at that statement; in
    a device function the kernel calls, where that function writes it)."""
    if multiply is None:
        return ()
    where, source = inlined.written(flow.written(multiply)), inlined.written(multiply)
    return ((where, f"`{one_line(source)}` multiplies in int32 here"),)


def _cast_start(call: cst.Call) -> cst.CSTNode:
    """Where a finding on `receiver.to(...)` starts: the call, or its `to` when the receiver is
    written over several lines (the `.to(` line, where `# noqa` goes)."""
    assert isinstance(call.func, cst.Attribute)
    return call.func.attr if "\n" in cst.Module([]).code_for_node(call.func) else call


def _unparenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    """`node` without its parentheses, but an assignment expression (`tl.cast((r := v), t)`)."""
    if isinstance(node, cst.NamedExpr):
        return node
    return node.with_changes(lpar=(), rpar=()) if getattr(node, "lpar", None) else node


def _tl_cast(value: cst.BaseExpression, dtype: cst.BaseExpression, alias: str) -> cst.Call:
    return cst.Call(
        func=cst.parse_expression(f"{alias}.cast"),
        args=[cst.Arg(value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(dtype)],
    )


class _Terms:
    """The receiver as written, read with the flow the finding was made with (`Kernel.at_call`):
    a node of a statement the inlining rewrote is read as its copy there (the call
    `_batch(H)` as `ret·_batch`, the program id `_batch` returns), any other as itself."""

    def __init__(self, kernel: Kernel, context: ModuleContext, flow: Flow, rewritten: bool) -> None:
        self.kernel, self.context, self.flow, self.rewritten = kernel, context, flow, rewritten

    def seen(self, node: cst.BaseExpression) -> cst.BaseExpression:
        copy = self.kernel.inlined.copy_of(node) if self.rewritten else None
        return copy if isinstance(copy, cst.BaseExpression) else node

    def written(self, node: cst.CSTNode) -> cst.CSTNode:
        return self.kernel.inlined.written(node) if self.rewritten else node

    def is_index(self, node: cst.BaseExpression) -> bool:
        """A runtime int32 index (a program id, a loop index, a call returning one)."""
        return bool(self.flow.flags(self.seen(node)) & INDEX)

    def is_size(self, node: cst.BaseExpression) -> bool:
        """A value read from an int Triton may specialise (`B`, `tl.cdiv(T, BT)`): an int32 but when 1."""
        return bool(self.flow.flags(self.seen(node)) & SPEC)

    def multiplies_sizes(self, node: cst.BinaryOperation) -> bool:
        """A multiply over specialisable ints and constexprs only (`B * T * H`): no index to cast."""
        if not isinstance(node.operator, MULTIPLYING):
            return False
        leaves = list(_leaves(node))
        return any(self.is_size(leaf) for leaf in leaves) and not any(self.is_index(leaf) for leaf in leaves)


def _cast_index_terms(
    node: cst.BaseExpression,
    terms: _Terms,
    dtype: cst.BaseExpression,
    alias: str,
    cast: list[cst.BaseExpression],
) -> cst.BaseExpression:
    """Rewrite each index leaf (program id / loop index term, a call returning one) as
    `tl.cast(leaf, int64)`, adding the leaves cast to `cast`. A receiver written over several
    lines keeps the parentheses that hold its lines together."""
    bare = _unparenthesized(node)
    if "\n" in cst.Module([]).code_for_node(bare):
        bare = node
    return _cast_leaves(bare, terms, dtype, alias, cast)


def _leaves(node: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The terms of an arithmetic expression, as the fix casts them (through operators,
    broadcasts and the arms of a choice)."""
    if isinstance(node, cst.BinaryOperation):
        yield from _leaves(node.left)
        yield from _leaves(node.right)
    elif isinstance(node, cst.UnaryOperation):
        yield from _leaves(node.expression)
    elif (viewed := axes_view_of(node)) is not None:
        yield from _leaves(viewed)
    elif isinstance(node, cst.IfExp):
        yield from _leaves(node.body)
        yield from _leaves(node.orelse)
    else:
        yield node


def _chooses(node: cst.BaseExpression) -> bool:
    """The receiver picks between values (`a if c else b`, anywhere in it)."""
    return any(isinstance(part, cst.IfExp) for part in walk(node))


def _in_runtime_arm(term: cst.BaseExpression, receiver: cst.BaseExpression, terms: _Terms) -> bool:
    """`term` is in an arm of a conditional expression of the receiver whose test is runtime
    (`i_b * T if i_t > 0 else 0`): Triton requires both arms of that `scf.if` to have one type,
    so casting one arm's index would not compile (a choice beside the index,
    `i_b * T + (1 if i_t > 0 else 0)`, is no matter)."""
    return any(
        isinstance(part, cst.IfExp)
        and not terms.flow.is_constexpr(terms.seen(part.test))
        and any(sub is term for arm in (part.body, part.orelse) for sub in walk(arm))
        for part in walk(receiver)
    )


def _widens_every_multiply(
    receiver: cst.BaseExpression, cast: list[cst.BaseExpression], terms: _Terms, wrapping: list[Assumptions]
) -> bool:
    """The rewrite casts an operand of each int32 multiply the finding names in the receiver
    (`Flow.index_arithmetic_multiply`, per specialisation): else the finding would go and the
    wrap stay. A term cast that was made by a multiply itself (`x = i_b * T`) is a position
    bounded by a dimension, as the finding takes it ("Where the multiply may be")."""
    flow, seen = terms.flow, terms.seen(receiver)
    for spec in wrapping:
        multiply = flow.index_arithmetic_multiply(seen, spec, follow=False)
        if multiply is None:
            continue
        made = terms.written(multiply)
        if not any(sub is term for term in cast for sub in walk(made)):
            return False
    return bool(cast)


def _may_be_fractional(node: cst.BaseExpression, flow: Flow, seen: tuple[cst.CSTNode, ...] = ()) -> bool:
    """The value of a term to cast may hold a fraction: a `/` or a float literal in it or in the
    definitions it reads (`x = tl.program_id(0) / 2`, a device function returning
    `tl.program_id(1) / H`): casting it first would truncate before the arithmetic."""
    for part in walk(node):
        if isinstance(part, cst.Float) or (
            isinstance(part, cst.BinaryOperation) and isinstance(part.operator, cst.Divide)
        ):
            return True
        if isinstance(part, cst.Name) and len(seen) < _DEFINITIONS_FOLLOWED:
            for value in flow.values_reaching(part, None):
                if value is not None and value not in seen and _may_be_fractional(value, flow, (*seen, value)):
                    return True
    return False


# definitions followed back from a term to cast, looking for a fraction: deeper than
# `nodes.NAMES_FOLLOWED`, as a fraction missed makes the fix truncate where declining it costs nothing
_DEFINITIONS_FOLLOWED = 8
_INTEGER_CALLS = ("arange", "program_id", "num_programs", "cdiv")


def _integral(node: cst.BaseExpression, terms: _Terms) -> bool:
    """Nothing says the receiver's value may be fractional: no `/`, no float literal, no
    parameter with float evidence, no call but integer ones (`tl.arange`, `tl.program_id`,
    `tl.cdiv`, a cast to an integer type, a device function's call returning an index). Then casting its index terms keeps its value and the
    outer cast can go."""
    if isinstance(node, cst.Float | cst.Imaginary):
        return False
    if isinstance(node, cst.BinaryOperation):
        return not isinstance(node.operator, cst.Divide) and all(
            _integral(side, terms) for side in (node.left, node.right)
        )
    if isinstance(node, cst.UnaryOperation):
        return _integral(node.expression, terms)
    kernel = terms.kernel
    if isinstance(node, cst.Call):
        if terms.is_index(node):  # a device function returning a program id (`_batch(H)`)
            return True
        cast = kernel.flow.cast_parts(node)
        if cast is not None:
            return kernel.flow.is_narrow_int(cast[1]) or kernel.imports.language_name(cast[1]) in ("int64", "uint64")
        return kernel.imports.language_name(node.func) in _INTEGER_CALLS
    if isinstance(node, cst.Name):
        return not (
            node.value in {param.name for param in kernel.params}
            and float_evidence(kernel, node.value, terms.context.host)
        )
    return not any(isinstance(part, cst.Float) for part in walk(node))


def _cast_leaves(
    node: cst.BaseExpression,
    terms: _Terms,
    dtype: cst.BaseExpression,
    alias: str,
    cast: list[cst.BaseExpression],
    sizes: bool = False,
) -> cst.BaseExpression:
    """With `sizes`, inside a product of specialisable ints (`B * T * H`), whose leaves read
    from one (`B`, `T`) are cast too."""
    if isinstance(node, cst.BinaryOperation):
        sizes = sizes or terms.multiplies_sizes(node)
        left = _cast_leaves(node.left, terms, dtype, alias, cast, sizes)
        right = _cast_leaves(node.right, terms, dtype, alias, cast, sizes)
        return node.with_changes(left=left, right=right)
    if isinstance(node, cst.UnaryOperation):
        return node.with_changes(expression=_cast_leaves(node.expression, terms, dtype, alias, cast, sizes))
    if isinstance(node, cst.Subscript) and axes_view_of(node) is not None:  # `(...)[:, None]`: the tile
        return node.with_changes(value=_cast_leaves(node.value, terms, dtype, alias, cast, sizes))
    if isinstance(node, cst.IfExp):  # each arm, the test left alone
        body = _cast_leaves(node.body, terms, dtype, alias, cast, sizes)
        orelse = _cast_leaves(node.orelse, terms, dtype, alias, cast, sizes)
        return node.with_changes(body=body, orelse=orelse)
    if terms.is_index(node) or (sizes and terms.is_size(node)):
        cast.append(node)
        return _tl_cast(_unparenthesized(node), dtype, alias)
    return node
