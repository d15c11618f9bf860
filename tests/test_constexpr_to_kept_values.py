"""ASC002 after probe 13: a broadcast (`offs[:, None]`) and an int32 cast (`(i_b *
T).to(tl.int32)`) keep the int32 product's wrapped value, so an int64 cast of them comes too
late; a device function's literal default is what a call leaving it out passes (a constexpr);
and a multiply in a call of the receiver (`tl.minimum(i_b * T, B)`) gets a reason naming that
call, not "not written in the cast's receiver"."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

HEADER = "import triton\nimport triton.language as tl\n\n\n"


def kernel(line: str) -> str:
    return HEADER + (
        "@triton.jit\n"
        "def k(x, B, T: tl.constexpr, BT: tl.constexpr):\n"
        "    i_b = tl.program_id(0)\n"
        "    offs = i_b * BT + tl.arange(0, BT)\n"
        f"    o = {line}\n"
        "    tl.store(x + o, 0)\n"
    )


def asc002(source: str) -> list[tuple[int, str | None]]:
    result = lint_source(source, "k.py", settings(select=["ASC002"]))
    assert result.error is None
    return [(f.location.row, None if f.fix is not None else f.no_fix_reason) for f in result.findings]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("(i_b * T + tl.arange(0, BT))[:, None].to(tl.int64)", None),
        ("offs[:, None].to(tl.int64)", "not written in the cast's receiver"),
        ("(i_b * T).to(tl.int32).to(tl.int64)", "casts the int32 multiply to `tl.int32` first"),
        ("tl.minimum(i_b * T, B).to(tl.int64)", "an argument of `tl.minimum` in the receiver"),
        ("tl.where(i_b > 0, i_b * T, 0).to(tl.int64)", "an argument of `tl.where` in the receiver"),
    ],
)
def test_a_cast_of_a_kept_product_wraps(line: str, reason: str | None) -> None:
    [(row, why)] = asc002(kernel(line))
    assert row == 9
    assert why is None if reason is None else reason in (why or "")


@pytest.mark.parametrize("line", ["offs.to(tl.int64)[:, None]", "(i_b * T).to(tl.int16).to(tl.int64)"])
def test_a_cast_already_flagged_or_truncating_is_read_as_before(line: str) -> None:
    """The broadcast of a cast is the cast's finding (the inner one); a cast to int16 keeps the
    low bits only, which the int32 wrap leaves right."""
    assert [row for row, _ in asc002(kernel(line))] == ([9] if line.startswith("offs") else [])


DEFAULTS = (
    HEADER
    + """@triton.jit
def _h(x, n=1, eps=1e-6, m=None):
    tl.store(x, n.to(tl.int64) + eps.to(tl.float32))


@triton.jit
def k(x, n):
    _h(x{args})
"""
)


@pytest.mark.parametrize(("args", "rows"), [("", [7, 7]), (", 2, 0.5", [7, 7]), (", tl.program_id(0), tl.load(x)", [])])
def test_a_device_functions_literal_default_is_passed_as_a_constexpr(args: str, rows: list[int]) -> None:
    """`_h(x)` leaves `n` and `eps` out: Triton binds their literal defaults, constexprs with no
    `.to`, as the constants a call passes are; runtime values passed for them are not."""
    assert [row for row, _ in asc002(DEFAULTS.format(args=args))] == rows
