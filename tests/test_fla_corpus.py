"""ascend-lint on fla-core 0.6.0, real Ascend kernels written by others.

Every finding below was read by hand. Counts per rule, and why each group is believed:

- ASC001 (26): `num_warps=` / `num_stages=` in launches, `triton.Config(...)` built in a
  comprehension (rotary), and keyword launches with `**kernel_kwargs` (kda, solve_tril) — all
  in Ascend-only files, where the guidance says to delete them.
- ASC003 (13): kda `chunk_bwd.py` reuses `b_dv` as the right operand right after it was the
  left operand of `tl.dot` (the author copied `b_A` but not `b_dv`). In gated-delta-rule's
  `chunk_delta_h.py` the STATE_V_FIRST path passes `b_dhN.to(b_k.dtype)` as the left operand
  and then scales/accumulates `b_dhN`: with bf16 inputs the `.to` materialises a converted
  copy and the clobber hits the copy, but with fp32 inputs `.to` is a no-op and the fp32
  state tiles are clobbered — RULES.md treats a `.to()`-wrapped left operand as clobbered,
  and for fp32 these are real.
- ASC005 (3): `causal_conv1d_fwd_coregrid_kernel` picks masked vs block-pointer DMA on a
  runtime `is_tail_chunk` three times (the backward kernel already uses the TAIL_MODE split,
  and is not flagged). `causal_conv1d_fwd_kernel`'s `if not USE_INITIAL_STATE or t0 >= W:`
  between block-pointer and masked loads is not runtime in every specialisation: without an
  initial state `True or x` folds and only the block-pointer arm is compiled (flagged until
  and/or folded per specialisation; the contract's words, as for a TAIL_MODE split).
- ASC002 (0): the files use `tl.cast` before multiplies and `.to()` on loaded values, and cast
  offset tiles whose multiply is a loop index's block (`(i_d * BD + tl.arange(0, BD)).to(tl.int64)`,
  `i_d < tl.cdiv(D, BD)`: within one dimension, not flagged) before their stride; the
  many `tl.program_id(0).to(tl.int64)` are not flagged: program ids are runtime values
  (measured with the real compiler: they compile even on a one-program grid).
- ASC004 (0): the one mixed test around `initial_state` carries the inner
  `if USE_INITIAL_STATE:` guard (the fix the rule asks for).
- ASC006 (0): task loops rebind their pointers per task.
- ASC011 (29): the Ascend port of `precond_gated_delta_rule/fused_recurrent.py` keeps the CUDA
  layout of its per-head step inputs and reads `g` (`p_g += HV`), `g_atk` and `beta_atk`
  (`+= H`), and its scalar `beta` (`p_beta += HV * (1 if IS_BETA_HEADWISE else V)`, round 29)
  one element per time step, head-count apart: the pattern the guidance measures
  10–35x slower than a contiguous load. Performance advice, not a bug. (4th) kda's
  `chunk_intra.py` reads `beta` the same way in its pairwise fallback for unbounded gates,
  `tl.load(p_beta + (i_ti + j) * HV)` once per step of `for j in range(...)`. (5th–8th)
  simple_gla's `fused_recurrent.py` reads its gate `g` [B, T, H] three times with
  `p_g += (-1 if REVERSE else 1) * H` (H apart in either direction), and kda's
  `fused_recurrent.py:220` reads the scalar `beta` with `p_beta += stride_beta_scalar`,
  `stride_beta_scalar = HV` (the headwise arm's vector load is not flagged).
  (9th–28th, the chunk forms) a chunk of `BT` steps read `H` apart: `gated_delta_rule`'s
  `gate.py` loads `g` through `tl.make_block_ptr(g + bos * H + i_h, (T,), (H,), ...)` (twice)
  and `g + i_h + o_t * H` / `dyg` likewise; kda's `chunk_bwd.py` its `db_acc` scratch
  `[B, T, HV]` (3), kda's `chunk_intra.py` `beta` (6), `chunk_h.py` (2) and `chunk_o.py:1570`
  `g`, simple_gla's `parallel.py` `gc` (2), `utils/triton_ascend/cumsum.py` `s` (2). The
  kernels with a `G_T_CONTIG`-style arm (`wy_fast.py`, `chunk_precond_wy_bwd.py`) are not
  flagged: their strided arm is the fallback the host picks for `HV == 1`.
- ASC012 (1): `ops/common/backends/triton_ascend/chunk_o.py` sizes its tiles from
  `_UB_BYTES = 196608` although the package ships a UB manager that queries the SoC
  (`fla/utils/ascend_ub_manager.py`, whose `_FALLBACK_UB_CAPACITY_BITS` is not flagged).
- ASC007–ASC009 (0): block-pointer offsets stay int32 (`i_t * BT`, the int64 part in the
  base); `cu_seqlens` are loaded `.to(tl.int64)`; all 12 launches on `num_aicore` are of
  kernels with `tl.dot` (19 more run on `num_vectorcore`). docs/corpus-findings.md lists
  what these rules report with `--target-all` (CUDA paths) and the verdicts.
- ASC010 (3): `precond_gated_delta_rule/backends/triton_ascend/fused_recurrent.py:252`
  launches `(NV, N * HV)` with `N` sequences (`B if cu_seqlens is None else
  len(cu_seqlens) - 1`) and `NV = V / 8`: 16 × 128 sequences × 32 heads = 65536 programs.
  `atk/backends/triton_ascend/chunk_atk_bwd.py:547` and `chunk_atk_fwd.py:397` launch
  `grid2 = (B * H,)` (`(N * H,)` varlen) once per chunk of a scan (`for chunk_id in ...`):
  the loop chunks nothing, each launch is the whole `B * H` grid, which the files' other
  launches budget (`ASCEND_LAUNCH_BLOCK_BUDGET`) and this one does not.
  The other multi-axis grids sit in host chunking loops, behind grid-budget tests, or are
  core grids.
- ASC013 (0): the estimate puts no configuration the modules make visible over the UB; in the
  calibration 13 kernels overflow at the stated sizes (fla's defaults), sizes their hosts
  compute and the rule does not see (docs/ub-estimate.md).

False positives known: none.

Issue 10 (path-sensitive values, kernels anywhere, optional pointers and floats from evidence,
one ASC003 finding per read) changed nothing here: the same 43 findings before and after (the
4 of ASC011/ASC012 came with issue 15). What
it changed with `--target-all` is listed with verdicts in docs/corpus-findings.md, and the
Ascend files are still exactly those selected, by their `triton_ascend` folders.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conftest import settings
from fla_corpus import fla_ascend_files, fla_root, lint_wheel

from ascend_lint.ascend_text import says_ascend
from ascend_lint.engine import lint_source

EXPECTED = {"ASC001": 26, "ASC003": 13, "ASC005": 3, "ASC010": 3, "ASC011": 29, "ASC012": 1}


def test_fla_ascend_kernels_findings_per_rule():
    root = fla_root()
    results = lint_wheel(root, root / "fla")
    checked = {r.filename for r in results if r.checked}
    ascend_paths = {str(p) for p in fla_ascend_files()}
    assert ascend_paths <= checked
    for extra in checked - ascend_paths:  # selected because they import torch_npu / the CANN extension
        assert says_ascend(Path(extra).read_text(encoding="utf-8")), extra
    findings = [f for r in results for f in r.findings]
    assert all("triton_ascend" in f.filename for f in findings)
    assert dict(Counter(f.code for f in findings)) == EXPECTED
    by_file = Counter((f.code, f.filename.rsplit("/fla/", 1)[1]) for f in findings)
    assert by_file[("ASC003", "ops/kda/backends/triton_ascend/chunk_bwd.py")] == 1
    assert by_file[("ASC005", "modules/causal_conv1d/backends/triton_ascend.py")] == 3
    assert by_file[("ASC011", "ops/precond_gated_delta_rule/backends/triton_ascend/fused_recurrent.py")] == 4
    assert by_file[("ASC011", "ops/kda/backends/triton_ascend/chunk_intra.py")] == 7
    assert by_file[("ASC011", "ops/simple_gla/backends/triton_ascend/fused_recurrent.py")] == 3
    assert by_file[("ASC011", "ops/kda/backends/triton_ascend/fused_recurrent.py")] == 1
    # chunks of `T` read `H` apart: block pointers `(T,), (H,)` and vectors `o_t * H`
    assert by_file[("ASC011", "ops/gated_delta_rule/backends/triton_ascend/gate.py")] == 4
    assert by_file[("ASC011", "ops/kda/backends/triton_ascend/chunk_bwd.py")] == 3
    # their `G_T_CONTIG` / `BETA_T_CONTIG` arms read the transposed gate: the strided arms are not flagged
    assert by_file[("ASC011", "ops/gated_delta_rule/backends/triton_ascend/wy_fast.py")] == 0
    assert by_file[("ASC011", "ops/precond_gated_delta_rule/backends/triton_ascend/chunk_precond_wy_bwd.py")] == 0
    assert by_file[("ASC012", "ops/common/backends/triton_ascend/chunk_o.py")] == 1


def test_per_timestep_pointer_walks_are_not_task_loops():
    """fla-core's recurrent kernels walk their pointers once per timestep
    (`for i in range(T - 1, -1, -1): ... p_g -= D`). `T` is the parameter, or loaded on the
    varlen path: never a program id. Before issue 10 the other arm's `bos = i_n * T` gave it
    one, and ASC006 took these loops for task loops (13 findings, docs/corpus-findings.md)."""
    for name in ("hgrn", "rwkv6"):
        path = fla_root() / "fla" / "ops" / name / "fused_recurrent.py"
        result = lint_source(path.read_text(encoding="utf-8"), str(path), settings(select=["ASC001", "ASC006"]))
        codes = Counter(f.code for f in result.findings)
        assert codes["ASC001"] > 0, name  # the file is linted: its autotune configs are reported
        assert codes["ASC006"] == 0, name
