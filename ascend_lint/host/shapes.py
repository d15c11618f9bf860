"""Tensor extents as host code writes them, read without following names: `x.shape[i]`,
`x.size(i)`, `len(x)`, a shape unpacked or multiplied (`math.prod(x.shape[1:])`), the dimensions
an allocation is given, a copy keeping a tensor's extents, a size read back from a tensor's
values (`.item()`); and the arithmetic on sizes (products of factors, as tuples of their
code) that grid sizing combines them with."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeGuard

import libcst as cst

from ..imports import dotted_name, int_literal
from ..nodes import (
    flat_code,
)
from .dtypes import LIKE_FUNCTIONS

READ_BACK_REDUCTIONS = ("max", "amax", "sum")  # of a tensor's values, read back with `.item()`: a runtime size
# Allocations whose size arguments are extents of the tensor made: `torch.empty(B, L)` (dims, or one
# sequence of them), `x.new_zeros((B, L))`, and those taking the sequence first (`torch.full(size,
# fill)`, `torch.empty_strided(size, stride)`, `x.new_full(size, fill)`); `size=` in either.
ALLOCATIONS_BY_DIMS = ("empty", "zeros", "ones", "randn", "rand", "new_empty", "new_zeros", "new_ones")
ALLOCATIONS_BY_SEQUENCE = ("full", "empty_strided", "new_full")
INT_CONVERSIONS = ("int", "operator.index")  # a size read as a Python int (`int(x.shape[0])`)


def is_positioned(value: cst.BaseExpression) -> bool:
    """`x.size(i)` or an item `shape[i]`: what may be an extent of known position."""
    return is_item(value) or (isinstance(value, cst.Call) and _is_size_call(value))


def divided_sizes(factors: tuple[str, ...], divisor: cst.BaseExpression) -> tuple[str, ...]:
    """`B * T * D` divided by `block`: `B * T * D/block` (the quotient grows with every factor)."""
    return (*factors[:-1], f"{factors[-1]}/{flat_code(divisor)}") if factors else ()


def summed_sizes(left: tuple[str, ...], right: tuple[str, ...], value: cst.BinaryOperation) -> tuple[str, ...]:
    """`a + b` or `a - b` of two sizes: the order of its larger term (a sum is at most twice
    that), of its first for a difference, never the product of the two; one size, the sum as
    written (`(head_q + head_k)`), when that term is one."""
    if not (left and right):
        return left or right
    larger = left if isinstance(value.operator, cst.Subtract) else max(left, right, key=len)
    return (f"({flat_code(value)})",) if len(larger) == 1 else larger


def shape_product(
    call: cst.Call, named_shape: Callable[[cst.Name], Sequence[cst.BaseExpression]]
) -> tuple[str, ...] | None:
    """The sizes `math.prod(...)` (or `functools.reduce(operator.mul, ..., 1)`, `multiplied_shape`)
    multiplies when it multiplies a tensor's extents: two for a shape or a slice of one with
    literal bounds (`_sliced_shape_product`: `x.shape[0]`, `prod(x.shape[1:d])` for
    `x.shape[:d]`), else one, the product as written (`prod(x.shape[dim + 1:])`,
    `prod(shape[:dim] + shape[dim + 1:])`: `shape_tensors`, each slice may hold one extent or
    none); None for another call."""
    shape = multiplied_shape(call)
    if shape is None:
        return None
    sliced = _sliced_shape_product(shape, named_shape)
    if sliced is not None:
        return sliced
    return (f"prod({flat_code(shape)})",) if shape_tensors(shape, named_shape) else None


def shape_tensors(
    value: cst.BaseExpression, named_shape: Callable[[cst.Name], Sequence[cst.BaseExpression]]
) -> set[str] | None:
    """The tensors, as written, whose extents a sequence holds when it holds extents and int
    literals only, one extent or more: a shape (`is_shape`), a slice of one with any bounds
    (`x.shape[dim + 1:]`), a copy (`list(...)`, `tuple(...)`), a name `named_shape` resolves
    (`shape = list(x.shape)`), a slice of such a name, a concatenation of such sequences (`shape[:dim]
    + shape[dim + 1:]`, `x.shape[:d] + (1,)`) and a tuple or list literal of extents, int
    literals and such sequences unpacked (`(*x.shape[:-1], 1)`); None for anything else."""
    return _sequence_tensors(value, named_shape, 0) or None


def _sequence_tensors(
    value: cst.BaseExpression, named_shape: Callable[[cst.Name], Sequence[cst.BaseExpression]], depth: int
) -> set[str] | None:
    """`shape_tensors`, empty for a sequence of int literals only (`(1,)`)."""
    if depth > 8:
        return None
    value = _copied_shape(value)
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Slice):
        return _sequence_tensors(value.value, named_shape, depth + 1)
    if isinstance(value, cst.Call) and _broadcasts_shapes(value):  # an item of one of the shapes, or a 1
        return _sequence_tensors(
            cst.Tuple([cst.StarredElement(arg.value) for arg in value.args]), named_shape, depth + 1
        )
    if is_shape(value):
        tensor = extent_of(indexed(value, 0))
        return None if tensor is None else {tensor}
    if isinstance(value, cst.Name):  # any of the sequences the name may hold
        named = [_sequence_tensors(each, named_shape, depth + 1) for each in named_shape(value)]
        return None if not named or None in named else set().union(*(each for each in named if each is not None))
    parts: list[set[str] | None] = []
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        parts = [
            _sequence_tensors(value.left, named_shape, depth + 1),
            _sequence_tensors(value.right, named_shape, depth + 1),
        ]
    elif isinstance(value, (cst.Tuple, cst.List)):
        for element in value.elements:
            if isinstance(element, cst.StarredElement):
                parts.append(_sequence_tensors(element.value, named_shape, depth + 1))
            elif isinstance(element.value, cst.Integer):
                parts.append(set())
            else:
                tensor = extent_of(element.value)
                parts.append(None if tensor is None else {tensor})
    else:
        return None
    if any(part is None for part in parts):
        return None
    return set().union(*(part for part in parts if part is not None))


def _sliced_shape_product(
    shape: cst.BaseExpression, named_shape: Callable[[cst.Name], Sequence[cst.BaseExpression]]
) -> tuple[str, ...] | None:
    """The sizes the product of `x.shape[a:b]` (literal bounds, no step) or of the whole
    `x.shape` / `x.size()` is: its first extent and the product of the others (`x.shape[0]`,
    `prod(x.shape[1:d])` for `x.shape[:d]`); None for another sequence. The shape may be a name
    `named_shape` resolves to a shape (`shape = list(x.shape)`, then `math.prod(shape[:axis])`)."""
    start: int | None = 0
    stop: cst.BaseExpression | None = None
    if isinstance(shape, cst.Subscript) and len(shape.slice) == 1 and isinstance(shape.slice[0].slice, cst.Slice):
        cut = shape.slice[0].slice
        start = 0 if cut.lower is None else int_literal(cut.lower)  # a negative start is not a literal
        shape, stop = shape.value, cut.upper
        if cut.step is not None:
            return None
    if isinstance(shape, cst.Name):
        named = named_shape(shape)
        if (
            len(named) != 1 or not is_shape(named[0]) or (stop is not None and not is_whole_shape(named[0]))
        ):  # one of several shapes, a slice of a slice
            return None
        shape = named[0]
    if start is None or not is_shape(shape):
        return None
    shape = _copied_shape(shape)
    if isinstance(shape, cst.Call) and not is_whole_shape(shape):  # shapes broadcast, none of them whole
        return None
    last = int_literal(stop)
    if last is not None and last - start < 2:  # `x.shape[:1]`: one extent; `x.shape[:0]`: none
        return (f"{flat_code(shape)}[{start}]",) if last - start == 1 else ()
    rest = flat_code(stop) if stop is not None else ""
    return f"{flat_code(shape)}[{start}]", f"prod({flat_code(shape)}[{start + 1}:{rest}])"


def allocation_dimensions(call: cst.Call) -> list[cst.Name]:
    """The names a tensor allocation passes as its dimensions (`ALLOCATIONS_BY_DIMS`,
    `ALLOCATIONS_BY_SEQUENCE`): `L` in `torch.empty(L, L)`, `torch.full((n, L), 0)`,
    `x.new_zeros(size=[n])`; none for another call."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        return []
    method = func.attr.value
    allocates = method.startswith("new_") or dotted_name(func) == f"torch.{method}"  # `x.new_empty`, `torch.empty`
    if not (allocates and method in ALLOCATIONS_BY_DIMS + ALLOCATIONS_BY_SEQUENCE):
        return []
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    sequences = [arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "size"]
    dimensions: list[cst.BaseExpression] = []
    if method in ALLOCATIONS_BY_SEQUENCE or (len(positional) == 1 and isinstance(positional[0], (cst.Tuple, cst.List))):
        sequences += positional[:1]
    else:
        dimensions += positional
    for sequence in sequences:
        if isinstance(sequence, (cst.Tuple, cst.List)):
            dimensions += [element.value for element in sequence.elements if isinstance(element, cst.Element)]
    return [dimension for dimension in dimensions if isinstance(dimension, cst.Name)]


