"""
## What it does
Flags, inside a runtime loop (a recurrence over time steps), a scalar `tl.load(p)` of a
pointer that the same loop advances by a head count: `p_g += HV` (or `p_g = p_g + HV`), with
`HV` a kernel parameter named like a head count (`H`, `HV`, `HQ`, `HK`, `NH`, `num_heads`,
`n_heads`). That is the per-head gate `g` of shape `[B, T, HV]` read along `T`: one element
per step, `HV` elements apart. Part of the `perf` group.

It is a heuristic, and precise on purpose: strides written as other expressions
(`HV * (1 if HEADWISE else V)`), names that do not say "heads", vector loads
(`tl.load(p_v + o_v)`, contiguous in their last dimension) and loops unrolled at compile
time (`tl.static_range`) are not flagged; a layout the host already transposed is invisible
to it (then the stride is 1 and nothing is reported).

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
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from ascend_lint.flow import DEF, TENSOR, Event, Flow, Loop, pointer_arg
from ascend_lint.rule import Kernel, ModuleContext, Report, Rule

MESSAGE = (
    "strided load along T: `{pointer}` advances by `{stride}` elements per step of the loop, so each step loads "
    "one element {stride} apart; transpose it on the host to [B, {stride}, T] and load with stride 1"
)
HEAD_COUNT = re.compile(r"^(H|HV|HQ|HK|NH|num_heads|n_heads|nheads)$")


class StridedGateLoad(Rule):
    CODE = "ASC011"
    NAME = "strided-gate-load"
    SUMMARY = "A scalar load advanced by a head count per time step (`[B, T, HV]` gate read along T)"
    GROUP = "perf"
    REQUIRES_TOKENS = (("H", "HV", "HQ", "HK", "NH", "num_heads", "n_heads", "nheads"),)

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
""",
    )
    INVALID = (
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
        p_beta = p_beta + H
    tl.store(o + i_n, b_h)
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        flow = kernel.flow
        heads = {p.name for p in kernel.params if HEAD_COUNT.match(p.name)}
        if not heads:
            return
        for loop in flow.loops:
            if loop.kind == "static_range":
                continue
            advances = _head_strided_advances(flow, loop, heads)
            if not advances:
                continue
            for event in flow.events_in(loop.body, "call"):
                call = event.call
                pointer = pointer_arg(call)
                if not (flow.imports.is_tl(call.func, "load") and isinstance(pointer, cst.Name)):
                    continue
                advance = advances.get(pointer.value)
                if advance is None or flow.flags(pointer) & TENSOR:
                    continue
                stride, where = advance
                yield Report(
                    call,
                    MESSAGE.format(pointer=pointer.value, stride=stride),
                    related=((where, f"`{pointer.value}` advances by `{stride}` here"),),
                    facts={"pointer": pointer.value, "stride": stride},
                )


def _head_strided_advances(flow: Flow, loop: Loop, heads: set[str]) -> dict[str, tuple[str, cst.CSTNode]]:
    """Pointers the loop advances by a head count: name -> (the count, the advancing statement)."""
    found: dict[str, tuple[str, cst.CSTNode]] = {}
    for event in flow.events_in(loop.body, DEF):
        stride = _head_stride(event, heads)
        if stride is not None and event.name is not None:
            found[event.name] = (stride, event.node)
    return found


def _head_stride(event: Event, heads: set[str]) -> str | None:
    """`H` for `p += H` / `p = p + H` (the definition's value is `p + H` either way)."""
    value = event.value
    if not (
        isinstance(value, cst.BinaryOperation)
        and isinstance(value.operator, cst.Add)
        and isinstance(value.left, cst.Name)
        and value.left.value == event.name
        and isinstance(value.right, cst.Name)
    ):
        return None
    return value.right.value if value.right.value in heads else None
