"""Variants of a kernel's module, made by source transformation, and how to load them.

A :class:`Variant` is the full source of the kernel's module plus a :class:`LaunchPatch`
(changes to the captured launch: compile options dropped, constexpr values or ``None``
pointers set). Loading a variant writes its source to a file of its own and imports it under
the original module name, so Triton reads the variant's source and line numbers, and a
workload run afterwards in the same process picks the variant up.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ascend_lint.model import Finding, Position

from .capture.launches import KernelRef, Launch, encode_value


@dataclass(frozen=True)
class LaunchPatch:
    """What a variant changes in a captured launch."""

    drop_options: tuple[str, ...] = ()
    constants: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    def apply(self, launch: Launch) -> Launch:
        options = {k: v for k, v in launch.options.items() if k not in self.drop_options}
        options.update((k, encode_value(v)) for k, v in self.options.items())
        signature, constants, summary = dict(launch.signature), dict(launch.constants), dict(launch.arg_summary)
        for name, value in self.constants.items():
            if value is None and name in signature:
                signature[name] = "*i8"  # what the JIT passes for a None pointer
            constants[name] = encode_value(value)
            summary[name] = "None" if value is None else f"constexpr = {value!r}"
        return replace(launch, options=options, signature=signature, constants=constants, arg_summary=summary)

    def describe(self) -> str:
        parts = [f"without {', '.join(self.drop_options)}"] if self.drop_options else []
        parts += [f"{name}={value!r}" for name, value in self.constants.items()]
        return "; ".join(parts)


@dataclass(frozen=True)
class Variant:
    name: str
    source: str
    patch: LaunchPatch = field(default_factory=LaunchPatch)

    def launch(self, launch: Launch) -> Launch:
        return self.patch.apply(launch)


def original(source: str) -> Variant:
    return Variant("original", source)


def fixed(source: str, finding: Finding) -> Variant | None:
    """The module with the finding's fix applied, or None when the rule offers no fix."""
    if finding.fix is None:
        return None
    from ascend_lint.fixes import apply_edits

    return Variant("fixed", apply_edits(source, finding.fix.edits))


def row_after_fix(position: Position, finding: Finding) -> int:
    """The row the code at ``position`` moves to once the finding's fix is applied."""
    row = position.row
    for edit in finding.fix.edits if finding.fix else ():
        if edit.end <= position:  # wholly before it: the lines it adds or removes shift it
            row += edit.content.count("\n") - (edit.end.row - edit.start.row)
    return row


@dataclass(frozen=True)
class Arm:
    """One arm of an ``if`` statement: its label, kind (what the rule says it does, e.g. its DMA
    path) and rows in the original source."""

    label: str
    kind: str
    first_row: int
    last_row: int
    column: int | None = None  # of a conditional expression's arm: the expression's (0-based)

    def holds(self, row: int | None) -> bool:
        return row is not None and self.first_row <= row <= self.last_row


