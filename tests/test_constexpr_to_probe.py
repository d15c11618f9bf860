"""ASC002 after probe 7: a kernel's own float default is float evidence, and a load or a
`tl.where` around an int32 index multiply no longer hides it.

- `def k(x, n, eps=1e-6)` launched without `eps` is passed its float default: never
  specialised, so `eps.to(tl.float32)` compiles. A launch passing the int `1` itself still is.
- `(pid * T + tl.load(idx)).to(tl.int64)` wraps in `pid * T` whatever is added: the multiply's
  own operands decide. A product of a loaded value (`i_c * BT`, `tl.load(idx) * T`) is no index
  arithmetic (ASC008 judges loaded offsets), and `.to()` on a load stays silent.
- `tl.where(c, pid * T, 0).to(tl.int64)` is read as `tl.minimum(pid * T, n)` already was.
"""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.fixer import fix_result

HEADER = "import triton\nimport triton.language as tl\n\n\n"
WRAP = "cast after multiply wraps in int32"
CONSTEXPR = "constexpr has no .to"

FLOAT_DEFAULT = (
    HEADER
    + """@triton.jit
def k(x, n, eps=1e-6, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + eps.to(tl.float32), mask=offs < n)
"""
)


def findings(source: str, select: tuple[str, ...] = ("ASC002",)) -> list[tuple[int, str, str]]:
    result = lint_source(source, "triton_ascend/k.py", settings(select=list(select)))
    assert result.error is None
    return [(f.location.row, f.code, f.message) for f in result.findings]


@pytest.mark.parametrize(
    "host",
    [
        "",  # no launch: the signature's default is what the author declares
        "def run(x):\n    k[(4,)](x, x.numel())\n",  # the default is passed
        "def run(x):\n    k[(4,)](x, x.numel(), BLOCK=64)\n",
        "def run(x, eps):\n    k[(4,)](x, x.numel(), eps)\n\ndef other(x):\n    k[(4,)](x, x.numel())\n",
    ],
)
def test_a_kernel_float_default_is_float_evidence(host: str) -> None:
    assert findings(FLOAT_DEFAULT + "\n\n" + host) == []


@pytest.mark.parametrize(
    "host",
    [
        "def run(x):\n    k[(4,)](x, x.numel(), 1)\n",
        "def run(x):\n    k[(4,)](x, x.numel(), eps=1)\n",
        "def run(x, eps):\n    k[(4,)](x, x.numel(), eps=eps)\n",
    ],
)
def test_a_default_every_launch_overrides_is_no_evidence(host: str) -> None:
    """Every launch passes `eps` itself: the default never reaches the kernel, and an int 1
    passed there is specialised (the rule assumes an int, as for any unannotated scalar)."""
    [(row, code, message)] = findings(FLOAT_DEFAULT + "\n\n" + host)
    assert (row, code) == (8, "ASC002") and message.startswith(CONSTEXPR)
    if "1)" in host:  # the value is known: the message names the launch passing it, assumes nothing
        assert "assumed" not in message and "(the launch at line 12 passes `eps=1`" in message
    else:
        assert "assumed `eps`" in message


@pytest.mark.parametrize(
    "host",
    [
        "def run(x):\n    k[(4,)](x, x.numel())\n    k[(4,)](x, x.numel(), 1)\n",
        "def run(x):\n    k[(4,)](x, x.numel(), 1.5)\n    k[(4,)](x, x.numel(), eps=1)\n",
        "def run(x, eps=1):\n    k[(4,)](x, x.numel(), eps)\n\ndef other(x):\n    k[(4,)](x, x.numel())\n",
    ],
)
def test_an_int_literal_a_launch_passes_wins_over_float_evidence(host: str) -> None:
    """One launch leaves `eps` to its float default (or passes a float), another passes an int
    literal: that launch makes `eps` an int, specialised when it is 1."""
    [(row, code, message)] = findings(FLOAT_DEFAULT + "\n\n" + host)
    assert (row, code) == (8, "ASC002") and message.startswith(CONSTEXPR)


@pytest.mark.parametrize(
    "host",
    [
        "def run(x):\n    k[(4,)](x, x.numel(), 1e-6)\n    k[(4,)](x, x.numel(), 0)\n",
        "def run(x):\n    k[(4,)](x, x.numel())\n    k[(4,)](x, x.numel(), eps=16)\n",
        "def run(x):\n    k[(4,)](x, x.numel())\n    k[(4,)](x, x.numel(), eps=-1)\n",
    ],
)
def test_an_int_other_than_one_leaves_float_evidence_standing(host: str) -> None:
    """Triton specialises an int argument only when it is 1 (divisibility by 16 makes no
    constexpr): a launch passing `0`, `16` or `-1` beside float evidence specialises nothing."""
    assert findings(FLOAT_DEFAULT + "\n\n" + host) == []


