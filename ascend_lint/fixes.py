"""Fixes: what rules propose (node-level plans) and how text edits are applied."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import libcst as cst

from .model import Edit, Position


@dataclass(frozen=True)
class Replace:
    """Replace a node's text with `new` (a node, rendered with the module's formatting, or text)."""

    node: cst.CSTNode
    new: cst.CSTNode | str


@dataclass(frozen=True)
class InsertBefore:
    """Insert statement text on its own line before `statement`, at the same indentation."""

    statement: cst.CSTNode
    code: str


@dataclass(frozen=True)
class FixPlan:
    applicability: str  # "safe" or "unsafe"
    message: str
    changes: tuple[Replace | InsertBefore, ...]

    def nodes(self) -> Iterable[cst.CSTNode]:
        for change in self.changes:
            yield change.node if isinstance(change, Replace) else change.statement


def render(module: cst.Module, new: cst.CSTNode | str) -> str:
    return new if isinstance(new, str) else module.code_for_node(new)


def plan_edits(module: cst.Module, plan: FixPlan, ranges, source_lines: list[str]) -> tuple[Edit, ...]:
    """Turn a plan into text edits, given the node ranges computed for the file."""
    edits = []
    for change in plan.changes:
        if isinstance(change, Replace):
            start, end = ranges[change.node]
            edits.append(Edit(start, end, render(module, change.new)))
        else:
            start, _ = ranges[change.statement]
            line = source_lines[start.row - 1]
            indent = line[: start.column - 1]
            edits.append(Edit(start, start, f"{change.code}\n{indent}"))
    return tuple(sorted(edits, key=lambda e: (e.start, e.end)))


def apply_edits(source: str, edits: Iterable[Edit]) -> str:
    """Apply edits (1-based rows/columns, exclusive ends); overlapping ones are skipped."""
    line_starts = _line_starts(source)

    def offset(position: Position) -> int:
        return line_starts[position.row - 1] + position.column - 1

    pieces, cursor = [], 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        begin, end = offset(edit.start), offset(edit.end)
        if begin < cursor:
            continue
        pieces.append(source[cursor:begin])
        pieces.append(edit.content)
        cursor = end
    pieces.append(source[cursor:])
    return "".join(pieces)


def _line_starts(source: str) -> list[int]:
    starts = [0]
    position = source.find("\n")
    while position != -1:
        starts.append(position + 1)
        position = source.find("\n", position + 1)
    starts.append(len(source) + 1)
    return starts
