"""Backends by name, and which one decides a finding.

A backend is a function ``(job: ReplayJob, workdir: Path) -> Outcome`` named as
``"module:function"``; the replay child imports and calls it, so nothing heavy is imported in
the process that runs ``confirm``. Its availability check runs in that process and says why the
backend cannot run here (None when it can).

Which backends can decide a rule, and with which evidence, is the rule's own ``CONFIRM``
declaration (:class:`ascend_lint.rule.Confirm`), read from the registry: ``auto`` takes the
first available backend of that declaration, strongest first.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ascend_lint.model import Finding
from ascend_lint.registry import rule_by_selector
from ascend_lint.rule import Evidence

CHOICES = ("auto", "compile", "interpret", "npu")
_NEEDS = {"compile": "the compiler", "interpret": "the interpreter", "npu": "an NPU"}


@dataclass(frozen=True)
class Backend:
    entry: str  # "module:function" judging one job, run in the replay child
    availability: str | None = None  # "module:function" returning why it cannot run, or None
    # set in the replay child before anything imports triton (triton.jit reads it when decorating)
    environment: tuple[tuple[str, str], ...] = ()


BACKENDS: dict[str, Backend] = {
    "compile": Backend(
        "ascend_lint.runtime_check.compile.backend:judge_with_compiler",
        "ascend_lint.runtime_check.toolchain:compiler_missing",
    ),
    "interpret": Backend(
        "ascend_lint.runtime_check.value.interpret:judge_in_interpreter",
        "ascend_lint.runtime_check.value.interpret:missing_reason",
        environment=(("TRITON_INTERPRET", "1"),),
    ),
    "npu": Backend(
        "ascend_lint.runtime_check.value.npu:judge_on_npu", "ascend_lint.runtime_check.value.npu:missing_reason"
    ),
}


def load(reference: str) -> Callable[..., Any]:
    """The function named ``"module:function"``."""
    module, _, function = reference.partition(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return found


def unavailable(name: str) -> str | None:
    """Why backend ``name`` cannot run here, or None when it can."""
    backend = BACKENDS.get(name)
    if backend is None:
        return f"the {name!r} backend is not available in this version of ascend-lint"
    return load(backend.availability)() if backend.availability else None


@dataclass(frozen=True)
class Plan:
    """How one finding is judged: a backend and its evidence, or why it cannot be. No backend
    (None) for a rule that declares no evidence: nothing is replayed, nothing is run."""

    backend: str | None
    evidence: Evidence | None = None
    reason: str | None = None  # set when there is nothing to replay


def no_evidence(code: str, why: str | None) -> str:
    """The reason a finding of a rule without ``CONFIRM`` is INCONCLUSIVE: its ``NO_CONFIRM``."""
    why = why or "the rule declares no evidence a replay could collect"
    return f"nothing to replay for {code} ({why}); the finding stands on the source alone"


def plan(requested: str, finding: Finding) -> Plan:
    """The backend and evidence for ``finding`` when the user asked for backend ``requested``."""
    rule = rule_by_selector(finding.code)
    confirm = rule.CONFIRM if rule is not None else None
    if confirm is None:
        return Plan(None, reason=no_evidence(finding.code, rule.NO_CONFIRM if rule is not None else None))
    if requested != "auto":
        evidence = confirm.evidence.get(requested)  # type: ignore[call-overload]
        if evidence is not None:
            return Plan(requested, evidence)
        names = list(confirm.evidence)
        needs = " or ".join(_NEEDS[name] for name in names)
        hint = " or ".join(names)
        return Plan(requested, reason=f"needs {needs}: {confirm.reason} (try --backend {hint})")
    available = [name for name in confirm.evidence if unavailable(name) is None]
    backend = available[0] if available else list(confirm.evidence)[-1]
    return Plan(backend, confirm.evidence[backend])
