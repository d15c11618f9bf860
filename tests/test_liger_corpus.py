"""ascend-lint on liger-kernel 0.8.5's Ascend backend (`liger_kernel/ops/backends/_ascend/`),
real kernels written by others, linted with the default targeting (the `_ascend` folder makes
it Ascend code). Every finding was read by hand; see below for the verdicts.
"""

from __future__ import annotations

from collections import Counter

from fla_corpus import liger_ascend_folder, liger_root

from ascend_lint.config import load_settings
from ascend_lint.engine import lint_paths

EXPECTED = {"ASC002": 19, "ASC003": 4}


def test_liger_ascend_backend_findings_per_rule():
    root = liger_root()
    settings = load_settings([str(root)], isolated=True)
    settings.root = root
    results = lint_paths([str(root / "liger_kernel")], settings)
    assert [r.error for r in results if r.error] == []
    checked = {r.filename for r in results if r.checked}
    backend = {str(p) for p in liger_ascend_folder().rglob("*.py")}
    assert checked == backend  # the `_ascend` folder, and nothing of the CUDA implementation
    findings = [f for r in results for f in r.findings]
    assert dict(Counter(f.code for f in findings)) == EXPECTED
