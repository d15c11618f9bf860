"""A simulated Ascend device for the processes that run user code (capture and replays).

Ascend host code asks the device questions before it launches anything: fla-core sizes its
core grid from ``triton.runtime.driver.active.utils.get_device_properties(...)["num_aicore"]``,
probes ``getattr(torch, "npu")`` at import, liger-kernel reads ``torch.npu.get_device_properties``,
and both create tensors with ``device="npu"``. Without an NPU (no CANN, no torch_npu) none of
that exists. :func:`simulate` installs, in the current process only:

- ``triton.runtime.driver.active``: a driver for the chosen model that answers
  ``get_current_target()``, ``get_current_device()``, ``utils.get_device_properties(dev)``
  (``num_aicore``, ``num_vectorcore``, ``max_shared_mem``), ``utils.get_arch()``, streams and a
  benchmarker that runs the call once, and launches nothing;
- ``torch.npu`` (registered as torch's ``npu`` device module, the PrivateUse1 backend renamed
  ``npu`` as torch_npu does) and, when absent, ``torch_npu`` and CANN's
  ``tbe.common.platform.get_soc_spec``: device queries, memory statistics, streams and events
  that do nothing;
- a torch function mode under which ``device="npu"``, ``torch.device("npu")``, ``.to("npu")``
  and ``.npu()`` give CPU tensors;
- ``ASCEND_UB_CAPACITY_BITS`` (unless set): the UB size in bits, which the UB managers of
  fla-core and liger-kernel read before asking CANN (liger asks only when transformers says
  there is an NPU);
- ``triton.language.extra.cann.extension`` (``insert_slice``, ``extract_slice``: where newer
  triton-ascend releases moved them from ``triton.language``), when the installed one lacks it.

The figures per model are in :data:`MODELS`; ``docs/runtime.md`` cites where each comes from.
Processes started by ``confirm`` call :func:`simulate` unless a real torch_npu sees a device.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ascend_lint.socs import DEFAULT_SOC

DEFAULT_MODEL = "Ascend910B3"
GIB, MIB, KIB = 1 << 30, 1 << 20, 1 << 10


@dataclass(frozen=True)
class DeviceModel:
    """What an Ascend SoC reports (CANN's platform configuration ``<SoC>.ini``)."""

    name: str
    aicore: int  # [SoCInfo] ai_core_cnt = cube_core_cnt
    vectorcore: int  # [SoCInfo] vector_core_cnt
    memory: int  # [SoCInfo] memory_size (HBM), bytes
    l2: int  # [SoCInfo] l2_size, bytes
    ub: int = 192 * KIB  # [AICoreSpec] ub_size
    l1: int = 512 * KIB  # [AICoreSpec] l1_size
    l0a: int = 64 * KIB  # [AICoreSpec] l0_a_size
    l0b: int = 64 * KIB  # [AICoreSpec] l0_b_size
    l0c: int = 128 * KIB  # [AICoreSpec] l0_c_size
    soc: str = DEFAULT_SOC.name  # its `target-soc` family


MODELS: dict[str, DeviceModel] = {
    model.name: model
    for model in (
        DeviceModel("Ascend910B1", aicore=24, vectorcore=48, memory=64 * GIB, l2=192 * MIB),
        DeviceModel("Ascend910B2", aicore=24, vectorcore=48, memory=64 * GIB, l2=192 * MIB),
        DeviceModel("Ascend910B3", aicore=20, vectorcore=40, memory=64 * GIB, l2=192 * MIB),
        DeviceModel("Ascend910B4", aicore=20, vectorcore=40, memory=32 * GIB, l2=96 * MIB),
        DeviceModel("Ascend910_9392", aicore=24, vectorcore=48, memory=64 * GIB, l2=192 * MIB, soc="ascend910_93"),
    )
}


@functools.lru_cache(maxsize=1)
def real_npu_present() -> bool:
    """Whether torch_npu imports and sees a device (then nothing is simulated)."""
    try:
        import torch
        import torch_npu  # noqa: F401
    except Exception:  # not installed, or installed without CANN (libhccl.so missing)
        return False
    try:
        return int(getattr(torch, "npu").device_count()) > 0  # noqa: B009  (torch_npu adds it)
    except Exception:
        return False


class _DeviceUtils:
    """``driver.active.utils`` of the Ascend driver, answered from the model's figures."""

    def __init__(self, model: DeviceModel) -> None:
        self.model = model

    def get_device_properties(self, device: Any = 0) -> dict[str, int]:
        return {"max_shared_mem": 1, "num_aicore": self.model.aicore, "num_vectorcore": self.model.vectorcore}

    def get_arch(self) -> str:
        return self.model.name

    def get_aicore_num(self) -> int:
        return self.model.aicore

    def get_aivector_core_num(self) -> int:
        return self.model.vectorcore


def simulated_driver(model: DeviceModel) -> Any:
    """A triton driver for ``model`` that answers host-code questions and launches nothing."""
    from triton.backends.compiler import GPUTarget
    from triton.backends.driver import DriverBase

    class SimulatedAscendDriver(DriverBase):  # type: ignore[misc]
        utils = _DeviceUtils(model)

        @classmethod
        def is_active(cls) -> bool:
            return False

        def get_current_target(self) -> GPUTarget:
            return GPUTarget("npu", model.name, 0)

        def get_current_device(self) -> int:
            return 0

        def set_current_device(self, device: Any) -> None:
            pass

        def get_current_stream(self, device: Any = None) -> int:
            return 0

        def get_device_interface(self) -> Any:
            import torch

            return getattr(torch, "npu")  # noqa: B009  (added by simulate)

        def get_empty_cache_for_benchmark(self) -> Any:
            import torch

            return torch.empty(1, dtype=torch.int)

        def get_benchmarker(self) -> Callable[..., Any]:
            def run_once(kernel_call: Callable[[], Any], *, quantiles: Any = None, **kwargs: Any) -> Any:
                kernel_call()
                return [0.0] * len(quantiles) if quantiles else 0.0

            return run_once

    return SimulatedAscendDriver()


class _Stream:
    """A stream or event that has nothing to wait for."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __enter__(self) -> _Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def synchronize(self) -> None:
        pass

    def wait_stream(self, stream: Any) -> None:
        pass

    def wait_event(self, event: Any) -> None:
        pass

    def record(self, stream: Any = None) -> None:
        pass

    def record_event(self, event: Any = None) -> _Stream:
        return _Stream()

    def query(self) -> bool:
        return True

    def elapsed_time(self, other: Any) -> float:
        return 0.0


def _zero(*args: Any, **kwargs: Any) -> int:
    return 0


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _npu_module(model: DeviceModel) -> types.ModuleType:
    """``torch.npu`` for a device that is there but runs nothing."""
    import torch

    module = types.ModuleType("torch.npu")
    properties = types.SimpleNamespace(
        name=model.name,
        total_memory=model.memory,
        cube_core_num=model.aicore,
        vector_core_num=model.vectorcore,
        L2_cache_size=model.l2,
        major=2,
        minor=2,
    )
    functions: dict[str, Any] = {
        "is_available": lambda: True,
        "is_initialized": lambda: True,
        "_is_in_bad_fork": lambda: False,
        "init": _nothing,
        "device_count": lambda: 1,
        "current_device": _zero,
        "set_device": _nothing,
        "synchronize": _nothing,
        "get_device_name": lambda device=None: model.name,
        "get_device_properties": lambda device=None: properties,
        "get_device_capability": lambda device=None: (properties.major, properties.minor),
        "is_bf16_supported": lambda: True,
        "get_amp_supported_dtype": lambda: [torch.float16, torch.bfloat16],
        "Stream": _Stream,
        "Event": _Stream,
        "stream": lambda stream=None: contextlib.nullcontext(stream),
        "current_stream": lambda device=None: _Stream(),
        "default_stream": lambda device=None: _Stream(),
        "device": lambda device=None: contextlib.nullcontext(),
        "memory_allocated": _zero,
        "max_memory_allocated": _zero,
        "memory_reserved": _zero,
        "max_memory_reserved": _zero,
        "memory_stats": lambda device=None: {},
        "mem_get_info": lambda device=None: (model.memory, model.memory),
        "reset_peak_memory_stats": _nothing,
        "reset_max_memory_allocated": _nothing,
        "empty_cache": _nothing,
        "manual_seed": _nothing,
        "manual_seed_all": _nothing,
        "seed": _nothing,
        "set_option": _nothing,
    }
    module.__dict__.update(functions)
    module.amp = types.SimpleNamespace(  # type: ignore[attr-defined]
        autocast=lambda *args, **kwargs: torch.autocast("cpu", *args[1:], **kwargs),
        custom_fwd=torch.amp.custom_fwd,
        custom_bwd=torch.amp.custom_bwd,
    )
    return module


def _soc_spec(model: DeviceModel) -> types.ModuleType:
    """CANN's ``tbe.common.platform`` for the two calls Ascend host code makes."""
    specs: dict[str, Any] = {
        "SOC_VERSION": model.name,
        "CORE_NUM": model.aicore,
        "UB_SIZE": model.ub,
        "L1_SIZE": model.l1,
        "L0A_SIZE": model.l0a,
        "L0B_SIZE": model.l0b,
        "L0C_SIZE": model.l0c,
        "L2_SIZE": model.l2,
    }
    platform = types.ModuleType("tbe.common.platform")
    platform.get_soc_spec = specs.get  # type: ignore[attr-defined]
    platform.set_current_compile_soc_info = lambda *args, **kwargs: None  # type: ignore[attr-defined]
    return platform


def _is_npu(device: Any) -> bool:
    import torch

    if isinstance(device, torch.device):
        return device.type == "npu"
    return isinstance(device, str) and device.split(":")[0] == "npu"


def _to_cpu(value: Any) -> Any:
    return "cpu" if _is_npu(value) else value


def _cpu_tensors_mode() -> Any:
    import torch
    from torch.overrides import TorchFunctionMode

    class CpuForNpu(TorchFunctionMode):
        """``device="npu"`` (and ``.to("npu")``) means the CPU."""

        def __torch_function__(
            self, func: Callable[..., Any], types: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None
        ) -> Any:
            kwargs = kwargs or {}
            if "device" in kwargs:
                kwargs["device"] = _to_cpu(kwargs["device"])
            if func is torch.Tensor.to:
                args = tuple(_to_cpu(arg) for arg in args)
            return func(*args, **kwargs)

    return CpuForNpu()


def _module(name: str, **attributes: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def _newer_triton_ascend_names() -> None:
    """``triton.language.extra.cann.extension``, which liger-kernel 0.8.5 imports, on 3.2."""
    import importlib.util

    import triton.language as tl

    if importlib.util.find_spec("triton.language.extra.cann") is not None or not hasattr(tl, "insert_slice"):
        return
    extension = _module(
        "triton.language.extra.cann.extension", insert_slice=tl.insert_slice, extract_slice=tl.extract_slice
    )
    cann = _module("triton.language.extra.cann", extension=extension)
    sys.modules.update({cann.__name__: cann, extension.__name__: extension})


def simulate(model_name: str = DEFAULT_MODEL) -> DeviceModel:
    """Install the simulated device of ``model_name`` in this process (see the module docstring)."""
    import torch
    from triton.runtime.driver import driver

    model = MODELS[model_name]
    driver.set_active(simulated_driver(model))
    if torch._C._get_privateuse1_backend_name() != "npu":
        torch.utils.rename_privateuse1_backend("npu")  # type: ignore[attr-defined]
    npu = _npu_module(model)
    torch._register_device_module("npu", npu)  # type: ignore[no-untyped-call]
    sys.modules["torch.npu"] = npu
    torch.Tensor.npu = lambda self, *args, **kwargs: self  # type: ignore[attr-defined]
    if "torch_npu" not in sys.modules:
        sys.modules["torch_npu"] = _module("torch_npu", npu=npu, __version__=f"{torch.__version__}.simulated")
    with contextlib.suppress(ImportError):
        import tbe  # noqa: F401  (CANN's own, when installed)
    if "tbe" not in sys.modules:
        platform = _soc_spec(model)
        common = _module("tbe.common", platform=platform)
        sys.modules.update(
            {"tbe": _module("tbe", common=common), "tbe.common": common, "tbe.common.platform": platform}
        )
    os.environ.setdefault("ASCEND_UB_CAPACITY_BITS", str(model.ub * 8))
    _newer_triton_ascend_names()
    _cpu_tensors_mode().__enter__()  # for the rest of this process
    return model


_installed: list[DeviceModel] = []


def install(model_name: str | None) -> DeviceModel | None:
    """Simulate ``model_name`` in this process unless it is None or a real NPU is present (once
    per process); the model simulated."""
    if model_name is None or real_npu_present():
        return None
    if not _installed:
        _installed.append(simulate(model_name))
    return _installed[0]
