"""ASC008 follows device functions calling device functions however long the chain (each
function read once per check, not up to a fixed depth): an offset passed down several helpers
to the one multiplying it, a product returned up several helpers into an address, an offset
passed down to a helper reading a returned product, a load returned up several helpers from the
boundary pointer the caller passes down. Functions calling each other back end."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

HEAD = "import triton\nimport triton.language as tl\n\n"
LOADED = "    bos = tl.load(cu_seqlens + tl.program_id(0)).to(tl.int32)\n"
KERNEL = "@triton.jit\ndef k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):\n" + LOADED


def passed_down(n: int) -> str:
    """`k` passes `bos` to `_h{n-1}`, each helper on to the next; `_h0` multiplies it (line 6)."""
    return (
        HEAD
        + "@triton.jit\ndef _h0(v, o, b, H: tl.constexpr, V: tl.constexpr):\n"
        + "    tl.store(o + b * H * V + tl.arange(0, V), tl.load(v + tl.arange(0, V)))\n\n"
        + "".join(
            f"@triton.jit\ndef _h{i}(v, o, b, H: tl.constexpr, V: tl.constexpr):\n    _h{i - 1}(v, o, b, H, V)\n\n"
            for i in range(1, n)
        )
        + KERNEL
        + f"    _h{n - 1}(v, o, bos, H, V)\n"
    )


def returned_up(n: int) -> str:
    """`_p0` returns `b * H * V` (line 6), each helper returns the one before it plus one, `k`
    adds the last one's result to an address."""
    return (
        HEAD
        + "@triton.jit\ndef _p0(b, H: tl.constexpr, V: tl.constexpr):\n    return b * H * V\n\n"
        + "".join(
            f"@triton.jit\ndef _p{i}(b, H: tl.constexpr, V: tl.constexpr):\n    return _p{i - 1}(b, H, V) + 1\n\n"
            for i in range(1, n)
        )
        + KERNEL
        + f"    tl.store(o + _p{n - 1}(bos, H, V) + tl.arange(0, V), tl.load(v + tl.arange(0, V)))\n"
    )


def passed_to_a_returned_product(n: int) -> str:
    """`passed_down` with `_h0` adding `_off(b, H, V)` (`b * H * V`, line 6) to its address."""
    return passed_down(n).replace(
        "@triton.jit\ndef _h0(v, o, b, H: tl.constexpr, V: tl.constexpr):\n    tl.store(o + b * H * V",
        "@triton.jit\ndef _off(b, H: tl.constexpr, V: tl.constexpr):\n    return b * H * V\n\n"
        "@triton.jit\ndef _h0(v, o, b, H: tl.constexpr, V: tl.constexpr):\n    tl.store(o + _off(b, H, V)",
    )


def loaded_up(n: int, named: bool = False) -> str:
    """`_s0` returns `tl.load(cu + i).to(tl.int32)`, each helper returns the one before it (as
    it is, or `named`: through a name), `k` passes `cu_seqlens` down and multiplies the result
    (reported in `k`, the last line)."""
    returned = "    b = _s{}(cu, i)\n    return b\n" if named else "    return _s{}(cu, i)\n"
    return (
        HEAD
        + "@triton.jit\ndef _s0(cu, i):\n    return tl.load(cu + i).to(tl.int32)\n\n"
        + "".join(f"@triton.jit\ndef _s{i}(cu, i):\n" + returned.format(i - 1) + "\n" for i in range(1, n))
        + "@triton.jit\ndef k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):\n"
        + f"    bos = _s{n - 1}(cu_seqlens, tl.program_id(0))\n"
        + "    tl.store(o + bos * H * V + tl.arange(0, V), tl.load(v + tl.arange(0, V)))\n"
    )


def _rows(source: str) -> list[int]:
    result = lint_source(source, "k.py", settings(select=["ASC008"]))
    assert result.error is None, result.error
    return sorted(f.location.row for f in result.findings)


@pytest.mark.parametrize("make", [passed_down, returned_up, passed_to_a_returned_product])
@pytest.mark.parametrize("n", [1, 3, 8])
def test_an_offset_followed_along_a_chain_of_helpers(make, n: int) -> None:
    assert _rows(make(n)) == [6]


@pytest.mark.parametrize("named", [False, True])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_a_load_returned_up_a_chain_of_helpers(n: int, named: bool) -> None:
    """The boundary is the pointer `k` passes down, whatever the helpers call it (`cu`)."""
    source = loaded_up(n, named)
    assert _rows(source) == [source.count("\n")]
    assert _rows(source.replace("cu_seqlens", "lens")) == []  # no boundary pointer
    assert _rows(source.replace(".to(tl.int32)", ".to(tl.int64)")) == []


def test_a_chain_of_helpers_passing_no_offset_is_silent() -> None:
    assert _rows(passed_down(8).replace("_h7(v, o, bos, H, V)", "_h7(v, o, tl.program_id(1), H, V)")) == []


def test_helpers_calling_each_other_back_end() -> None:
    """Recursion does not compile in Triton; the lint reads it once per function and ends."""
    source = passed_down(3).replace("    _h0(v, o, b, H, V)\n", "    _h0(v, o, b, H, V)\n    _h2(v, o, b, H, V)\n")
    assert "_h2(v, o, b, H, V)" in source.split("def _h2")[0]  # `_h1` calls `_h2`, which calls `_h1`
    assert _rows(source) == [6]
