"""Compile kernel variants with the real Ascend compiler, no device.

Each compile goes through ``triton.compile`` with a captured specialisation, leaves its memory
plan in a directory of its own and is remembered, so a variant compiled for two questions is
compiled once. Runs inside a replay child.
"""

from __future__ import annotations

import ast
import contextlib
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import toolchain, variants
from ..capture.launches import KernelRef, Launch, decode_value
from ..targets import CompileTarget
from ..verdicts import VariantReport
from .ir import rows_of
from .memory import MemoryPlan, read_plan

_CACHE_DIR = re.compile(r"The compiled kernel cache is in (\S+)")
_REPR = re.compile(r"^(?P<type>\w+)\((?P<args>.*)\)$", re.S)


@dataclass(frozen=True)
class CompileError:
    """Why a compile failed: the innermost exception's type and message, and its kernel line."""

    type: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"{self.type}: {self.message}{where}"


@dataclass
class Compiled:
    """One compile of one variant on one launch."""

    variant: variants.Variant
    launch: Launch
    error: CompileError | None
    ir: dict[str, str] = field(default_factory=dict)
    memory: MemoryPlan = field(default_factory=MemoryPlan)
    seconds: float = 0.0
    file: str = ""  # the variant's module file, as the IR and the memory report name it
    shown_file: str | None = None  # the user's file when the variant is the original source
    # the rows of `file` the compile lowered: the statements and expressions Triton's front end
    # visited (a branch a constexpr prunes is not visited), and the rows the TTIR names
    rows: frozenset[int] = frozenset()

    @property
    def ok(self) -> bool:
        return self.error is None

    def memory_json(self) -> list[dict[str, Any]]:
        """The memory plan, buffers attributed to the user's file (or, for a transformed
        variant, to no file: their lines are the variant's)."""
        scopes = self.memory.to_json()
        for scope in scopes:
            for buffer in scope["largest_buffers"]:
                buffer["file"] = self.shown_file if buffer["file"] == self.file else buffer["file"]
        return scopes

    def report(self) -> VariantReport:
        return VariantReport(
            variant=self.variant.name,
            launch=describe_launch(self.launch),
            ok=self.ok,
            error=str(self.error) if self.error else None,
            memory=self.memory_json(),
            seconds=round(self.seconds, 3),
        )


def describe_launch(launch: Launch) -> str:
    """The constexpr values and argument types of a launch, on one line."""
    return ", ".join(f"{name}: {text}" for name, text in launch.arg_summary.items())


def _from_repr(text: str) -> tuple[str, str]:
    """``AttributeError("msg")`` -> (``AttributeError``, ``msg``)."""
    match = _REPR.match(text.strip())
    if not match:
        return "CompilationError", text.strip()
    try:
        message = ast.literal_eval(match["args"])
    except (ValueError, SyntaxError):
        message = match["args"]
    return match["type"], str(message)


def _bishengir_error(text: str) -> str:
    errors = [line.split("error:", 1)[1].strip() for line in text.splitlines() if "error:" in line]
    specific = [e for e in errors if "Failed to run" not in e]
    return (specific or errors or [text.strip().splitlines()[-1]])[-1]


def compile_error(exc: BaseException, jit_fn: Any) -> CompileError:
    """The error a user would act on, from the exception chain ``triton.compile`` raised."""
    from triton.compiler.errors import CompilationError, MLIRCompilationError
    from triton.runtime.jit import get_jit_fn_file_line

    chain = [exc]
    while chain[-1].__cause__ is not None:
        chain.append(chain[-1].__cause__)
    frontend = [e for e in chain if isinstance(e, CompilationError)]
    root = chain[-1]
    if isinstance(root, MLIRCompilationError):
        return CompileError("MLIRCompilationError", _bishengir_error(str(root)))
    if not isinstance(root, CompilationError):
        error = CompileError(type(root).__name__, str(root))
    else:
        error = CompileError(*_from_repr(root.error_message or ""))
    innermost = frontend[-1] if frontend else None
    if innermost is None or not hasattr(innermost.node, "lineno"):
        return error
    if innermost.src == jit_fn.src:
        _, def_line = get_jit_fn_file_line(jit_fn)
        return CompileError(error.type, error.message, def_line + innermost.node.lineno - 1)
    first = _def_row(innermost.src, jit_fn.fn.__code__.co_filename)
    if first is not None:  # in a `@triton.jit` helper of the kernel's own module
        return CompileError(error.type, error.message, first + innermost.node.lineno - 1)
    return error


def _def_row(src: str | None, filename: str) -> int | None:
    """The row of the module ``filename`` where a jit function's source ``src`` (from its
    ``def``) starts, when it occurs there exactly once (a helper defined at module level)."""
    if not src:
        return None
    try:
        text = Path(filename).read_text()
    except (OSError, UnicodeDecodeError):
        return None
    start = text.find(src)
    if start < 0 or (start > 0 and text[start - 1] != "\n") or text.find(src, start + 1) >= 0:
        return None
    return text.count("\n", 0, start) + 1