def test_a_device_functions_float_default_is_a_constexpr_when_a_call_leaves_it() -> None:
    """Unlike a kernel's (a launch passes the host's float), a device function's default is bound
    by Triton's code generator (`call_JitFunction`: `inspect.getcallargs`, then every non-tensor
    argument wrapped in `constexpr`), so `eps.to(...)` fails whether the call leaves `eps` out or
    passes a specialisable `e` (probe 13)."""
    source = (
        HEADER
        + """@triton.jit
def _shift(y, eps=1e-6):
    return y + eps.to(tl.float32)


@triton.jit
def k(x, e, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, _shift(tl.load(x + offs)))
"""
    )
    [(row, code, message)] = findings(source)
    assert (row, code) == (7, "ASC002") and message.startswith(CONSTEXPR)
    every_call_passes = source.replace("_shift(tl.load(x + offs))", "_shift(tl.load(x + offs), e)")
    [(row, code, message)] = findings(every_call_passes)
    assert (row, code) == (7, "ASC002") and message.startswith(CONSTEXPR)


def kernel(body: str, params: str = "x, idx, T") -> str:
    lines = "".join(f"    {line}\n" for line in body.strip().splitlines())
    return HEADER + f"@triton.jit\ndef k({params}):\n    pid = tl.program_id(0)\n{lines}    tl.store(x + o, 0.0)\n"


@pytest.mark.parametrize(
    "body",
    [
        "o = (pid * T + tl.load(idx)).to(tl.int64)",
        "o = (pid * T + tl.load(idx).to(tl.int32)).to(tl.int64)",
        "o = (pid * T - tl.load(idx + pid)).to(tl.int64)",
        "o = (tl.load(idx) * pid + pid * T).to(tl.int64)",
        "i_c = tl.load(idx + pid).to(tl.int32)\no = (tl.program_id(1) * T + i_c * 64).to(tl.int64)",
        "base = pid * T + tl.load(idx)\no = base.to(tl.int64)",
        "o = tl.where(pid * T < 4096, pid * T, 0).to(tl.int64)",
        "o = tl.where(pid > 0, 0, pid * T + tl.load(idx)).to(tl.int64)",
    ],
)
def test_an_index_multiply_beside_data_wraps(body: str) -> None:
    [(row, code, message)] = findings(kernel(body))
    assert code == "ASC002" and message.startswith(WRAP)
    assert row == 8 + body.count("\n")


@pytest.mark.parametrize(
    "body",
    [
        "o = tl.load(idx + pid).to(tl.int64)",  # `.to()` on a load
        "o = (tl.load(idx) * T).to(tl.int64)",  # a loaded value's product
        "o = (tl.load(idx) * pid).to(tl.int64)",
        "i_c = tl.load(idx + pid).to(tl.int32)\no = (i_c * 64).to(tl.int64)",
        "o = tl.where(pid * T < 4096, pid, 0).to(tl.int64)",  # the multiply is only in the test
    ],
)
def test_a_multiply_of_data_is_not_index_arithmetic(body: str) -> None:
    assert findings(kernel(body)) == []


def test_the_fix_casts_the_index_and_leaves_the_loaded_chunk() -> None:
    source = kernel(
        "i_t, i_b = tl.program_id(1), tl.program_id(2)\n"
        "i_c = tl.load(idx + i_t).to(tl.int32)\n"
        "o = (i_b * T + i_c * BT).to(tl.int64)",
        params="x, idx, T, BT: tl.constexpr",
    )
    settings_ = settings(select=["ASC002"])
    result = lint_source(source, "triton_ascend/k.py", settings_)
    after, fixed = fix_result(result, settings_, unsafe=False)
    assert fixed is not None and "    o = tl.cast(i_b, tl.int64) * T + i_c * BT\n" in fixed.fixed
    assert after.findings == []


def test_a_where_multiply_is_made_in_a_call_so_no_fix() -> None:
    source = kernel("o = tl.where(pid * T < 4096, pid * T, 0).to(tl.int64)")
    result = lint_source(source, "triton_ascend/k.py", settings(select=["ASC002"]))
    [finding] = result.findings
    assert (
        finding.fix is None and finding.related and "`pid * T` multiplies in int32 here" in finding.related[0].message
    )


def test_asc008_keeps_a_loaded_offset_product_beside_asc002s_index_product() -> None:
    """`(bos * H + pid * T)`: ASC002's fix casts `pid`, not the loaded `bos`; ASC008 still
    reports `bos * H` (it defers only when `bos` is an index in some specialisation)."""
    source = kernel(
        "bos = tl.load(cu_seqlens + pid).to(tl.int32)\no = (bos * H + tl.program_id(1) * T).to(tl.int64)",
        params="x, cu_seqlens, T, H",
    )
    got = findings(source, ("ASC002", "ASC008"))
    assert sorted((row, code) for row, code, _ in got) == [(9, "ASC002"), (9, "ASC008")]


READS_DTYPE = (
    HEADER
    + """@triton.jit
def k(x, y, scale):
    o = tl.arange(0, 16)
    tl.static_print(scale.dtype)
    tl.store(y + o, tl.load(x + o) * scale.to(tl.float32))
"""
)


