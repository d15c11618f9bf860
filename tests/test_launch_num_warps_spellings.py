"""ASC001 through spellings the host analysis used to miss: a chained assignment storing a
knob into a splatted dict from any target (`a = cfg["num_warps"] = 8`), a config taken out of
a module table (`_CFG[key]`, `_CFGS[i]`), and a `functools.partial` launcher under a local
name of `partial` (`from functools import partial as bind`), called where it is made or
returned by a helper. Each knob is reported where it is written; the fix of a table entry
removes it there, and is declined when the table is read otherwise than by an entry."""

from __future__ import annotations

from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.fixer import fix_result
from ascend_lint.model import Finding

HEADER = """\
import functools
from functools import partial as bind

import torch_npu  # noqa: F401
import triton
import triton.language as tl


@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), tl.zeros([BLOCK], tl.float32))
"""
FIRST = HEADER.count("\n") + 1  # the row of the first line after the header


def _lint(source: str) -> tuple[list[Finding], str | None]:
    config = settings(select=["ASC001"])
    result = lint_source(source, "k_npu.py", config)
    _, fixed = fix_result(result, config, unsafe=False)
    return list(result.findings), None if fixed is None else fixed.fixed


def _rows(findings: list[Finding]) -> list[tuple[int, str, str | None]]:
    """Each finding's row after the header, knob and the reason it has no fix (None: a fix)."""
    return [
        (f.location.row - FIRST, f.message.split("`")[1], None if f.fix is not None else f.no_fix_reason)
        for f in findings
    ]


def test_chained_store_into_a_splatted_dict() -> None:
    """`a = cfg["num_warps"] = 8`: the store is the second target, reported there; with no fix
    (the statement binds `a` too), as for `cfg["num_warps"] = w = 8`. A store into another dict
    of the same statement is not one of `cfg`'s."""
    source = (
        HEADER
        + """
def run_a(x, n):
    cfg = {"BLOCK": 64}
    a = cfg["num_warps"] = 8
    k[(n,)](x, n, **cfg)
    return a

def run_b(x, n):
    cfg = {"BLOCK": 64}
    cfg["num_warps"] = w = 8
    k[(n,)](x, n, **cfg)
    return w

def run_c(x, n, stats):
    cfg = {"BLOCK": 64}
    stats["num_warps"] = cfg["BLOCK"] = 64
    k[(n,)](x, n, **cfg)
"""
    )
    findings, _ = _lint(source)
    assert _rows(findings) == [
        (3, "num_warps", "the statement also binds `a`: remove the store by hand"),
        (9, "num_warps", "the statement also binds `w`: remove the store by hand"),
    ]
    assert findings[0].location.column == 9  # at `cfg["num_warps"]`, not at `a`


def test_config_taken_out_of_a_module_table() -> None:
    """`cfg = _CFG[key]` (or `**_CFGS[i]`) then a splat: each `num_warps` / `num_stages` entry
    of the table is reported where it is written and removed there; a literal key picks its
    entry alone, and a variable key skips the entries of another platform's key."""
    source = (
        HEADER
        + """
_CFG = {"small": {"num_warps": 4}, "big": {"num_warps": 8, "num_stages": 2}}
_CFGS = [dict(num_warps=4), dict(num_warps=8)]
_BY_DEVICE = {"cuda": {"num_warps": 8}, "npu": {"multibuffer": True}}
_NAMED = {"small": {"num_stages": 3}, "big": {"num_warps": 16}}

def run(x, n, key, i):
    cfg = _CFG[key]
    k[(n,)](x, n, BLOCK=64, **cfg)
    k[(n,)](x, n, BLOCK=64, **_CFGS[i])
    k[(n,)](x, n, BLOCK=64, **_BY_DEVICE[x.device.type])
    k[(n,)](x, n, BLOCK=64, **_NAMED["small"])
"""
    )
    findings, fixed = _lint(source)
    assert _rows(findings) == [
        (1, "num_warps", None),
        (1, "num_warps", None),
        (1, "num_stages", None),
        (2, "num_warps", None),
        (2, "num_warps", None),
        (4, "num_stages", None),
    ]
    assert fixed is not None
    assert '_CFG = {"small": {}, "big": {}}\n' in fixed
    assert "_CFGS = [dict(), dict()]\n" in fixed  # the list keeps its length: `_CFGS[i]` still picks
    assert '_BY_DEVICE = {"cuda": {"num_warps": 8}, "npu": {"multibuffer": True}}\n' in fixed
    assert '_NAMED = {"small": {}, "big": {"num_warps": 16}}\n' in fixed


