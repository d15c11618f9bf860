"""Ascend ``tl.dot`` semantics for triton-ascend's interpreter (``TRITON_INTERPRET=1``).

On the NPU, ``tl.dot(lhs, rhs)`` may overwrite ``lhs`` in the unified buffer. Inside
:func:`ascend_dot_semantics`, every dot (or only the dots written on given lines of a kernel
file: one finding's dot) runs as usual and then overwrites its left operand with a poison value
(NaN for floats), so any later read of the tile shows up in the outputs. The context counts the
dots it clobbered.

Given the span of one read (``DotSites.reads`` and ``DotSites.columns``: a finding's flagged
expression, from its first row and column to its last), the poison is visible to that read only:
its evaluation yields the clobbered tile poisoned, and the tile keeps its values (see
:class:`_ReadScope`). The poisoned value goes wherever the read's value goes (a helper's
parameter, a call spread over several lines), and another read of the same tile (a store after
the loop, a second use, one on the same row) cannot change the outputs in the finding's name.
The context counts how many times the read yielded a clobbered tile (``Clobbers.exposed``): 0
means the read never saw a clobber (its line never ran, or ran only before the dot; a loop that
made one trip).

When the left operand is a cast, transpose or negation of a tile (``b_a.to(...)``,
``tl.cast(b_a, ...)``, ``tl.trans(b_k)``, ``-b_x``), the tile under the wrapper is overwritten
as well: the rule's model of ASC003 ("the wrapped tile is the clobbered one"). Copies made by
arithmetic (``b_c = b + 0.0``) are separate buffers and stay intact. (``b_k.T`` as a dot operand
does not run in the interpreter at all: its ``.T`` yields a tensor without a block type.)
"""

from __future__ import annotations

import copy
import dis
import os
import sys
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np
import triton.language as tl
import triton.language.semantic as semantic
import triton.runtime.interpreter as interpreter
from triton.triton_patch.language import semantic as ascend_semantic

# TensorHandle.attr key: the handle a cast / transpose / negation was made from.
_WRAPPED = "ascend_lint.wrapped_tile"
_POISON = "ascend_lint.poisoned"  # TensorHandle.attr key: a clobbered tile's poisoned handle
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


def _wrapped_chain(handle: interpreter.TensorHandle | None) -> Iterator[interpreter.TensorHandle]:
    while handle is not None:
        yield handle
        handle = handle.attr.get(_WRAPPED)


def clobber(handle: interpreter.TensorHandle) -> None:
    """Overwrite a dot's left operand and every tile it was wrapped from."""
    for tile in _wrapped_chain(handle):
        tile.data = _poisoned(tile)


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
    rows: frozenset[int] | None  # None: every dot
    reads: frozenset[int] | None = None  # the clobber shows only to the read on these rows; None: to all
    columns: tuple[int, int] | None = None  # ...from/to these columns of its first/last row; None: whole rows

    def holds(self, frame: Any) -> bool:
        """Whether the interpreted kernel frame calling the dot is at one of the rows."""
        if self.rows is None:
            return True
        while frame is not None and frame.f_code.co_filename != self.file:
            frame = frame.f_back
        return frame is not None and frame.f_lineno in self.rows


_LOADS = frozenset({"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_NAME", "LOAD_CLASSDEREF"})


@dataclass
class _Shown:
    """A kernel frame's variable holding a clobbered tile, set to its poisoned value for one load."""

    name: str
    tile: Any  # the tile (a ``tl.tensor``) the variable holds
    poisoned: Any  # ...and the poisoned tile its load yields instead


