"""A module of kernels whose launches another module of the package makes (`kernels.py` defines
the kernel, `ops.py` imports and launches it): what those launches pass is host evidence for the
kernel's parameters, as a launch in its own module would be (`HostIndex.passed_values`)."""

from __future__ import annotations

from pathlib import Path

from ascend_lint.cache import DEFAULT_FOLDER, Cache
from ascend_lint.config import Settings
from ascend_lint.engine import lint_file

KERNELS = """
import triton
import triton.language as tl


@triton.jit
def rms_kernel(X, Y, W, eps, N, HAS_W: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + pid * N + offs, mask=offs < N, other=0.0)
    y = x / tl.sqrt(tl.sum(x * x, axis=0) / N + eps.to(tl.float32))
    if HAS_W or N > 4096:
        y = y * tl.load(W + offs, mask=offs < N)
    tl.store(Y + pid * N + offs, y, mask=offs < N)
"""

OPS = """
import torch
import triton

from {module} import rms_kernel


def rms_norm(x, w={weight}, eps={eps}):
    y = torch.empty_like(x)
    M, N = x.shape
    rms_kernel[(M,)](x, y, w, eps, N, HAS_W=w is not None, BLOCK=triton.next_power_of_2(N))
    return y
"""


def package(root: Path, eps: str = "1e-6", weight: str = "None", module: str = ".kernels") -> Path:
    """`root/pkg/ops/kernels.py` (returned) and `ops.py` beside it launching its kernel."""
    folder = root / "pkg" / "ops"
    folder.mkdir(parents=True, exist_ok=True)
    for init in (root / "pkg" / "__init__.py", folder / "__init__.py"):
        init.write_text("", encoding="utf-8")
    (folder / "kernels.py").write_text(KERNELS, encoding="utf-8")
    (folder / "ops.py").write_text(OPS.format(module=module, weight=weight, eps=eps), encoding="utf-8")
    return folder / "kernels.py"


def findings(kernels: Path, cache: Cache | None = None) -> dict[str, str]:
    result = lint_file(str(kernels), Settings(root=kernels.parent, target_all=True), cache)
    assert result.error is None
    return {finding.code: finding.message for finding in result.findings}


def test_a_float_another_module_passes_is_no_int_to_specialise(tmp_path: Path) -> None:
    assert "ASC002" not in findings(package(tmp_path, eps="1e-6"))
    assert "ASC002" in findings(package(tmp_path, eps="1"))  # an int 1 is specialised: `.to` fails


def test_absolute_imports_and_imports_of_the_module_count_too(tmp_path: Path) -> None:
    assert "ASC002" not in findings(package(tmp_path / "a", module="pkg.ops.kernels"))
    kernels = package(tmp_path / "b")
    ops = kernels.parent / "ops.py"
    source = ops.read_text(encoding="utf-8").replace("from .kernels import rms_kernel", "from . import kernels")
    ops.write_text(source.replace("rms_kernel[(M,)]", "kernels.rms_kernel[(M,)]"), encoding="utf-8")
    assert "ASC002" not in findings(kernels)


def test_none_another_module_passes_is_named_with_its_launch(tmp_path: Path) -> None:
    message = findings(package(tmp_path, weight="None"))["ASC004"]
    assert "optional pointer `W` (the launch in `rms_norm` of `ops.py` passes `W=w`, where `w` defaults to `None`)" in (
        message
    )
    alone = package(tmp_path / "alone")
    (alone.parent / "ops.py").unlink()
    assert "which looks optional" in findings(alone)["ASC004"]  # no launch: only the guard says so


def test_a_launch_of_a_kernel_of_the_same_name_in_another_module_does_not_count(tmp_path: Path) -> None:
    """`pkg/other/ops.py` launches `pkg/other/kernels.py`'s `rms_kernel` with a float: nothing
    about `pkg/ops/kernels.py`'s."""
    kernels = package(tmp_path)
    (kernels.parent / "ops.py").unlink()
    other = tmp_path / "pkg" / "other"
    other.mkdir()
    (other / "__init__.py").write_text("", encoding="utf-8")
    (other / "kernels.py").write_text(KERNELS, encoding="utf-8")
    (other / "ops.py").write_text(OPS.format(module=".kernels", weight="None", eps="1e-6"), encoding="utf-8")
    assert "ASC002" in findings(kernels)
    assert "ASC002" not in findings(other / "kernels.py")


def test_a_cached_result_holds_while_no_module_of_the_package_changes(tmp_path: Path) -> None:
    kernels = package(tmp_path, eps="1")
    settings = Settings(root=tmp_path, target_all=True)
    cache = Cache(tmp_path / DEFAULT_FOLDER, settings)
    assert cache.prepare() is None
    assert "ASC002" in findings(kernels, cache)
    assert cache.lookup(str(kernels)) is not None
    ops = kernels.parent / "ops.py"
    ops.write_text(ops.read_text(encoding="utf-8").replace("eps=1)", "eps=1e-6)"), encoding="utf-8")
    assert cache.lookup(str(kernels)) is None  # the launching module changed
    assert "ASC002" not in findings(kernels, cache)
    assert cache.lookup(str(kernels)) is not None
    (kernels.parent / "notes.py").write_text("NOTE = 1\n", encoding="utf-8")
    assert cache.lookup(str(kernels)) is None  # a module added to the package may launch it


def test_a_launch_of_a_kernel_star_imported_counts(tmp_path: Path) -> None:
    """`from .kernels import *` in `ops.py`, then `rms_kernel[(M,)](...)` (`rms_kernel` a public
    name of `kernels.py`): the launch passes a float `eps`, nothing to specialise."""
    kernels = package(tmp_path)
    ops = kernels.parent / "ops.py"
    ops.write_text(ops.read_text(encoding="utf-8").replace("import rms_kernel", "import *"), encoding="utf-8")
    assert "ASC002" not in findings(kernels)
    ops.write_text(ops.read_text(encoding="utf-8").replace("eps=1e-6", "eps=1"), encoding="utf-8")
    assert "ASC002" in findings(kernels)


def test_an_int32_tensor_another_module_passes_is_named_with_its_launch(tmp_path: Path) -> None:
    """`ops.py` allocates `starts` int32 and launches `kernels.py`'s kernel with it: the int32
    evidence is a line of `ops.py`, named in the message (not a related location of
    `kernels.py`, where its position would be looked for)."""
    folder = package(tmp_path).parent
    (folder / "kernels.py").write_text(
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def k(A, starts, stride, BLOCK: tl.constexpr):  # starts: int32\n"
        "    start = tl.load(starts + tl.program_id(0))\n"
        "    tl.store(A + start * stride + tl.arange(0, BLOCK), 0.0)\n",
        encoding="utf-8",
    )
    (folder / "ops.py").write_text(
        "import torch\n\nfrom .kernels import k\n\n\ndef run(x, n):\n"
        "    starts = torch.zeros(n, dtype=torch.int32)\n    k[(n,)](x, starts, x.stride(0), BLOCK=128)\n",
        encoding="utf-8",
    )
    result = lint_file(str(folder / "kernels.py"), Settings(root=folder, target_all=True))
    assert result.error is None
    (finding,) = result.findings
    assert "(an int32 tensor on every launch: the launch in `run` of `ops.py`)" in finding.message
    assert finding.related == ()
