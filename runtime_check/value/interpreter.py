"""triton-ascend's interpreter (``TRITON_INTERPRET=1``), made to run kernels as they compile.

The interpreter's ``tl.range`` yields Python ints, where a compiled kernel's loop index is an
int32 tensor: ``task_id.to(tl.int64)`` — the usual first line of an Ascend core-grid task loop
(``for task_id in tl.range(core_id, task_num, num_core)``) — compiles and runs on the device,
and fails in the interpreter with ``'int' object has no attribute 'to'``. :func:`run_as_compiled`
makes ``tl.range`` yield int32 tensors (``tl.static_range`` stays a Python range: its index is a
constexpr when compiled too). Call it once in a process before kernels run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def _bound(value: Any) -> int:
    """A loop bound as an int (the interpreter passes program ids and scalars as tensors)."""
    handle = getattr(value, "handle", None)
    return int(handle.data.item()) if handle is not None else int(getattr(value, "value", value))


def run_as_compiled() -> None:
    """Patch the interpreter so ``tl.range`` loop indices are tensors, as in compiled code."""
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
