"""ASC010 in a host chunking loop that chunks only some axes of a grid, or some factors of one:
the loop bounds the axes (and factors) reading its variable, and the others are still sized as
any grid is (FlagGems' `linalg_qr.py` chunks the batch of `(bn, triton.cdiv(rrows, 64),
triton.cdiv(n, 64))` in `for b0, bn in _batch_chunks(B):`; the other two axes are (m/64)·(n/64)
programs, over the limit alone at 16384×16384). Each snippet marks the lines that must be
reported with `# flagged`; every other launch must stay silent."""

from __future__ import annotations

import textwrap

import pytest

HEADER = textwrap.dedent(
    """
    import triton
    import triton.language as tl

    @triton.jit
    def k(x, m, n, TM: tl.constexpr):
        tl.store(x + tl.program_id(1) * TM + tl.arange(0, TM), 0.0)

    def _batch_chunks(B, step=40):
        for b0 in range(0, B, step):
            yield b0, min(step, B - b0)
    """
)

PARTIAL = """
def helper_chunks(A):
    B, m, n = A.shape
    for b0, bn in _batch_chunks(B):
        k[(bn, triton.cdiv(m, 64), triton.cdiv(n, 64))](A[b0:], m, n, TM=64)  # flagged

def range_chunks(A):
    B, m, n = A.shape
    for b0 in range(0, B, 40):
        bn = min(40, B - b0)
        k[(bn, triton.cdiv(m, 64), triton.cdiv(n, 64))](A[b0:], m, n, TM=64)  # flagged

def factor_chunked(A):
    B, m, n = A.shape
    for b0 in range(0, B, 16):
        k[(min(16, B - b0) * triton.cdiv(m, 64), triton.cdiv(n, 64))](A, m, n, TM=64)  # flagged

def _launch(A, rows, m, n):
    k[(rows, triton.cdiv(m, 64), n)](A, m, n, TM=64)  # flagged: the caller's loop chunks `rows` only

def through_a_wrapper(A):
    B, m, n = A.shape
    for s in range(0, B, 128):
        _launch(A, min(128, B - s), m, n)

def while_chunks(A):
    B, m, n = A.shape
    b0 = 0
    while b0 < B:
        bn = min(40, B - b0)
        k[(bn, triton.cdiv(m, 64), triton.cdiv(n, 64))](A, m, n, TM=64)  # flagged
        b0 += bn

def named_chunk(A):
    B, m, n = A.shape
    for b0, bn in _batch_chunks(B):
        rows = bn * triton.cdiv(m, 64)  # the chunk behind a name: `m/64` still grows
        k[(rows, triton.cdiv(n, 64))](A, m, n, TM=64)  # flagged

def two_names_away(A):
    B, m, n = A.shape
    for b0, bn in _batch_chunks(B):
        rows = bn * m
        total = rows * n  # the chunk behind two names: `m * n` still grows
        k[(total,)](A, m, n, TM=64)  # flagged
"""

WHOLE = """
def every_axis(A):
    B, m, n = A.shape
    for r0 in range(0, B * m, 64):
        k[(min(64, B * m - r0), triton.cdiv(n, 64))](A, m, n, TM=64)

def offset_only(A):
    B, m, n = A.shape
    for bh_off in range(0, B * m, 4096):
        k[(triton.cdiv(n, 64), m)](A, m, n, BH_OFFSET=bh_off, TM=64)

def chunk_bounds_the_product(A):
    B, m, n = A.shape
    per = max(1, 65535 // (triton.cdiv(m, 64) * triton.cdiv(n, 64)))
    for b0 in range(0, B, per):
        k[(min(per, B - b0), triton.cdiv(m, 64), triton.cdiv(n, 64))](A, m, n, TM=64)

def while_every_axis(A):
    B, m, n = A.shape
    start = 0
    while start < B * m:
        rn = min(4096, B * m - start)
        k[(rn, triton.cdiv(n, 64))](A, m, n, TM=64)
        start += rn

def while_offset_only(A):
    B, m, n = A.shape
    start = 0
    while start < B * m:
        k[(triton.cdiv(n, 64), m)](A, m, n, BH_OFFSET=start, TM=64)
        start += 4096

def while_chunk_bounds_the_product(A):
    B, m, n = A.shape
    per = max(1, 65535 // (triton.cdiv(m, 64) * triton.cdiv(n, 64)))
    b0 = 0
    while b0 < B:
        bn = B - b0 if B - b0 < per else per
        k[(bn, triton.cdiv(m, 64), triton.cdiv(n, 64))](A, m, n, TM=64)
        b0 += per

def one_size_left(A):
    B, m, n = A.shape
    for b0, bn in _batch_chunks(B):
        k[(bn, triton.cdiv(n, 64))](A[b0:], m, n, TM=64)

def _launch_at(A, off, m, n):
    k[(m, n)](A, m, n, BH_OFFSET=off, TM=64)

def while_calls_a_wrapper(A):
    B, m, n = A.shape
    off = 0
    while off < m * n:
        _launch_at(A, off, m, n)
        off += 4096
"""


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(PARTIAL, id="axes-left-whole-still-sized"),
        pytest.param(WHOLE, id="whole-grid-chunked"),
    ],
)
def test_asc010_sizes_the_axes_a_chunking_loop_leaves_whole(lint, body: str) -> None:
    source = HEADER + body
    expected = [row for row, line in enumerate(source.splitlines(), 1) if "# flagged" in line]
    found = sorted(f.location.row for f in lint(source, select=["ASC010"]))
    assert found == expected, "\n".join(
        f"{row}: {source.splitlines()[row - 1]}" for row in sorted(set(found) ^ set(expected))
    )


