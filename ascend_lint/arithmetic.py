"""Arithmetic that authors write several ways, recognised in each: a division rounding up, the
power of two at or above a value, `n - 1`, the literal 1; whether a chain of comparisons
holds with the values its operands are given, and what `and`, `or` and `not` make of values
known or not."""

from __future__ import annotations

from collections.abc import Callable
from operator import eq, ge, gt, le, lt, ne
from typing import TypeVar

import libcst as cst

from .imports import dotted_name, int_literal
from .nodes import flat_code

Folded = TypeVar("Folded")  # what `folded_logic`'s leaves give


def ceiling_division(node: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """(size, block) when `node` divides rounding up, however it is written: `triton.cdiv(T, BT)`
    (any `cdiv`), `(T + BT - 1) // BT`, `(T - 1) // BT + 1`, `-(-T // BT)`, `math.ceil(T / BT)`."""
    if isinstance(node, cst.Call):
        callee = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
        args = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
        if callee == "cdiv" and len(args) == 2 == len(node.args):
            return args[0], args[1]
        quotient = args[0] if callee == "ceil" and len(args) == 1 == len(node.args) else None
        if isinstance(quotient, cst.BinaryOperation) and isinstance(quotient.operator, cst.Divide):
            return quotient.left, quotient.right
        return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = node.expression
        if (
            isinstance(inner, cst.BinaryOperation)
            and isinstance(inner.operator, cst.FloorDivide)
            and isinstance(inner.left, cst.UnaryOperation)
            and isinstance(inner.left.operator, cst.Minus)
        ):
            return inner.left.expression, inner.right
        return None
    if not isinstance(node, cst.BinaryOperation):
        return None
    if isinstance(node.operator, cst.Add) and is_one(node.right):  # `(T - 1) // BT + 1`
        left = node.left
        if isinstance(left, cst.BinaryOperation) and isinstance(left.operator, cst.FloorDivide):
            size = less_one(left.left)
            if size is not None:
                return size, left.right
        return None
    if not isinstance(node.operator, cst.FloorDivide):
        return None
    numerator, block = node.left, flat_code(node.right)
    # `(T + BT - 1) // BT`
    total = less_one(numerator)
    if (
        isinstance(total, cst.BinaryOperation)
        and isinstance(total.operator, cst.Add)
        and flat_code(total.right) == block
    ):
        return total.left, node.right
    # `(T + (BT - 1)) // BT`
    if isinstance(numerator, cst.BinaryOperation) and isinstance(numerator.operator, cst.Add):
        less = less_one(numerator.right)
        if less is not None and flat_code(less) == block:
            return numerator.left, node.right
    return None


def power_of_two_above(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`n` when `node` is the power of two at or just above it however it is written:
    `triton.next_power_of_2(n)` (any `next_power_of_2`), `1 << (n - 1).bit_length()`, `2 ** (n
    - 1).bit_length()`, `2 ** math.ceil(math.log2(n))`; else None."""
    if isinstance(node, cst.Call):
        callee = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
        return node.args[0].value if callee == "next_power_of_2" and len(node.args) == 1 else None
    if not isinstance(node, cst.BinaryOperation) or not isinstance(node.right, cst.Call):
        return None
    shifted = isinstance(node.operator, cst.LeftShift) and is_one(node.left)
    if not (shifted or (isinstance(node.operator, cst.Power) and int_literal(node.left) == 2)):
        return None
    exponent = node.right
    if isinstance(exponent.func, cst.Attribute) and exponent.func.attr.value == "bit_length" and not exponent.args:
        return less_one(exponent.func.value)  # `(n - 1).bit_length()`
    callee = (dotted_name(exponent.func) or "").rsplit(".", 1)[-1]
    logarithm = exponent.args[0].value if callee == "ceil" and len(exponent.args) == 1 else None
    if isinstance(logarithm, cst.Call) and (dotted_name(logarithm.func) or "").endswith("log2"):
        return logarithm.args[0].value if len(logarithm.args) == 1 else None  # `math.ceil(math.log2(n))`
    return None


def less_one(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`a` of `a - 1`, else None."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Subtract) and is_one(node.right):
        return node.left
    return None


def is_one(node: cst.BaseExpression) -> bool:
    """A literal 1 (`1`, `0x1`)."""
    return int_literal(node) == 1


_COMPARISONS: dict[type[cst.BaseCompOp], Callable[[float, float], bool]] = {
    cst.Equal: eq,
    cst.NotEqual: ne,
    cst.LessThan: lt,
    cst.LessThanEqual: le,
    cst.GreaterThan: gt,
    cst.GreaterThanEqual: ge,
}


def folded_logic(node: cst.BaseExpression, leaf: Callable[[cst.BaseExpression], Folded | None]) -> Folded | bool | None:
    """The value of `node` through its `and`, `or` and `not`, as Python computes it, over the
    values `leaf` gives its other parts (None: not known), three-valued: `x and y` is `x` when
    false, else `y` (`or` the other way round), and the right side is not asked when the left
    decides (`False and x` is False); with the left not known, the right decides only a
    truth value both outcomes give (`x and False` is False, `x or True` is True); `not x` is
    not known when `x` is not."""
    if type(node) is cst.BooleanOperation:
        deciding = type(node.operator) is cst.Or  # the truth that decides the whole on one side
        left = folded_logic(node.left, leaf)
        if left is None:
            right = folded_logic(node.right, leaf)
            return right if isinstance(right, bool) and right == deciding else None
        return left if bool(left) == deciding else folded_logic(node.right, leaf)
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Not:
        inner = folded_logic(node.expression, leaf)
        return None if inner is None else not inner
    return leaf(node)


def comparison_holds(test: cst.Comparison, value: Callable[[cst.BaseExpression], float | None]) -> bool | None:
    """Whether a comparison holds, as Python decides it, with its operands the numbers `value`
    gives them (None: not known): each link of its chain an ordering, `==` / `!=`, or `in` /
    `not in` a tuple, list or set written out (`m in (1, 2)`; `m in ()` never holds). False
    when one link fails, else None when one is not known (`is`, an operand with no number)."""
    outcome: bool | None = True
    left = value(test.left)
    for target in test.comparisons:
        kind, right = type(target.operator), target.comparator
        if kind is cst.In or kind is cst.NotIn:
            member = _membership(left, right, value)
            held = None if member is None else member == (kind is cst.In)
            right_value = None  # a collection is no number
        else:
            compare = _COMPARISONS.get(kind)
            right_value = value(right)
            held = None if compare is None or left is None or right_value is None else compare(left, right_value)
        if held is False:
            return False
        outcome = outcome if held else None
        left = right_value
    return outcome


def _membership(
    member: float | None, items: cst.BaseExpression, value: Callable[[cst.BaseExpression], float | None]
) -> bool | None:
    """Whether `member` is one of the items of a tuple, list or set written out; None when it,
    or one of them, has no number (`value`), or the items are no such collection."""
    if member is None or not isinstance(items, cst.Tuple | cst.List | cst.Set):
        return None
    values = [value(each.value) if isinstance(each, cst.Element) else None for each in items.elements]
    return None if None in values else member in values
