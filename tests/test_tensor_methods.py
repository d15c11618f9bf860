"""Tensor methods (`x.reshape(s)`, `x.to(t)`, `x.sum(1)`...) are the triton.language functions
they stand for: the tile model sizes them, and the value flow casts with them, as it does the
`tl.` forms."""

from __future__ import annotations

import pytest
from test_tiles import kernel_of

from ascend_lint.flow import PID, WIDE
from ascend_lint.imports import TENSOR_METHODS
from ascend_lint.tiles import DATA
from ascend_lint.ub_plan import UB_CAPACITY_BYTES, peak

HEADER = """
@triton.jit
def k(x, y, BT: tl.constexpr, BD: tl.constexpr):
    o_t = tl.arange(0, BT)
    o_d = tl.arange(0, BD)
    b = tl.load(x + o_t[:, None] * BD + o_d[None, :])
    r = tl.load(x + o_d)
    c = tl.load(x + o_t[:, None, None] * BD + o_d[None, :, None] + o_t[None, None, :])
    v = EXPR
    tl.store(y + o_t, v)
"""

# (method form, its triton.language form, the shape both give)
PAIRS = [
    ("b.reshape(BT * BD)", "tl.reshape(b, BT * BD)", "[BT * BD]"),
    ("b.reshape((BT * BD,))", "tl.reshape(b, (BT * BD,))", "[BT * BD]"),
    ("b.reshape([BD, BT])", "tl.reshape(b, [BD, BT])", "[BD, BT]"),
    ("b.reshape(BD, BT)", "tl.reshape(b, BD, BT)", "[BD, BT]"),
    ("b.reshape(r.shape)", "tl.reshape(b, r.shape)", "[BD]"),
    ("b.view(BD, 1, BT)", "tl.view(b, (BD, 1, BT))", "[BD, 1, BT]"),
    ("b.ravel()", "tl.ravel(b)", "[BT * BD]"),
    ("b.trans()", "tl.trans(b)", "[BD, BT]"),
    ("b.permute(0, 1)", "tl.permute(b, (0, 1))", "[BT, BD]"),
    ("c.permute(2, 0, 1)", "tl.permute(c, 2, 0, 1)", "[BT, BT, BD]"),
    ("c.trans((1, 0, 2))", "tl.trans(c, 1, 0, 2)", "[BD, BT, BT]"),
    ("r.broadcast_to(BT, BD)", "tl.broadcast_to(r, (BT, BD))", "[BT, BD]"),
    ("r.expand_dims(0)", "tl.expand_dims(r, 0)", "[1, BD]"),
    ("r.expand_dims(-1)", "tl.expand_dims(r, -1)", "[BD, 1]"),
    ("r.expand_dims((0, 2))", "tl.expand_dims(r, (0, 2))", "[1, BD, 1]"),
    ("b.sum(1)", "tl.sum(b, 1)", "[BT]"),
    ("b.sum(axis=0)", "tl.sum(b, axis=0)", "[BD]"),
    ("b.sum(1, True)", "tl.sum(b, 1, True)", "[BT, 1]"),
    ("b.max(1, False, True, True)", "tl.max(b, 1, False, True, True)", "[BT, 1]"),
    ("b.min(0, keep_dims=True)", "tl.min(b, 0, keep_dims=True)", "[1, BD]"),
    ("b.argmax(1)", "tl.argmax(b, 1)", "[BT]"),
    ("b.xor_sum(0)", "tl.xor_sum(b, 0)", "[BD]"),
    ("b.cumsum(0)", "tl.cumsum(b, 0)", "[BT, BD]"),
    ("b.to(tl.float32)", "tl.cast(b, tl.float32)", "[BT, BD]"),
    ("b.cast(tl.int8)", "tl.cast(b, tl.int8)", "[BT, BD]"),
    ("b.sigmoid()", "tl.sigmoid(b)", "[BT, BD]"),
    ("r.exp()", "tl.exp(r)", "[BD]"),
]


def result(expression: str):
    tiles = kernel_of(HEADER.replace("EXPR", expression)).tiles
    return dict(tiles.tiles)["v"]


def facts(value) -> tuple[object, ...]:
    return value.kind, value.shape_text(), value.width.resolve({}), value.expanded, value.across_rows


