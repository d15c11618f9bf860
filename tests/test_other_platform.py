"""Where host code runs only on another platform than Ascend (`HostIndex.on_other_platform`):
the launches of each snippet, in order, with whether they are on such a path."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from ascend_lint.host import HostIndex, platforms
from ascend_lint.imports import ImportMap
from ascend_lint.kernels import find_kernels
from ascend_lint.nodes import names_read

KERNEL = """
import triton
import triton.language as tl
from vllm.platforms import current_platform

@triton.jit
def k(x, BT: tl.constexpr):
    tl.store(x + tl.arange(0, BT), 0.0)
"""


def other_platform_launches(host: str) -> list[bool]:
    source = KERNEL + textwrap.dedent(host)
    module = cst.parse_module(source)
    index = HostIndex(module, find_kernels(module, ImportMap(module, source)))
    return [index.on_other_platform(launch.call) for launch in index.launches["k"]]


CASES = {
    'a name the module compares with `"npu"` holding another backend\'s name': (
        """
        BACKEND = get_backend()
        if BACKEND == "cuda":
            k[(1,)](None, BT=64)

        def f(x, mode):
            if BACKEND != "npu":
                return x
            k[(1,)](x, BT=64)

        def g(x, mode):
            if BACKEND in ("cuda", "cpu"):
                k[(1,)](x, BT=64)
            if BACKEND not in ("cuda",):
                k[(1,)](x, BT=64)
            if "cpu" == BACKEND or mode == "fast":
                k[(1,)](x, BT=64)
            if mode == "cuda":
                k[(1,)](x, BT=64)
            if BACKEND == "triton":
                k[(1,)](x, BT=64)
            if BACKEND in ("cuda", "triton"):
                k[(1,)](x, BT=64)
            device = x.device
            if device == "cuda":
                k[(1,)](x, BT=64)
        """,
        [True, False, True, False, False, False, False, False, False],
    ),
    "the `else` of a device type listed with the NPU's, a `not in` holding, and types listed without it": (
        """
        def f(x, other):
            if x.device.type == "cpu":
                k[(1,)](x, BT=64)
            elif x.device.type in ("npu", "privateuseone"):
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
            if x.device.type not in ["npu"]:
                k[(1,)](x, BT=64)
            if x.device.type in ("cuda", "xpu"):
                k[(1,)](x, BT=64)
            if x.device.type in ("cuda", other):
                k[(1,)](x, BT=64)
        """,
        [True, False, True, True, True, False],
    ),
    "a device type said equal to one that is not the NPU's, as `in` says it of a tuple": (
        """
        def f(x, device_type, other):
            if x.device.type == "cpu":
                k[(1,)](x, BT=64)
            if "meta" == x.device.type:
                k[(1,)](x, BT=64)
            if device_type != "cpu":
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
            if x.device.type in ("cpu",):
                k[(1,)](x, BT=64)
            if x.device.type == "privateuseone":
                k[(1,)](x, BT=64)
            if x.device.type in ("privateuseone", "cuda"):
                k[(1,)](x, BT=64)
            if x.device.type == other:
                k[(1,)](x, BT=64)
        """,
        [True, True, False, True, True, False, False, False],
    ),
    "the `else` of the NPU's literal in a device's text, and its `not in` holding": (
        """
        def f(q, other):
            if "npu" in str(q.device):
                k[(1,)](q, BT=64)
            else:
                k[(1,)](q, BT=64)
            if "npu" not in str(q.device):
                k[(1,)](q, BT=64)
                return
            k[(1,)](q, BT=64)
            if "npu" in str(other):
                k[(1,)](q, BT=64)
            else:
                k[(1,)](q, BT=64)
        """,
        [False, True, True, False, False, False],
    ),
    "torch_npu tested for None after its import failed, and a flag `_NPU` the import sets": (
        """
        try:
            import torch_npu
            _NPU = True
        except ImportError:
            torch_npu = None
            _NPU = False

        def f(q):
            if torch_npu is None:
                k[(1,)](q, BT=64)
            else:
                k[(1,)](q, BT=64)
            if torch_npu is not None:
                k[(1,)](q, BT=64)
            else:
                k[(1,)](q, BT=64)
            if not _NPU:
                k[(1,)](q, BT=64)
            if _NPU:
                k[(1,)](q, BT=64)
        """,
        [True, False, False, True, True, False],
    ),
    "a name `npu` alone or `torch_npu` read as the NPU's flag only when bound to a flag's values": (
        """
        npu = torch.npu.is_available()

        def f(x, torch_npu=None):
            if not npu:
                k[(1,)](x, BT=64)
            if torch_npu is None:
                k[(1,)](x, BT=64)

        def g(x, devices):
            for _NPU in devices:
                if not _NPU:
                    k[(1,)](x, BT=64)
            NPU = 0
            NPU += 1
            if not NPU:
                k[(1,)](x, BT=64)
            _npu = x.device.type == "cuda"
            if not _npu:
                k[(1,)](x, BT=64)
            if _npu:
                k[(1,)](x, BT=64)
        """,
        [True, False, False, False, False, True],
    ),
    "a name `npu` a function binds by a loop, `with`, `except`, a comprehension or a lambda is not the module's flag": (
        """
        npu = torch.npu.is_available()

        def f(x, devices):
            for npu in devices:
                if not npu:
                    k[(1,)](x, BT=64)
            if not npu:
                k[(1,)](x, BT=64)

        def g(x):
            with open(x) as npu:
                if not npu:
                    k[(1,)](x, BT=64)

        def h(x):
            try:
                x = x + 1
            except ValueError as npu:
                if not npu:
                    k[(1,)](x, BT=64)

        def i(x, devices):
            ys = [k[(1,)](x, BT=64) if not npu else None for npu in devices]
            zs = list(map(lambda npu: k[(1,)](x, BT=64) if not npu else None, devices))
            ws = [k[(1,)](x, BT=64) if not npu else None for d in devices]
            if not npu:
                k[(1,)](x, BT=64)
        """,
        [False, False, False, False, False, False, True, True],
    ),
    "a tensor's device or its text said to be the CPU, `x.is_cpu`, and NPU tests by substring or prefix failing": (
        """
        def f(x):
            if str(x.device) == "cpu":
                k[(1,)](x, BT=64)
            if x.device == "cpu" or x.device == torch.device("cpu", 0):
                k[(1,)](x, BT=64)
            if x.is_cpu:
                k[(1,)](x, BT=64)
            if x.device.type in {"cpu"} or not x.is_npu:
                k[(1,)](x, BT=64)
            if "npu" in x.device.type:
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
            if x.device.type.startswith("npu") or str(x.device).startswith("npu"):
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
        """,
        [True, True, True, True, False, True, False, True],
    ),
    "a device's text other than the CPU's, or said not to be the NPU's, runs on the NPU too": (
        """
        def f(x):
            if str(x.device) == "npu" or str(x.device) != "npu:0":
                k[(1,)](x, BT=64)
            if str(x.device) != "cpu":
                k[(1,)](x, BT=64)
            if x.device == "cuda" or x.device in ("cpu", "cuda") or self.device == "cuda:0":
                k[(1,)](x, BT=64)
            if not x.is_cpu:
                k[(1,)](x, BT=64)
        """,
        [False, False, False, False],
    ),
    "an arm of another platform's test moving a tensor to the NPU before a launch": (
        """
        def f(x, y):
            if x.device.type == "cpu":
                k[(1,)](x, BT=64)
                x = x.to("npu")
                k[(1,)](x, BT=64)
            if x.device.type == "cpu":
                y = torch.empty_like(x, device="npu:0")
                k[(1,)](y, BT=64)
            if x.device.type == "cpu":
                k[(1,)](x.npu(), BT=64)
            if x.device.type == "cpu":
                x = x.to("cuda")
                k[(1,)](x, BT=64)
            if x.device.type != "cpu":
                return
            x = x.to(device=torch.device("npu", 0))
            k[(1,)](x, BT=64)
        """,
        [True, False, False, False, True, False],
    ),
    "a test failing in an `or` before an exit": (
        """
        def f(x):
            if x.device.type != "cuda" or x.numel() == 0:
                return x
            k[(1,)](x, BT=64)
        """,
        [True],
    ),
    "a test failing in an `and` before an exit says nothing": (
        """
        def f(x):
            if x.device.type != "cuda" and x.numel() == 0:
                return x
            k[(1,)](x, BT=64)
        """,
        [False],
    ),
    "an exit on an `elif` after an exit": (
        """
        def f(x):
            if x.numel() == 0:
                return x
            elif not current_platform.is_rocm():
                raise NotImplementedError
            k[(1,)](x, BT=64)
        """,
        [True],
    ),
    "an exit on an `elif` after no exit says nothing": (
        """
        def f(x):
            if x.numel() == 0:
                x = x + 1
            elif not current_platform.is_rocm():
                raise NotImplementedError
            k[(1,)](x, BT=64)
        """,
        [False],
    ),
    "an `else` that exits": (
        """
        def f(x):
            if current_platform.is_cuda():
                y = x
            else:
                return x
            k[(1,)](y, BT=64)
        """,
        [True],
    ),
    "`continue` ends the rest of a loop body only": (
        """
        def f(xs):
            for x in xs:
                if x.device.type != "cuda":
                    continue
                k[(1,)](x, BT=64)
            k[(1,)](xs[0], BT=64)
        """,
        [True, False],
    ),
    "a function defined in an arm, and a method of a class defined there": (
        """
        def f(x):
            if current_platform.is_cuda():
                def run():
                    k[(1,)](x, BT=64)
                class Op:
                    def forward(self):
                        k[(1,)](x, BT=64)
                run()
        """,
        [True, True],
    ),
    "a private method called only as `self._m()` from `forward_cuda`": (
        """
        class Op(CustomOp):
            def _launch(self, x):
                k[(1,)](x, BT=64)

            def forward_cuda(self, x):
                return self._launch(x)
        """,
        [True],
    ),
    "a private function the module also passes as a value runs anywhere": (
        """
        def _impl(x):
            k[(1,)](x, BT=64)

        def f(x):
            if current_platform.is_cuda():
                _impl(x)

        register(op_func=_impl)
        """,
        [False],
    ),
    "a private function called through a module-level alias, bound to it or to None": (
        """
        def _impl(x):
            k[(1,)](x, BT=64)

        if HAS_TRITON:
            _run = _impl
        else:
            _run = None

        class Op(CustomOp):
            def forward_cuda(self, x):
                if _run is None:
                    return x
                return _run(x)
        """,
        [True],
    ),
    "an alias called on any path, or passed as a value, runs anywhere": (
        """
        def _impl(x):
            k[(1,)](x, BT=64)

        def _other(x):
            k[(1,)](x, BT=64)

        _run = _impl
        _go = _other

        def f(x):
            if current_platform.is_cuda():
                _run(x)
                _go(x)
            register(_run)
            _go(x)
        """,
        [False, False],
    ),
    "a public alias may be called by other modules": (
        """
        def _impl(x):
            k[(1,)](x, BT=64)

        run = _impl

        def f(x):
            if current_platform.is_cuda():
                run(x)
        """,
        [False],
    ),
    "an exit on the None a helper returns unless on CUDA, through a name or a call": (
        """
        def _block(x):
            if torch.compiler.is_compiling():
                return None
            if x.device.type != "cuda" or not x.is_contiguous():
                return None
            return triton.next_power_of_2(x.shape[-1])

        def f(x):
            block = _block(x)
            if block is None:
                return x
            k[(1,)](x, BT=block)

        def g(x):
            if _block(x) is not None:
                k[(1,)](x, BT=64)
        """,
        [True, True],
    ),
    "a helper returning False off CUDA returns something other than None there": (
        """
        def _block(x):
            if x.device.type != "cuda":
                return False
            return 64

        def f(x):
            block = _block(x)
            if block is None:
                return x
            k[(1,)](x, BT=block)
            if block:
                k[(1,)](x, BT=block)
        """,
        [False, True],
    ),
    "a public function may be called by other modules": (
        """
        def launch(x):
            k[(1,)](x, BT=64)

        def f(x):
            if current_platform.is_cuda():
                launch(x)
        """,
        [False],
    ),
    "a predicate calling itself is no evidence": (
        """
        def _cuda(x):
            if x.base is not None:
                return _cuda(x.base)
            return x.device.type == "cuda"

        def f(x):
            if _cuda(x):
                k[(1,)](x, BT=64)
        """,
        [False],
    ),
    "a predicate returning another predicate's test": (
        """
        def _on_cuda(x):
            return x.device.type == "cuda"

        def _fused(x):
            return _on_cuda(x) and x.is_contiguous()

        def f(x):
            if _fused(x):
                k[(1,)](x, BT=64)
        """,
        [True],
    ),
    "a flag bound to a platform test, and one rebound to something else": (
        """
        def f(x):
            on_rocm = current_platform.is_rocm()
            if on_rocm:
                k[(1,)](x, BT=64)
            fused = current_platform.is_rocm()
            fused = x.is_contiguous()
            if fused:
                k[(1,)](x, BT=64)
        """,
        [True, False],
    ),
    "`x.is_cuda` and `torch.cuda.is_available()` answer for the NPU under transfer_to_npu": (
        """
        def f(x):
            if x.is_cuda and torch.cuda.is_available():
                k[(1,)](x, BT=64)
        """,
        [False],
    ),
    "a platform test of something not named a platform": (
        """
        def f(x, backend):
            if backend.is_cuda():
                k[(1,)](x, BT=64)
        """,
        [False],
    ),
    "predicates and flags named for another vendor's GPU, imported from a module not on hand": (
        """
        from utils import is_hopper, is_ampere, IS_NVIDIA_HOPPER, _is_hip
        import utils

        def f(x):
            if is_hopper():
                k[(1,)](x, BT=64)
            elif is_ampere():
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
            if utils.is_sm90_supported() or IS_NVIDIA_HOPPER or utils.IS_AMD:
                k[(1,)](x, BT=64)
            k[(1,)](x, BT=16 if _is_hip else 64)
            if not is_hopper() and get_platform().is_sm100 is False:
                k[(1,)](x, BT=64)
            if get_platform().is_sm100 or current_platform.is_hip:
                k[(1,)](x, BT=64)
        """,
        [True, True, False, True, False, False, True],
    ),
    "a flag named for another platform bound to a call of such a predicate": (
        """
        from sglang.srt.utils import is_cuda, is_hip
        _is_cuda = is_cuda()
        _use_aiter = get_bool_env_var("SGLANG_USE_AITER") and is_hip()

        def f(x):
            if _is_cuda:
                k[(1,)](x, BT=64)
            if _use_aiter:
                k[(1,)](x, BT=64)
        """,
        [True, True],
    ),
    "names of another platform that stay on Ascend": (
        """
        from utils import is_cuda_graph_enabled, is_cuda_available, is_cuda
        _is_cuda = torch.cuda.is_available()

        def is_ampere():
            return torch.cuda.is_available()

        def f(x, is_hip, backend):
            if is_cuda_graph_enabled() or is_cuda_available():
                k[(1,)](x, BT=64)
            if _is_cuda or is_ampere():
                k[(1,)](x, BT=64)
            if is_hip or backend.is_hopper() or is_cuda(x) or torch.cuda.is_hopper():
                k[(1,)](x, BT=64)
            is_xpu = x.is_cuda
            if is_xpu:
                k[(1,)](x, BT=64)
        """,
        [False, False, False, False],
    ),
    "a predicate of the module named for another platform whose test is not read": (
        """
        def is_hopper():
            return torch.cuda.get_device_capability()[0] == 9

        def f(x):
            if is_hopper():
                k[(1,)](x, BT=64)
            if torch.cuda.get_device_capability()[0] == 9:
                k[(1,)](x, BT=64)
        """,
        [True, False],
    ),
    "module level: the arms of an NPU test, and the code after an exit when it holds": (
        """
        if IS_NPU:
            k[(1,)](x, BT=64)
        else:
            k[(1,)](x, BT=64)
        if not IS_NPU:
            k[(1,)](x, BT=64)
        if is_npu():
            raise ImportError("use the NPU kernels")
        k[(1,)](x, BT=64)
        """,
        [False, True, True, True],
    ),
    '`torch.npu.is_available()`, `hasattr(torch, "npu")` and the module\'s predicates of them failing': (
        """
        def _on_device():
            return hasattr(torch, "npu")

        def _npu_ready():
            if not torch.npu.is_available():
                return False
            return True

        def _maybe(x):
            return x.numel() > 0 and torch.npu.is_available()

        def f(x):
            if not torch.npu.is_available():
                k[(1,)](x, BT=64)
            if hasattr(torch, "npu"):
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
            if not _on_device():
                k[(1,)](x, BT=64)
            if _npu_ready():
                return
            k[(1,)](x, BT=64)

        def g(x):
            if not _maybe(x):
                k[(1,)](x, BT=64)
            if hasattr(torch, "cuda"):
                k[(1,)](x, BT=64)
        """,
        [True, False, True, True, True, False, False],
    ),
    "torch built for another runtime: `torch.version.hip` / `.cuda` set (None in the NPU's CPU build)": (
        """
        def f(x):
            if torch.version.hip is not None:
                k[(1,)](x, BT=64)
            if torch.version.cuda:
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
            if None is not torch.version.hip and x.numel() > 0:
                k[(1,)](x, BT=64)
            if torch.version.cuda is None:
                k[(1,)](x, BT=64)
            if torch.version.git_version:
                k[(1,)](x, BT=64)
            if torch.version.hip is None:
                return
            k[(1,)](x, BT=64)
        """,
        [True, True, False, True, False, False, True],
    ),
    "Triton's active backend said to be another's (`npu` on Ascend)": (
        """
        def f(x):
            if triton.runtime.driver.active.get_current_target().backend == "cuda":
                k[(1,)](x, BT=64)
            if driver.active.get_current_target().backend in ("cuda", "hip"):
                k[(1,)](x, BT=64)
            if triton.runtime.driver.active.get_current_target().backend != "npu":
                k[(1,)](x, BT=64)
            if triton.runtime.driver.active.get_current_target().backend == "npu":
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
            if target.backend == "cuda":
                k[(1,)](x, BT=64)
        """,
        [True, True, True, False, True, False],
    ),
    "a tensor's device text holding another platform's name, by substring or prefix": (
        """
        def f(x, device):
            if "cuda" in str(x.device):
                k[(1,)](x, BT=64)
            if str(x.device).startswith("cuda") or x.device.type.startswith("hip"):
                k[(1,)](x, BT=64)
            if "cuda" not in str(x.device):
                k[(1,)](x, BT=64)
            else:
                k[(1,)](x, BT=64)
            if str(x.device).startswith("npu:"):
                k[(1,)](x, BT=64)
            if "cuda" in str(self.device) or str(device).startswith("cuda") or "cuda" in str(x.device.index):
                k[(1,)](x, BT=64)
            if not str(x.device).startswith("cuda") or "pu" in str(x.device) or "cpu" in str(device):
                k[(1,)](x, BT=64)
            if "cpu:0" in str(device) or "meta" in str(x.device):
                k[(1,)](x, BT=64)
        """,
        [True, True, False, True, False, False, False, True],
    ),
    "a name bound to a device type (or Triton's backend) said to be another's": (
        """
        dev_type = get_device_type()

        def f(x, y, device):
            dev = x.device.type
            if dev == "cuda":
                k[(1,)](x, BT=64)
            backend = triton.runtime.driver.active.get_current_target().backend
            if backend in ("cuda", "hip"):
                k[(1,)](x, BT=64)
            if dev != "npu":
                k[(1,)](x, BT=64)
            kind = x.device.type if x.numel() else y.device.type
            if kind == "cuda":
                k[(1,)](x, BT=64)
            mixed = x.device.type if x.numel() else "cuda"
            if mixed == "cuda":
                k[(1,)](x, BT=64)
            if device == "cuda" or dev_type == "cuda":
                k[(1,)](x, BT=64)

        def g(x, dev):
            if dev == "cuda":
                k[(1,)](x, BT=64)
        """,
        [True, True, True, True, False, False, False],
    ),
    "the arms of conditional expressions, at module level, in functions, nested, in headers": (
        """
        done = k[(1,)](x, BT=64) if not IS_NPU else k[(1,)](x, BT=64)

        def f(x):
            y = k[(1,)](x, BT=64) if IS_NPU else (k[(1,)](x, BT=64) if x.numel() else None)
            for z in (k[(1,)](x, BT=64) if x.device.type == "cuda" else ()):
                k[(1,)](z, BT=64) if z is not None else None
        """,
        [True, False, False, True, True, False],
    ),
    "the cases of a `match` on a device type, as the arms of an `if` comparing it": (
        """
        def f(x, n):
            match x.device.type:
                case "cuda" | "hip":
                    k[(1,)](x, BT=64)
                case "npu":
                    k[(1,)](x, BT=64)
                case "cpu" if n > 0:
                    k[(1,)](x, BT=64)
                case _:
                    k[(1,)](x, BT=64)

        def g(x, mode):
            dev = x.device.type
            match dev:
                case "cuda":
                    k[(1,)](x, BT=64)
                case other:
                    k[(1,)](x, BT=64)
            match mode:
                case "cuda":
                    k[(1,)](x, BT=64)
            match x.device.type:
                case "npu" if mode:
                    k[(1,)](x, BT=64)
                case _:
                    k[(1,)](x, BT=64)
        """,
        # `case _` after `case "npu"`: not the NPU; after a guarded one, it may be
        [True, False, True, True, True, False, False, False, False],
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_other_platform_launches(name: str) -> None:
    host, expected = CASES[name]
    assert other_platform_launches(host) == expected


def test_bindings_overridden_on_ascend_are_found_in_one_pass_per_block(monkeypatch) -> None:
    """`OtherPlatformPaths.overridden` reads each statement of a block once, not once per
    binding before it (200 bindings and one late `if IS_NPU:` rebinding: about 20,000 reads,
    which doubled the profiled calls of the whole fla tree, before one backward pass)."""
    reads = 0

    def counted(node: cst.CSTNode) -> set[str]:
        nonlocal reads
        reads += 1
        return names_read(node)

    monkeypatch.setattr(platforms, "names_read", counted)
    body = "".join(f"    a{i} = {i}\n" for i in range(200))
    source = KERNEL + f"def f(x):\n{body}    if IS_NPU:\n        a0 = 1\n    k[(1,)](x, BT=a0)\n"
    module = cst.parse_module(source)
    index = HostIndex(module, find_kernels(module, ImportMap(module, source)))
    overridden = index._other_platform_paths.overridden
    assert [cst.Module([]).code_for_node(node) for node in overridden] == ["a0 = 0"]
    assert reads <= 2 * 200
