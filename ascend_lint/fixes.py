"""Fixes: what rules propose (node-level plans) and how text edits are applied."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._types import CSTNodeT

from .directives import Comments, Directive
from .model import Applicability, Edit, Finding, LineIndex, Position
from .nodes import child_nodes, walk
from .positions import Layout

if TYPE_CHECKING:
    from .rule import ModuleContext

_NEWLINE_AT_END = re.compile(r"(\r\n?|\n)\Z")


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
class Delete:
    """Remove a statement line whole: its rows, trailing comment and line break, and the
    blank lines right above it (they set apart what is now gone)."""

    statement: cst.SimpleStatementLine

    @property
    def blank_lines_above(self) -> int:
        leading = self.statement.leading_lines
        return len(leading) if all(line.comment is None for line in leading) else 0


@dataclass(frozen=True)
class FixPlan:
    applicability: Applicability
    message: str
    changes: tuple[Replace | InsertBefore | Delete, ...]

    def nodes(self) -> Iterable[cst.CSTNode]:
        for change in self.changes:
            yield change.node if isinstance(change, Replace) else change.statement


@dataclass(frozen=True)
class Declined:
    """Why a rule offers no fix for a finding: one line, as `docs/fixes.md` words it."""

    reason: str


# why a fix writing `tl.cast` is not offered: the module imports pieces of triton.language only
NO_LANGUAGE_NAME = "the module names no `triton.language` to write `tl.cast` with (it imports pieces of it only)"


def suppressed_on(
    line: cst.SimpleStatementLine, reported: cst.CSTNode, context: ModuleContext, function: cst.FunctionDef, code: str
) -> bool:
    """Whether a `# noqa` suppressing `code` is on a row the engine reads for the finding at
    `reported` in `line` or for a fix deleting `line` (`spared`): the finding's row (or the last
    of the rows a backslash or a string continues it to), any row of a multi-line statement. A
    fix bundling several findings leaves out the one the user suppressed there (the engine
    would drop the bundle: `engine._fix_sparing`)."""
    return spared(FixPlan("safe", f"Delete the `{code}` line", (Delete(line),)), reported, context, function, code)


def spared(plan: FixPlan, reported: cst.CSTNode, context: ModuleContext, function: cst.FunctionDef, code: str) -> bool:
    """Whether the engine drops `plan`, a fix in `function` of the finding at `reported`: the
    `# noqa` of the finding's row (`Finding.noqa_row`) or of a row the fix edits
    (`suppressed_row`, `engine._fix_sparing`) suppresses `code`. No other fix may count on it
    being applied. Rows are looked for only in a text that says `noqa`."""
    if not context.noqa:
        return False
    layout = context.layout([reported, *plan.nodes()], function)
    row = layout.range(reported)[0].row
    comments = context.comments or Comments(context.source)
    finding_row = comments.continued_to({row}).get(row, row)
    edits = plan_edits(context.module, plan, layout)
    return suppressed_row(edits, context.noqa, code) is not None or (
        finding_row in context.noqa and context.noqa[finding_row].suppresses(code)
    )


def suppressed_row(edits: Iterable[Edit], noqa: Mapping[int, Directive], code: str) -> int | None:
    """The first row the edits change (`rows_changed`) whose `# noqa` suppresses `code`."""
    for edit in edits:
        for row in rows_changed(edit):
            directive = noqa.get(row)
            if directive is not None and directive.suppresses(code):
                return row
    return None


def rows_changed(edit: Edit) -> range:
    """The rows whose text an edit changes: none for an insertion (fixes insert whole lines,
    before a statement), and not the row a deletion ends at the start of (it removes the line
    break before it)."""
    if edit.start == edit.end:
        return range(0)
    last = edit.end.row - 1 if edit.end.column == 1 else edit.end.row
    return range(edit.start.row, last + 1)


def why_not_fixed(finding: Finding) -> str:
    """One line on why a finding that remains was not fixed."""
    if finding.fix is not None:
        if finding.fix.applicability == "unsafe":
            return "unsafe fix not applied (use `--unsafe-fixes`)"
        return "fix available (use `--fix`)"
    return finding.no_fix_reason or "no fix offered"


class FreshNames:
    """New names for the code fixes insert: unused in the file, never handed out twice.

    Every identifier-shaped word of the source counts as taken (also those in comments and
    strings): a superset of the names in use, found without walking the tree.
    """

    def __init__(self, source: str):
        self.taken: set[str] = set(_IDENTIFIER.findall(source))
        self._last: dict[str, int] = {}  # the number last tried for each stem

    def fresh(self, stem: str) -> str:
        """`stem`, else `stem2`, `stem3`... (the first that is free)."""
        name, number = stem, self._last.get(stem, 1)
        if number > 1:
            name = f"{stem}{number}"
        while name in self.taken:
            number += 1
            name = f"{stem}{number}"
        self._last[stem] = number
        self.taken.add(name)
        return name


_IDENTIFIER = re.compile(r"[^\W\d]\w*")


def spelled_out(augmented: cst.AugAssign, target: str, left: str) -> cst.Assign:
    """`x op= v` written as `target = left op v` (`v` parenthesized unless it binds tighter)."""
    operator = getattr(cst, type(augmented.operator).__name__.removesuffix("Assign"))()
    value = augmented.value
    if _level(value) <= _LEVELS[type(operator)]:
        value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Assign([cst.AssignTarget(cst.Name(target))], cst.BinaryOperation(cst.Name(left), operator, value))


_LEVELS = {
    cst.BitOr: 1,
    cst.BitXor: 2,
    cst.BitAnd: 3,
    cst.LeftShift: 4,
    cst.RightShift: 4,
    cst.Add: 5,
    cst.Subtract: 5,
    cst.Multiply: 6,
    cst.MatrixMultiply: 6,
    cst.Divide: 6,
    cst.FloorDivide: 6,
    cst.Modulo: 6,
    cst.Power: 8,
}
_UNARY_LEVEL = 7
_ATOM_LEVEL = 9
_COMPARISON_LEVEL = 0.5
_NOT_LEVEL = 0.4
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString)


def fitted(new: cst.BaseExpression, old: cst.BaseExpression, parent: cst.CSTNode | None) -> cst.BaseExpression:
    """`new` to write where `old` stands as a part of `parent`: parenthesized unless it binds
    tightly enough there to stay one operand (`(a * H + b).to(t) * K` becomes `(a' * H + b') *
    K`, never `a' * H + b' * K`; `x = (a * H).to(t)` becomes `x = a' * H`)."""
    if new.lpar or isinstance(new, _ATOMS) or _stays_whole(new, old, parent):
        return new
    return new.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _stays_whole(new: cst.BaseExpression, old: cst.BaseExpression, parent: cst.CSTNode | None) -> bool:
    """Whether `new` in `old`'s place in `parent` parses as one operand of it."""
    level = _level(new)
    if isinstance(parent, cst.BinaryOperation):
        operator = _LEVELS[type(parent.operator)]
        if parent.left is old:  # left-associative, but for `**`
            return level > operator if isinstance(parent.operator, cst.Power) else level >= operator
        return level > operator
    if isinstance(parent, cst.UnaryOperation):
        return level >= (_NOT_LEVEL if isinstance(parent.operator, cst.Not) else _UNARY_LEVEL)
    if isinstance(parent, (cst.Attribute, cst.Subscript)):
        return parent.value is not old
    if isinstance(parent, cst.Call):
        return parent.func is not old
    if isinstance(parent, cst.Comparison | cst.ComparisonTarget):
        return level > _COMPARISON_LEVEL
    if isinstance(parent, cst.BooleanOperation):
        return level >= _NOT_LEVEL
    return True


