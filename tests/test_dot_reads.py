"""One ASC003 finding per read (issue 10, bullet 8): the first dot that clobbered the tile is
named in the message and first in `related`; the other clobbering dots follow it."""

from __future__ import annotations

from conftest import snippet_source


def test_three_dots_with_one_left_operand(lint) -> None:
    source, offset = snippet_source(
        """
@triton.jit
def k(p_a, p_w, p_o):
    b_a = tl.load(p_a)
    b_w = tl.load(p_w)
    b_x = tl.dot(b_a, b_w)
    b_y = tl.dot(b_a, b_w)
    b_z = tl.dot(b_a, b_w)
    tl.store(p_o, b_a + b_x + b_y + b_z)
"""
    )
    findings = lint(source)
    rows = [(f.location.row - offset, f.location.column) for f in findings]
    # the second and third dots read the clobbered tile, and so does the store: one finding each
    assert rows == [(6, 18), (7, 18), (8, 19)]
    first_dot = 5 + offset
    for finding in findings:
        assert f"(line {first_dot})" in finding.message
        assert finding.related[0].location.row == first_dot
    assert [r.location.row - offset for r in findings[-1].related] == [5, 6, 7]
    assert [r.message for r in findings[-1].related][1:] == ["another `tl.dot` that may clobber `b_a`"] * 2
