"""
## What it does
Flags a load that reads a per-head tensor `g` of shape `[B, T, HV]` along `T`, `HV` elements
apart, with `HV` a parameter named like a head count (`H`, `HV`, `num_heads`): a scalar load
the time loop advances by the head count (`p_g += HV`, `tl.load(g + i_hv + HV * i_t)`), a
block pointer whose innermost stride is it (`tl.make_block_ptr(g + bos * H + i_h, (T,), (H,),
...)`), or a vector of `T` offsets times it (`tl.load(g + (bos + o_t) * H + i_h)`). Part of
the `perf` group.

Not flagged: blocks contiguous innermost (`(T, K), (H * K, 1)`), the `G_T_CONTIG` split
(`if G_T_CONTIG: p_g += 1 else: p_g += HV`), other stride expressions, loops over blocks.

## Why is this bad?
Each step reads one element from a different burst of memory, and the vector unit waits on
the DMA for every time step; the kernel guidance measures such strided gate loads 10–35x
slower than a contiguous one on Ascend. This is performance advice only, with no
compile-time evidence (`confirm` cannot decide it).

## Example
```python
p_g = g + bos * HV + i_hv
for _ in range(0, T):
    b_g = tl.load(p_g).to(tl.float32)
    ...
    p_g += HV
```

## Use instead
Transpose the gate on the host to `[B, HV, T]` (`g.transpose(1, 2).contiguous()`) and read it
with stride 1 — per step, or one block of `BT` steps at a time:
```python
p_g = g_t + (i_b * HV + i_hv) * T
for i_t in range(0, T):
    b_g = tl.load(p_g + i_t).to(tl.float32)
```

## Fix safety
No automatic fix: the layout change spans the host wrapper and the kernel.

## Details
### Loads, loops and strides recognised
Flags, inside a runtime loop (a recurrence over time steps), a scalar `tl.load(p)` of a
pointer that the same loop advances by a head count: `p_g += HV` (or `p_g = p_g + HV`, also
under a compiler hint: `p_g = tl.multiple_of(p_g + HV, 1)`), or of an address adding once an
integer offset the loop so advances (`o_g += HV`, loaded as `tl.load(g + o_g)` or through
`p_g = g + o_g` bound in the loop; also in a time loop inside a task loop), or an
address that holds the head count times the loop's own index, stepping by one either way
(`tl.load(g + bos * HV + i_hv + HV * i_t)` in `for i_t in range(0, T)`, in a reverse loop
`range(T - 1, -1, -1)`, in `tl.static_range(0, T)` or in a `while i_t < T:` loop advancing
`i_t` by one once per trip, written in the load or in the names the loop binds it from: the
pointer's definitions, an offset `o_g = (bos + i_t) * HV + i_hv` loaded as `g + o_g`, an index
`t = i_t`, or a walrus in the load: `tl.load(g + (t := bos + i_t) * HV + i_hv)`),
with `HV` a kernel parameter named like a head count (`H`, `HV`, `H_V`, `HQ`, `HK`, `NH`, `heads`,
`num_heads`, `NUM_HEADS`, `n_heads`, `nheads`, `n_head`, `num_kv_heads`, `num_v_heads`,
`NUM_HEADS_V`: in any case but `H`'s, a `head(s)` word with an optional `num`/`n` and q, k, v or
kv qualifier; not a head's size, `HD`, `head_dim`, `HEAD_SIZE`, `head_stride`), or a constexpr the body binds so (`HV: tl.constexpr = 16`). The step may carry a sign (`p_g -= HV`,
`p_g += (-1 if REVERSE else 1) * HV`: `HV` apart either way) or be held in a name every
assignment of which binds it to the head count (`stride_beta = HV`). That is the per-head gate `g` of shape
`[B, T, HV]` read along `T`: one element per step, `HV` elements apart. Part of the `perf`
group.

### Device functions
A `@triton.jit` device function is read as Triton inlines it into the kernel:
- a pointer it computes (`p_g, p_o = _pointers(g, o, bos, i_hv, HV)`) is read through it, and
  so is an advance it makes (`p_g = _adv(p_g, HV)` with `_adv` returning `p + d`: the same
  `p_g += HV`, as ASC006 reads it);
- a load it makes that steps along `T` with the kernel's loop (`b_g = _gate(g, bos, i_t, i_hv,
  HV)` in `for i_t in range(0, T)`, `_gate` loading `g + (bos + i_t) * HV + i_hv`; or
  `_load(p_g)` with the loop advancing `p_g += HV`) is reported at the kernel's call, the
  function's load its related location (none for a function of another module);
- a loop the device function runs itself is reported there, once, not at its callers.

### The `G_T_CONTIG` split
Each specialisation compiles one arm of a constexpr `if`, so a load counts only the advances
on its own path: in `if G_T_CONTIG: b_g = tl.load(p_g); p_g += 1 else: b_g = tl.load(p_g);
p_g += HV` the first load steps by 1. A conditional expression on a constexpr in the step is
read the same way, one arm per specialisation: `p_beta += HV * (V if IS_BETA_HEADWISE else 1)`
is `if IS_BETA_HEADWISE: p_beta += HV * V else: p_beta += HV`, and `p_g += 1 if G_T_CONTIG
else HV` is the split below. So is a step name: its one binding holding the choice (`step =
HV * (V if IS_BETA_HEADWISE else 1)`, then `p_beta += step`), or one binding per arm of a
constexpr `if` (`if IS_BETA_HEADWISE: step = HV * V else: step = HV`, or `step = HV` before
`if IS_BETA_HEADWISE: step = HV * V`, its other arm), and so are the names it reads, up to four
names deep (`width = V if IS_BETA_HEADWISE else 1`, then `step = HV * width` or `p_beta += HV
* width`; `width` bound in the arms of an `if`). The message names the
specialisations that stride when the load's own `if`s do not: "(when `IS_BETA_HEADWISE` is
false)". The fix already applied, its strided arm the fallback the host
picks for `HV == 1`, is not flagged:
- an advance by the head count in an arm whose other arm steps the same pointer by one (`if
  G_T_CONTIG: p_g += 1 else: p_g += HV`, the load before or in the arms); the step by one is
  that arm's own: in `if A: (if G_T_CONTIG: p_g += 1 else: p_g += HV) else: p_g += HV` the
  outer `else` strides in every specialisation with `A` false, and is flagged;
- a load in an arm whose other arm reads the same tensor one element per step (`if G_T_CONTIG:
  tl.load(g + i_bh * T + i_t) else: tl.load(g + (bos + i_t) * HV + i_hv)`, or a pointer of its
  own stepped by one).

Still flagged: a step chosen by a runtime `if` (one kernel takes both), and an arm whose other
arm is another layout (`p_beta += HV * V` for a head-wise beta, `p_beta += HV` for a scalar
one) or strided too.

### Chunks of `T` (block pointers and vectors)
Anywhere in the kernel, in a loop or not, a `tl.load` of a chunk of `g` along `T` with a head
count as its step is flagged, on the load (where the time goes; the related location is the
stride):
- a `tl.make_block_ptr` whose last stride is the head count, up to its sign or through a name
  bound to it (`(T,), (H,)`; the strides written in the call or bound to a name before it,
  `strides = (H,)`, one tuple per arm of an `if` binding it), reaching the load directly,
  through names or `tl.advance` (`p.advance`), or from a device function Triton inlines; none of its strides may be `1` (`(T, K), (H * K, 1)`
  and `(BT, T), (1, H)` are contiguous in a dimension), and when any block pointer reaching
  the load has stride `1` none is flagged: `if G_T_CONTIG: ... (T,), (1,) ... else: ... (T,),
  (HV,)` is the fix already applied, its other arm the fallback for `HV == 1`;
- a vector address every vector term of which is a `tl.arange` vector (`o_t = i_t * BT +
  tl.arange(0, BT)`, `o_t[:, None]`) times the head count (`g + (bos + o_t) * H + i_h`,
  `beta + bos * HV + i_hv + o_t * HV`), written in the load or in every definition reaching
  it; a walrus there is the value it binds (`g + bos * H + i_h + (o_t := i_t * BT +
  tl.arange(0, BT)) * H`, `tl.load(p := g + ...)`). A vector term without the head count (`+ o_k[None, :]`, contiguous), a product with
  more factors (`o_t * H * K`) and a scalar computed at run time (`tl.minimum(...) * H`) are
  not flagged;
- nor is a load in an arm of a constexpr `if` whose other arm loads the same tensor without a
  head-count stride: `if BETA_T_CONTIG: tl.load(beta_ptr + o_t) else: tl.load(beta + ... + o_t
  * HV)` is the fix applied, the strided arm the fallback the host picks for `HV == 1`.

### Not flagged
It is a heuristic, and precise on purpose: strides written as other expressions
(`HV * K`, `tl.minimum(...) * HV`, a step chosen at run time between `HV` and another),
names that do not say "heads", vector loads contiguous in their last dimension
(`tl.load(p_v + o_v)`), loops run a literal number
of times (`tl.static_range(4)`, `tl.range(4)`) and loops over blocks (`range(0, T, BS)`: a scalar per block beside
the block's own work) are not flagged, nor is a load in a loop nested in the time loop whose
own index (or advance) steps the address by one (`for i_t in range(0, T):` then `for i_h in
range(0, HV): tl.load(g + i_t * HV + i_h)`, also `tl.static_range(0, HV)`): consecutive loads
read consecutive elements, the heads of one step and then the next step's; a layout the host
already transposed is invisible to it (then the stride is 1 and nothing is reported).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import libcst as cst

from ascend_lint.flow import (
    DEF,
    TENSOR,
    Arms,
    Assumptions,
    Event,
    Flow,
    Loop,
    call_argument,
    pointer_arg,
    range_bounds,
    while_index,
)
from ascend_lint.imports import int_literal
from ascend_lint.nodes import one_line, walk
from ascend_lint.prefilter import Words
from ascend_lint.rule import Kernel, ModuleContext, Report, Rule
from ascend_lint.terms import Sum, Terms, TooComplex, added, multiplied, scaled

MESSAGE = (
    "strided load along T: `{pointer}` advances by `{stride}` elements per step of the loop{when}, so each step loads "
    "one element {stride} apart; transpose it on the host to [B, {stride}, T] and load with stride 1"
)
Reading = tuple[Sum, cst.CSTNode | None]  # an address as a sum, with the definition it was read through
MAX_SUMS = 16  # the values an address may take through the names a loop binds it from
_COMBINE = {
    cst.Add: added,
    cst.Subtract: lambda a, b: added(a, scaled(b, -1)),
    cst.Multiply: multiplied,
}
HELPER_MESSAGE = (
    "strided load along T in device function `{helper}`, called once per step of the loop (Triton inlines it): "
    "`{pointer}` advances by `{stride}` elements per step{when}, so each step loads one element {stride} apart; "
    "transpose it on the host to [B, {stride}, T] and load with stride 1"
)
CHUNK_MESSAGE = (
    "strided load of `{gate}` along T: {how}, so its elements lie `{stride}` apart, each in a different burst; "
    "transpose `{gate}` on the host to [B, {stride}, T] (`.transpose(1, 2).contiguous()`) and load it with "
    "stride 1"
)
# a head count's name, in any case but `H`'s (`h` is a state): `H`, `HV` / `H_V` / `Hk` (qualified by the
# heads it counts: q, k, v, kv), `NH` / `NHV`, `heads` / `kv_heads`, or a count of them (`num_heads`,
# `N_HEADS`, `nheads`, `num_head`, `n_head`, `num_kv_heads`, `num_v_heads`, `NUM_HEADS_V`); not a
# head's size (`HD`, `head_dim`, `HEAD_SIZE`, `head_stride`)
_QKV = r"(?:q|k|v|kv)"
_HEAD_COUNT_PATTERN = (
    rf"H|(?i:n_?h(?:_?{_QKV})?|h_?{_QKV}|(?:num_?|n_?){_QKV}?_?heads?(?:_?{_QKV})?|{_QKV}?_?heads(?:_?{_QKV})?)"
)
HEAD_COUNT = re.compile(rf"(?:{_HEAD_COUNT_PATTERN})\Z")
_HEAD_COUNT_WORD = re.compile(rf"\b(?:{_HEAD_COUNT_PATTERN})\b")


class StridedGateLoad(Rule):
    CODE = "ASC011"
    NAME = "strided-gate-load"
    SUMMARY = "A load stepping along T by a head count (`[B, T, HV]` gate read `HV` apart)"
    NO_FIX = "the layout change spans the host wrapper and the kernel"
    NO_CONFIRM = (
        "performance advice: the strided load reads the right values, only slower, so no replay fails or differs"
    )
    GROUP = "perf"

    VALID = (
        """