@pytest.mark.parametrize(("host", "flagged"), [("", False), ("def run(x, y):\n    k[(1,)](x, y, 1)\n", True)])
def test_a_dtype_read_shows_a_tensor_unless_a_launch_passes_one(host: str, flagged: bool) -> None:
    """`scale.dtype` shows the author takes `scale` for a tensor (no finding on its own), but a
    launch passing `1` makes it a constexpr, on which `.dtype` fails too."""
    assert bool(findings(READS_DTYPE + "\n\n" + host)) == flagged


ADDRESS_SUM = (
    HEADER
    + """@triton.jit
def k(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    s = (src.to(tl.int64) + offs).to(tl.pointer_type(tl.uint8))
    d = (dst.to(tl.int64) + offs).to(tl.pointer_type(tl.uint8))
    tl.store(d, tl.load(s, mask=offs < n), mask=offs < n)
    m = (offs + n.to(tl.int64)).to(tl.pointer_type(tl.uint8))  # `n` is an offset here
    tl.store(m, 0)
"""
)


def test_an_address_an_offset_is_added_to_before_a_pointer_cast_is_no_constexpr() -> None:
    """`(src.to(tl.int64) + offs).to(tl.pointer_type(tl.uint8))`: `src` is the address a pointer
    is made of (probe 10 flagged it); an offset added after it is still read as an int."""
    assert [row for row, _, message in findings(ADDRESS_SUM) if message.startswith(CONSTEXPR)] == [11]


PASSED_A_TENSOR = (
    HEADER
    + """import torch

from helpers import copy_state


@triton.jit
def k(src, dst, size):
    copy_state(src.to(tl.int64), dst.to(tl.int64), size)


def run(size):
    source = torch.randint(0, 256, (size,), dtype=torch.uint8, device="npu")
    destination = torch.empty_like(source)
    k[(1,)](source, destination, size)
"""
)


def test_a_parameter_a_launch_passes_a_torch_tensor_is_a_pointer() -> None:
    """vllm-ascend's `_copy_temporal_test_kernel`: the addresses go to a device function of another
    module, the launch passes torch tensors: pointers, never specialised."""
    assert findings(PASSED_A_TENSOR) == []


@pytest.mark.parametrize(
    ("use", "flagged"),
    [
        ("tl.sigmoid(b / softcap)", False),  # beside a float tile
        ("tl.sigmoid(tl.load(x + o).to(tl.float32) * softcap)", False),  # beside a cast to a float dtype
        ("tl.sigmoid(tl.load(x + o) / softcap)", True),  # a load of unknown dtype shows nothing
    ],
)
def test_a_parameter_used_beside_a_float_tile_is_a_float(use: str, flagged: bool) -> None:
    """`softcap.to(tl.float32) * tl.sigmoid(b / softcap)`, `b` a float tile: float arithmetic,
    as beside a float literal (probe 10 found it flagged, the rule assuming an int)."""
    source = (
        HEADER
        + f"""@triton.jit
def k(x, y, softcap, N: tl.constexpr):
    o = tl.arange(0, N)
    b = tl.load(x + o).to(tl.float32)
    tl.store(y + o, softcap.to(tl.float32) * {use} + b)
"""
    )
    assert bool(findings(source)) == flagged


def test_a_parameter_used_beside_a_name_of_names_of_a_float_tile_is_a_float() -> None:
    """`b / softcap` with `b = c`, `c = a` and `a` a float tile: names of names are followed back
    to the float value as far as elsewhere in the engine (`nodes.NAMES_FOLLOWED`), not two names
    only."""
    source = (
        HEADER
        + """@triton.jit
def k(x, y, softcap, N: tl.constexpr):
    o = tl.arange(0, N)
    a = tl.load(x + o).to(tl.float32)
    c = a
    b = c
    tl.store(y + o, softcap.to(tl.float32) * tl.sigmoid(b / softcap) + a)
"""
    )
    assert findings(source) == []


@pytest.mark.parametrize("sizes", ["", '(do_not_specialize=["T"])'])
def test_a_product_dividing_an_index_is_no_offset(sizes: str) -> None:
    """fla's `wall_attn` decode: `(pid // (NV * NT)).to(tl.int64)`: the divisor's product is below
    the grid, and the quotient is the size of `pid` (flagged with `T` in `do_not_specialize`, and
    with an unannotated `T` once those sizes multiply in int32)."""
    source = (
        HEADER
        + f"""@triton.jit{sizes}
def k(x, T, BT: tl.constexpr, BV: tl.constexpr, V: tl.constexpr):
    pid = tl.program_id(0)
    NV, NT = tl.cdiv(V, BV), tl.cdiv(T, BT)
    i_bh = (pid // (NV * NT)).to(tl.int64)
    last = ((pid * NT) // 2).to(tl.int64)
    tl.store(x + i_bh + last, 0.0)
"""
    )
    assert [(row, message.startswith(WRAP)) for row, _, message in findings(source)] == [(10, True)]