@pytest.mark.parametrize(("method", "function", "shape"), PAIRS, ids=[p[0] for p in PAIRS])
def test_a_tensor_method_is_its_language_function(method: str, function: str, shape: str) -> None:
    by_method, by_function = result(method), result(function)
    assert by_method.shape_text() == shape
    assert facts(by_method) == facts(by_function)


@pytest.mark.parametrize(
    ("expression", "bits"),
    [("b.to(tl.float32)", 32), ("b.cast(tl.int8)", 8), ("b.argmax(1)", 32), ("b.exp()", 32), ("b.reshape(BD, BT)", 16)],
)
def test_methods_keep_or_set_the_element_width(expression: str, bits: int) -> None:
    assert result(expression).width.resolve({}) == bits  # loads of unstated type: 16-bit


PENALTIES = """
@triton.jit
def k(logits, packed, counts, penalty, V, BLOCK: tl.constexpr):
    block = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b_l = tl.load(logits + block).to(tl.float32)
    b_seen = tl.load(counts + block) != 0
    o_p = tl.program_id(0) * (BLOCK // 32) + tl.arange(0, BLOCK // 32)
    bits = (tl.load(packed + o_p)[:, None] & (1 << tl.arange(0, 32))[None, :]) != 0
    b_prompt = bits.reshape(BLOCK)
    b_scale = tl.where(b_prompt | b_seen, penalty, 1.0)
    b_l *= tl.where(b_l > 0, 1.0 / b_scale, b_scale)
    tl.store(logits + block, b_l)
"""


def test_a_reshaped_mask_does_not_broadcast_into_a_phantom_tile() -> None:
    # vllm-ascend's worker/v2/sample/penalties.py: a [128, 32] bit matrix reshaped to [4096]
    tiles = kernel_of(PENALTIES).tiles
    shapes = {name: value.shape_text() for name, value in tiles.tiles}
    assert shapes["b_prompt"] == shapes["b_scale"] == "[BLOCK]"
    assert peak(tiles, {"BLOCK": 4096}).bytes < UB_CAPACITY_BYTES // 2


def test_a_method_on_what_is_not_a_tile_stays_opaque() -> None:
    # a method of an object the kernel does not make (here a parameter) is not `tl.store`; a
    # descriptor made in the kernel is a block pointer's DMA (`test_tiles`' descriptor cases)
    kernel = kernel_of(
        """
@triton.jit
def k(x, y, BT: tl.constexpr):
    b = tl.load(x + tl.arange(0, BT))
    y.store([0], b)
"""
    )
    assert [role for _, role in dict(kernel.tiles.tiles)["b"].users] == [DATA]


def test_an_advanced_block_pointer_keeps_its_block() -> None:
    kernel = kernel_of(
        """
@triton.jit
def k(x, y, T, BT: tl.constexpr, BD: tl.constexpr):
    p = tl.make_block_ptr(x, (T, BD), (BD, 1), (0, 0), (BT, BD), (1, 0))
    p = p.advance((BT, 0))
    b = tl.load(p)
    tl.store(y + tl.arange(0, BT), tl.sum(b, 1))
"""
    )
    assert dict(kernel.tiles.tiles)["b"].shape_text() == "[BT, BD]"


def test_cast_as_a_method_widens_like_to() -> None:
    flow = kernel_of(
        """
@triton.jit
def k(x):
    by_to = tl.program_id(0).to(tl.int64)
    by_cast = tl.program_id(1).cast(tl.int64)
"""
    ).flow
    assert flow.name_flags["by_cast"] & (PID | WIDE) == PID | WIDE
    assert flow.name_flags["by_cast"] == flow.name_flags["by_to"]


def test_the_methods_are_those_of_triton_ascend() -> None:
    language = pytest.importorskip("triton.language", reason="triton-ascend is not installed")
    # what `_tensor_member_fn` adds to `tl.tensor`, and its own `to`; not `logical_and` and
    # `logical_or`, methods with no triton.language function (they are `&` and `|`)
    added = {
        name
        for name, member in vars(language.tensor).items()
        if "_tensor_member_fn" in getattr(member, "__qualname__", "")
    }
    assert set(TENSOR_METHODS) == added | {"to"}
    modules = (language, language.math)  # `x.atan2(y)` is `tl.math.atan2(x, y)`
    assert all(any(callable(getattr(module, TENSOR_METHODS[name], None)) for module in modules) for name in added)