class _ReadScope:
    """Makes the read's evaluation yield the clobbered tile poisoned; the tile stays intact.

    A tracer on the kernel's file follows its instructions (opcode events). One loading a
    variable that holds a clobbered tile, positioned inside the read's span, loads a poisoned
    tile instead: the variable is set to it for that one instruction and set back at the frame's
    next event. The poisoned tile is an object of its own, so it stays poisoned wherever the
    read's value goes (a ``@triton.jit`` helper's parameter, a call whose ``CALL`` sits on
    another row), while any other read of the variable loads the tile's values.
    """

    def __init__(self, file: str, reads: frozenset[int], clobbers: Clobbers, columns: tuple[int, int] | None = None):
        self.file, self.clobbers = os.path.realpath(file), clobbers
        self.pending: weakref.WeakSet[interpreter.TensorHandle] = weakref.WeakSet()
        self.paths: dict[str, bool] = {}
        first, last = min(reads), max(reads)
        start, end = (0, sys.maxsize) if columns is None else columns
        if columns is not None:  # CPython's columns are bytes
            with open(self.file, encoding="utf-8") as text:
                lines = text.read().splitlines()
            start = len(lines[first - 1][:start].encode()) if 0 < first <= len(lines) else start
            end = len(lines[last - 1][:end].encode()) if 0 < last <= len(lines) else end
        self.span = ((first, start), (last, end))  # (row, byte column) from, to
        self.instructions: dict[Any, dict[int, dis.Instruction]] = {}  # by code object, by offset
        self.shown: dict[int, _Shown] = {}  # by kernel frame: the variable set for its last instruction

    def clobber(self, handle: interpreter.TensorHandle) -> None:
        for tile in _wrapped_chain(handle):
            if _POISON not in tile.attr:  # (a poisoned tile a loop-carried dot reads: poisoned already)
                poisoned = interpreter.TensorHandle(_poisoned(tile), tile.dtype)
                tile.attr[_POISON] = poisoned.attr[_POISON] = poisoned
            self.pending.add(tile)

    def _in_kernel(self, frame: Any) -> bool:
        name = frame.f_code.co_filename
        if name not in self.paths:
            self.paths[name] = os.path.realpath(name) == self.file
        return self.paths[name]

    def _inside(self, instruction: dis.Instruction, row: int) -> bool:
        where = getattr(instruction, "positions", None)  # Python 3.11 on (the runtime extra's)
        if where is None or None in (where.lineno, where.end_lineno, where.col_offset, where.end_col_offset):
            (first, _), (last, _) = self.span
            return first <= row <= last
        start, end = self.span
        return start <= (where.lineno, where.col_offset) and (where.end_lineno, where.end_col_offset) <= end

    def _set_back(self, frame: Any, variables: dict[str, Any]) -> None:
        shown = self.shown.pop(id(frame), None)
        if shown is not None and variables.get(shown.name) is shown.poisoned:
            variables[shown.name] = shown.tile

    def _opcode(self, frame: Any) -> None:
        # ``f_locals`` is read from the frame at each access, and written back to it when the
        # tracer returns (CPython's trace trampoline): one access per event, or writes are lost
        variables = frame.f_locals
        self._set_back(frame, variables)
        if not len(self.pending):
            return
        code = frame.f_code
        if code not in self.instructions:
            self.instructions[code] = {i.offset: i for i in dis.get_instructions(code)}
        instruction = self.instructions[code].get(frame.f_lasti)
        if instruction is None or instruction.opname not in _LOADS or not isinstance(instruction.argval, str):
            return
        tile = variables.get(instruction.argval)
        handle = getattr(tile, "handle", None)
        if handle is None or handle not in self.pending or not self._inside(instruction, frame.f_lineno):
            return
        poisoned = copy.copy(tile)
        poisoned.handle = handle.attr[_POISON]
        variables[instruction.argval] = poisoned
        self.shown[id(frame)] = _Shown(instruction.argval, tile, poisoned)
        self.clobbers.exposed += 1

    def _local(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "opcode":
            self._opcode(frame)
        elif event in ("return", "exception"):
            self._set_back(frame, frame.f_locals)
        return self._local

    def _calls(self, frame: Any, event: str, arg: Any) -> Any:
        if not self._in_kernel(frame):
            return None
        frame.f_trace_opcodes = True
        return self._local

    @contextmanager
    def tracing(self) -> Iterator[None]:
        previous = sys.gettrace()
        sys.settrace(self._calls)
        try:
            yield
        finally:
            sys.settrace(previous)


@dataclass
class Clobbers:
    """How many dots an :func:`ascend_dot_semantics` context clobbered."""

    count: int = 0  # dot executions that clobbered their lhs
    exposed: int = 0  # times the read yielded a clobbered tile (DotSites.reads only)


def _clobbering_dot(sites: DotSites | None, clobbers: Clobbers, scope: _ReadScope | None) -> Callable[[Any], Any]:
    def wrap(create_dot: Any) -> Any:
        def create_dot_then_clobber(self: Any, a: Any, b: Any, d: Any, *args: Any, **kwargs: Any) -> Any:
            result = create_dot(self, a, b, d, *args, **kwargs)
            if sites is None or sites.holds(sys._getframe(1)):
                if scope is None:
                    clobber(a)
                else:
                    scope.clobber(a)
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
    scope = (
        _ReadScope(sites.file, sites.reads, clobbers, sites.columns)
        if sites is not None and sites.reads is not None
        else None
    )
    patches = [
        (interpreter.InterpreterBuilder, "create_dot", _clobbering_dot(sites, clobbers, scope)),
        *((owner, name, _tracking_wrapper) for owner, name in _WRAPPER_PATCHES),
    ]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    try:
        for owner, name, make_replacement in patches:
            setattr(owner, name, make_replacement(getattr(owner, name)))
        with scope.tracing() if scope is not None else nullcontext():
            yield clobbers
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)
