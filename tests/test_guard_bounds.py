"""The host guards ASC010 and ASC013 read through `ascend_lint.host.guards`: a test bounding a
name bounds what is made of it by growing arithmetic (ASC013: `if n > 40000: raise` leaves
`triton.next_power_of_2(n)` up to 65536, the cap of `min(65536, ...)`), and a chunk of a host
loop is as large as what bounds it (ASC010: `max(1, min(CH, M - s))` is `CH` programs a trip).
Each snippet marks the lines that must be reported with `# flagged`; every other launch must
stay silent."""

from __future__ import annotations

import textwrap

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

ASC013_HEADER = """
import triton
import triton.language as tl

@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    b = tl.load(x + o, mask=o < n).to(tl.float32)
    tl.store(y + o, tl.exp(b) * tl.sigmoid(b) + b, mask=o < n)
"""

# a launch whose function raises for `n` over `limit`, the block capping `size` at 65536
GUARDED = """
def launch(x, y):
    n = x.numel()
    if n > {limit}:
        raise ValueError("too long")
    BLOCK = min(65536, {size})
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK){mark}
"""

ASC013_CASES = {
    # `n <= 40000` leaves the power of two above it up to 65536: the cap
    "power_of_two_reaches_the_cap": GUARDED.format(limit=40000, size="triton.next_power_of_2(n)", mark="  # flagged"),
    "power_of_two_below_the_cap": GUARDED.format(limit=4000, size="triton.next_power_of_2(n)", mark=""),
    # what the test leaves the quotient, under the cap, is read: 40000, and 4000 the plan fits
    "quotient_below_the_cap": GUARDED.format(limit=40000, size="2 * triton.cdiv(n, 2)", mark="  # flagged"),
    "quotient_the_plan_fits": GUARDED.format(limit=4000, size="2 * triton.cdiv(n, 2)", mark=""),
    "through_a_named_extent": """
def launch(x, y):
    D = x.shape[-1]
    assert x.shape[-1] <= 40000
    BLOCK = min(65536, triton.next_power_of_2(D))
    k[(x.shape[0],)](x, y, D, BLOCK=BLOCK)  # flagged
""",
    # a test after the launch, or in an arm not holding it, bounds nothing there
    "assert_after_the_launch": """
def launch(x, y):
    n = x.numel()
    BLOCK = min(65536, triton.next_power_of_2(n))
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)  # flagged
    assert n <= 1024
""",
    # a name rebound in a line of updates holds the last one made of the earlier ones
    # (`HostIndex.updated_in_line`): the cap of 1024 scaled by 64 passes 65536
    "cap_scaled_by_a_rebinding": """
def launch(x, y):
    n = x.numel()
    n = min(n, 1024)
    n = n * 64
    k[(1,)](x, y, x.numel(), BLOCK=n)  # flagged
""",
    "cap_by_a_rebinding_scaled_in_place": """
def launch(x, y):
    n = min(triton.next_power_of_2(x.numel()), 1024)
    n *= 64
    k[(1,)](x, y, x.numel(), BLOCK=n)  # flagged
""",
    "cap_rebinding_the_size_guarded_below_it": """
def launch(x, y):
    n = x.numel()
    if n > 512:
        raise ValueError("too long")
    n = min(n, 1024)
    n = n * 64
    k[(1,)](x, y, x.numel(), BLOCK=n)
""",
    # a read between the updates sees the capped value: 1024
    "cap_read_before_it_is_scaled": """
def launch(x, y):
    n = min(x.numel(), 1024)
    k[(1,)](x, y, x.numel(), BLOCK=n)
    n = n * 64
    return n
""",
    # an update only some runs make (in a `try`, an `except` or a `case`) leaves the name unknown
    # there, as one under an `if` does; one in a `with` runs whenever the function does
    "cap_scaled_in_an_except": """
def launch(x, y):
    n = 1024
    n = min(n, triton.next_power_of_2(x.numel()))
    try:
        import torch_npu
    except ImportError:
        n = n * 128
    k[(1,)](x, y, x.numel(), BLOCK=n)
""",
    "cap_scaled_in_a_try": """
def launch(x, y):
    n = 1024
    n = min(n, triton.next_power_of_2(x.numel()))
    try:
        n = n * 128
    finally:
        pass
    k[(1,)](x, y, x.numel(), BLOCK=n)
""",
    "cap_scaled_in_a_case": """
def launch(x, y, mode):
    n = 1024
    n = min(n, triton.next_power_of_2(x.numel()))
    match mode:
        case "wide":
            n = n * 128
    k[(1,)](x, y, x.numel(), BLOCK=n)
""",
    "cap_scaled_in_a_with": """
def launch(x, y):
    n = 1024
    n = min(n, triton.next_power_of_2(x.numel()))
    with torch.no_grad():
        n = n * 128
    k[(1,)](x, y, x.numel(), BLOCK=n)  # flagged
""",
    # an `if`/`else` capping the name in each arm is a step of the line: the larger cap bounds it
    "caps_in_both_arms": """
def launch(x, y, wide):
    n = x.numel()
    if wide:
        n = min(n, 65536)
    else:
        n = min(n, 1024)
    k[(1,)](x, y, x.numel(), BLOCK=n)  # flagged
""",
    "caps_in_both_arms_within_the_plan": """
def launch(x, y, wide):
    n = triton.next_power_of_2(x.numel())
    if wide:
        n = min(n, 2048)
    else:
        n = min(n, 1024)
    k[(1,)](x, y, x.numel(), BLOCK=n)
""",
    "cap_in_one_arm": """
def launch(x, y, wide):
    n = x.numel()
    if wide:
        n = min(n, 1024)
    k[(1,)](x, y, x.numel(), BLOCK=n)
""",
    "launch_in_the_arm_of_the_lesser_cap": """
def launch(x, y, wide):
    n = x.numel()
    if wide:
        n = min(n, 1024)
        k[(1,)](x, y, x.numel(), BLOCK=n)
    else:
        n = min(n, 65536)
""",
    "exit_in_another_arm": """
def launch(x, y, strict):
    n = x.numel()
    if strict:
        if n > 1024:
            raise ValueError("too long")
    BLOCK = min(65536, triton.next_power_of_2(n))
    k[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)  # flagged
""",
}


