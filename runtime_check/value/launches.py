"""Kernel launches with their values: capture them from a running workload, replay, compare.

A :class:`ValueLaunch` holds a launch's arguments as they were just before it ran (tensors
copied to the host) and its tensor arguments just after. Replaying a launch runs a kernel —
the original or a variant, under whatever semantics are active — on copies of the same inputs,
and :func:`compare` says which output tensors changed and by how much.

Launches are captured in the interpreter, at the one entry point every ``kernel[grid](...)``
goes through (also via ``triton.autotune`` / ``triton.heuristics``): ``GridExecutor.__call__``.
Reruns happen wherever the kernel given to :func:`rerun_launch` runs (the interpreter or a device).
"""

from __future__ import annotations

import math
import os
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..capture.launches import KernelRef

if TYPE_CHECKING:  # numpy is imported where it is used: this module loads in the lint-only install
    import numpy as np


@dataclass
class ValueLaunch:
    kernel: KernelRef
    index: int  # the n-th launch of this kernel in the workload
    grid: tuple[int, ...]
    inputs: dict[str, Any]  # every argument by parameter name; tensors as CPU copies
    options: dict[str, Any]  # launch keywords that are not kernel parameters (num_warps...)
    outputs: dict[str, np.ndarray[Any, Any]]  # tensor arguments after the launch

    @property
    def label(self) -> str:
        return f"{self.kernel.name} launch {self.index}"


@dataclass(frozen=True)
class TensorDifference:
    tensor: str  # "<kernel> launch <n>: <parameter>"
    mismatched: int
    total: int
    poisoned: int  # NaN/inf where the reference is finite
    max_abs_diff: float  # inf when an element became NaN/inf

    def describe(self) -> str:
        text = f"{self.tensor}: {self.mismatched}/{self.total} elements differ, max abs diff {self.max_abs_diff:.3g}"
        return text + (f", {self.poisoned} NaN/inf" if self.poisoned else "")


def _is_tensor(value: Any) -> bool:
    return hasattr(value, "data_ptr")


def host_array(tensor: Any) -> np.ndarray[Any, Any]:
    host = tensor.detach().cpu()  # torch tensors: numpy is there
    try:
        array: np.ndarray[Any, Any] = host.numpy().copy()
    except TypeError:  # bfloat16 / fp8 have no numpy dtype
        array = host.float().numpy()
    return array


def _copies(arguments: dict[str, Any], device: str) -> dict[str, Any]:
    """Tensors copied (to ``device``); an argument passed twice stays one tensor."""
    copies: dict[int, Any] = {}
    return {
        name: copies.setdefault(id(value), value.detach().clone().to(device)) if _is_tensor(value) else value
        for name, value in arguments.items()
    }


def _outputs(arguments: dict[str, Any]) -> dict[str, np.ndarray[Any, Any]]:
    return {name: host_array(value) for name, value in arguments.items() if _is_tensor(value)}


MAX_LAUNCHES = 8  # launches recorded per kernel; later ones run unrecorded (no copies kept)


@dataclass
class Captured:
    """What :func:`capturing` saw of the wanted kernels' launches."""

    launches: list[ValueLaunch] = field(default_factory=list)  # the launches that ran
    failures: list[str] = field(default_factory=list)  # why the interpreter could not run others
    stopped: str | None = None  # the first launch of another kernel the interpreter could not run
    rows: set[int] = field(default_factory=set)  # rows of the kernels' files the recorded launches ran


def _failure(kernel: KernelRef, index: int, error: BaseException) -> str:
    """``K launch n (line L): Type: message`` — the innermost error, at its kernel line."""
    innermost = error
    while innermost.__cause__ is not None:
        innermost = innermost.__cause__
    rows = [
        frame.lineno
        for e in (error, innermost)
        for frame in traceback.extract_tb(e.__traceback__)
        if os.path.realpath(frame.filename) == kernel.file
    ]
    where = f", line {rows[-1]}" if rows else ""
    return f"{kernel.name} launch {index}{where}: {type(innermost).__name__}: {innermost}"


@contextmanager
def _tracing_rows(file: str, rows: set[int]) -> Iterator[None]:
    """Add to ``rows`` the rows of ``file`` that run while the block runs (the interpreter runs
    a kernel as Python code compiled with the kernel file's name and line numbers)."""
    paths: dict[str, bool] = {}

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            rows.add(frame.f_lineno)
        return local

    def calls(frame: Any, event: str, arg: Any) -> Any:
        name = frame.f_code.co_filename
        if name not in paths:
            paths[name] = os.path.realpath(name) == file
        if paths[name]:
            rows.add(frame.f_lineno)
            return local
        return None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        yield
    finally:
        sys.settrace(previous)