def _level(node: cst.BaseExpression) -> float:
    """How tightly `node`'s outermost operation binds (higher binds tighter)."""
    if node.lpar or isinstance(node, _ATOMS):
        return _ATOM_LEVEL
    if isinstance(node, cst.BinaryOperation):
        return _LEVELS[type(node.operator)]
    if isinstance(node, cst.UnaryOperation):
        return _NOT_LEVEL if isinstance(node.operator, cst.Not) else _UNARY_LEVEL
    if isinstance(node, cst.Comparison):
        return _COMPARISON_LEVEL
    return 0  # a boolean operation, a conditional expression, a lambda


def names_in(node: cst.CSTNode) -> set[str]:
    """Every name `node` mentions."""
    own = {node.value} if isinstance(node, cst.Name) else set()
    return own.union(*(names_in(child) for child in child_nodes(node)))


_Listing = TypeVar("_Listing", bound=cst.Call | cst.Dict | cst.List | cst.Set | cst.Tuple)
_Whitespace = cst.BaseParenthesizableWhitespace


def without_items(listing: _Listing, keep: Callable[[Any], bool]) -> _Listing:
    """The call, dict, list, set or parenthesized tuple without the arguments / elements that
    `keep` rejects, each removal taking exactly its own text.

    An item alone on its line(s) goes with its line(s): itself, its comma and the comment after
    it on its last line; the comment lines around it, every other line and the closing
    bracket's line stay. An item sharing a line goes with its comma and the spaces after it
    (`f(a, num_warps=4, b=1)` -> `f(a, b=1)`; the line break and comment ending the line stay), the
    last one with the comma before it (`f(a, num_warps=4)` -> `f(a)`), and its own trailing comma
    when the bracket closes on its line (`f(a, num_warps=4,)` -> `f(a)`).
    """
    items, gaps = _items_and_gaps(listing)
    dropped = [index for index, item in enumerate(items) if not keep(item)]
    for index in reversed(dropped):
        _remove(items, gaps, index)
    return cast(_Listing, _rebuilt(listing, items, gaps))