def test_asc010_names_what_still_grows_and_what_the_loop_chunks(lint) -> None:
    source = HEADER + PARTIAL
    (first, *_) = lint(source, select=["ASC010"])
    assert "grows as bn * m/64 * n/64 > 65535 in each trip of the host loop (it chunks only `bn`)" in first.message


def test_asc010_keeps_the_chunked_factor_among_the_growing_ones(lint) -> None:
    """The factor a loop chunks still multiplies each trip's programs: the message keeps it
    beside the factors left whole (`(NM * NT, B * H)` chunking `NT` grows as `NT * NM * B * H`,
    not `NM * B * H`)."""
    source = (
        HEADER
        + """
def chunked_time(x, BT=64):
    B, H, T, M = x.shape
    NM = triton.cdiv(M, 64)
    for t0 in range(0, T, 4096):
        NT = triton.cdiv(min(4096, T - t0), BT)
        k[(NM * NT, B * H)](x, T, T, TM=64)
"""
    )
    (finding,) = lint(source, select=["ASC010"])
    assert "grows as NT * NM * B * H > 65535 in each trip of the host loop (it chunks only `NT`)" in finding.message


def test_asc010_follows_the_chunk_through_names_bound_from_it(lint) -> None:
    """A chunk two names away from the loop's target (`bn = min(64, B - b0)`, then `rows = bn *
    m`) is still the factor each trip bounds, however many names hold the product, written as
    its size in a full trip (64)."""
    source = (
        HEADER
        + """
def rows_of_a_chunk(A):
    B, m, n = A.shape
    for b0 in range(0, B, 64):
        bn = min(64, B - b0)
        rows = bn * m
        k[(rows, n)](A, m, n, TM=64)

def total_of_a_chunk(A):
    B, m, n = A.shape
    for b0 in range(0, B, 64):
        bn = min(64, B - b0)
        rows = bn * m
        total = rows * n
        k[(total,)](A, m, n, TM=64)
"""
    )
    findings = lint(source, select=["ASC010"])
    assert len(findings) == 2
    for finding in findings:
        assert "grows as 64 * m * n > 65535 in each trip of the host loop (it chunks only `bn`)" in finding.message


def test_asc010_writes_a_chunked_quotient_as_the_other_factors(lint) -> None:
    """A chunk the loop bounds, divided by a tile, is each trip's count written short as the
    other factors are (`T_SIZE/meta['BT']`, not `triton.cdiv(T_SIZE, meta['BT'])`)."""
    source = (
        HEADER
        + """
def chunked_time(x):
    B, H, T = x.shape
    for t0 in range(0, T, 65536):
        T_SIZE = min(65536, T - t0)
        def grid(meta): return (B, triton.cdiv(T_SIZE, meta['BT']), H)
        k[grid](x, T_SIZE, T_SIZE, TM=64)
"""
    )
    (finding,) = lint(source, select=["ASC010"])
    assert "grows as T_SIZE/meta['BT'] * B * H > 65535 in each trip of the host loop" in finding.message


def test_asc010_a_while_loop_counting_trips_or_halving_chunks_nothing(lint) -> None:
    """Only a `while` loop stepping its counter by a chunk (`start += CH`) chunks; one counting
    its trips (`it += 1`) or halving a size launches its whole grid each trip."""
    source = (
        HEADER
        + """
def counted(A, iters):
    B, m, n = A.shape
    it = 0
    while it < iters:
        k[(B * m, it + 1)](A, m, n, TM=64)
        it += 1

def halved(A):
    B, m, n = A.shape
    while n > 1:
        k[(triton.cdiv(n, 64), B * m)](A, m, n, TM=64)
        n = triton.cdiv(n, 64)
"""
    )
    counted, halved = lint(source, select=["ASC010"])
    assert "grows as B * m > 65535 and" in counted.message
    assert "grows as n/64 * B * m > 65535 and" in halved.message


