"""The real Ascend compiler, set up for compile-only use on a machine without an NPU.

triton-ascend compiles TTIR -> linalg (``triton-adapter-opt``) -> ``bishengir-compile``
(HFusion/HIVM passes, memory planning) -> CANN's ``hivmc`` (the device binary). Everything
ascend-lint checks happens before ``hivmc``, so :func:`activate` puts a placeholder ``hivmc``
on ``PATH`` that writes an empty file: the pipeline completes, and what it leaves behind is
never a binary and is never run. It also

- replaces the two calls that need a device (the driver's ``get_arch`` and the C++ helper the
  Ascend ``NPUUtils`` builds against CANN) with the simulated device's driver (:mod:`.device`)
  and the compile target's model (:mod:`.targets`);
- puts ``bishengir-compile-a5`` (the Ascend 950's, which ``bishengir-compile`` runs from
  ``PATH``) and a placeholder ``hivmc-a5`` next to them;
- wraps ``bishengir-compile`` so every compile writes its memory plan
  (``memory_info_aiv.json`` / ``memory_info_aic.json``) into a directory we choose;
- turns on line info so each planned buffer names the kernel's ``.py`` line.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shlex
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .device import DEFAULT_MODEL, MODELS, simulated_driver
from .targets import TARGET_ENVIRONMENT, CompileTarget, compile_target

# Where the bishengir-compile wrapper writes memory reports (read by the wrapper script).
REPORT_DIR_ENV = "ASCEND_LINT_MEMORY_REPORT_DIR"

_INSTALL_HINT = (
    "install the runtime extra (pip install 'ascend-lint[runtime]'); it replaces upstream "
    "`triton` with triton-ascend in that environment"
)

_HIVMC_PLACEHOLDER = """#!/bin/sh
# ascend-lint compile-only placeholder for CANN's hivmc: writes an EMPTY output file so that
# bishengir-compile finishes. The result is not a binary and must never be run.
case "$1" in --version) echo "hivmc placeholder (ascend-lint compile-only)"; exit 0;; esac
out=""
while [ $# -gt 0 ]; do
  case "$1" in -o) out="$2"; shift;; esac
  shift
done
[ -n "$out" ] && : > "$out.o"
exit 0
"""

_BISHENGIR_WRAPPER = """#!/bin/sh
# ascend-lint: run the real bishengir-compile with its memory report written to ${report_env}.
cd "${{{report_env}:-.}}" && exec {real} "$@" --enable-memory-display
"""


class ToolchainMissing(RuntimeError):
    """triton-ascend or ascendnpu-ir is not importable in this environment."""


def runtime_missing() -> str | None:
    """What of the runtime extra is missing here (triton-ascend, torch), or None; imports nothing."""
    for module in ("triton", "torch"):
        spec = importlib.util.find_spec(module)
        if spec is None:
            return f"`{module}` is not installed; {_INSTALL_HINT}"
    triton = importlib.util.find_spec("triton")
    locations = list(triton.submodule_search_locations or []) if triton else []
    if not any((Path(folder) / "backends" / "ascend").is_dir() for folder in locations):
        return f"the installed `triton` has no Ascend backend; {_INSTALL_HINT}"
    upstream = _distribution_version("triton")
    if upstream is not None:  # its files over triton-ascend's; the ascend backend folder survives
        return (
            f"upstream `triton` {upstream} is installed beside triton-ascend and overwrites its "
            "files (torch from PyPI and packages requiring `triton` pull it in); run "
            "`pip uninstall -y triton` then `pip install --force-reinstall --no-deps triton-ascend`, "
            "and install torch from PyTorch's CPU index"
        )
    return None


def _distribution_version(name: str) -> str | None:
    """The version of an installed distribution, or None (reads its metadata: imports nothing)."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def compiler_missing() -> str | None:
    """Why the compile backend cannot run here, or None; imports nothing (the full check, with
    the active triton's backends, is :func:`missing_reason`, run where the compiler runs)."""
    missing = runtime_missing()
    if missing is None and bishengir_compile() is None:
        return f"`bishengir-compile` not found (package ascendnpu-ir); {_INSTALL_HINT}"
    return missing


