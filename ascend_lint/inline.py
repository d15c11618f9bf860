"""A kernel body with the module's device functions it calls inlined, as Triton compiles it.

The tile model (`ascend_lint.tiles`) plans a kernel's UB from this body, so the tiles a
`@triton.jit` helper builds (its loads, `tl.dot` results, softmax temporaries) are planned at
the call site with the caller's arguments and constexprs. A call `y = f(a, B)` becomes:

    p·f = <argument>            # a parameter bound to an expression (once, in order)
    ... f's body, its own names written `name·f`, a parameter bound to a caller's name or
        literal read as that name, each `return e` an assignment `ret·f = e` (an `if` arm that
        returns takes the statements after the `if` into its other arm) ...
    y = ret·f                   # or `(ret0·f, ret1·f)` for a function returning pairs

A call in an `if` test is inlined before the `if` (before an `elif`, in the `else` arm it
becomes). A call stays a call (the tile model's elementwise fallback) when it is in another
statement's header (a loop's test or bounds, a `with` item), passes `*args`, leaves a parameter
unbound, or calls a function another module defines whose Triton names mean something else in
the kernel's module (`tl` another module there, or none: its other names are read as its
module's globals, constants, as in the kernel's), one that returns
from inside a loop or with different tuple lengths, that is already being inlined (recursion),
or that lies deeper than `MAX_DEPTH` helpers or past `MAX_STATEMENTS` inlined statements.

Every node of the statements made for a call the kernel's own code makes (the parameters'
bindings, the helper's copy, an argument read in place of its parameter there) maps to that
call (`Inlined.call_site`): a rule reporting what a helper's copy does in the kernel reports at
the kernel's call. The result in the kernel's statement (`ret·f` of `y = ret·f`) is written
where the call is (`Inlined.written`), and is the kernel's code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from .flow import Flow, call_argument
from .imports import dotted_name
from .nodes import child_nodes, code_fields, walk

if TYPE_CHECKING:
    from .kernels import Kernel

MAX_DEPTH = 4  # helpers calling helpers: deeper calls stay calls
MAX_STATEMENTS = 2000  # statements inlined into one kernel, at most
_PLAIN = (cst.Name, cst.Integer, cst.Float, cst.SimpleString)  # read in place of a parameter

_RESULT = "ret"  # a result's name: `ret·f`, `ret0·f`...
# node of the inlined body -> the source node it was made from; keyed by the node itself, not its
# id: the dict holds each node it names, so no id of a node freed meanwhile is reused for another
Origins = dict[cst.CSTNode, cst.CSTNode]


@dataclass(eq=False)
class Inlined:
    """A kernel's flow with the device functions it calls inlined (`Kernel.inlined`), and where
    each node of that body was written (none when nothing was inlined: the kernel's own flow)."""

    flow: Flow
    origins: Origins
    function: cst.FunctionDef
    # node made for a call of the kernel's own code -> that call (`call_site`)
    sites: dict[cst.CSTNode, cst.Call] = field(default_factory=dict)
    helpers: tuple[Kernel, ...] = ()  # the device functions inlined, each once

    def written(self, node: cst.CSTNode) -> cst.CSTNode:
        """The source node an inlined node was made from (itself when it is one)."""
        return self.origins.get(node, node)

    def call_site(self, node: cst.CSTNode) -> cst.Call | None:
        """The call in the kernel's own code whose inlining made `node` (a node of a helper's
        copy, a binding of its parameters, the copy of its result), through the helpers it
        calls; None for a node of the kernel's code."""
        return self.sites.get(node)

    def copy_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The node of the inlined body made from `node`, a node of the kernel's own code that
        a statement inlining a call rewrote (the `.to(...)` of `_row_off(i_bh, T).to(tl.int64)`,
        reading `ret·_row_off`); None for a node kept as written or not the kernel's."""
        return self._copies.get(node)

    @cached_property
    def _copies(self) -> dict[cst.CSTNode, cst.CSTNode]:
        copies: dict[cst.CSTNode, cst.CSTNode] = {}
        for made, original in self.origins.items():
            if original in self._own:
                copies.setdefault(original, made)
        return copies

    def function_of(self, node: cst.CSTNode) -> Kernel | None:
        """The device function an inlined node was copied from (None for the kernel's own)."""
        return self._functions.get(self.written(node))

    @cached_property
    def _functions(self) -> dict[cst.CSTNode, Kernel]:
        return {node: helper for helper in self.helpers for node in walk(helper.node)}

    def in_function(self, node: cst.CSTNode) -> bool:
        """Written in the kernel itself, not in a device function inlined into it."""
        return not self.origins or self.written(node) in self._own

    def in_source(self, node: cst.CSTNode) -> bool:
        """Written in the file (the kernel's or a device function's code), not made by the
        inlining (`p = ret·helper`, the statement holding an inlined call): only such nodes
        have a position."""
        return node in self.origins or self.in_function(node)

    @cached_property
    def _own(self) -> set[cst.CSTNode]:
        return set(walk(self.function))


def inline_device_functions(
    kernel: Kernel,
) -> tuple[cst.IndentedBlock, Origins, dict[cst.CSTNode, cst.Call], tuple[Kernel, ...]] | None:
    """The kernel's body with the device functions it calls inlined, where each new node comes
    from, the kernel's call each was made for (`Inlined.call_site`) and the device functions
    inlined; None when it calls none that can be."""
    body = kernel.node.body
    helpers = {k.name for k in kernel.module_kernels if k.is_device_function}
    helpers |= {
        name
        for event in kernel.flow.calls
        if (name := dotted_name(event.call.func)) is not None and kernel.device_functions_called(event.call)
    }
    if not helpers or not isinstance(body, cst.IndentedBlock):
        return None
    inliner = _Inliner(kernel, helpers)
    statements = inliner.block(body.body, kernel, ())
    if not inliner.inlined:
        return None
    return body.with_changes(body=statements), inliner.origins, inliner.sites, tuple(inliner.used)


def is_inlined(name: str) -> bool:
    """A name the inliner made (`p·f`, `ret·f`): no code written in the module reads it."""
    return "·" in name


def written_name(name: str) -> str:
    """The name as its function writes it (`p` of the inliner's `p·f`)."""
    return name.partition("·")[0]


def is_result(name: str) -> bool:
    """A name holding an inlined helper's returned value (`ret·f`, `ret0·f`...)."""
    head, separator, _ = name.partition("·")
    return bool(separator) and (head == _RESULT or (head.startswith(_RESULT) and head[len(_RESULT) :].isdigit()))


class _Inliner:
    def __init__(self, kernel: Kernel, helpers: set[str]) -> None:
        self.kernel = kernel
        self.helpers = helpers  # the names of the module's device functions
        self.origins: Origins = {}
        self.copies: dict[str, int] = {}  # helper name -> times inlined (each copy's names differ)
        self.inlined = 0  # statements inlined so far
        self.sites: dict[cst.CSTNode, cst.Call] = {}  # node made -> the kernel's call it was made for
        self.used: dict[Kernel, None] = {}  # the helpers inlined, in order

    def note_site(self, call: cst.Call, chain: tuple[str, ...], made: Sequence[cst.CSTNode]) -> None:
        """Maps every node made for a call of the kernel's own code (`chain` empty) to the call."""
        if chain:
            return
        for statement in made:
            for node in walk(statement):
                self.sites.setdefault(node, call)

    def block(
        self, body: Sequence[cst.BaseStatement], owner: Kernel, chain: tuple[str, ...]
    ) -> list[cst.BaseStatement]:
        """Statements of `owner` (the kernel, or a helper inlined through `chain`) with their calls inlined."""
        found: list[cst.BaseStatement] = []
        for statement in body:
            if isinstance(statement, cst.SimpleStatementLine):
                smalls = [self.small(small, owner, chain) for small in statement.body]
                if all(
                    len(lines) == 1 and lines[0] is small for lines, small in zip(smalls, statement.body, strict=True)
                ):
                    found.append(statement)
                else:
                    found.extend(line for lines in smalls for line in _lines(lines))
            else:
                found.extend(self.compound(statement, owner, chain))
        return found

    def compound(self, statement: cst.BaseStatement, owner: Kernel, chain: tuple[str, ...]) -> list[cst.BaseStatement]:
        """A compound statement with its calls inlined, after the bodies of the helpers its `if`
        test calls: `if _is_tail(i_t, NT, MODE):` tests `ret·_is_tail`, as `t = _is_tail(...)`
        then `if t:` does. An `elif` whose test calls one becomes an `else` arm running them
        first (the test runs only when the tests before it fail)."""
        if not isinstance(statement, (cst.If, cst.For, cst.While, cst.With, cst.Else)):
            return [statement]
        changes: dict[str, object] = {}
        prelude: list[cst.BaseStatement] = []
        if isinstance(statement, cst.If) and _calls(statement.test, self.helpers):
            replacer = _CallReplacer(self, owner, chain, prelude)
            test = statement.test.visit(replacer)
            if replacer.replaced:
                self.note_origins(replacer.made)
                changes["test"] = test
        body = self.suite(statement.body, owner, chain)
        if body is not statement.body:
            changes["body"] = body
        orelse = getattr(statement, "orelse", None)
        if orelse is not None:
            other = self.compound(orelse, owner, chain)
            if len(other) > 1:
                changes["orelse"] = cst.Else(cst.IndentedBlock(other))
            elif other[0] is not orelse:
                changes["orelse"] = other[0]
        if not changes:
            return [statement]
        copy = statement.with_changes(**changes)
        self.origins[copy] = self.origins.get(statement, statement)
        return [*prelude, copy]

    def suite(self, suite: cst.BaseSuite, owner: Kernel, chain: tuple[str, ...]) -> cst.BaseSuite:
        """The suite with its calls inlined (itself when none is); a one-line suite that
        inlines a call becomes an indented block."""
        lines = _arm_lines(suite)
        new = self.block(lines, owner, chain)
        if len(new) == len(lines) and all(a is b for a, b in zip(new, lines, strict=True)):
            return suite
        return suite.with_changes(body=new) if isinstance(suite, cst.IndentedBlock) else cst.IndentedBlock(new)

    def small(
        self, small: cst.BaseSmallStatement, owner: Kernel, chain: tuple[str, ...]
    ) -> list[cst.BaseSmallStatement | cst.BaseStatement]:
        """A small statement, preceded by the bodies of the helpers it calls."""
        if not isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr, cst.Return)) or not _calls(
            small, self.helpers
        ):
            return [small]
        targets = _target_names(small)  # `a, b = f(...)`: the call is the whole value
        call = small.value if targets and isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) else None
        helper = self.helper_of(call, owner, chain) if call is not None else None
        if call is not None and helper is not None and isinstance(small, cst.Assign):
            inlined = self.inline(call, helper, owner, chain, targets)
            if inlined is not None:
                statements, result = inlined
                self.note_site(call, chain, statements)
                if result is None:
                    return list(statements)  # the helper's returned names are the targets
                assigned = small.with_changes(value=result)
                self.origins[assigned] = small
                self.origins[result] = call  # the value as written: the call
                return [*statements, assigned]
        prelude: list[cst.BaseStatement] = []
        replacer = _CallReplacer(self, owner, chain, prelude)
        replaced = small.visit(replacer)
        if not replacer.replaced:
            return [small]
        assert isinstance(replaced, cst.BaseSmallStatement)
        self.note_origins(replacer.made)
        return [*prelude, replaced]

    def note_origins(self, made: Origins) -> None:
        for key, original in made.items():
            self.origins[key] = self.origins.get(original, original)

    def helper_of(self, call: cst.Call, owner: Kernel, chain: tuple[str, ...]) -> Kernel | None:
        if len(chain) >= MAX_DEPTH or self.inlined >= MAX_STATEMENTS or any(arg.star for arg in call.args):
            return None
        helpers = owner.device_functions_called(call)
        if len(helpers) != 1 or helpers[0].name in chain:
            return None  # several definitions, or recursion
        helper = helpers[0]
        if helper not in self.kernel.module_kernels and not _same_triton_names(helper, self.kernel):
            return None  # a function imported whose Triton names mean something else here
        if not isinstance(helper.node.body, cst.IndentedBlock) or any(
            p.star for p in (helper.node.params.star_arg, helper.node.params.star_kwarg) if isinstance(p, cst.Param)
        ):
            return None
        return helper

    def inline(
        self, call: cst.Call, helper: Kernel, owner: Kernel, chain: tuple[str, ...], targets: list[str] | None = None
    ) -> tuple[list[cst.BaseStatement], cst.BaseExpression | None] | None:
        """The statements running `helper`'s body for `call`, and the expression of its result;
        None for it when the call assigns `targets` the names of the helper's own its last
        statement returns: the body computes them under the targets' names (`acc, l_i = f(acc,
        l_i, ...)` ending in `return acc, l_i`). A copy `acc = acc·f` would hold one of the
        values a loop in `f` may leave in `acc·f` (a copy takes its source's first definition)."""
        body = helper.node.body
        assert isinstance(body, cst.IndentedBlock)
        arity = _returned_arity(body.body)
        if arity is None:
            return None
        arguments: dict[str, cst.BaseExpression] = {}
        for position, param in enumerate(helper.params):
            argument = call_argument(call, position, param.name)
            if argument is None and param.node.default is not None:
                argument = param.node.default
            if argument is None:
                return None
            arguments[param.name] = argument
        copy = self.copies.get(helper.name, 0) + 1
        self.copies[helper.name] = copy
        self.used[helper] = None
        suffix = f"·{helper.name}" + (
            f"·{copy}" if copy > 1 else ""
        )  # `·`: valid in names, in none written (`is_inlined`)
        names = {*helper.flow.defs, *arguments}
        reassigned = {name for name in arguments if len(helper.flow.defs.get(name, ())) > 1}
        substituted = {
            name: value for name, value in arguments.items() if name not in reassigned and isinstance(value, _PLAIN)
        }
        renames = {name: name + suffix for name in names if name not in substituted}
        statements_of_body = list(body.body)
        returned = _returned_names(statements_of_body)
        read_in_place = {value.value for value in substituted.values() if isinstance(value, cst.Name)}
        into_targets = (
            targets is not None
            and len(returned) == len(targets)
            and all(name in renames for name in returned)
            and len(set(returned)) == len(returned)
            and not read_in_place & set(targets)
        )
        if into_targets and targets is not None:
            renames.update(zip(returned, targets, strict=True))
            statements_of_body = statements_of_body[:-1]
        results = [cst.Name(f"{_RESULT}{i if arity > 1 else ''}{suffix}") for i in range(max(arity, 1))]
        bindings: list[cst.BaseStatement] = [
            cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(renames[name]))], value)])
            for name, value in arguments.items()
            # `p_x = p_x` when the parameter is computed under the caller's name: no binding
            if name not in substituted and not (isinstance(value, cst.Name) and value.value == renames[name])
        ]
        made: Origins = {}
        copier = _Copier(renames, substituted, made)
        renamed = [copier.copy(s) for s in _without_returns(statements_of_body, results)]
        self.note_origins(made)
        self.inlined += len(renamed)
        statements = self.block(bindings, owner, chain)  # the arguments are the caller's
        statements += self.block(
            [s for s in renamed if isinstance(s, cst.BaseStatement)], helper, (*chain, helper.name)
        )
        if into_targets:
            return statements, None
        if arity == 0:
            return statements, cst.Name("None")
        # the result read afresh (the names of `ret·f = e` are its definition)
        if arity == 1:
            return statements, cst.Name(results[0].value)
        return statements, cst.Tuple([cst.Element(cst.Name(r.value)) for r in results])


