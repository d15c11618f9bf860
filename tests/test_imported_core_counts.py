"""ASC009 reads the core count a helper of another module of the package works out (the host
facts' `core_count`, `kernels.ImportedFunctions.definition`): imported by name or as a module,
relatively or absolutely; the fixture `asc009_imported_core_count/` holds the relative forms."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, settings

from ascend_lint import kernels
from ascend_lint.engine import lint_file
from ascend_lint.package import file_hash

HELPERS = FIXTURES / "triton_ascend" / "asc009_imported_core_count" / "device.py"

KERNEL = """
import triton
import triton.language as tl
{imports}


@triton.jit
def scale_kernel(x, n, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        o = start + tl.arange(0, BLOCK)
        tl.store(x + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)


def scale(x):
    scale_kernel[({cores},)](x, x.numel(), BLOCK=1024)
"""


def package(tmp_path: Path, imports: str, cores: str) -> Path:
    """`pkg/ops/launch.py` launching on `cores`, next to `pkg/device.py` (the fixture's helpers)."""
    (tmp_path / "pkg" / "ops").mkdir(parents=True)
    for folder in (tmp_path / "pkg", tmp_path / "pkg" / "ops"):
        (folder / "__init__.py").write_text("", encoding="utf-8")
    shutil.copy(HELPERS, tmp_path / "pkg" / "device.py")
    launch = tmp_path / "pkg" / "ops" / "launch.py"
    launch.write_text(KERNEL.format(imports=imports, cores=cores), encoding="utf-8")
    return launch


@pytest.mark.parametrize(
    ("imports", "cube", "vector"),
    [
        ("from pkg.device import get_num_cores", 'get_num_cores("cube")', "get_num_cores()"),
        ("from ..device import CUBE_CORES, VECTOR_CORES", "CUBE_CORES", "VECTOR_CORES"),
        ("from pkg.device import core_counts as counts", "counts()[0]", "counts()[1]"),
        ("from pkg import device", "device.cube_cores()", "device.vector_cores()"),
        ("from .. import device as dev", "dev.CUBE_CORES", "dev.VECTOR_CORES"),
        ("import pkg.device as dev", "dev.core_counts()[0]", "dev.core_counts()[1]"),
        ("import pkg.device", "pkg.device.get_num_cores(op_type='mix')", "pkg.device.get_num_cores(op_type='vector')"),
    ],
)
def test_the_ai_core_count_of_a_helper_imported_from_the_package(
    tmp_path: Path, imports: str, cube: str, vector: str
) -> None:
    launch = package(tmp_path, imports, cube)
    result = lint_file(str(launch), settings())
    assert [(f.code, f.location.row, f.related[0].location.row) for f in result.findings] == [("ASC009", 15, 15)]
    device = tmp_path / "pkg" / "device.py"
    assert result.imported_files == {str(device): file_hash(device)}  # what the cache's entry depends on
    assert lint_file(str(package(tmp_path / "vector", imports, vector)), settings()).findings == []


def test_a_name_the_module_binds_is_not_the_imported_one(tmp_path: Path) -> None:
    launch = package(tmp_path, "from pkg.device import cube_cores", "cube_cores()")
    source = launch.read_text(encoding="utf-8")
    launch.write_text(source.replace("def scale(x):", "def scale(x, cube_cores):"), encoding="utf-8")
    assert lint_file(str(launch), settings()).findings == []


def test_a_module_naming_no_core_count_is_not_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Host code calls many imported functions; the module of one is parsed only when its text
    holds a word of a core count (`host.CORE_COUNT_WORDS`)."""
    launch = package(tmp_path, "from pkg.device import get_num_cores", 'get_num_cores("cube")')
    device = tmp_path / "pkg" / "device.py"
    parsed: list[str] = []
    parse = kernels.parse
    monkeypatch.setattr(kernels, "parse", lambda text: parsed.append(text) or parse(text))
    assert [f.code for f in lint_file(str(launch), settings()).findings] == ["ASC009"]
    assert parsed == [device.read_text(encoding="utf-8")]
    device.write_text("def get_num_cores(op_type):\n    return 24\n", encoding="utf-8")
    assert lint_file(str(launch), settings()).findings == []
    assert len(parsed) == 1


def test_a_kernel_of_another_module_of_the_package_is_checked_where_it_is_launched(tmp_path: Path) -> None:
    """`kernels.py` defines the kernel, `launch.py` launches it on the cube core count: the
    finding is at the launch, from the kernel as `kernels.py` writes it (no `tl.dot` there; one
    with a `tl.dot` is no vector kernel)."""
    launch = package(tmp_path, "from pkg.device import get_num_cores", 'get_num_cores("cube")')
    source = launch.read_text(encoding="utf-8")
    kernel = source[source.index("@triton.jit") : source.index("def scale(")]
    (launch.parent / "kernels.py").write_text(
        "import triton\nimport triton.language as tl\n\n\n" + kernel, encoding="utf-8"
    )
    host = (
        source[: source.index("@triton.jit")]
        + "from .kernels import scale_kernel\n\n\n"
        + source[source.index("def scale(") :]
    )
    launch.write_text(host, encoding="utf-8")
    assert "jit" not in host
    row = host[: host.index("scale_kernel[")].count("\n") + 1
    assert [(f.code, f.location.row) for f in lint_file(str(launch), settings()).findings] == [("ASC009", row)]
    dotted = kernel.replace("* 2.0", "* tl.sum(tl.dot(tl.load(x + o[:, None]), tl.load(x + o[None, :])))")
    (launch.parent / "kernels.py").write_text(
        "import triton\nimport triton.language as tl\n\n\n" + dotted, encoding="utf-8"
    )
    assert lint_file(str(launch), settings(select=["ASC009"])).findings == []  # ASC013 may estimate its dot


# vllm-ascend's `vllm_ascend/ops/triton/triton_utils.py` (0.26.0rc1, 0.30.0rc2): the counts are
# module globals an init function sets under `global`, and getters return them.
TRITON_UTILS = """
from typing import Any

import torch
from vllm.triton_utils import HAS_TRITON, tl, triton

_NUM_AICORE = -1
_NUM_VECTORCORE = -1


def init_device_properties_triton():
    global _NUM_AICORE, _NUM_VECTORCORE
    if _NUM_AICORE == -1 and HAS_TRITON:
        device_properties: dict[str, Any] = triton.runtime.driver.active.utils.get_device_properties(
            torch.npu.current_device()
        )
        _NUM_AICORE = device_properties.get("num_aicore", -1)
        _NUM_VECTORCORE = device_properties.get("num_vectorcore", -1)
        assert _NUM_AICORE > 0 and _NUM_VECTORCORE > 0, "Failed to detect device properties."


def get_aicore_num():
    global _NUM_AICORE
    assert _NUM_AICORE > 0, "Device properties not initialized."
    return _NUM_AICORE


def get_vectorcore_num():
    global _NUM_VECTORCORE
    assert _NUM_VECTORCORE > 0, "Device properties not initialized."
    return _NUM_VECTORCORE
"""


def utils_package(tmp_path: Path, getter: str, utils: str = TRITON_UTILS) -> Path:
    """`pkg/ops/launch.py` launching on `getter()` it imports from `pkg/utils.py` (`utils`)."""
    launch = package(tmp_path, f"from pkg.utils import {getter}", f"{getter}()")
    (tmp_path / "pkg" / "utils.py").write_text(utils, encoding="utf-8")
    return launch


def test_a_getter_of_a_global_an_init_function_sets_to_the_ai_core_count(tmp_path: Path) -> None:
    """vllm-ascend's `get_aicore_num()` is the AI core count: `_NUM_AICORE` is only ever the
    placeholder `-1` or `device_properties.get("num_aicore", -1)`; `get_vectorcore_num()` is the
    vector core count."""
    launch = utils_package(tmp_path, "get_aicore_num")
    result = lint_file(str(launch), settings())
    assert [(f.code, f.location.row, f.related[0].location.row) for f in result.findings] == [("ASC009", 15, 15)]
    utils = tmp_path / "pkg" / "utils.py"
    assert result.imported_files == {str(utils): file_hash(utils)}
    assert lint_file(str(utils_package(tmp_path / "vector", "get_vectorcore_num")), settings()).findings == []


@pytest.mark.parametrize(
    "other",
    [
        "def _fallback():\n    global _NUM_AICORE\n    _NUM_AICORE = 24\n",  # a literal
        "def _swap():\n    global _NUM_AICORE\n    _NUM_AICORE = _NUM_VECTORCORE\n",  # the vector count
        "def _count():\n    global _NUM_AICORE\n    _NUM_AICORE += 1\n",  # an update
        "def _each():\n    global _NUM_AICORE\n    for _NUM_AICORE in range(4):\n        pass\n",  # a loop
    ],
)
def test_a_global_also_set_to_something_else_holds_no_known_count(tmp_path: Path, other: str) -> None:
    launch = utils_package(tmp_path, "get_aicore_num", TRITON_UTILS + "\n\n" + other)
    assert lint_file(str(launch), settings()).findings == []


SINGLE_FILE = """
import functools

import torch
import triton
import triton.language as tl

_NUM_AIC = None


def _init():
    global _NUM_AIC
    props = torch.npu.get_device_properties(torch.npu.current_device())
    _NUM_AIC = {value}


def cores():
    if _NUM_AIC is None:
        _init()
    return _NUM_AIC


@functools.cache
def device_info():
    p = triton.runtime.driver.active.utils.get_device_properties(0)
    return {{"cores": p["num_aicore"], "vec": p["num_vectorcore"]}}


@triton.jit
def exp_kernel(x, y, n, BLOCK: tl.constexpr):
    for b in tl.range(tl.program_id(0), tl.cdiv(n, BLOCK), tl.num_programs(0)):
        o = b * BLOCK + tl.arange(0, BLOCK)
        tl.store(y + o, tl.exp(tl.load(x + o, mask=o < n)), mask=o < n)


def exp(x, y):
    exp_kernel[({cores},)](x, y, x.numel(), BLOCK=4096)
"""


@pytest.mark.parametrize(
    ("value", "cores", "flagged"),
    [
        ("props.cube_core_num", "cores()", True),
        ('int(getattr(props, "cube_core_num", 24))', "cores()", True),  # vllm-ascend's platform.py spelling
        ('getattr(props, "vector_core_num", 48)', "cores()", False),
        ("props.cube_core_num", "_NUM_AIC", True),  # read directly
        ("props.cube_core_num or 24", "cores()", True),
        ("48", "cores()", False),
        ("None", 'device_info()["cores"]', True),  # an entry of the dict a helper returns
        ("None", 'device_info()["vec"]', False),
    ],
)
def test_a_global_an_init_function_of_the_module_sets(lint, value: str, cores: str, flagged: bool) -> None:
    findings = lint(SINGLE_FILE.format(value=value, cores=cores), select=["ASC009"])
    assert [f.location.row for f in findings] == ([37] if flagged else [])
