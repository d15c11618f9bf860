"""ASC008 after probe 13: an int64 cast ASC002 reports (a program-id product in its receiver)
hid the loaded offset's product when the program id was inside that product
(`((bos * HV + i_n * K) * V).to(tl.int64)`) or beside it under the same cast
(`((bos * HV + i_hv) * V + i_n * K).to(tl.int64)`). ASC002's fix casts the program ids and
leaves `bos * HV` to wrap, so ASC008 reports it; it defers only when the offset itself is a
program-id product in some specialisation (`else: bos = i_n * T`), which ASC002's fix casts.
"""

from __future__ import annotations

import pytest
from conftest import lint_and_fix, settings

from ascend_lint.engine import lint_source

HEADER = "import triton\nimport triton.language as tl\n\n\n"


def kernel(address: str, suffix: str = "") -> str:
    return HEADER + (
        "@triton.jit\n"
        "def kern(q, cu_seqlens, HV: tl.constexpr, K: tl.constexpr, V: tl.constexpr):\n"
        "    i_n, i_hv = tl.program_id(0), tl.program_id(1)\n"
        "    bos = tl.load(cu_seqlens + i_n).to(tl.int32)\n"
        f"    tl.store(q + {address}, 0.0){suffix}\n"
    )


INSIDE = "((bos * HV + i_n * K) * V).to(tl.int64)"
BESIDE = "((bos * HV + i_hv) * V + i_n * K).to(tl.int64)"
ROW = 9


@pytest.mark.parametrize("address", [INSIDE, BESIDE, "(bos * HV + i_n * K).to(tl.int64)"])
def test_both_rules_report_a_loaded_offset_product_under_asc002s_cast(address: str) -> None:
    result = lint_source(kernel(address), "k.py", settings(select=["ASC002", "ASC008"]))
    assert sorted((f.location.row, f.code) for f in result.findings) == [(ROW, "ASC002"), (ROW, "ASC008")]


@pytest.mark.parametrize("address", [INSIDE, BESIDE])
@pytest.mark.parametrize(
    ("suffix", "select"), [("", ["ASC008"]), ("  # noqa: ASC002", ["ASC002", "ASC008"])], ids=["select", "noqa"]
)
def test_the_wrap_is_reported_without_asc002(address: str, suffix: str, select: list[str]) -> None:
    result = lint_source(kernel(address, suffix), "k.py", settings(select=select))
    assert [(f.location.row, f.code) for f in result.findings] == [(ROW, "ASC008")]


@pytest.mark.parametrize(
    ("address", "fixed"),
    [
        (INSIDE, "(tl.cast(bos, tl.int64) * HV + tl.cast(i_n, tl.int64) * K) * V"),
        (BESIDE, "((tl.cast(bos, tl.int64) * HV + tl.cast(i_hv, tl.int64)) * V + tl.cast(i_n, tl.int64) * K)"),
    ],
)
def test_the_two_fixes_together_cast_every_index_and_the_offset(address: str, fixed: str) -> None:
    findings, text = lint_and_fix(kernel(address), "k.py", select=["ASC002", "ASC008"])
    assert all(f.fix is not None for f in findings)
    assert text is not None and f"tl.store(q + {fixed}, 0.0)" in text
    after = lint_source(text, "k.py", settings(select=["ASC002", "ASC008"]))
    assert after.findings == []