class _CallReplacer(cst.CSTTransformer):
    """Replaces each outermost call of an inlinable device function by its result expression,
    putting the statements that compute it in `prelude`."""

    def __init__(
        self, inliner: _Inliner, owner: Kernel, chain: tuple[str, ...], prelude: list[cst.BaseStatement]
    ) -> None:
        self.inliner, self.owner, self.chain, self.prelude = inliner, owner, chain, prelude
        self.replaced = False
        self.made: Origins = {}
        self.pending: dict[int, tuple[list[cst.BaseStatement], cst.BaseExpression]] = {}

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        helper = self.inliner.helper_of(node, self.owner, self.chain)
        inlined = self.inliner.inline(node, helper, self.owner, self.chain) if helper is not None else None
        if inlined is None or inlined[1] is None:  # (without targets, a call always has a result)
            return True
        self.inliner.note_site(node, self.chain, inlined[0])
        self.pending[id(node)] = (inlined[0], inlined[1])
        return False

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        inlined = self.pending.pop(id(original_node), None)
        if inlined is not None:
            statements, result = inlined
            self.prelude.extend(statements)
            self.replaced = True
            self.made[result] = original_node  # the value as written: the call
            return result
        if updated_node is not original_node:
            self.made[updated_node] = original_node
        return updated_node