def test_asc010_counts_a_chunk_of_known_size_as_that_size(lint) -> None:
    """A chunk the loop caps at a known size (`min(65535, M - s)`, also through a name or divided
    by a known block) is that many programs in a full trip: half the limit or more beside a
    runtime size, or over the limit times the known counts, is refused in each trip; a chunk of
    unknown size, a small one, or one sized by the other axes stays silent."""
    source = (
        HEADER
        + """
def chunk_at_the_limit(x):
    M, N = x.shape
    for s in range(0, M, 65535):
        k[(min(65535, M - s), triton.cdiv(N, 128))](x[s:], M, N, TM=128)  # flagged

def chunk_times_a_count(x):
    M, N = x.shape
    for s in range(0, M, 32768):
        k[(min(32768, M - s), 4)](x[s:], M, N, TM=128)  # flagged

CHUNK = 1 << 20

def chunk_named_and_divided(x):
    M, N = x.shape
    for s in range(0, M, CHUNK):
        rows = min(CHUNK, M - s)
        k[(triton.cdiv(rows, 16), N)](x[s:], M, N, TM=128)  # flagged

def chunk_alone_over_the_limit(x):
    M, N = x.shape
    for s in range(0, M, CHUNK):
        k[(min(CHUNK, M - s),)](x[s:], M, N, TM=128)  # flagged

def small_chunk(x):
    M, N = x.shape
    for s in range(0, M, 4096):
        k[(min(4096, M - s), triton.cdiv(N, 128))](x[s:], M, N, TM=128)
        k[(min(4096, M - s), 8)](x[s:], M, N, TM=128)

def chunk_of_unknown_size(x, step):
    M, N = x.shape
    for s in range(0, M, step):
        k[(min(step, M - s), triton.cdiv(N, 128))](x[s:], M, N, TM=128)

def chunk_sized_by_the_others(x):
    M, N = x.shape
    per = 65535 // triton.cdiv(N, 128)
    for s in range(0, M, per):
        k[(min(per, M - s), triton.cdiv(N, 128))](x[s:], M, N, TM=128)
"""
    )
    expected = [row for row, line in enumerate(source.splitlines(), 1) if "# flagged" in line]
    findings = lint(source, select=["ASC010"])
    assert sorted(f.location.row for f in findings) == expected
    at_the_limit, times_a_count, divided, alone = sorted(findings, key=lambda f: f.location.row)
    assert "grows as 65535 * N/128 > 65535 in each trip of the host loop" in at_the_limit.message
    assert "grows as 32768 * 4 > 65535 in each trip of the host loop" in times_a_count.message
    assert "grows as 65536 * N > 65535 in each trip of the host loop" in divided.message
    assert "grows as 1048576 > 65535 in each trip of the host loop" in alone.message


def test_asc010_a_loop_over_tensors_or_sizes_chunks_nothing(lint) -> None:
    """A loop whose grid reads its variable chunks only when it walks chunks (a `range`, a chunk
    helper, `x.split(CH)`, a name bound to one, `enumerate` of one); over tensors or sizes each
    trip launches a whole grid of its own (fla's `fused_kl_div_bwd`: `for grad in (dx, dw):`,
    `dw` of the vocabulary's rows)."""
    source = (
        HEADER
        + """
def over_tensors(x, xs):
    B = x.shape[0]
    for y in xs:
        k[(y.shape[0], B)](y, B, B, TM=64)  # flagged

def over_sizes(x, sizes):
    B = x.shape[0]
    for n in sizes:  # `n`, a value the module does not show, is no size: one size left
        k[(n, B)](x, n, B, TM=64)

def over_a_tuple(dx, dw):
    for grad in (dx, dw):
        N, H = grad.shape
        k[(N, triton.cdiv(H, 64))](grad, N, H, TM=64)  # flagged

def _launch(x, n, B):
    k[(n, B)](x, n, B, TM=64)  # flagged: its caller's loop walks tensors

def wrapper_over_tensors(x, xs):
    for y in xs:
        _launch(y, y.shape[0], x.shape[0])

def over_named_chunks(x):
    M, N = x.shape
    starts = range(0, M, 4096)
    for s in starts:
        k[(min(4096, M - s), N)](x, M, N, TM=64)
    for i, s in enumerate(range(0, M, 4096)):
        k[(min(4096, M - s), N)](x, M, N, TM=64)
    for part in x.split(4096):
        k[(part.shape[0], N)](part, M, N, TM=64)
    for s in [i * 4096 for i in range(triton.cdiv(M, 4096))]:
        k[(min(4096, M - s), N)](x, M, N, TM=64)
"""
    )
    expected = [row for row, line in enumerate(source.splitlines(), 1) if "# flagged" in line]
    assert sorted(f.location.row for f in lint(source, select=["ASC010"])) == expected
