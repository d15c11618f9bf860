"""
## What it does
Flags pointer arithmetic that multiplies a sequence offset loaded as int32 by a stride:
`bos = tl.load(cu_seqlens + i_n).to(tl.int32)` and then `q + (bos * HV + i_hv) * V`, with no
int64 operand joining before the multiply. A *sequence offset* is a value loaded from a pointer parameter
named for packed-sequence boundaries (`cu_seqlens`, `seq_offsets`, `query_start_loc_ptr`,
`qo_indptr`) and cast to int32, or loaded from a tensor every launch in the module passes as
int32. A cast of the whole offset to int64 comes too late.

Not flagged: lengths and positions inside a sequence (`T = eos - bos`, `(t - bos) * HV`), uses outside pointer
arithmetic (masks, loop bounds), a multiply with an int64 operand, and a stride every launch
passes as 1.

## Why is this bad?
The product is computed in int32 and wraps silently before it is added to the pointer, so the
kernel reads and writes the wrong rows once the packed batch is long enough: with `HV = 32`,
`V = 4096`, `(bos * HV + i_hv) * V` passes 2³¹ at `bos ≈ 16K` tokens. Nothing fails at compile
time (the compiler cannot know the values), and small test batches pass. What the compiler
does show is the width: measured with triton-ascend 3.2 (`ascend-lint confirm --backend
compile`), `((bos + i_t) * H + i_h) * D` with an int32 `bos` compiles to
`arith.muli %8, %c2_i32 : i32` and `arith.muli %10, %c16_i32 : i32` before the pointer add;
after the fix the same line has `arith.muli ... : i64`. The replay judges by line: any i32
multiply on the finding's line confirms it.

## Example
```python
bos = tl.load(cu_seqlens + i_n).to(tl.int32)
eos = tl.load(cu_seqlens + i_n + 1).to(tl.int32)
T = eos - bos
p_v = v + (bos * HV + i_hv) * V + o_v
```

## Use instead
```python
bos = tl.load(cu_seqlens + i_n).to(tl.int64)
eos = tl.load(cu_seqlens + i_n + 1).to(tl.int64)
T = (eos - bos).to(tl.int32)
p_v = v + (bos * HV + i_hv) * V + o_v
```
or keep the int32 load and cast before the stride: `(tl.cast(bos, tl.int64) * HV + i_hv) * V`.

## Fix safety
Safe. Each read of the int32 sequence offset inside the flagged product becomes
`tl.cast(bos, tl.int64)` (`tl.cast(rows, tl.int64)[:, None]` in a broadcast), so that product
(and only it) is computed in int64: the same value whenever the int32 computation did not wrap,
the right one when it did; a pointer plus an int64 offset is valid Triton. The load itself is
left alone, since its other uses (block-pointer offsets, lengths) must stay int32.

No fix when the product's value also reaches a block pointer's offset: `row = bos * H + i_h`
read by `q + row * K` and by `tl.make_block_ptr(o, ..., (row, 0), ...)` (or a `tl.advance`
offset, or a device function's parameter that becomes one; directly or through names and
sums): block pointers take int32 offsets only, so the widened kernel would not compile
(measured with triton-ascend 3.2: `Block pointers only support 32 bit offsets`). Widening at
the pointer-arithmetic uses only (`tl.cast(row, tl.int64) * K`) would leave the flagged
multiply in int32 and edit other lines, so the reason names the block-pointer use and the
author chooses. A shape or stride may take the int64 value (Triton widens those itself), and
so may an int32 cast of it (`row.to(tl.int32)`). Nor when the product is multiplied in place
(`t *= H * K`).

## Details
### Sequence offsets
A *sequence offset* is a value loaded from a
pointer parameter holding packed-sequence boundaries, cumulative token offsets (its name, a
trailing `_ptr` and a side `_q`, `_k`, `_v`, `_kv` or `_qo` aside, in any case, contains `cu_seqlens`
(also `cum_seqlens`, `CuSeqlens`) or `start_loc`, ends in `offsets`, `indptr`, `start`
or `starts`, or starts with `cu_`: `cu_seqlens`, `seq_offsets`, `chunk_offsets`, `cu_seq_lens`,
vLLM's `query_start_loc_ptr`, lightllm's `B_Start_Loc`, `qo_indptr`, sgl-kernel-npu's
`qb_to_qstart_ptr`, HSTU's `seq_offsets_q`; not lengths such as FlashAttention's `cache_seqlens`) and cast
`.to(tl.int32)` (or narrower), or loaded as it is from a tensor every launch in the module
passes as int32 (FlashAttention's varlen API takes int32 `cu_seqlens`): the launching function,
or every call of it in the module, asserts `cu_seqlens.dtype == torch.int32` (unconditionally,
on a name it does not rebind; also `torch._assert(...)`, or `if cu_seqlens.dtype != torch.int32:`
with a body that raises or returns), converts it (`.to(torch.int32)`, `.int()`) or makes it with
`dtype=torch.int32` (`torch.zeros`, `torch.cumsum`, `lens.cumsum(0, dtype=...)`...), also
through a pad or a copy, which keep the dtype (fla's `F.pad(torch.cumsum(lens, 0,
dtype=torch.int32), (1, 0))`, `.contiguous()`), and through arithmetic (`+ - * // %`, unary
`-`) that keeps torch's int32: with a Python int, one the host shows (a literal, a size such
as `spec` of `batch, spec, vocab = probs.shape`, an `int` parameter: `torch.arange(1, batch +
1, dtype=torch.int32) * spec`), or with another narrow integer tensor (the wider of the
two), also returned by a function of the module in a tuple (`starts, ends = ranges(group_list,
n)`, `ranges` returning `starts, ends` after `starts = torch.zeros(n, dtype=torch.int32)`);
the message names that line (for a kernel only another module of the package launches,
whose launches there are the evidence, that launch: "the launch in `run` of `ops.py`").

### Values made from an offset
The load may
be behind compiler hints, which return their argument (`bos = tl.multiple_of(tl.load(cu_seqlens
+ i_n).to(tl.int32), 16)`), or an arm of a conditional expression (`start = 0 if i == 0 else
tl.load(cu_num_draft_tokens + i - 1)`: the first request starts at 0; `bos =
tl.load(cu_seqlens + i_n).to(tl.int32) if IS_VARLEN else i_n * T`: the offset where
`IS_VARLEN` holds), also a choice of tuples unpacked (`bos, eos = (tl.load(cu_seqlens +
i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)) if IS_VARLEN else (i_n * T, i_n
* T + T)`: each name takes its item of the arm, as the `if IS_VARLEN:` statement binding `bos,
eos` in each arm does). The index of a `range` / `tl.range` loop starting at an offset is one (`for
t in range(bos, eos)`: `t` is `bos` plus a position), unless a bound is int64 (Triton gives the
index its bounds' widest type). Also a name set to
an offset plus or minus other int32 terms (`t0 = bos + i_t * BT`; also in place, `bos += i_t *
BT`), also clamped (`rows =
tl.maximum(q_start, tl.minimum(t, q_end - 1))`), or an offset a device function of the module returns (`bos, T =
_seq_start(cu_seqlens, i_n)`, `_seq_start` loading `cu_seqlens` with `.to(tl.int32)`; a
load it returns as it casts it, `return tl.load(cu + i_n).to(tl.int32)`, or a name it binds
to one and returns, `bos = tl.load(cu + i_n).to(tl.int32)` then `return bos, eos - bos`, or
another helper's such load it returns, `return _s0(cu, i_n)`, down any number of helpers,
counts when the caller passes a boundary pointer, whatever the functions name their parameter;
also copied or added to in the caller, `t0 = bos + i_t * BT`), also
picked by `tl.where(c, bos, start)`. The chunk an offset falls in is one too, counted in chunks
(`i_c = (eos - 1) // chunk_size`, the last chunk of a sequence; also rounded up, `tl.cdiv(eos,
chunk_size)`, or by a right shift, `(eos - 1) >> 6` for chunks of 64): `i_c * chunk_size *
stride` and `i_c * stride_chunk` are reported, while `eos - i_c * chunk_size` is a position
inside the chunk, `eos % chunk_size` too, and `i_c * chunk_size` alone (`i_c * 64` or `i_c <<
6` after `>> 6`), the chunk's start, cannot wrap. That start needs the divisor of the
definition reaching the product, with the value it has there: after `if WIDE: i_c = bos // (2
* BT)` / `else: i_c = bos // BT`, `i_c * (2 * BT)` is reported (twice the offset in the `else`
specialisation), while under `if WIDE:` it is the start, and so it is when a conditional
expression chooses the division (`i_c = bos // (2 * BT) if WIDE else bos // BT`: each
specialisation compiles its own arm); `i_c * C` with `C` rebound after `i_c = bos // C` is
reported too. The divisor and
the factors are compared as products of those values, however written (`i_c * 2 * BT` and `i_c
* (BT * 2)` after `i_c = bos // (2 * BT)`, `i_c * C` after `C = BT` and `i_c = bos // BT`
are the chunk's start). A left shift is
a multiply (`bos << 7`, `(i_c << 6) * HV`). A load bound by an assignment expression where it is
multiplied (`((bos := tl.load(cu_seqlens + i_n).to(tl.int32)) * HV + i_hv) * V`) is one there
and in the reads of `bos` after it; the product holding the `:=` gets no fix (cast it by hand).
An offset loaded in an arm no specialisation compiles, by a flag the module or the body fixes
(`IS_VARLEN = tl.constexpr(False)` at module level, `IS_VARLEN: tl.constexpr = False` in the
body: `Flow.decided`), reaches no later read: after `if IS_VARLEN: bos = tl.load(cu_seqlens +
i_n).to(tl.int32)` / `else: bos = i_n * T`, `bos * H` is no offset's product.

A device function no launch runs is read with what its
calls pass (Triton inlines it with the caller's values): a parameter some call passes an int32
offset for is one (`_tail(v, o, bos, i_h)`; also a helper passing it on, down any number of
helpers), so is its int32 cast of a parameter some call
passes a load from a boundary pointer for (`_tail(boh, ...)` after `boh = tl.load(chunk_offsets +
i_n)`, `_tail` casting `boh.to(tl.int32)`), and a boundary tensor, a unit stride its calls
pass on unchanged from the caller's parameters are what the caller's launches pass.

### Where it is reported
The offset may be broadcast into a tile before the stride (`rows[:, None] * stride_q`), and
the product may be held in a name added to the pointer later (`q_offsets = rows[:, None] *
stride_q + o_d[None, :]`, then `tl.load(q + q_offsets)`): it is reported once, where it is
multiplied, however many addresses use it (an in-place `t *= H * K` is reported at that
statement, with no fix; a later product of the wrapped value, `row *= H` then `x = row * D`, is
not reported again: the fix of the first, an int64 load or a cast before `*= H`, widens it too). A cast to int64 of the whole offset comes too late:
`v += ((bos * H + i_h) * V).to(tl.int64)` (or `tl.cast(..., tl.int64)`) multiplies in int32
first. A pointer is a name the kernel loads or stores through, or passes to a device function
of the module that does (`k += ...`, then `_load_chunk(k, ...)` building its block pointer).
A product a device function of the module returns into a caller's address is reported in the
function, where it is multiplied, as if the caller wrote it (`v + _off(bos, H, V)` with `_off`
returning `b * H * V`; also through a name, an item of a tuple, `off, n = _offs(...)` then `v +
off`, or another device function returning it, `_off` returning `_base(b, H, V) + i_h * V`,
however many functions up, with the offset passed down however many helpers); the fix casts there (none when a caller's result also reaches a block pointer's
offset), and the caller widening the result before its stride (`_rows(bos, H).to(tl.int64) *
K`) or using it outside an address (a mask) is not flagged.

### Not flagged
- lengths and positions inside a sequence (`T = (eos - bos).to(tl.int32)`;
`T = eos - bos` and `i_t = i_tg - bos`, where the offsets cancel or are subtracted, also
written inline: `(t - bos) * HV` for `t` of `range(bos, eos)`; `i_b * T`
in the other arm of `if IS_VARLEN:` is no sequence offset; a remainder, `t % P` or written out, `t
- (t // P) * P`, is a position inside a page; lengths loaded from FlashAttention's
`cache_seqlens` are no offsets) and every use outside pointer
arithmetic (masks, loop bounds, block-pointer shapes and offsets: the offsets must stay int32,
the shapes Triton widens itself);

- a multiply with an int64 operand (`tl.cast(bos, tl.int64) * HV`);

- a product cast to int64
before the large stride (`(bos * HV + i_hv).to(tl.int64) * V`, or `<< 7`);

- offsets loaded without a cast
from a tensor some launch does not show as int32 (their width is the host tensor's, usually
int64: no evidence, an int64 allocation, one launch passing `.long()`, an `assert` under an
`if`, a parameter the function rebinds on some paths only that no call of it shows,
arithmetic with a value the host does not show to be a Python int (`base * counts`, `counts`
a parameter no caller passes: an int64 tensor would widen it), `.cumsum(0)` with no dtype,
int64 for an integer tensor);

- a stride
every launch in the module passes as 1 (`lse.stride(1)` of `lse = torch.zeros((H, T)) +
float("-inf")`, the last dimension of a tensor the launching function allocates contiguous, or
a literal `1`: Triton specialises it into a constexpr 1; `t.stride()[1]` reads the same, and so does the last of `*t.stride()` for a `t` of known rank; a tensor the function is passed, or a
view, keeps the finding).

An int64 `.to` of an offset that is a program-id product in another
specialisation (`else: bos = i_n * T`) is ASC002's finding (its fix casts `bos` too), not
reported twice. A loaded offset's product beside a program-id product in the same cast
(`(bos * H + pid * T).to(tl.int64)`, also with the program id inside the offset's product,
`((bos * H + pid * T) * V).to(tl.int64)`, or beside it, `((bos * H + i_h) * V + pid *
T).to(tl.int64)`) is reported by both rules: ASC002's fix casts `pid`, this one's `bos`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import libcst as cst

from ascend_lint.arithmetic import ceiling_division
from ascend_lint.fixes import NO_LANGUAGE_NAME, Declined, FixPlan, Replace
from ascend_lint.flow import (
    INDEX,
    LOADED,
    MULTIPLYING,
    NARROW,
    NARROW_INTS,
    WIDE,
    Assumptions,
    Event,
    Flow,
    call_argument,
    pointer_arg,
)
from ascend_lint.host import NARROW_INT_WORDS, HostIndex, TensorDtype
from ascend_lint.kernels import ReturnedInto, returned_values, unpacked_index
from ascend_lint.nodes import one_line
from ascend_lint.rule import Confirm, Evidence, Example, Kernel, ModuleContext, Report, Rule
from ascend_lint.terms import Sum, Terms, TooComplex, multiplied, scaled

MESSAGE = (
    "int32 sequence offset times a stride: {said}, so `{product}` "
    "multiplies in int32 and wraps on long packed batches; load it `.to(tl.int64)` (keep lengths int32) "
    "or cast it before the stride"
)
_ARITHMETIC = (cst.Add, cst.Subtract)
_SIDE_SUFFIX = re.compile(r"_(?:q|k|v|kv|qo)$")  # the side a boundary pointer indexes
_CUMULATIVE_LENGTHS = re.compile(r"cum?_?seq_?lens")  # `cu_seqlens`, `cum_seqlens`


class CuSeqlensInt32(Rule):
    CODE = "ASC008"
    NAME = "cu-seqlens-int32"
    SUMMARY = "A `cu_seqlens` offset loaded as int32 multiplied by a stride in pointer arithmetic (int32 wrap)"
    FIX = "safe"
    REQUIRES_TOKENS = (tuple(sorted(NARROW_INT_WORDS)),)  # the int32 evidence: a kernel cast or a host tensor
    CONFIRM = Confirm(
        {"compile": Evidence.POINTER_OFFSET_IR},
        "the wrap needs packed batches past 2**31 elements; the compiler shows the i32 multiply",
    )

    VALID = (
        # the arm of a constexpr choice sees the `bos` of its own specialisation: int64 there
        """