def missing_reason() -> str | None:
    """Why the compile backend cannot run here, or None when it can."""
    if importlib.util.find_spec("triton") is None:
        return f"`triton` is not installed; {_INSTALL_HINT}"
    from triton.backends import backends

    if "ascend" not in backends:
        import triton

        return (
            f"the active `triton` ({triton.__version__}) has no Ascend backend "
            f"(backends: {', '.join(sorted(backends)) or 'none'}); {_INSTALL_HINT}"
        )
    if bishengir_compile() is None:
        return f"`bishengir-compile` not found (package ascendnpu-ir); {_INSTALL_HINT}"
    return None


def target_missing(target: CompileTarget) -> str | None:
    """Why this machine cannot compile for ``target`` (its compiler is not installed), or None."""
    if bishengir_compile(target.compiler) is None:
        return (
            f"cannot compile for {target.describe()} here: `{target.compiler}` not found "
            f"(package ascendnpu-ir); {_INSTALL_HINT}"
        )
    return None


def bishengir_compile(name: str = "bishengir-compile") -> Path | None:
    """The real ``bishengir-compile`` (or another of its binaries) shipped by ascendnpu-ir."""
    spec = importlib.util.find_spec("ascendnpuir")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "bin" / name
    return path if path.is_file() else None


def _write_executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@dataclass(frozen=True)
class Toolchain:
    """An activated compile-only toolchain for one process."""

    compile_target: CompileTarget
    workdir: Path

    def target(self) -> Any:
        from triton.backends.compiler import GPUTarget

        return GPUTarget("npu", self.compile_target.model, 0)

    def options(self) -> dict[str, Any]:
        """The compile options triton-ascend's backend sets for the target's family."""
        return dict(self.compile_target.options)


def _compile_only_npu_utils(arch: str) -> type:
    class CompileOnlyNPUUtils:
        """Stands in for the Ascend ``NPUUtils``, which builds a C++ helper against CANN."""

        def get_arch(self) -> str:
            return arch

    return CompileOnlyNPUUtils


def activate(workdir: Path, model: str = DEFAULT_MODEL, target: CompileTarget | None = None) -> Toolchain:
    """Make this process compile for ``target`` (default: ``model`` itself) without a device,
    host code seeing a simulated ``model``; files go under ``workdir``."""
    target = target or compile_target(MODELS[model].soc, model)
    reason = missing_reason() or target_missing(target)
    if reason:
        raise ToolchainMissing(reason)
    bin_dir = workdir / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for placeholder in ("hivmc", "hivmc-a5"):
        _write_executable(bin_dir / placeholder, _HIVMC_PLACEHOLDER)
    wrapper = _BISHENGIR_WRAPPER.format(report_env=REPORT_DIR_ENV, real=shlex.quote(str(bishengir_compile())))
    _write_executable(bin_dir / "bishengir-compile", wrapper)
    a5 = bishengir_compile("bishengir-compile-a5")
    if a5 is not None and not (bin_dir / a5.name).exists():
        (bin_dir / a5.name).symlink_to(a5)
    os.environ["PATH"] = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    for name in TARGET_ENVIRONMENT:
        os.environ.pop(name, None)
    os.environ.update(target.environment)
    os.environ["TRITON_DISABLE_LINE_INFO"] = "0"
    os.environ["TRITON_CACHE_DIR"] = str(workdir / "triton-cache")
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # a cache hit would skip the memory report
    os.environ[REPORT_DIR_ENV] = str(workdir)

    from triton.backends import backends
    from triton.runtime.driver import driver

    # The compiler module is loaded without a sys.modules entry; reach its globals via a method.
    backends["ascend"].compiler.add_stages.__globals__["NPUUtils"] = _compile_only_npu_utils(target.model)
    driver.set_active(simulated_driver(MODELS[model]))
    return Toolchain(compile_target=target, workdir=workdir)
