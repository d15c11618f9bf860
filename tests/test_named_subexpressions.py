"""A finding does not depend on whether the author names a subexpression: `p = t - bos` then
`p * HV` is `(t - bos) * HV` written inline, and `start = i_b * T` then `start.to(tl.int64)`
is `(i_b * T).to(tl.int64)`; ASC011 reads a walrus binding one in place (`(r := t + 1) * HV`,
`(o_t := i_t * BT + tl.arange(0, BT)) * H`) as the named form."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

SEQUENCE = """\
import triton
import triton.language as tl


@triton.jit
def k(q, o, cu_seqlens, T, H: tl.constexpr, HV: tl.constexpr, K: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    eos = tl.load(cu_seqlens + i_n + 1).to(tl.int32)
    for t in range(bos, eos):
        b_q = tl.load(q + tl.arange(0, K))
{lines}
"""


def _codes(lines: str, code: str) -> list[str]:
    source = SEQUENCE.format(lines="\n".join("        " + line for line in lines.splitlines()))
    return [finding.code for finding in lint_source(source, "k.py", settings(select=[code])).findings]


@pytest.mark.parametrize(
    ("inline", "named", "code", "found"),
    [
        # a position inside the sequence (two values of one offsets table subtracted) is small
        ("tl.store(o + (t - bos) * HV, b_q)", "p = t - bos\ntl.store(o + p * HV, b_q)", "ASC008", 0),
        ("tl.store(o + (eos - bos) * HV, b_q)", "n = eos - bos\ntl.store(o + n * HV, b_q)", "ASC008", 0),
        (
            "tl.store(o + ((t - bos) * H + i_h) * K, b_q)",
            "p = t - bos\ntl.store(o + (p * H + i_h) * K, b_q)",
            "ASC008",
            0,
        ),
        # an offset: `t` counts from `bos`
        ("tl.store(o + (t * H + i_h) * K, b_q)", "r = t * H + i_h\ntl.store(o + r * K, b_q)", "ASC008", 1),
        ("tl.store(o + (bos + 1) * HV, b_q)", "s = bos + 1\ntl.store(o + s * HV, b_q)", "ASC008", 1),
        # the chunk an offset falls in, scaled back by its size and then by a stride, is as large
        (
            "tl.store(o + (eos - 1) // K * K * HV, b_q)",
            "i_c = (eos - 1) // K\ntl.store(o + i_c * K * HV, b_q)",
            "ASC008",
            1,
        ),
        # ...rounded up (`tl.cdiv`) or by a right shift (by 64) as well
        (
            "tl.store(o + tl.cdiv(eos, K) * K * HV, b_q)",
            "i_c = tl.cdiv(eos, K)\ntl.store(o + i_c * K * HV, b_q)",
            "ASC008",
            1,
        ),
        (
            "tl.store(o + ((eos - 1) >> 6) * 64 * HV, b_q)",
            "i_c = (eos - 1) >> 6\ntl.store(o + i_c * 64 * HV, b_q)",
            "ASC008",
            1,
        ),
        # the chunk's start alone (its index times its own divisor) is no larger than the offset
        ("tl.store(o + tl.cdiv(eos, K) * K, b_q)", "i_c = tl.cdiv(eos, K)\ntl.store(o + i_c * K, b_q)", "ASC008", 0),
        (
            "tl.store(o + ((eos - 1) >> 6) * 64, b_q)",
            "i_c = (eos - 1) >> 6\ntl.store(o + i_c * 64, b_q)",
            "ASC008",
            0,
        ),
        # a left shift multiplies: the chunk's start shifted back, then a stride, is as large...
        (
            "tl.store(o + (((eos - 1) >> 6) << 6) * HV, b_q)",
            "i_c = (eos - 1) >> 6\ntl.store(o + (i_c << 6) * HV, b_q)",
            "ASC008",
            1,
        ),
        ("tl.store(o + (eos << 7), b_q)", "s = eos << 7\ntl.store(o + s, b_q)", "ASC008", 1),
        # ...while the chunk's start alone is not, nor a shift by 0
        (
            "tl.store(o + (((eos - 1) >> 6) << 6), b_q)",
            "i_c = (eos - 1) >> 6\ntl.store(o + (i_c << 6), b_q)",
            "ASC008",
            0,
        ),
        ("tl.store(o + (eos << 0), b_q)", "s = eos << 0\ntl.store(o + s, b_q)", "ASC008", 0),
        # a remainder is a position inside a chunk, no offset
        ("tl.store(o + eos % K * HV, b_q)", "r = eos % K\ntl.store(o + r * HV, b_q)", "ASC008", 0),
        # ...but the position inside that chunk (the offset less its chunk's start) is small
        (
            "tl.store(o + (eos - (eos - 1) // K * K - 1) * HV, b_q)",
            "i_c = (eos - 1) // K\ntl.store(o + (eos - i_c * K - 1) * HV, b_q)",
            "ASC008",
            0,
        ),
        # ASC002: an int32 product cast to int64 afterwards
        (
            "tl.store(o + (i_n * T).to(tl.int64), b_q)",
            "start = i_n * T\ntl.store(o + start.to(tl.int64), b_q)",
            "ASC002",
            1,
        ),
        (
            "tl.store(o + (i_n * T + i_h).to(tl.int64), b_q)",
            "start = i_n * T\ntl.store(o + (start + i_h).to(tl.int64), b_q)",
            "ASC002",
            1,
        ),
    ],
)
def test_inline_and_named_forms_agree(inline: str, named: str, code: str, found: int) -> None:
    assert len(_codes(inline, code)) == found
    assert len(_codes(named, code)) == found


@pytest.mark.parametrize(
    "lines",
    [
        "b_g = tl.load(q + (t + 1) * HV + i_h)",
        "r = t + 1\nb_g = tl.load(q + r * HV + i_h)",
        "b_g = tl.load(q + (r := t + 1) * HV + i_h)",
        "b_g = tl.load(q + (r := t + 1) * HV + i_h)\ntl.store(o + r, b_g)",
    ],
)
def test_a_walrus_in_an_address_is_the_value_it_binds(lines: str) -> None:
    """ASC011 reads `(r := t + 1) * HV` as `r = t + 1` then `r * HV`: a load along `T`, `HV` apart."""
    assert _codes(lines, "ASC011") == ["ASC011"]


CHUNK = """\
import triton
import triton.language as tl


@triton.jit
def k(g, o, cu_seqlens, H: tl.constexpr, BT: tl.constexpr):
    i_n, i_h, i_t = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    bos = tl.load(cu_seqlens + i_n).to(tl.int64)
    {line}
    tl.store(o + tl.arange(0, BT), b_g)
"""


@pytest.mark.parametrize(
    "line",
    [
        "b_g = tl.load(g + bos * H + i_h + (i_t * BT + tl.arange(0, BT)) * H)",
        "b_g = tl.load(g + bos * H + i_h + (o_t := i_t * BT + tl.arange(0, BT)) * H)",
        "b_g = tl.load(g + bos * H + i_h + (r := (i_t * BT + tl.arange(0, BT)) * H))",
        "b_g = tl.load(g + (o := bos * H + i_h) + (r := (i_t * BT + tl.arange(0, BT)) * H))",
        "b_g = tl.load(p := g + bos * H + i_h + (i_t * BT + tl.arange(0, BT)) * H)",
    ],
)
def test_a_walrus_in_a_vector_address_is_the_value_it_binds(line: str) -> None:
    """ASC011 reads a chunk of `T` loaded `H` apart the same with the offsets, a part of the
    address or the whole address bound by `:=` where it is written."""
    source = CHUNK.format(line=line)
    assert [f.code for f in lint_source(source, "k.py", settings(select=["ASC011"])).findings] == ["ASC011"]
