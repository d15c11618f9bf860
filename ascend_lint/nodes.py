"""Walking libcst trees by reading node fields, without `CSTNode.children`.

`children` rebuilds every node's child list through a visitor (about the cost of another
parse over a whole module); reading the dataclass fields that can hold code is several times
cheaper. Whitespace, parentheses, commas and operators are skipped: no analysis reads them.
"""

from __future__ import annotations

import dataclasses
import io
import tokenize
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from functools import cache
from typing import TypeVar

import libcst as cst

# names of names a walk follows to what they are bound to, at most: in kernels (`core_id = pid`
# after `pid = tl.program_id(0)`, `b = a` after `a = x.to(tl.float32)`) and in host code (`ok =
# n < 65536`, then `if ok:`); a walk at `hops` follows a name while `hops < NAMES_FOLLOWED`
NAMES_FOLLOWED = 4
_T = TypeVar("_T")
# steps a host walk takes from a value to where it is made, at most, whatever each step is: a
# name to what it is bound to, a parameter to what its callers pass, a helper call to what it
# returns, a list to its items (a launch argument to its origin, an autotuner's table to the
# configs it holds). Wider than `NAMES_FOLLOWED`, which counts only names bound to names. Some
# walks stop at `hops >= ORIGIN_HOPS`, some one step later, some at twice it (a getter's result
# reaching a launch, the sizes of a grid's axes: `HostIndex`)
ORIGIN_HOPS = 4

_TOKEN_FIELDS = (
    "whitespace",
    "lpar",
    "rpar",
    "lbracket",
    "rbracket",
    "lbrace",
    "rbrace",
    "comma",
    "semicolon",
    "colon",
    "equal",
    "dot",
    "operator",
    "leading_lines",
    "lines_after_decorators",
    "header",
    "footer",
    "trailing_whitespace",
    "newline",
    "default_indent",
    "default_newline",
    "indent",
    "encoding",
    "star",
    "asynchronous",
)


# Fields named like a token that hold code: `def f(*args, **kwargs)`'s parameters.
_STAR_PARAMETERS = ("star_arg", "star_kwarg")


@cache
def code_fields(node_type: type) -> tuple[str, ...]:
    """The fields of a node type that hold code (not whitespace, commas or other tokens)."""
    return tuple(
        f.name
        for f in dataclasses.fields(node_type)
        if not f.name.startswith(_TOKEN_FIELDS) or f.name in _STAR_PARAMETERS
    )


class _NodeTypes(dict[type, bool]):
    """Whether values of a type are nodes, found once per type: an `isinstance(value,
    cst.CSTNode)` that fails runs `ABCMeta.__instancecheck__` in Python (libcst's nodes are
    ABCs); a dict lookup does not. Types never change what they subclass."""

    def __missing__(self, value_type: type) -> bool:
        is_node = self[value_type] = issubclass(value_type, cst.CSTNode)
        return is_node


_IS_NODE_TYPE = _NodeTypes()


class _CodeFields(dict[type, tuple[str, ...]]):
    """The `code_fields` that may hold nodes (not a name's or a literal's text, declared `str`),
    by a plain dict lookup, cheaper than the cache's call: `child_nodes` runs for every node
    walked, and a walk asks no leaf (`Name`, `Integer`, an operator) for its children."""

    def __missing__(self, node_type: type) -> tuple[str, ...]:
        declared = {f.name: f.type for f in dataclasses.fields(node_type)}
        fields = self[node_type] = tuple(name for name in code_fields(node_type) if declared[name] is not str)
        return fields


_CODE_FIELDS = _CodeFields()


def child_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The node's children that hold code, in field order (mostly source order)."""
    found: list[cst.CSTNode] = []
    for name in _CODE_FIELDS[type(node)]:
        value = getattr(node, name)
        if _IS_NODE_TYPE[type(value)]:
            found.append(value)
        elif type(value) is tuple or type(value) is list:
            found += value  # every sequence field of code holds nodes only (libcst's field types)
    return found


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`node` and every node below it that holds code, depth first, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if _CODE_FIELDS[type(current)]:
            stack += child_nodes(current)[::-1]


def target_names(target: cst.BaseExpression) -> list[str]:
    """The names a target binds: `n`, each of `a, (b, *c)`; none of `x.attr` or `x[i]`."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    if isinstance(target, cst.Tuple | cst.List):
        return [name for element in target.elements for name in target_names(element.value)]
    return []


def walk_with_inner_variables(node: cst.CSTNode) -> Iterator[tuple[cst.CSTNode, frozenset[str]]]:
    """`walk`, each node with the variables of the comprehensions and lambdas under `node`
    around it (`x` in `[f(x) for x in xs]`, `lambda x: f(x)`): local to them, not to the
    function. The first iterable of a comprehension and a lambda's defaults are read outside."""
    outside: dict[int, frozenset[str]] = {}  # by id, the parts read outside their comprehension or lambda
    stack: list[tuple[cst.CSTNode, frozenset[str]]] = [(node, frozenset())]
    while stack:
        current, variables = stack.pop()
        variables = outside.pop(id(current), variables)
        yield current, variables
        kind = type(current)
        if kind not in _INNER_SCOPES:  # node types are final: a set lookup, no `isinstance` (see `_NodeTypes`)
            pass
        elif isinstance(current, cst.BaseComp):
            outside[id(current.for_in.iter)] = variables
            loop: cst.CompFor | None = current.for_in
            while loop is not None:
                variables = variables.union(target_names(loop.target))
                loop = loop.inner_for_in
        elif isinstance(current, cst.Lambda):
            params = current.params
            outside[id(params)] = variables
            star = [param for param in (params.star_arg, params.star_kwarg) if isinstance(param, cst.Param)]
            named = [*params.posonly_params, *params.params, *params.kwonly_params, *star]
            variables = variables.union(param.name.value for param in named)
        if _CODE_FIELDS[kind]:
            stack += [(child, variables) for child in child_nodes(current)[::-1]]


