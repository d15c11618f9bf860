"""triton-ascend's interpreter (``TRITON_INTERPRET=1``), made to run kernels as they compile.

:func:`run_as_compiled` (call it once in a process before kernels run) makes three launches
that compile and run on Ascend run in the interpreter too:

- ``tl.range`` yields int32 tensors: the interpreter's yields Python ints, where a compiled
  loop index is an int32 tensor, so ``task_id.to(tl.int64)`` — the usual first line of an Ascend
  core-grid task loop (``for task_id in tl.range(core_id, task_num, num_core)``) — failed with
  ``'int' object has no attribute 'to'`` (``tl.static_range`` stays a Python range: its index
  is a constexpr when compiled too);
- a float argument is an fp32 scalar tensor, as the JIT types it (``fp32``): the interpreter
  passed the Python float, so ``scale.to(tl.float32)`` failed with ``'float' object has no
  attribute 'to'``;
- launch options of triton-ascend's compiler (``multibuffer=True``, ``enable_auto_bind_sub_block``
  ... — the fields of ``NPUOptions``, which the Ascend launcher accepts as compile options) are
  dropped, as the interpreter drops ``num_warps``: it failed with ``got an unexpected keyword
  argument 'multibuffer'``. Any other unknown keyword still fails, as it does on the device.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any


def _bound(value: Any) -> int:
    """A loop bound as an int (the interpreter passes program ids and scalars as tensors)."""
    handle = getattr(value, "handle", None)
    return int(handle.data.item()) if handle is not None else int(getattr(value, "value", value))


def ascend_launch_options() -> frozenset[str]:
    """The keywords triton-ascend's launcher takes as compile options (``NPUOptions``' fields)."""
    from triton.backends.ascend.compiler import NPUOptions

    return frozenset(f.name for f in dataclasses.fields(NPUOptions))


def run_as_compiled() -> None:
    """Patch the interpreter so kernels run as they compile (see the module's docstring)."""
    import numpy as np
    import triton.language as tl
    import triton.runtime.interpreter as interpreter

    patch_core = interpreter._patch_lang_core
    if getattr(patch_core, "ascend_lint", False):
        return

    def tensor_range(arg1: Any, arg2: Any = None, step: Any = None, **kwargs: Any) -> Iterator[Any]:
        start, end = (0, arg1) if arg2 is None else (arg1, arg2)
        for index in range(_bound(start), _bound(end), 1 if step is None else _bound(step)):
            yield interpreter._implicit_cvt(index)

    def patch_core_with_tensor_range(lang: Any) -> None:
        patch_core(lang)
        lang.range = tensor_range

    patch_core_with_tensor_range.ascend_lint = True  # type: ignore[attr-defined]
    interpreter._patch_lang_core = patch_core_with_tensor_range

    implicit_cvt = interpreter._implicit_cvt

    def float_as_fp32(arg: Any) -> Any:
        if isinstance(arg, float):
            handle = interpreter.TensorHandle(np.array([arg], dtype=np.float32), tl.float32)
            return tl.tensor(handle, tl.float32)
        return implicit_cvt(arg)

    interpreter._implicit_cvt = float_as_fp32

    options = ascend_launch_options()
    call = interpreter.GridExecutor.__call__

    def without_ascend_options(executor: Any, *args: Any, **kwargs: Any) -> Any:
        kept = {k: v for k, v in kwargs.items() if k in executor.arg_names or k not in options}
        return call(executor, *args, **kept)

    interpreter.GridExecutor.__call__ = without_ascend_options
