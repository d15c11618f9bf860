"""ascend-lint on liger-kernel 0.8.5's Ascend backend (`liger_kernel/ops/backends/_ascend/`),
real kernels written by others, linted with the default targeting (the `_ascend` folder makes
it Ascend code; nothing of the CUDA implementation beside it). Every finding was read by hand:

- ASC003 (4): `fused_moe_kernels.py` uses `x_tile` as the left operand of two dots in a row;
  `mhc.py` uses `grad_z` as the left operand and then as the right one, and `x` (loaded
  before the loop) as the left operand inside it and after it.
- ASC002 (8): `eps = eps.to(...)` in the norm kernels. Nothing in the module says `eps` is a
  float (callers elsewhere pass `1e-6`), so the rule assumes an int and says so in the
  message. The 11 `offset = offset.to(...)` of the same kernels are not reported: the module
  passes `offset` from `forward(..., offset=0.0)`, a float, and Triton never specialises
  floats (docs/specialisation.md). Before issue 10 the backend was not linted by default
  (1 of 36 files); with `--target-all` it had 23 findings (docs/corpus-findings.md).
- ASC012 (1): `ops/embedding.py` sizes tiles from `_ASCEND_UB_CAPACITY_BITS = 1572864` while
  the backend's `ub_manager.py` queries the SoC.
- ASC010 (2): `ops/llama4_rope.py` launches one program per row, `(n_row,)` with
  `n_row = bs * sl` (forward and backward): refused from 65536 tokens on.
- ASC008 (3): `fused_moe_kernels.py`'s up- and down-projection kernels multiply rows from the
  int32 `tile_row_start` (made int32 in `fused_moe.py`'s `compute_routing_metadata`, returned in
  its tuple) by a row stride, in int32. The message names that launch (another module's).
  ASC007, ASC009, ASC011: none.
"""

from __future__ import annotations

from collections import Counter

from fla_corpus import liger_ascend_folder, liger_root, lint_wheel

EXPECTED = {"ASC002": 8, "ASC003": 4, "ASC008": 3, "ASC010": 2, "ASC012": 1}


def test_liger_ascend_backend_findings_per_rule():
    root = liger_root()
    results = lint_wheel(root, root / "liger_kernel")
    checked = {r.filename for r in results if r.checked}
    backend = {str(p) for p in liger_ascend_folder().rglob("*.py")}
    assert checked == backend  # the `_ascend` folder, and nothing of the CUDA implementation
    findings = [f for r in results for f in r.findings]
    assert dict(Counter(f.code for f in findings)) == EXPECTED
    assert all("the rule assumed `eps` is an int" in f.message for f in findings if f.code == "ASC002")
    moe = [f for f in findings if f.code == "ASC008"]
    assert all("the launch in `forward` of `fused_moe.py`" in f.message and not f.related for f in moe)