@triton.jit
def k(q, g, g_t, o, T, HV: tl.constexpr, K: tl.constexpr, BK: tl.constexpr):
    i_nh = tl.program_id(0)
    o_k = tl.arange(0, BK)
    p_q = q + i_nh * K + o_k
    p_g = g_t + i_nh * T
    p_w = g + i_nh
    for _ in range(0, T):
        b_q = tl.load(p_q)
        b_g = tl.load(p_g)
        tl.store(o + i_nh, tl.sum(b_q) * b_g)
        p_q += HV * K
        p_g += 1
    for _ in tl.static_range(0, 4):
        b_w = tl.load(p_w)
        p_w += HV
    for i_w in tl.range(4):  # the same four steps as a loop
        b_w = tl.load(g + i_nh + i_w * HV)
    for i_s in range(0, T, 64):
        b_w = tl.load(g + i_s * HV)
    for i_t in range(0, T):
        b_q = tl.load(q + i_t * HV * K + o_k)
    if T > 16:  # a step chosen at run time: one kernel takes both
        step = HV
    else:
        step = HV * K
    p_s = g + i_nh
    for _ in range(0, T):
        b_s = tl.load(p_s)
        p_s += step
""",
        # the `G_T_CONTIG` split written as a conditional expression: stride 1 when the host transposed
        """
