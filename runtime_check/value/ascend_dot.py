"""Ascend ``tl.dot`` semantics for triton-ascend's interpreter (``TRITON_INTERPRET=1``).

On the NPU, ``tl.dot(lhs, rhs)`` may overwrite ``lhs`` in the unified buffer. Inside
:func:`ascend_dot_semantics`, every dot (or only the dots written on given lines of a kernel
file: one finding's dot) runs as usual and then overwrites its left operand with a poison value
(NaN for floats), so any later read of the tile shows up in the outputs. The context counts the
dots it clobbered.

Given the rows of one read (``DotSites.reads``: a finding's flagged read), the poison is
visible to that read only: a line tracer shows it while the kernel runs those rows and puts the
tile's values back elsewhere, so another read of the same tile (a store after the loop, a second
use) cannot change the outputs in the finding's name. The context then counts how many times
those rows ran with a clobbered tile (``Clobbers.exposed``): 0 means the read never saw a
clobber (its line never ran, or ran only before the dot; a loop that made one trip).

Given also the read's columns on its row and the tile's name (``DotSites.columns``,
``DotSites.tile``), another read of the tile on the same row sees its values too: the tracer
follows the row's instructions (CPython's opcode events, with each instruction's columns) and
shows the poison from the first instruction inside the read's columns (loading the tile, or the
dot reading it for a loop-carried finding) until one loading the tile's name outside them (the
next read of the tile) or the row's end. Two reads passed to one call (``f(b_a, b_a)``) still
see one value: the tile is one object.

When the left operand is a cast, transpose or negation of a tile (``b_a.to(...)``,
``tl.cast(b_a, ...)``, ``tl.trans(b_k)``, ``-b_x``), the tile under the wrapper is overwritten
as well: the rule's model of ASC003 ("the wrapped tile is the clobbered one"). Copies made by
arithmetic (``b_c = b + 0.0``) are separate buffers and stay intact. (``b_k.T`` as a dot operand
does not run in the interpreter at all: its ``.T`` yields a tensor without a block type.)
"""

from __future__ import annotations

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
_ORIGINAL = "ascend_lint.original_data"  # TensorHandle.attr key: a clobbered tile's own values
_POISON = "ascend_lint.poison_data"  # ...and its poisoned ones
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
    reads: frozenset[int] | None = None  # the clobber shows only to reads on these rows; None: to all
    columns: tuple[int, int] | None = None  # ...only to the read at these columns (code points, 0-based) of its one row
    tile: str | None = None  # ...the name of the clobbered tile (another load of it is another read)

    def holds(self, frame: Any) -> bool:
        """Whether the interpreted kernel frame calling the dot is at one of the rows."""
        if self.rows is None:
            return True
        while frame is not None and frame.f_code.co_filename != self.file:
            frame = frame.f_back
        return frame is not None and frame.f_lineno in self.rows


class _ReadScope:
    """Shows clobbered tiles poisoned while the kernel runs the read's rows, intact elsewhere."""

    def __init__(
        self,
        file: str,
        reads: frozenset[int],
        clobbers: Clobbers,
        columns: tuple[int, int] | None = None,
        tile: str | None = None,
    ) -> None:
        self.file, self.reads, self.clobbers = os.path.realpath(file), reads, clobbers
        self.pending: weakref.WeakSet[interpreter.TensorHandle] = weakref.WeakSet()
        self.visible = False
        self.paths: dict[str, bool] = {}
        self.read: tuple[int, int, int, str] | None = None  # row, byte columns and name of the one read
        if columns is not None and tile and len(reads) == 1 and sys.version_info >= (3, 11):  # instructions' columns
            [row] = reads
            with open(self.file, encoding="utf-8") as text:
                line = text.read().splitlines()[row - 1] if row else ""
            start, end = (len(line[:column].encode()) for column in columns)  # CPython's columns are bytes
            self.read = (row, start, end, tile)
        self.instructions: dict[Any, dict[int, dis.Instruction]] = {}  # by code object, by offset
        self.seen: dict[int, bool] = {}  # by kernel frame: its read is showing (`_opcode`)

    def clobber(self, handle: interpreter.TensorHandle) -> None:
        for tile in _wrapped_chain(handle):
            if tile not in self.pending:
                tile.attr[_ORIGINAL], tile.attr[_POISON] = tile.data, _poisoned(tile)
                self.pending.add(tile)
            tile.data = tile.attr[_POISON] if self.visible else tile.attr[_ORIGINAL]

    def _show(self, visible: bool) -> None:
        if visible != self.visible:
            self.visible = visible
            for tile in self.pending:
                tile.data = tile.attr[_POISON if visible else _ORIGINAL]

    def _at(self, row: int) -> None:
        visible = row in self.reads
        if visible and len(self.pending):
            self.clobbers.exposed += 1
        self._show(visible)

    def _in_kernel(self, frame: Any) -> bool:
        name = frame.f_code.co_filename
        if name not in self.paths:
            self.paths[name] = os.path.realpath(name) == self.file
        return self.paths[name]

    def _opcode(self, frame: Any) -> None:
        """On the read's row: shown from an instruction inside the read's columns on, hidden
        from one loading the tile's name outside them (another read of the tile)."""
        assert self.read is not None
        row, start, end, tile = self.read
        if frame.f_lineno != row:
            return
        code = frame.f_code
        if code not in self.instructions:
            self.instructions[code] = {i.offset: i for i in dis.get_instructions(code)}
        instruction = self.instructions[code].get(frame.f_lasti)
        where = getattr(instruction, "positions", None)  # Python 3.11 on (the runtime extra's)
        if instruction is None or where is None or where.col_offset is None or where.end_col_offset is None:
            return
        inside = where.lineno == where.end_lineno == row and start <= where.col_offset <= where.end_col_offset <= end
        if inside:
            if not self.seen.get(id(frame)) and len(self.pending):
                self.clobbers.exposed += 1
            self.seen[id(frame)] = True
            self._show(True)
        elif instruction.opname.startswith("LOAD") and instruction.argval == tile:
            self.seen[id(frame)] = False
            self._show(False)

    def _local(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "opcode":
            self._opcode(frame)
        elif event == "line":
            if self.read is None:
                self._at(frame.f_lineno)
            else:  # the read's own instruction shows it (`_opcode`)
                self.seen[id(frame)] = False
                self._show(False)
        elif event == "return":
            self.seen.pop(id(frame), None)
            if frame.f_back is not None and self._in_kernel(frame.f_back):  # back mid-line in the caller
                shown = self.seen.get(id(frame.f_back), False) if self.read else frame.f_back.f_lineno in self.reads
                self._show(shown)
        return self._local

    def _calls(self, frame: Any, event: str, arg: Any) -> Any:
        # (a program's tiles leave ``pending`` when its frame ends: the set holds them weakly;
        # a jit helper is called through the interpreter's frames, so no reset on entry)
        if not self._in_kernel(frame):
            return None
        if self.read is not None:
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
            self._show(False)


@dataclass
class Clobbers:
    """How many dots an :func:`ascend_dot_semantics` context clobbered."""

    count: int = 0  # dot executions that clobbered their lhs
    exposed: int = 0  # times the read's rows ran with a clobbered tile (DotSites.reads only)


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
        _ReadScope(sites.file, sites.reads, clobbers, sites.columns, sites.tile)
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