def multiplied_shape(call: cst.Call) -> cst.BaseExpression | None:
    """What `math.prod(...)` (or `functools.reduce(operator.mul, ..., 1)`, also with `lambda a, b:
    a * b`) multiplies; None for another call."""
    callee = (dotted_name(call.func) or "").rsplit(".", 1)[-1]
    args = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    if callee == "reduce" and len(args) > 1 and _multiplies(args[0]):
        return args[1]
    return args[0] if callee == "prod" and args else None


def _multiplies(function: cst.BaseExpression) -> bool:
    """`operator.mul` (however imported) or `lambda a, b: a * b`."""
    if not isinstance(function, cst.Lambda):
        return (dotted_name(function) or "").rsplit(".", 1)[-1] == "mul"
    params = [param.name.value for param in function.params.params]
    body = function.body
    return (
        len(params) == 2
        and isinstance(body, cst.BinaryOperation)
        and isinstance(body.operator, cst.Multiply)
        and sorted(flat_code(operand) for operand in (body.left, body.right)) == sorted(params)
    )


def factors_of(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands a product multiplies (`H`, `K` of `H * K`), else `value` itself."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        return [*factors_of(value.left), *factors_of(value.right)]
    return [value]


def _is_size_call(call: cst.Call) -> bool:
    """`x.size(...)`."""
    return isinstance(call.func, cst.Attribute) and call.func.attr.value == "size"


def is_shape(value: cst.BaseExpression) -> bool:
    """`x.shape`, `x.size()`, a slice of either (`x.shape[:2]`) or a copy of one
    (`list(x.shape)`, `tuple(x.size())`): extents of a tensor."""
    if isinstance(value, cst.Call):
        copied = _copied_shape(value)
        if copied is not value:
            return is_shape(copied)
        return _broadcasts_shapes(value) or (_is_size_call(value) and not value.args)
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Slice):
        return is_shape(value.value)
    return isinstance(value, cst.Attribute) and value.attr.value == "shape"


