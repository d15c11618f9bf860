"""ASC001 through spellings the host analysis used to miss: a chained assignment storing a
knob into a splatted dict from any target (`a = cfg["num_warps"] = 8`), a config taken out of
a module table (`_CFG[key]`, `_CFGS[i]`), and a `functools.partial` launcher under a local
name of `partial` (`from functools import partial as bind`), called where it is made or
returned by a helper. Each knob is reported where it is written; the fix of a table entry
removes it there, and is declined when the table is read otherwise than by an entry."""

from __future__ import annotations

from conftest import knob_rows, lint_and_fix

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
    return lint_and_fix(source, "k_npu.py", select=["ASC001"])


def _rows(findings: list[Finding]) -> list[tuple[int, str, str | None]]:
    return knob_rows(findings, FIRST)


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


def test_launchers_bound_at_module_level() -> None:
    """A module-level launcher (`_launch = functools.partial(k[grid], num_warps=4)`, `_run =
    k[grid]`) called in a function or at module level is a launch of the kernel: the partial's
    keyword is reported and removed there, and so are the keywords of its calls; not in a
    function binding the name itself, nor for a name bound twice."""
    source = (
        HEADER
        + """
_launch = functools.partial(k[(1,)], num_warps=4)
_run = k[(1,)]
_twice = k[(1,)]
_twice = None

def run(x, n):
    _launch(x, n, BLOCK=64)
    _run(x, n, BLOCK=64, num_stages=2)
    _twice(x, n, BLOCK=64, num_warps=2)

def own(x, n, k2):
    _run = k2
    _run(x, n, BLOCK=64, num_warps=2)

_run(None, 1, BLOCK=64, num_warps=8)
"""
    )
    findings, fixed = _lint(source)
    assert _rows(findings) == [(1, "num_warps", None), (8, "num_stages", None), (15, "num_warps", None)]
    assert fixed is not None
    assert "_launch = functools.partial(k[(1,)])\n" in fixed
    assert "_run(x, n, BLOCK=64)\n" in fixed and "_run(None, 1, BLOCK=64)\n" in fixed


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


def test_table_entry_read_elsewhere_keeps_its_knob() -> None:
    """A table whose entries a launch splats through `cfg = _CFG[key]`, read elsewhere by a
    literal key (`_CFG["large"]["num_warps"]` in another function), or whose entry is iterated,
    passed or taken by `.get`: the knob stays reported, with no fix (it deleted the knob from
    every entry, and the read raised KeyError at run time)."""
    source = (
        HEADER
        + """
_CFG = {"small": {"BLOCK": 256, "num_warps": 4}, "large": {"BLOCK": 2048, "num_warps": 8}}
_ITER = {"small": {"BLOCK": 256, "num_warps": 4}}
_GOT = {"small": {"BLOCK": 256, "num_warps": 4}}
_FINE = {"small": {"BLOCK": 256, "num_warps": 4}}

def run(x, n, size):
    cfg = _CFG[size]
    k[(n,)](x, n, **cfg)
    k[(n,)](x, n, **_ITER[size])
    k[(n,)](x, n, **_GOT[size])
    c = dict(_FINE[size])
    k[(n,)](x, n, **c)

def warps_of_large():
    return _CFG["large"]["num_warps"]

def keys_of_small():
    return [key for key in _ITER["small"]], _GOT.get("small"), _FINE["small"]["BLOCK"]
"""
    )
    findings, fixed = _lint(source)
    read = '`_CFG["large"]["num_warps"]` reads it out of the dict, which would fail or change without it'
    whole = "is also read whole, which may read it out of an entry: delete it by hand"
    assert _rows(findings) == [
        (1, "num_warps", read),
        (1, "num_warps", read),
        (2, "num_warps", f"`_ITER` {whole}"),
        (3, "num_warps", f"`_GOT` {whole}"),
        (4, "num_warps", None),
    ]
    assert fixed is not None
    assert '_FINE = {"small": {"BLOCK": 256}}\n' in fixed
    assert fixed.count('"num_warps"') == 5  # four entries kept, and the read


def test_partial_of_another_module_is_no_launcher() -> None:
    """`from mylib import partial` (or `mylib.partial`) is not `functools.partial`: what it does
    with a launcher and a `num_warps` is unknown, so neither is reported nor deleted.
    `functools.partial` after `import functools` and `ft.partial` after `import functools as ft`
    are."""
    source = (
        HEADER
        + """
import functools as ft
import mylib
from mylib import partial

def run(x, n):
    launch = partial(k[(n,)], BLOCK=64, num_warps=4)
    launch(x, n)
    other = mylib.partial(k[(n,)], BLOCK=64, num_warps=4)
    other(x, n)
    ft.partial(k[(n,)], BLOCK=64, num_warps=4)(x, n)
    functools.partial(k[(n,)], BLOCK=64, num_warps=4)(x, n)
"""
    )
    findings, _ = _lint(source)
    assert _rows(findings) == [(10, "num_warps", None), (11, "num_warps", None)]


