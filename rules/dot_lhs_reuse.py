"""
## What it does
Flags every read of a tile after it was the left operand of `tl.dot` — as the left operand
again, as the right operand, stored, used in arithmetic, inserted with `tl.insert_slice`,
copied — until the tile is reassigned. A tile defined before a loop and used as the left
operand inside it is reported at the dot: the next trip reads the clobbered tile.

## Why is this bad?
On Ascend, `tl.dot(lhs, rhs)` may overwrite `lhs` in the unified buffer (CUDA Triton leaves
it intact). Every later read sees corrupted data: silent numeric drift against the Torch
oracle, no compile error. Replaying a real FLA `chunk_o` kernel with the clobber emulated,
removing one documented `+ 0.0` guard turns the max error from 0.0 into NaN.

The analysis follows control flow: the left operand may be wrapped (`b_a.to(...)`,
`tl.trans(b_a)`, `-b_a`), nested dots clobber the inner left operand first, a reassignment
ends tracking, `.dtype`/`.shape` are not data reads, `tl.dot(b_k, tl.trans(b_k))` reads
both operands before the dot runs, and reads on an `if` arm exclusive with the dot (the
other arm, or another `if` on the same constexpr test) are not after it.

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
or reload the tile from global memory. A copy taken after the dot copies corrupted data.

## Fix safety
Unsafe: the fix inserts `b_A_c = b_A + 0.0` before the first left-operand dot and rewrites
the later reads to the copy. It costs one tile of UB, which can push a kernel over the UB
budget, so it is offered, not applied by default.
"""

from __future__ import annotations

import libcst as cst

from ascend_lint.rule import Report, Rule

_WRAPPERS = ("trans", "permute", "reshape", "view", "cast")


class DotLhsReuse(Rule):
    CODE = "ASC003"
    NAME = "dot-lhs-reuse"
    SUMMARY = "A tile is read after `tl.dot` used it as the left operand (Ascend may clobber it)"
    REQUIRES_TEXT = ("dot",)

    VALID = [
        '''
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
''',
        '''
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
''',
        '''
@triton.jit
def k(p_a, p_b, p_o, NT):
    b_h = tl.zeros([16, 16], dtype=tl.float32)
    for i_t in range(NT):
        b_a = tl.load(p_a)
        b_h = tl.dot(b_a, b_h)
    tl.store(p_o, b_h)
''',
    ]
    INVALID = [
        '''
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_b = tl.load(p_b)
    b_o = tl.dot(b_a.to(tl.float16), b_b)
    tl.store(p_o, b_a)  # expect
    b_d = tl.dot(tl.trans(b_b), b_a)  # expect
    b_e = -tl.dot(-b_d, b_b)  # expect
    b_c = b_d + 0.0  # expect
''',
        '''
@triton.jit
def k(p_a, p_b, p_c, p_o):
    b_a = tl.load(p_a)
    b_o = tl.dot(tl.dot(b_a, tl.load(p_b)), tl.load(p_c))
    b_a *= 2.0  # expect
    tl.store(p_o, b_a)
''',
        '''
@triton.jit
def k(p_a, p_b, p_o, NT):
    b_a = tl.load(p_a)
    b_h = tl.zeros([16, 16], dtype=tl.float32)
    for i_t in range(NT):
        b_h += tl.dot(b_a, tl.load(p_b + i_t))  # expect
    tl.store(p_o, b_h)
''',
        '''
@triton.jit
def k(p_a, p_b, p_o, USE_G: tl.constexpr):
    b_a = tl.load(p_a)
    if USE_G:
        b_o = tl.dot(b_a, tl.load(p_b))
    if USE_G:
        b_o = tl.insert_slice(b_o, b_a, [0, 0], [16, 16], [1, 1])  # expect
    tl.store(p_o, b_o)
''',
    ]

    def check_kernel(self, kernel, context):
        flow = kernel.flow
        for event in flow.calls_to("dot"):
            tile = _lhs_tile(event.node, kernel)
            if tile is None:
                continue
            loop_carried = False
            for read in flow.reads_after(event, tile.value):
                if read.index < event.index:
                    loop_carried = True
                    continue
                yield Report(
                    read.node,
                    f"`{tile.value}` is read after it was the left operand of `tl.dot` "
                    f"(line {{related_line}}), which may overwrite it on Ascend",
                    related=((event.node, f"`tl.dot` that may clobber `{tile.value}`"),),
                )
            if loop_carried:
                yield Report(
                    event.node,
                    f"`{tile.value}` is the left operand of this `tl.dot` in a loop but defined "
                    "before it: the next trip reads the tile this dot may have clobbered on Ascend",
                    related=((tile, f"`{tile.value}` read here on every trip"),),
                )


def _lhs_tile(call: cst.Call, kernel) -> cst.Name | None:
    """The named tile that is the dot's left operand, through .to()/tl.trans()/minus/parens."""
    args = [a for a in call.args if a.keyword is None or a.keyword.value in ("input", "a")]
    if not args:
        return None
    node = args[0].value
    while True:
        if isinstance(node, cst.Name):
            return node
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            node = node.expression
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "to" \
                and not kernel.imports.resolve(node.func):
            node = node.func.value
        elif isinstance(node, cst.Call) and kernel.imports.is_tl(node.func, *_WRAPPERS) and node.args:
            node = node.args[0].value
        else:
            return None
