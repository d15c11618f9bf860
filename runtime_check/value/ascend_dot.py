"""Ascend ``tl.dot`` semantics for triton-ascend's interpreter (``TRITON_INTERPRET=1``).

On the NPU, ``tl.dot(lhs, rhs)`` may overwrite ``lhs`` in the unified buffer. Inside
:func:`ascend_dot_semantics`, every dot (or only the dots written on given lines of a kernel
file: one finding's dot) runs as usual and then overwrites its left operand with a poison value
(NaN for floats), so any later read of the tile shows up in the outputs. The context counts the
dots it clobbered.

When the left operand is a cast, transpose or negation of a tile (``b_a.to(...)``,
``tl.cast(b_a, ...)``, ``tl.trans(b_k)``, ``-b_x``), the tile under the wrapper is overwritten
as well: the rule's model of ASC003 ("the wrapped tile is the clobbered one"). Copies made by
arithmetic (``b_c = b + 0.0``) are separate buffers and stay intact. (``b_k.T`` as a dot operand
does not run in the interpreter at all: its ``.T`` yields a tensor without a block type.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import triton.language as tl
import triton.language.semantic as semantic
import triton.runtime.interpreter as interpreter
from triton.triton_patch.language import semantic as ascend_semantic

# TensorHandle.attr key: the handle a cast / transpose / negation was made from.
_WRAPPED = "ascend_lint.wrapped_tile"
_BF16_NAN_BITS = 0x7FC0  # the interpreter stores bfloat16 as uint16


def _poisoned(handle: interpreter.TensorHandle) -> np.ndarray[Any, Any]:
    data = handle.data
    if handle.dtype == tl.bfloat16:
        return np.full_like(data, _BF16_NAN_BITS)
    if np.issubdtype(data.dtype, np.floating):
        return np.full_like(data, np.nan)
    if np.issubdtype(data.dtype, np.integer):
        return np.full_like(data, np.iinfo(data.dtype).max)
    return np.ones_like(data)  # a boolean mask cast into the lhs


def clobber(handle: interpreter.TensorHandle) -> None:
    """Overwrite a dot's left operand and every tile it was wrapped from."""
    while handle is not None:
        handle.data = _poisoned(handle)
        handle = handle.attr.get(_WRAPPED)


def _tracking_wrapper(make: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a ``semantic`` function so its result remembers the tile it wraps."""

    def wrapped(input: Any, *args: Any, **kwargs: Any) -> Any:
        result = make(input, *args, **kwargs)
        source = getattr(input, "handle", None)
        if source is not None and result.handle is not source:
            result.handle.attr[_WRAPPED] = source
        return result

    return wrapped


@dataclass(frozen=True)
class DotSites:
    """Dots written on these rows of this kernel file (the file a variant was loaded from)."""

    file: str
    rows: frozenset[int]

    def holds(self, frame: Any) -> bool:
        """Whether the interpreted kernel frame calling the dot is at one of the rows."""
        while frame is not None and frame.f_code.co_filename != self.file:
            frame = frame.f_back
        return frame is not None and frame.f_lineno in self.rows


@dataclass
class Clobbers:
    """How many dots an :func:`ascend_dot_semantics` context clobbered."""

    count: int = 0


def _clobbering_dot(sites: DotSites | None, clobbers: Clobbers) -> Callable[[Any], Any]:
    def wrap(create_dot: Any) -> Any:
        def create_dot_then_clobber(self: Any, a: Any, b: Any, d: Any, *args: Any, **kwargs: Any) -> Any:
            result = create_dot(self, a, b, d, *args, **kwargs)
            if sites is None or sites.holds(sys._getframe(1)):
                clobber(a)
                clobbers.count += 1
            return result

        return create_dot_then_clobber

    return wrap


# triton-ascend routes some language functions (``tl.cast``, unary minus) through its own
# ``triton_patch`` semantic module, which binds its own names: track wrappers in both.
_WRAPPERS = ("cast", "bitcast", "permute", "minus")
_WRAPPER_PATCHES = tuple(
    (module, name) for module in (semantic, ascend_semantic) for name in _WRAPPERS if hasattr(module, name)
)


@contextmanager
def ascend_dot_semantics(sites: DotSites | None = None) -> Iterator[Clobbers]:
    """Run interpreted kernels with the Ascend lhs clobber — at every dot, or only at ``sites`` —
    and restore the interpreter after."""
    clobbers = Clobbers()
    patches = [
        (interpreter.InterpreterBuilder, "create_dot", _clobbering_dot(sites, clobbers)),
        *((owner, name, _tracking_wrapper) for owner, name in _WRAPPER_PATCHES),
    ]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    try:
        for owner, name, make_replacement in patches:
            setattr(owner, name, make_replacement(getattr(owner, name)))
        yield clobbers
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)
