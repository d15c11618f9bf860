"""ASC002 on a receiver written over several lines: the finding is at the `.to(` the contract
names, so `# noqa` on that line suppresses it (probe 13's `w_multiline`,
`n_noqa_multiline_end`); on one line it still starts at the receiver. The replay looks for
the cast where Triton locates it (`cast_row`)."""

from __future__ import annotations

from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.runtime_check.jobs import cast_row

KERNEL = """import triton
import triton.language as tl


@triton.jit
def k(x, T: tl.constexpr):
    i_b, i_t = tl.program_id(0), tl.program_id(1)
    o = (
        i_b * T  # rows
        + i_t
    ).to(tl.int64){noqa}
    tl.store(x + o, 0.0)
    tl.store(x + (i_b * T).to(tl.int64), 0.0)
"""


def positions(source: str) -> list[tuple[int, int, int, int]]:
    result = lint_source(source, "triton_ascend/k.py", settings(select=["ASC002"]))
    assert result.error is None
    return [(f.location.row, f.location.column, f.end_location.row, f.end_location.column) for f in result.findings]


def test_a_receiver_over_several_lines_is_reported_at_its_to_line():
    assert positions(KERNEL.format(noqa="")) == [(11, 7, 11, 19), (13, 18, 13, 40)]


def test_noqa_on_the_to_line_suppresses_it():
    assert positions(KERNEL.format(noqa="  # noqa: ASC002")) == [(13, 18, 13, 40)]


CASTS = """import triton
import triton.language as tl


@triton.jit
def k(x, T: tl.constexpr):
    i_b, i_t = tl.program_id(0), tl.program_id(1)
    tl.store(x + (i_b * T).to(tl.int64), 0.0)
    o = (
        i_b * T
    ).to(tl.int64)
    p = (i_b * T).to(
        tl.int64
    )
    q = (i_t * T).to(
        tl.int64, bitcast=False
    )
    r = (
        i_b * T + i_t
    ).to(
        dtype=tl.int64,
    )
    tl.store(x + o + p + q + r, 0.0)
"""


def test_the_replay_looks_for_the_cast_on_the_row_triton_locates_it_on():
    """Triton 3.2 lowers `.to(...)` at the last node its code generator visited, the call's last
    positional argument (keywords go first), else its last keyword: `confirm` looks for the
    extension there, on the dtype's row when the dtype has one of its own."""
    result = lint_source(CASTS, "triton_ascend/k.py", settings(select=["ASC002"]))
    assert result.error is None
    rows = [(f.location.row, cast_row(CASTS, f)) for f in result.findings]
    assert rows == [(8, 8), (11, 11), (12, 13), (15, 16), (20, 21)]