def test_table_entry_read_keeps_its_knob() -> None:
    """No fix for a table's knob that host code reads: out of the entry taken
    (`cfg["num_warps"]`, `_CFG[key]["num_warps"]`), or anywhere when the table is read whole
    (`max(c["num_warps"] for c in _WIDE)`)."""
    source = (
        HEADER
        + """
_CFG = {"small": {"num_warps": 4}, "big": {"num_warps": 8}}
_DEEP = {"small": {"num_warps": 4}}
_WIDE = [dict(num_warps=4), dict(num_warps=8)]
MAX_WARPS = max(c["num_warps"] for c in _WIDE)

def run(x, n, key, i):
    cfg = _CFG[key]
    if cfg["num_warps"] > 4:
        n = n // 2
    k[(n,)](x, n, BLOCK=64, **cfg)
    k[(n,)](x, n, BLOCK=64, **_DEEP[key])
    k[(n,)](x, n, BLOCK=64, **_WIDE[i])
    return _DEEP[key]["num_warps"]
"""
    )
    findings, fixed = _lint(source)
    read = "reads it out of the dict, which would fail or change without it"
    whole = "`_WIDE` is also read whole, which may read it out of an entry: delete it by hand"
    assert _rows(findings) == [
        (1, "num_warps", f'`cfg["num_warps"]` {read}'),
        (1, "num_warps", f'`cfg["num_warps"]` {read}'),
        (2, "num_warps", f'`_DEEP[key]["num_warps"]` {read}'),
        (3, "num_warps", whole),
        (3, "num_warps", whole),
    ]
    assert fixed is None


def test_partial_under_another_name_inline_and_returned() -> None:
    """`bind(k[grid], num_warps=4)` after `from functools import partial as bind`, a partial
    called where it is made, and one a helper returns and the caller calls: the keyword is
    reported in the partial and removed there. A kernel taking a `num_warps` parameter gets it
    from the partial as an argument: silent."""
    source = (
        HEADER
        + """
@triton.jit
def w(x, n, num_warps: tl.constexpr):
    tl.store(x + tl.arange(0, num_warps), tl.zeros([num_warps], tl.float32))

def _launcher():
    return functools.partial(k[(1,)], num_warps=4)

def run(x, n):
    launch = bind(k[(n,)], num_warps=4)
    launch(x, n, BLOCK=64)
    functools.partial(k[(n,)], num_stages=2)(x, n, BLOCK=64)
    _launcher()(x, n, BLOCK=64)
    own = functools.partial(w[(n,)], num_warps=4)
    own(x, n)
    bind(w[(n,)], num_warps=8)(x, n)
"""
    )
    findings, fixed = _lint(source)
    assert _rows(findings) == [(6, "num_warps", None), (9, "num_warps", None), (11, "num_stages", None)]
    assert fixed is not None
    assert "    return functools.partial(k[(1,)])\n" in fixed
    assert "    launch = bind(k[(n,)])\n" in fixed
    assert "    functools.partial(k[(n,)])(x, n, BLOCK=64)\n" in fixed
    assert fixed.count("num_warps=") == 2  # `w`'s own, passed for its parameter


def test_partial_import_alias_any_spelling() -> None:
    """`from functools import partial as P` is the same `partial`; a call of some other function
    given a launcher (`record(k[grid], num_warps=4)`) is no launcher."""
    source = (
        HEADER
        + """
from functools import partial as P

def run(x, n, record):
    launch = P(k[(n,)], num_warps=4)
    launch(x, n, BLOCK=64)
    logged = record(k[(n,)], num_warps=4)
    logged(x, n, BLOCK=64)
"""
    )
    findings, _ = _lint(source)
    assert _rows(findings) == [(4, "num_warps", None)]