def test_knob_taken_out_before_the_launch_is_not_splatted() -> None:
    """`cfg = dict(_CFG[key]); cfg.pop("num_warps", None)` (or `del cfg["num_warps"]`) in the
    launch's function, before it on every path: the launch does not get the knob, so it is not
    reported. A pop under an `if` leaves it on the other path: reported."""
    source = (
        HEADER
        + """
_POPPED = {"small": {"BLOCK": 256, "num_warps": 4}}
_DELETED = {"small": {"BLOCK": 256, "num_warps": 4}}
_MAYBE = {"small": {"BLOCK": 256, "num_warps": 4}}

def popped(x, n, size):
    cfg = dict(_POPPED[size])
    cfg.pop("num_warps", None)
    k[(n,)](x, n, **cfg)

def deleted(x, n, size):
    cfg = _DELETED[size].copy()
    del cfg["num_warps"]
    k[(n,)](x, n, **cfg)

def maybe(x, n, size, flag):
    cfg = dict(_MAYBE[size])
    if flag:
        cfg.pop("num_warps", None)
    k[(n,)](x, n, **cfg)

def literal(x, n):
    kw = {"BLOCK": 64, "num_warps": 4, "num_stages": 2}
    kw.pop("num_warps")
    k[(n,)](x, n, **kw)
"""
    )
    findings, _ = _lint(source)
    assert _rows(findings) == [(3, "num_warps", None), (22, "num_stages", None)]


def test_table_keyed_by_a_gpu_model() -> None:
    """A table keyed by GPU model (`"A100"`, `"H100"`, `"MI300X"`) taken by a variable key: an
    NPU run picks none of those entries, so they are not reported (as `"cuda"` keys are); the
    Ascend entry and plain keys are."""
    source = (
        HEADER
        + """
_GPU = {"A100": {"num_warps": 8}, "H100": {"num_warps": 16}, "MI300X": {"num_warps": 4}, "Ascend910B": {"num_stages": 2}}
_PLAIN = {"a2": {"num_warps": 4}, "large": {"num_warps": 8}}

def run(x, n, name):
    k[(n,)](x, n, BLOCK=64, **_GPU[name])
    k[(n,)](x, n, BLOCK=64, **_PLAIN[name])
"""
    )
    findings, _ = _lint(source)
    assert _rows(findings) == [(1, "num_stages", None), (2, "num_warps", None), (2, "num_warps", None)]


def test_positional_knobs_of_a_config() -> None:
    """`triton.Config(kwargs, num_warps=4, num_stages=2, num_ctas=1, ...)` (triton-ascend 3.2's
    and upstream Triton's order): `Config({...}, 4, 2)` writes both knobs positionally. They
    are reported; the fix removes them and names the positional arguments after them, so each
    keeps its parameter. Not past `num_ctas`, where Triton versions order their parameters apart."""
    source = HEADER + (
        "@triton.autotune(\n"
        "    configs=[\n"
        "        triton.Config({'BLOCK': 64}, 4, 2),\n"
        "        triton.Config({'BLOCK': 128}, 8, num_stages=3),\n"
        "        triton.Config({'BLOCK': 256}, 4, 2, 1, pre_hook=None),\n"
        "        triton.Config({'BLOCK': 1024}, 4, 2, 1, 0),\n"
        "    ],\n"
        "    key=[],\n"
        ")\n"
        "@triton.jit\n"
        "def tuned(x, BLOCK: tl.constexpr):\n"
        "    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
        "CFG = triton.Config({'BLOCK': 512}, 4, 1)\n"
    )
    findings, fixed = _lint(source)
    rows = _rows(findings)
    assert [row[:2] for row in rows] == [
        (2, "num_warps"),
        (2, "num_stages"),
        (3, "num_warps"),
        (3, "num_stages"),
        (4, "num_warps"),
        (4, "num_stages"),
        (12, "num_warps"),
        (12, "num_stages"),
    ]
    assert all(row[2] is None for row in rows)
    assert fixed is not None
    assert "triton.Config({'BLOCK': 64}),\n" in fixed
    assert "triton.Config({'BLOCK': 128}),\n" in fixed
    assert "triton.Config({'BLOCK': 256}, num_ctas=1, pre_hook=None),\n" in fixed
    assert "CFG = triton.Config({'BLOCK': 512}, num_stages=1)\n" in fixed  # `num_stages=1`: unsafe
    assert "triton.Config({'BLOCK': 1024}, 4, 2, 1, 0),\n" in fixed
    _, unsafe = lint_and_fix(source, "k_npu.py", select=["ASC001"], unsafe=True)
    assert unsafe is not None and "CFG = triton.Config({'BLOCK': 512})\n" in unsafe
    for text in (fixed, unsafe):
        compile(text, "k_npu.py", "exec")
