"""
## What it does
Flags `num_warps=` and `num_stages=` in Triton kernel launches (`kernel[grid](...)`),
`triton.Config(...)` (also inside comprehensions and helper functions that build config
lists), and dict literals splatted into a launch (`**{"num_warps": 4}`, or `**launch_kwargs`
when the dict literal is visible in the same function or module, or returned by a function
of the module).

## Why is this bad?
Ascend NPUs have no warps and Triton-Ascend does no software pipelining: both knobs are
ignored. Measured on triton-ascend 3.2, the TTIR and linalg output are byte-identical for
`(num_warps, num_stages)` = (4, 2), (8, 3), (1, 1); the values only land in metadata, and the
JIT prints `[WARNING] Please DO NOT tune args ['num_warps', 'num_stages']!`. Left in place
they look like tuning levers and make autotune spaces larger for nothing; the kernel
guidance is to delete them on Ascend paths.

## Example
```python
kernel[grid](x, y, N, BLOCK=1024, num_warps=4, num_stages=2)
configs = [triton.Config({"BT": bt}, num_warps=w) for bt in (32, 64) for w in (2, 4)]
```

## Use instead
```python
kernel[grid](x, y, N, BLOCK=1024)
configs = [triton.Config({"BT": bt}) for bt in (32, 64)]
```
Tune tiles, the grid, layout and the UB budget instead.

## Fix safety
Safe: the keywords (or dict entries) are removed; they have no effect on the compiled
kernel. A loop variable that only fed `num_warps` stays behind (then drop its loop by hand).
Words in comments and docstrings are never flagged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import libcst as cst

from ascend_lint.fixes import FixPlan, Replace
from ascend_lint.imports import string_value
from ascend_lint.rule import Confirm, Evidence, Example, HostIndex, ModuleContext, Report, Rule

_Item = TypeVar("_Item", cst.Arg, cst.BaseDictElement)

KNOBS = frozenset({"num_warps", "num_stages"})


class LaunchNumWarps(Rule):
    CODE = "ASC001"
    NAME = "launch-num-warps"
    SUMMARY = "`num_warps` / `num_stages` do nothing on Ascend; delete them"
    FIX = "safe"
    CONFIRM = Confirm({"compile": Evidence.LAUNCH_OPTION_IR}, "the option's effect is on the compiled kernel")
    REQUIRES_TEXT = tuple(KNOBS)

    VALID = (
        '''
def launch(x, y, N):
    """Do not pass num_warps=4 on Ascend."""  # num_stages=2 was for CUDA
    kernel[(N,)](x, y, N, BLOCK=1024)
''',
        """
def block_size(n_cols, num_warps=4):
    num_warps = 2 if n_cols <= 2048 else 4
    return num_warps
""",
        """
import torch
pipe = torch.distributed.pipelining.Schedule(model, num_stages=2)
""",
    )
    INVALID = (
        Example(
            """
def launch(x, y, N):
    kernel[(N,)](x, y, N, BLOCK=1024, num_warps=4)  # expect
""",
            fixed="""
def launch(x, y, N):
    kernel[(N,)](x, y, N, BLOCK=1024)
""",
        ),
        """
configs = [
    triton.Config({"BT": bt}, num_warps=w, num_stages=s)  # expect
    for bt in (32, 64) for w in (2, 4) for s in (1, 2)
]
""",
        """
def make_configs():
    return [triton.Config({"BT": 64}, num_stages=3)]  # expect
""",
        Example(
            """
def launch(x, N):
    kernel[(N,)](x, N, **{"num_warps": 4})  # expect
""",
            fixed="""
def launch(x, N):
    kernel[(N,)](x, N)
""",
        ),
        Example(
            """
def launch(x, N):
    launch_kwargs = {"BLOCK": 64, "num_stages": 2}  # expect
    kernel[(N,)](x, N, **launch_kwargs)
""",
            fixed="""
def launch(x, N):
    launch_kwargs = {"BLOCK": 64}
    kernel[(N,)](x, N, **launch_kwargs)
""",
        ),
        """
def launch_kwargs(n):
    return {"BLOCK": n, "num_warps": 4}  # expect

def launch(x, N):
    kernel[(N,)](x, N, **launch_kwargs(N))
""",
        """
LAUNCH = dict(num_warps=8)  # expect

def launch(x, N):
    kernel[(N,)](x, N, **LAUNCH)
