"""Whether a file launches its kernels where host code runs only on the NPU: a default-targeting
signal for files with no Ascend folder, import or dependency (`config.Settings.skip_reason`).

`if x.device.type == "npu": kernel[grid](...)`, `if is_npu(): ...`, after `if device_type !=
"npu": ...; return`, in a CustomOp's `forward_npu`: those kernels run on Ascend, whatever else
the file runs elsewhere. `NpuPaths` is `OtherPlatformPaths`' walk with the NPU as the platform
a test requires.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from . import source as sources
from .host import HostIndex, OtherPlatformPaths, Scope, _compares_device_type, _first_param, _names_npu
from .imports import ImportMap, dotted_name, str_literal
from .kernels import find_kernels

_NPU_AVAILABLE = "torch.npu.is_available"
# Before any parse: `jit` (a kernel), a subscript called (a launch) and the spelling of an NPU
# test `NpuPaths` knows (searched last: the slowest).
_NPU_TEST_TEXT = re.compile(r"is_npu|[\"']npu[\"']|torch\.npu\.is_available|forward_npu", re.IGNORECASE)
_LAUNCH_TEXT = re.compile(r"\]\s*\(")


def launches_kernels_on_npu(text: str, triton_modules: Sequence[str] = ()) -> bool:
    """A kernel the file defines is launched (directly, or through a launcher helper it is
    passed to) on a path of host code that runs only on the NPU (`NpuPaths`). False for a
    text libcst cannot parse: the file stays out, as without this signal."""
    if not ("jit" in text and _LAUNCH_TEXT.search(text) and _NPU_TEST_TEXT.search(text)):
        return False
    try:
        module = sources.parse(text)
    except sources.SourceError:
        return False
    kernels = find_kernels(module, ImportMap(module, text, triton_modules))
    if not kernels:
        return False
    host = HostIndex(module, kernels)
    npu_nodes = NpuPaths(host).nodes
    return any(launch.call in npu_nodes for kernel in kernels for launch in host.launches_with_helpers(kernel))


class NpuPaths(OtherPlatformPaths):
    """Where the module's host code runs only on the NPU: `OtherPlatformPaths` with the tests
    turned round (`requires_other` here means "requires the NPU").

    A test requires the NPU when it holds only there: an NPU test holding (`IS_NPU`,
    `is_npu()`, `current_platform.is_npu()`, `x.is_npu`, `torch.npu.is_available()`,
    `x.device.type == "npu"`, `device_type != "npu"` failing), through `not`, `and`, `or`, names
    and the module's predicates as there. A CustomOp's `forward_npu` method runs on the NPU."""

    def requires_other(self, test: cst.BaseExpression, holds: bool, scope: Scope, hops: int = 0) -> bool:
        if isinstance(test, cst.Comparison):
            return _compares_npu_type(test, holds)
        if _names_npu(test):
            return holds
        return super().requires_other(test, holds, scope, hops)

    def _call_requires_other(self, call: cst.Call, holds: bool, hops: int) -> bool:
        if _names_npu(call.func) or dotted_name(call.func) == _NPU_AVAILABLE:
            return holds
        if isinstance(call.func, cst.Name) and holds:
            return self._is_predicate(call.func.value, hops)
        return False

    def _dispatched_elsewhere(self, function: cst.FunctionDef) -> bool:
        return function.name.value == "forward_npu" and _first_param(function.params) == "self"


def _compares_npu_type(test: cst.Comparison, holds: bool) -> bool:
    """`x.device.type == "npu"` holding, `x.device.type != "npu"` failing: a comparison with the
    NPU's literal that `_compares_device_type` finds off the NPU when the test is turned round."""
    sides = (test.left, *(comparison.comparator for comparison in test.comparisons))
    return any(str_literal(side) == "npu" for side in sides) and _compares_device_type(test, not holds)
