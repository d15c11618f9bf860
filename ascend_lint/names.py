"""Names a fix reads that nothing binds: the fixer's last check before it writes.

A name read in the fixed text resolves when it is bound before the read in its own scope (or
anywhere in a comprehension or lambda, whose bindings come first), anywhere in an enclosing
function or the module, or is a builtin. "Before" is in evaluation order (`x = x + 1` reads
`x` before binding it), so a name a fix binds only after its first read — even in a loop,
where the first iteration would fail — does not resolve. A module with `from x import *`
resolves every name (its bindings cannot be known).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

_BUILTINS = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__spec__", "__builtins__"}
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_ORDERLESS = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass
class _Scope:
    node: ast.AST
    parent: _Scope | None
    bound: dict[str, int] = field(default_factory=dict)  # name -> when it is first bound
    declared_global: set[str] = field(default_factory=set)


def unresolved(tree: ast.Module, reads: list[ast.Name]) -> list[str]:
    """The names among `reads` (Name nodes of `tree`) that no binding reaches."""
    scopes = _Binder(tree)
    if scopes.star_import:
        return []
    return [read.id for read in reads if not scopes.resolves(read)]


def name_reads(tree: ast.AST) -> Iterator[ast.Name]:
    return (node for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load))


class _Binder(ast.NodeVisitor):
    """Every scope of a module, when each name is first bound in it, and when each name is read."""

    def __init__(self, tree: ast.Module):
        self.module = _Scope(tree, None)
        self.scope = self.module
        self.reads: dict[int, tuple[_Scope, int]] = {}  # id(Name read) -> its scope, when it is read
        self.clock = 0  # counts reads and bindings in evaluation order
        self.star_import = False
        self.visit(tree)

    def resolves(self, read: ast.Name) -> bool:
        scope, when = self.reads[id(read)]
        name = read.id
        if name in scope.declared_global:
            return name in self.module.bound or name in _BUILTINS
        bound = scope.bound.get(name)
        if bound is not None and (bound < when or isinstance(scope.node, _ORDERLESS)):
            return True
        outer = scope.parent
        while outer is not None:
            if not isinstance(outer.node, ast.ClassDef) and name in outer.bound:
                return True
            outer = outer.parent
        return name in _BUILTINS

    def _enter(self, node: ast.AST, visit_inside: Callable[[], object]) -> None:
        outer = self.scope
        self.scope = _Scope(node, outer)
        visit_inside()
        self.scope = outer

    def _bind(self, name: str, scope: _Scope | None = None) -> None:
        self.clock += 1
        scope = scope or self.scope
        if name in scope.declared_global:
            scope = self.module
        scope.bound.setdefault(name, self.clock)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.clock += 1
            self.reads[id(node)] = (self.scope, self.clock)
        else:
            self._bind(node.id)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        if not isinstance(node, ast.Lambda):
            for decorator in node.decorator_list:
                self.visit(decorator)
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        for default in [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]:
            self.visit(default)
        for annotation in [*(a.annotation for a in every if a is not None), getattr(node, "returns", None)]:
            if annotation is not None:
                self.visit(annotation)
        if not isinstance(node, ast.Lambda):
            self._bind(node.name)

        def inside() -> None:
            for argument in every:
                if argument is not None:
                    self._bind(argument.arg)
            for statement in node.body if isinstance(node.body, list) else [node.body]:
                self.visit(statement)

        self._enter(node, inside)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for expression in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]:
            self.visit(expression)
        self._bind(node.name)
        self._enter(node, lambda: [self.visit(statement) for statement in node.body])

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) -> None:
        self.visit(node.generators[0].iter)  # evaluated in the enclosing scope

        def inside() -> None:
            for index, generator in enumerate(node.generators):
                self.visit(generator.target)
                if index:
                    self.visit(generator.iter)
                for condition in generator.ifs:
                    self.visit(condition)
            for part in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
                self.visit(part)

        self._enter(node, inside)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        scope = self.scope
        while isinstance(scope.node, _ORDERLESS) and not isinstance(scope.node, ast.Lambda) and scope.parent:
            scope = scope.parent  # a walrus in a comprehension binds in the enclosing function
        self._bind(node.target.id, scope)

    def visit_Global(self, node: ast.Global) -> None:
        self.scope.declared_global.update(node.names)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        for name in node.names:
            self._bind(name)

    def _imports(self, node: ast.Import | ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name == "*":
                self.star_import = True
            else:
                self._bind(alias.asname or alias.name.split(".")[0])

    visit_Import = visit_ImportFrom = _imports

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self._bind(node.name)
        for statement in node.body:
            self.visit(statement)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.visit(node.annotation)
        if node.value is not None:
            self.visit(node.value)
            self.visit(node.target)
        elif not isinstance(node.target, ast.Name):
            self.visit(node.target)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)  # `x = x + 1` reads x before binding it
        for target in node.targets:
            self.visit(target)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        self.visit(node.target)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.iter)
        self.visit(node.target)
        for statement in [*node.body, *node.orelse]:
            self.visit(statement)

    visit_AsyncFor = visit_For

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        self.generic_visit(node)
        if node.name:
            self._bind(node.name)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self._bind(node.name)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        self.generic_visit(node)
        if node.rest:
            self._bind(node.rest)
