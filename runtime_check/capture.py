"""Run a user's ``workload.py`` with kernel launches recorded instead of executed.

Every ``kernel[grid](...)`` the workload makes (directly, through ``triton.autotune`` — each
config it would benchmark — or ``triton.heuristics``) goes through ``JITFunction.run``. Here
that call computes the launch's real specialisation exactly as the JIT does (signature,
constexprs, ints specialised to 1, ``None`` pointers, compile options), records it with the
grid and the launch's call site, and returns without compiling or running anything.

Runs in a subprocess started by :func:`.worker.capture` (the workload is user code).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import runpy
import sys
import tempfile
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import toolchain


@dataclass(frozen=True)
class KernelRef:
    """Where a kernel is defined: its module file, module name and function name."""

    file: str
    module: str
    name: str


@dataclass(frozen=True)
class Launch:
    """One captured kernel launch: everything needed to compile it again."""

    kernel: KernelRef
    signature: dict[str, str]
    constants: dict[str, Any]
    attrs: dict[str, Any]
    options: dict[str, Any]
    do_not_specialize: list[str]
    arg_summary: dict[str, str]
    grid: list[int] | None = None
    call_site: list[Any] | None = None
    printed: str = ""

    def key(self) -> str:
        """Launches with the same key compile to the same kernel."""
        return json.dumps([self.signature, self.constants, self.attrs, self.options], sort_keys=True, default=repr)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Launch:
        return cls(**{**data, "kernel": KernelRef(**data["kernel"])})


def distinct(launches: list[Launch]) -> list[Launch]:
    """The first launch of each specialisation, in order."""
    seen: set[str] = set()
    return [x for x in launches if not (x.key() in seen or seen.add(x.key()))]


@dataclass
class Capture:
    """The launches of one workload run, and the error that ended it early, if any."""

    workload: str
    launches: list[Launch] = field(default_factory=list)
    error: str | None = None

    def for_kernel(self, kernel: KernelRef) -> list[Launch]:
        """This kernel's launches with distinct specialisations, in workload order."""
        return distinct([x for x in self.launches if x.kernel == kernel])

    def to_json(self) -> dict[str, Any]:
        return {"workload": self.workload, "error": self.error, "launches": [x.to_json() for x in self.launches]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Capture:
        launches = [Launch.from_json(x) for x in data["launches"]]
        return cls(workload=data["workload"], launches=launches, error=data.get("error"))


def encode_value(value: Any) -> Any:
    """A constexpr value as JSON (``tl.dtype`` values become ``{"dtype": name}``)."""
    if value.__class__.__name__ == "dtype" and hasattr(value, "name"):
        return {"dtype": value.name}
    if isinstance(value, (tuple, list)):
        return [encode_value(x) for x in value]
    return value


def decode_value(value: Any) -> Any:
    """Inverse of :func:`encode_value`."""
    if isinstance(value, dict) and set(value) == {"dtype"}:
        import triton.language as tl

        return tl.dtype(value["dtype"])
    if isinstance(value, list):
        return tuple(decode_value(x) for x in value)
    return value


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
    frame = sys._getframe()
    while frame is not None:
        filename = os.path.realpath(frame.f_code.co_filename)
        if not filename.startswith(skip_dirs):
            return [filename, frame.f_lineno]
        frame = frame.f_back
    return None


class _Recorder:
    """Replaces ``JITFunction.run`` while a workload runs."""

    def __init__(self) -> None:
        import triton

        self.launches: list[Launch] = []
        self._skip_dirs = tuple(os.path.realpath(Path(m.__file__).parent) for m in (triton, toolchain))

    @contextlib.contextmanager
    def installed(self):
        from triton.runtime.jit import JITFunction

        original_run, original_hook = JITFunction.run, JITFunction.cache_hook
        recorder = self

        def recording_run(jit_fn, *args, grid, warmup, **kwargs):
            return recorder.record(original_run, jit_fn, args, kwargs, grid)

        JITFunction.run = recording_run
        try:
            yield
        finally:
            JITFunction.run, JITFunction.cache_hook = original_run, original_hook

    def record(self, original_run, jit_fn, args, kwargs, grid) -> None:
        from triton.runtime.jit import JITFunction

        seen: dict[str, Any] = {}

        def stop_before_compile(**hook_kwargs):
            seen.update(hook_kwargs["compile"])
            return True  # tells the JIT to skip compiling and launching

        printed = io.StringIO()
        JITFunction.cache_hook = stop_before_compile
        with contextlib.redirect_stdout(printed):
            original_run(jit_fn, *args, grid=grid, warmup=True, **kwargs)
        sys.stdout.write(printed.getvalue())
        bound = jit_fn.binder(*args, **kwargs)[0]
        self.launches.append(self._launch(jit_fn, seen, bound, kwargs, grid, printed.getvalue()))

    def _launch(self, jit_fn, seen, bound, kwargs, grid, printed) -> Launch:
        specialisation = json.loads(seen["specialization_data"])
        signature = seen["signature"]
        constants = {name: encode_value(value) for name, value in seen["constants"].items()}
        if callable(grid):
            grid = grid(bound)
        options = {k: encode_value(v) for k, v in kwargs.items() if k not in jit_fn.arg_names}
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
        )


def run_workload(workload: Path) -> Capture:
    """Import ``workload`` as a script and call its ``workload()`` with launches recorded."""
    workload = workload.resolve()
    capture = Capture(workload=str(workload))
    sys.path[:0] = [str(workload.parent), os.getcwd()]
    sys.argv = [str(workload)]
    recorder = _Recorder()
    try:
        with recorder.installed():
            namespace = runpy.run_path(str(workload), run_name="__ascend_lint_workload__")
            entry = namespace.get("workload")
            if not callable(entry):
                raise RuntimeError(f"{workload} defines no workload() function")
            entry()
    except Exception:
        capture.error = traceback.format_exc(limit=-4)
    capture.launches = recorder.launches
    return capture


def main(argv: list[str]) -> int:
    """``TASK RESULT``: TASK holds the workload path as JSON; RESULT receives the capture."""
    workload, out = Path(json.loads(Path(argv[0]).read_text())), Path(argv[1])
    with tempfile.TemporaryDirectory(prefix="ascend-lint-capture-") as workdir:
        toolchain.activate(Path(workdir))
        capture = run_workload(workload)
    out.write_text(json.dumps(capture.to_json(), default=repr))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
