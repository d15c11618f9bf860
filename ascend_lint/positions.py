"""Where chosen nodes sit in the ORIGINAL text.

libcst records no positions; it can only write each node back out, and what it writes is not
always the original: libcst 1.9 drops a form feed that opens an indented line, and writes one
into every line of a block whose first line opens with one, so rows and columns counted on its
output are wrong after one. Here ranges are offsets into the original text: code generation
runs over the nodes and every token it produces is matched against the original at a cursor
(form feeds aside, on either side). A node's range runs from where its first token matched to
where its last one ended; a token that does not match is a bug (`LayoutError`, an internal
error), never a wrong position.

Code generation costs about a third of a parse, so it runs only where it must: over the
function a report names (its kernel, or the host function of a launch), from the row CPython's
compiler gives for it, stopping once every wanted node has its range. Nodes found there are
done; the rest are looked for in the top-level statement other than a definition that holds
them (found by walking the statements' fields; its row from `ast`, parsing only the text
between the top-level functions around it), and only then from the top of the file.
"""

from __future__ import annotations

import ast
import re
import warnings
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from types import CodeType

import libcst as cst
from libcst._nodes.internal import CodegenState

from .model import NEWLINE, LineIndex, Position
from .nodes import child_nodes, walk
from .source import collection_paused

_CO_OPTIMIZED = 0x1  # set on the code of functions, not on class bodies or modules
_OPENING = re.compile(r"[ \t\f]*")  # a line's indentation, form feeds included
# lines libcst writes indented, not statements (node types, compared exactly: an `isinstance` of
# a libcst node that fails runs `ABCMeta.__instancecheck__` in Python, once per node generated)
_WHITESPACE_LINES = frozenset({cst.EmptyLine, cst.ParenthesizedWhitespace})
_NOT_RECORDED = nullcontext()  # the syntactic position of a node not wanted

Span = tuple[int, int]  # offsets into the text, end exclusive
Statement = cst.SimpleStatementLine | cst.BaseCompoundStatement


class LayoutError(Exception):
    """libcst's output does not match the original text: a bug (reported as an internal error)."""


