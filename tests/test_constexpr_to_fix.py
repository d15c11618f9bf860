"""ASC002's "cast after multiply" fix repairs the wrap or is not offered (QA round 23).

A fix that removes the `.to` while a multiply stays in int32 makes the finding go and leaves
the bug: `--fix` then reports it fixed. Each case here lints, fixes, and checks the rewrite
casts an index before every multiply of the statement, or that the fix is declined and the
finding stays, with its reason.
"""

from __future__ import annotations

import libcst as cst
from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.fixer import fix_result

ASC002 = settings(select=["ASC002"])
HEADER = "import triton\nimport triton.language as tl\n\n\n"

HELPER_OPERAND = (
    HEADER
    + """@triton.jit
def _batch(H: tl.constexpr):
    return tl.program_id(1) // H


@triton.jit
def _ident(x):
    return x


@triton.jit
def k(q, o, T, H: tl.constexpr, K: tl.constexpr):
    o_k = tl.arange(0, K)
    off = (_batch(H) * T * K).to(tl.int64)
    g = (_ident(tl.program_id(0)) * T).to(tl.int64)
    tl.store(o + off + g + o_k, tl.load(q + off + o_k))
"""
)


def _fixed(source: str) -> tuple[list, str | None]:
    result = lint_source(source, "triton_ascend/k.py", ASC002)
    after, fixed = fix_result(result, ASC002, unsafe=True)
    return after.findings, fixed.fixed if fixed is not None else None


def _uncast_multiplies(code: str) -> list[str]:
    """The multiplies of `code` (an expression) with no `tl.cast(..., tl.int64)` among their
    operands: in a rewrite of an index product, an int32 multiply left as it was."""
    uncast = []
    for node in _walk(cst.parse_expression(code)):
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply):
            casts = [
                sub
                for sub in _walk(node)
                if isinstance(sub, cst.Call) and cst.Module([]).code_for_node(sub.func) == "tl.cast"
            ]
            if not casts:
                uncast.append(cst.Module([]).code_for_node(node))
    return uncast


def _walk(node: cst.CSTNode):
    yield node
    for child in node.children:
        yield from _walk(child)


def _value(fixed: str, target: str) -> str:
    line = next(line for line in fixed.splitlines() if line.strip().startswith(f"{target} = "))
    return line.split("=", 1)[1].split("#")[0].strip()


def test_a_device_functions_index_is_cast_before_the_multiply():
    findings, fixed = _fixed(HELPER_OPERAND)
    assert fixed is not None, "the fix is declined"
    assert not findings
    assert _value(fixed, "off") == "tl.cast(_batch(H), tl.int64) * T * K"
    assert _value(fixed, "g") == "tl.cast(_ident(tl.program_id(0)), tl.int64) * T"
    for target in ("off", "g"):
        assert not _uncast_multiplies(_value(fixed, target)), fixed


def test_the_repro_fix_repairs_the_wrap_or_is_declined():
    """`--fix` either leaves the finding or leaves no multiply of the statement in int32."""
    findings, fixed = _fixed(HELPER_OPERAND)
    if fixed is None:
        assert len(findings) == 2
        return
    for target in ("off", "g"):
        value = _value(fixed, target)
        assert ".to(" in value or not _uncast_multiplies(value), value


def test_a_term_made_by_an_earlier_multiply_is_cast_as_written():
    """`x = i_b * T` then `(x * K).to(tl.int64)`: `x` is a position bounded by a dimension and
    `* K` the multiply that wraps, so the fix casts `x` (vllm-ascend's `boh = i_n * NT` then
    `((boh * H + i_h) * V * K).to(tl.int64)`; a guard of the day declined these fixes)."""
    source = (
        HEADER
        + """@triton.jit
def k(o, T, K: tl.constexpr):
    i_b = tl.program_id(0)
    x = i_b * T
    off = (x * K).to(tl.int64)
    tl.store(o + off, 1.0)
"""
    )
    _, fixed = _fixed(source)
    assert fixed is not None
    assert _value(fixed, "off") == "tl.cast(x, tl.int64) * K"


def test_a_fractional_term_is_not_cast_first():
    """`tl.program_id(1) / H` returned by a device function: casting it first would truncate."""
    source = (
        HEADER
        + """@triton.jit
def _half(H: tl.constexpr):
    return tl.program_id(1) / H


@triton.jit
def k(o, T, H: tl.constexpr, K: tl.constexpr):
    off = (_half(H) * T * K).to(tl.int64)
    tl.store(o + off, 1.0)
"""
    )
    findings, fixed = _fixed(source)
    assert fixed is None
    [finding] = findings
    assert "may hold a fraction" in finding.no_fix_reason


def test_a_runtime_choice_beside_the_index_keeps_the_fix():
    source = (
        HEADER
        + """@triton.jit
def k(q, o, T):
    i_b, i_t = tl.program_id(0), tl.program_id(1)
    bos = (i_b * T + (1 if i_t > 0 else 0)).to(tl.int64)
    arm = (i_b * T if i_t > 0 else 0).to(tl.int64)
    tl.store(o + bos + arm, tl.load(q + bos))
"""
    )
    result = lint_source(source, "triton_ascend/k.py", ASC002)
    beside, in_arm = sorted(result.findings, key=lambda finding: finding.location.row)
    assert beside.fix is not None, beside.no_fix_reason
    assert in_arm.fix is None and "in an arm of a value chosen at run time" in in_arm.no_fix_reason
    _, fixed = _fixed(source)
    assert fixed is not None
    assert _value(fixed, "bos") == "tl.cast(tl.cast(i_b, tl.int64) * T + (1 if i_t > 0 else 0), tl.int64)"


