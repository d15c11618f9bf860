"""
## What it does
Flags an `if` whose test mixes a constexpr operand with a runtime one (`or`, `and`,
`not FLAG or runtime`, either order) when an arm uses an optional pointer parameter —
one a `@triton.heuristics` lambda tests against `None`, or one the kernel guards with a
pure-constexpr `if` elsewhere — without an inner pure-constexpr guard of its own.

## Why is this bad?
Triton-Ascend does not short-circuit a constexpr operand of a mixed test at compile time:
measured on triton-ascend 3.2, every such mix lowers both arms when the flag is False. With
the pointer passed as `None`, the arm still builds `initial_state + offset`, and the compile
fails with `AttributeError: 'NoneType' object has no attribute 'type'`.

## Example
```python
if USE_INITIAL_STATE or i_t * BT < W:
    b_h = tl.load(initial_state + offs)
else:
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
```

## Use instead
```python
if not USE_INITIAL_STATE:
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
elif i_t * BT < W:
    b_h = tl.load(initial_state + offs)
else:
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
```
Nest the constexpr test outside the runtime one so the unused arm is never compiled.
Pure-constexpr tests (`if USE_G or USE_G_GAMMA:`) and conditional expressions
(`tl.load(p) if HAS_P else 1.0`) are fine.
"""

from __future__ import annotations

import libcst as cst

from ascend_lint.flow import CONST, READ
from ascend_lint.rule import Report, Rule


class OrConstexprOptionalPointer(Rule):
    CODE = "ASC004"
    NAME = "or-constexpr-optional-pointer"
    SUMMARY = "A constexpr flag OR-ed with a runtime test around an optional pointer compiles `None + offset`"
    REQUIRES_TEXT = (" or ", " and ")

    VALID = [
        '''
@triton.heuristics({"USE_INITIAL_STATE": lambda args: args["h0"] is not None})
@triton.jit
def k(h0, x, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr, USE_G: tl.constexpr, USE_GK: tl.constexpr):
    i_t = tl.program_id(0)
    if not USE_INITIAL_STATE:
        b_h = tl.zeros([16], dtype=tl.float32)
    elif i_t * BT < W:
        b_h = tl.load(h0 + tl.arange(0, 16))
    else:
        b_h = tl.zeros([16], dtype=tl.float32)
    if USE_G or USE_GK:
        b_h = b_h * 2
    if USE_INITIAL_STATE or i_t * BT < W:
        b_h = b_h + tl.load(x + i_t)
    b_s = tl.load(h0) if USE_INITIAL_STATE else 1.0
''',
        '''
@triton.jit
def k(h0, x, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_INITIAL_STATE:
        b_h = tl.load(h0)
    if USE_INITIAL_STATE or i_t * BT < W:
        if USE_INITIAL_STATE:
            b_h = tl.load(h0 + i_t)
''',
    ]
    INVALID = [
        '''
@triton.heuristics({"USE_INITIAL_STATE": lambda args: args["initial_state"] is not None})
@triton.jit
def k(initial_state, W, BT: tl.constexpr, USE_INITIAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    if USE_INITIAL_STATE or i_t * BT < W:  # expect
        b_h = tl.load(initial_state + tl.arange(0, 16))
    else:
        b_h = tl.zeros([16], dtype=tl.float32)
''',
        '''
@triton.jit
def k(h0, ht, x, STORE_FINAL_STATE: tl.constexpr, USE_H0: tl.constexpr):
    i_n = tl.program_id(0)
    n = tl.load(x + i_n)
    if USE_H0:
        b_h = tl.load(h0)
    if STORE_FINAL_STATE:
        tl.store(ht, b_h)
    if n > 0 and not STORE_FINAL_STATE:  # expect
        b_h = b_h * 2
    else:
        tl.store(ht + i_n, b_h)
''',
    ]

    def check_kernel(self, kernel, context):
        flow = kernel.flow
        optional = self._optional_pointers(kernel)
        if not optional:
            return
        for branch in flow.branches:
            operands = _bool_operands(branch.node.test)
            if len(operands) < 2:
                continue
            kinds = {flow.flags(o) == CONST for o in operands}
            if kinds != {True, False}:
                continue
            depth = _depth(branch)
            for span in (branch.body, branch.orelse):
                for event in flow.events_in(span, READ):
                    if event.name in optional and not any(b.test_is_constexpr for b, _ in event.conds[depth + 1 :]):
                        test = _one_line(context.module.code_for_node(branch.node.test.with_changes(lpar=(), rpar=())))
                        yield Report(
                            branch.node,
                            f"`if {test}` mixes a constexpr flag with a runtime test around optional "
                            f"pointer `{event.name}`: both arms compile, so `{event.name}=None` fails to "
                            "compile; nest the constexpr test outside",
                            end_node=branch.node.test,
                            related=((event.node, f"`{event.name}` used here"),),
                        )
                        break
                else:
                    continue
                break

    def _optional_pointers(self, kernel) -> set[str]:
        flow = kernel.flow
        params = {p.name for p in kernel.params if not p.is_constexpr and p.name not in kernel.provided_constexprs}
        optional = set(kernel.optional_pointer_flags) & params
        for name in params & flow.pointer_names:
            reads = [e for e in flow.events if e.kind == READ and e.name == name]
            # a pointer also used outside every `if` is always passed: it cannot be None
            if any(any(b.test_is_constexpr for b, _ in e.conds) for e in reads) and all(e.conds for e in reads):
                optional.add(name)
        return optional


def _one_line(code: str) -> str:
    """A multi-line test as one line for the message: comments and line breaks dropped."""
    return " ".join(part for part in (line.split("#")[0].strip() for line in code.splitlines()) if part)


def _bool_operands(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """Leaves of an and/or tree, with `not` stripped."""
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    if isinstance(test, cst.BooleanOperation):
        return _bool_operands(test.left) + _bool_operands(test.right)
    return [test]


def _depth(branch) -> int:
    """How many `if` arms enclose the branch's own test (its arms' events add one)."""
    return len(branch.point.conds)