@triton.jit
def k(x, y, cu_seqlens, H: tl.constexpr, D: tl.constexpr, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_n = tl.program_id(0)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    else:
        bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    b = tl.load(x + bos * H * D + tl.arange(0, BT)) if not IS_VARLEN else 0.0
    tl.store(y + tl.arange(0, BT), b)
""",
        # lengths per sequence (FlashAttention's `cache_seqlens`), and a position inside a page
        # written as a remainder (`t - page * P` for `page = t // P`, as `t % P`)
        """
@triton.jit
def k(k_cache, k_new, cache_seqlens, cu_seqlens, stride_kb, stride_kn, P: tl.constexpr, D: tl.constexpr):
    i_b = tl.program_id(0)
    pos = tl.load(cache_seqlens + i_b).to(tl.int32)
    d = tl.arange(0, D)
    tl.store(k_cache + i_b * stride_kb + pos * stride_kn + d, tl.load(k_new + i_b * D + d))
    t = tl.load(cu_seqlens + i_b).to(tl.int32) + d
    page = t // P
    in_page = t - page * P
    tl.store(k_cache + in_page * stride_kn, tl.load(k_new + d))
""",
        # a unit stride read off a tensor made contiguous: a copy of itself keeps its last stride 1
        """
@triton.jit
def k(lse, cu_seqlens, stride_h, stride_t, BT: tl.constexpr):
    i_h, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    tl.store(lse + i_h * stride_h + bos * stride_t + tl.arange(0, BT), tl.zeros([BT], dtype=tl.float32))


def forward(cu_seqlens, H, T, lse_in):
    lse = torch.zeros((H, T), dtype=torch.float32)
    lse = lse if lse.is_contiguous() else lse.contiguous()
    k[(H, len(cu_seqlens) - 1)](lse, cu_seqlens, lse.stride(0), lse.stride(1), BT=128)
    lse_in = lse_in.contiguous()
    k[(H, len(cu_seqlens) - 1)](lse_in, cu_seqlens, lse_in.stride(0), lse_in.stride(-1), BT=128)
    k[(H, len(cu_seqlens) - 1)](lse, cu_seqlens, *lse.stride(), BT=128)  # one stride per dimension
    k[(H, len(cu_seqlens) - 1)](lse, cu_seqlens, lse.stride(dim=0), lse.stride(dim=1), BT=128)
""",
        # every launch passes `stride_t = 1` to the kernel that passes it on to the device function
        """
@triton.jit
def _body(lse, cu_seqlens, stride_h, stride_t, BT: tl.constexpr):
    i_h, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    tl.store(lse + i_h * stride_h + bos * stride_t + tl.arange(0, BT), tl.zeros([BT], dtype=tl.float32))


@triton.jit
def k(lse, cu_seqlens, stride_h, stride_t, BT: tl.constexpr):
    _body(lse, cu_seqlens, stride_h, stride_t, BT)


def forward(cu_seqlens, H, T):
    lse = torch.zeros((H, T), dtype=torch.float32)
    k[(H, len(cu_seqlens) - 1)](lse, cu_seqlens, lse.stride(0), lse.stride(1), BT=128)
""",
        # a program-id product in the other arm, the ids from a device function: ASC002's cast
        """
@triton.jit
def _ids(H: tl.constexpr):
    i_nh = tl.program_id(1)
    return i_nh // H, i_nh % H


@triton.jit
def k(v, cu_seqlens, T, H: tl.constexpr, V: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_n, i_h = _ids(H)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    else:
        bos = i_n * T
    v += ((bos * H + i_h) * V).to(tl.int64)
    tl.store(v + tl.arange(0, V), tl.zeros([V], dtype=tl.float32))
""",
        # a device function returning the offset as int64
        """
@triton.jit
def _seq_start(cu_seqlens, i_n):
    return tl.load(cu_seqlens + i_n).to(tl.int64), i_n

@triton.jit
def k(q, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr):
    bos, i_n = _seq_start(cu_seqlens, tl.program_id(0))
    tl.store(o + (bos * H + i_n) * K + tl.arange(0, K), tl.load(q + tl.arange(0, K)))
""",
        """
@triton.jit
def k(q, v, cu_seqlens, chunk_indices, T, HV: tl.constexpr, V: tl.constexpr, BT: tl.constexpr):
    i_t, i_n, i_hv = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    eos = tl.load(cu_seqlens + i_n + 1).to(tl.int64)
    T = (eos - bos).to(tl.int32)
    p_v = v + (bos * HV + i_hv) * V
    b0 = tl.load(cu_seqlens + i_n).to(tl.int32)
    b1 = tl.load(cu_seqlens + i_n + 1).to(tl.int32)
    n = b1 - b0
    m = tl.arange(0, BT) < n
    p_q = tl.make_block_ptr(q + b0, (n, V), (V, 1), (i_t * BT, 0), (BT, V), (1, 0))
    p_w = v + (tl.cast(b0, tl.int64) * HV + i_hv) * V
    p_w = v + (b0 * HV + i_hv).to(tl.int64) * V
    tl.store(v + ((b0 * HV + i_hv).to(tl.int64) << 7), 0.0)  # a shift left multiplies too
    p_w = v + ((tl.cast(b0, tl.int64) * HV + i_hv) * V).to(tl.int64)
    i_c = tl.load(chunk_indices + i_t * 2).to(tl.int32)
    p_c = v + i_c * BT * V
    b2 = tl.load(cu_seqlens + i_n)
    p_u = v + (b2 * HV + i_hv) * V
""",
        """
@triton.jit
def k(q, o, qb_to_qstart_ptr, qb_qend_ptr, stride_q, BQ: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    q_start = tl.load(qb_to_qstart_ptr + pid).to(tl.int32)
    q_end = tl.load(qb_qend_ptr + pid).to(tl.int32)
    rows = q_start + tl.arange(0, BQ)
    rows_in = tl.maximum(q_start, tl.minimum(rows, q_end - 1))
    o_d = tl.arange(0, D)
    q_offsets = tl.cast(rows_in, tl.int64)[:, None] * stride_q + o_d[None, :]
    b_q = tl.load(q + q_offsets, mask=(rows < q_end)[:, None])
    row_offsets = (rows * 4).to(tl.int64)
    tl.store(o + row_offsets[:, None] * stride_q + o_d[None, :], b_q)
    counts = rows * BQ
    tl.store(o + pid, tl.sum(counts))
""",
        """
@triton.jit
def k(beta, cu_seqlens, T, BT: tl.constexpr, IS_VARLEN: tl.constexpr, task_num: tl.constexpr, num_core: tl.constexpr):
    for i_b in tl.range(tl.program_id(0), task_num, num_core):
        if IS_VARLEN:
            bos, eos = tl.load(cu_seqlens + i_b).to(tl.int32), tl.load(cu_seqlens + i_b + 1).to(tl.int32)
            T = eos - bos
        else:
            bos = i_b * T
        p_beta = tl.make_block_ptr(beta + bos, (T,), (1,), (0,), (BT,), (0,))
        tl.store(p_beta, tl.zeros([BT], dtype=tl.float32), boundary_check=(0,))
        tl.store(beta + T * BT + tl.arange(0, BT), tl.zeros([BT], dtype=tl.float32))
""",
        """
@triton.jit
def k(q, cu_seqlens, i_n, H: tl.constexpr, K: tl.constexpr):
    i_tg = tl.program_id(0)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    i_t = i_tg - bos
    q += tl.cast(bos, tl.int64) * H * K
    tl.store(q + i_t * H * K + tl.arange(0, K), tl.zeros([K], dtype=tl.float32))
""",
        """
@triton.jit
def k(lse, cu_seqlens, stride_h, stride_t, BT: tl.constexpr):
    i_h, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    eos = tl.load(cu_seqlens + i_n + 1).to(tl.int32)
    o_t = tl.arange(0, BT)
    p_lse = lse + i_h * stride_h + bos * stride_t  # every launch passes stride_t = 1
    tl.store(p_lse + o_t * stride_t, tl.zeros([BT], dtype=tl.float32), mask=o_t < eos - bos)


def forward(cu_seqlens, H, T):
    lse = torch.zeros((H, T), dtype=torch.float32) + float("-inf")  # contiguous: lse.stride(1) == 1
    k[(H, len(cu_seqlens) - 1)](lse, cu_seqlens, lse.stride(0), lse.stride(1), BT=128)
    delta = torch.empty(H, T)
    stride_t = delta.stride(-1)
    k[(H, len(cu_seqlens) - 1)](delta, cu_seqlens, delta.stride(0), stride_t, BT=128)
    k[(H, len(cu_seqlens) - 1)](delta, cu_seqlens, T, 1, BT=128)
    k[(H, len(cu_seqlens) - 1)](lse, cu_seqlens, lse.stride()[0], lse.stride()[1], BT=128)
""",
        """
@triton.jit
def k(q, cu_seqlens, stride_t, D: tl.constexpr):
    i_n = tl.program_id(0)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(q + bos * stride_t + tl.arange(0, D), tl.zeros([D], dtype=tl.float32))


@triton.jit
def k_unknown(q, cu_seqlens, stride_t, D: tl.constexpr):
    i_n = tl.program_id(0)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(q + bos * stride_t + tl.arange(0, D), tl.zeros([D], dtype=tl.float32))


@triton.jit
def k_mixed(q, cu_seqlens, stride_t, D: tl.constexpr):
    i_n = tl.program_id(0)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(q + bos * stride_t + tl.arange(0, D), tl.zeros([D], dtype=tl.float32))


def forward(q, lens, cu_seqlens):
    cu64 = torch.zeros(len(lens) + 1, dtype=torch.int64, device=q.device)  # int64: no wrap
    k[(len(lens),)](q, cu64, q.stride(0), D=128)
    k_unknown[(len(lens),)](q, cu_seqlens, q.stride(0), D=128)  # the caller's tensor: width unknown
    k_mixed[(len(lens),)](q, cu_seqlens.int(), q.stride(0), D=128)
    k_mixed[(len(lens),)](q, cu_seqlens.long(), q.stride(0), D=128)  # one launch passes int64
""",
        # arithmetic that may widen the int32 tensor, or converts it
        """
@triton.jit
def k(q, cu_seqlens, stride_t, D: tl.constexpr):
    i_n = tl.program_id(0)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(q + bos * stride_t + tl.arange(0, D), tl.zeros([D], dtype=tl.float32))


def forward(q, lens, counts):
    base = torch.arange(len(lens) + 1, dtype=torch.int32, device=q.device)
    k[(len(lens),)](q, base * counts, q.stride(0), D=128)  # `counts` may be an int64 tensor
    k[(len(lens),)](q, base + lens.long(), q.stride(0), D=128)  # int64: the wider
    k[(len(lens),)](q, (base * q.shape[1]).to(torch.int64), q.stride(0), D=128)
    k[(len(lens),)](q, base.cumsum(0), q.stride(0), D=128)  # an integer cumsum is int64
""",
        # a name bound to addresses on two tensors is not known to read the boundaries; a
        # boundary tensor the host widens with `.long()` holds int64 offsets
        """
@triton.jit
def k(q, o, cu_seqlens, token_idx, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    p = cu_seqlens + i_n
    if i_h > 0:
        p = token_idx + i_n
    row = tl.load(p).to(tl.int32)
    start = tl.load(cu_seqlens + i_n)
    b_q = tl.load(q + (row * H + i_h) * D + tl.arange(0, D))
    tl.store(o + (start * H + i_h) * D + tl.arange(0, D), b_q)


def run(q, o, token_idx, lens):
    H, D = q.shape[-2:]
    k[(len(lens), H)](q, o, lens.cumsum(0).int().long(), token_idx, H, D)
""",
        # a device function's product the caller widens before the stride, or uses as a mask bound
        """
@triton.jit
def _rows(b, H: tl.constexpr):
    return b * H

@triton.jit
def k(q, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr):
    bos = tl.load(cu_seqlens + tl.program_id(0)).to(tl.int32)
    b_q = tl.load(q + _rows(bos, H).to(tl.int64) * K + tl.arange(0, K), mask=tl.arange(0, K) < _rows(bos, H))
    tl.store(o + tl.arange(0, K), b_q)
""",
        # a chunk's start: the index times the divisor of the arm its specialisation compiles
        """
@triton.jit
def k(v, cu_seqlens, BT: tl.constexpr, V: tl.constexpr, WIDE: tl.constexpr):
    eos = tl.load(cu_seqlens + tl.program_id(0) + 1).to(tl.int32)
    i_c = (eos - 1) // BT if WIDE else (eos - 1) // (2 * BT)
    if WIDE:
        tl.store(v + i_c * BT + tl.arange(0, V), tl.zeros([V], dtype=tl.float32))
    else:
        tl.store(v + i_c * (2 * BT) + tl.arange(0, V), tl.zeros([V], dtype=tl.float32))
""",
        # a flag the body fixes: the int32 load is in the arm no specialisation compiles, so it
        # reaches no later read (a chunk cumsum kernel with its flags written in)
        """
@triton.jit
def k(o, cu_seqlens, T, H: tl.constexpr, D: tl.constexpr):
    IS_VARLEN: tl.constexpr = tl.constexpr(False)
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    else:
        bos = i_n * T
    tl.store(o + (bos * H + i_h) * D + tl.arange(0, D), 1.0)
""",
        # the same flag fixed by the module (`tl.constexpr(False)` at module level)
        """
IS_VARLEN = tl.constexpr(False)

@triton.jit
def k(o, cu_seqlens, T, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    if not IS_VARLEN:
        bos = i_n * T
    else:
        bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    tl.store(o + (bos * H + i_h) * D + tl.arange(0, D), 1.0)
""",
    )
    INVALID = (
        # ASC002 reports these casts too (`i_n * K`), but its fix leaves `bos * HV` in int32
        """
@triton.jit
def k(q, cu_seqlens, HV: tl.constexpr, K: tl.constexpr, V: tl.constexpr):
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    tl.store(q + ((bos * HV + i_n * K) * V).to(tl.int64), 0.0)  # expect
    tl.store(q + ((bos * HV + i_hv) * V + i_n * K).to(tl.int64), 0.0)  # expect
""",
        # an offset advanced in place stays one: `bos += i_t * BT` is `bos = bos + i_t * BT`
        """
@triton.jit
def k(o, cu_seqlens, stride_t, BT: tl.constexpr, D: tl.constexpr):
    i_n, i_t = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    bos += i_t * BT
    tl.store(o + bos * stride_t + tl.arange(0, D), 1.0)  # expect
    row = bos
    row += 1
    tl.store(o + row * stride_t + tl.arange(0, D), 1.0)  # expect
""",
        # an offset a device function returns, copied or added to before the stride
        """
@triton.jit
def _seq_start(cu, i_n):
    start = tl.load(cu + i_n).to(tl.int32)
    return start

@triton.jit
def k(o, cu_seqlens, stride_t, BT: tl.constexpr, D: tl.constexpr):
    i_n, i_t = tl.program_id(0), tl.program_id(1)
    bos = _seq_start(cu_seqlens, i_n)
    t0 = bos + i_t * BT
    tl.store(o + t0 * stride_t + tl.arange(0, D), 1.0)  # expect
    row = bos
    tl.store(o + row * stride_t + tl.arange(0, D), 1.0)  # expect
""",
        # lightllm's prefill kernels name the boundaries `B_Start_Loc`
        """
@triton.jit
def k(Q, Out, B_Start_Loc, stride_qbs, BLOCK_M: tl.constexpr, D: tl.constexpr):
    cur_batch, start_m = tl.program_id(0), tl.program_id(1)
    start = tl.load(B_Start_Loc + cur_batch).to(tl.int32)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    off_q = (start + offs_m[:, None]) * stride_qbs + tl.arange(0, D)[None, :]  # expect
    tl.store(Out + off_q, tl.load(Q + off_q))
""",
        # the offset passed into a device function that multiplies it
        """
@triton.jit
def _tail(v, o, bos, i_h, H: tl.constexpr, V: tl.constexpr):
    p_v = v + (bos * H + i_h) * V + tl.arange(0, V)  # expect
    tl.store(o + i_h * V + tl.arange(0, V), tl.load(p_v))


@triton.jit
def k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    _tail(v, o, bos, i_h, H, V)
""",
        # the kernel's body in a device function; the launches pass the boundaries as int32
        """
@triton.jit
def _body(q, o, cu_seqlens, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(o + (bos * H + i_h) * D + tl.arange(0, D), tl.load(q + i_h))  # expect


@triton.jit
def k(q, o, cu_seqlens, H: tl.constexpr, D: tl.constexpr):
    _body(q, o, cu_seqlens, H, D)


def run(q, o, lens):
    H, D = q.shape[-2:]
    k[(len(lens), H)](q, o, torch.cumsum(lens, 0, dtype=torch.int32), H, D)
""",
        # the offsets unpacked from a choice of tuples: `bos` is the load where `IS_VARLEN` holds
        """
@triton.jit
def k(v, cu_seqlens, T, HV: tl.constexpr, V: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    bos, eos = (
        (tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32))
        if IS_VARLEN
        else (i_n * T, i_n * T + T)
    )
    tl.store(v + (bos * HV + i_hv) * V + tl.arange(0, V), tl.zeros([V], dtype=tl.float32))  # expect
    if not IS_VARLEN:
        tl.store(v + (eos * HV + i_hv) * V + tl.arange(0, V), tl.zeros([V], dtype=tl.float32))
""",
        # the load cast on a line of its own
        """
@triton.jit
def k(h, o, chunk_offsets, H: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    boh = tl.load(chunk_offsets + i_n)
    boh = boh.to(tl.int32)
    p = h + (boh * H + i_h) * K * K + tl.arange(0, K)  # expect
    tl.store(o + tl.arange(0, K), tl.load(p))

@triton.jit
def _tail(boh, h, i_h, o, H: tl.constexpr, K: tl.constexpr):  # cast in the device function it is passed to
    boh = boh.to(tl.int32)
    p = h + (boh * H + i_h) * K * K + tl.arange(0, K)  # expect
    tl.store(o + tl.arange(0, K), tl.load(p))

@triton.jit
def k_tail(h, o, chunk_offsets, H: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    _tail(tl.load(chunk_offsets + i_n), h, i_h, o, H, K)
""",
        # the pointer written after the index: `i_n + cu_seqlens`, `offset + k + tl.arange(0, K)`
        """
@triton.jit
def k(k, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(i_n + cu_seqlens).to(tl.int32)
    p = (bos * H + i_h) * K + k + tl.arange(0, K)  # expect
    tl.store(o + tl.arange(0, K), tl.load(p))
""",
        # the offset a device function returns (FlagGems-vllm's `_map_flattened_varlen_block`)
        """
@triton.jit
def _seq_start(cu_seqlens, i_n):
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    return bos, tl.load(cu_seqlens + i_n + 1).to(tl.int32) - bos

@triton.jit
def k(q, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos, T = _seq_start(cu_seqlens, i_n)
    tl.store(o + (bos * H + i_h) * K + tl.arange(0, K), tl.load(q + tl.arange(0, K)))  # expect
    tl.store(o + T * K + tl.arange(0, K), tl.load(q + tl.arange(0, K)))  # a length
""",
        # the loads returned as they are cast, by a function naming its parameter otherwise
        """
@triton.jit
def _bounds(cu, i_n):
    return tl.load(cu + i_n).to(tl.int32), tl.load(cu + i_n + 1).to(tl.int32)

@triton.jit
def k(q, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos, eos = _bounds(cu_seqlens, i_n)
    tl.store(o + (bos * H + i_h) * K + tl.arange(0, K), tl.load(q + tl.arange(0, K)))  # expect
""",
        # picked with `tl.where` in a search over the sequences (FlagGems-vllm)
        """
@triton.jit
def _find_start(block, cu_seqlens, N, BT: tl.constexpr):
    base, start = 0, 0
    for i_n in range(0, N):
        bos = tl.load(cu_seqlens + i_n).to(tl.int32)
        n = (tl.load(cu_seqlens + i_n + 1).to(tl.int32) - bos + BT - 1) // BT
        start = tl.where((block >= base) & (block < base + n), bos, start)
        base += n
    return start

@triton.jit
def k(s, o, cu_seqlens, N, H: tl.constexpr, BT: tl.constexpr):
    bos = _find_start(tl.program_id(0), cu_seqlens, N, BT)
    tl.store(o + bos * H + tl.arange(0, BT), tl.load(s + tl.arange(0, BT)))  # expect
""",
        # the product is added to a pointer inside a device function the kernel passes it to
        """
@triton.jit
def _load_rows(x, base, n, D: tl.constexpr):
    o = tl.arange(0, D)
    return tl.load(x + base + o, mask=o < n)

@triton.jit
def k(q, o, cu_seqlens, stride_t, D: tl.constexpr):
    i_n = tl.program_id(0)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    b_q = _load_rows(q, bos * stride_t, D, D)  # expect
    tl.store(o + tl.arange(0, D), _load_rows(q, 0, bos * stride_t, D))  # a mask bound, not an offset
""",
        # the product made in a device function whose result the caller adds to a pointer; no
        # fix where the result is also a block pointer's offset
        Example(
            """
@triton.jit
def _off(b, H: tl.constexpr, V: tl.constexpr):
    return b * H * V  # expect

@triton.jit
def _row(b, i_h, H: tl.constexpr):
    return b * H + i_h  # expect

@triton.jit
def k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr, BT: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    b_v = tl.load(v + _off(bos, H, V) + tl.arange(0, V))
    row = _row(bos, i_h, H)
    tl.store(o + row * V + tl.arange(0, V), b_v)
    tl.store(tl.make_block_ptr(o, (BT, V), (V, 1), (row, 0), (BT, V), (1, 0)), tl.zeros([BT, V], dtype=tl.float32))
""",
            fixed="""
@triton.jit
def _off(b, H: tl.constexpr, V: tl.constexpr):
    return tl.cast(b, tl.int64) * H * V

@triton.jit
def _row(b, i_h, H: tl.constexpr):
    return b * H + i_h

@triton.jit
def k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr, BT: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    b_v = tl.load(v + _off(bos, H, V) + tl.arange(0, V))
    row = _row(bos, i_h, H)
    tl.store(o + row * V + tl.arange(0, V), b_v)
    tl.store(tl.make_block_ptr(o, (BT, V), (V, 1), (row, 0), (BT, V), (1, 0)), tl.zeros([BT, V], dtype=tl.float32))
""",
        ),
        Example(
            """
@triton.jit
def k(q, v, o, cu_seqlens, chunk_offsets, T, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
      BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t, i_n, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
        boh = tl.load(chunk_offsets + i_n).to(tl.int32)
        T = eos - bos
    else:
        bos, eos = tl.cast(i_n, tl.int64) * T, tl.cast(i_n, tl.int64) * T + T
        boh = tl.cast(i_n, tl.int64) * tl.cdiv(T, BT)
    q += (bos * H + i_h) * K  # expect
    p_v = tl.make_block_ptr(v + (bos * H + i_h) * V, (T, V), (H * V, 1), (i_t * BT, 0), (BT, V), (1, 0))  # expect
    t0 = bos + i_t * BT
    b_o = tl.load(o + t0 * H * V + tl.arange(0, V))  # expect
    p_h = o + ((boh + i_t) * H + i_h) * K * V  # expect
    tl.store(p_h + tl.arange(0, K), tl.load(q + tl.arange(0, K)))
""",
            fixed="""
@triton.jit
def k(q, v, o, cu_seqlens, chunk_offsets, T, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
      BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_t, i_n, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
        boh = tl.load(chunk_offsets + i_n).to(tl.int32)
        T = eos - bos
    else:
        bos, eos = tl.cast(i_n, tl.int64) * T, tl.cast(i_n, tl.int64) * T + T
        boh = tl.cast(i_n, tl.int64) * tl.cdiv(T, BT)
    q += (tl.cast(bos, tl.int64) * H + i_h) * K
    p_v = tl.make_block_ptr(v + (tl.cast(bos, tl.int64) * H + i_h) * V, (T, V), (H * V, 1), (i_t * BT, 0), (BT, V), (1, 0))
    t0 = bos + i_t * BT
    b_o = tl.load(o + tl.cast(t0, tl.int64) * H * V + tl.arange(0, V))
    p_h = o + ((tl.cast(boh, tl.int64) + i_t) * H + i_h) * K * V
    tl.store(p_h + tl.arange(0, K), tl.load(q + tl.arange(0, K)))
""",
        ),
        Example(
            """
@triton.jit
def k(x, o, query_start_loc_ptr, cu_seq_lens, qo_indptr, seq_offsets_q, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    o_d = tl.arange(0, D)
    qs = tl.load(query_start_loc_ptr + i_n).to(tl.int32)
    b_x = tl.load(x + (qs * H + i_h) * D + o_d)  # expect
    cs = tl.load(cu_seq_lens + i_n).to(tl.int32)
    tl.store(o + (cs * H + i_h) * D + o_d, b_x)  # expect
    qo = tl.load(qo_indptr + i_n).to(tl.int32)
    tl.store(o + qo * H * D + o_d, b_x)  # expect
    sq = tl.load(seq_offsets_q + i_n).to(tl.int32)
    tl.store(o + sq * H * D + o_d, b_x)  # expect
""",
            fixed="""
@triton.jit
def k(x, o, query_start_loc_ptr, cu_seq_lens, qo_indptr, seq_offsets_q, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    o_d = tl.arange(0, D)
    qs = tl.load(query_start_loc_ptr + i_n).to(tl.int32)
    b_x = tl.load(x + (tl.cast(qs, tl.int64) * H + i_h) * D + o_d)
    cs = tl.load(cu_seq_lens + i_n).to(tl.int32)
    tl.store(o + (tl.cast(cs, tl.int64) * H + i_h) * D + o_d, b_x)
    qo = tl.load(qo_indptr + i_n).to(tl.int32)
    tl.store(o + tl.cast(qo, tl.int64) * H * D + o_d, b_x)
    sq = tl.load(seq_offsets_q + i_n).to(tl.int32)
    tl.store(o + tl.cast(sq, tl.int64) * H * D + o_d, b_x)
""",
        ),
        Example(
            """
@triton.jit
def k(v, k, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    v += ((bos * H + i_h) * V).to(tl.int64)  # expect
    b_k = tl.load(k + tl.cast((bos * H + i_h) * K, tl.int64) + tl.arange(0, K))  # expect
    tl.store(o + ((bos * H + i_h) * K).to(tl.int64) + tl.arange(0, K), b_k + tl.load(v + tl.arange(0, K)))  # expect
""",
            fixed="""
@triton.jit
def k(v, k, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    v += ((tl.cast(bos, tl.int64) * H + i_h) * V).to(tl.int64)
    b_k = tl.load(k + tl.cast((tl.cast(bos, tl.int64) * H + i_h) * K, tl.int64) + tl.arange(0, K))
    tl.store(o + ((tl.cast(bos, tl.int64) * H + i_h) * K).to(tl.int64) + tl.arange(0, K), b_k + tl.load(v + tl.arange(0, K)))
""",
        ),
        Example(
            """
@triton.jit
def _load_chunk(base, T, stride, i_t, K: tl.constexpr, BT: tl.constexpr):
    p_b = tl.make_block_ptr(base, (T, K), (stride, 1), (i_t * BT, 0), (BT, K), (1, 0))
    return tl.load(p_b, boundary_check=(0, 1))


@triton.jit
def k(k, w, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr, BT: tl.constexpr):
    i_t, i_n, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
    k += ((bos * H + i_h) * K).to(tl.int64)  # expect
    w += ((bos * H + i_h) * K).to(tl.int64)  # expect
    b_a = tl.dot(_load_chunk(w, eos - bos, H * K, i_t, K, BT), tl.trans(_load_chunk(k, eos - bos, H * K, i_t, K, BT)))
    p_o = tl.make_block_ptr(o + i_h * BT, (eos - bos, BT), (H * BT, 1), (i_t * BT, 0), (BT, BT), (1, 0))
    tl.store(p_o, b_a.to(p_o.dtype.element_ty), boundary_check=(0, 1))
""",
            fixed="""
@triton.jit
def _load_chunk(base, T, stride, i_t, K: tl.constexpr, BT: tl.constexpr):
    p_b = tl.make_block_ptr(base, (T, K), (stride, 1), (i_t * BT, 0), (BT, K), (1, 0))
    return tl.load(p_b, boundary_check=(0, 1))


@triton.jit
def k(k, w, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr, BT: tl.constexpr):
    i_t, i_n, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
    k += ((tl.cast(bos, tl.int64) * H + i_h) * K).to(tl.int64)
    w += ((tl.cast(bos, tl.int64) * H + i_h) * K).to(tl.int64)
    b_a = tl.dot(_load_chunk(w, eos - bos, H * K, i_t, K, BT), tl.trans(_load_chunk(k, eos - bos, H * K, i_t, K, BT)))
    p_o = tl.make_block_ptr(o + i_h * BT, (eos - bos, BT), (H * BT, 1), (i_t * BT, 0), (BT, BT), (1, 0))
    tl.store(p_o, b_a.to(p_o.dtype.element_ty), boundary_check=(0, 1))
""",
        ),
        Example(
            """
@triton.jit
def k(q, o, score, qb_to_qstart_ptr, qb_qend_ptr, stride_q, stride_s, BQ: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    q_start = tl.load(qb_to_qstart_ptr + pid).to(tl.int32)
    q_end = tl.load(qb_qend_ptr + pid).to(tl.int32)
    rows = q_start + tl.arange(0, BQ)
    rows_in = tl.maximum(q_start, tl.minimum(rows, q_end - 1))
    o_d = tl.arange(0, D)
    q_offsets = (
        rows_in[:, None] * stride_q  # expect
        + o_d[None, :]
    )
    b_q = tl.load(q + q_offsets)
    tl.store(o + q_offsets, b_q)
    s_offsets = rows * stride_s  # expect
    tl.store(score + s_offsets, tl.sum(b_q, axis=1))
""",
            fixed="""
@triton.jit
def k(q, o, score, qb_to_qstart_ptr, qb_qend_ptr, stride_q, stride_s, BQ: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    q_start = tl.load(qb_to_qstart_ptr + pid).to(tl.int32)
    q_end = tl.load(qb_qend_ptr + pid).to(tl.int32)
    rows = q_start + tl.arange(0, BQ)
    rows_in = tl.maximum(q_start, tl.minimum(rows, q_end - 1))
    o_d = tl.arange(0, D)
    q_offsets = (
        tl.cast(rows_in, tl.int64)[:, None] * stride_q
        + o_d[None, :]
    )
    b_q = tl.load(q + q_offsets)
    tl.store(o + q_offsets, b_q)
    s_offsets = tl.cast(rows, tl.int64) * stride_s
    tl.store(score + s_offsets, tl.sum(b_q, axis=1))
""",
        ),
        # a product that is also a block pointer's offset: no fix (block pointers take int32
        # offsets, the widened kernel would not compile); its shape and an int32 cast of it
        # take the int64 value
        Example(
            """
@triton.jit
def k(q, o, cu_seqlens, T, H: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    row = bos * H + i_h  # expect
    b_q = tl.load(q + row * K + tl.arange(0, K))
    p_o = tl.make_block_ptr(o, (T * H, K), (K, 1), (row, 0), (1, K), (1, 0))
    tl.store(p_o, b_q[None, :])
    rows = bos * H + i_h + 1  # expect
    b_q = tl.load(q + rows * K + tl.arange(0, K))
    p_o = tl.make_block_ptr(o, (rows, K), (K, 1), (rows.to(tl.int32) - 1, 0), (1, K), (1, 0))
    tl.store(p_o, b_q[None, :])
""",
            fixed="""
@triton.jit
def k(q, o, cu_seqlens, T, H: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    row = bos * H + i_h
    b_q = tl.load(q + row * K + tl.arange(0, K))
    p_o = tl.make_block_ptr(o, (T * H, K), (K, 1), (row, 0), (1, K), (1, 0))
    tl.store(p_o, b_q[None, :])
    rows = tl.cast(bos, tl.int64) * H + i_h + 1
    b_q = tl.load(q + rows * K + tl.arange(0, K))
    p_o = tl.make_block_ptr(o, (rows, K), (K, 1), (rows.to(tl.int32) - 1, 0), (1, K), (1, 0))
    tl.store(p_o, b_q[None, :])
""",
        ),
        """
@triton.jit
def k(k, cu_seqlens, H: tl.constexpr, K: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    t = bos + i_t * BT
    t *= H * K  # expect
    tl.store(k + t + tl.arange(0, K), tl.zeros([K], dtype=tl.float32))
""",
        """
@triton.jit
def k(lse, cu_seqlens, stride_h, stride_t, BT: tl.constexpr):
    i_h, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    o_t = tl.arange(0, BT)
    tl.store(lse + i_h * stride_h + bos * stride_t + o_t, tl.zeros([BT], dtype=tl.float32))  # expect


@triton.jit
def k_t(lse, cu_seqlens, stride_h, stride_t, BT: tl.constexpr):
    i_h, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    o_t = tl.arange(0, BT)
    tl.store(lse + i_h * stride_h + bos * stride_t + o_t, tl.zeros([BT], dtype=tl.float32))  # expect


def forward(cu_seqlens, H, T):
    lse = torch.empty((H, T), dtype=torch.float32)
    k[(H, len(cu_seqlens) - 1)](lse, cu_seqlens, lse.stride(0), lse.stride(1), BT=128)
    lse_t = torch.empty((T, H), dtype=torch.float32).t()  # a view: its stride(1) is H
    k_t[(H, len(cu_seqlens) - 1)](lse_t, cu_seqlens, lse_t.stride(0), lse_t.stride(1), BT=128)


def backward(lse, cu_seqlens, H):  # the caller's tensor: its strides are unknown
    k[(H, len(cu_seqlens) - 1)](lse, cu_seqlens, lse.stride(0), lse.stride(1), BT=128)
""",
        # int32 asserted, then the tensor made contiguous (a copy of itself keeps its dtype)
        """
@triton.jit
def k(q, o, cu_seqlens_q, stride_qn, D: tl.constexpr):
    i_b = tl.program_id(0)
    q_start = tl.load(cu_seqlens_q + i_b)
    offs = q_start * stride_qn + tl.arange(0, D)  # expect
    tl.store(o + offs, tl.load(q + offs))


def forward(q, cu_seqlens_q):
    assert cu_seqlens_q.dtype == torch.int32
    cu_seqlens_q = cu_seqlens_q if cu_seqlens_q.is_contiguous() else cu_seqlens_q.contiguous()
    k[(len(cu_seqlens_q) - 1,)](q, torch.empty_like(q), cu_seqlens_q, q.stride(0), D=128)
""",
        # int32 kept by a pad (fla's `prepare_cu_seqlens`), checked by a raising `if`, `torch._assert`
        """
@triton.jit
def k_pad(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(o + (bos * H + i_h) * V + tl.arange(0, V), tl.load(v + i_h))  # expect


@triton.jit
def k_if(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(o + (bos * H + i_h) * V + tl.arange(0, V), tl.load(v + i_h))  # expect


@triton.jit
def k_assert(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(o + (bos * H + i_h) * V + tl.arange(0, V), tl.load(v + i_h))  # expect


def padded(v, o, lens):
    k_pad[(len(lens), 8)](v, o, F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)), H=8, V=128)
    cu_seqlens = torch.nn.functional.pad(lens.cumsum(0, dtype=torch.int32), (1, 0)).contiguous()
    k_pad[(len(lens), 8)](v, o, cu_seqlens, H=8, V=128)


def checked(v, o, cu_seqlens):
    if cu_seqlens.dtype != torch.int32 or not cu_seqlens.is_contiguous():
        raise TypeError("cu_seqlens must be contiguous int32")
    k_if[(len(cu_seqlens) - 1, 8)](v, o, cu_seqlens, H=8, V=128)


def asserted(v, o, cu_seqlens):
    torch._assert(cu_seqlens.dtype == torch.int32, "cu_seqlens must be int32")
    k_assert[(len(cu_seqlens) - 1, 8)](v, o, cu_seqlens, H=8, V=128)
""",
        # loaded without a cast from a tensor every launch passes as int32 (FlashAttention's API)
        """
@triton.jit
def k(q, o, cu_seqlens_q, stride_qn, D: tl.constexpr, BT: tl.constexpr):
    i_b, i_t = tl.program_id(0), tl.program_id(1)
    q_start = tl.load(cu_seqlens_q + i_b)
    q_len = tl.load(cu_seqlens_q + i_b + 1) - q_start
    rows = i_t * BT + tl.arange(0, BT)
    m = rows[:, None] < q_len
    offs = q_start * stride_qn + rows[:, None] * stride_qn + tl.arange(0, D)[None, :]  # expect
    tl.store(o + offs, tl.load(q + offs, mask=m), mask=m)


def forward(q, cu_seqlens_q, max_seqlen):
    assert q.dtype == torch.bfloat16 and cu_seqlens_q.dtype == torch.int32
    o = torch.empty_like(q)
    k[(len(cu_seqlens_q) - 1, triton.cdiv(max_seqlen, 64))](q, o, cu_seqlens_q, q.stride(0), D=128, BT=64)
    return o
""",
        # int32 by conversion, allocation and a caller's conversion, on every launch
        """
@triton.jit
def k(x, cu_seqlens, H: tl.constexpr, D: tl.constexpr, BT: tl.constexpr):
    i_t, i_n = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n)
    t0 = bos + i_t * BT
    tl.store(x + t0 * H * D + tl.arange(0, D), tl.zeros([D], dtype=tl.float32))  # expect


def from_lengths(x, lens):
    cu_seqlens = torch.zeros(len(lens) + 1, dtype=torch.int32, device=x.device)
    cu_seqlens[1:] = torch.cumsum(lens, 0)
    k[(16, len(lens))](x, cu_seqlens, H=8, D=128, BT=64)


def converted(x, cu_seqlens):
    k[(16, len(cu_seqlens) - 1)](x, cu_seqlens.int(), H=8, D=128, BT=64)


def launch(x, cu_seqlens):
    k[(16, len(cu_seqlens) - 1)](x, cu_seqlens, H=8, D=128, BT=64)


def forward(x, cu_seqlens):
    converted(x, cu_seqlens)
    launch(x, cu_seqlens.to(torch.int32))
""",
        # int32 kept through arithmetic with a Python int or another int32 tensor (torch's promotion)
        """
@triton.jit
def k(probs, out, cu_num_draft_tokens, vocab_size, BLOCK: tl.constexpr):
    req = tl.program_id(0)
    start = tl.load(cu_num_draft_tokens + req)
    offs = tl.arange(0, BLOCK)
    p = tl.load(probs + start * vocab_size + offs, mask=offs < vocab_size, other=0.0)  # expect
    first = 0 if req == 0 else tl.load(cu_num_draft_tokens + req - 1)  # the first request starts at 0
    p += tl.load(probs + first * vocab_size + offs, mask=offs < vocab_size, other=0.0)  # expect
    tl.store(out + req, tl.max(p, 0))


def uniform(probs, out):
    batch, spec, vocab = probs.shape  # `spec` is a Python int: int32 times it stays int32
    cu_num_draft_tokens = torch.arange(1, batch + 1, device=probs.device, dtype=torch.int32) * spec
    k[(batch,)](probs, out, cu_num_draft_tokens, vocab, BLOCK=1024)


def exclusive(probs, out, lens, first: int):
    starts = lens.cumsum(0, dtype=torch.int32) - lens.int()  # two int32 tensors
    k[(len(lens),)](probs, out, -(-starts - first), probs.shape[-1], BLOCK=1024)
    k[(len(lens),)](probs, out, starts + torch.zeros(len(lens), dtype=torch.int16), probs.shape[-1], BLOCK=1024)
""",
        # the boundaries loaded through a name bound to an address on them
        """
@triton.jit
def k(q, o, cu_seqlens, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    p_cu = cu_seqlens + i_n
    bos = tl.load(p_cu).to(tl.int32)
    eos = tl.load(p_cu + 1).to(tl.int32)
    o_d = tl.arange(0, D)
    b_q = tl.load(q + (bos * H + i_h) * D + o_d)  # expect
    tl.store(o + (eos * H + i_h) * D - D + o_d, b_q)  # expect
""",
        # int32 on the host spelled without `int32`: `.int()`, `torch.int`
        """
@triton.jit
def k(q, o, cu_seqlens, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(o + (bos * H + i_h) * D + tl.arange(0, D), tl.load(q + i_h))  # expect


def run(q, o, lens):
    H, D = q.shape[-2:]
    k[(len(lens), H)](q, o, lens.cumsum(0).int(), H, D)
    k[(len(lens), H)](q, o, torch.cumsum(lens, 0, dtype=torch.int), H, D)
""",
        # `.type(dtype)` converts like `.to(dtype)`
        """
@triton.jit
def k(q, o, cu_seqlens, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n)
    tl.store(o + (bos * H + i_h) * D + tl.arange(0, D), tl.load(q + i_h))  # expect


def run(q, o, lens):
    H, D = q.shape[-2:]
    k[(len(lens), H)](q, o, lens.cumsum(0).type(torch.int32), H, D)
""",
        # casts and choices written by keyword
        """
@triton.jit
def k(x, o, cu_seqlens, H: tl.constexpr, K: tl.constexpr):
    i_n = tl.program_id(0)
    bos = tl.cast(dtype=tl.int32, input=tl.load(cu_seqlens + i_n))
    start = tl.where(condition=i_n > 0, x=bos, y=0)
    tl.store(o + start * H * K, tl.load(x + bos * H * K))  # expect: ASC008
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        flow = kernel.flow
        int32_tensors = _int32_tensors(kernel, context.host)
        loads_int32 = bool(int32_tensors)
        memo = context.kept("ASC008 sequence offsets", _Memo)
        memo.start()
        offsets = _sequence_offsets(kernel, context.host, memo)
        if not offsets:
            return
        ones = frozenset(p.name for p in kernel.params if context.host.always_passes_one(kernel, p.name))
        seen: set[cst.CSTNode] = set()
        followed: set[Event] = set()  # definitions of names read in addresses, scanned once
        terms = kernel.offset_terms(flow) + _offset_returns(kernel, context.host, memo)
        memo.finish()
        block_returns: dict[cst.BaseExpression, str] | None = None  # returns reaching a block pointer: `_fix`
        for term in terms:
            for product in _int32_products(term, kernel, offsets, ones, followed, loads_int32):
                if product in seen:
                    continue
                seen.add(product)
                if block_returns is None:
                    block_returns = kernel.returned_into(lambda caller: caller.block_offsets(caller.flow))
                reads = [
                    sub
                    for sub in _arithmetic_leaves(product, flow)
                    if isinstance(sub, cst.Name | cst.NamedExpr) and _offset_of(sub, flow, offsets)
                ]
                names = sorted({_named(read) for read in reads})
                sources = sorted({source for read in reads if (source := _offset_of(read, flow, offsets))})
                site = flow.written(product)  # `t *= H` for the `t * H` the flow builds
                shown = [(source, int32_tensors[source]) for source in sources if source in int32_tensors]
                elsewhere = shown[0][1].elsewhere if shown else None
                host = f" (an int32 tensor on every launch: {_shown_where(elsewhere)})" if shown else ""
                yield Report(
                    site,
                    MESSAGE.format(
                        said=_said(reads, flow, offsets, f"loaded from `{'`, `'.join(sources)}` as int32{host}"),
                        product=one_line(site if site is not product else product.with_changes(lpar=(), rpar=())),
                    ),
                    fix=_fix(product, reads, kernel, context, block_returns),
                    facts={"offsets": tuple(names)},
                    related=((shown[0][1].shown_by, f"`{shown[0][0]}` is int32 here"),)
                    if shown and not elsewhere
                    else (),
                )


def _shown_where(elsewhere: str | None) -> str:
    """Where the host shows a tensor int32, for a message: a line of this module (the report
    relates it), or the launch of another module whose evidence it is (no position here)."""
    return "line {related_line}" if elsewhere is None else f"the launch in {elsewhere}"


def _offset_returns(kernel: Kernel, host: HostIndex | None, memo: _Memo) -> list[cst.BaseExpression]:
    """For a device function no launch runs: the values it returns into a caller's offset where
    a product is read as if written there (`v + _off(bos, H, V)`, or `off = _off(...)` then `v +
    off`; or through a helper returning it, `_off` returning `_base(b, H, V) + i_h * V`), by a
    call that counts (`_calls_passing_offsets`): `Kernel.returned_into` the names and calls
    `_int32_products` reaches in the caller's offset terms (`_reaching_offsets`; not
    `_off(...).to(tl.int64) * V`, widened before the stride)."""
    return list(
        kernel.returned_into(
            _reaching_offsets, lambda callee: _calls_passing_offsets(callee, host, memo), memo.returned
        )
    )


def _reaching_offsets(caller: Kernel) -> dict[cst.CSTNode, str]:
    """The names and device function calls whose value the walk of `_int32_products` reaches
    from the offset terms of `caller` (through names, casts widening after a product, clamps and
    sums; not inside a product it stops at), as sinks of `Kernel.returned_into`."""
    found: set[cst.CSTNode] = set()
    for term in caller.offset_terms(caller.flow):
        any(_int32_products(term, caller, {}, frozenset(), set(), False, found))  # no offsets: finds none
    return dict.fromkeys(found, "")


def _calls_passing_offsets(kernel: Kernel, host: HostIndex | None, memo: _Memo) -> Callable[[Kernel, cst.Call], bool]:
    """Which calls of a device function count for its returns (`_offset_returns`): every call
    when some sequence offset of the function is its own (loaded there), else only the calls
    passing a sequence offset, or a boundary load, for a parameter; a call passing `i_h` returns
    no product of an offset, whatever another call passes (`limit = _off(bos, H, V)`)."""
    passing = {
        id(call)
        for caller, call, passed in _calls_passing(kernel)
        if (host is not None and _offsets_passed(caller, passed, host, memo)) or _loads_passed(caller, passed)
    }
    offsets = _sequence_offsets(kernel, host, memo)
    own = any("` in `" not in source for source in offsets.values())
    return lambda caller, call: own or id(call) in passing


def _named(read: cst.Name | cst.NamedExpr) -> str:
    """The name an offset is read or bound as."""
    name = read.target if isinstance(read, cst.NamedExpr) else read
    return name.value if isinstance(name, cst.Name) else ""


def _said(reads: list[cst.Name | cst.NamedExpr], flow: Flow, offsets: dict[Event, str], loaded: str) -> str:
    """What the message says of the offsets a product reads, `loaded` saying where from: each
    read by the name it is loaded as (`` `bos` is loaded from `cu_seqlens` as int32 ``), or by a
    name made from one with the name it was loaded as (`` `t` counts from `bos`, loaded from
    ... `` for the index of `range(bos, eos)`, `` `t0` holds `bos` `` for `t0 = bos + i_t *
    BT`): only the boundary value is loaded, not what is made from it."""
    direct: set[str] = set()
    made: set[str] = set()
    for read in reads:
        name, origin = _named(read), _origin(read, flow, offsets)
        if origin is None:
            direct.add(name)
        else:
            made.add(f"`{name}` {origin[0]} `{origin[1]}`")
    if not made:
        return f"`{'`, `'.join(sorted(direct))}` {'is' if len(direct) == 1 else 'are'} {loaded}"
    derived = ", ".join(sorted(made))
    if not direct:
        return f"{derived}, {loaded}"
    return f"`{'`, `'.join(sorted(direct))}` {'is' if len(direct) == 1 else 'are'} {loaded}, and {derived}"


def _origin(read: cst.Name | cst.NamedExpr, flow: Flow, offsets: dict[Event, str]) -> tuple[str, str] | None:
    """For an offset read by a name made from another offset (`_find_sequence_offsets`): how,
    and the name the offset it is made from is loaded as, following names made from names:
    ("counts from", "bos") for the index of `for t in range(bos, eos)` (`Flow.index_start`),
    ("holds", "bos") for `t0 = bos + i_t * BT` or a clamp or choice of one. None for a name
    bound to the load itself, an offset a device function returns or a call passes, or when
    the chain leads back to the name read only."""
    named = _named(read)
    event = _offset_definition(read, flow, offsets)
    how: str | None = None
    root: str | None = None
    seen: set[Event] = set()
    while event is not None and event not in seen:
        seen.add(event)
        start = event.value if event.value is not None else flow.index_start(event)
        leaves = _sum_leaves(start, flow) if start is not None else iter(())
        carrier = next(
            (
                leaf
                for leaf in leaves
                if isinstance(leaf, cst.Name | cst.NamedExpr) and _offset_of(leaf, flow, offsets) is not None
            ),
            None,
        )
        if carrier is None:
            break
        how = how or ("holds" if event.value is not None else "counts from")
        root = _named(carrier)
        event = _offset_definition(carrier, flow, offsets, seen)
    return (how, root) if how is not None and root is not None and root != named else None


def _offset_definition(
    read: cst.Name | cst.NamedExpr, flow: Flow, offsets: dict[Event, str], seen: Collection[Event] = ()
) -> Event | None:
    """The definition of the offset a name reads (the first reaching it, the one `_offset_of`
    names, but those `seen`: `t += BT` round a loop leads on to `t = bos`) or an assignment
    expression binds."""
    if isinstance(read, cst.NamedExpr):
        return flow.binding(read)
    return next((d for d in flow.reaching(read) if d in offsets and d not in seen), None)


def _fix(
    product: cst.BinaryOperation,
    reads: list[cst.Name | cst.NamedExpr],
    kernel: Kernel,
    context: ModuleContext,
    block_returns: dict[cst.BaseExpression, str],
) -> FixPlan | Declined:
    """Each read of an offset in the product cast to int64; none for an augmented `t *= H`
    (its target cannot be wrapped in a cast), nor when the product's value also reaches a
    block pointer's offset (`row = bos * H + i_h`, then `tl.make_block_ptr(..., (row, 0),
    ...)`), directly or through names and device functions: block pointers take int32 offsets
    only, so the widened kernel would not compile."""
    flow = kernel.flow
    if flow.written(product) is not product:
        return Declined("the offset is multiplied in place (`t *= stride`)")
    bound = next((_named(read) for read in reads if isinstance(read, cst.NamedExpr)), None)
    if bound is not None:
        return Declined(f"the offset is bound by `{bound} := ...` where it is multiplied: cast it there by hand")
    sinks = kernel.block_offsets(flow)
    sinks.update(block_returns.items())  # `_row(bos, ...)`
    reached = flow.value_reaches([product], sinks)
    if reached is not None:
        offset, used = reached
        return Declined(
            f"the product also reaches `{one_line(offset)}`, {used}; block pointers "
            "take int32 offsets only, so the widened kernel would not compile"
        )
    alias = kernel.imports.language_alias
    if alias is None:
        return Declined(NO_LANGUAGE_NAME)
    return FixPlan(
        "safe",
        "Cast the sequence offset to int64 before the stride",
        tuple(Replace(read, f"{alias}.cast({read.value}, {alias}.int64)") for read in reads),
    )


def _is_boundary_pointer(name: str) -> bool:
    """A parameter holding packed-sequence boundaries (cumulative token offsets), named in any
    case, `_ptr` and the side it indexes (`_q`, `_k`, `_kv`: HSTU's `seq_offsets_q`) aside:
    `cu_seqlens` (`input_cu_seqlens`, `cum_seqlens`, `CuSeqlensQ`; not lengths such as
    `cache_seqlens`), `seq_offsets`, `chunk_offsets`, a cumulative sum `cu_*` (`cu_seq_lens`,
    `cu_num_tokens`), vLLM's `query_start_loc` / `seq_start_loc`, lightllm's `B_Start_Loc`, a
    CSR `qo_indptr`, start offsets (`qb_to_qstart`: `cu_seqlens[:-1]` per query block,
    `seq_starts`)."""
    stem = _SIDE_SUFFIX.sub("", name.lower().removesuffix("_ptr"))
    return (
        _CUMULATIVE_LENGTHS.search(stem) is not None
        or stem.endswith(("offsets", "indptr", "start", "starts"))
        or stem.startswith("cu_")
        or "start_loc" in stem
    )


def _int32_tensors(kernel: Kernel, host: HostIndex) -> dict[str, TensorDtype]:
    """The boundary pointer parameters every launch passes as an int32 (or narrower) tensor."""
    return {
        p.name: dtype
        for p in kernel.params
        if _is_boundary_pointer(p.name)
        and (dtype := host.int_dtype_passed(kernel, p.name)) is not None
        and dtype.dtype in NARROW_INTS
    }


@dataclass
class _Memo:
    """`_sequence_offsets` by function and whether the host is read, kept across the checks of a
    module's kernels. What a check works out after coming back to a function still being worked
    out (one calling itself back, read as having none) depends on where it started: it is
    dropped when the check ends (`finish`)."""

    found: dict[tuple[Kernel, bool], dict[Event, str]] = field(default_factory=dict)
    pending: set[tuple[Kernel, bool]] = field(default_factory=set)
    added: list[tuple[Kernel, bool]] = field(default_factory=list)
    cyclic: bool = False
    returned: ReturnedInto = field(default_factory=ReturnedInto)  # `_offset_returns` by function
    returned_before: int = 0  # how many functions `returned` held when the check started

    def start(self) -> None:
        self.added, self.cyclic = [], False
        self.returned.cyclic, self.returned_before = False, len(self.returned.found)

    def finish(self) -> None:
        if self.cyclic or self.returned.cyclic:
            for key in self.added:
                del self.found[key]
            for kernel in list(self.returned.found)[self.returned_before :]:
                del self.returned.found[kernel]


def _sequence_offsets(kernel: Kernel, host: HostIndex | None, memo: _Memo) -> dict[Event, str]:
    """Definitions of int32 sequence offsets -> the boundary pointer they come from: narrowing
    casts of a load from one, loads as they are from a tensor every launch passes as int32
    (`_int32_tensors`, when the `host` is read), an offset a device function returns
    (`_returned_offset`) or its calls pass for a parameter (`_passed_offsets`), and names set to
    one plus or minus int32 terms (not a length `eos - bos` nor a position `i_tg - bos`, which add
    no offset; see `_offsets_added`). Worked out once per function in a module (`memo`): a device
    function called at many definitions, or on a chain of helpers passing an offset down or
    returning one up however long, is read once (a function calling itself back reads none)."""
    key = (kernel, host is None)
    if key in memo.pending:
        memo.cyclic = True
        return {}
    found = memo.found.get(key)
    if found is None:
        memo.pending.add(key)
        try:
            found = memo.found[key] = _find_sequence_offsets(kernel, host, memo)
        finally:
            memo.pending.discard(key)
        memo.added.append(key)
    return found


def _find_sequence_offsets(kernel: Kernel, host: HostIndex | None, memo: _Memo) -> dict[Event, str]:
    flow, params = kernel.flow, {p.name for p in kernel.params}
    definitions = sorted((event for events in flow.defs.values() for event in events), key=lambda e: e.index)
    int32_tensors = _int32_tensors(kernel, host) if host is not None else {}
    found: dict[Event, str] = {}
    loads_int32 = bool(int32_tensors)
    passed = _passed_offsets(kernel, host, memo) if host is not None else {}
    loads_passed = _passed_boundary_loads(kernel) if host is not None else {}
    for event in definitions:
        source = _int32_boundary_load(event.value, flow, params, int32_tensors, loads_passed)
        if source is None:
            source = _returned_offset(event, kernel, memo)
        if source is None and isinstance(event.node, cst.Param) and event.name is not None:
            source = passed.get(event.name)
        if source is not None:
            found[event] = source
    changed = bool(found)  # a derived offset reads one already found
    while changed:  # names derived by + / - (`t0 = bos + i_t * BT`), in program order
        changed = False
        for event in definitions:
            # a `range` loop's index counts on from its start (`for t in range(bos, eos)`: `bos + k`)
            value = event.value or flow.index_start(event)
            if event in found or value is None or not isinstance(event.node, cst.Name | cst.AugAssign):
                continue  # `bos += i_t * BT` sets `bos` to `bos + i_t * BT`
            if _offsets_added(value, flow, found) <= 0 or not _int32_in_some_specialisation(
                value, flow, loads_int32, found
            ):
                continue
            found[event] = next(
                source for leaf in _sum_leaves(value, flow) if (source := _offset_of(leaf, flow, found)) is not None
            )
            changed = True
    return found


def _returned_offset(event: Event, kernel: Kernel, memo: _Memo) -> str | None:
    """The caller's boundary pointer of an int32 sequence offset a device function returns into
    the definition (`bos, T = _seq_start(cu_seqlens, i_n)`, `_seq_start` returning `tl.load(cu_seqlens
    + i_n).to(tl.int32)` first): found in the device function as in a kernel, and passed to it as
    a parameter of the caller."""
    call, target = event.value, event.node
    if not isinstance(call, cst.Call) or not isinstance(target, cst.Name):
        return None
    index = unpacked_index(target, kernel.flow)
    params = {p.name for p in kernel.params}
    for callee in kernel.device_functions_called(call):
        offsets = _sequence_offsets(callee, None, memo)
        names = [p.name for p in callee.params]
        for returned in returned_values(callee.node, index):
            source = _offset_of(returned, callee.flow, offsets)
            # a load returned as it is cast (`return tl.load(cu + i_n).to(tl.int32)`): the
            # boundary is the caller's argument, whatever the function calls its parameter
            loaded = _narrow_load_of(returned, callee, set(names)) if source is None else None
            parameter = source or loaded
            passed = call_argument(call, names.index(parameter), parameter) if parameter in names else None
            root = kernel.flow.pointer_root(passed) if passed is not None else None
            if root is not None and root in params and (source is not None or _is_boundary_pointer(root)):
                return root
    return None


def _narrow_load_of(
    value: cst.BaseExpression, kernel: Kernel, params: set[str], seen: frozenset[Kernel] = frozenset()
) -> str | None:
    """The parameter of `kernel` that `value` loads from and casts to a narrow int (`tl.load(cu +
    i_n).to(tl.int32)`, also a name every definition reaching it sets so: `bos = tl.load(cu +
    i_n).to(tl.int32)`, then `return bos`; or a call of a device function returning one of the
    parameter the call passes it, down any number of helpers, `return _s0(cu, i_n)`), else None."""
    flow = kernel.flow
    if isinstance(value, cst.Name):
        values = [d.value for d in flow.reaching(value)]
        found = {_narrow_load_of(v, kernel, params, seen) if isinstance(v, cst.Call) else None for v in values}
        return found.pop() if len(found) == 1 else None
    if not isinstance(value, cst.Call):
        return None
    parts = flow.cast_parts(value)
    if parts is not None:
        return _loaded_from([parts[0]], flow, params) if flow.is_narrow_int(parts[1]) else None
    roots: set[str | None] = set()
    for callee in kernel.device_functions_called(value):
        names = [p.name for p in callee.params]
        for returned in returned_values(callee.node, None) if callee not in seen else [None]:
            inner = _narrow_load_of(returned, callee, set(names), seen | {callee}) if returned is not None else None
            passed = call_argument(value, names.index(inner), inner) if inner in names else None
            roots.add(flow.pointer_root(passed) if passed is not None else None)
    root = roots.pop() if len(roots) == 1 else None
    return root if root in params else None


def _passed_offsets(kernel: Kernel, host: HostIndex, memo: _Memo) -> dict[str, str]:
    """For a device function no launch runs: its parameters some call in the module passes an
    int32 sequence offset of the caller for (`_offsets_passed`), each with where the offset is
    loaded from."""
    found: dict[str, str] = {}
    for caller, _, passed in _calls_passing(kernel):
        for name, source in _offsets_passed(caller, passed, host, memo).items():
            found.setdefault(name, source)
    return found


def _offsets_passed(
    caller: Kernel, passed: list[tuple[str, cst.BaseExpression]], host: HostIndex, memo: _Memo
) -> dict[str, str]:
    """The parameters one call in `caller` passes an int32 sequence offset of the caller for
    (`_tail(v, o, bos, i_h)`, the caller's `bos` loaded `.to(tl.int32)`; Triton inlines the
    function with that value), each with where the offset is loaded from: "cu_seqlens` in
    `caller" (the message quotes it); `passed` as `_calls_passing` gives it."""
    offsets = _sequence_offsets(caller, host, memo)
    loads_int32 = bool(_int32_tensors(caller, host))
    found: dict[str, str] = {}
    for name, argument in passed:
        if _offsets_added(argument, caller.flow, offsets) > 0 and _int32_in_some_specialisation(
            argument, caller.flow, loads_int32, offsets
        ):
            source = next(
                s for leaf in _sum_leaves(argument, caller.flow) if (s := _offset_of(leaf, caller.flow, offsets))
            )
            found[name] = f"{source}` in `{caller.name}"
    return found


def _passed_boundary_loads(kernel: Kernel) -> dict[str, str]:
    """For a device function no launch runs: its parameters some call in the module passes a
    value loaded from a boundary pointer of the caller for, as loaded (`_loads_passed`)."""
    found: dict[str, str] = {}
    for caller, _, passed in _calls_passing(kernel):
        for name, source in _loads_passed(caller, passed).items():
            found.setdefault(name, source)
    return found


def _loads_passed(caller: Kernel, passed: list[tuple[str, cst.BaseExpression]]) -> dict[str, str]:
    """The parameters one call in `caller` passes a value loaded from a boundary pointer of the
    caller for, as loaded (`_tail(boh, ...)` after `boh = tl.load(chunk_offsets + i_n)`; the
    function casts it), each with where it is loaded from: "chunk_offsets` in `caller"."""
    flow, params = caller.flow, {p.name for p in caller.params}
    found: dict[str, str] = {}
    for name, argument in passed:
        loads = [d.value for d in flow.reaching(argument)] if isinstance(argument, cst.Name) else [argument]
        base = _boundary_loaded(loads, flow, params)
        if base is not None:
            found[name] = f"{base}` in `{caller.name}"
    return found


def _calls_passing(kernel: Kernel) -> Iterator[tuple[Kernel, cst.Call, list[tuple[str, cst.BaseExpression]]]]:
    """For a device function no launch runs: each call in the module's jit functions (but
    those with a splat), as its caller, the call and what it passes for each parameter it passes."""
    if not kernel.passed_flags:
        return
    for caller, call in kernel.calls_in_module():
        if not any(arg.star for arg in call.args):
            arguments = [(p.name, call_argument(call, i, p.name)) for i, p in enumerate(kernel.params)]
            yield caller, call, [(name, argument) for name, argument in arguments if argument is not None]


def _boundary_loaded(values: Sequence[cst.BaseExpression | None], flow: Flow, params: set[str]) -> str | None:
    """The boundary pointer parameter all `values` are loads from (`tl.load(cu_seqlens + ...)`),
    else None."""
    base = _loaded_from(values, flow, params)
    return base if base is not None and _is_boundary_pointer(base) else None


def _loaded_from(values: Sequence[cst.BaseExpression | None], flow: Flow, params: set[str]) -> str | None:
    """The parameter all `values` are loads from (`tl.load(cu + ...)`), else None."""
    bases = {
        flow.pointer_root(pointer_arg(value))
        if isinstance(value, cst.Call) and flow.imports.is_tl(value.func, "load")
        else None
        for value in values
    }
    base = bases.pop() if len(bases) == 1 else None
    return base if base in params else None


def _offsets_added(node: cst.BaseExpression, flow: Flow, offsets: dict[Event, str]) -> int:
    """How many sequence offsets the sum `node` adds, less those it subtracts (`bos + i_t * BT`:
    one; the length `eos - bos`: none); a clamp or a broadcast counts as its operand adding most,
    a division into chunks as its dividend (`_chunk_of`), a remainder as none (`Flow.is_remainder`:
    `t - (t // P) * P`, a position inside a page)."""
    if flow.is_remainder(node):
        return 0
    chunk = _chunk_of(node, flow)
    if chunk is not None:
        return _offsets_added(chunk[0], flow, offsets)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ARITHMETIC):
        right = _offsets_added(node.right, flow, offsets)
        return _offsets_added(node.left, flow, offsets) + (right if isinstance(node.operator, cst.Add) else -right)
    kept = flow.value_kept_from(node)
    if kept:
        return max(_offsets_added(operand, flow, offsets) for operand in kept)
    return 1 if _offset_of(node, flow, offsets) is not None else 0


def _offsets_scaled(node: cst.BaseExpression, flow: Flow, offsets: dict[Event, str]) -> int:
    """How many sequence offsets the `+` / `-` / `*` tree `node` holds, less those it subtracts,
    a product holding its factors' (`(bos * H + i_h) * K`: one): a tree holding none scales a
    length or a position, not an offset (`(t - bos) * HV` with `t` counting from `bos`,
    `(eos - bos) * K`), as it does written through a name (`p = t - bos`, then `p * HV`:
    `_offsets_added`). An assignment expression binding an offset is one; a clamp or a
    broadcast counts as its operand holding most, a division into chunks as its dividend (`_chunk_of`),
    a remainder as none (`Flow.is_remainder`)."""
    if flow.is_remainder(node):
        return 0
    chunk = _chunk_of(node, flow)
    if chunk is not None:
        return _offsets_scaled(chunk[0], flow, offsets)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (*_ARITHMETIC, *MULTIPLYING)):
        right = _offsets_scaled(node.right, flow, offsets)
        left = _offsets_scaled(node.left, flow, offsets)
        return left - right if isinstance(node.operator, cst.Subtract) else left + right
    if _offset_of(node, flow, offsets) is not None:  # a name, or `(bos := ...)` binding one
        return 1
    kept = flow.value_kept_from(node)
    return max((_offsets_scaled(operand, flow, offsets) for operand in kept), default=0)


def _int32_boundary_load(
    value: cst.BaseExpression | None,
    flow: Flow,
    params: set[str],
    int32_tensors: Collection[str],
    loads_passed: Mapping[str, str] | None = None,
) -> str | None:
    """The boundary parameter of `tl.load(cu_seqlens + ...).to(tl.int32)` (or `tl.cast`, also of a
    name bound only to such loads, cast on its own line, or of a parameter of `loads_passed`,
    loaded by a caller: then where, `_passed_boundary_loads`), or of
    `tl.load(cu_seqlens + ...)` when `cu_seqlens` is one of `int32_tensors`, also as an arm of a
    conditional (`Flow.arms`: `0 if i == 0 else tl.load(cu + i - 1)`, `tl.load(cu +
    i_n).to(tl.int32) if IS_VARLEN else i_n * T`), also behind compiler hints, which return their
    argument (`tl.multiple_of(tl.load(cu_seqlens + i_n).to(tl.int32), 16)`: `Flow.unhinted`), else None."""
    value = flow.unhinted(value)
    if isinstance(value, cst.IfExp):
        sources = (_int32_boundary_load(arm, flow, params, int32_tensors, loads_passed) for arm in flow.arms(value))
        return next((source for source in sources if source is not None), None)
    if not isinstance(value, cst.Call) or not value.args:
        return None
    func, imports = value.func, flow.imports
    if imports.is_tl(func, "load"):
        base = flow.pointer_root(pointer_arg(value))
        return base if base in params and base in int32_tensors else None
    parts = flow.cast_parts(value)
    if parts is None:
        return None
    loaded, dtype = parts
    # the load written in the cast, or every value of a name cast on a line of its own (`bos =
    # tl.load(cu_seqlens + i_n)`, then `bos = bos.to(tl.int32)`)
    reaching = flow.reaching(loaded) if isinstance(loaded, cst.Name) else []
    callers = {(loads_passed or {}).get(d.name or "") if isinstance(d.node, cst.Param) else None for d in reaching}
    caller = callers.pop() if len(callers) == 1 else None
    if caller is not None and flow.is_narrow_int(dtype):
        return caller
    loads = [d.value for d in reaching] if isinstance(loaded, cst.Name) else [loaded]
    return _boundary_loaded(loads, flow, params) if flow.is_narrow_int(dtype) else None


def _offset_of(node: cst.CSTNode, flow: Flow, offsets: dict[Event, str]) -> str | None:
    """The boundary pointer of an int32 sequence offset `node` reads, or binds (`(bos :=
    tl.load(cu_seqlens + i_n).to(tl.int32))`), if it reads or binds one."""
    if isinstance(node, cst.NamedExpr):
        binding = flow.binding(node)
        return offsets.get(binding) if binding is not None else None
    if not isinstance(node, cst.Name):
        return None
    return next((offsets[d] for d in flow.reaching(node) if d in offsets), None)


def _int32_products(
    term: cst.BaseExpression,
    kernel: Kernel,
    offsets: dict[Event, str],
    ones: frozenset[str],
    followed: set[Event],
    loads_int32: bool,
    reached: set[cst.CSTNode] | None = None,
) -> Iterator[cst.BinaryOperation]:
    """The outermost int32 multiplies in `term` with a sequence offset among their factors, also
    inside an int64 cast made after them (see `_widened_after_multiply`), a broadcast or a clamp
    (`Flow.value_kept_from`), and the definitions reaching a name `term` reads (`offs = bos * D +
    o_d`, then `p + offs`; each definition once, so a product is found at its one site). The
    names and device function calls the walk reaches are added to `reached` (`_offset_returns`)."""
    flow = kernel.flow
    if reached is not None and (
        isinstance(term, cst.Name) or (isinstance(term, cst.Call) and kernel.device_functions_called(term))
    ):
        reached.add(term)
    if isinstance(term, cst.Name):
        for definition in flow.reaching(term):
            if definition.value is not None and definition not in followed:
                followed.add(definition)
                yield from _int32_products(definition.value, kernel, offsets, ones, followed, loads_int32, reached)
        return
    kept = flow.value_kept_from(term)
    if kept:
        for operand in kept:
            yield from _int32_products(operand, kernel, offsets, ones, followed, loads_int32, reached)
        return
    if isinstance(term, cst.Call):
        widened = _widened_after_multiply(term, kernel)
        if widened is not None:
            receiver, asc002_reports = widened
            for product in _int32_products(receiver, kernel, offsets, ones, followed, loads_int32, reached):
                if not (asc002_reports and _offset_is_index_somewhere(product, term, kernel, offsets)):
                    yield product
        return
    if not isinstance(term, cst.BinaryOperation):
        return
    if isinstance(term.operator, MULTIPLYING) and _is_chunk_start(term, flow):
        for factor in _chain(term):  # no larger than the offset, nor a product of some of its factors
            yield from _int32_products(factor, kernel, offsets, ones, followed, loads_int32, reached)
        return
    if (
        isinstance(term.operator, MULTIPLYING)
        and _int32_in_some_specialisation(term, flow, loads_int32, offsets)
        and _offsets_scaled(term, flow, offsets) > 0
        and _scales(term, flow, ones)
    ):
        yield term
        return
    if isinstance(term.operator, (*_ARITHMETIC, *MULTIPLYING)):
        yield from _int32_products(term.left, kernel, offsets, ones, followed, loads_int32, reached)
        yield from _int32_products(term.right, kernel, offsets, ones, followed, loads_int32, reached)


def _widened_after_multiply(cast: cst.Call, kernel: Kernel) -> tuple[cst.BaseExpression, bool] | None:
    """The receiver of an int64 cast of a whole offset (`((bos * H + i_h) * V).to(tl.int64)`:
    its products are made in int32 and wrap before the cast), else None: not when the cast's
    result is scaled again (`(bos * HV + i_hv).to(tl.int64) * V` widens before the large
    stride). With it, whether the receiver multiplies a program id or loop index in some
    specialisation (also through the device functions the kernel calls: `Kernel.at_call`, as
    ASC002 reads it): ASC002 reports that cast (`_offset_is_index_somewhere` tells which of its
    products are left to this rule)."""
    flow = kernel.flow
    parts = flow.cast_parts(cast)
    if parts is None or not flow.is_wide_int(parts[1]) or flow.scaled_after(cast):
        return None
    read, copy = kernel.at_call(cast)
    return parts[0], any(multiply is not None for multiply in read.index_multiplies_widened(copy).values())


def _offset_is_index_somewhere(
    product: cst.BaseExpression, cast: cst.Call, kernel: Kernel, offsets: dict[Event, str]
) -> bool:
    """An offset the product reads is a program id or loop index, not a load, in some
    specialisation (`bos` of `else: bos = i_n * T`), read as ASC002 reads the cast
    (`Kernel.at_call`: through the device functions the kernel calls): ASC002's finding, whose
    fix casts that offset too. Not an offset loaded in every specialisation beside an index
    (`(bos * H + pid * T) * V`, `(bos * H + i_h) * V + pid * T`): ASC002's fix casts `pid` and
    leaves `bos * H` to wrap."""
    flow = kernel.flow
    read, copy = kernel.at_call(cast)
    for leaf in _arithmetic_leaves(product, flow):
        if isinstance(leaf, cst.Name | cst.NamedExpr) and _offset_of(leaf, flow, offsets):
            seen = kernel.inlined.copy_of(leaf) if copy is not cast else None
            node = seen if isinstance(seen, cst.BaseExpression) else leaf
            if any(flags & INDEX and not flags & LOADED for flags, _ in read.variants(node)):
                return True
    return False


def _int32_in_some_specialisation(
    node: cst.BaseExpression, flow: Flow, loads_int32: bool, offsets: dict[Event, str]
) -> bool:
    """In some specialisation, `node` holds an int32 loaded value and no int64 operand: a load
    cast to int32, or (`loads_int32`: the kernel reads boundaries every launch passes as an
    int32 tensor) a load as it is, or an offset a device function returns (`_returned_offset`:
    the flow sees a call's value) or a call passes for a parameter (`_passed_offsets`: the
    caller's value was so), or the index of a `range` loop starting at an offset (its width is
    its bounds'), or a value made of one of these (`_width_unseen`)."""
    returned = _width_unseen(node, flow, offsets, _arithmetic_leaves)
    return any(
        not flags & WIDE and (returned or (flags & LOADED and (flags & NARROW or loads_int32)))
        for flags, _ in flow.variants(node)
    )


def _width_unseen(
    node: cst.BaseExpression,
    flow: Flow,
    offsets: dict[Event, str],
    leaves: Callable[[cst.BaseExpression, Flow], Iterator[cst.BaseExpression]],
    seen: frozenset[Event] = frozenset(),
) -> bool:
    """A name among `node`'s `leaves` reads an offset whose int32 width the flow does not see: a
    parameter a call passes an offset for, a loop index counting from one, a call's value (an
    offset a device function returns: `bos = _seq_start(cu_seqlens, i_n)`), or a name set to
    such an offset plus other terms or copied (`t0 = bos + i_t * BT`, `row = bos`)."""
    for leaf in leaves(node, flow):
        if not isinstance(leaf, cst.Name):
            continue
        for definition in flow.reaching(leaf):
            value = definition.value
            if definition not in offsets or definition in seen:
                continue
            if value is None or (isinstance(value, cst.Call) and _int32_boundary_load(value, flow, set(), ()) is None):
                return True
            if _width_unseen(value, flow, offsets, _sum_leaves, seen | {definition}):
                return True
    return False


def _scales(product: cst.BinaryOperation, flow: Flow, ones: frozenset[str]) -> bool:
    """No factor is the constant 0 or 1, nor a parameter of `ones` (every launch passes it 1)
    read as passed: those cannot wrap."""
    shifted = isinstance(product.operator, cst.LeftShift)  # `i << 0` multiplies by 1
    factors = (product.left, _power_of_two(product.right, flow) if shifted else product.right)
    return not any(
        _constant(size, flow) in (0, 1) or (isinstance(size, cst.Name) and _is_parameter_of(size, ones, flow))
        for size in factors
    )


def _chain(product: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of a chain of multiplies (`i_c`, `2`, `BT` of `i_c * 2 * BT`, parsed
    `(i_c * 2) * BT`), the shifted operand and the shift of `i_c << 6`."""
    if isinstance(product, cst.BinaryOperation) and isinstance(product.operator, cst.Multiply):
        return _chain(product.left) + _chain(product.right)
    if isinstance(product, cst.BinaryOperation) and isinstance(product.operator, cst.LeftShift):
        return [product.left, product.right]
    return [product]


def _is_chunk_start(product: cst.BinaryOperation, flow: Flow) -> bool:
    """The product rounds an offset down to its chunk: a chunk index times its own divisor
    (`i_c * chunk_size` for `i_c = (eos - 1) // chunk_size`, `i_c * 2 * BT` or `i_c * (BT * 2)`
    for `i_c = bos // (2 * BT)`, `i_c << 6` for `i_c = eos >> 6`), no larger than the offset.
    Compared as products of the values read where each is read (`Terms.at`): `C` after `C = BT`
    is `BT`, and `C` rebound between the division and the product is another value. An index a
    name holds divides by that divisor on every path reaching the product."""
    terms = Terms(flow)
    try:
        if isinstance(product.operator, cst.LeftShift):
            scale = _power_of_two(product.right, flow)
            if scale is None:
                return False
            whole, indices = scaled(terms.at(product.left), scale), [product.left]
        else:
            whole, indices = terms.at(product), _chain(product)
        for index in indices:
            divisors = _divisors(index, flow)
            if divisors and all(
                divisor is not None and whole == multiplied(terms.at(index), _as_sum(divisor, terms))
                for divisor in divisors
            ):
                return True
    except TooComplex:
        pass
    return False


def _divisors(index: cst.BaseExpression, flow: Flow, spec: Assumptions | None = None) -> list[_Divisor] | None:
    """The divisor of each path when `index` is a division into chunks (`x // BT`, `tl.cdiv(x,
    BT)`, `x >> 6`: `_chunk_of`), a conditional expression choosing such divisions, or a name
    every definition reaching it so binds; else None. Paths and arms are those of `spec`, the
    specialisations compiling a read of an index name (`Flow.decided_arms`): under `if WIDE:`,
    `j = bos // BT if WIDE else bos // (2 * BT)` divides by `BT`, as the same choice written as
    an `if` statement does."""
    if isinstance(index, cst.Name):
        read = flow.read_events.get(index)
        if spec is None and read is not None:
            spec = flow.decided_arms(read)
        values = flow.values_reaching(index, spec)
    elif isinstance(index, cst.IfExp):
        values = list(flow.arms(index, spec))
    else:
        chunk = _chunk_of(index, flow)
        return None if chunk is None else [chunk[1]]
    found: list[_Divisor] = []
    for value in values:
        inner = None if value is None else _divisors(value, flow, spec)
        if inner is None:
            return None
        found += inner
    return found or None


def _as_sum(divisor: cst.BaseExpression | int, terms: Terms) -> Sum:
    return {(): divisor} if isinstance(divisor, int) else terms.at(divisor)


def _constant(value: _Divisor, flow: Flow) -> int | None:
    """The int a factor or divisor is known to be, else None."""
    return flow.constant_int(value) if isinstance(value, cst.BaseExpression) else value


def _is_parameter_of(name: cst.Name, params: frozenset[str], flow: Flow) -> bool:
    """Every definition reaching the read is the kernel's parameter, one of `params`."""
    reaching = flow.reaching(name)
    return bool(reaching) and all(
        isinstance(definition.node, cst.Param) and definition.name in params for definition in reaching
    )


def _sum_leaves(node: cst.BaseExpression, flow: Flow) -> Iterator[cst.BaseExpression]:
    """The terms of a `+` / `-` chain, looking through broadcasts and clamps
    (`tl.maximum(q_start, tl.minimum(q_start + i, q_end - 1))`: `q_start`, `i`...)."""
    yield from _leaves(node, flow, _ARITHMETIC)


def _arithmetic_leaves(node: cst.BaseExpression, flow: Flow) -> Iterator[cst.BaseExpression]:
    """The operands of a `+` / `-` / `*` tree, looking through broadcasts and clamps
    (`rows[:, None] * D`: `rows`, `D`); other calls and casts are leaves."""
    yield from _leaves(node, flow, (*_ARITHMETIC, *MULTIPLYING))


def _leaves(
    node: cst.BaseExpression, flow: Flow, operators: tuple[type[cst.BaseBinaryOp], ...]
) -> Iterator[cst.BaseExpression]:
    """The operands of a tree of `operators`, broadcasts and clamps; an assignment expression
    (`(bos := ...)`) is one, as the name it binds would be; a division into chunks gives its dividend's
    (`_chunk_of`)."""
    if isinstance(node, cst.NamedExpr):
        yield node
        return
    chunk = _chunk_of(node, flow)
    if chunk is not None:
        yield from _leaves(chunk[0], flow, operators)
        return
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, operators):
        yield from _leaves(node.left, flow, operators)
        yield from _leaves(node.right, flow, operators)
        return
    kept = flow.value_kept_from(node)
    if not kept:
        yield node
    for operand in kept:
        yield from _leaves(operand, flow, operators)


def _chunk_of(node: cst.BaseExpression, flow: Flow) -> tuple[cst.BaseExpression, _Divisor] | None:
    """The dividend and divisor of a division into chunks, else None: a floor division (`(eos -
    1) // chunk_size`), one rounding up (`tl.cdiv(eos, chunk_size)`, `ceiling_division`) or a
    right shift (`(eos - 1) >> 6`, by 64; by an unknown divisor, None, when the shift is no
    constant). The index of the chunk an offset falls in is an offset counted in chunks, as
    large as the offset once it is scaled back (`i_c * chunk_size * stride`) and cancelled by it
    (`eos - i_c * chunk_size`)."""
    ceiling = ceiling_division(node)
    if ceiling is not None:
        return ceiling
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.FloorDivide):
        return node.left, node.right
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.RightShift):
        return node.left, _power_of_two(node.right, flow)
    return None


def _power_of_two(shift: cst.BaseExpression, flow: Flow) -> int | None:
    """What a shift by `shift` multiplies or divides by, else None (no constant, or past the int)."""
    bits = flow.constant_int(shift)
    return 1 << bits if bits is not None and 0 <= bits < _INT_BITS else None


_Divisor = cst.BaseExpression | int | None  # an expression, the power of two a shift divides by, or unknown
_INT_BITS = 64  # a shift by this or more leaves no chunks