_INNER_SCOPES = frozenset((cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp, cst.Lambda))


def each_once(pending: list[_T], key: Callable[[_T], Hashable] | None = None) -> Iterator[_T]:
    """The items of the worklist `pending`, popped until it is empty, each (each `key` of one,
    when given) the first time only: the loop reading them may append more."""
    seen: set[Hashable] = set()
    while pending:
        item = pending.pop()
        mark = item if key is None else key(item)
        if mark not in seen:
            seen.add(mark)
            yield item


def replaced(node: cst.CSTNode, old: cst.CSTNode, new: cst.CSTNode) -> cst.CSTNode:
    """`node` with `old`, a node below it, replaced by `new`: only the nodes on the path to `old`
    are rebuilt, the others are kept as they are (the facts read about them stay theirs)."""
    if node is old:
        return new
    changes: dict[str, object] = {}
    for name in _CODE_FIELDS[type(node)]:
        value = getattr(node, name)
        if _IS_NODE_TYPE[type(value)]:
            updated = replaced(value, old, new)
            if updated is not value:
                changes[name] = updated
        elif type(value) is tuple or type(value) is list:
            items = [replaced(item, old, new) for item in value]
            if any(a is not b for a, b in zip(items, value, strict=True)):
                changes[name] = type(value)(items)
    return node.with_changes(**changes) if changes else node


def flat_code(node: cst.CSTNode) -> str:
    """The node's code with each run of whitespace read as one space: a key under which two
    spellings of one expression meet."""
    return " ".join(cst.Module([]).code_for_node(node).split())


def one_line(node: cst.CSTNode) -> str:
    """The node's code on one line, as a message quotes it (messages, related notes and fix
    titles are one line in every output format): comments dropped, each line break (with a
    backslash before it and the indentation after it) read as one space, or as nothing just
    inside a bracket, and each run of whitespace as one space (but in a string literal)."""
    code = cst.Module([]).code_for_node(node)
    if "\n" in code:
        text = ""
        for line in _without_comments(code).splitlines():
            piece = line.strip().removesuffix("\\").strip()
            if not piece:
                continue
            if text and not text.endswith(("(", "[", "{")) and not piece.startswith((")", "]", "}")):
                text += " "
            text += piece
        code = text
    if any(type(part) is cst.SimpleString or type(part) is cst.FormattedString for part in walk(node)):
        return code
    return " ".join(code.split())


def comments_in(node: cst.CSTNode) -> list[str]:
    """The comments written inside the node's code, in order (`# note` of `p += (  # note`)."""
    return [token.string for token in _comment_tokens(cst.Module([]).code_for_node(node)) or ()]


def _without_comments(code: str) -> str:
    """`code` with its comments cut off (found as tokens: a `#` in a string is no comment)."""
    lines = code.splitlines()
    tokens = _comment_tokens(code)
    if tokens is None:
        return code
    for token in tokens:
        row, column = token.start
        lines[row - 1] = lines[row - 1][: column - (row == 1)]
    return "\n".join(lines)


def _comment_tokens(code: str) -> list[tokenize.TokenInfo] | None:
    """The comment tokens of `code`, read inside parentheses (a `(` before its first line: an
    expression that spans lines tokenizes as a whole); None when it does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(f"({code})").readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    return [token for token in tokens if token.type == tokenize.COMMENT]


def leaves_block(line: cst.CSTNode) -> bool:
    """A simple statement line holding a `return`, `raise`, `continue` or `break`: the block it
    stands in goes no further."""
    return isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite) and any(
        isinstance(small, cst.Return | cst.Raise | cst.Continue | cst.Break) for small in line.body
    )


def suite_lines(suite: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    """The statements of a suite: an indented block's lines, or the one-line suite itself
    (`if FLAG: x += 1`), which holds its small statements as a line does."""
    return suite.body if isinstance(suite, cst.IndentedBlock) else (suite,)


def statements_of(lines: Iterable[cst.CSTNode]) -> list[cst.BaseSmallStatement | cst.BaseCompoundStatement]:
    """Each statement of the lines on its own, in order: the small statements of a simple line
    one by one (`y = f(x); grid = (n,)` is two statements, as is the one-line suite `if t: a =
    1; b = 2`), a compound statement as it is. What runs before a statement, and which binding
    reaches it, does not depend on how statements share lines."""
    found: list[cst.BaseSmallStatement | cst.BaseCompoundStatement] = []
    for line in lines:
        if isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite):
            found.extend(line.body)
        elif isinstance(line, cst.BaseCompoundStatement):
            found.append(line)
    return found


def only_small_statement(suite: cst.BaseSuite) -> cst.BaseSmallStatement | None:
    """The suite's small statement when it holds just one (`if t: continue`, on one line or two)."""
    lines = suite_lines(suite)
    line = lines[0] if len(lines) == 1 else None
    small = line.body if isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite) else ()
    return small[0] if len(small) == 1 else None


