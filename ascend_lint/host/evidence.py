"""What a value a launch passes shows about a kernel parameter, read off the value alone: None
(a literal, an arm of a conditional, an `is None` test), a float, a tensor whose last
dimension has stride 1 (a new contiguous allocation; `x.stride(-1)`), and -1."""

from __future__ import annotations

import libcst as cst

from ..imports import dotted_name, int_literal, str_literal
from ..nodes import (
    flat_code,
)
from .dtypes import converted_or_allocated, template_of
from .shapes import is_dimension_arg, is_item


def possible_arms(value: cst.IfExp) -> list[cst.BaseExpression]:
    """The arms of `a if test else b` that can hold None-ness of their own: not `x` in
    `... if x is None else x` (there `x` is not None)."""
    test, arms = value.test, [value.body, value.orelse]
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and is_none(test.comparisons[0].comparator):
        tested = flat_code(test.left)
        operator = test.comparisons[0].operator
        guarded = (
            value.orelse if isinstance(operator, cst.Is) else value.body if isinstance(operator, cst.IsNot) else None
        )
        arms = [arm for arm in arms if not (arm is guarded and flat_code(arm) == tested)]
    return arms


# torch's factories of a new contiguous tensor, and those taking another's shape (contiguous
# only with `memory_format=torch.contiguous_format`: by default they keep the other's strides)
_ALLOCATIONS = frozenset({"torch.empty", "torch.zeros", "torch.ones", "torch.full", "torch.rand", "torch.randn"})
_LIKE_ALLOCATIONS = frozenset({f"{allocation}_like" for allocation in _ALLOCATIONS})


def last_dimension(value: cst.BaseExpression) -> frozenset[int]:
    """The indices naming the last dimension of a new contiguous tensor, whose stride is 1
    (`torch.empty((H, T))`, `torch.zeros(H, T) + float("-inf")`: -1 and 1;
    `torch.empty(shape)`, `torch.empty_like(x, memory_format=torch.contiguous_format)`: -1);
    none for any other value (`out=` or another `memory_format` given, arithmetic with a
    tensor, a view)."""
    if isinstance(value, cst.BinaryOperation) and isinstance(
        value.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)
    ):
        if _is_number(value.right):
            return last_dimension(value.left)
        return last_dimension(value.right) if _is_number(value.left) else frozenset()
    if not isinstance(value, cst.Call):
        return frozenset()
    factory = dotted_name(value.func)
    keywords = {arg.keyword.value: arg.value for arg in value.args if arg.keyword is not None}
    layout = keywords.get("memory_format")
    contiguous = layout is not None and dotted_name(layout) == "torch.contiguous_format"
    if "out" in keywords or (layout is not None and not contiguous):
        return frozenset()
    if factory in _LIKE_ALLOCATIONS:
        return frozenset({-1}) if contiguous else frozenset()
    if factory not in _ALLOCATIONS:
        return frozenset()
    sizes = [arg for arg in value.args if arg.keyword is None]
    if factory == "torch.full":
        sizes = sizes[:1]  # `torch.full(size, fill_value)`
    shape = keywords.get("size", sizes[0].value if len(sizes) == 1 else None)
    if isinstance(shape, (cst.Tuple, cst.List)):
        rank = None if any(isinstance(e, cst.StarredElement) for e in shape.elements) else len(shape.elements)
    elif shape is not None or any(arg.star for arg in sizes):  # `torch.empty(shape)`, `torch.empty(*shape)`
        rank = None
    else:
        rank = len(sizes)  # `torch.empty(H, T)`
    return frozenset({-1} if rank is None else {-1, rank - 1})


def _is_number(node: cst.BaseExpression) -> bool:
    """A number literal (signed), or `float(...)` / `int(...)`: a Python scalar."""
    if isinstance(node, cst.UnaryOperation):
        return _is_number(node.expression)
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Name) and node.func.value in ("float", "int")
    return isinstance(node, (cst.Integer, cst.Float))


def stride_read(value: cst.BaseExpression) -> tuple[str, cst.BaseExpression] | None:
    """The tensor and dimension of a stride read as `t.stride(i)` (`t.stride(dim=i)`) or
    `t.stride()[i]`."""
    if is_item(value):
        index = value.slice[0].slice
        if not (isinstance(index, cst.Index) and isinstance(value.value, cst.Call) and not value.value.args):
            return None
        call, dimension = value.value, index.value
    elif isinstance(value, cst.Call) and len(value.args) == 1 and is_dimension_arg(value.args[0]):
        call, dimension = value, value.args[0].value
    else:
        return None
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "stride" and isinstance(func.value, cst.Name):
        return func.value.value, dimension
    return None


