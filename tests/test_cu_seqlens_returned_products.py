"""ASC008: a product a device function returns into a caller's address is read as if the caller
wrote it (`v + _off(bos, H, V)`, `_off` returning `b * H * V`), reported in the function where it
is multiplied; not when the caller widens the result before its stride, nor outside an address."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

MODULE = """\
import triton
import triton.language as tl


@triton.jit
def _off(b, H: tl.constexpr, V: tl.constexpr):
    return b * H * V


@triton.jit
def _offs(b, i_h, H: tl.constexpr, V: tl.constexpr):
    row = b * H + i_h
    return row * V, b * H


@triton.jit
def k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
{lines}
    tl.store(o + tl.arange(0, V), b_v)
"""


def _rows(lines: str) -> list[int]:
    source = MODULE.format(lines="\n".join("    " + line for line in lines.splitlines()))
    findings = lint_source(source, "k.py", settings(select=["ASC008"])).findings
    return sorted(f.location.row for f in findings)


@pytest.mark.parametrize(
    ("lines", "rows"),
    [
        ("b_v = tl.load(v + _off(bos, H, V) + tl.arange(0, V))", [7]),  # `b * H * V` in `_off`
        ("off = _off(bos, H, V)\nb_v = tl.load(v + off + tl.arange(0, V))", [7]),
        # the item of the tuple the address reads: `row * V` (reported where `row` is made)
        ("off, n = _offs(bos, i_h, H, V)\nb_v = tl.load(v + off + tl.arange(0, V))", [12]),
        # the other item is a mask bound, not an offset
        ("off, n = _offs(bos, i_h, H, V)\nb_v = tl.load(v + tl.arange(0, V), mask=tl.arange(0, V) < n)", []),
        # `b * H` times a stride in the caller; widened before it, as `(bos * H).to(tl.int64) * V`
        ("_, n = _offs(bos, i_h, H, V)\nb_v = tl.load(v + n * V + tl.arange(0, V))", [13]),
        ("_, n = _offs(bos, i_h, H, V)\nb_v = tl.load(v + n.to(tl.int64) * V + tl.arange(0, V))", []),
        ("b_v = tl.load(v + _off(bos, H, 1).to(tl.int64) * V + tl.arange(0, V))", []),
        ("b_v = tl.load(v + _off(bos, H, V).to(tl.int64) + tl.arange(0, V))", [7]),  # cast too late
        ("b_v = tl.load(v + tl.arange(0, V), mask=tl.arange(0, V) < _off(bos, H, V))", []),
        # the call reaching the address passes no offset; the one passing `bos` reaches a mask only
        ("m = _off(bos, H, V)\nb_v = tl.load(v + _off(i_h, 1, V) + tl.arange(0, V), mask=tl.arange(0, V) < m)", []),
        ("m = _off(i_h, 1, V)\nb_v = tl.load(v + _off(bos, H, V) + tl.arange(0, V), mask=tl.arange(0, V) < m)", [7]),
    ],
)
def test_products_returned_into_an_address(lines: str, rows: list[int]) -> None:
    assert _rows(lines) == rows


def test_the_fix_casts_the_offset_in_the_function() -> None:
    source = MODULE.format(lines="    b_v = tl.load(v + _off(bos, H, V) + tl.arange(0, V))")
    (finding,) = lint_source(source, "k.py", settings(select=["ASC008"])).findings
    assert finding.fix is not None
    assert [edit.content for edit in finding.fix.edits] == ["tl.cast(b, tl.int64)"]


def test_no_fix_where_a_caller_also_takes_the_result_as_a_block_pointer_offset() -> None:
    lines = (
        "row = _off(bos, 1, H)\n"
        "b_v = tl.load(v + row * V + tl.arange(0, V))\n"
        "tl.store(tl.make_block_ptr(o, (8, V), (V, 1), (row, 0), (8, V), (1, 0)), tl.zeros([8, V], dtype=tl.float32))"
    )
    source = MODULE.format(lines="\n".join("    " + line for line in lines.splitlines()))
    findings = lint_source(source, "k.py", settings(select=["ASC008"])).findings
    assert [f.location.row for f in findings] == [7]
    assert findings[0].fix is None


CHAINED = """\
import triton
import triton.language as tl


@triton.jit
def _base(b, H: tl.constexpr, V: tl.constexpr):
    return b * H * V


@triton.jit
def _off(b, i_h, H: tl.constexpr, V: tl.constexpr):
    return _base(b, H, V) + i_h * V


@triton.jit
def _named_off(b, i_h, H: tl.constexpr, V: tl.constexpr):
    t = _base(b, H, V)
    return t + i_h * V


@triton.jit
def k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    {line}
    tl.store(o + tl.arange(0, V), b_v)
"""


@pytest.mark.parametrize(
    ("line", "rows"),
    [
        ("b_v = tl.load(v + _off(bos, i_h, H, V) + tl.arange(0, V))", [7]),  # `b * H * V` in `_base`
        ("b_v = tl.load(v + _named_off(bos, i_h, H, V) + tl.arange(0, V))", [7]),  # through a name
        # the chain's result bounds a mask only; a chain passed no sequence offset
        ("b_v = tl.load(v + tl.arange(0, V), mask=tl.arange(0, V) < _off(bos, i_h, H, V))", []),
        ("b_v = tl.load(v + _off(i_h, i_h, H, V) + tl.arange(0, V))", []),
    ],
)
def test_products_a_helper_returns_through_another(line: str, rows: list[int]) -> None:
    findings = lint_source(CHAINED.format(line=line), "k.py", settings(select=["ASC008"])).findings
    assert sorted(f.location.row for f in findings) == rows