def never_falls_through(suite: cst.BaseSuite) -> bool:
    """The suite never falls through: a `return`, `raise`, `continue` or `break` at its top, or
    a statement there that never does either: an `if` whose arms all leave (an `else` too), a
    `with` whose body leaves."""
    return any(leaves_block(line) or _never_ends(line) for line in suite_lines(suite))


def _never_ends(statement: cst.CSTNode) -> bool:
    if isinstance(statement, cst.With):
        return never_falls_through(statement.body)
    if isinstance(statement, cst.If):
        orelse = statement.orelse
        if orelse is None or not never_falls_through(statement.body):
            return False
        return _never_ends(orelse) if isinstance(orelse, cst.If) else never_falls_through(orelse.body)
    return False


def arms_around(node: cst.CSTNode, blocks: Sequence[cst.CSTNode]) -> list[tuple[cst.BaseExpression, bool]]:
    """The test of each `if` among the blocks around `node` (the host walk records them), with
    whether it holds there: True in its body, False in its `else` and `elif`s."""
    return [(block.test, any(sub is node for sub in walk(block.body))) for block in blocks if isinstance(block, cst.If)]


# the operator of `n op= v` -> that of `n op v`
_BINARY_OF_AUGMENTED: dict[type[cst.BaseAugOp], type[cst.BaseBinaryOp]] = {
    cst.AddAssign: cst.Add,
    cst.SubtractAssign: cst.Subtract,
    cst.MultiplyAssign: cst.Multiply,
    cst.MatrixMultiplyAssign: cst.MatrixMultiply,
    cst.DivideAssign: cst.Divide,
    cst.FloorDivideAssign: cst.FloorDivide,
    cst.ModuloAssign: cst.Modulo,
    cst.PowerAssign: cst.Power,
    cst.LeftShiftAssign: cst.LeftShift,
    cst.RightShiftAssign: cst.RightShift,
    cst.BitAndAssign: cst.BitAnd,
    cst.BitOrAssign: cst.BitOr,
    cst.BitXorAssign: cst.BitXor,
}


def updated_value(statement: cst.AugAssign) -> cst.BinaryOperation:
    """`n * d` for `n *= d`: the value the statement binds its target to, made of the
    statement's own target and value (no node of it is new but the operation)."""
    operator = _BINARY_OF_AUGMENTED[type(statement.operator)]()
    return cst.BinaryOperation(left=statement.target, operator=operator, right=statement.value)


def written_items(value: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The items of a tuple, list or set written out (`(1, 2)`, `[1, 2]`, `{1, 2}`), none
    starred; None for anything else."""
    if not isinstance(value, (cst.Tuple, cst.List, cst.Set)) or not value.elements:
        return None
    if any(isinstance(element, cst.StarredElement) for element in value.elements):
        return None
    return [element.value for element in value.elements]


def names_read(node: cst.CSTNode, skipped: AbstractSet[int] = frozenset()) -> set[str]:
    """The variables `node` reads (`variables_read`) but for the names whose ids are `skipped`."""
    return {name.value for name in variables_read(node) if id(name) not in skipped}


def variables_read(node: cst.CSTNode) -> list[cst.Name]:
    """The names of variables `node` reads: not an attribute's name (`shape` in `x.shape`), a
    keyword, nor the function a call names (`int` in `int(x.shape[0])`). One pass, exact types:
    host readings ask it of many statements."""
    nodes = list(walk(node))
    labels: set[int] = set()
    for sub in nodes:
        if type(sub) is cst.Attribute:
            labels.add(id(sub.attr))
        elif type(sub) is cst.Arg and sub.keyword is not None:
            labels.add(id(sub.keyword))
        elif type(sub) is cst.Call:
            labels.add(id(sub.func))
    return [sub for sub in nodes if type(sub) is cst.Name and id(sub) not in labels]


def ordered_sides(
    left: cst.BaseExpression, operator: cst.BaseCompOp, right: cst.BaseExpression, holds: bool
) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """For one ordering comparison `left < right` (`<=`, `>`, `>=`) holding or, when `holds` is
    False, failing: (the smaller side, the larger); None for any other operator."""
    if isinstance(operator, (cst.LessThan, cst.LessThanEqual)):
        return (left, right) if holds else (right, left)
    if isinstance(operator, (cst.GreaterThan, cst.GreaterThanEqual)):
        return (right, left) if holds else (left, right)
    return None