class _Copier:
    """Fresh copies of a helper's nodes (each read of a name is its own event), its names
    renamed and the parameters read in place of their arguments replaced by fresh copies of the
    arguments; `made` maps each new node to the node it copies. Only the fields that hold code
    are copied: whitespace, parentheses and operators are shared (`nodes.child_nodes`)."""

    def __init__(
        self, renames: Mapping[str, str], substituted: Mapping[str, cst.BaseExpression], made: Origins
    ) -> None:
        self.renames, self.substituted, self.made = renames, substituted, made

    def copy(self, node: cst.CSTNode) -> cst.CSTNode:
        kind = type(node)
        copy: cst.CSTNode
        if type(node) is cst.Name:
            name = node.value
            if name in self.substituted:  # in the parameter's brackets: `if(FLAG):` needs them
                fresh = _fresh(self.substituted[name], self.made)
                return fresh.with_changes(lpar=node.lpar, rpar=node.rpar) if node.lpar and not fresh.lpar else fresh
            copy = node.with_changes(value=self.renames.get(name, name))
        else:
            changes: dict[str, object] = {}
            for field in code_fields(kind):
                if (kind is cst.Attribute and field == "attr") or (kind is cst.Arg and field == "keyword"):
                    continue  # an attribute's name, a keyword: no variable
                value = getattr(node, field)
                if isinstance(value, cst.CSTNode):
                    changes[field] = self.copy(value)
                elif type(value) is tuple or type(value) is list:
                    changes[field] = tuple(self.copy(item) if isinstance(item, cst.CSTNode) else item for item in value)
            copy = node.with_changes(**changes)
        self.made[copy] = node
        return copy


