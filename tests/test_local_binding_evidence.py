"""A launch passing a local name that may be None says which binding may make it None, as it
does for a parameter's default (probe 17: "passes `ht=ht`" said nothing of why)."""

from __future__ import annotations

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

KERNEL = """import triton
import triton.language as tl


@triton.jit
def k(x, ht, NT, STORE_FINAL_STATE: tl.constexpr):
    i_t = tl.program_id(0)
    b = tl.load(x + tl.arange(0, 16))
    if STORE_FINAL_STATE and i_t == NT - 1:
        tl.store(ht + tl.arange(0, 16), b)


def run(x, NT, output_final_state=False{parameter}):
{body}    k[(4,)](x, ht=ht, NT=NT, STORE_FINAL_STATE=output_final_state)
"""


@pytest.mark.parametrize(
    ("parameter", "body", "where"),
    [
        (
            "",
            "    ht = x.new_empty(16) if output_final_state else None\n",
            "where `ht = x.new_empty(16) if output_final_state else None`",
        ),
        ("", "    ht = None\n    if output_final_state:\n        ht = x.new_empty(16)\n", "where `ht = None`"),
        (", ht=None", "", "where `ht` defaults to `None`"),
        (", h=None", "    ht = h\n", "where `h` defaults to `None`"),  # the step that says more
    ],
)
def test_the_message_quotes_the_binding_that_may_be_none(parameter: str, body: str, where: str) -> None:
    source = KERNEL.format(parameter=parameter, body=body)
    (finding,) = lint_source(source, "k.py", settings()).findings
    assert finding.code == "ASC004"
    assert f"passes `ht=ht`, {where})" in finding.message
