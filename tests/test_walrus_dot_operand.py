"""ASC003: a dot's left operand written as `(name := value)` with a value that is no view of a
named tile (`tl.load(p)`, `x * 2.0`) is the new tile `name` binds (`Flow.view_source`): the dot
may clobber it, so its reads after the dot are reported, with no fix (no line before the dot
holds the tile to copy)."""

from __future__ import annotations

import pytest
from conftest import snippet_source


@pytest.mark.parametrize("value", ["tl.load(p_a)", "tl.load(p_a) * 2.0", "tl.load(p_a).to(tl.float16)"])
def test_a_tile_bound_in_the_left_operand_is_clobbered(lint, value: str) -> None:
    source, offset = snippet_source(
        f"""
@triton.jit
def k(p_a, p_b, p_o):
    b_o = tl.dot((b_a := {value}), tl.load(p_b))
    tl.store(p_o, b_o + b_a)
"""
    )
    [finding] = lint(source, select=["ASC003"])
    assert finding.location.row - offset == 4
    assert "`b_a` is read after it was the left operand of `tl.dot`" in finding.message
    assert finding.fix is None
    assert "bound by `:=` in the dot's own statement" in (finding.no_fix_reason or "")


def test_a_view_bound_in_the_left_operand_still_names_its_tile(lint) -> None:
    """`(b_t := tl.trans(b_a))` stays an alias of `b_a`: both are read after the dot."""
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_o = tl.dot((b_t := tl.trans(b_a)), tl.load(p_b))
    tl.store(p_o, b_o + b_t + b_a)
"""
    )
    findings = lint(source, select=["ASC003"])
    assert [(f.location.row - offset, f.location.column) for f in findings] == [(5, 25), (5, 31)]


def test_a_bound_tile_read_only_before_the_dot_is_silent(lint) -> None:
    source, _ = snippet_source(
        """
@triton.jit
def k(p_a, p_b, p_o):
    b_o = tl.dot((b_a := tl.load(p_a)), tl.load(p_b))
    b_a = tl.load(p_a)
    tl.store(p_o, b_o + b_a)
"""
    )
    assert lint(source, select=["ASC003"]) == []


@pytest.mark.parametrize(
    ("body", "read_row", "dot_row", "trip"),
    [
        # read after the dot in the same trip: as in straight-line code
        ("acc = tl.dot((b_a := tl.load(p_a + i)), b_w, acc)\n        tl.store(p_o + i, b_a)", 6, 5, False),
        # read before the dot: the next trip reads the tile the previous trip's dot clobbered
        ("tl.store(p_o + i, b_a)\n        acc = tl.dot((b_a := tl.load(p_a + i)), b_w, acc)", 5, 6, True),
    ],
)
def test_a_tile_bound_in_the_left_operand_in_a_loop_is_reported_at_the_read(
    lint, body: str, read_row: int, dot_row: int, trip: bool
) -> None:
    """The tile is new on every trip, so nothing is carried into the dot itself: each read is
    reported where it is, the dot related, as ASC003 reports any read after a dot."""
    source, offset = snippet_source(
        f"""
@triton.jit
def k(p_a, p_w, p_o, N):
    b_w, b_a, acc = tl.load(p_w), tl.load(p_a), tl.load(p_o)
    for i in range(N):
        {body}
    tl.store(p_o, acc)
"""
    )
    [finding] = lint(source, select=["ASC003"])
    assert finding.location.row - offset == read_row
    assert [r.location.row - offset for r in finding.related] == [dot_row]
    assert f"`b_a` is read after it was the left operand of `tl.dot` (line {dot_row + offset})" in finding.message
    assert ("previous trip" in finding.message) == trip


def test_a_read_the_dots_statement_consumes_after_it_is_no_previous_trip(lint) -> None:
    """`b - tl.dot(b, w)` reads `b` after the dot in the same trip (fla's cumprod_householder)."""
    source, _ = snippet_source(
        """
@triton.jit
def k(p_a, p_w, p_o, N):
    b_w = tl.load(p_w)
    for i in range(N):
        b_a = tl.load(p_a + i)
        tl.store(p_o + i, b_a - tl.dot(b_a, b_w))
"""
    )
    [finding] = lint(source, select=["ASC003"])
    assert "`b_a` is read after" in finding.message and "previous trip" not in finding.message
