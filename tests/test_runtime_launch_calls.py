"""Which of a host statement's calls ``confirm`` takes for the launch a finding belongs to: the
launch holding the finding (``kernel[grid](...)``, ``.run`` / ``.warmup``, a stored launcher),
as the linter's host index and ASC001 take them; not another subscript called in the same
statement (``self.layers[i](x)``, ``handlers[key](...)``), which launches nothing of the
finding's. No compiler needed: the findings are the linter's, the launches captured data."""

from __future__ import annotations

from pathlib import Path

from conftest import settings

from ascend_lint.engine import lint_source
from ascend_lint.model import Finding
from ascend_lint.runtime_check.capture.launches import Capture, KernelRef, Launch
from ascend_lint.runtime_check.jobs import match, unreached_launch

KERNEL = """\
import triton
import triton.language as tl

EXTRA = {{"plain": lambda: {{}}}}


@triton.jit
def scale_kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs, mask=offs < n) * 2.0, mask=offs < n)


{host}
"""

DICT_BESIDE_A_HANDLER = KERNEL.format(
    host="""\
class Scale:
    def forward(self, x, mode, i):
        opts = dict(num_warps=4, scale=self.layers[i](x), **EXTRA[mode]())
        scale_kernel[(8,)](x, x.numel(), BLOCK=128, **opts)
        return x"""
)

STORED_LAUNCHER = KERNEL.format(
    host="""\
def scale(x, wide):
    launcher = scale_kernel[(8,)]
    if wide:
        launcher(x, x.numel(), BLOCK=256, num_warps=8)
    else:
        scale_kernel[(8,)](x, x.numel(), BLOCK=128, num_warps=8)
    return x"""
)


def findings(tmp_path: Path, source: str) -> tuple[Path, list[Finding]]:
    path = tmp_path / "triton_ascend" / "kernels.py"
    path.parent.mkdir()
    path.write_text(source)
    result = lint_source(source, str(path), settings(select=["ASC001"]))
    assert result.error is None, result.error
    return path, result.findings


def launch_at(path: Path, row: int) -> Launch:
    kernel = KernelRef(str(path.resolve()), "kernels", "scale_kernel")
    signature, summary = {"x": "*fp32", "n": "i32"}, {"x": "*fp32 tensor[1024]", "n": "i32 = 1024"}
    options = {"num_warps": 4 if "EXTRA[mode]" in path.read_text() else 8}
    return Launch(kernel, signature, {"BLOCK": 128}, {}, options, [], summary, call_site=[str(path.resolve()), row])


def row_of(source: str, fragment: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if fragment in line)


def test_a_subscript_called_beside_a_launch_dict_is_no_launch_of_it(tmp_path: Path):
    """The dict's finding is judged on the launch splatting it, not 'the workload never made the
    launch at line N' because the statement also calls `self.layers[i](x)` and `EXTRA[mode]()`."""
    path, found = findings(tmp_path, DICT_BESIDE_A_HANDLER)
    [finding] = found
    assert finding.location.row == row_of(DICT_BESIDE_A_HANDLER, "opts = dict(")
    launch = launch_at(path, row_of(DICT_BESIDE_A_HANDLER, "scale_kernel[(8,)]"))
    assert unreached_launch(finding, DICT_BESIDE_A_HANDLER) is None
    assert match(finding, DICT_BESIDE_A_HANDLER, Capture("workload.py", [launch])) == (launch.kernel, [launch])


def test_a_stored_launcher_never_called_gets_no_other_launchs_options(tmp_path: Path):
    """`launcher(..., num_warps=8)` (`launcher = kernel[grid]`) is a launch of its own, as the
    linter takes it: when the workload only made the other launch, that launch's num_warps is no
    evidence about it."""
    path, found = findings(tmp_path, STORED_LAUNCHER)
    stored_row = row_of(STORED_LAUNCHER, "launcher(x")
    [finding] = [f for f in found if f.location.row == stored_row]
    launch = launch_at(path, row_of(STORED_LAUNCHER, "scale_kernel[(8,)](x"))
    assert match(finding, STORED_LAUNCHER, Capture("workload.py", [launch])) == (None, [])
    assert unreached_launch(finding, STORED_LAUNCHER) == stored_row
