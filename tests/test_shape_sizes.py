"""Sizes made from a tensor's shape (ascend_lint/host/shapes.py): products of slices with any
bounds, of concatenations of slices, of loops over a slice, and products with a factor at least 1
(FlagGems' `_ascend` index_fill, nanmedian and upsample ops), read through ASC010's message."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from ascend_lint.host.shapes import extent_of, shape_product, shape_tensors, written_extent_position

KERNEL = """
import functools
import math
import operator

import triton
import triton.language as tl


@triton.jit
def k(out, N):
    tl.store(out + tl.program_id(0) * N + tl.program_id(1), 0)
"""


def _grows(lint, body: str) -> list[str]:
    findings = lint(KERNEL + textwrap.dedent(body), select=["ASC010"])
    return [f.message.split("grows as ")[1].split(" > ")[0] for f in findings]


@pytest.mark.parametrize(
    "product",
    [
        "math.prod(out.shape[dim + 1 :])",
        "math.prod(out.shape[-2:])",
        "math.prod(out.size()[dim:])",
        "math.prod(list(out.shape)[dim:])",
        "functools.reduce(operator.mul, out.shape[dim:], 1)",
        "functools.reduce(lambda a, b: a * b, out.shape[dim:], 1)",
        "math.prod(out.shape[:dim] + out.shape[dim + 1 :])",
        "math.prod((*out.shape[:dim], 1))",
    ],
)
def test_the_product_of_a_slice_with_any_bounds_is_one_size(lint, product: str) -> None:
    body = f"""
    def launch(out, dim, index):
        n = {product}
        k[(n, index.numel())](out, 1)
        k[(n,)](out, 1)
    """
    assert _grows(lint, body) == ["n * index.numel()"]


def test_a_product_of_slices_of_a_name_bound_to_a_shape_is_one_size(lint) -> None:
    body = """
    def nanmedian(inp, dim):
        N = inp.shape[dim]
        shape = list(inp.shape)
        out_shape = shape[:dim] + shape[dim + 1 :]
        M = math.prod(out_shape)
        k[(M, triton.cdiv(N, 1024))](inp, N)
        k[(math.prod(shape[:dim] + shape[dim + 1 :]), 4)](inp, N)

    def changed(inp, dim):
        shape = list(inp.shape)
        out_shape = shape[:dim] + shape[dim + 1 :]
        out_shape.append(inp.shape[0])
        k[(math.prod(out_shape), inp.shape[dim])](inp, 1)
    """
    assert _grows(lint, body) == ["M * N/1024"]


def test_the_rows_left_once_a_product_of_own_extents_divides_the_count_are_a_size(lint) -> None:
    body = """
    def by_prod(out, dim, index):
        inner = math.prod(out.shape[dim + 1 :])
        outer = out.numel() // (out.size(dim) * inner)
        k[(outer, index.numel())](out, 1)

    def by_loop(out, dim, index):
        dim_size = out.size(dim)
        inner = 1
        for size in out.shape[dim + 1 :]:
            inner *= size
        outer = out.numel() // (dim_size * inner)
        k[(outer, index.numel())](out, 1)

    def by_another_tensor(out, other, dim, index):
        inner = 1
        for size in other.shape[dim + 1 :]:
            inner *= size
        outer = out.numel() // (out.size(dim) * inner)
        k[(outer, index.numel())](out, 1)
        outer = out.numel() // (out.size(dim) * math.prod(other.shape[dim + 1 :]))
        k[(outer, index.numel())](out, 1)
    """
    assert _grows(lint, body) == ["outer * index.numel()", "outer * index.numel()"]


def test_a_product_with_a_factor_at_least_one_grows_as_its_other_sizes(lint) -> None:
    body = """
    _plan = {}

    def direct(x, cfg):
        n_images = x.shape[0] * x.shape[1]
        H = x.shape[2]
        rows = max(1, min(H, (n_images * H + 127) // 128))
        k[(n_images * triton.cdiv(H, rows),)](x, H)
        k[(triton.cdiv(H, rows) * x.shape[0], x.shape[1])](x, H)
        blocks = max(1, cfg.n)
        k[(n_images * blocks,)](x, H)
        k[(n_images * triton.next_power_of_2(cfg.n),)](x, H)

    def cached(x):
        n_images = x.shape[0] * x.shape[1]
        H = x.shape[2]
        (rows,) = _plan[H]
        k[(n_images * triton.cdiv(H, rows),)](x, H)

    def not_counts(x, ratio, cfg):
        n_images = x.shape[0] * x.shape[1]
        k[(n_images * ratio,)](x, 1)  # a parameter: may be below 1
        k[(n_images * triton.cdiv(cfg.n, 4),)](x, 1)  # a count it cannot size
        k[(x.shape[0] * triton.cdiv(x.shape[1], ratio),)](x, 1)  # one size
        k[(min(n_images, 4096) * triton.cdiv(x.shape[2], ratio),)](x, 1)  # bounded times a count
    """
    assert _grows(lint, body) == [
        "x.shape[0] * x.shape[1]",
        "x.shape[0] * x.shape[1]",
        "x.shape[0] * x.shape[1]",
        "x.shape[0] * x.shape[1]",
        "x.shape[0] * x.shape[1]",
    ]


def test_shape_products_and_the_tensors_a_sequence_holds_extents_of() -> None:
    def product(code: str) -> tuple[str, ...] | None:
        call = cst.parse_expression(code)
        assert isinstance(call, cst.Call)
        return shape_product(call, lambda name: [])

    assert product("math.prod(x.shape[1:])") == ("x.shape[1]", "prod(x.shape[2:])")  # unchanged
    assert product("math.prod(x.shape[d + 1 :])") == ("prod(x.shape[d + 1 :])",)
    assert product("math.prod(x.shape[:d] + y.shape[d:])") == ("prod(x.shape[:d] + y.shape[d:])",)
    assert product("math.prod((1, 2))") is None  # no extent: no size
    assert product("math.prod(x.shape[:d] + sizes)") is None  # a name it cannot resolve
    assert product("functools.reduce(lambda a, b: a + b, x.shape[d:], 1)") is None  # a sum

    def tensors(code: str) -> set[str] | None:
        return shape_tensors(cst.parse_expression(code), lambda name: [])

    assert tensors("x.shape[:d] + (1,) + y.size()[d:]") == {"x", "y"}
    assert tensors("[*x.shape[:-1], x.shape[-1], 4]") == {"x"}
    assert tensors("(1,)") is None
    assert tensors("x.shape[:d] + [n]") is None


def test_shapes_broadcast_are_no_one_tensors_extents() -> None:
    """An item of `torch.broadcast_shapes(a.shape, b.shape)` is the largest of the items the
    shapes align on it: an extent of the shapes broadcast, not the first tensor's."""
    broadcast = "torch.broadcast_shapes(a.shape, b.shape[:-1])"
    assert shape_tensors(cst.parse_expression(broadcast), lambda name: []) == {"a", "b"}
    assert extent_of(cst.parse_expression(f"{broadcast}[0]")) == broadcast
    position = written_extent_position(cst.parse_expression(f"{broadcast}[-1]"))
    assert position is not None and isinstance(position[0], cst.Call) and position[1] == -1
    sliced = "math.prod(torch.broadcast_shapes(a.shape[:1], b.shape[:1]))"  # one item, not two sizes
    call = cst.parse_expression(sliced)
    assert isinstance(call, cst.Call)
    assert shape_product(call, lambda name: []) == (f"prod({sliced[10:-1]})",)
