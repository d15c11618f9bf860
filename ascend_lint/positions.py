"""Source ranges for a chosen few nodes, in one code-generation pass.

libcst's PositionProvider records a range for every node of the module, which costs about
twice the parse. Findings need ranges for a handful of nodes, so this pass tracks the
line/column counters for every token but records only the nodes it was asked about. It runs
only for files that have findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import libcst as cst
from libcst._nodes.internal import CodegenState

from .model import Position

# Line breaks as libcst (and Python's tokenizer) count rows: \r\n, \r or \n.
NEWLINE = re.compile(r"\r\n?|\n")

Range = tuple[Position, Position]


class _RecordingState(CodegenState):
    """A CodegenState that counts lines/columns and records ranges of wanted nodes."""

    def __init__(self, module: cst.Module, wanted: set[cst.CSTNode]):
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.wanted = wanted
        self.ranges: dict[cst.CSTNode, Range] = {}
        self.indents: dict[cst.CSTNode, str] = {}
        self.line = 1
        self.column = 0
        self._starts: list[Position] = []

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        if "\n" in value or "\r" in value:
            segments = NEWLINE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])
        else:
            self.column += len(value)

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def _here(self) -> Position:
        return Position(self.line, self.column + 1)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node in self.wanted:
            self._starts.append(self._here())
            self.indents[node] = "".join(self.indent_tokens)

    def after_codegen(self, node: cst.CSTNode) -> None:
        if node in self.wanted:
            start = self._starts.pop()
            self.ranges.setdefault(node, (start, self._here()))

    @contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> Iterator[None]:
        if node not in self.wanted:
            yield
            return
        start = self._here()
        yield
        self.ranges[node] = (start, self._here())


def node_layout(
    module: cst.Module, nodes: Iterable[cst.CSTNode]
) -> tuple[dict[cst.CSTNode, Range], dict[cst.CSTNode, str]]:
    """Each node's range, and the indentation of the block it sits in (fixes render with it)."""
    state = _RecordingState(module, set(nodes))
    module._codegen(state)
    return state.ranges, state.indents
