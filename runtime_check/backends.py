"""Replay backends by name — the hook other backends (interpret, npu) register in.

A backend is a function ``replay(job: ReplayJob, workdir: Path) -> Outcome`` named as
``"module:function"``; the worker subprocess imports and calls it, so nothing heavy is imported
in the process that runs ``confirm``. ``available`` runs in that process and says why the
backend cannot run here (or None when it can); ``auto`` picks, per rule, the first available
backend in :data:`AUTO_ORDER`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import interpret, npu


@dataclass(frozen=True)
class Backend:
    replay: str
    available: Callable[[], str | None] = lambda: None


BACKENDS: dict[str, Backend] = {
    "compile": Backend("ascend_lint.runtime_check.compile_backend:replay"),
    # value replays (issue 6): see interpret.py / npu.py
    "interpret": Backend("ascend_lint.runtime_check.interpret:replay", interpret.missing_reason),
    "npu": Backend("ascend_lint.runtime_check.npu:replay", npu.missing_reason),
}

CHOICES = ("auto", "compile", "interpret", "npu")

# Strongest first. Rules not listed use DEFAULT_ORDER.
AUTO_ORDER: dict[str, tuple[str, ...]] = {
    "ASC003": ("npu", "interpret", "compile"),
    "ASC006": ("npu", "interpret"),  # without an NPU, interpret answers "needs an NPU"
}
DEFAULT_ORDER = ("npu", "compile")


def resolve(requested: str, code: str) -> str:
    """The backend that judges a finding of rule ``code`` when the user asked for ``requested``."""
    if requested != "auto":
        return requested
    for name in AUTO_ORDER.get(code, DEFAULT_ORDER):
        backend = BACKENDS.get(name)
        if backend is not None and backend.available() is None:
            return name
    return "compile"


def unavailable(name: str) -> str | None:
    """Why backend ``name`` cannot run here, or None when it can."""
    backend = BACKENDS.get(name)
    if backend is None:
        return f"the {name!r} backend is not available in this version of ascend-lint"
    return backend.available()