@contextmanager
def capturing(wanted: Callable[[KernelRef], bool]) -> Iterator[Captured]:
    """Record the wanted kernels' launches (the first :data:`MAX_LAUNCHES` of each) while the
    interpreter (``TRITON_INTERPRET=1``) runs them, the rows of their files those launches ran,
    and why a launch could not run (the error then goes on to the workload, as it would)."""
    from triton.runtime.interpreter import GridExecutor

    captured = Captured()
    counts: Counter[KernelRef] = Counter()
    original = GridExecutor.__call__

    def launch_and_record(executor: Any, *args: Any, **kwargs: Any) -> Any:
        fn = executor.fn
        kernel = KernelRef(os.path.realpath(fn.__code__.co_filename), fn.__module__, fn.__name__)
        if kwargs.get("warmup") or counts[kernel] >= MAX_LAUNCHES:
            return original(executor, *args, **kwargs)
        if not wanted(kernel):
            try:
                return original(executor, *args, **kwargs)
            except Exception as error:
                captured.stopped = captured.stopped or _failure(kernel, counts[kernel], error)
                raise
            finally:
                counts[kernel] += 1
        names = executor.arg_names
        bound = {**dict(zip(names, args, strict=False)), **{k: v for k, v in kwargs.items() if k in names}}
        inputs = _copies(bound, "cpu")
        try:
            with _tracing_rows(kernel.file, captured.rows):
                result = original(executor, *args, **kwargs)
        except Exception as error:
            captured.failures.append(_failure(kernel, counts[kernel], error))
            raise
        grid = executor.grid(bound) if callable(executor.grid) else executor.grid
        captured.launches.append(
            ValueLaunch(
                kernel=kernel,
                index=counts[kernel],
                grid=tuple(int(x) for x in grid),
                inputs=inputs,
                options={k: v for k, v in kwargs.items() if k not in names},
                outputs=_outputs(bound),
            )
        )
        counts[kernel] += 1
        return result

    GridExecutor.__call__ = launch_and_record
    try:
        yield captured
    finally:
        GridExecutor.__call__ = original


def rerun_launch(kernel: Any, launch: ValueLaunch, device: str = "cpu") -> dict[str, np.ndarray[Any, Any]]:
    """Run ``kernel`` (a jit function) on copies of ``launch``'s inputs; its tensors after."""
    inputs = _copies(launch.inputs, device)
    kernel[launch.grid](**inputs, **launch.options)
    return _outputs(inputs)


def _difference(
    tensor: str, reference: np.ndarray[Any, Any], candidate: np.ndarray[Any, Any], tolerance: float
) -> TensorDifference | None:
    import numpy as np

    if reference.shape != candidate.shape:
        return TensorDifference(tensor, reference.size, reference.size, 0, math.inf)
    ref, cand = reference.astype(np.float64), candidate.astype(np.float64)
    close = np.isclose(ref, cand, rtol=tolerance, atol=tolerance, equal_nan=True)
    mismatched = int(close.size - np.count_nonzero(close))
    if not mismatched:
        return None
    poisoned = int(np.count_nonzero(np.isfinite(ref) & ~np.isfinite(cand)))
    gaps = np.abs(ref - cand)[~close]
    max_gap = float(np.where(np.isnan(gaps), np.inf, gaps).max())
    return TensorDifference(tensor, mismatched, ref.size, poisoned, max_gap)


def compare(
    reference: ValueLaunch, candidate: dict[str, np.ndarray[Any, Any]], tolerance: float = 0.0
) -> list[TensorDifference]:
    """The output tensors of ``reference`` that ``candidate`` (a replay of it) changed.

    ``tolerance`` is both the relative and the absolute tolerance (0: exact, NaN equals NaN).
    """
    found = (
        _difference(f"{reference.label}: {name}", array, candidate[name], tolerance)
        for name, array in reference.outputs.items()
    )
    return [difference for difference in found if difference]


def compare_runs(
    reference: list[ValueLaunch], candidate: list[ValueLaunch], tolerance: float = 0.0
) -> list[TensorDifference]:
    """Differences between two runs of one workload, launch by launch.

    A launch made in one run only counts as one difference of unknown size.
    """

    def keyed(launches: list[ValueLaunch]) -> dict[tuple[str, int], ValueLaunch]:
        return {(launch.kernel.name, launch.index): launch for launch in launches}

    ours, theirs = keyed(reference), keyed(candidate)
    differences = [
        difference
        for key, launch in ours.items()
        if key in theirs
        for difference in compare(launch, theirs[key].outputs, tolerance)
    ]
    differences += [
        TensorDifference(f"{launch.label}: made in one run only", 1, 1, 0, math.inf)
        for key, launch in {**ours, **theirs}.items()
        if (key in ours) != (key in theirs)
    ]
    return differences