def _items_and_gaps(listing: cst.CSTNode) -> tuple[list[Any], list[_Whitespace]]:
    """The items and the whitespace between them: before the first (after the opening bracket),
    after each one's comma, and before the closing bracket (`len(items) + 1` gaps)."""
    if isinstance(listing, cst.Call):
        args = list(listing.args)
        gaps = [listing.whitespace_before_args, *(_after_comma(arg) for arg in args[:-1])]
        if args:
            last = args[-1]
            gaps.append(last.comma.whitespace_after if isinstance(last.comma, cst.Comma) else last.whitespace_after_arg)
        return args, gaps
    elements = list(cast(Any, listing).elements)
    opening, closing = _brackets(listing)
    return elements, [opening, *(_after_comma(element) for element in elements[:-1]), closing]


def _brackets(listing: cst.CSTNode) -> tuple[_Whitespace, _Whitespace]:
    if isinstance(listing, (cst.Dict, cst.Set)):
        return listing.lbrace.whitespace_after, listing.rbrace.whitespace_before
    if isinstance(listing, cst.List):
        return listing.lbracket.whitespace_after, listing.rbracket.whitespace_before
    assert isinstance(listing, cst.Tuple) and listing.lpar, "a tuple without parentheses"
    return listing.lpar[-1].whitespace_after, listing.rpar[0].whitespace_before


def _after_comma(item: Any) -> _Whitespace:
    assert isinstance(item.comma, cst.Comma)  # every item but the last has its comma
    return item.comma.whitespace_after


def _before_comma(item: Any) -> list[_Whitespace]:
    """The whitespace between an item (that has its comma) and its comma."""
    return [item.comma.whitespace_before, *([item.whitespace_after_arg] if isinstance(item, cst.Arg) else [])]


def _breaks(whitespace: _Whitespace) -> bool:
    return isinstance(whitespace, cst.ParenthesizedWhitespace)


def _has_comment(whitespace: _Whitespace) -> bool:
    return isinstance(whitespace, cst.ParenthesizedWhitespace) and (
        whitespace.first_line.comment is not None or any(line.comment is not None for line in whitespace.empty_lines)
    )


def _remove(items: list[Any], gaps: list[_Whitespace], index: int) -> None:
    """Remove `items[index]`; the gaps around it become one."""
    item, before, after = items[index], gaps[index], gaps[index + 1]
    has_comma = isinstance(item.comma, cst.Comma)
    gap: _Whitespace
    if _breaks(before) and _breaks(after) and not (has_comma and any(map(_breaks, _before_comma(item)))):
        # alone on its line(s): the line break ending the line before stays, with the comment
        # lines on both sides, then the next line's indentation
        assert isinstance(before, cst.ParenthesizedWhitespace) and isinstance(after, cst.ParenthesizedWhitespace)
        gap = before.with_changes(
            empty_lines=[*before.empty_lines, *after.empty_lines], indent=after.indent, last_line=after.last_line
        )
        if len(items) == 1 and not _has_comment(gap):
            gap = cst.SimpleWhitespace("")
    elif has_comma and (index == 0 or index < len(items) - 1 or _breaks(after)):  # every item but the last has one
        gap = after if _breaks(after) else before  # a line break (and comment) ending its line stays
    elif index == 0:
        gap = next((g for g in (before, after) if _has_comment(g)), cst.SimpleWhitespace(""))
    else:  # the last item, with no comma or one before the bracket on its line: the comma before it goes, unless a comment or line break follows it
        previous = items[index - 1]
        if _has_comment(before) or any(
            w.value if isinstance(w, cst.SimpleWhitespace) else True for w in _before_comma(previous)
        ):
            gap = before
        else:
            items[index - 1] = previous.with_changes(comma=cst.MaybeSentinel.DEFAULT)
            gap = after
    del items[index]
    gaps[index : index + 2] = [gap]


