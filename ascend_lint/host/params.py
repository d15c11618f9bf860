"""What a call passes for a function's parameters: the parameters a call fills by position or
keyword (`passed_for`, a method's `self` and `Fn.apply`'s `ctx` left out), a default when it
passes none, the arm of `a if p == "x" else b` a literal argument picks, and the parameters a
helper forwards to the functions it calls."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from ..imports import int_literal, str_literal


def splatted_params(function: cst.FunctionDef, args: Sequence[cst.Arg]) -> set[str]:
    """The parameters of `function` that `args` splat (`**kw`)."""
    params = {p.name.value for p in all_params(function)}
    return {arg.value.value for arg in args if arg.star == "**" and isinstance(arg.value, cst.Name)} & params


def passed_on(call: cst.Call, callee: cst.FunctionDef, forwarded: frozenset[str], caller: cst.FunctionDef) -> set[str]:
    """The parameters of `caller` its call of `callee` passes for a forwarded parameter:
    by name (`launch(x, config)`), or splatted into a forwarded `**kwargs`."""
    params = {p.name.value for p in all_params(caller)}
    passed = {passed_for(call, callee, name) for name in forwarded}
    found = {value.value for value in passed if isinstance(value, cst.Name) and value.value in params}
    star = callee.params.star_kwarg
    if isinstance(star, cst.Param) and star.name.value in forwarded:
        found |= splatted_params(caller, call.args)
    return found


def add_forwarded(
    found: dict[str, tuple[cst.FunctionDef, frozenset[str]]], function: cst.FunctionDef, forwarded: set[str]
) -> bool:
    """Records that `function` forwards these parameters; whether that is new. Not for a
    wrapper recorded as forwarding what the function it wraps forwards (`_add_wrapper`)."""
    name = function.name.value
    held_function, previous = found.get(name, (function, frozenset()))
    if forwarded <= previous or held_function.name.value != name:
        return False
    found[name] = (function, previous | forwarded)
    return True


def first_param(params: cst.Parameters) -> str | None:
    positional = [*params.posonly_params, *params.params]
    return positional[0].name.value if positional else None


def all_params(function: cst.FunctionDef) -> list[cst.Param]:
    params = function.params
    extra = [p for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param]  # see `name_uses`
    return [*params.posonly_params, *params.params, *params.kwonly_params, *extra]


def is_name(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def param_named(function: cst.FunctionDef, name: str) -> cst.Param | None:
    return next((p for p in all_params(function) if p.name.value == name), None)


def passed_or_default(call: cst.Call, function: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    """What `call` passes for the parameter `name` of `function`, or its default when the call
    passes none and has no splat that could."""
    found = passed_for(call, function, name)
    param = param_named(function, name)
    if found is None and param is not None and param.default is not None and not any(a.star for a in call.args):
        found = param.default
    return found


def passed_for(call: cst.Call, function: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    """What a call of `function` passes for its parameter `name` (by keyword or position;
    a method called through an attribute, `self.f(a)` or `cls.f(a)`, is passed `self` / `cls`
    by Python)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    positional = positional_params(call, function)
    index = next((i for i, p in enumerate(positional) if p.name.value == name), None)
    args = [arg for arg in call.args if arg.keyword is None and not arg.star]
    if index is None or any(arg.star for arg in call.args[: index + 1]) or index >= len(args):
        return None
    return args[index].value


def positional_params(call: cst.Call, function: cst.FunctionDef) -> list[cst.Param]:
    """The parameters of `function` the call's positional arguments fill, in order: but a
    method's `self` when it is called through `self` (`self.f(a)`, `super().f(a)`), a
    classmethod's `cls` called through an attribute (`Ops.f(a)`, `cls.f(a)`), and the `ctx`
    of a `forward` called through `Fn.apply(a)`. A method's call through another name is one
    through its class (`Ops.f(op, a)`, `cls.f(op, a)`: the calls of a method are read through
    `self`, `cls` or the class's name, `HostIndex._reaches_class`), passed its `self` as the
    first argument."""
    positional = [*function.params.posonly_params, *function.params.params]
    func = call.func
    through_apply = isinstance(func, cst.Attribute) and func.attr.value == "apply" and function.name.value == "forward"
    first = [p.name.value for p in positional[:1]]
    bound = isinstance(func, cst.Attribute) and (
        through_apply
        or first == ["cls"]
        or (first == ["self"] and not (isinstance(func.value, cst.Name) and func.value.value != "self"))
    )
    return positional[1:] if bound else positional


def arm_for_call(value: cst.BaseExpression, call: cst.Call, function: cst.FunctionDef) -> cst.BaseExpression:
    """What `function` returns for `call` when it returns `a if p == "x" else b` on a
    parameter `p` the call passes (or leaves at its default) as a literal: the arm the test
    picks (`get_num_cores("cube")` returns the AI-core count of `... ["num_vectorcore"] if
    op_type == "vector" else ... ["num_aicore"]`); else `value`."""
    while isinstance(value, cst.IfExp):
        test = value.test
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
            break
        operator, compared = test.comparisons[0].operator, test.comparisons[0].comparator
        if not isinstance(operator, (cst.Equal, cst.NotEqual)) or not isinstance(test.left, cst.Name):
            break
        param = param_named(function, test.left.value)
        passed = passed_for(call, function, test.left.value) if param is not None else None
        if passed is None and param is not None and param.default is not None:
            passed = param.default
        literal = _literal(passed)
        if literal is None or _literal(compared) is None:
            break
        holds = (literal == _literal(compared)) == isinstance(operator, cst.Equal)
        value = value.body if holds else value.orelse
    return value


def _literal(node: cst.BaseExpression | None) -> str | int | None:
    """A string or integer literal's value."""
    text = str_literal(node)
    return text if text is not None else int_literal(node)