class _IfAt(cst.CSTTransformer):
    """Finds the ``if`` statement that starts at a row and replaces it with one arm."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(
        self, row: int, keep: str | None = None, kinds: list[str] | None = None, column: int | None = None
    ) -> None:
        self.row, self.keep, self.kinds = row, keep, kinds or []
        self.column = column  # (0-based) given: the conditional expression starting there, not a statement
        self.found: cst.If | cst.IfExp | None = None
        self.arms: list[Arm] = []
        self._elifs: set[int] = set()  # an `elif` is part of its `if`, not a statement to replace

    def visit_If(self, node: cst.If) -> None:
        if isinstance(node.orelse, cst.If):
            self._elifs.add(id(node.orelse))

    def _arm(self, label: str, node: cst.CSTNode) -> Arm:
        pos = self.get_metadata(PositionProvider, node)
        index = len(self.arms)
        kind = self.kinds[index] if index < len(self.kinds) else label
        return Arm(label, kind, pos.start.line, pos.end.line, self.column)

    def leave_IfExp(self, original_node: cst.IfExp, updated_node: cst.IfExp) -> cst.BaseExpression:
        start = self.get_metadata(PositionProvider, original_node).start
        if self.found is not None or self.column is None or (start.line, start.column) != (self.row, self.column):
            return updated_node
        self.found = original_node
        self.arms.append(self._arm("then", original_node.body))
        self.arms.append(self._arm("else", original_node.orelse))
        if self.keep is None:
            return updated_node
        kept = updated_node.body if self.keep == "then" else updated_node.orelse
        return kept.with_changes(lpar=[*updated_node.lpar, *kept.lpar], rpar=[*kept.rpar, *updated_node.rpar])

    def leave_If(
        self, original_node: cst.If, updated_node: cst.If
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        start = self.get_metadata(PositionProvider, original_node).start.line
        if self.found is not None or self.column is not None or start != self.row or id(original_node) in self._elifs:
            return updated_node
        self.found = original_node
        self.arms.append(self._arm("then", original_node.body))
        if original_node.orelse is not None:
            self.arms.append(self._arm("else", original_node.orelse))
        if self.keep is None:
            return updated_node
        if self.keep == "then":
            return _statements(updated_node.body)
        orelse = updated_node.orelse
        if orelse is None:
            return cst.RemovalSentinel.REMOVE
        return _statements(orelse.body) if isinstance(orelse, cst.Else) else orelse


def _statements(block: cst.BaseSuite) -> cst.FlattenSentinel[cst.BaseStatement]:
    """The statements of an arm, to put in place of its ``if`` (an arm is an indented block)."""
    assert isinstance(block, cst.IndentedBlock)
    return cst.FlattenSentinel(block.body)


def if_arms(source: str, row: int, kinds: list[str] | None = None, column: int | None = None) -> list[Arm]:
    """The arms of the ``if`` statement starting at ``row`` (empty when there is none), then
    first, each of the given kind (else named by its label); with ``column`` (1-based, a
    finding's), when no ``if`` statement starts at ``row``, those of the conditional expression
    starting there (`a if c else b`: `a` is the then arm)."""
    finder = _IfAt(row, kinds=kinds)
    module = MetadataWrapper(cst.parse_module(source))
    module.visit(finder)
    if not finder.arms and column is not None:
        finder = _IfAt(row, kinds=kinds, column=column - 1)
        module.visit(finder)
    return finder.arms


def arm_alone(source: str, row: int, arm: Arm) -> Variant:
    """The module with the ``if`` (or the conditional expression) at ``row`` replaced by one arm."""
    transformed = MetadataWrapper(cst.parse_module(source)).visit(_IfAt(row, keep=arm.label, column=arm.column))
    return Variant(f"{arm.kind} arm alone ({arm.label}, lines {arm.first_row}-{arm.last_row})", transformed.code)


def write(variant: Variant, kernel: KernelRef, workdir: Path) -> Path:
    """Write the variant's module as ``workdir/<source digest>/<file name>``: variants with the
    same source share one file, so their IR names the same locations."""
    digest = hashlib.sha256(variant.source.encode()).hexdigest()[:16]
    path = workdir / digest / Path(kernel.file).name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(variant.source)
    return path


def import_variant(variant: Variant, kernel: KernelRef, workdir: Path) -> ModuleType:
    """Import the variant under the kernel's module name (replacing it in ``sys.modules``)."""
    path = write(variant, kernel, workdir)
    spec = importlib.util.spec_from_file_location(kernel.module, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[kernel.module] = module
    spec.loader.exec_module(module)
    return module


def load_kernel(variant: Variant, kernel: KernelRef, workdir: Path) -> Any:
    """The variant's ``JITFunction`` for ``kernel`` (unwrapping autotune / heuristics)."""
    from triton.runtime.jit import JITFunction

    fn = getattr(import_variant(variant, kernel, workdir), kernel.name)
    while not isinstance(fn, JITFunction):
        fn = fn.fn
    return fn