def _rebuilt(listing: cst.CSTNode, items: list[Any], gaps: list[_Whitespace]) -> cst.CSTNode:
    """The listing holding `items` with `gaps` between them (`_items_and_gaps`)."""
    last = len(items) - 1
    placed = [
        item.with_changes(comma=item.comma.with_changes(whitespace_after=gaps[index + 1]))
        for index, item in enumerate(items[:-1])
    ]
    if isinstance(listing, cst.Call):
        if items:
            tail = items[last]
            if isinstance(tail.comma, cst.Comma):
                placed.append(tail.with_changes(comma=tail.comma.with_changes(whitespace_after=gaps[-1])))
            else:
                placed.append(tail.with_changes(whitespace_after_arg=gaps[-1]))
        return listing.with_changes(args=placed, whitespace_before_args=gaps[0])
    if items:
        tail = items[last]
        if isinstance(tail.comma, cst.Comma):  # before the closing bracket: the gap is the bracket's
            tail = tail.with_changes(comma=tail.comma.with_changes(whitespace_after=cst.SimpleWhitespace("")))
        elif isinstance(listing, cst.Tuple) and not placed:  # `(a,)`
            tail = tail.with_changes(comma=cst.Comma())
        placed.append(tail)
    closing = gaps[-1] if items else cst.SimpleWhitespace("")
    if isinstance(listing, (cst.Dict, cst.Set)):
        lbrace = listing.lbrace.with_changes(whitespace_after=gaps[0])
        rbrace = listing.rbrace.with_changes(whitespace_before=closing)
        return listing.with_changes(elements=placed, lbrace=lbrace, rbrace=rbrace)
    if isinstance(listing, cst.List):
        lbracket = listing.lbracket.with_changes(whitespace_after=gaps[0])
        rbracket = listing.rbracket.with_changes(whitespace_before=closing)
        return listing.with_changes(elements=placed, lbracket=lbracket, rbracket=rbracket)
    assert isinstance(listing, cst.Tuple)
    lpar = [*listing.lpar[:-1], listing.lpar[-1].with_changes(whitespace_after=gaps[0])]
    rpar = [listing.rpar[0].with_changes(whitespace_before=closing), *listing.rpar[1:]]
    return listing.with_changes(elements=placed, lpar=lpar, rpar=rpar)


def contains(root: cst.CSTNode | None, node: cst.CSTNode) -> bool:
    """Whether `node` is `root` or inside it."""
    return root is not None and any(sub is node for sub in walk(root))


class _RenderState(CodegenState):
    """Code generation for new code: nested blocks indented by the columns CPython counts, from
    the last form feed on. libcst keeps the text of a block's first line as its indentation
    (`\f    `, `  \f    `: four columns); repeated in a nested block a form feed would reset
    CPython's count mid-line."""

    def increase_indent(self, value: str) -> None:
        super().increase_indent(value.rpartition("\f")[2])


def render(module: cst.Module, old: cst.CSTNode, new: cst.CSTNode | str, indent: str) -> str:
    """The text for `old`'s range: `new` rendered in the block indented by `indent`.

    `indent` is the opening of the block's first line as the original has it (libcst's
    indentation of the block), form feeds included: libcst's tokenizer takes a nested block's
    indentation only when its first line opens with that text, so every new line opens with it
    (CPython counts the same columns either way).

    A range excludes a statement's leading lines and indentation and an expression's
    parentheses, so those parts of `new` are left out when they are `old`'s own.
    """
    if isinstance(new, str):
        return new
    old_parentheses = getattr(old, "lpar", None)
    if old_parentheses and getattr(new, "lpar", None) == old_parentheses:
        new = new.with_changes(lpar=(), rpar=())
    if isinstance(new, cst.BaseStatement):
        new = new.with_changes(leading_lines=())
    state = _RenderState(module.default_indent, module.default_newline, indent_tokens=[indent])
    new._codegen(state)
    text = "".join(state.tokens)
    return text.removeprefix(indent) if isinstance(new, cst.BaseStatement) else text