def dimensions_of(value: cst.BaseExpression) -> str | None:
    """The tensor name `x` of `x.stride()`, `x.size()` or `x.shape`: one item per dimension."""
    if isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute):
        owner = value.func.value if value.func.attr.value in ("stride", "size") else None
    else:
        owner = value.value if isinstance(value, cst.Attribute) and value.attr.value == "shape" else None
    return owner.value if isinstance(owner, cst.Name) else None


def is_whole_shape(value: cst.BaseExpression) -> bool:
    """A shape that is no slice: `x.shape`, `x.size()`, `list(x.shape)`, shapes broadcast one of
    which is whole (as long as it)."""
    copied = _copied_shape(value)
    if isinstance(copied, cst.Call) and _broadcasts_shapes(copied):
        return any(is_whole_shape(arg.value) for arg in copied.args)
    return is_shape(value) and not isinstance(copied, cst.Subscript)


def _copied_shape(value: cst.BaseExpression) -> cst.BaseExpression:
    """`x.shape` for `list(x.shape)` / `tuple(x.shape)` (the same extents), else `value`."""
    while _is_plain_call(value) and isinstance(value.func, cst.Name) and value.func.value in ("list", "tuple"):
        value = value.args[0].value
    return value


def broadcast_tensors(call: cst.Call) -> list[cst.Name] | None:
    """The tensor names whose shapes `torch.broadcast_shapes(...)` broadcasts (`a`, `b` of
    `torch.broadcast_shapes(a.shape, b.shape[:-2])`); None when one is no name's."""
    names = []
    for arg in call.args:
        shape = _copied_shape(arg.value)
        while isinstance(shape, cst.Subscript):
            shape = _copied_shape(shape.value)
        owner = dimensions_of(shape)
        if owner is None:
            return None
        names.append(cst.Name(owner))
    return names