def is_minus_one(node: cst.BaseExpression) -> bool:
    return (
        isinstance(node, cst.UnaryOperation)
        and isinstance(node.operator, cst.Minus)
        and int_literal(node.expression) == 1
    )


def is_none(node: cst.BaseExpression) -> bool:
    """`None`, or an annotation that admits it (`Optional[...]`, `Union[X, None]`, `X | None`)."""
    if isinstance(node, cst.Name):
        return node.value == "None"
    if isinstance(node, cst.Subscript):
        generic = (dotted_name(node.value) or "").rsplit(".", 1)[-1]
        if generic == "Union":
            return any(isinstance(e.slice, cst.Index) and is_none(e.slice.value) for e in node.slice)
        return generic == "Optional"
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
        return is_none(node.left) or is_none(node.right)
    if isinstance(node, cst.SimpleString):  # a string annotation
        text = str_literal(node) or ""
        return "Optional" in text or "None" in text
    return False


def is_float(node: cst.BaseExpression) -> bool:
    """A Python float: a float literal (signed), `float(...)`, the `float` annotation, or
    arithmetic with a float operand."""
    if isinstance(node, cst.Float):
        return True
    if isinstance(node, cst.UnaryOperation):
        return is_float(node.expression)
    if isinstance(node, cst.Name):
        return node.value == "float"
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Name) and node.func.value == "float"
    if isinstance(node, cst.BinaryOperation):
        return isinstance(node.operator, cst.Divide) or is_float(node.left) or is_float(node.right)
    return False


def makes_a_tensor(node: cst.BaseExpression) -> bool:
    """A torch tensor made where it is written: a torch factory (`torch.empty(n)`), a conversion
    or a call given a dtype (`torch.randint(0, 9, (n,), dtype=torch.uint8)`, `t.to(torch.int32)`),
    or a tensor made like another (`torch.empty_like(x)`, `x.contiguous()`)."""
    return isinstance(node, cst.Call) and (
        dotted_name(node.func) in _ALLOCATIONS | _LIKE_ALLOCATIONS
        or converted_or_allocated(node) is not None
        or template_of(node) is not None
    )


def tests_for_none(flag_value: cst.BaseExpression, pointer_value: cst.BaseExpression) -> bool:
    """`p is not None`, `p is None`, `bool(p)` where `p` is the pointer's argument, also under
    `not` (`not (p is None)`), `int(...)` / `bool(...)`, as the test of a choice between two
    literals (`True if p is not None else False`, `1 if ... else 0`), or as an operand of `and`
    / `or` (`p is not None and W > 0`: the flag is False whenever `p` is None)."""
    while isinstance(flag_value, cst.UnaryOperation) and isinstance(flag_value.operator, cst.Not):
        flag_value = flag_value.expression
    pointer = flat_code(pointer_value)
    if isinstance(flag_value, cst.Comparison) and len(flag_value.comparisons) == 1:
        target = flag_value.comparisons[0]
        if isinstance(target.operator, (cst.Is, cst.IsNot)) and is_none(target.comparator):
            return flat_code(flag_value.left) == pointer
    if isinstance(flag_value, cst.Call) and isinstance(flag_value.func, cst.Name) and len(flag_value.args) == 1:
        (arg,) = flag_value.args
        if flag_value.func.value == "bool" and flat_code(arg.value) == pointer:
            return True
        return flag_value.func.value in ("bool", "int") and tests_for_none(arg.value, pointer_value)
    if isinstance(flag_value, cst.IfExp) and _literal(flag_value.body) and _literal(flag_value.orelse):
        return tests_for_none(flag_value.test, pointer_value)
    if isinstance(flag_value, cst.BooleanOperation):
        return tests_for_none(flag_value.left, pointer_value) or tests_for_none(flag_value.right, pointer_value)
    return False


def _literal(node: cst.BaseExpression) -> bool:
    """`True`, `False` or an integer literal."""
    return (isinstance(node, cst.Name) and node.value in ("True", "False")) or int_literal(node) is not None
