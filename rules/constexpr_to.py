"""
## What it does
Flags `.to(...)` calls in a kernel whose receiver is

1. a constexpr value (a `tl.constexpr` parameter, a literal, a `tl.static_range` index, a
   name assigned only those) or an integer Triton-Ascend may specialise into one (an
   unannotated scalar parameter not listed in `do_not_specialize`) — *constexpr has no
   `.to`*; or
2. integer arithmetic that multiplies a runtime int32 index (program id, loop index, a
   `do_not_specialize` or typed size) and casts to int64 afterwards, e.g.
   `(i_b * T).to(tl.int64)`, `((NT - 1) * DH_CS).to(tl.int64)` — *the multiply wraps in
   int32 first*.

Program ids are runtime values: measured on triton-ascend 3.2, `tl.program_id(0).to(...)`
and `i_t.to(...)` with `i_t = tl.program_id(0)` compile, also on a grid of one program (the
grid is not part of the compiled specialisation), so they are not flagged by themselves.

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
`(eos - bos)`, on float tiles and on `tl.range` indices is fine.

## Fix safety
Safe. `x.to(tl.int64)` becomes `tl.cast(x, tl.int64)` (same value, also valid on a
constexpr). For a cast after arithmetic, every index term (program ids, loop indices and
names derived from them) inside the expression is cast first —
`(i_b * T + i_t).to(tl.int64)` becomes `tl.cast(i_b, tl.int64) * T + tl.cast(i_t, tl.int64)` —
so each product is computed in int64; the result has the same value whenever the int32
computation did not overflow, and the right value when it did. A `.to()` with options beyond
the dtype (`bitcast=True`, `fp_downcast_rounding=`) gets no fix.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ascend_lint.fixes import Declined, FixPlan, Replace, code_excerpt
from ascend_lint.flow import LOADED, LOOP, PID, SCALAR, TENSOR, Flow
from ascend_lint.imports import string_value
from ascend_lint.rule import Confirm, Evidence, Example, Kernel, ModuleContext, Report, Rule

CONSTEXPR_MESSAGE = "constexpr has no .to: `{receiver}` can be a constexpr on Ascend; use `tl.cast({receiver}, ...)`"
WRAP_MESSAGE = "cast after multiply wraps in int32: cast the index first (`tl.cast(..., tl.int64) * ...`)"


class ConstexprTo(Rule):
    CODE = "ASC002"
    NAME = "constexpr-to"
    SUMMARY = "`.to()` on a constexpr or specialisable int (`'constexpr' object has no attribute 'to'`), or an int64 cast after an int32 multiply that already wrapped"
    FIX = "safe"
    CONFIRM = Confirm({"compile": Evidence.INDEX_CAST_IR}, "both failures are the compiler's")
    REQUIRES_TOKENS = (("to",),)

    VALID = (
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
@triton.jit(do_not_specialize=["B"])
def k(x, B, num_core: tl.int32, task_num: tl.int32):
    n = B.to(tl.int64)
    core_id = tl.program_id(0)
    for task_id in tl.range(core_id, task_num, num_core):
        t = task_id.to(tl.int64)
""",
    )
    INVALID = (
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
        """
@triton.jit(do_not_specialize=["T"])
def k(x, T, BT: tl.constexpr):
    i_t, i_b = tl.program_id(0), tl.program_id(1)
    base = (i_b * tl.cdiv(T, BT) + i_t).to(tl.int64)  # expect
""",
        """
@triton.jit(do_not_specialize=["T"])
def k(x, T, BT: tl.constexpr, DH_CS: tl.constexpr):
    NT = tl.cdiv(T, BT)
    last = ((NT - 1) * DH_CS).to(tl.int64)  # expect
""",
        """
@triton.jit
def k(x, T, W: tl.constexpr):
    for i_w in tl.static_range(W):
        o = i_w.to(tl.int64)  # expect
""",
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        casts = _Casts(kernel)
        for event in kernel.flow.calls:
            call = event.call
            kind = casts.kind(call)
            if kind == _WRAP:
                receiver, dtype = _receiver(call), call.args[0].value
                yield Report(
                    call,
                    WRAP_MESSAGE,
                    fix=self._fix(
                        call,
                        _cast_index_terms(receiver, kernel.flow, dtype),
                        "Cast the index terms before the arithmetic",
                    ),
                    facts={"receiver": context.module.code_for_node(receiver), "cause": "multiply"},
                )
            elif kind == _CONSTEXPR:
                code = code_excerpt(context.module, _receiver(call))
                yield Report(
                    call,
                    CONSTEXPR_MESSAGE.format(receiver=code),
                    fix=casts.chain_fix(call) if len(call.args) == 1 else _LOSES_OPTIONS,
                    facts={"receiver": code, "cause": "constexpr"},
                )

    def _fix(self, call: cst.Call, replacement: cst.BaseExpression, message: str) -> FixPlan | Declined:
        """The rewrite, when `.to` has only its dtype (other options, e.g. `bitcast=`, would be lost)."""
        if len(call.args) != 1:
            return _LOSES_OPTIONS
        return FixPlan("safe", message, (Replace(call, replacement),))


_WRAP, _CONSTEXPR = "wrap", "constexpr"
_LOSES_OPTIONS = Declined("`.to()` has options besides the dtype (e.g. `bitcast=`) that the rewrite would lose")


class _Casts:
    """What each `.to` call of a kernel is, and one fix per `.to` chain on a constexpr.

    Every link of `B.to(a).to(b)` is a finding. They all carry the plan of the chain's outermost
    link, which rewrites the chain whole (`tl.cast(tl.cast(B, a), b)`): one edit, rendered once,
    applied in one pass however long the chain (fixing a link per pass took a pass per link).
    """

    def __init__(self, kernel: Kernel):
        self.kernel = kernel
        self.kinds: dict[cst.Call, str | None] = {}
        self.plans: dict[cst.Call, FixPlan] = {}  # the outermost link of a chain -> the chain's fix
        self.top: dict[cst.Call, cst.Call] = {}  # a link -> the outermost link of its chain
        self.outer: dict[cst.BaseExpression, cst.Call] = {}  # receiver -> the call `receiver.f(...)`
        for event in kernel.flow.calls:
            if isinstance(event.call.func, cst.Attribute):
                self.outer[event.call.func.value] = event.call

    def kind(self, call: cst.Call) -> str | None:
        """_WRAP, _CONSTEXPR (a finding of either kind) or None."""
        if call not in self.kinds:
            self.kinds[call] = self._kind(call)
        return self.kinds[call]

    def _kind(self, call: cst.Call) -> str | None:
        func, flow = call.func, self.kernel.flow
        if not (isinstance(func, cst.Attribute) and func.attr.value == "to" and len(call.args) >= 1):
            return None
        if self.kernel.imports.resolve(func):
            return None
        receiver, dtype = func.value, call.args[0].value
        if _is_int64(dtype, self.kernel) and _is_index_arithmetic(receiver, flow):
            return _WRAP
        if flow.is_constexpr(receiver) or flow.is_specialisable(receiver):
            return _CONSTEXPR
        return None

    def _link(self, node: cst.BaseExpression | None) -> cst.Call | None:
        """`node` when it is a `.to(dtype)` on a constexpr (with options beyond the dtype it gets no fix)."""
        if isinstance(node, cst.Call) and len(node.args) == 1 and self.kind(node) == _CONSTEXPR:
            return node
        return None

    def chain_fix(self, call: cst.Call) -> FixPlan:
        """The fix of the chain `call` (a `.to(dtype)` on a constexpr) is a link of."""
        path = [call]
        while path[-1] not in self.top and (outer := self._link(self.outer.get(path[-1]))) is not None:
            path.append(outer)
        top = self.top.get(path[-1], path[-1])
        self.top.update(dict.fromkeys(path, top))
        if top not in self.plans:
            links = [top]
            while (inner := self._link(_receiver(links[-1]))) is not None:
                links.append(inner)
            value = _unparenthesized(_receiver(links[-1]))
            for link in reversed(links):
                value = _tl_cast(value, link.args[0].value, self.kernel)
            self.plans[top] = FixPlan("safe", "Use `tl.cast`", (Replace(top, value),))
        return self.plans[top]


def _receiver(link: cst.Call) -> cst.BaseExpression:
    """`x` of a `x.to(...)` call."""
    assert isinstance(link.func, cst.Attribute)
    return link.func.value


def _is_int64(dtype: cst.BaseExpression, kernel: Kernel) -> bool:
    full = kernel.imports.resolve(dtype)
    if full is not None:
        return full.endswith(".int64")
    return string_value(dtype) == "int64"


def _is_index_arithmetic(node: cst.BaseExpression, flow: Flow) -> bool:
    """Integer arithmetic that multiplies a runtime int32 index (program id, loop index, a
    do_not_specialize / typed size), loading nothing."""
    return not flow.flags(node) & (LOADED | TENSOR) and _multiplies_index(node, flow)


def _multiplies_index(node: cst.BaseExpression, flow: Flow) -> bool:
    if not isinstance(node, cst.BinaryOperation):
        return False
    if isinstance(node.operator, cst.Multiply) and flow.flags(node) & (PID | LOOP | SCALAR):
        return True
    return _multiplies_index(node.left, flow) or _multiplies_index(node.right, flow)


def _unparenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    return node.with_changes(lpar=(), rpar=()) if getattr(node, "lpar", None) else node


def _tl_cast(value: cst.BaseExpression, dtype: cst.BaseExpression, kernel: Kernel) -> cst.Call:
    tl = next((alias for alias, full in kernel.imports.aliases.items() if full == "triton.language"), "tl")
    return cst.Call(
        func=cst.Attribute(cst.Name(tl), cst.Name("cast")),
        args=[cst.Arg(value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(dtype)],
    )


def _cast_index_terms(node: cst.BaseExpression, flow: Flow, dtype: cst.BaseExpression) -> cst.BaseExpression:
    """Rewrite each index leaf (program id / loop index term) as `tl.cast(leaf, int64)`."""
    return _cast_leaves(_unparenthesized(node), flow, dtype)


def _cast_leaves(node: cst.BaseExpression, flow: Flow, dtype: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.BinaryOperation):
        return node.with_changes(left=_cast_leaves(node.left, flow, dtype), right=_cast_leaves(node.right, flow, dtype))
    if isinstance(node, cst.UnaryOperation):
        return node.with_changes(expression=_cast_leaves(node.expression, flow, dtype))
    if flow.flags(node) & (PID | LOOP | SCALAR):
        return _tl_cast(_unparenthesized(node), dtype, flow.kernel)
    return node