@dataclass
class Layout:
    """Spans of the wanted nodes and the indentation of the block each sits in (for new code)."""

    index: LineIndex
    spans: dict[cst.CSTNode, Span] = field(default_factory=dict)
    indents: dict[cst.CSTNode, str] = field(default_factory=dict)

    def range(self, node: cst.CSTNode) -> tuple[Position, Position]:
        start, end = self.spans[node]
        return self.index.position(start), self.index.position(end)

    def line_opening(self, node: cst.CSTNode) -> str:
        """The text of the node's first row before the node."""
        start = self.spans[node][0]
        return self.index.text[self.index.starts[self.index.position(start).row - 1] : start]

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
        self.in_whitespace = 0  # inside a comment line or bracketed whitespace: no statement's line
        self.pending: list[list[int]] = []  # starts waiting for the next token
        self.open: dict[cst.CSTNode, list[int]] = {}  # starts of wanted nodes being generated
        # the ids of the wanted and muted nodes: the hooks below run for every node generated,
        # and a node's own hash is a Python call
        self.watched = {id(node) for node in wanted} | {id(node) for node in muted}

    def add_token(self, value: str) -> None:
        if self.muted or not value:
            return
        start = self.cursor
        if self.text.startswith(value, start):
            end = start + len(value)
        else:
            start, end = self._realign(value)
            if start == end:
                return
        for marker in self.pending:
            marker.append(start)
        self.pending.clear()
        self.cursor = end

    def _realign(self, value: str) -> Span:
        """Where `value` is at the cursor, form feeds aside: libcst 1.9 drops one that opens an
        indented line, and writes one into every line of a block whose first line opens with one.
        An empty span: nothing of `value` is in the text (the final newline libcst assumes)."""
        text, at, matched, start = self.text, self.cursor, 0, -1
        while matched < len(value):
            if at < len(text) and text[at] == value[matched]:
                start = at if start < 0 else start
                at += 1
                matched += 1
            elif value[matched] == "\f":
                matched += 1
            elif at < len(text) and text[at] == "\f":
                at += 1
            elif at == len(text) == self.cursor and NEWLINE.fullmatch(value):
                return at, at
            else:
                where = self.layout.index.position(self.cursor)
                raise LayoutError(
                    f"libcst wrote {value!r} where the source has {text[self.cursor : at + 1]!r} ({where})"
                )
        return (self.cursor, self.cursor) if start < 0 else (start, at)

    def add_indent_tokens(self) -> None:
        """A statement's line opens with its block's indentation as libcst writes it: the
        opening of the block's first line. With form feeds the line can open differently for
        the same column (CPython counts from a line's last form feed: `    \f    x` and `    x`
        open column 4); its own opening is then taken. Comments and bracketed lines are
        written with their whitespace as the text has it."""
        opening = _OPENING.match(self.text, self.cursor)
        assert opening is not None  # the pattern matches the empty string
        indent = "".join(self.indent_tokens)
        own = opening.group()
        if not self.in_whitespace and "\f" in own + indent and _column(own) == _column(indent):
            self.add_token(own)
            return
        for token in self.indent_tokens:
            self.add_token(token)

    def pop_trailing_newline(self) -> None:
        """Nothing to pop: a final newline the file lacks was never matched (see add_token)."""

    def before_codegen(self, node: cst.CSTNode) -> None:
        if type(node) in _WHITESPACE_LINES:
            self.in_whitespace += 1
        if id(node) not in self.watched:
            return
        if node in self.muted_nodes:
            self.muted += 1
        elif node in self.wanted:
            marker: list[int] = []
            self.pending.append(marker)
            self.open[node] = marker
            self.layout.indents[node] = "".join(self.indent_tokens)  # form feeds kept: see fixes.render

    def after_codegen(self, node: cst.CSTNode) -> None:
        if type(node) in _WHITESPACE_LINES:
            self.in_whitespace -= 1
        if id(node) not in self.watched:
            return
        if node in self.muted_nodes:
            self.muted -= 1
        marker = self.open.pop(node, None)
        if marker is not None:  # a syntactic span (recorded first) wins over this one
            self.layout.spans.setdefault(node, (marker[0] if marker else self.cursor, self.cursor))
            self._found(node)

    def record_syntactic_position(  # type: ignore[override]  # any context manager does for libcst
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> AbstractContextManager[None]:
        """The span without parentheses (expressions) or leading lines and indentation (statements)."""
        if id(node) not in self.watched or node not in self.wanted:
            return _NOT_RECORDED
        return self._recorded(node)

    @contextmanager
    def _recorded(self, node: cst.CSTNode) -> Iterator[None]:
        marker: list[int] = []
        self.pending.append(marker)
        yield
        self.layout.spans[node] = (marker[0] if marker else self.cursor, self.cursor)
        self._found(node)

    def _found(self, node: cst.CSTNode) -> None:
        self.wanted.discard(node)
        if not self.wanted:
            raise _Found


class LayoutMemory:
    """Spans found in functions by the previous layout of a document (the editor server keeps
    one per document), relative to the row each function starts on, with each node's text.

    A function that is the same node again (the incremental parser keeps the nodes of the
    statements an edit did not touch: the same text) has its nodes where they were relative
    to its first row; a span is reused only when the text there is still the node's text."""

    def __init__(self) -> None:
        self._functions: dict[cst.FunctionDef, dict[cst.CSTNode, tuple[Span, str | None, str]]] = {}
        self._used: dict[cst.FunctionDef, dict[cst.CSTNode, tuple[Span, str | None, str]]] = {}

    def recall(self, layout: Layout, function: cst.FunctionDef, base: int, nodes: set[cst.CSTNode]) -> bool:
        """Whether every node's span in `function`, starting at offset `base`, was known (it
        is then in `layout`)."""
        known = self._functions.get(function, {})
        spans = {}
        for node in nodes:
            if node not in known:
                return False
            (start, end), indent, text = known[node]
            if layout.index.text[base + start : base + end] != text:
                return False
            spans[node] = (base + start, base + end), indent
        for node, (span, indent) in spans.items():
            layout.spans[node] = span
            if indent is not None:
                layout.indents[node] = indent
        self._used[function] = known
        return True

    def remember(self, layout: Layout, function: cst.FunctionDef, base: int, nodes: set[cst.CSTNode]) -> None:
        known = self._used.setdefault(function, dict(self._functions.get(function, {})))
        for node in nodes:
            start, end = layout.spans[node]
            known[node] = (start - base, end - base), layout.indents.get(node), layout.text_of(node)

    def forget_unused(self) -> None:
        """Keep only the functions of the last layout, so memory follows the document."""
        self._functions, self._used = self._used, {}


def node_layout(
    text: str,
    module: cst.Module,
    code: CodeType,
    wanted: Collection[cst.CSTNode],
    hints: Mapping[cst.CSTNode, cst.FunctionDef],
    memory: LayoutMemory | None = None,
) -> Layout:
    """Spans of `wanted` in `text`. Looked for, in turn: in the function `hints` names for a node
    (first in `memory`); in the module's top-level statements other than definitions (a launch
    table bound at module level); in the innermost function holding it (a kernel's finding
    whose evidence is a launch in a host function); from the top of the file."""
    layout = Layout(LineIndex(text))
    missing = set(wanted)
    by_function: dict[cst.FunctionDef, set[cst.CSTNode]] = defaultdict(set)
    for node in missing:
        if node in hints:
            by_function[hints[node]].add(node)
    anchors = _function_anchors(module, code, by_function) if by_function else {}
    for function, nodes in by_function.items():
        if function in anchors:
            row, indent = anchors[function]
            base = layout.index.starts[row - 1]
            if memory is not None and memory.recall(layout, function, base, nodes):
                missing -= nodes
                continue
            found = _look(layout, module, function, row, indent, nodes)
            missing -= found
            if memory is not None:
                memory.remember(layout, function, base, found)
    if memory is not None:
        memory.forget_unused()
    if missing:
        missing -= _look_at_top_level(layout, module, code, missing)
    if missing:
        missing -= _look_in_functions(layout, module, code, missing)
    if missing and _generate(module, layout, module, 0, [], missing, set()):
        raise LayoutError(f"{len(missing)} node(s) not found in the tree")
    return layout


def _look(
    layout: Layout,
    module: cst.Module,
    statement: Statement,
    row: int,
    indent: list[str],
    wanted: set[cst.CSTNode],
) -> set[cst.CSTNode]:
    """The wanted nodes found in `statement`, whose text starts on `row` (none if it does not)."""
    missing = set(wanted)
    before = set(layout.spans)
    try:
        _generate(
            statement, layout, module, layout.index.starts[row - 1], indent, missing, set(statement.leading_lines)
        )
    except LayoutError:  # the statement's text does not start on that row
        for node in set(layout.spans) - before:
            del layout.spans[node]
        return set()
    return wanted - missing


def _generate(
    root: cst.CSTNode,
    layout: Layout,
    module: cst.Module,
    cursor: int,
    indent: list[str],
    wanted: set[cst.CSTNode],
    muted: set[cst.CSTNode],
) -> set[cst.CSTNode]:
    """Match `root`'s code against the text from `cursor`; `wanted` keeps the nodes not found."""
    state = _AlignedState(layout, module, cursor, indent, wanted, muted)
    with suppress(_Found):
        root._codegen(state)
    return wanted


def _look_at_top_level(
    layout: Layout, module: cst.Module, code: CodeType, wanted: set[cst.CSTNode]
) -> set[cst.CSTNode]:
    """The wanted nodes found in the module's top-level statements other than functions (a
    launch table bound at module level, a class attribute). The statements holding them are found by walking the
    statements' fields; each is looked at from its row, which CPython's ast gives for the text
    between the top-level functions around it whose rows are known (the whole file has none)."""
    homes = _homes(module.body, wanted)
    if not homes:
        return set()
    body = module.body
    defined = [(index, s) for index, s in enumerate(body) if isinstance(s, cst.FunctionDef)]
    anchors = _function_anchors(module, code, [function for _, function in defined])
    bounds = [(index, anchors[function][0]) for index, function in defined if function in anchors]
    stretches: dict[int, dict[int, int]] = {}  # the rows of the statements before each bound
    found: set[cst.CSTNode] = set()
    for index, nodes in homes.items():
        after = bisect_left(bounds, (index, 0))
        if after not in stretches:
            first, first_row = bounds[after - 1] if after else (0, 1)
            last, last_row = bounds[after] if after < len(bounds) else (len(body), 0)
            starts = layout.index.starts
            text = layout.index.text[starts[first_row - 1] : starts[last_row - 1] if last_row else None]
            stretches[after] = _statement_rows(body[first:last], text, first_row, first)
        row = stretches[after].get(index)
        if row is not None:
            found |= _look(layout, module, body[index], row, [], nodes)
    return found


def _look_in_functions(
    layout: Layout, module: cst.Module, code: CodeType, wanted: set[cst.CSTNode]
) -> set[cst.CSTNode]:
    """The wanted nodes found in the innermost function holding each, looked at from its row."""
    holders = _holders(module.body, wanted)
    anchors = _function_anchors(module, code, holders)
    found: set[cst.CSTNode] = set()
    for function, nodes in holders.items():
        if function in anchors:
            row, indent = anchors[function]
            found |= _look(layout, module, function, row, indent, nodes)
    return found


def _holders(body: Sequence[Statement], wanted: set[cst.CSTNode]) -> dict[cst.FunctionDef, set[cst.CSTNode]]:
    """The innermost function holding each of `wanted` that a top-level definition holds -> them."""
    holders: dict[cst.FunctionDef, set[cst.CSTNode]] = defaultdict(set)
    left = set(wanted)
    stack: list[tuple[cst.CSTNode, cst.FunctionDef | None]] = [
        (statement, None) for statement in body if isinstance(statement, (cst.FunctionDef, cst.ClassDef))
    ]
    while stack and left:
        node, holder = stack.pop()
        if node in left:
            left.discard(node)
            if holder is not None:
                holders[holder].add(node)
        if type(node) is cst.FunctionDef:
            holder = node
        stack.extend((child, holder) for child in child_nodes(node))
    return holders


def _homes(body: Sequence[Statement], wanted: set[cst.CSTNode]) -> dict[int, set[cst.CSTNode]]:
    """The index of each top-level statement other than a function holding wanted nodes -> them
    (a class too: its body's attributes, `UB_SIZE = 196608`, belong to no function)."""
    homes: dict[int, set[cst.CSTNode]] = {}
    left = set(wanted)
    for index, statement in enumerate(body):
        if not left:
            break
        if not isinstance(statement, cst.FunctionDef):
            held = {node for node in walk(statement) if node in left}
            if held:
                homes[index] = held
                left -= held
    return homes


def _statement_rows(statements: Sequence[Statement], text: str, first_row: int, first: int) -> dict[int, int]:
    """The row each statement starts on by its index in the module (the first is `first`),
    `text` being theirs from `first_row` on: from CPython's ast, none if the trees do not pair up."""
    try:
        with warnings.catch_warnings(), collection_paused():
            warnings.simplefilter("ignore")
            parsed = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    rows: dict[int, int] = {}
    at = 0
    for index, statement in enumerate(statements, first):
        width = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        if at + width > len(parsed):
            return {}
        opening = parsed[at]
        lineno = min([opening.lineno, *(d.lineno for d in getattr(opening, "decorator_list", ()))])
        rows[index] = first_row + lineno - 1
        at += width
    return rows if at == len(parsed) else {}


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


def _column(opening: str) -> int:
    """The column CPython's tokenizer counts after a line's opening whitespace."""
    column = 0
    for char in opening:
        column = 0 if char == "\f" else (column // 8 + 1) * 8 if char == "\t" else column + 1
    return column
