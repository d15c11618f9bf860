"""ASC004's nesting fix moves the mixed test's flag outside; it is offered only when that
flag is the one the pointer is passed for (probe 17: `IS_VARLEN and ...` around `h0`, which
the launch ties to `USE_H0`, was nested under `if IS_VARLEN:` and still compiled `None + offs`)."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """import triton
import triton.language as tl


@triton.jit
def k(x, h0, o, W, USE_H0: tl.constexpr, IS_VARLEN: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    offs = tl.arange(0, BT)
    b = tl.load(x + offs)
{guarded}    if {flag} and i_t * BT < W:
        b += tl.load(h0 + offs)
    tl.store(o + offs, b)
"""
TIED = """

def run(x, o, W, h0=None, cu_seqlens=None):
    k[(4,)](x, h0, o, W, USE_H0=h0 is not None, IS_VARLEN=cu_seqlens is not None, BT=16)
"""
GUARDED = "    if USE_H0:\n        b += tl.load(h0 + offs + 1)\n"


def _finding(flag: str, guarded: str = "", host: str = ""):
    source = KERNEL.format(flag=flag, guarded=guarded) + host
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert finding.code == "ASC004"
    return finding


@pytest.mark.parametrize(("guarded", "host"), [("", TIED), (GUARDED, ""), (GUARDED, TIED)])
def test_no_nesting_under_a_flag_the_pointer_is_not_tied_to(guarded: str, host: str) -> None:
    """A launch passing `USE_H0=h0 is not None`, or the pointer's other uses under `if USE_H0:`,
    say `h0` goes with `USE_H0`: nesting `IS_VARLEN` outside keeps `None + offs` compiled."""
    finding = _finding("IS_VARLEN", guarded, host)
    assert finding.fix is None
    assert "not passed for" in (finding.no_fix_reason or "")


@pytest.mark.parametrize(("guarded", "host"), [("", TIED), (GUARDED, ""), (GUARDED, TIED)])
def test_the_nesting_is_offered_under_the_flag_tied_to_the_pointer(guarded: str, host: str) -> None:
    finding = _finding("USE_H0", guarded, host)
    assert finding.fix is not None and finding.fix.message == "Nest `USE_H0` outside the runtime test"