def _fresh(node: cst.BaseExpression, made: Origins) -> cst.BaseExpression:
    """A copy of an expression made of new nodes (each read of a name is its own event)."""
    copy = _Copier({}, {}, made).copy(node)
    assert isinstance(copy, cst.BaseExpression)
    return copy


def _same_triton_names(helper: Kernel, kernel: Kernel) -> bool:
    """Whether every Triton name the imported `helper` uses (`tl`, `triton.language`) means
    the same in the kernel's module: its code then reads the same there."""
    heads = helper.imports.local_names
    used = {node.value for node in walk(helper.node.body) if type(node) is cst.Name and node.value in heads}
    theirs, ours = helper.imports.aliases, kernel.imports.aliases
    return all(
        {k: v for k, v in theirs.items() if k.split(".")[0] == head}
        == {k: v for k, v in ours.items() if k.split(".")[0] == head}
        for head in used
    )


def _calls(node: cst.CSTNode, names: set[str]) -> bool:
    """Whether the code calls a function by one of these (dotted) names."""
    pending = [node]
    while pending:
        current = pending.pop()
        if type(current) is cst.Call and dotted_name(current.func) in names:
            return True
        pending.extend(child_nodes(current))
    return False


def _target_names(small: cst.BaseSmallStatement) -> list[str] | None:
    """The names `a` or `a, b` a call's result is assigned to (`a, b = f(...)`), or None."""
    if not isinstance(small, cst.Assign) or len(small.targets) != 1 or not isinstance(small.value, cst.Call):
        return None
    target = small.targets[0].target
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, cst.Tuple) and all(isinstance(e.value, cst.Name) for e in target.elements):
        return [e.value.value for e in target.elements if isinstance(e.value, cst.Name)]
    return None