@contextlib.contextmanager
def _lowering_rows(rows: set[tuple[str, int]]) -> Iterator[None]:
    """Record the (file, row) of every node Triton's front end visits while the block runs: the
    code it lowers for this specialisation (a constexpr-false branch is never visited)."""
    from triton.compiler.code_generator import CodeGenerator

    visit = CodeGenerator.visit

    def recording_visit(generator: Any, node: Any) -> Any:
        row = getattr(node, "lineno", None)
        if row is not None and generator.file_name:
            rows.add((os.path.realpath(generator.file_name), generator.begin_line + row))
        return visit(generator, node)

    CodeGenerator.visit = recording_visit
    try:
        yield
    finally:
        CodeGenerator.visit = visit


def _stage_texts(exc: BaseException | None, compiled: Any) -> dict[str, str]:
    """TTIR and linalg text, from the compiled kernel or, after a late failure, the cache."""
    if compiled is not None:
        return {k: v for k, v in compiled.asm.items() if isinstance(v, str)}
    match = _CACHE_DIR.search(str(exc))
    if not match:
        return {}
    cache = Path(match[1])
    return {p.suffix[1:]: p.read_text() for p in cache.glob("*") if p.suffix in (".ttir", ".ttadapter")}


class Compiler:
    """Compiles variants of one kernel and remembers the results."""

    def __init__(self, kernel: KernelRef, workdir: Path, chain: toolchain.Toolchain) -> None:
        self.kernel = kernel
        self.workdir = workdir
        self.toolchain = chain
        self.source = Path(kernel.file).read_text()
        self._compiled: dict[tuple[str, str], Compiled] = {}

    def compile(self, variant: variants.Variant, launch: Launch) -> Compiled:
        launch = variant.launch(launch)
        key = (variant.source, launch.key())
        if key not in self._compiled:
            self._compiled[key] = self._compile(variant, launch, len(self._compiled))
        return self._compiled[key]

    def reports(self) -> list[VariantReport]:
        return [c.report() for c in self._compiled.values()]

    def _compile(self, variant: variants.Variant, launch: Launch, index: int) -> Compiled:
        import triton
        from triton.backends.compiler import AttrsDescriptor
        from triton.compiler import ASTSource

        jit_fn = variants.load_kernel(variant, self.kernel, self.workdir / "variants")
        report_dir = self.workdir / "memory" / str(index)
        report_dir.mkdir(parents=True, exist_ok=True)
        os.environ[toolchain.REPORT_DIR_ENV] = str(report_dir)
        source = ASTSource(
            jit_fn,
            signature=dict(launch.signature),
            constants={k: decode_value(v) for k, v in launch.constants.items()},
            attrs=AttrsDescriptor.from_dict(launch.attrs),
        )
        # the family's options (the Ascend 950's `compile_on_910_95`...) unless the launch sets them
        options = {**self.toolchain.options(), **{k: decode_value(v) for k, v in launch.options.items()}}
        start = time.perf_counter()
        kernel, error, exc = None, None, None
        visited: set[tuple[str, int]] = set()
        try:
            with _lowering_rows(visited):
                kernel = triton.compile(source, target=self.toolchain.target(), options=options)
        except Exception as caught:  # the compiler's own errors are the evidence
            exc, error = caught, compile_error(caught, jit_fn)
        seconds = time.perf_counter() - start
        ub_capacity = self.toolchain.compile_target.soc.ub_bytes
        memory = read_plan(report_dir, ub_capacity)
        required_bits = getattr(kernel.metadata, "required_ub_bits", 0) if kernel is not None else 0
        if required_bits:  # `UB size = N bits`: a compiler that writes no report (the Ascend 950's)
            memory = memory.with_ub_total(required_bits // 8, ub_capacity)
        file = jit_fn.fn.__code__.co_filename
        ir = _stage_texts(exc, kernel)
        real = os.path.realpath(file)
        rows = {row for name, row in visited if name == real} | rows_of(ir.get("ttir", ""), file)
        return Compiled(
            variant=variant,
            launch=launch,
            error=error,
            ir=ir,
            memory=memory,
            seconds=seconds,
            file=file,
            shown_file=self.kernel.file if variant.source == self.source else None,
            rows=frozenset(rows),
        )


def memory_plans(
    kernel: KernelRef, launches: list[Launch], workdir: Path, model: str, target: CompileTarget
) -> list[dict[str, Any]]:
    """The memory plan of the kernel as written, for each captured specialisation."""
    compiler = Compiler(kernel, workdir, toolchain.activate(workdir, model, target))
    plans = []
    for launch in launches:
        compiled = compiler.compile(variants.original(compiler.source), launch)
        plans.append(
            {
                "kernel": kernel.name,
                "file": kernel.file,
                "target": target.to_json(),
                "launch": describe_launch(launch),
                "error": str(compiled.error) if compiled.error else None,
                "scopes": compiled.memory_json(),
                "seconds": round(compiled.seconds, 3),
            }
        )
    return plans
