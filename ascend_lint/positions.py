"""Where chosen nodes sit in the ORIGINAL text.

libcst records no positions; it can only write each node back out, and what it writes is not
always the original: libcst 1.9 drops a form feed at the start of an indented line, so rows and
columns counted on its output are wrong after one. Here ranges are offsets into the original
text: code generation runs over the nodes and every token it produces is matched against the
original at a cursor (skipping only form feeds libcst dropped). A node's range runs from where
its first token matched to where its last one ended; a token that does not match is a bug
(`LayoutError`), never a wrong position.

Code generation costs about a third of a parse, so it runs only where it must: over the kernel
that holds the wanted nodes, from the row CPython's compiler gives for it, stopping once every
wanted node has its range. Nodes found in no kernel (host launches) get one pass from the top
of the file, which stops after the last of them.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import CodeType

import libcst as cst
from libcst._nodes.internal import CodegenState

from .model import Position

# Line breaks as CPython and libcst count rows: \r\n, \r or \n (never \f, \v or \x1c).
NEWLINE = re.compile(r"\r\n?|\n")
_CO_OPTIMIZED = 0x1  # set on the code of functions, not on class bodies or modules

Span = tuple[int, int]  # offsets into the text, end exclusive


class LayoutError(Exception):
    """libcst's output does not match the original text: a bug (reported as an internal error)."""


