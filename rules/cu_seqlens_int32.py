"""
## What it does
Flags pointer arithmetic that multiplies a sequence offset loaded as int32 by a stride:
`bos = tl.load(cu_seqlens + i_n).to(tl.int32)` and then `q + (bos * HV + i_hv) * V`, with no
int64 operand joining before the multiply. A *sequence offset* is a value loaded from a
pointer parameter holding packed-sequence boundaries, cumulative token offsets (its name, a
trailing `_ptr` aside, contains `seqlens` or `start_loc`, ends in `offsets` or `indptr`, or
starts with `cu_`: `cu_seqlens`, `seq_offsets`, `chunk_offsets`, `cu_seq_lens`, vLLM's
`query_start_loc_ptr`, `qo_indptr`) and cast `.to(tl.int32)` (or narrower), or a name set to
it plus or minus other int32 terms (`t0 = bos + i_t * BT`). A cast to int64 of the whole
offset comes too late: `v += ((bos * H + i_h) * V).to(tl.int64)` (or `tl.cast(..., tl.int64)`)
multiplies in int32 first. A pointer is a name the kernel loads or stores through, or passes to
a device function of the module that does (`k += ...`, then `_load_chunk(k, ...)` building its
block pointer).

Not flagged: lengths (`T = (eos - bos).to(tl.int32)`) and every use outside pointer
arithmetic (masks, loop bounds, block-pointer shapes and offsets, which must stay int32); a
multiply with an int64 operand (`tl.cast(bos, tl.int64) * HV`); a product cast to int64
before the large stride (`(bos * HV + i_hv).to(tl.int64) * V`); offsets loaded without a cast
(their width is the host tensor's, usually int64). An int64 `.to` of an offset that is a
program-id product in another specialisation (`else: bos = i_n * T`) is ASC002's finding (its
fix casts `bos` too), not reported twice.

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
`tl.cast(bos, tl.int64)`, so that product (and only it) is computed in int64: the same value
whenever the int32 computation did not wrap, the right one when it did; a pointer plus an int64
offset is valid Triton. The load itself is left alone, since its other uses (block-pointer
offsets, lengths) must stay int32.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from ascend_lint.fixes import FixPlan, Replace
from ascend_lint.flow import DEF, LOADED, MEMORY_FNS, NARROW, NARROW_INTS, WIDE, Event, Flow, pointer_arg
from ascend_lint.rule import Confirm, Evidence, Example, Kernel, ModuleContext, Report, Rule

MESSAGE = (
    "int32 sequence offset times a stride: `{names}` {verb} loaded from `{source}` as int32, so `{product}` "
    "multiplies in int32 and wraps on long packed batches; load it `.to(tl.int64)` (keep lengths int32) "
    "or cast it before the stride"
)
_ARITHMETIC = (cst.Add, cst.Subtract)


class CuSeqlensInt32(Rule):
    CODE = "ASC008"
    NAME = "cu-seqlens-int32"
    SUMMARY = "A `cu_seqlens` offset loaded as int32 multiplied by a stride in pointer arithmetic (int32 wrap)"
    FIX = "safe"
    REQUIRES_TOKENS = (tuple(sorted(NARROW_INTS)),)
    CONFIRM = Confirm(
        {"compile": Evidence.POINTER_OFFSET_IR},
        "the wrap needs packed batches past 2**31 elements; the compiler shows the i32 multiply",
    )

    VALID = (
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
    p_w = v + ((tl.cast(b0, tl.int64) * HV + i_hv) * V).to(tl.int64)
    i_c = tl.load(chunk_indices + i_t * 2).to(tl.int32)
    p_c = v + i_c * BT * V
    b2 = tl.load(cu_seqlens + i_n)
    p_u = v + (b2 * HV + i_hv) * V
""",
    )
    INVALID = (
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
def k(x, o, query_start_loc_ptr, cu_seq_lens, qo_indptr, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    o_d = tl.arange(0, D)
    qs = tl.load(query_start_loc_ptr + i_n).to(tl.int32)
    b_x = tl.load(x + (qs * H + i_h) * D + o_d)  # expect
    cs = tl.load(cu_seq_lens + i_n).to(tl.int32)
    tl.store(o + (cs * H + i_h) * D + o_d, b_x)  # expect
    qo = tl.load(qo_indptr + i_n).to(tl.int32)
    tl.store(o + qo * H * D + o_d, b_x)  # expect
""",
            fixed="""
@triton.jit
def k(x, o, query_start_loc_ptr, cu_seq_lens, qo_indptr, H: tl.constexpr, D: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    o_d = tl.arange(0, D)
    qs = tl.load(query_start_loc_ptr + i_n).to(tl.int32)
    b_x = tl.load(x + (tl.cast(qs, tl.int64) * H + i_h) * D + o_d)
    cs = tl.load(cu_seq_lens + i_n).to(tl.int32)
    tl.store(o + (tl.cast(cs, tl.int64) * H + i_h) * D + o_d, b_x)
    qo = tl.load(qo_indptr + i_n).to(tl.int32)
    tl.store(o + tl.cast(qo, tl.int64) * H * D + o_d, b_x)
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
    )

    def check_kernel(self, kernel: Kernel, context: ModuleContext) -> Iterator[Report]:
        flow = kernel.flow
        offsets = _sequence_offsets(flow, {p.name for p in kernel.params})
        if not offsets:
            return
        seen: set[cst.CSTNode] = set()
        for address in _addresses(flow):
            for term in _offset_terms(address):
                for product in _int32_products(term, flow, offsets):
                    if product in seen:
                        continue
                    seen.add(product)
                    reads = [
                        sub
                        for sub in _arithmetic_leaves(product)
                        if isinstance(sub, cst.Name) and _offset_of(sub, flow, offsets)
                    ]
                    names = sorted({read.value for read in reads})
                    sources = sorted({offsets[d] for read in reads for d in flow.reaching(read) if d in offsets})
                    alias = kernel.imports.language_alias
                    fix = FixPlan(
                        "safe",
                        "Cast the sequence offset to int64 before the stride",
                        tuple(Replace(read, f"{alias}.cast({read.value}, {alias}.int64)") for read in reads),
                    )
                    yield Report(
                        product,
                        MESSAGE.format(
                            names="`, `".join(names),
                            verb="is" if len(names) == 1 else "are",
                            source="`, `".join(sources),
                            product=context.module.code_for_node(product.with_changes(lpar=(), rpar=())),
                        ),
                        fix=fix,
                        facts={"offsets": tuple(names)},
                    )


def _is_boundary_pointer(name: str) -> bool:
    """A parameter holding packed-sequence boundaries (cumulative token offsets), `_ptr` aside:
    `cu_seqlens`, `seq_offsets`, `chunk_offsets`, a cumulative sum `cu_*` (`cu_seq_lens`,
    `cu_num_tokens`), vLLM's `query_start_loc` / `seq_start_loc`, a CSR `qo_indptr`."""
    stem = name.removesuffix("_ptr")
    return "seqlens" in stem or stem.endswith(("offsets", "indptr")) or stem.startswith("cu_") or "start_loc" in stem


def _sequence_offsets(flow: Flow, params: set[str]) -> dict[Event, str]:
    """Definitions of int32 sequence offsets -> the boundary pointer they come from: narrowing
    casts of a load from one, and names set to one plus or minus int32 terms."""
    found: dict[Event, str] = {}
    for events in flow.defs.values():
        for event in events:
            source = _narrow_boundary_load(event.value, flow, params)
            if source is not None:
                found[event] = source
    changed = bool(found)  # a derived offset reads one already found
    while changed:  # names derived by + / - (`t0 = bos + i_t * BT`)
        changed = False
        for events in flow.defs.values():
            for event in events:
                if event in found or event.value is None or not isinstance(event.node, cst.Name):
                    continue
                if not _int32_in_some_specialisation(event.value, flow):
                    continue
                for leaf in _sum_leaves(event.value):
                    source = _offset_of(leaf, flow, found)
                    if source is not None:
                        found[event] = source
                        changed = True
                        break
    return found


def _narrow_boundary_load(value: cst.BaseExpression | None, flow: Flow, params: set[str]) -> str | None:
    """The boundary parameter of `tl.load(cu_seqlens + ...).to(tl.int32)` (or `tl.cast`), else None."""
    if not isinstance(value, cst.Call) or not value.args:
        return None
    func, imports = value.func, flow.imports
    if isinstance(func, cst.Attribute) and func.attr.value == "to" and not imports.resolve(func):
        loaded, dtype = func.value, value.args[0].value
    elif imports.is_tl(func, "cast") and len(value.args) >= 2:
        loaded, dtype = value.args[0].value, value.args[1].value
    else:
        return None
    if not (flow.is_narrow_int(dtype) and isinstance(loaded, cst.Call) and imports.is_tl(loaded.func, "load")):
        return None
    base = flow.pointer_base(pointer_arg(loaded))
    return base if base in params and _is_boundary_pointer(base) else None


def _offset_of(node: cst.CSTNode, flow: Flow, offsets: dict[Event, str]) -> str | None:
    """The boundary pointer of an int32 sequence offset `node` reads, if it reads one."""
    if not isinstance(node, cst.Name):
        return None
    return next((offsets[d] for d in flow.reaching(node) if d in offsets), None)


def _addresses(flow: Flow) -> Iterator[cst.BaseExpression]:
    """Pointer expressions: memory calls' pointer operands and values assigned to pointer names."""
    for event in flow.calls_to(*MEMORY_FNS):
        pointer = pointer_arg(event.call)
        if pointer is not None:
            yield pointer
    for name in flow.pointer_names:
        for event in flow.defs.get(name, ()):
            if event.kind == DEF and event.value is not None:
                yield event.value


def _offset_terms(address: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The terms added to the base pointer: `a` and `b` in `p + a - b` (also in a block pointer's base)."""
    node: cst.BaseExpression | None = address
    while node is not None:
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ARITHMETIC):
            yield node.right
            node = node.left
        elif isinstance(node, cst.Call) and node.args:
            node = pointer_arg(node)
        else:
            node = None


def _int32_products(term: cst.BaseExpression, flow: Flow, offsets: dict[Event, str]) -> Iterator[cst.BinaryOperation]:
    """The outermost int32 multiplies in `term` with a sequence offset among their factors, also
    inside an int64 cast made after them (see `_widened_after_multiply`)."""
    if isinstance(term, cst.Call):
        receiver = _widened_after_multiply(term, flow)
        if receiver is not None:
            yield from _int32_products(receiver, flow, offsets)
        return
    if not isinstance(term, cst.BinaryOperation):
        return
    if (
        isinstance(term.operator, cst.Multiply)
        and _int32_in_some_specialisation(term, flow)
        and any(_offset_of(leaf, flow, offsets) for leaf in _arithmetic_leaves(term))
        and _scales(term, flow)
    ):
        yield term
        return
    if isinstance(term.operator, (*_ARITHMETIC, cst.Multiply)):
        yield from _int32_products(term.left, flow, offsets)
        yield from _int32_products(term.right, flow, offsets)


def _widened_after_multiply(cast: cst.Call, flow: Flow) -> cst.BaseExpression | None:
    """The receiver of an int64 cast of a whole offset (`((bos * H + i_h) * V).to(tl.int64)`:
    its products are made in int32 and wrap before the cast), else None: not when the cast's
    result is scaled again (`(bos * HV + i_hv).to(tl.int64) * V` widens before the large
    stride), nor when the receiver multiplies a program id or loop index in some
    specialisation (`bos = i_n * T` when not `IS_VARLEN`): ASC002 reports that cast, and its
    fix casts `bos` as well."""
    parts = flow.cast_parts(cast)
    if parts is None or not flow.is_int64(parts[1]) or flow.scaled_after(cast):
        return None
    if any(multiply is not None for multiply in flow.index_multiplies_widened(cast).values()):
        return None
    return parts[0]


def _int32_in_some_specialisation(node: cst.BaseExpression, flow: Flow) -> bool:
    """In some specialisation, `node` holds an int32 loaded value and no int64 operand."""
    return any(flags & NARROW and flags & LOADED and not flags & WIDE for flags, _ in flow.variants(node))


def _scales(product: cst.BinaryOperation, flow: Flow) -> bool:
    """Neither factor is the constant 0 or 1 (those cannot wrap)."""
    return flow.constant_int(product.left) not in (0, 1) and flow.constant_int(product.right) not in (0, 1)


def _sum_leaves(node: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The terms of a `+` / `-` chain."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, _ARITHMETIC):
        yield from _sum_leaves(node.left)
        yield from _sum_leaves(node.right)
    else:
        yield node


def _arithmetic_leaves(node: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The operands of a `+` / `-` / `*` tree (calls and casts are leaves)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (*_ARITHMETIC, cst.Multiply)):
        yield from _arithmetic_leaves(node.left)
        yield from _arithmetic_leaves(node.right)
    else:
        yield node
