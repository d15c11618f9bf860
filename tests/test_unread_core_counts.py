"""ASC009 reads vllm-ascend's core-count helpers by name when they are imported from a package
no file on disk holds (`HostIndex._unread_core_count`): `get_aicore_num()` is the AI core count,
`get_vectorcore_num()` the vector one; a helper of the same name the package holds, or the
module defines, is read from its body."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import settings

from ascend_lint.engine import lint_file, lint_source

KERNEL = """
import triton
import triton.language as tl
{imports}


@triton.jit
def vec(x, y, n, ncore, BLOCK: tl.constexpr):
    for t in tl.range(tl.program_id(0), n, ncore):
        o = t * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + o, tl.load(x + o) * 2.0)


def launch(x, y, n):
    num_core = {cores}
    vec[(num_core,)](x, y, n, num_core, BLOCK=1024)
"""


def _codes(imports: str, cores: str) -> list[str]:
    source = KERNEL.format(imports=imports, cores=cores)
    return [f.code for f in lint_source(source, "k.py", settings(select=["ASC009"])).findings]


@pytest.mark.parametrize(
    ("imports", "cores", "found"),
    [
        ("from vllm_ascend.ops.triton.triton_utils import get_aicore_num", "get_aicore_num()", True),
        ("from vllm_ascend.ops.triton import triton_utils", "triton_utils.get_aicore_num()", True),
        ("import vllm_ascend.ops.triton.triton_utils as tu", "tu.get_aicore_num()", True),
        ("from vllm_ascend.ops.triton.triton_utils import get_aicore_num as cores", "cores()", True),
        # the vector core count is right for a vector kernel
        ("from vllm_ascend.ops.triton.triton_utils import get_vectorcore_num", "get_vectorcore_num()", False),
        # a name not imported, or bound by the module: not the helper
        ("", "get_aicore_num()", False),
        ("def get_aicore_num():\n    return 48", "get_aicore_num()", False),
    ],
)
def test_an_unread_helper_is_told_by_name(imports: str, cores: str, found: bool) -> None:
    assert bool(_codes(imports, cores)) is found


def test_a_helper_on_disk_is_read_from_its_body(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "utils.py").write_text("def get_aicore_num():\n    return 48  # not the device's num_aicore\n")
    launch = package / "launch.py"
    launch.write_text(KERNEL.format(imports="from .utils import get_aicore_num", cores="get_aicore_num()"))
    assert not lint_file(launch, settings(select=["ASC009"])).findings