class LineIndex:
    """Rows and columns of a text: 1-based rows ending at \\r\\n, \\r or \\n; columns in code points."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0, *(match.end() for match in NEWLINE.finditer(text))]

    def position(self, offset: int) -> Position:
        row = bisect_right(self.starts, offset)
        return Position(row, offset - self.starts[row - 1] + 1)

    def offset(self, position: Position) -> int:
        return self.starts[position.row - 1] + position.column - 1

    def lines(self) -> list[str]:
        """The text of each row, without its line break."""
        return NEWLINE.split(self.text)


@dataclass
class Layout:
    """Spans of the wanted nodes and the indentation of the block each sits in."""

    index: LineIndex
    spans: dict[cst.CSTNode, Span] = field(default_factory=dict)
    indents: dict[cst.CSTNode, str] = field(default_factory=dict)

    def range(self, node: cst.CSTNode) -> tuple[Position, Position]:
        start, end = self.spans[node]
        return self.index.position(start), self.index.position(end)

    def text_of(self, node: cst.CSTNode) -> str:
        start, end = self.spans[node]
        return self.index.text[start:end]


class _Found(Exception):
    """Every wanted node has its span: code generation stops."""


class _AlignedState(CodegenState):
    """Code generation that writes nothing: it matches each token against the original text."""

    def __init__(
        self,
        layout: Layout,
        module: cst.Module,
        cursor: int,
        indent: list[str],
        wanted: set[cst.CSTNode],
        muted: set[cst.CSTNode],
    ):
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.indent_tokens = list(indent)
        self.layout = layout
        self.text = layout.index.text
        self.cursor = cursor
        self.wanted = wanted  # nodes still without a span
        self.muted_nodes = muted  # nodes whose text lies before the cursor's start
        self.muted = 0
        self.pending: list[list[int]] = []  # starts waiting for the next token
        self.open: dict[cst.CSTNode, list[int]] = {}  # starts of wanted nodes being generated

    def add_token(self, value: str) -> None:
        if self.muted or not value:
            return
        start = self.cursor
        if self.text.startswith(value, start):
            end = start + len(value)
        else:
            start, end = self._realign(value)
            if start == end:  # the final newline libcst assumes but the file lacks
                return
        for marker in self.pending:
            marker.append(start)
        self.pending.clear()
        self.cursor = end

    def _realign(self, value: str) -> Span:
        """Where `value` is at the cursor once the form feeds libcst dropped are skipped."""
        text, at, matched, start = self.text, self.cursor, 0, self.cursor
        while matched < len(value):
            if at < len(text) and text[at] == value[matched]:
                start = at if matched == 0 else start
                matched += 1
            elif at < len(text) and text[at] == "\f":
                pass
            elif at == len(text) == self.cursor and NEWLINE.fullmatch(value):
                return at, at
            else:
                where = self.layout.index.position(self.cursor)
                raise LayoutError(
                    f"libcst wrote {value!r} where the source has {text[self.cursor : at + 1]!r} ({where})"
                )
            at += 1
        return start, at

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self.add_token(token)

    def pop_trailing_newline(self) -> None:
        """Nothing to pop: a final newline the file lacks was never matched (see add_token)."""

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node in self.muted_nodes:
            self.muted += 1
        elif node in self.wanted:
            marker: list[int] = []
            self.pending.append(marker)
            self.open[node] = marker
            self.layout.indents[node] = "".join(self.indent_tokens)

    def after_codegen(self, node: cst.CSTNode) -> None:
        if node in self.muted_nodes:
            self.muted -= 1
        marker = self.open.pop(node, None)
        if marker is not None:  # a syntactic span (recorded first) wins over this one
            self.layout.spans.setdefault(node, (marker[0] if marker else self.cursor, self.cursor))
            self._found(node)

    @contextmanager
    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> Iterator[None]:
        """The span without parentheses (expressions) or leading lines and indentation (statements)."""
        if node not in self.wanted:
            yield
            return
        marker: list[int] = []
        self.pending.append(marker)
        yield
        self.layout.spans[node] = (marker[0] if marker else self.cursor, self.cursor)
        self._found(node)

    def _found(self, node: cst.CSTNode) -> None:
        self.wanted.discard(node)
        if not self.wanted:
            raise _Found


def node_layout(
    text: str,
    module: cst.Module,
    code: CodeType,
    wanted: Collection[cst.CSTNode],
    hints: Mapping[cst.CSTNode, cst.FunctionDef],
) -> Layout:
    """Spans of `wanted` in `text`; `hints` names a function holding a node, to look there first."""
    layout = Layout(LineIndex(text))
    missing = set(wanted)
    by_function: dict[cst.FunctionDef, set[cst.CSTNode]] = defaultdict(set)
    for node in missing:
        if node in hints:
            by_function[hints[node]].add(node)
    anchors = _function_anchors(module, code, by_function) if by_function else {}
    for function, nodes in by_function.items():
        if function not in anchors:
            continue
        row, indent = anchors[function]
        muted: set[cst.CSTNode] = set(function.leading_lines)
        try:
            _generate(function, layout, module, layout.index.starts[row - 1], indent, set(nodes), muted)
        except LayoutError:  # the row was not where the function's text starts: look from the top
            for node in nodes:
                layout.spans.pop(node, None)
        missing -= layout.spans.keys()
    if missing:
        _generate(module, layout, module, 0, [], missing, set())
    return layout


def _generate(
    root: cst.CSTNode,
    layout: Layout,
    module: cst.Module,
    cursor: int,
    indent: list[str],
    wanted: set[cst.CSTNode],
    muted: set[cst.CSTNode],
) -> None:
    state = _AlignedState(layout, module, cursor, indent, wanted, muted)
    try:
        root._codegen(state)
    except _Found:
        return
    if wanted:
        raise LayoutError(f"{len(wanted)} node(s) not found in the tree")


def _function_anchors(
    module: cst.Module, code: CodeType, functions: Collection[cst.FunctionDef]
) -> dict[cst.FunctionDef, tuple[int, list[str]]]:
    """The row each function's text starts on (its first decorator) and its block's indentation.

    CPython's compiled module gives every function's first row; the k-th function named `f`
    in libcst's tree is the k-th code object named `f` in row order, when both count the same.
    """
    names = {function.name.value for function in functions}
    rows: dict[str, list[int]] = defaultdict(list)
    stack = [code]
    while stack:
        for constant in stack.pop().co_consts:
            if isinstance(constant, CodeType):
                stack.append(constant)
                if constant.co_flags & _CO_OPTIMIZED and constant.co_name in names:
                    rows[constant.co_name].append(constant.co_firstlineno)
    defined: dict[str, list[tuple[cst.FunctionDef, list[str]]]] = defaultdict(list)
    for function, indent in _function_defs(module.body, [], module.default_indent):
        if function.name.value in names:
            defined[function.name.value].append((function, indent))
    anchors = {}
    for name, found in defined.items():
        if len(found) == len(rows[name]):
            for (function, indent), row in zip(found, sorted(rows[name]), strict=True):
                anchors[function] = (row, indent)
    return anchors


_BODIES = ("body", "orelse", "handlers", "finalbody", "cases")


def _function_defs(
    statements: Sequence[cst.CSTNode], indent: list[str], default_indent: str
) -> Iterator[tuple[cst.FunctionDef, list[str]]]:
    """Every function definition in source order, with the indentation of its block."""
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            continue
        if isinstance(statement, cst.FunctionDef):
            yield statement, indent
        for attribute in _BODIES:
            part = getattr(statement, attribute, None)
            if isinstance(part, cst.IndentedBlock):
                inner = [*indent, default_indent if part.indent is None else part.indent]
                yield from _function_defs(part.body, inner, default_indent)
            elif isinstance(part, (list, tuple)):
                yield from _function_defs(part, indent, default_indent)
            elif isinstance(part, cst.CSTNode) and not isinstance(part, cst.BaseSuite):
                yield from _function_defs([part], indent, default_indent)