def _returned_names(body: list[cst.BaseStatement]) -> list[str]:
    """The names `return a` or `return a, b` gives when it is the body's only `return`, its
    last statement; none otherwise."""
    if not body or sum(len(_returns(statement)) for statement in body) != 1:
        return []
    last = body[-1]
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return)):
        return []
    value = last.body[0].value
    parts = [e.value for e in value.elements] if isinstance(value, cst.Tuple) else [value]
    return (
        [part.value for part in parts if isinstance(part, cst.Name)]
        if all(isinstance(p, cst.Name) for p in parts)
        else []
    )


def _lines(parts: list[cst.BaseSmallStatement | cst.BaseStatement]) -> list[cst.BaseStatement]:
    return [part if isinstance(part, cst.BaseStatement) else cst.SimpleStatementLine([part]) for part in parts]


def _returns(node: cst.CSTNode) -> list[cst.Return]:
    found: list[cst.Return] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Return):
            found.append(current)
        elif not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.BaseExpression)):
            pending.extend(child_nodes(current))
    return found


def _returned_arity(body: Sequence[cst.BaseStatement]) -> int | None:
    """How many values every `return` gives (0: none, or bare returns); None when they differ,
    or a loop, `with` or `try` returns (no statement after it could take the rest)."""
    if any(_returns_from_block(statement) for statement in body):
        return None
    arities = {
        0 if r.value is None else len(r.value.elements) if isinstance(r.value, cst.Tuple) else 1
        for statement in body
        for r in _returns(statement)
    }
    if len(arities) > 1:
        return None
    return arities.pop() if arities else 0


