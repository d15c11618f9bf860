"""Scalar types from evidence (issue 10, bullet 7): `.to()` on a float scalar parameter is not
an ASC002 finding (Triton never specialises floats: measured, see test_specialisation.py);
with no evidence the rule assumes an int and says so."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """import triton
import triton.language as tl


@triton.jit
def k(x, eps, BLOCK: tl.constexpr):
    e = eps.to(tl.float32)
    tl.store(x + tl.arange(0, BLOCK), e)
"""


def asc002(source: str) -> list[str]:
    result = lint_source(source, "k.py", settings())
    assert result.error is None
    return [f.message for f in result.findings if f.code == "ASC002"]


@pytest.mark.parametrize(
    "host",
    [
        "def f(x):\n    k[(1,)](x, 1e-6, BLOCK=16)\n",
        "def f(x):\n    k[(1,)](x, -0.5, BLOCK=16)\n",
        "def f(x, eps=1e-6):\n    k[(1,)](x, eps, BLOCK=16)\n",
        "def f(x, eps: float):\n    k[(1,)](x, eps, BLOCK=16)\n",
        "def f(x, n):\n    k[(1,)](x, float(n), BLOCK=16)\n",
        "def f(x, n):\n    k[(1,)](x, 1 / n, BLOCK=16)\n",
        "def f(x, n):\n    scale = 2.0 * n\n    k[(1,)](x, scale, BLOCK=16)\n",
        "def f(x, eps):\n    k[(1,)](x, eps, BLOCK=16)\n\ndef api(x):\n    f(x, eps=1e-5)\n",
        "def f(x, eps):\n    kw = dict(eps=eps, BLOCK=16)\n    k[(1,)](x, **kw)\n\ndef api(x, eps=1e-5):\n    f(x, eps)\n",
        # saved on the autograd context in forward, passed from it in backward
        (
            "class Fn:\n    def forward(ctx, x, eps=0.0):\n        ctx.eps = eps\n\n"
            "    def backward(ctx, x):\n        k[(1,)](x, ctx.eps, BLOCK=16)\n"
        ),
    ],
)
def test_a_float_passed_by_the_host_is_not_a_finding(host: str) -> None:
    assert asc002(KERNEL + "\n\n" + host) == []


def test_a_scalar_used_only_in_float_arithmetic_is_a_float() -> None:
    source = KERNEL.replace(
        "    e = eps.to(tl.float32)\n", "    e = tl.exp(eps) + eps * 0.5\n    e = e.to(tl.float32)\n"
    )
    source = source.replace(
        "tl.store(x + tl.arange(0, BLOCK), e)", "tl.store(x + tl.arange(0, BLOCK), e + eps.to(tl.float32) * 2.0)"
    )
    assert asc002(source) == []


def test_without_evidence_the_rule_assumes_an_int_and_says_so() -> None:
    (message,) = asc002(KERNEL + "\n\ndef f(x, eps):\n    k[(1,)](x, eps, BLOCK=16)\n")
    assert "the rule assumed `eps` is an int" in message
    assert "Triton specialises an int argument equal to 1" in message


def test_an_int_is_still_reported_next_to_a_float() -> None:
    source = KERNEL.replace("def k(x, eps, BLOCK", "def k(x, eps, n, BLOCK").replace(
        "    e = eps.to(tl.float32)\n", "    e = eps.to(tl.float32) + n.to(tl.float32)\n"
    )
    source += "\n\ndef f(x, n):\n    k[(1,)](x, 1e-6, n, BLOCK=16)\n"
    (message,) = asc002(source)
    assert message.startswith("constexpr has no .to: `n` can be a constexpr")