def broadcast_alignments(call: cst.Call, position: int) -> list[cst.Subscript]:
    """The items of the shapes `torch.broadcast_shapes(...)` broadcasts that its item at
    `position` may be the largest of (or a 1): each shape's at a negative position (they align
    from the right); at `i`, each one's `0` to `i` (a shape of fewer items aligns a lower one
    of its own there)."""
    places = [position] if position < 0 else range(position + 1)
    return [indexed(arg.value, place) for arg in call.args for place in places]


def _broadcasts_shapes(call: cst.Call) -> bool:
    """`torch.broadcast_shapes(...)` of shapes: a shape each item of which is the largest of the
    items the shapes align on it (from the right) or a 1, an extent of no one tensor, at no
    position of one."""
    return (
        dotted_name(call.func) == "torch.broadcast_shapes"
        and bool(call.args)
        and all(arg.keyword is None and not arg.star and is_shape(arg.value) for arg in call.args)
    )


def is_item(value: cst.BaseExpression) -> TypeGuard[cst.Subscript]:
    """`value[i]`: one index, not a slice."""
    return type(value) is cst.Subscript and len(value.slice) == 1 and type(value.slice[0].slice) is cst.Index


def _as_extent(value: cst.BaseExpression) -> cst.BaseExpression:
    """The extent a value reads as a Python int: `x.shape[0]` for `len(x)`, the argument of
    `int(...)` / `operator.index(...)` (`int(x.shape[0])`, how SymInts are made ints,
    `without_int_conversion`); else the value itself."""
    value = without_int_conversion(value)
    if _is_plain_call(value) and dotted_name(value.func) == "len":
        return indexed(cst.Attribute(value.args[0].value, cst.Name("shape")), 0)
    return value


def without_int_conversion(value: cst.BaseExpression) -> cst.BaseExpression:
    """`v` of `int(v)` / `operator.index(v)`, nested too (a value made a Python int keeps its
    value); else the value itself."""
    while _is_plain_call(value) and dotted_name(value.func) in INT_CONVERSIONS:
        value = value.args[0].value
    return value


def _is_plain_call(value: cst.BaseExpression) -> TypeGuard[cst.Call]:
    """A call with one argument, passed by position and not splatted."""
    return isinstance(value, cst.Call) and len(value.args) == 1 and not value.args[0].keyword and not value.args[0].star


# tensor methods returning a tensor of the same extents (a copy, another dtype or device)
_EXTENT_KEEPING = frozenset(
    {"contiguous", "clone", "detach", "to", "type", "float", "half", "bfloat16", "int", "long", "bool", "cpu", "npu"}
)


def copy_of(value: cst.BaseExpression) -> str | None:
    """The tensor name a contiguous copy of the same dtype is made of: `x.contiguous()`, `x if
    x.is_contiguous() else x.contiguous()`; else None."""
    if isinstance(value, cst.IfExp):
        test = value.test
        tested = (
            test.func.value
            if isinstance(test, cst.Call)
            and isinstance(test.func, cst.Attribute)
            and test.func.attr.value == "is_contiguous"
            else None
        )
        kept = value.body if isinstance(value.body, cst.Name) else None
        if tested is not None and kept is not None and tested.deep_equals(kept) and copy_of(value.orelse) == kept.value:
            return kept.value
        return None
    func = value.func if isinstance(value, cst.Call) else None
    if isinstance(func, cst.Attribute) and func.attr.value == "contiguous" and isinstance(func.value, cst.Name):
        return func.value.value
    return None


