"""The chip a compile backend verdict is measured on: a compile target per `target-soc` family.

`check` judges each file against its `target-soc` (:mod:`ascend_lint.socs`, resolved by
``Settings.soc``); `confirm` compiles the file's kernels for a model of that family: the
`--device` model when it belongs to the family, else the family's default model. The Ascend 950
is compiled as triton-ascend's backend compiles on one (``compile_on_910_95``: automatic
multi-buffering and sub-block binding off, select analysis on), by ascendnpu-ir's
``bishengir-compile-a5``, which writes no memory report; its ``UB size = N bits``
(``ENABLE_PRINT_UB_BITS``) gives the planned UB instead.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ascend_lint.socs import SOCS, Soc

from .device import MODELS


@dataclass(frozen=True)
class CompileTarget:
    soc: Soc
    model: str  # triton-ascend's target (`GPUTarget("npu", model, 0)`), bishengir's `--target`
    options: tuple[tuple[str, bool], ...] = ()  # triton-ascend's compile options for the family
    compiler: str = "bishengir-compile"  # the ascendnpu-ir binary that plans its memory
    environment: tuple[tuple[str, str], ...] = ()  # set while compiling for it

    def describe(self) -> str:
        return describe(self.to_json())

    def to_json(self) -> dict[str, Any]:
        return {"soc": self.soc.name, "model": self.model, "ub_bytes": self.soc.ub_bytes}


def describe(target: dict[str, Any]) -> str:
    """A compile target as reports name it: ``Ascend950PR_9599 (ascend950, UB 248 KiB)``."""
    return f"{target['model']} ({target['soc']}, UB {target['ub_bytes'] // 1024} KiB)"


# Each family's default model; the Ascend 950's is the one its UB was measured on.
_FAMILIES = {
    "ascend910b": CompileTarget(SOCS["ascend910b"], "Ascend910B3"),
    "ascend910_93": CompileTarget(SOCS["ascend910_93"], "Ascend910_9392"),
    "ascend950": CompileTarget(
        SOCS["ascend950"],
        "Ascend950PR_9599",
        options=(
            ("compile_on_910_95", True),
            ("multibuffer", False),
            ("enable_auto_bind_sub_block", False),
            ("enable_select_analysis", True),
        ),
        compiler="bishengir-compile-a5",
        environment=(("ENABLE_PRINT_UB_BITS", "1"),),
    ),
}


def compile_target(soc: str, device: str) -> CompileTarget:
    """What a file of `target-soc` family ``soc`` is compiled for, with ``device`` simulated."""
    family = _FAMILIES[soc]
    model = MODELS.get(device)
    return replace(family, model=device) if model is not None and model.soc == soc else family


# every variable a target sets, unset while compiling for a target that does not set it
TARGET_ENVIRONMENT = frozenset(name for target in _FAMILIES.values() for name, _ in target.environment)
