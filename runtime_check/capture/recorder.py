"""Run a user's workload with kernel launches recorded instead of executed.

Every ``kernel[grid](...)`` the workload makes (directly, through ``triton.autotune`` — each
config it would benchmark — or ``triton.heuristics``) goes through ``JITFunction.run``. Here
that call computes the launch's real specialisation exactly as the JIT does (signature,
constexprs, ints specialised to 1, ``None`` pointers, compile options), records it with the
grid and the launch's call site, and returns without compiling or running anything. Each kept
launch is also appended to the child's progress file as it happens (flushed): when the workload
then hangs (killed at the timeout), calls ``os._exit`` or crashes, the launches it made still
count.

Runs in a subprocess (``python -m ascend_lint.runtime_check.capture.recorder TASK RESULT``,
started by :func:`capture_launches`), with the simulated Ascend device (:mod:`..device`): the
workload is user code.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import IO, Any

from .. import device, toolchain
from ..process import progress_file, run_child
from .launches import Capture, KernelRef, Launch, encode_value, split_keywords
from .workload import Workload, current_test, run_workload


def capture_launches(workload: Workload, model: str, timeout: float) -> Capture:
    """Run the workload in a subprocess with launches captured, on a simulated ``model``."""
    finished = run_child(__name__, {"workload": workload.to_json(), "device": model}, timeout)
    if finished.result is not None:
        return Capture.from_json(finished.result)
    launches = [Launch.from_json(x) for x in finished.progress]
    if not launches:
        error = f"the workload could not run: {finished.failure(timeout)}"
        return Capture(workload=workload.describe(), error=error, ended=error.splitlines()[0].rstrip(":"))
    ended = f"the workload made {len(launches)} launch(es), then {finished.ended(timeout)}"
    return Capture(workload.describe(), launches, ended + finished.stderr_tail(), ended=ended)


def _describe(name: str, value: Any, signature: dict[str, str], constants: dict[str, Any]) -> str:
    """How the kernel sees one argument: ``*fp32 tensor[8, 32]``, ``i32 = 3``, ``constexpr = 1``."""
    if value is None:
        return "None"
    if hasattr(value, "dtype") and hasattr(value, "shape"):
        return f"{signature.get(name, value.dtype)} tensor{list(value.shape)}"
    if name in constants:
        return f"constexpr = {value!r}"
    return f"{signature.get(name, type(value).__name__)} = {value!r}"


def _call_site(skip_dirs: tuple[str, ...]) -> list[Any] | None:
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        filename = os.path.realpath(frame.f_code.co_filename)
        if not filename.startswith(skip_dirs):
            return [filename, frame.f_lineno]
        frame = frame.f_back
    return None


MAX_REPEATS = 16  # launches kept per kernel and specialisation (a workload may make thousands)


class Recorder:
    """Replaces ``JITFunction.run`` while a workload runs."""

    def __init__(self, progress: IO[str] | None = None) -> None:
        import triton

        self.launches: list[Launch] = []
        self._progress = progress  # each kept launch, a JSON line, flushed
        self.dropped = 0
        self._seen: dict[tuple[KernelRef, str], int] = {}
        self._skip_dirs = tuple(os.path.realpath(Path(str(m.__file__)).parent) for m in (triton, toolchain))

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        from triton.runtime.jit import JITFunction

        original_run, original_hook = JITFunction.run, JITFunction.cache_hook
        recorder = self

        def recording_run(jit_fn: Any, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> None:
            return recorder.record(original_run, jit_fn, args, kwargs, grid)

        JITFunction.run = recording_run
        try:
            yield
        finally:
            JITFunction.run, JITFunction.cache_hook = original_run, original_hook

    def record(
        self, original_run: Callable[..., Any], jit_fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any], grid: Any
    ) -> None:
        from triton.runtime.jit import JITFunction

        seen: dict[str, Any] = {}

        def stop_before_compile(**hook_kwargs: Any) -> bool:
            seen.update(hook_kwargs["compile"])
            return True  # tells the JIT to skip compiling and launching

        printed = io.StringIO()
        JITFunction.cache_hook = stop_before_compile
        with contextlib.redirect_stdout(printed):
            original_run(jit_fn, *args, grid=grid, warmup=True, **kwargs)
        sys.stdout.write(printed.getvalue())
        bound = jit_fn.binder(*args, **kwargs)[0]
        self._keep(self._launch(jit_fn, seen, bound, kwargs, grid, printed.getvalue()))

    def _keep(self, launch: Launch) -> None:
        key = (launch.kernel, launch.key())
        self._seen[key] = self._seen.get(key, 0) + 1
        if self._seen[key] <= MAX_REPEATS:
            self.launches.append(launch)
            if self._progress is not None:
                self._progress.write(json.dumps(launch.to_json(), default=repr) + "\n")
                self._progress.flush()
        else:
            self.dropped += 1

    def _launch(
        self, jit_fn: Any, seen: dict[str, Any], bound: dict[str, Any], kwargs: dict[str, Any], grid: Any, printed: str
    ) -> Launch:
        specialisation = json.loads(seen["specialization_data"])
        signature = seen["signature"]
        constants = {name: encode_value(value) for name, value in seen["constants"].items()}
        if callable(grid):
            grid = grid(bound)
        options = {k: encode_value(v) for k, v in split_keywords(kwargs, jit_fn.arg_names)[1].items()}
        summary = {name: _describe(name, value, signature, constants) for name, value in bound.items()}
        return Launch(
            kernel=KernelRef(
                file=os.path.realpath(jit_fn.fn.__code__.co_filename),
                module=jit_fn.module,
                name=jit_fn.fn.__name__,
            ),
            signature=signature,
            constants=constants,
            attrs=specialisation["attrs"],
            options=options,
            do_not_specialize=[p.name for p in jit_fn.params if p.do_not_specialize],
            arg_summary=summary,
            grid=[int(x) for x in grid] if grid is not None else None,
            call_site=_call_site(self._skip_dirs),
            printed=printed,
            test=current_test(),
        )


def record_workload(workload: Workload, progress: IO[str] | None = None) -> Capture:
    """Run ``workload`` with launches recorded (and appended to ``progress`` as they happen)."""
    recorder = Recorder(progress)
    with recorder.installed():
        error = run_workload(workload)
    return Capture(workload.describe(), recorder.launches, error, recorder.dropped)


def main(argv: list[str]) -> int:
    """``TASK RESULT``: TASK holds the workload and the device model; RESULT receives the capture."""
    task, out = json.loads(Path(argv[0]).read_text()), Path(argv[1])
    with (
        tempfile.TemporaryDirectory(prefix="ascend-lint-capture-") as workdir,
        open(progress_file(out), "a") as progress,
    ):
        device.install(task["device"])
        toolchain.activate(Path(workdir), task["device"])
        capture = record_workload(Workload.from_json(task["workload"]), progress)
    out.write_text(json.dumps(capture.to_json(), default=repr))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