""",
    )

    def check_module(self, context: ModuleContext) -> Iterator[Report]:
        host = context.host
        for call, scope in host.calls:
            if isinstance(call.func, cst.Subscript):
                yield from self._keywords(call, "launch")
                for arg in call.args:
                    if arg.star == "**":
                        for table in self._splatted_tables(arg.value, scope, host):
                            yield from self._entries(table, call if table is arg.value else None)
            elif context.imports.is_triton(call.func, "Config"):
                yield from self._keywords(call, "triton.Config")

    def _keywords(self, call: cst.Call, where: str) -> Iterator[Report]:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value in KNOBS:
                yield Report(
                    arg,
                    f"`{arg.keyword.value}` in a {where} has no effect on Ascend; delete it",
                    fix=FixPlan("safe", f"Remove `{arg.keyword.value}`", (Replace(call, _without_knobs(call)),)),
                    facts=_option_facts(arg.keyword.value, arg.value),
                )

    def _splatted_tables(
        self, value: cst.BaseExpression, scope: cst.FunctionDef | None, host: HostIndex, depth: int = 0
    ) -> Iterator[cst.Dict | cst.Call]:
        """Dict literals / `dict(...)` calls that a `**value` may splat: written inline, bound
        to a name in the same function or module, or returned by a module function."""
        if isinstance(value, cst.Dict) or (isinstance(value, cst.Call) and _is_dict_call(value)):
            yield value
        elif depth < 3 and isinstance(value, cst.Name):
            for bound in host.values_of(value.value, scope):
                yield from self._splatted_tables(bound, scope, host, depth + 1)
        elif depth < 3 and isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            for returned in host.returns.get(value.func.value, ()):
                yield from self._splatted_tables(returned, None, host, depth + 1)

    def _entries(self, table: cst.Dict | cst.Call, launch: cst.Call | None) -> Iterator[Report]:
        """Knob entries of a dict splatted into a launch (`launch` when written in its call)."""
        if isinstance(table, cst.Call):  # dict(num_warps=...)
            yield from self._keywords(table, "launch-kwargs dict")
            return
        change = Replace(launch, _without_knobs(launch)) if launch else Replace(table, _dict_without_knobs(table))
        for element in table.elements:
            key = _string_key(element) if isinstance(element, cst.DictElement) else None
            if isinstance(element, cst.DictElement) and key is not None and key in KNOBS:
                yield Report(
                    element,
                    f"`{key}` splatted into a launch has no effect on Ascend; delete it",
                    fix=FixPlan("safe", f"Remove `{key}`", (change,)),
                    facts=_option_facts(key, element.value),
                )


def _option_facts(option: str, value: cst.BaseExpression) -> dict[str, str | int]:
    """The option and, when written as an integer literal, its value."""
    if isinstance(value, cst.Integer):
        return {"option": option, "value": int(value.evaluated_value)}
    return {"option": option}


def _is_dict_call(node: cst.Call) -> bool:
    return isinstance(node.func, cst.Name) and node.func.value == "dict"


def _string_key(element: cst.DictElement) -> str | None:
    return string_value(element.key)


def _drop(items: Sequence[_Item], keep: Callable[[_Item], bool]) -> list[_Item]:
    """Items for which keep() holds, with the original last item's trailing comma kept."""
    kept = [item for item in items if keep(item)]
    if kept and items and kept[-1] is not items[-1]:
        kept[-1] = kept[-1].with_changes(comma=items[-1].comma)
    return kept


def _without_knobs(call: cst.Call) -> cst.Call:
    """The call without knob keywords, knob entries of dict literals splatted into it, and
    the `**{}` those leave empty."""
    args = [
        arg if (table := _splatted_literal(arg)) is None else arg.with_changes(value=_dict_without_knobs(table))
        for arg in call.args
    ]
    return call.with_changes(args=_drop(args, _keeps))


def _splatted_literal(arg: cst.Arg) -> cst.Dict | None:
    """The dict of a `**{...}` argument."""
    return arg.value if arg.star == "**" and isinstance(arg.value, cst.Dict) else None


def _keeps(arg: cst.Arg) -> bool:
    if (table := _splatted_literal(arg)) is not None:
        return bool(table.elements)
    return arg.keyword is None or arg.keyword.value not in KNOBS


def _dict_without_knobs(table: cst.Dict) -> cst.Dict:
    return table.with_changes(
        elements=_drop(table.elements, lambda e: not isinstance(e, cst.DictElement) or _string_key(e) not in KNOBS)
    )