def _returns_from_block(statement: cst.CSTNode) -> bool:
    """A `return` inside a loop, `with` or `try` (through the arms of `if`s)."""
    if isinstance(statement, (cst.For, cst.While, cst.With, cst.Try)):
        return bool(_returns(statement))
    if isinstance(statement, (cst.If, cst.Else, cst.IndentedBlock)):
        return any(_returns_from_block(child) for child in child_nodes(statement))
    return False


def _without_returns(statements: list[cst.BaseStatement], results: list[cst.Name]) -> list[cst.BaseStatement]:
    """The statements with each `return e` an assignment of `e` to the result names; an `if`
    that returns takes the statements after it into its arms (what follows a return is dropped)."""
    found: list[cst.BaseStatement] = []
    for index, statement in enumerate(statements):
        if isinstance(statement, cst.SimpleStatementLine) and any(isinstance(s, cst.Return) for s in statement.body):
            for small in statement.body:
                if isinstance(small, cst.Return):
                    if small.value is not None:
                        found.append(cst.SimpleStatementLine([_assign_results(results, small.value)]))
                    return found
                found.append(cst.SimpleStatementLine([small]))
        if isinstance(statement, cst.If) and _returns(statement):
            found.append(_if_without_returns(statement, statements[index + 1 :], results))
            return found
        found.append(statement)
    return found


def _if_without_returns(statement: cst.If, rest: list[cst.BaseStatement], results: list[cst.Name]) -> cst.If:
    orelse = statement.orelse
    if isinstance(orelse, cst.If):
        other: cst.If | cst.Else = _if_without_returns(orelse, rest, results)
    else:
        arm = _arm_lines(orelse.body) if orelse is not None else []
        other = cst.Else(
            cst.IndentedBlock(_without_returns(arm + rest, results) or [cst.SimpleStatementLine([cst.Pass()])])
        )
    new_body = _without_returns(_arm_lines(statement.body) + rest, results)
    return statement.with_changes(
        body=cst.IndentedBlock(new_body or [cst.SimpleStatementLine([cst.Pass()])]), orelse=other
    )


def _arm_lines(suite: cst.BaseSuite) -> list[cst.BaseStatement]:
    """A suite's statements; a one-line suite's small statements as one line."""
    if isinstance(suite, cst.SimpleStatementSuite):
        return [cst.SimpleStatementLine(suite.body)]
    assert isinstance(suite, cst.IndentedBlock)
    return list(suite.body)


def _assign_results(results: list[cst.Name], value: cst.BaseExpression) -> cst.Assign:
    if len(results) == 1:
        return cst.Assign([cst.AssignTarget(results[0])], value)
    return cst.Assign([cst.AssignTarget(cst.Tuple([cst.Element(r) for r in results]))], value)