@triton.jit
def k(g, o, T, HV: tl.constexpr, G_T_CONTIG: tl.constexpr):
    i_hv = tl.program_id(0)
    p_g = g + (i_hv * T if G_T_CONTIG else i_hv)
    for _ in range(0, T):
        tl.store(o + i_hv, tl.load(p_g))
        p_g += 1 if G_T_CONTIG else HV
""",
        # a chunk of T: contiguous innermost (`(T, K), (H * K, 1)`), the G_T_CONTIG arm (stride 1,
        # its fallback `(HV,)` only for `HV == 1`), a vector of `K` offsets, a scalar at a run-time index
        """
@triton.jit
def k(g, k, o, T, H: tl.constexpr, HV: tl.constexpr, K: tl.constexpr, BT: tl.constexpr, G_T_CONTIG: tl.constexpr):
    i_t, i_h = tl.program_id(0), tl.program_id(1)
    p_k = tl.make_block_ptr(k + i_h * K, (T, K), (H * K, 1), (i_t * BT, 0), (BT, K), (1, 0))
    b_k = tl.load(p_k, boundary_check=(0, 1))
    if G_T_CONTIG:
        p_g = tl.make_block_ptr(g + i_h * T, (T,), (1,), (i_t * BT,), (BT,), (0,))
    else:
        p_g = tl.make_block_ptr(g + i_h, (T,), (HV,), (i_t * BT,), (BT,), (0,))
    b_g = tl.load(p_g, boundary_check=(0,))
    o_k = tl.arange(0, K)
    b_v = tl.load(k + i_t * H * K + i_h * K + o_k)
    b_last = tl.load(g + (tl.minimum(i_t * BT + BT, T) - 1) * H + i_h)
    tl.store(o + i_h, tl.sum(b_k) + tl.sum(b_g) + tl.sum(b_v) + b_last)
""",
        # steps by a head's size or stride, not a count of heads
        """
@triton.jit
def k(a, b, c, d, o, T, HD: tl.constexpr, head_dim: tl.constexpr, HEAD_SIZE: tl.constexpr, head_stride):
    i_h = tl.program_id(0)
    p_a, p_b, p_c, p_d = a + i_h, b + i_h, c + i_h, d + i_h
    for _ in range(0, T):
        tl.store(o + i_h, tl.load(p_a) + tl.load(p_b) + tl.load(p_c) + tl.load(p_d))
        p_a += HD
        p_b += head_dim
        p_c += HEAD_SIZE
        p_d += head_stride
""",
    )
    INVALID = (
        # head counts by other common names: a count of heads, of the value heads, a qualified `H`
        """
@triton.jit
def k(a, b, c, d, o, T, NUM_HEADS: tl.constexpr, num_v_heads: tl.constexpr, H_V: tl.constexpr, n_head):
    i_h = tl.program_id(0)
    p_a, p_b, p_c, p_d = a + i_h, b + i_h, c + i_h, d + i_h
    for _ in range(0, T):
        b_a = tl.load(p_a)  # expect
        b_b = tl.load(p_b)  # expect
        b_c = tl.load(p_c)  # expect
        b_d = tl.load(p_d)  # expect
        tl.store(o + i_h, b_a + b_b + b_c + b_d)
        p_a += NUM_HEADS
        p_b += num_v_heads
        p_c += H_V
        p_d += n_head
""",
        # an advance a device function makes (Triton inlines it), or under a compiler hint
        """
@triton.jit
def _adv(p, d):
    return p + d


@triton.jit
def k(g, beta, o, T, HV: tl.constexpr):
    i_nh = tl.program_id(0)
    i_n, i_hv = i_nh // HV, i_nh % HV
    p_g = g + i_n * T * HV + i_hv
    p_beta = beta + i_n * T * HV + i_hv
    b = 0.0
    for _ in range(0, T):
        b += tl.load(p_g)  # expect
        b += tl.load(p_beta)  # expect
        p_g = _adv(p_g, HV)
        p_beta = tl.multiple_of(p_beta + HV, 1)
    tl.store(o + i_nh, b)
""",
        # the head count a constexpr the body binds
        """
@triton.jit
def k(g, o, cu_seqlens, T):
    HV: tl.constexpr = 16
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    p_g = g + bos * HV + i_hv
    b_h = 0.0
    for _ in range(0, T):
        b_h += tl.load(p_g).to(tl.float32)  # expect
        p_g += HV
    tl.store(o + i_n, b_h)
""",
        """
@triton.jit
def k(g, beta, o, cu_seqlens, T, H: tl.constexpr, HV: tl.constexpr, USE_G: tl.constexpr):
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    p_g = g + bos * HV + i_hv
    p_beta = beta + bos * H + i_hv // (HV // H)
    b_h = 0.0
    for _ in tl.range(0, T):
        if USE_G:
            b_h *= tl.exp(tl.load(p_g).to(tl.float32))  # expect
        b_h += tl.load(p_beta)  # expect
        if USE_G:
            p_g += HV
        p_beta = H + p_beta  # the step written first
    tl.store(o + i_n, b_h)
""",
        """
@triton.jit
def k(a, g, o, cu_seqlens, T, HV: tl.constexpr, IS_BETA: tl.constexpr, V: tl.constexpr):
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    b_h = 0.0
    for i_t in range(0, T):
        if IS_BETA:
            p_g = g + (bos * HV + i_hv) * V + HV * V * i_t
        else:
            p_g = g + bos * HV + i_hv + HV * i_t
        if not IS_BETA:
            b_h *= tl.load(p_g)  # expect
        b_h += tl.load(a + bos * HV + i_hv + i_t * HV)  # expect
    tl.store(o + i_n, b_h)
