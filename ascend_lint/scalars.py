"""What an unannotated scalar parameter holds: a float or (assumed) an int, from evidence.

Measured on triton-ascend 3.2 (docs/specialisation.md): the JIT specialises an int argument
equal to 1 into a constexpr; floats (1.0 included), bools and other ints are never
specialised. So `.to()` on a scalar parameter can only fail when it is an int. Evidence that
it is a float:

- host side, in the same module (or, for a kernel only other modules of the package launch,
  in those: `HostIndex.passed_values`): a launch passes a float literal, `float(...)`, arithmetic
  with a float or a true division, or a name or parameter that is one (its default, its
  `float` annotation, what the module's callers pass);
- the kernel's own signature: a float default (`eps=1e-6`), when a launch may leave the
  parameter to it (no launch shows, or one passes nothing visible for it); a parameter every
  launch passes is what they pass (`k[grid](x, n, 1)` gives `eps` the int 1 whatever its
  default), as is a device function's every call of the module passes (a rule may still
  let a launch passing the int 1, `HostIndex.one_passed`, win over any of this);
- kernel side: every use of the parameter but its `.to()` casts is float arithmetic (an
  operand next to a float value: a float literal, a cast to a float dtype, `b` of
  `b = tl.load(p).to(tl.float32)`; or the argument of a float math function such as
  `tl.exp`), and there is one;
- for a device function, a call in the module passing a parameter of its caller that is a
  float by this evidence (Triton inlines the function with the caller's value).
"""

from __future__ import annotations

import libcst as cst

from .flow import READ, Event
from .host import HostIndex, is_float, passed_for
from .host.dtypes import FLOAT_DTYPES
from .kernels import MAX_CALLERS_DEEP, Kernel
from .nodes import NAMES_FOLLOWED, one_line

_FLOAT_MATH = ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sigmoid", "sin", "cos", "fdiv", "div_rn")


def float_evidence(kernel: Kernel, param: str, host: HostIndex, hops: int = 0) -> str | None:
    """Why the scalar parameter is a float, or None when nothing says so."""
    passed = host.float_passed(kernel, param)
    if passed is not None:
        return f"{passed.where} {passed.why}"
    default = _float_default(kernel, param, host)
    if default is not None:
        return default
    reads = [e for e in kernel.flow.events if e.kind == READ and e.name == param and not e.metadata]
    uses = [read for read in reads if not _cast(kernel, read)]
    if uses and all(_float_use(kernel, read) for read in uses):
        return f"`{param}` is only used in float arithmetic"
    if not kernel.passed_flags or hops >= MAX_CALLERS_DEEP:
        return None
    for caller, call in kernel.calls_in_module():
        argument = passed_for(call, kernel.node, param)
        if isinstance(argument, cst.Name) and any(p.name == argument.value for p in caller.params):
            why = float_evidence(caller, argument.value, host, hops + 1)
            if why is not None:
                return f"`{caller.name}` passes its `{argument.value}`, where {why}"
    return None


def _float_default(kernel: Kernel, param: str, host: HostIndex) -> str | None:
    """The parameter's own float default (`eps=1e-6` in the kernel's signature), when a launch
    (for a device function, a call of the module) may leave the parameter to it: none shows,
    or one passes nothing visible for it (left out, or in a splat). When every one passes it,
    the default never reaches the kernel: what they pass decides."""
    declared = next((p for p in kernel.params if p.name == param), None)
    default = declared.node.default if declared is not None else None
    if default is None or not is_float(default):
        return None
    if kernel.passed_flags:
        calls = kernel.calls_in_module()
        if calls and all(passed_for(call, kernel.node, param) is not None for _, call in calls):
            return None
    else:
        values = host.passed_values(kernel, param)
        if values and all(passed is not None for _, _, passed in values):
            return None
    return f"`{param}` defaults to the float `{one_line(default)}`"


def _cast(kernel: Kernel, read: Event) -> bool:
    """The read is the receiver of a `.to(...)`."""
    parent = kernel.flow.parents.get(read.node)
    return isinstance(parent, cst.Attribute) and parent.attr.value == "to"


def _float_use(kernel: Kernel, read: Event) -> bool:
    """The read is an operand beside a float value (`_float_value`), or a float math function's
    argument."""
    parent = kernel.flow.parents.get(read.node)
    if isinstance(parent, cst.BinaryOperation):
        other = parent.right if parent.left is read.node else parent.left
        return _float_value(kernel, other)
    if isinstance(parent, cst.Arg):
        call = kernel.flow.parents.get(parent)
        return isinstance(call, cst.Call) and kernel.imports.is_tl(call.func, *_FLOAT_MATH)
    return False


def _float_value(kernel: Kernel, node: cst.BaseExpression, hops: int = 0) -> bool:
    """A float literal, a cast to a float dtype (`x.to(tl.float32)`, `tl.cast(x, tl.bfloat16)`),
    or a name every definition reaching it binds one (`b = tl.load(p).to(tl.float32)`)."""
    if _float_literal(node):
        return True
    flow = kernel.flow
    if isinstance(node, cst.Call):
        parts = flow.cast_parts(node)
        return parts is not None and kernel.imports.language_name(parts[1]) in FLOAT_DTYPES
    if isinstance(node, cst.Name) and hops < NAMES_FOLLOWED:
        values = flow.values_reaching(node, None)
        return bool(values) and all(value is not None and _float_value(kernel, value, hops + 1) for value in values)
    return False


def _float_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation):
        return _float_literal(node.expression)
    return isinstance(node, cst.Float)