def with_nested(plans: Iterable[FixPlan], layout: Layout) -> dict[int, FixPlan]:
    """id(plan) -> the plan with the plans nested in the code it re-renders applied there too.

    A fix that replaces a node re-renders the code inside it from the original nodes; a fix of
    that inner code overlaps it and is not applied in the same pass, so a second `--fix` would
    find it (a `.to` chain inside an `if` that ASC004 rewrites). Replacing the inner node in the
    outer plan's new node makes one pass enough. An unsafe plan goes only into an unsafe one.
    A plan that replaces only expressions, with text, takes part as the expressions it writes.
    A nested plan's other changes (lines it inserts or deletes, nodes it replaces elsewhere)
    go into the outer plan too, when they touch no code the outer plan replaces: ASC003's fix
    of `b_q -= tl.dot(b_s, ...)` rewrites the statement that holds the read of `b_s` another
    ASC003 fix renames, and copies `b_s` lines above (the fixer then applies the composed plan
    for both findings: `fixer._inside_another`).
    """
    replacing: dict[int, FixPlan] = {}
    spans: dict[int, tuple[int, int]] = {}  # where a plan's replacements start and end
    for plan in plans:
        changes = [_as_node_replacement(change) or change for change in plan.changes]
        replacements = [change for change in changes if isinstance(change, Replace)]
        if id(plan) in replacing or not replacements or any(isinstance(c.new, str) for c in replacements):
            continue
        offsets = [offset for change in replacements for offset in layout.spans[change.node]]
        replacing[id(plan)] = FixPlan(plan.applicability, plan.message, tuple(changes))
        spans[id(plan)] = (min(offsets), max(offsets))
    if len(replacing) < 2:
        return {}
    composed: dict[int, FixPlan] = {}
    for key in sorted(replacing, key=lambda key: spans[key][1] - spans[key][0]):  # the narrowest first
        outer = replacing[key]
        replaced = [layout.spans[c.node] for c in outer.changes if isinstance(c, Replace)]
        inner: list[Replace] = []  # the nested plans' replacements inside the outer plan's
        carried: list[Replace | InsertBefore | Delete] = []  # and their changes outside it
        taken: list[tuple[int, int]] = []  # only the outermost nested plans: each holds its own nested ones
        for other in sorted(replacing, key=lambda other: spans[other][0] - spans[other][1]):  # the widest first
            if other == key or (outer.applicability == "safe" and replacing[other].applicability != "safe"):
                continue
            within, outside = _split(composed.get(other, replacing[other]), replaced, layout)
            inside = [layout.spans[change.node] for change in within]
            if not within or any(a <= b[0] and b[1] <= c for b in inside for a, c in taken):
                continue
            added = [change for change in outside if change not in carried and change not in outer.changes]
            if not _apart(added, [*replaced, *_extents([*outer.changes, *carried], layout)], layout):
                continue
            taken.extend(inside)
            inner += within
            carried += added
        if not inner:
            continue
        nested_news = _NestedReplacements({part.node: part.new for part in inner})
        rewritten: list[Replace | InsertBefore | Delete] = []
        for change in outer.changes:
            if isinstance(change, Replace):
                assert not isinstance(change.new, str)
                new = change.new.visit(nested_news)
                assert isinstance(new, cst.CSTNode)
                change = Replace(change.node, new)
            rewritten.append(change)
        composed[key] = FixPlan(outer.applicability, outer.message, (*rewritten, *carried))
    return composed


def _split(
    plan: FixPlan, replaced: list[tuple[int, int]], layout: Layout
) -> tuple[list[Replace], list[Replace | InsertBefore | Delete]]:
    """The plan's replacements of nodes inside one of the `replaced` spans (not the same span),
    and its other changes."""
    within: list[Replace] = []
    outside: list[Replace | InsertBefore | Delete] = []
    for change in plan.changes:
        if isinstance(change, Replace):
            span = layout.spans[change.node]
            if any(start <= span[0] and span[1] <= end and span != (start, end) for start, end in replaced):
                within.append(change)
                continue
        outside.append(change)
    return within, outside