""",
        # a constexpr conditional expression in the step splits it as an `if` does: `p_beta` steps
        # `HV` without `IS_BETA_HEADWISE` (`HV * V` with it is another layout), `p_h` steps `HV`
        # when `A` is false
        """
@triton.jit
def k(g, beta, o, T, HV: tl.constexpr, V: tl.constexpr, A: tl.constexpr, G_T_CONTIG: tl.constexpr,
      IS_BETA_HEADWISE: tl.constexpr):
    i_hv = tl.program_id(0)
    p_h = g + i_hv
    p_beta = beta + i_hv
    for _ in range(0, T):
        b = tl.load(p_h)  # expect
        if IS_BETA_HEADWISE:
            b += tl.sum(tl.load(p_beta + tl.arange(0, V)))
        else:
            b += tl.load(p_beta)  # expect
        tl.store(o + i_hv, b)
        p_h += (1 if G_T_CONTIG else HV) if A else HV
        p_beta += HV * (V if IS_BETA_HEADWISE else 1)
""",
        # the same steps held in a name: its one binding holding the choice, or one binding per
        # arm of a constexpr `if` (`step_g` is `HV` when `A` is false), also a name of such a name
        # (`step_w` is `HV * width`, `width` chosen by `A`)
        """
@triton.jit
def k(g, beta, w, o, T, HV: tl.constexpr, V: tl.constexpr, A: tl.constexpr):
    i_hv = tl.program_id(0)
    p_g = g + i_hv
    p_beta = beta + i_hv
    p_w = w + i_hv
    step_beta = HV * (V if A else 1)
    if A:
        step_g = HV * V
        width = V
    else:
        step_g = HV
        width = 1
    step_w = HV * width
    for _ in range(0, T):
        tl.store(o + i_hv, tl.load(p_g) + tl.load(p_beta))  # expect
        tl.store(o + i_hv, tl.load(p_w))  # expect
        p_g += step_g
        p_beta += step_beta
        p_w += step_w
""",
        # the offset, or the index, held in a name the loop binds
        """
@triton.jit
def k(g, o, T, HV: tl.constexpr, K: tl.constexpr):
    i_n, i_hv = tl.program_id(0), tl.program_id(1)
    bos = i_n * T
    b_h = 0.0
    i_t = 0
    while i_t < T:
        o_g = (bos + i_t) * HV + i_hv
        b_h *= tl.exp(tl.load(g + o_g))  # expect
        i_t += 1
    for i_t in range(T - 1, -1, -1):
        t_rev = i_t
        b_h *= tl.load(g + bos * HV + i_hv + t_rev * HV)  # expect
        o_k = (bos + i_t) * HV + tl.arange(0, K)  # a vector: a block of addresses
        b_h += tl.sum(tl.load(g + o_k))
    tl.store(o + i_n, b_h)
""",
        """
@triton.jit
def k(g, beta, a, o, T, H: tl.constexpr, REVERSE: tl.constexpr):
    i_h = tl.program_id(0)
    p_g = g + i_h + ((T - 1) * H if REVERSE else 0)
    p_beta = beta + i_h + (T - 1) * H
    stride_a = H
    b_h = 0.0
    for i_t in range(0, T):
        b_h *= tl.exp(tl.load(p_g))  # expect
        b_h += tl.load(p_beta)  # expect
        b_h += tl.load(a + i_h - stride_a * i_t)  # expect
        p_g += (-1 if REVERSE else 1) * H
        p_beta -= H
    tl.store(o + i_h, b_h)
""",
        # pointers a device function computes: Triton inlines it, so `p_g` is `g + bos * HV + i_hv`
        """
@triton.jit
def _pointers(g, v, o, bos, i_hv, HV: tl.constexpr, V: tl.constexpr):
    return g + bos * HV + i_hv, v + (bos * HV + i_hv) * V + tl.arange(0, V), o + bos * HV + i_hv

@triton.jit
def k(g, v, o, T, HV: tl.constexpr, V: tl.constexpr):
    i_b, i_hv = tl.program_id(0), tl.program_id(1)
    p_g, p_v, p_o = _pointers(g, v, o, i_b * T, i_hv, HV, V)
    for _ in range(0, T):
        b_g = tl.load(p_g).to(tl.float32)  # expect
        b_v = tl.load(p_v).to(tl.float32)
        tl.store(p_o, tl.sum(b_v) * tl.exp(b_g))
        p_g += HV
        p_v += HV * V
        p_o += HV
""",
        # a chunk of `BT` steps of `g` `[B, T, H]`: a block pointer whose innermost stride is `H`,
        # or a vector of `T` offsets times `H`
        """