def test_the_when_clause_prints_the_test_as_written():
    source = (
        HEADER
        + """@triton.jit
def stmt_form(q, o, cu, T):
    i_b = tl.program_id(0)
    if cu is not None:
        bos = tl.load(cu + i_b)
    else:
        bos = i_b * T
    bos = bos.to(tl.int64)
    tl.store(o + bos, tl.load(q + bos))


@triton.jit
def expr_form_cmp(q, o, cu, T, MODE: tl.constexpr):
    i_b = tl.program_id(0)
    bos = (tl.load(cu + i_b) if MODE == 2 else i_b * T).to(tl.int64)
    tl.store(o + bos, tl.load(q + bos))
"""
    )
    messages = [finding.message for finding in lint_source(source, "triton_ascend/k.py", ASC002).findings]
    assert any("(when `cu is not None` is false)" in message for message in messages), messages
    assert any("(when `MODE == 2` is false)" in message for message in messages), messages


SIZES_PRODUCT = (
    HEADER
    + """@triton.jit
def k(x, B, T, H: tl.constexpr, BT: tl.constexpr, DH: tl.constexpr):
    o = (B * T * H).to(tl.int64)
    NT = tl.cdiv(T, BT)
    last = ((NT - 1) * DH).to(tl.int64)
    i_b = tl.program_id(0)
    both = (i_b * T + B * H).to(tl.int64)
    tl.store(x + o + last + both, 1.0)
"""
)


def test_a_product_of_unannotated_sizes_is_cast_before_the_multiply():
    """`(B * T * H).to(tl.int64)` with `B`, `T` unannotated: an int32 multiply whenever they are
    not 1 (the probe of round 10). The fix wrapped the whole product in `tl.cast` (the multiply
    stayed int32 and the finding went); now each size is cast first, as with `do_not_specialize`."""
    result = lint_source(SIZES_PRODUCT, "triton_ascend/k.py", ASC002)
    assert [f.message.startswith("cast after multiply wraps in int32") for f in result.findings] == [True] * 3
    findings, fixed = _fixed(SIZES_PRODUCT)
    assert fixed is not None and not findings
    assert _value(fixed, "o") == "tl.cast(B, tl.int64) * tl.cast(T, tl.int64) * H"
    assert _value(fixed, "last") == "(tl.cast(NT, tl.int64) - 1) * DH"
    assert _value(fixed, "both") == "tl.cast(i_b, tl.int64) * T + tl.cast(B, tl.int64) * H"
    for target in ("o", "last", "both"):
        assert not _uncast_multiplies(_value(fixed, target)), fixed


def test_a_size_product_made_before_the_cast_is_flagged():
    """fla's `chunk_delta_h` shape: `n = T * H; n.to(tl.int64)` with `T` unannotated wraps as
    with `T` in `do_not_specialize` (it was missed)."""
    source = (
        HEADER
        + """@triton.jit
def k(x, T, H: tl.constexpr):
    n = T * H
    tl.store(x + n.to(tl.int64), 1.0)
"""
    )
    [finding] = lint_source(source, "triton_ascend/k.py", ASC002).findings
    assert finding.message.startswith("cast after multiply wraps in int32")


def test_a_shift_left_multiplies_as_asc008_reads_it():
    """`(pid << LOG).to(tl.int64)` wraps as `(pid * (1 << LOG)).to(tl.int64)` does (it was
    missed); a shift by 0 multiplies by 1 and cannot wrap."""
    source = (
        HEADER
        + """@triton.jit
def k(x, LOG: tl.constexpr):
    pid = tl.program_id(0)
    a = (pid << LOG).to(tl.int64)
    b = (pid << 0).to(tl.int64)
    tl.store(x + a + b, 1)
"""
    )
    [finding] = lint_source(source, "triton_ascend/k.py", ASC002).findings
    assert finding.message.startswith("cast after multiply wraps in int32") and finding.location.row == 8
    _, fixed = _fixed(source)
    assert fixed is not None and _value(fixed, "a") == "tl.cast(pid, tl.int64) << LOG"


def test_a_comment_in_the_to_call_is_not_dropped():
    """`B.to(  # batch count` over several lines: the comments in the call's parentheses have no
    place in `tl.cast(B, tl.int64)`, so no fix; those of the receiver stay in the rewrite."""
    source = (
        HEADER
        + """@triton.jit
def k(o, B, T):
    i_b = tl.program_id(0)
    m = B.to(  # batch count
        tl.int64
    )
    n = (
        i_b  # batch
        * T
    ).to(tl.int64)
    tl.store(o + m + n, 1.0)
"""
    )
    findings, fixed = _fixed(source)
    assert fixed is not None and "# batch count" in fixed and "# batch\n" in fixed
    [kept] = findings
    assert (
        kept.no_fix_reason == "the `.to(...)` call holds a comment outside its receiver, which the rewrite would drop"
    )
