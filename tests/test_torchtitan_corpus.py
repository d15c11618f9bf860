"""ascend-lint on torchtitan-npu 0.2.2.post2, an Ascend-only package nobody here had read
(docs/corpus-findings.md, "torchtitan-npu 0.2.2.post2"): its Triton kernels in
`torchtitan_npu/ops/triton/`, read finding by finding, with the default targeting."""

from __future__ import annotations

from collections import Counter

from fla_corpus import TORCHTITAN_NPU_VERSION, unpacked_wheel

from ascend_lint.config import load_settings
from ascend_lint.engine import lint_paths


def findings_from(root_of_settings_relative: str) -> set[tuple[str, str, int]]:
    """The findings on the package's `ops` folder, with settings rooted at the wheel's top or
    inside the package (as when the linter runs from there): the package's own folders say
    Ascend either way, not the path from the working directory."""
    wheel = unpacked_wheel("torchtitan-npu", TORCHTITAN_NPU_VERSION, "torchtitan_npu")
    ops = wheel / "torchtitan_npu" / "ops"
    settings = load_settings([str(ops)], isolated=True)
    settings.root = wheel / root_of_settings_relative
    results = lint_paths([str(ops)], settings)
    assert [r.error for r in results if r.error] == []
    return {(f.code, f.filename.rsplit("/ops/", 1)[1], f.location.row) for r in results for f in r.findings}


def test_torchtitan_npu_findings_and_the_classes_its_review_fixed() -> None:
    found = findings_from(".")
    assert dict(Counter(code for code, _, _ in found)) == {"ASC010": 13}  # 12 true, 1 debatable
    assert {
        ("ASC010", "triton/post_bmm2.py", 317),  # (B * S, 2) for a 7168-wide hidden: refused at 32K tokens
        ("ASC010", "triton/post_bmm2.py", 387),  # the `if C > 8192: raise` before it bounds no grid size
        # `group: int = 48`: an annotated parameter is its default (the annotation had hidden all five)
        ("ASC010", "triton/prepost_sinkhorn.py", 672),
        ("ASC010", "triton/prepost_sinkhorn.py", 687),
        ("ASC010", "triton/prepost_sinkhorn.py", 774),
        ("ASC010", "triton/prepost_sinkhorn.py", 925),
        ("ASC010", "triton/prepost_sinkhorn.py", 980),
    } <= found
    # post_bmm1.py and pre_bmm.py import no Ascend package: linted from inside `ops/` they had
    # been skipped, their 4 findings lost
    assert findings_from("torchtitan_npu/ops") == found