def extents_kept_from(value: cst.BaseExpression) -> str | None:
    """The tensor name whose extents `value` keeps: `x`, `x.contiguous()`, `x.to(torch.float32)`,
    `torch.empty_like(x)`, a choice of two such of one tensor (`x if x.is_contiguous() else
    x.contiguous()`); else None."""
    if isinstance(value, cst.IfExp):
        arms = {extents_kept_from(value.body), extents_kept_from(value.orelse)}
        return arms.pop() if len(arms) == 1 else None
    if isinstance(value, cst.Call):
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value in _EXTENT_KEEPING:
            return extents_kept_from(func.value)
        if dotted_name(func) in LIKE_FUNCTIONS and value.args and not value.args[0].keyword:
            return extents_kept_from(value.args[0].value)
        return None
    return value.value if isinstance(value, cst.Name) else None


def extent_of(value: cst.BaseExpression) -> str | None:
    """The tensor, as written, of an extent `x.shape[i]` / `x.size(i)` / `x.size()[i]`, also
    read as an int (`_as_extent`: `int(x.shape[0])`, `len(x)`)."""
    value = _as_extent(value)
    if is_item(value) and is_shape(value.value):
        owner = _copied_shape(value.value)
        while isinstance(owner, cst.Subscript):  # `x.shape[:2]`
            owner = _copied_shape(owner.value)
    elif isinstance(value, cst.Call) and value.args and _is_size_call(value):
        owner = value
    else:
        return None
    if isinstance(owner, cst.Call) and _broadcasts_shapes(owner):  # the shapes broadcast, as written
        return flat_code(owner)
    accessor = owner.func if isinstance(owner, cst.Call) else owner  # `x.size`, `x.shape`
    return flat_code(accessor.value) if isinstance(accessor, cst.Attribute) else None


def written_extent_position(value: cst.BaseExpression) -> tuple[cst.Name | cst.Call, int] | None:
    """The tensor name and the position, a literal, of `x.shape[i]`, `x.size(i)`, `x.size()[i]`
    or an item of a slice (`x.shape[1:][0]` is position 1, `g.shape[-2:][1]` is -1), also read
    as an int (`_as_extent`: `int(x.size(0))`, `len(x)` is position 0), or the shapes broadcast
    (`torch.broadcast_shapes(...)`, an extent of no one tensor) and the position of their
    item; None for another value, an index that is no literal, a stepped slice or a negative
    item of a slice."""
    value = _as_extent(value)
    shape: cst.BaseExpression = value
    if isinstance(value, cst.Call) and _is_size_call(value):
        args = value.args
        if len(args) != 1 or not is_dimension_arg(args[0]):
            return None
        position = _signed_literal(args[0].value)
    elif is_item(value) and is_shape(value.value):
        index = value.slice[0].slice
        assert isinstance(index, cst.Index)
        position, shape = _signed_literal(index.value), _copied_shape(value.value)
        while isinstance(shape, cst.Subscript) and position is not None:  # `x.shape[1:]`
            cut = shape.slice[0].slice
            assert isinstance(cut, cst.Slice)
            start = 0 if cut.lower is None else _signed_literal(cut.lower)
            if start is None or cut.step is not None or position < 0 or (start < 0 <= start + position):
                return None
            position, shape = start + position, _copied_shape(shape.value)
    else:
        return None
    if position is not None and isinstance(shape, cst.Call) and _broadcasts_shapes(shape):
        return shape, position
    accessor = shape.func if isinstance(shape, cst.Call) else shape  # `x.size`, `x.shape`
    if position is None or not isinstance(accessor, cst.Attribute) or not isinstance(accessor.value, cst.Name):
        return None
    return accessor.value, position