@triton.jit
def k(g, beta, o, cu_seqlens, T, H: tl.constexpr, BT: tl.constexpr):
    i_t, i_n, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    p_g = tl.make_block_ptr(g + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
    b_g = tl.load(p_g, boundary_check=(0,))  # expect
    o_t = i_t * BT + tl.arange(0, BT)
    b_beta = tl.load(beta + (bos + o_t) * H + i_h, mask=o_t < T, other=0.0)  # expect
    tl.store(o + bos + o_t, tl.cumsum(b_g * b_beta, axis=0), mask=o_t < T)
""",
        # the block pointer moved by the tensor method `advance` keeps its strides
        """
@triton.jit
def k(g, o, cu_seqlens, T, H: tl.constexpr, BT: tl.constexpr):
    i_t, i_n, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    p_g = tl.make_block_ptr(g + bos * H + i_h, (T,), (H,), (0,), (BT,), (0,))
    p_g = p_g.advance((i_t * BT,))
    b_g = tl.load(p_g, boundary_check=(0,))  # expect
    tl.store(o + bos + i_t * BT + tl.arange(0, BT), b_g)
""",
    )

    @classmethod
    def may_report(cls, words: Words) -> bool:
        """A kernel's file with a word named like a head count (`HEAD_COUNT`)."""
        return words.satisfies(cls.required_tokens()) and _HEAD_COUNT_WORD.search(words.text) is not None

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        # through the device functions it calls (`p_g = _pointers(g, ...)` is `g + bos * HV + i_hv`);
        # a load a device function makes is that function's finding
        inlined = kernel.inlined
        flow = inlined.flow
        # a parameter, or a constexpr the body binds (`HV: tl.constexpr = 16`)
        heads = {
            name for name in (*(p.name for p in kernel.params), *flow.constexpr_bindings) if HEAD_COUNT.match(name)
        }
        if not heads:
            return
        terms = Terms(flow)
        reported: set[cst.Call] = set()
        # the kernel's own loops over time steps: a device function's loop is that function's finding
        steps = {
            loop: _Steps(loop, _head_strided_advances(flow, loop, heads), _unit_step_index(loop, flow))
            for loop in flow.loops
            if not _is_fixed_count(loop) and inlined.in_function(loop.node)
        }
        for loop, facts in steps.items():
            if not facts.advances and facts.index is None:
                continue
            for event in flow.events_in(loop.body, "call"):
                call = event.call
                if not flow.imports.is_tl(call.func, "load") or call in reported:
                    continue
                # a load the kernel makes, or one a device function it calls per step makes (a
                # load in a loop the function runs itself is the function's finding)
                site = None if inlined.in_function(call) else inlined.call_site(call)
                if site is None and not inlined.in_function(call):
                    continue
                if site is not None and any(inner not in steps and not _is_fixed_count(inner) for inner in event.loops):
                    continue
                found = _step_stride(event, facts, heads, flow, terms)
                if found is None:
                    continue
                pointer = pointer_arg(call)
                assert pointer is not None
                gate = flow.pointer_root(pointer) or one_line(inlined.written(pointer))
                if _contiguous_arm(event, gate, flow, lambda load, p: _unit_step(load, p, steps, flow, terms)):
                    continue
                # a loop in the time loop whose own step moves the address by one: consecutive loads
                inner = event.loops[event.loops.index(loop) + 1 :]
                if _unit_step(event, pointer, steps, flow, terms, inner):
                    continue
                stride, where, when = found
                shown = one_line(inlined.written(pointer))
                reported.add(call)
                related: tuple[tuple[cst.CSTNode, str], ...] = (
                    (inlined.written(where), f"`{shown}` advances by `{stride}` here"),
                )
                if site is None:
                    yield Report(
                        inlined.written(call),
                        MESSAGE.format(pointer=shown, stride=stride, when=when),
                        related=related,
                        facts={"pointer": shown, "stride": stride},
                    )
                    continue
                helper = inlined.function_of(call)
                name = helper.name if helper is not None else one_line(site.func)
                if helper is None or helper not in kernel.module_kernels:
                    related = ()  # (another module's code has no place here)
                elif inlined.written(where) is inlined.written(pointer) or not inlined.in_source(where):
                    related = ((inlined.written(call), f"`{name}` loads `{shown}` here"),)
                else:
                    related = ((inlined.written(call), f"`{name}` loads `{shown}` here"), *related)
                yield Report(
                    site,
                    HELPER_MESSAGE.format(helper=name, pointer=shown, stride=stride, when=when),
                    related=related,
                    facts={"pointer": shown, "stride": stride},
                )
        yield from self._chunk_loads(kernel, context, heads, terms, reported)

    def _chunk_loads(
        self, kernel: Kernel, context: ModuleContext, heads: set[str], terms: Terms, reported: set[cst.Call]
    ) -> Iterator[Report]:
        """Loads of a chunk of `T` steps `head` elements apart, in a loop or not: through a block
        pointer whose innermost stride is the head count (`tl.make_block_ptr(g + bos * H + i_h,
        (T,), (H,), ...)`), or a vector of offsets times it (`g + (bos + o_t) * H + i_h`)."""
        inlined = kernel.inlined
        flow = inlined.flow
        for event in flow.calls_to("load"):
            call = event.call
            pointer = pointer_arg(call)
            if pointer is None or call in reported or not inlined.in_function(call):
                continue
            found = _strided_block(pointer, heads, flow)
            if found is not None:
                stride, where = found
                how = f"the block pointer's innermost stride is `{stride}`"
            else:
                found = _strided_vector(pointer, heads, flow, terms)
                if found is None:
                    continue
                stride, where = found
                how = f"its offsets are a vector times `{stride}`"
            gate = flow.pointer_root(pointer) or one_line(inlined.written(pointer))
            if _contiguous_arm(
                event,
                gate,
                flow,
                lambda _, p: _strided_block(p, heads, flow) is None and _strided_vector(p, heads, flow, terms) is None,
            ):
                continue
            yield Report(
                inlined.written(call),
                CHUNK_MESSAGE.format(gate=gate, how=how, stride=stride),
                related=((inlined.written(where), f"`{gate}` is read `{stride}` elements apart here"),),
                facts={"pointer": gate, "stride": stride},
            )


def _strided_block(pointer: cst.BaseExpression, heads: set[str], flow: Flow) -> tuple[str, cst.CSTNode] | None:
    """(the head count, the stride) when a block pointer reaching the load has a head count as
    its innermost stride (`(T,), (H,)`) and none has stride 1 there: the `G_T_CONTIG` arm of
    `if G_T_CONTIG: p_g = ...(T,), (1,)... else: ...(T,), (H,)...` is the fix already applied,
    the other arm its fallback for `H == 1`."""
    calls = _block_pointers(pointer, flow, frozenset())
    if not calls:
        return None
    strided = []
    for call in calls:
        # written in the call, or bound to a name before it (`strides = (H,)`)
        sequences = flow.sequences(call_argument(call, 2, "strides"))
        if sequences is None or not all(sequences):
            return None
        for values in sequences:
            if any(int_literal(value) == 1 for value in values):
                return None  # contiguous in some dimension: `(T, K), (H * K, 1)`, or the fixed arm
            stride = _signed_head_count(values[-1], heads, flow)
            if stride is not None:
                strided.append((stride, values[-1]))
    return strided[0] if strided else None


def _block_pointers(node: cst.BaseExpression, flow: Flow, followed: frozenset[Event]) -> list[cst.Call]:
    """The `tl.make_block_ptr` calls a pointer holds: written there, or bound to the names
    reaching it (through `tl.advance`, which keeps the strides)."""
    if isinstance(node, cst.Call):
        if flow.imports.is_tl(node.func, "make_block_ptr"):
            return [node]
        advance = flow.advance_parts(node)  # `tl.advance(p, o)`, `p.advance(o)`
        return [] if advance is None or advance[0] is None else _block_pointers(advance[0], flow, followed)
    if not isinstance(node, cst.Name):
        return []
    found = []
    for definition in flow.reaching(node):
        if definition in followed or definition.value is None:
            continue
        found += _block_pointers(definition.value, flow, followed | {definition})
    return found


def _strided_vector(
    pointer: cst.BaseExpression, heads: set[str], flow: Flow, terms: Terms
) -> tuple[str, cst.CSTNode] | None:
    """(the head count, the address) when a vector address steps only by a head count: every
    product of a tensor (`o_t`, `tl.arange(0, BT)`) is `head * tensor` (`g + (bos + o_t) * H +
    i_h`), written in the load or in every definition of the pointer reaching it."""
    if isinstance(pointer, cst.Name):
        reaching = flow.reaching(pointer)
        if not reaching or any(d.value is None for d in reaching):
            return None
        addresses = [d.value for d in reaching if d.value is not None]
    else:
        addresses = [pointer]
    strides = set()
    for address in addresses:
        if flow.is_block_pointer(address):
            return None
        try:
            products = terms.of(address)
        except TooComplex:
            return None
        stride = _vector_stride(products, heads, flow, terms)
        if stride is None:
            return None
        strides.add(stride)
    return (strides.pop(), addresses[0]) if len(strides) == 1 else None


def _vector_stride(products: Sum, heads: set[str], flow: Flow, terms: Terms) -> str | None:
    """The head count every tensor product of `products` is a tensor times, up to signs."""
    found = set()
    for product in products:
        vectors = [key for key in product if flow.flags(terms.atoms[key]) & TENSOR]
        if not vectors:
            continue
        if not all(_is_range(terms.atoms[key], flow, 0) for key in vectors):
            return None  # a scalar computed at run time (`tl.minimum(...) * H`): one element
        if len(vectors) > 1 or product.count(vectors[0]) != 1:
            return None
        stride = _head_count_times(vectors[0], {product: products[product]}, heads, flow, terms)
        if stride is None:
            return None
        found.add(stride)
    return found.pop() if len(found) == 1 else None


def _contiguous_arm(
    event: Event, gate: str, flow: Flow, contiguous: Callable[[Event, cst.BaseExpression], bool]
) -> bool:
    """Whether the load is in an arm of a constexpr `if` whose other arm loads the same tensor
    contiguously (`contiguous(load, pointer)`): `if BETA_T_CONTIG: tl.load(beta_ptr + o_t) else:
    tl.load(beta + ... + o_t * HV)` is the fix already applied, the strided arm its fallback for
    `HV == 1`."""
    for branch, arm in event.conds:
        if not branch.test_is_constexpr:
            continue
        other = branch.orelse if arm else branch.body
        for load in flow.calls_to("load"):
            pointer = pointer_arg(load.call)
            if load.index not in other or pointer is None or not _derived_from(pointer, gate, flow, 0):
                continue
            if contiguous(load, pointer):
                return True
    return False


def _unit_step(
    load: Event,
    pointer: cst.BaseExpression,
    steps: dict[Loop, _Steps],
    flow: Flow,
    terms: Terms,
    loops: Sequence[Loop] | None = None,
) -> bool:
    """Whether a load reads one element per step of a loop round it (of `loops`, else of any),
    one apart: a pointer the loop advances by one on the load's path (`p_g += 1`), or an
    address holding the loop's own index (`g + i_bh * T + i_t`), in every definition the loop
    binds it from."""
    for loop in load.loops if loops is None else loops:
        facts = steps.get(loop)
        if facts is None:
            continue
        if isinstance(pointer, cst.Name) and any(
            advance.event.name == pointer.value and _is_sign(advance.step) and advance.compiled_with(load, flow)
            for advance in _advances(flow, loop)
        ):
            return True
        if facts.index is None:
            continue
        try:
            sums = _loop_sums(pointer, loop, flow, terms, frozenset())
        except TooComplex:
            continue
        if sums and all(abs(products.get((facts.index,), 0)) == 1 for products, _ in sums):
            return True
    return False


def _derived_from(node: cst.BaseExpression, gate: str, flow: Flow, depth: int) -> bool:
    """Whether an address is computed from the pointer `gate`, through the definitions of the
    names it reads, a few hops (`beta_ptr = _g_contig_base(beta, ...)`, a device function of
    another module)."""
    if depth > 3:
        return False
    for name in walk(node):
        if isinstance(name, cst.Name):
            if name.value == gate:
                return True
            for definition in flow.defs.get(name.value, ()):
                if definition.value is not None and _derived_from(definition.value, gate, flow, depth + 1):
                    return True
    return False


def _is_range(node: cst.BaseExpression, flow: Flow, depth: int) -> bool:
    """A vector of `tl.arange` offsets: `tl.arange(0, BT)`, `o_t[:, None]`, a cast of one
    (`o_t.to(tl.int64)`), or a name every definition of which holds one (`o_t = i_t * BT +
    tl.arange(0, BT)`)."""
    if depth > 4:
        return False
    if isinstance(node, cst.Subscript):
        return _is_range(node.value, flow, depth + 1)
    if isinstance(node, cst.Name):
        definitions = flow.defs.get(node.value, ())
        return bool(definitions) and all(
            d.value is not None and _is_range(d.value, flow, depth + 1) for d in definitions
        )
    if isinstance(node, cst.Call):
        if flow.imports.is_tl(node.func, "arange"):
            return True
        cast = flow.cast_parts(node)  # `o_t.to(tl.int64)`, `tl.cast(o_t, tl.int64)`
        return cast is not None and _is_range(cast[0], flow, depth + 1)
    if isinstance(node, cst.BinaryOperation):
        return _is_range(node.left, flow, depth + 1) or _is_range(node.right, flow, depth + 1)
    return False


@dataclass(frozen=True)
class _Steps:
    """A loop over time steps: the pointers it advances by a head count, and its own index when
    it steps by one."""

    loop: Loop
    advances: dict[str, list[tuple[str, _Advance]]]
    index: str | None


@dataclass(frozen=True)
class _Advance:
    """An advance of a pointer in a loop (`p += step`), in one arm of each constexpr conditional
    expression its step holds (`Flow.advance_arms`: `HV * (V if HEADWISE else 1)` is `HV * V`
    in one specialisation, `HV * 1` in the other)."""

    event: Event
    step: cst.BaseExpression
    choices: Arms

    @property
    def arms(self) -> Arms:
        """The `if` arms and the arms of the step's choices it is in, outermost first."""
        return (*self.event.conds, *self.choices)

    def outcomes(self, flow: Flow) -> Assumptions:
        """The constexpr test outcomes under which this arm of the advance is compiled."""
        return flow.decided_arms(self.event) | flow.choice_outcomes(self.choices)

    def compiled_with(self, event: Event, flow: Flow) -> bool:
        """Whether a specialisation compiling `event` compiles this arm of the advance too."""
        return flow.feasible_together(event, self.event) and flow.compiled_under(
            event, flow.choice_outcomes(self.choices)
        )


def _advances(flow: Flow, loop: Loop) -> list[_Advance]:
    """The advances of pointers in the loop, one per arm of their steps' constexpr choices."""
    return [
        _Advance(event, step, choices)
        for event in flow.events_in(loop.body, DEF)
        if event.name is not None
        for step, choices in flow.advance_arms(event)
    ]


def _step_stride(
    event: Event, steps: _Steps, heads: set[str], flow: Flow, terms: Terms
) -> tuple[str, cst.CSTNode, str] | None:
    """(the head count, where, when) when a load of the loop reads one element per step, the
    head count apart: a pointer the loop advances by it on the load's own path (an advance in
    the other arm of a constexpr `if` round the load is another specialisation's), or an
    address holding the head count times the loop's index. `when` names the specialisations
    striding that the load's own `if`s do not (`_when`)."""
    pointer = pointer_arg(event.call)
    if pointer is None:
        return None
    found = None
    for name in _carried_names(pointer, steps, flow, terms):
        strided = [(stride, advance) for stride, advance in steps.advances[name] if advance.compiled_with(event, flow)]
        if strided:
            stride, advance = strided[0]
            found = stride, advance.event.node, _when([a.outcomes(flow) for _, a in strided], event, flow)
            break
    if found is None and steps.index is not None:
        indexed = _indexed_by_step(pointer, steps.index, heads, steps.loop, flow, terms)
        found = None if indexed is None else (*indexed, "")
    if found is None or _is_block(pointer, steps.loop, flow):
        return None
    return found


def _carried_names(pointer: cst.BaseExpression, steps: _Steps, flow: Flow, terms: Terms) -> list[str]:
    """The names the loop advances by a head count (`_Steps.advances`) that the address moves
    with, one step for one: the pointer loaded (`p_g` of `p_g += HV`), or an integer offset
    added to it once, in the load or in every definition the loop binds it from (`g + o_g`,
    `p_g = g + o_g`, with `o_g += HV`)."""
    if not steps.advances:
        return []
    try:
        sums = _loop_sums(pointer, steps.loop, flow, terms, frozenset())
    except TooComplex:  # the pointer itself still moves with its own advances
        return [pointer.value] if isinstance(pointer, cst.Name) and pointer.value in steps.advances else []
    held = [
        {key for (key, *more), coefficient in products.items() if not more and abs(coefficient) == 1}
        for products, _ in sums
    ]
    return sorted(set.intersection(*held) & steps.advances.keys()) if held else []


def _when(strided: list[Assumptions], load: Event, flow: Flow) -> str:
    """` (when `A` is false)`: the specialisations compiling a strided advance, less the tests
    the load's own `if`s decide; two differing in one test's outcome alone are one (`p +=
    (-1 if REVERSE else 1) * HV` strides either way); nothing when one is every
    specialisation."""
    decided = flow.decided_arms(load)
    sets = {outcomes - decided for outcomes in strided}
    merged = True
    while merged:
        merged = False
        for a in list(sets):
            for b in list(sets):
                if a in sets and b in sets and len(a ^ b) == 2 and len({key for key, _ in a ^ b}) == 1:
                    sets -= {a, b}
                    sets.add(a & b)
                    merged = True
    if not sets or frozenset() in sets:
        return ""
    return " (when " + ", or ".join(sorted(flow.outcomes_text(outcomes) for outcomes in sets)) + ")"


def _head_strided_advances(flow: Flow, loop: Loop, heads: set[str]) -> dict[str, list[tuple[str, _Advance]]]:
    """Pointers the loop advances by a head count: name -> (the count, the advance) for each
    such advance; none in a loop over blocks (`_steps_by_blocks`), as for an index. An advance in an arm of a constexpr `if` is left out when the other arm of
    that `if` steps the same pointer by one: `if G_T_CONTIG: p_g += 1 else: p_g += HV` is the
    fix already applied, the strided arm its fallback for `HV == 1` (a step of `HV * V` in the
    other arm is another layout, not the fix). The step by one must be that arm's own, not
    nested in a further `if`: in `if A: (if G_T_CONTIG: p_g += 1 else: p_g += HV) else: p_g +=
    HV` the outer `else` strides by `HV` in every specialisation with `A` false. A constexpr
    conditional expression in the step splits it as an `if` does (`p_g += 1 if G_T_CONTIG else
    HV` is the same fix; `p_beta += HV * (V if HEADWISE else 1)` strides by `HV` without
    `HEADWISE`)."""
    if _steps_by_blocks(loop, flow):  # a scalar per block beside the block's own work
        return {}
    advances = _advances(flow, loop)
    found: dict[str, list[tuple[str, _Advance]]] = {}
    for advance in advances:
        stride = _signed_head_count(advance.step, heads, flow)
        if stride is None or advance.event.name is None:
            continue
        split = any(
            other.event.name == advance.event.name and _is_sign(other.step) and _sibling_arms(advance, other)
            for other in advances
        )
        if not split:
            found.setdefault(advance.event.name, []).append((stride, advance))
    return found


def _sibling_arms(strided: _Advance, unit: _Advance) -> bool:
    """Whether `unit` sits directly in one arm of a constexpr `if` or conditional expression
    whose other arm holds `strided` (there or in an `if` or choice nested in it): the two split
    on that test alone."""
    unit_arms, strided_arms = unit.arms, strided.arms
    depth = len(unit_arms) - 1
    if depth < 0 or len(strided_arms) <= depth or strided_arms[:depth] != unit_arms[:depth]:
        return False
    (holder, arm), (other_holder, other_arm) = unit_arms[depth], strided_arms[depth]
    constexpr = isinstance(holder, cst.IfExp) or holder.test_is_constexpr  # (a step's choices are constexpr)
    return holder is other_holder and arm != other_arm and constexpr


def _is_block(pointer: cst.BaseExpression, loop: Loop, flow: Flow) -> bool:
    """Whether the load reads a block of addresses (`p_v + o_v`). A pointer name is judged by
    the definitions reaching it, taking only the step of the loop's own advances `p += step`:
    the facts carried round the loop mix every specialisation's pointer (`p_beta` is a vector
    under `IS_BETA_HEADWISE` and a scalar in the other arm, where it is loaded)."""
    reaching = flow.reaching(pointer) if isinstance(pointer, cst.Name) else []
    if not reaching:
        return bool(flow.flags(pointer) & TENSOR)
    for definition in reaching:
        advance = definition.index in loop.body and flow.advance_step(definition)
        flags = flow.flags(advance) if advance else flow.def_flags(definition)
        if flags & TENSOR:
            return True
    return False


def _is_fixed_count(loop: Loop) -> bool:
    """`tl.static_range(4)`, `tl.range(4)`, `range(0, 4)`: run a literal number of times, not
    a time loop (`tl.static_range(T)` or `range(T - 1, -1, -1)` over a constexpr `T` is one)."""
    if loop.kind not in ("static_range", "range"):
        return False
    bounds = range_bounds(loop, unrolled=True)
    if bounds is None:
        return loop.kind == "static_range"
    return all(_is_int(bound) for bound in bounds)


def _steps_by_blocks(loop: Loop, flow: Flow) -> bool:
    """Whether the loop runs over blocks: `range(0, T, BS)`, or a counting `while` loop advancing
    its index by other than one (`i += BS`)."""
    if loop.kind == "while":
        counter = while_index(flow, loop)
        return counter is not None and not _is_sign(counter.step)
    bounds = range_bounds(loop, unrolled=True)
    return bounds is not None and len(bounds) > 2 and not _is_sign(bounds[2])


def _unit_step_index(loop: Loop, flow: Flow) -> str | None:
    """The index of `for i in range(T)` / `range(a, b)` / `tl.range(a, b, 1)` /
    `tl.static_range(T)`, of a reverse loop `range(T - 1, -1, -1)`, or of a counting `while`
    loop advancing it by one (`while i < T:` ... `i += 1`): one step per trip, either way."""
    if loop.kind == "while":
        counter = while_index(flow, loop)
        return counter.name if counter is not None and _is_sign(counter.step) else None
    node, bounds = loop.node, range_bounds(loop, unrolled=True)
    if bounds is None or not (isinstance(node, cst.For) and isinstance(node.target, cst.Name)):
        return None
    if len(bounds) > 2 and not _is_sign(bounds[2]):
        return None
    return node.target.value


def _indexed_by_step(
    pointer: cst.BaseExpression, index: str, heads: set[str], loop: Loop, flow: Flow, terms: Terms
) -> tuple[str, cst.CSTNode] | None:
    """(the head count, where) when the address holds `head * index`, with `index` the loop's
    own (`g + bos * HV + i_hv + HV * i_t` in `for i_t in range(T)`): written in the load, or
    through the names the loop binds it from (`_loop_sums`: `p_g = g + o_g` with `o_g = (bos +
    i_t) * HV + i_hv`, `t = i_t`), every definition of which reaching the load holds it."""
    try:
        addresses = _loop_sums(pointer, loop, flow, terms, frozenset())
    except TooComplex:
        return None
    strides = {_head_count_times(index, products, heads, flow, terms) for products, _ in addresses}
    stride = strides.pop() if len(strides) == 1 else None
    if stride is None:
        return None
    return stride, next((where for _, where in addresses if where is not None), pointer)


def _loop_sums(node: cst.BaseExpression, loop: Loop, flow: Flow, terms: Terms, bound: frozenset[str]) -> list[Reading]:
    """`node` as the sums it may be in a trip of `loop`, each with the first definition read
    for it (None when none was): a name every definition of which reaching `node` is made in
    the loop stands for their values; other names, and the rest, are atoms (`Terms`). Raises
    TooComplex past MAX_SUMS. A walrus is the value it binds (`(t := bos + i_t) * HV`)."""
    if isinstance(node, cst.NamedExpr):
        return _loop_sums(node.value, loop, flow, terms, bound)
    if isinstance(node, cst.Name) and node.value not in bound:
        reaching = flow.reaching(node)
        values = [(d.value, d.node) for d in reaching if d.index in loop.body and d.value is not None]
        if values and len(values) == len(reaching):
            found: list[Reading] = []
            for value, definition in values:
                inner = _loop_sums(value, loop, flow, terms, bound | {node.value})
                found += [(products, where or definition) for products, where in inner]
            return _capped(found)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return [
            (scaled(products, -1), where) for products, where in _loop_sums(node.expression, loop, flow, terms, bound)
        ]
    if isinstance(node, cst.BinaryOperation) and type(node.operator) in _COMBINE:
        combine = _COMBINE[type(node.operator)]
        lefts = _loop_sums(node.left, loop, flow, terms, bound)
        rights = _loop_sums(node.right, loop, flow, terms, bound)
        return _capped([(combine(a, b), wa or wb) for a, wa in lefts for b, wb in rights])
    return [(terms.of(node), None)]


def _capped(sums: list[Reading]) -> list[Reading]:
    if len(sums) > MAX_SUMS:
        raise TooComplex
    return sums


def _head_count_times(index: str, products: Sum, heads: set[str], flow: Flow, terms: Terms) -> str | None:
    """The head count of a product `head * index` in `products`, up to signs (`HV * i_t`,
    `-stride_g * i_t` with `stride_g = HV`, `(-1 if REVERSE else 1) * H * i_t`)."""
    for product, coefficient in products.items():
        if abs(coefficient) != 1 or product.count(index) != 1:
            continue
        factors = [terms.atoms[key] for key in product if key != index]
        counts = [_signed_head_count(factor, heads, flow) for factor in factors if not _is_sign(factor)]
        if len(counts) == 1 and counts[0] is not None:
            return counts[0]
    return None


def _signed_head_count(
    node: cst.BaseExpression, heads: set[str], flow: Flow, bound: frozenset[str] = frozenset()
) -> str | None:
    """The head count `node` equals up to its sign in every specialisation: `H`, `-H`,
    `(-1 if REVERSE else 1) * H`, `H if REVERSE else -H`, or a name every definition of which
    is one of those (`stride_beta = HV`); `bound` holds the names being resolved."""
    if isinstance(node, cst.Name):
        if node.value in heads:
            return node.value
        definitions = flow.defs.get(node.value, ())
        if not definitions or node.value in bound:
            return None
        found = {
            _signed_head_count(d.value, heads, flow, bound | {node.value}) if d.value is not None else None
            for d in definitions
        }
        return found.pop() if len(found) == 1 else None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        return _signed_head_count(node.expression, heads, flow, bound)
    if isinstance(node, cst.IfExp):
        arms = {_signed_head_count(arm, heads, flow, bound) for arm in (node.body, node.orelse)}
        return arms.pop() if len(arms) == 1 else None
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply):
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            if _is_sign(other):
                return _signed_head_count(factor, heads, flow, bound)
    return None


def _is_int(node: cst.BaseExpression) -> bool:
    """An integer literal, signed or not (`4`, `-1`)."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        return _is_int(node.expression)
    return int_literal(node) is not None


def _is_sign(node: cst.BaseExpression) -> bool:
    """`1`, `-1`, or a conditional choosing between them (`(-1 if REVERSE else 1)`)."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        return _is_sign(node.expression)
    if isinstance(node, cst.IfExp):
        return _is_sign(node.body) and _is_sign(node.orelse)
    return int_literal(node) == 1
