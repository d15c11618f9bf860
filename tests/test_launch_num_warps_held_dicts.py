"""ASC001 in dicts a launch splats through a class or a loop: an attribute its class body binds
(`**self.LAUNCH`) or its `__init__` alone stores (`**self.launch_kwargs`), what a method
returns (`**self._cfg()`), and the name of a loop over a list of dicts (`for cfg in _CFGS:
k[grid](**cfg)`). Each knob is reported in the dict literal, as when the dict is bound to a
name or returned by a function of the module; the fix removes it there unless the attribute
(or the list's entries) may be read or changed otherwise."""

from __future__ import annotations

from conftest import knob_rows, lint_and_fix

from ascend_lint.model import Finding

HEADER = """\
import torch_npu  # noqa: F401
import triton
import triton.language as tl


@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), tl.zeros([BLOCK], tl.float32))
"""
FIRST = HEADER.count("\n") + 1  # the row of the first line after the header


def _lint(source: str) -> tuple[list[Finding], str | None]:
    return lint_and_fix(source, "k_npu.py", select=["ASC001"])


def _rows(findings: list[Finding]) -> list[tuple[int, str, str | None]]:
    return knob_rows(findings, FIRST)


def test_dicts_held_by_a_class_or_a_loop_are_reported_and_fixed() -> None:
    source = (
        HEADER
        + """
class Op:
    LAUNCH = {"num_warps": 4}
    def fwd(self, x, y): k[(4,)](x, y, x.numel(), BLOCK=1024, **self.LAUNCH)
class Op2:
    def __init__(self): self.launch_kwargs = {"num_warps": 4}
    def fwd(self, x, y): k[(4,)](x, y, x.numel(), BLOCK=1024, **self.launch_kwargs)
class Op3:
    @staticmethod
    def _cfg(): return {"BLOCK": 1024, "num_stages": 2}
    def fwd(self, x, y): k[(4,)](x, y, x.numel(), **self._cfg())
_CFGS = [{"BLOCK": 1024, "num_warps": 4}, {"BLOCK": 2048}]
def run(x, y):
    for cfg in _CFGS: k[(4,)](x, y, x.numel(), **cfg)
def run_local(x, y):
    cfgs = ({"BLOCK": 1024, "num_stages": 3},)
    for cfg in cfgs:
        k[(4,)](x, y, x.numel(), **cfg)
"""
    )
    findings, fixed = _lint(source)
    assert _rows(findings) == [
        (2, "num_warps", None),
        (5, "num_warps", None),
        (9, "num_stages", None),
        (11, "num_warps", None),
        (15, "num_stages", None),
    ]
    assert fixed is not None
    assert "num_warps" not in fixed and "num_stages" not in fixed
    assert "LAUNCH = {}" in fixed and '_CFGS = [{"BLOCK": 1024}, {"BLOCK": 2048}]' in fixed


def test_no_fix_where_the_dict_is_used_otherwise() -> None:
    """An attribute also read or changed, a method's result kept (`cfg = self._cfg()`), a list
    of dicts whose entries another loop reads: the knob is reported, the fix declined."""
    source = (
        HEADER
        + """
class Op:
    LAUNCH = {"num_warps": 4}
    def fwd(self, x, y): k[(4,)](x, y, x.numel(), BLOCK=1024, **self.LAUNCH)
    def warps(self): return self.LAUNCH["num_warps"]
class Op2:
    def __init__(self):
        self.kw = {"num_warps": 4}
        self.kw.update(BLOCK=1024)
    def fwd(self, x, y): k[(4,)](x, y, x.numel(), **self.kw)
_CFGS = [{"BLOCK": 1024, "num_warps": 4}]
def run(x, y):
    for cfg in _CFGS:
        k[(4,)](x, y, x.numel(), **cfg)
def most_warps():
    return max(c["num_warps"] for c in _CFGS)
"""
    )
    findings, _ = _lint(source)
    rows = _rows(findings)
    assert [row[:2] for row in rows] == [(2, "num_warps"), (7, "num_warps"), (10, "num_warps")]
    assert "`.LAUNCH` is also used otherwise" in (rows[0][2] or "")
    assert "`.kw` is also used otherwise" in (rows[1][2] or "")
    assert "`_CFGS` is also read whole" in (rows[2][2] or "")


def test_attributes_not_known_stay_unread() -> None:
    """Not read: an attribute another method stores too, one a derived class binds again, a
    loop over a list holding anything but dicts (nothing reports a dict the launch may not get)."""
    source = (
        HEADER
        + """
class Op:
    def __init__(self): self.kw = {"num_warps": 4}
    def reset(self): self.kw = {}
    def fwd(self, x, y): k[(4,)](x, y, x.numel(), BLOCK=1024, **self.kw)
class Base:
    LAUNCH = {"num_warps": 4}
    def fwd(self, x, y): k[(4,)](x, y, x.numel(), BLOCK=1024, **self.LAUNCH)
class Derived(Base):
    LAUNCH = {}
    def other(self): pass
def run(x, y, extra):
    cfgs = [{"num_warps": 4}, extra]
    for cfg in cfgs:
        k[(4,)](x, y, x.numel(), BLOCK=1024, **cfg)
"""
    )
    findings, _ = _lint(source)
    assert _rows(findings) == []