def _signed_literal(node: cst.BaseExpression) -> int | None:
    """The value of `3` or `-1`, else None."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        value = int_literal(node.expression)
        return None if value is None else -value
    return int_literal(node)


def is_extent(value: cst.BaseExpression) -> bool:
    """A tensor extent: `x.shape[i]` (also of `x.size()` or a slice `x.shape[:2]`, as unpacked
    into names), `x.size(i)`, `len(x)`, and its count of elements, `x.numel()`
    (`counted_tensor`)."""
    if isinstance(value, cst.Subscript):
        return is_item(value) and is_shape(value.value)
    if isinstance(value, cst.Call):
        func = value.func
        if counted_tensor(value) is not None:
            return True
        if isinstance(func, cst.Attribute):
            return func.attr.value == "size" and bool(value.args)
        return isinstance(func, cst.Name) and func.value == "len"
    return False


def counted_tensor(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` of a count of its elements: `x.numel()`, `x.nelement()` (its alias), `torch.numel(x)`;
    None for any other value."""
    if not isinstance(value, cst.Call) or not isinstance(func := value.func, cst.Attribute):
        return None
    if func.attr.value in ("numel", "nelement") and not value.args:
        return func.value
    if dotted_name(func) == "torch.numel" and len(value.args) == 1 and not value.args[0].keyword:
        return value.args[0].value
    return None


def is_read_back(value: cst.BaseExpression) -> bool:
    """A count read back from a tensor's values: `.item()` or `int(...)` of its largest value or
    its total (`t.max()`, `t.sum()`, `t.amax()`, `torch.max(t)`), such as the longest sequence
    of a varlen batch (`int(seq_lens.max().item())`), or `.item()` of its last value, the total of
    a cumulative count (`cu_seqlens[-1].item()`: the tokens of a varlen batch). As large as the
    data, like an extent."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, (cst.Attribute, cst.Name))):
        return False
    func = value.func
    if isinstance(func, cst.Attribute) and func.attr.value == "item" and not value.args:
        reduced = func.value
        if is_item(reduced):
            index = reduced.slice[0].slice
            assert isinstance(index, cst.Index)
            return _signed_literal(index.value) == -1
    elif isinstance(func, cst.Name) and func.value == "int" and len(value.args) == 1:
        reduced = value.args[0].value
    else:
        return False
    if not (isinstance(reduced, cst.Call) and isinstance(reduced.func, cst.Attribute)):
        return False
    if reduced.func.attr.value not in READ_BACK_REDUCTIONS or any(arg.keyword or arg.star for arg in reduced.args):
        return False
    if dotted_name(reduced.func) in {f"torch.{reduction}" for reduction in READ_BACK_REDUCTIONS}:
        return len(reduced.args) == 1  # `torch.max(t)`
    return not reduced.args  # `t.max()`: of all its values, not along a dimension


def one_extent(
    name: str, extents: list[tuple[str, ...] | None], arms: Sequence[tuple[str, ...]] = ()
) -> tuple[str, ...] | None:
    """The extent of a name from those of its origins: unknown if one is; the longest product
    of several sizes among `arms` (those of values bound in an arm of an `if` that picks a
    variant: that arm may run, whatever the sizes); the product when all are the same product
    of several sizes; else one size when any is a size, else bounded."""
    if None in extents:  # no Python call per extent: a name updated before each of n launches has n
        return None
    longest = max(arms, key=len, default=())
    if len(longest) > 1:
        return longest
    if len(set(extents)) == 1 and len(extents[0] or ()) > 1:
        return extents[0]
    return (name,) if any(extents) else ()


def indexed(value: cst.BaseExpression, index: int) -> cst.Subscript:
    """`value[index]` (`value[-1]` for -1)."""
    literal = cst.Integer(str(abs(index)))
    written = literal if index >= 0 else cst.UnaryOperation(cst.Minus(), literal)
    return cst.Subscript(value, [cst.SubscriptElement(cst.Index(written))])


def is_dimension_arg(arg: cst.Arg) -> bool:
    """The dimension of `x.size(i)` / `x.stride(i)`, by position or as torch's `dim=i`."""
    return not arg.star and (arg.keyword is None or arg.keyword.value == "dim")