def _extents(changes: Iterable[Replace | InsertBefore | Delete], layout: Layout) -> list[tuple[int, int]]:
    """The text each change touches: a replaced node's span, an insertion's point, a deleted
    statement's lines (the blank lines above it and its line break too: `plan_edits`)."""
    extents = []
    for change in changes:
        if isinstance(change, Replace):
            extents.append(layout.spans[change.node])
        elif isinstance(change, InsertBefore):
            point = layout.spans[change.statement][0]
            extents.append((point, point))
        else:
            start, end = layout.range(change.statement)
            starts = layout.index.starts
            after = starts[end.row] if end.row < len(starts) else layout.spans[change.statement][1]
            extents.append((starts[start.row - 1 - change.blank_lines_above], after))
    return extents


def _apart(changes: list[Replace | InsertBefore | Delete], spans: list[tuple[int, int]], layout: Layout) -> bool:
    """Whether the changes touch none of the spans' text (an insertion only at their edges)."""
    return not any(start < b and a < end for start, end in _extents(changes, layout) for a, b in spans)


class _NestedReplacements(cst.CSTTransformer):
    """Every nested replacement in one walk (`deep_replace` rebuilds the whole tree, so a second
    one no longer finds its node: of two nested fixes only one went in)."""

    def __init__(self, news: dict[cst.CSTNode, cst.CSTNode | str]):
        super().__init__()
        self.news = news

    def on_leave(self, original_node: CSTNodeT, updated_node: CSTNodeT) -> CSTNodeT:
        new = self.news.get(original_node, updated_node)
        assert not isinstance(new, str)  # with_nested's plans replace by nodes
        return cast(CSTNodeT, new)  # another type of node in its place: libcst renders any


def _as_node_replacement(change: Replace | InsertBefore | Delete) -> Replace | None:
    """`change` as a replacement by a node: its own node, or its text parsed as an expression in
    the old expression's parentheses (which its range, and so the text, leaves out); else None."""
    if not isinstance(change, Replace):
        return None
    if not isinstance(change.new, str):
        return change
    old = change.node
    if not isinstance(old, cst.BaseExpression):
        return None
    try:
        new = cst.parse_expression(change.new)
    except cst.ParserSyntaxError:
        return None
    return Replace(old, new.with_changes(lpar=(*old.lpar, *new.lpar), rpar=(*new.rpar, *old.rpar)))


def plan_edits(module: cst.Module, plan: FixPlan, layout: Layout) -> tuple[Edit, ...]:
    """Turn a plan into text edits at the spans the layout found in the original text."""
    edits = []
    for change in plan.changes:
        if isinstance(change, Replace):
            start, end = layout.range(change.node)
            content = render(module, change.node, change.new, layout.indents[change.node])
            if not _NEWLINE_AT_END.search(layout.text_of(change.node)):  # the file's last line, unterminated
                content = _NEWLINE_AT_END.sub("", content)
            edits.append(Edit(start, end, content))
        elif isinstance(change, Delete):
            start, end = layout.range(change.statement)
            if end.row < len(layout.index.starts):  # through the line break (the last line may have none)
                end = Position(end.row + 1, 1)
            edits.append(Edit(Position(start.row - change.blank_lines_above, 1), end, ""))
        else:  # the statement keeps its line's opening whitespace, form feeds included
            start, _ = layout.range(change.statement)
            opening = layout.line_opening(change.statement)
            indent = opening if opening.isspace() else layout.indents[change.statement]
            edits.append(Edit(start, start, f"{change.code}{module.default_newline}{indent}"))
    return tuple(sorted(edits, key=lambda e: (e.start, e.end)))


def apply_edits(source: str, edits: Iterable[Edit]) -> str:
    """Apply edits (1-based rows/columns, exclusive ends); overlapping ones are skipped."""
    return edited(source, edits)[0]


def edited(source: str, edits: Iterable[Edit]) -> tuple[str, list[tuple[int, int]]]:
    """The text after the edits, and the offsets each applied edit's new text spans in it."""
    index = LineIndex(source)
    pieces, spans, cursor, length = [], [], 0, 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        begin, end = index.offset(edit.start), index.offset(edit.end)
        if begin < cursor:
            continue
        length += begin - cursor
        pieces += [source[cursor:begin], edit.content]
        spans.append((length, length + len(edit.content)))
        length += len(edit.content)
        cursor = end
    pieces.append(source[cursor:])
    return "".join(pieces), spans
