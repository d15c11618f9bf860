"""Finding Triton kernels in a module and what their decorators say about specialisation."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from .imports import ImportMap, string_value

if TYPE_CHECKING:
    from .flow import Flow


@dataclass
class Param:
    name: str
    annotation: str | None  # "constexpr", another annotation's code, or None
    node: cst.Param

    @property
    def is_constexpr(self) -> bool:
        return self.annotation == "constexpr"


@dataclass
class Kernel:
    """A `@triton.jit` function with the facts its signature and decorators give."""

    node: cst.FunctionDef
    imports: ImportMap
    params: list[Param]
    do_not_specialize: frozenset[str]
    # constexpr names provided by @triton.heuristics / autotune configs, with the heuristic
    # lambda (or None for autotune keys).
    provided_constexprs: dict[str, cst.Lambda | None] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.node.name.value

    @cached_property
    def flow(self) -> Flow:
        """The kernel body's events, control flow and value facts (built on first use)."""
        from .flow import build_flow

        return build_flow(self)

    @cached_property
    def optional_pointer_flags(self) -> dict[str, set[str]]:
        """Pointer params a heuristic tests against None -> the constexpr flags it sets."""
        flags: dict[str, set[str]] = {}
        for flag, fn in self.provided_constexprs.items():
            if fn is None:
                continue
            for pointer in _none_tested_args(fn):
                flags.setdefault(pointer, set()).add(flag)
        return flags


def find_kernels(module: cst.Module, imports: ImportMap) -> list[Kernel]:
    """Module-level (and class-level) functions decorated with triton.jit."""
    kernels = []
    for statement in _function_candidates(module.body):
        kernel = _as_kernel(statement, imports)
        if kernel is not None:
            kernels.append(kernel)
    return kernels


def _function_candidates(body: Sequence[cst.CSTNode]) -> Iterator[cst.FunctionDef]:
    for statement in body:
        if isinstance(statement, cst.FunctionDef) and statement.decorators:
            yield statement
        elif isinstance(statement, (cst.If, cst.ClassDef)):
            yield from _function_candidates(statement.body.body)


def _as_kernel(fn: cst.FunctionDef, imports: ImportMap) -> Kernel | None:
    jit_decorator = None
    provided: dict[str, cst.Lambda | None] = {}
    for decorator in fn.decorators:
        target = decorator.decorator
        call = target if isinstance(target, cst.Call) else None
        callee = call.func if call else target
        if imports.is_triton(callee, "jit"):
            jit_decorator = decorator
        elif call and imports.is_triton(callee, "heuristics"):
            provided.update(_heuristics(call))
        elif call and imports.is_triton(callee, "autotune"):
            provided.update(dict.fromkeys(_autotune_keys(call, imports)))
    if jit_decorator is None:
        return None
    params = [_param(p) for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)]
    return Kernel(
        node=fn,
        imports=imports,
        params=params,
        do_not_specialize=_do_not_specialize(jit_decorator.decorator, params),
        provided_constexprs=provided,
    )


def _param(node: cst.Param) -> Param:
    annotation = None
    if node.annotation is not None:
        expr = node.annotation.annotation
        text = string_value(expr)
        if text is None:
            text = cst.Module([]).code_for_node(expr)
        annotation = "constexpr" if text.split(".")[-1] == "constexpr" else text
    return Param(node.name.value, annotation, node)


def _keyword(call: cst.Call, name: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    return None


def _do_not_specialize(decorator: cst.BaseExpression, params: list[Param]) -> frozenset[str]:
    if not isinstance(decorator, cst.Call):
        return frozenset()
    listed = _keyword(decorator, "do_not_specialize")
    if not isinstance(listed, (cst.List, cst.Tuple)):
        return frozenset()
    names = set()
    for element in listed.elements:
        value = element.value
        if (text := string_value(value)) is not None:
            names.add(text)
        elif isinstance(value, cst.Integer) and int(value.value) < len(params):
            names.add(params[int(value.value)].name)
    return frozenset(names)


def _heuristics(call: cst.Call) -> dict[str, cst.Lambda | None]:
    table = call.args[0].value if call.args else None
    if isinstance(table, cst.Dict):
        return {
            key: element.value if isinstance(element.value, cst.Lambda) else None
            for element in table.elements
            if isinstance(element, cst.DictElement) and (key := string_value(element.key)) is not None
        }
    return {}


def _autotune_keys(call: cst.Call, imports: ImportMap) -> set[str]:
    """Keys of the `triton.Config({...})` dicts written inline in `configs=`."""
    configs = _keyword(call, "configs") or (call.args[0].value if call.args else None)
    keys: set[str] = set()
    stack = [configs] if configs is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and imports.is_triton(node.func, "Config") and node.args:
            table = node.args[0].value
            if isinstance(table, cst.Dict):
                keys.update(
                    key
                    for e in table.elements
                    if isinstance(e, cst.DictElement) and (key := string_value(e.key)) is not None
                )
        elif isinstance(node, (cst.List, cst.Tuple)):
            stack.extend(e.value for e in node.elements)
        elif isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            stack.append(node.elt)
    return keys


def _none_tested_args(fn: cst.Lambda) -> set[str]:
    """`args['h0']` names compared with None in a heuristic lambda."""
    found = set()
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Comparison) and any(
            isinstance(t.comparator, cst.Name) and t.comparator.value == "None" for t in node.comparisons
        ):
            subject = node.left
            if (
                isinstance(subject, cst.Subscript)
                and len(subject.slice) == 1
                and isinstance(subject.slice[0].slice, cst.Index)
                and (key := string_value(subject.slice[0].slice.value)) is not None
            ):
                found.add(key)
        stack.extend(node.children)
    return found
