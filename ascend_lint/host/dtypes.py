"""Tensor dtypes in host code: the torch and NumPy dtype names with their element sizes, the
conversions and allocations that give a tensor a dtype (`x.to(torch.int32)`, `torch.empty(...,
dtype=...)`, `x.new_empty(...)`), the dtypes an assert or a failing test requires, and the record
of the dtype a launch passes for a tensor (`TensorDtype`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from ..flow import NARROW_INTS
from ..imports import dotted_name


@dataclass(frozen=True)
class TensorDtype:
    """The dtype a launch passes for a tensor parameter (`int32`, `float32`, `bool`...) and the
    host node that shows it: an assert on the tensor's dtype, a conversion or an allocation."""

    dtype: str
    shown_by: cst.CSTNode
    # the node is in another module, that of a launch there: the launch ("`_fwd` of `op.py`")
    elsewhere: str | None = None

    @property
    def element_bytes(self) -> int:
        return _ELEMENT_BYTES[self.dtype]


INT_WIDTHS = {"int8": 8, "uint8": 8, "int16": 16, "int32": 32, "int64": 64}
FLOAT_DTYPES = frozenset({"float16", "bfloat16", "float32", "float64"})
# the bytes of an element of each torch dtype the host may show
_ELEMENT_BYTES = {
    **{dtype: bits // 8 for dtype, bits in INT_WIDTHS.items()},
    **{f"uint{bits}": bits // 8 for bits in (16, 32, 64)},
    "float16": 2,
    "bfloat16": 2,
    "float32": 4,
    "float64": 8,
    "bool": 1,
    **{f"float8_{variant}": 1 for variant in ("e4m3fn", "e4m3fnuz", "e5m2", "e5m2fnuz", "e8m0fnu")},
}
# torch's dtypes by the names they go by (`torch.int` is int32, `torch.float` float32)
_TORCH_DTYPES = {
    **{f"torch.{name}": name for name in _ELEMENT_BYTES},
    "torch.short": "int16",
    "torch.int": "int32",
    "torch.long": "int64",
    "torch.half": "float16",
    "torch.float": "float32",
    "torch.double": "float64",
}
# `t.int()`, `t.float()`...: the tensor methods converting to a dtype
_CONVERSIONS = {
    "char": "int8",
    "byte": "uint8",
    "short": "int16",
    "int": "int32",
    "long": "int64",
    "half": "float16",
    "bfloat16": "bfloat16",
    "float": "float32",
    "double": "float64",
    "bool": "bool",
}
# the words every spelling of a narrow integer dtype holds: `int32`, `torch.int`, `t.int()`...
NARROW_INT_WORDS = frozenset(
    {*NARROW_INTS, *(spelling.rsplit(".", 1)[-1] for spelling, dtype in _TORCH_DTYPES.items() if dtype in NARROW_INTS)}
    | {method for method, dtype in _CONVERSIONS.items() if dtype in NARROW_INTS}
)
# tensor methods making a tensor of the `dtype=` they are given
_DTYPE_METHODS = frozenset({"cumsum", "cumprod", "sum", "prod", "new_empty", "new_zeros", "new_ones", "new_full"})
# torch functions and tensor methods making a tensor of another's dtype when given none, or
# keeping their tensor's (`F.pad(x, (1, 0))`, `x.contiguous()`)
LIKE_FUNCTIONS = frozenset(f"torch.{kind}_like" for kind in ("empty", "zeros", "ones", "full", "rand", "randn"))
_TEMPLATE_FUNCTIONS = LIKE_FUNCTIONS | {"F.pad", "torch.nn.functional.pad", "torch.flip"}
_NEW_METHODS = frozenset({"new_empty", "new_zeros", "new_ones", "new_full"})
_TEMPLATE_METHODS = _NEW_METHODS | {"contiguous", "clone", "detach", "flip"}
# the operators that keep an integer tensor's dtype with a Python int (`/` makes a float)
INT_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


def _torch_dtype(node: cst.BaseExpression) -> str | None:
    """`int32` for `torch.int32` / `torch.int`, `float32` for `torch.float`, and so on; None
    for anything else."""
    return _TORCH_DTYPES.get(dotted_name(node) or "")


def agreed(dtypes: list[TensorDtype | None]) -> TensorDtype | None:
    """The first of `dtypes` when there is one and all are known and the same, else None."""
    known = {dtype.dtype if dtype is not None else None for dtype in dtypes}
    return dtypes[0] if len(known) == 1 and None not in known else None


def dtypes_asserted(test: cst.BaseExpression, holds: bool = True) -> Iterator[tuple[str, str]]:
    """(name, dtype) for each `t.dtype == torch.int32` (or `is`) the test holding requires, or
    `t.dtype != torch.int32` (`is not`) its failing (`holds=False`), also under `not` and among
    the operands of `and` (of `or` when it fails)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        yield from dtypes_asserted(test.expression, not holds)
        return
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And) == holds:
        yield from dtypes_asserted(test.left, holds)
        yield from dtypes_asserted(test.right, holds)
        return
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return
    comparison = test.comparisons[0]
    if not isinstance(comparison.operator, (cst.Equal, cst.Is) if holds else (cst.NotEqual, cst.IsNot)):
        return
    for tested, dtype in ((test.left, comparison.comparator), (comparison.comparator, test.left)):
        name = _torch_dtype(dtype)
        if (
            name is not None
            and isinstance(tested, cst.Attribute)
            and tested.attr.value == "dtype"
            and isinstance(tested.value, cst.Name)
        ):
            yield tested.value.value, name


def converted_or_allocated(call: cst.Call) -> str | None:
    """The dtype of the tensor `call` makes: `t.to(torch.int32)` (also `t.to(device,
    torch.int32)`, `dtype=`, `t.type(torch.int32)`), `t.int()` / `t.float()` (`_CONVERSIONS`), a torch function or a
    tensor method given `dtype=torch.float32` (`t.cumsum(0, dtype=torch.int32)`,
    `t.new_zeros(n, dtype=...)`, `torch.zeros_like(t, dtype=...)`)."""
    func = call.func
    keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    if isinstance(func, cst.Attribute) and func.attr.value in ("to", "type"):
        named = [arg.value for arg in call.args if arg.keyword is None or arg.keyword.value == "dtype"]
        given = [dtype for dtype in map(_torch_dtype, named) if dtype]
        return given[0] if len(given) == 1 else None
    if isinstance(func, cst.Attribute) and func.attr.value in _CONVERSIONS and not call.args:
        return _CONVERSIONS[func.attr.value]
    method = func.attr.value if isinstance(func, cst.Attribute) else None
    if "dtype" in keywords and ((dotted_name(func) or "").startswith("torch.") or method in _DTYPE_METHODS):
        return _torch_dtype(keywords["dtype"])
    return None


def template_of(call: cst.Call) -> cst.BaseExpression | None:
    """The tensor whose dtype a call given no `dtype=` copies: `x` of `torch.empty_like(x)`,
    `torch.zeros_like(x, device=d)`, `x.new_zeros(n)`, `F.pad(x, (1, 0))`, `x.contiguous()`."""
    if any(arg.keyword is not None and arg.keyword.value == "dtype" for arg in call.args):
        return None
    func = call.func
    first = call.args[0] if call.args else None
    if dotted_name(func) in _TEMPLATE_FUNCTIONS and first is not None and first.keyword is None and not first.star:
        return first.value
    if isinstance(func, cst.Attribute) and func.attr.value in _TEMPLATE_METHODS:
        return func.value
    return None