def flagged_lines(source: str) -> list[int]:
    return [number for number, line in enumerate(source.splitlines(), 1) if line.rstrip().endswith("# flagged")]


@pytest.mark.parametrize("case", sorted(ASC013_CASES))
def test_asc013_reads_a_guard_through_what_is_made_of_the_guarded_size(case: str) -> None:
    source = textwrap.dedent(ASC013_HEADER) + ASC013_CASES[case]
    result = lint_source(source, "ascend/guarded.py", settings(select=["ASC013"]))
    assert [finding.location.row for finding in result.findings] == flagged_lines(source)


ASC010_HEADER = """
import triton
import triton.language as tl

@triton.jit
def k(x, M, N, start, BLOCK: tl.constexpr):
    tl.store(x + start + tl.program_id(0) * N + tl.program_id(1) * BLOCK + tl.arange(0, BLOCK), 0.0)
"""

# a launch chunking `M` on the host, each trip launching `chunk` programs on axis 0 beside `other`
CHUNKED = """
def launch(x):
    M, N = x.shape
    CH = {step}
    for s in range(0, M, CH):
        k[({chunk}, {other})](x, M, N, s, BLOCK=128){mark}
"""

ASC010_CASES = {
    # 65535 programs a full trip times `N/128`
    "chunk_first_in_min": CHUNKED.format(
        step=65535, chunk="min(65535, M - s)", other="triton.cdiv(N, 128)", mark="  # flagged"
    ),
    "rest_first_in_min": CHUNKED.format(
        step=65535, chunk="min(M - s, 65535)", other="triton.cdiv(N, 128)", mark="  # flagged"
    ),
    "floored_chunk": CHUNKED.format(
        step=65535, chunk="max(1, min(CH, M - s))", other="triton.cdiv(N, 128)", mark="  # flagged"
    ),
    # 64 * 4 programs a trip
    "floored_small_chunk": CHUNKED.format(step=64, chunk="max(1, min(CH, M - s))", other="4", mark=""),
}


@pytest.mark.parametrize("case", sorted(ASC010_CASES))
def test_asc010_reads_a_floored_chunk_as_its_size(case: str) -> None:
    source = textwrap.dedent(ASC010_HEADER) + ASC010_CASES[case]
    result = lint_source(source, "ascend/chunked.py", settings(select=["ASC010"]))
    assert [finding.location.row for finding in result.findings] == flagged_lines(source)
