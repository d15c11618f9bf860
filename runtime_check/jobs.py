"""Replay jobs: a finding, the kernel it belongs to and that kernel's captured launches.

Matching a finding to launches uses the finding's position in its file:
- inside a kernel's ``def`` or its decorators (``triton.autotune`` configs): every captured
  launch of that kernel;
- inside a function that kernels of the same file call (a ``@triton.jit`` helper): the launches
  of those kernels;
- anywhere else (a host wrapper): the launches made from the statement holding the finding;
  none when the finding is inside a launch call (``_launch_calls``) the workload never made;
- else, for a finding about a launch option (its ``option`` fact, e.g. on a ``**kwargs`` dict):
  launches from the same file that passed that option.

A finding inside a ``@triton.jit`` function (or its decorators) whose kernel the workload never
launched matches nothing: another kernel's launches are no evidence about it.
"""

from __future__ import annotations

import ast
import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_lint.model import Finding, LineIndex
from ascend_lint.rule import Evidence
from ascend_lint.socs import DEFAULT_SOC

from .capture.launches import Capture, KernelRef, Launch, distinct
from .capture.workload import Workload
from .device import DEFAULT_MODEL
from .targets import CompileTarget, compile_target
from .verdicts import finding_from_json, finding_to_json


@dataclass
class ReplayJob:
    """Everything a backend needs to judge one finding, in a form that crosses processes."""

    finding: Finding
    backend: str
    evidence: Evidence
    workload: Workload
    kernel: KernelRef | None = None
    launches: list[Launch] = field(default_factory=list)
    device: str = DEFAULT_MODEL  # the simulated Ascend model (ignored on a real NPU)
    soc: str = DEFAULT_SOC.name  # the finding's file's `target-soc` family
    timeout: float | None = None  # seconds the replay allows a workload run of its own (interpret)

    def compile_target(self) -> CompileTarget:
        """The chip the compile backend compiles the finding's kernel for."""
        return compile_target(self.soc, self.device)

    def to_json(self) -> dict[str, Any]:
        return {
            "finding": finding_to_json(self.finding),
            "backend": self.backend,
            "evidence": self.evidence.value,
            "workload": self.workload.to_json(),
            "kernel": vars(self.kernel) if self.kernel else None,
            "launches": [x.to_json() for x in self.launches],
            "device": self.device,
            "soc": self.soc,
            "timeout": self.timeout,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReplayJob:
        return cls(
            finding=finding_from_json(data["finding"]),
            backend=data["backend"],
            evidence=Evidence(data["evidence"]),
            workload=Workload.from_json(data["workload"]),
            kernel=KernelRef(**data["kernel"]) if data["kernel"] else None,
            launches=[Launch.from_json(x) for x in data["launches"]],
            device=data["device"],
            soc=data["soc"],
            timeout=data.get("timeout"),
        )


@dataclass(frozen=True)
class _Span:
    name: str
    first_row: int
    last_row: int
    code: str
    device: bool = False  # a `@triton.jit` function (kernel or helper), decorators included

    def holds(self, row: int) -> bool:
        return self.first_row <= row <= self.last_row


@dataclass
class _Spans:
    """Row spans of functions (decorators included) and of simple statements."""

    functions: list[_Span]
    statements: list[_Span]
    configs: list[tuple[ast.Call, dict[str, Any]]] = field(default_factory=list)  # `triton.Config(...)`
    launches: list[ast.Call] = field(default_factory=list)  # the launch calls (`_launch_calls`)
    casts: list[ast.Call] = field(default_factory=list)  # the `.to(...)` calls


@functools.lru_cache(maxsize=8)
def _spans_of(source: str) -> _Spans:
    """The spans of a source, parsed once for all its findings (``ast``: rows are all it takes)."""
    lines = LineIndex(source).lines()  # rows as CPython counts them (not at \f or \x1c)
    spans = _Spans([], [])
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            last = node.end_lineno or node.lineno
            code = "\n".join(lines[first - 1 : last])
            spans.functions.append(_Span(node.name, first, last, code, _is_jit(node.decorator_list)))
        elif isinstance(node, ast.stmt) and not hasattr(node, "body"):  # a simple statement
            last = node.end_lineno or node.lineno
            spans.statements.append(_Span("", node.lineno, last, ""))
        elif isinstance(node, ast.Call) and _callee_name(node.func) == "Config":
            spans.configs.append((node, _literal_items(node)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to":
            spans.casts.append(node)
    spans.launches = _launch_calls(tree)
    return spans


def _launch_calls(tree: ast.Module) -> list[ast.Call]:
    """The calls the linter takes for launches (its host index, ``ascend_lint.host``, and the
    launch options ASC001 reads): ``kernel[grid](...)`` (any subscript called), ``kernel.run(...)``,
    ``kernel.warmup(...)``, and ``launcher(...)`` where the function binds ``launcher`` once, to
    a subscript (``launcher = kernel[grid]``). A finding inside one is about that launch's own
    options; a subscript called elsewhere in its statement (``self.layers[i](x)``,
    ``handlers[key](...)``) makes no launch of it."""
    found: list[ast.Call] = []
    scopes: list[ast.AST] = [tree]
    scopes += [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:
        own = list(_own_nodes(scope))
        bound: dict[str, list[ast.expr]] = {}
        for node in own:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            bound.setdefault(name.id, []).append(node.value if node.value else target)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.NamedExpr)):
                targets = [node.target] if not isinstance(node, (ast.With, ast.AsyncWith)) else []
                targets += [i.optional_vars for i in getattr(node, "items", ()) if i.optional_vars]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            bound.setdefault(name.id, []).append(target)
        launchers = {
            name for name, values in bound.items() if len(values) == 1 and isinstance(values[0], ast.Subscript)
        }
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            launchers -= {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}
        for node in own:
            if isinstance(node, ast.Call) and (
                isinstance(node.func, ast.Subscript)
                or (isinstance(node.func, ast.Attribute) and node.func.attr in ("run", "warmup"))
                or (isinstance(node.func, ast.Name) and node.func.id in launchers)
            ):
                found.append(node)
    return found


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a module or function outside the functions and classes nested in it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def _launch_holding(finding: Finding, source: str) -> ast.Call | None:
    """The innermost launch call (``_launch_calls``) whose text holds the finding's start."""
    return _innermost_call(_spans_of(source).launches, finding)


def _innermost_call(calls: list[ast.Call], finding: Finding) -> ast.Call | None:
    """The innermost of ``calls`` whose text holds the finding's start."""
    at = (finding.location.row, finding.location.column - 1)
    holding = [
        call
        for call in calls
        if (call.lineno, call.col_offset) <= at < (call.end_lineno or call.lineno, call.end_col_offset or 0)
    ]
    return max(holding, key=lambda call: (call.lineno, call.col_offset), default=None)


def cast_row(source: str, finding: Finding) -> int:
    """The row Triton 3.2 locates the cast of the ``.to(...)`` call holding a finding's start
    on: its code generator leaves the location at the last node it visited before lowering the
    call, the call's last positional argument (it visits the keywords first), else its last
    keyword: the dtype's row when it has one of its own (``x.to(`` then ``tl.int64)`` below), not
    the ``.to(`` row the finding is on. The finding's row when no such call holds it."""
    call = _innermost_call(_spans_of(source).casts, finding)
    visited: list[ast.keyword | ast.expr] = [*call.keywords, *call.args] if call is not None else []
    return visited[-1].lineno if visited else finding.location.row


def _callee_name(callee: ast.expr) -> str | None:
    return callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", None)


def _literal_items(config: ast.Call) -> dict[str, Any]:
    """The literal entries of a ``triton.Config({...}, ...)``'s kwargs dict."""
    items: dict[str, Any] = {}
    first = config.args[0] if config.args else next((k.value for k in config.keywords if k.arg == "kwargs"), None)
    if isinstance(first, ast.Dict):
        for key, value in zip(first.keys, first.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                try:
                    items[key.value] = ast.literal_eval(value)
                except ValueError:
                    continue
    return items


def _of_config(finding: Finding, source: str, launches: list[Launch]) -> list[Launch]:
    """Of a kernel's launches, those its ``triton.Config`` holding the finding made (their
    constexprs agree with the config's literal entries); all of them outside a config."""
    row, column = finding.location.row, finding.location.column
    holding = [
        (node, items)
        for node, items in _spans_of(source).configs
        if (node.lineno, node.col_offset + 1) <= (row, column)
        and (row, column) <= (node.end_lineno or node.lineno, (node.end_col_offset or 0) + 1)
    ]
    if not holding:
        return launches
    _, items = holding[-1]
    return [x for x in launches if all(x.constants.get(k, v) == v for k, v in items.items())]


_TRITON_DECORATORS = frozenset({"jit", "autotune", "heuristics"})


def _is_jit(decorators: list[ast.expr]) -> bool:
    """Whether a decorator is `jit`, `autotune` or `heuristics` (``triton.jit``, ``@jit(...)``…),
    the names :mod:`ascend_lint.kernels` takes for a kernel's decorators."""
    for decorator in decorators:
        callee = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", None)
        if name in _TRITON_DECORATORS:
            return True
    return False


def unlaunched(finding: Finding, source: str) -> str | None:
    """What the workload did not launch, when :func:`match` found nothing for a finding in a
    ``@triton.jit`` function: that kernel, or a kernel calling that helper; else ``None``."""
    spans = _spans_of(source)
    function = _innermost(spans.functions, finding.location.row)
    if function is None or not function.device:
        return None
    if any(f"{function.name}(" in s.code for s in spans.functions if s.device and s is not function):
        return f"a kernel calling {function.name}"
    return function.name


def launched_elsewhere(finding: Finding, source: str, capture: Capture) -> str | None:
    """When the workload launched the kernels of the finding's file from another copy of that
    file (a module of the same name and kernels of the same names elsewhere: the user lints a
    checkout, the workload imports the installed wheel), which copy and what to do; else None."""
    path = os.path.realpath(finding.filename)
    spans = _spans_of(source)
    names = {s.name for s in spans.functions if s.device}
    copies = [
        x.kernel
        for x in capture.launches
        if x.kernel.file != path
        and x.kernel.name in names
        and os.path.basename(x.kernel.file) == os.path.basename(path)
    ]
    if not copies:
        return None
    function = _innermost(spans.functions, finding.location.row)
    kernel = next((k for k in copies if function is not None and k.name == function.name), copies[0])
    module = kernel.module.split(".")
    parts = Path(path).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    root = (
        str(Path(*parts[: -len(module)]))
        if len(parts) > len(module) and list(parts[-len(module) :]) == module
        else None
    )
    where = f"PYTHONPATH={root}" if root else "its package's folder first on PYTHONPATH"
    return (
        f"it launched {kernel.name} from {kernel.file} (module {kernel.module}), another copy of this file, "
        f"which the workload imports instead: make it import this file (`pip install -e` its checkout, or "
        f"{where}), or confirm that copy"
    )


def unreached_launch(finding: Finding, source: str) -> int | None:
    """The row of the launch holding a finding (its own options: ``_launch_holding``) when
    :func:`match` found nothing for it: the workload never made that launch. None elsewhere."""
    launch = _launch_holding(finding, source)
    return launch.lineno if launch is not None else None


def statement_rows(source: str, finding: Finding) -> range:
    """The rows of the simple statement holding a finding (its own rows when none does): a
    compile error the finding predicts is raised on one of them."""
    statement = _innermost(_spans_of(source).statements, finding.location.row)
    if statement is None:
        return range(finding.location.row, finding.end_location.row + 1)
    return range(statement.first_row, statement.last_row + 1)


def same_function(source: str, row: int, other: int) -> bool:
    """Whether ``row`` and ``other`` lie in the same innermost function of ``source``."""
    functions = _spans_of(source).functions
    holding = _innermost(functions, row)
    return holding is not None and holding is _innermost(functions, other)


def _innermost(spans: list[_Span], row: int) -> _Span | None:
    holding = [s for s in spans if s.holds(row)]
    return min(holding, key=lambda s: s.last_row - s.first_row, default=None)


def match(finding: Finding, source: str, capture: Capture) -> tuple[KernelRef | None, list[Launch]]:
    """The kernel a finding belongs to and its captured launches (``None, []`` if unlaunched)."""
    path = os.path.realpath(finding.filename)
    in_file = [x for x in capture.launches if x.kernel.file == path]
    spans = _spans_of(source)
    row = finding.location.row

    function = _innermost(spans.functions, row)
    kernels = {x.kernel.name for x in in_file}
    if function is not None:
        if function.name in kernels:
            chosen = _of_config(finding, source, [x for x in in_file if x.kernel.name == function.name])
        else:
            callers = {s.name for s in spans.functions if s.name in kernels and f"{function.name}(" in s.code}
            chosen = [x for x in in_file if x.kernel.name in callers]
        if chosen:
            return chosen[0].kernel, distinct(chosen)
        if function.device:
            return None, []  # device code whose kernels were never launched

    statement = _innermost(spans.statements, row)
    if statement is not None:
        chosen = [
            x for x in capture.launches if x.call_site and x.call_site[0] == path and statement.holds(x.call_site[1])
        ]
        if chosen:
            return chosen[0].kernel, distinct(chosen)
        if _launch_holding(finding, source) is not None:
            return None, []  # a launch the workload never made: another launch's options are not its own

    option = finding.facts.get("option")
    if option is not None:
        chosen = [x for x in capture.launches if x.call_site and x.call_site[0] == path and option in x.options]
        if chosen:
            return chosen[0].kernel, distinct(chosen)
    return None, []
