"""Whether a file launches its kernels where host code runs only on the NPU: a default-targeting
signal for files with no Ascend folder, import or dependency (`config.Settings.skip_reason`).

`if x.device.type == "npu": kernel[grid](...)`, `if is_npu(): ...`, after `if device_type !=
"npu": ...; return`, in a CustomOp's `forward_npu`: those kernels run on Ascend, whatever else
the file runs elsewhere (`host.NpuPaths`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import source as sources
from .prefilter import LAUNCH_TEXT

# Before any parse: `jit` (a kernel), a subscript called (a launch: `prefilter.LAUNCH_TEXT`, also
# across comments and backslashes) and the spelling of an NPU test `NpuPaths` knows (searched
# last: the slowest): `"npu"`, `torch.npu.is_available`, `forward_npu`, or `npu` / `ascend`
# joined by `_` to a word (`is_npu`, `USE_NPU`, `_TRITON_ON_ASCEND`), any case. Each holds one
# `npu` or `ascend`, which opens the pattern (searched for as a literal; a pattern opening with
# the alternatives is tried at every offset, about five times slower) and is then looked around.
_NPU_TEST_TEXT = re.compile(
    r"npu(?:(?<=_npu)|(?=_)|(?<=[\"']npu)(?=[\"'])|(?<=torch\.npu)(?=\.is_available))|ascend(?:(?<=_ascend)|(?=_))",
    re.IGNORECASE,
)


def launches_kernels_on_npu(text: str, triton_modules: Sequence[str] = ()) -> bool:
    """A kernel the file defines is launched (directly, or through a launcher helper it is
    passed to) on a path of host code that runs only on the NPU (`NpuPaths`). False for a
    text libcst cannot parse or too deeply nested to analyse: the file stays out, as without
    this signal."""
    if not ("jit" in text and LAUNCH_TEXT.search(text) and _NPU_TEST_TEXT.search(text)):
        return False
    # the analysis (and libcst) is imported only for a text that passed: `--show-files` over
    # files with no NPU test loads neither
    from .host import HostIndex, NpuPaths
    from .imports import ImportMap
    from .kernels import find_kernels

    try:
        module = sources.parse(text)
        kernels = find_kernels(module, ImportMap(module, text, triton_modules))
        host = HostIndex(module, kernels)
        npu_nodes = NpuPaths(host).nodes
        return any(launch.call in npu_nodes for kernel in kernels for launch in host.launches_with_helpers(kernel))
    except (sources.SourceError, RecursionError):
        return False
