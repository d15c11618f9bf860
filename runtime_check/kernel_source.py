"""Facts about a finding's kernel source that a replay needs (libcst, read-only)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

_OPTION = re.compile(r"""["']?(\w+)["']?\s*[=:]\s*(\d+)""")


def int_option_at(source: str, row: int, column: int) -> tuple[str, int] | None:
    """The ``name=value`` (or ``"name": value``) with an int value written at row/column."""
    lines = source.splitlines()
    match = _OPTION.match(lines[row - 1], column - 1) if 0 < row <= len(lines) else None
    return (match[1], int(match[2])) if match else None


def _is_constexpr(param: cst.Param) -> bool:
    annotation = param.annotation
    return annotation is not None and "constexpr" in cst.Module(body=[]).code_for_node(annotation.annotation)


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Collect(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(Collect())
    return found


class _Finder(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, row: int) -> None:
        self.row = row
        self.function: cst.FunctionDef | None = None
        self.if_node: cst.If | None = None
        self.to_call: cst.Call | None = None

    def _starts_here(self, node: cst.CSTNode) -> bool:
        return self.get_metadata(PositionProvider, node).start.line == self.row

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        pos = self.get_metadata(PositionProvider, node)
        if pos.start.line <= self.row <= pos.end.line:
            self.function = node

    def visit_If(self, node: cst.If) -> None:
        if self.if_node is None and self._starts_here(node):
            self.if_node = node

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        on_row = self.get_metadata(PositionProvider, func.attr if isinstance(func, cst.Attribute) else func)
        if isinstance(func, cst.Attribute) and func.attr.value == "to" and on_row.start.line == self.row:
            self.to_call = self.to_call or node


def _find(source: str, row: int) -> _Finder:
    finder = _Finder(row)
    MetadataWrapper(cst.parse_module(source)).visit(finder)
    return finder


def to_receiver(source: str, row: int) -> str | None:
    """The source text of the receiver of the ``.to(...)`` call on ``row``."""
    call = _find(source, row).to_call
    return cst.Module(body=[]).code_for_node(call.func.value) if call else None


@dataclass(frozen=True)
class OptionalPointerGuard:
    """The constexpr flags of an ``if`` test and the optional pointers its arms use."""

    flags: tuple[str, ...]
    pointers: tuple[str, ...]


@dataclass(frozen=True)
class _Use:
    name: str
    in_target: bool
    tested: frozenset[str]  # names in the tests of the ``if`` statements around this use


class _Uses(cst.CSTVisitor):
    """Every name use in a function body, with the ``if`` tests around it."""

    def __init__(self, target: cst.If) -> None:
        self.target = target
        self.stack: list[cst.If] = []
        self.uses: list[_Use] = []

    def visit_If(self, node: cst.If) -> None:
        self.stack.append(node)

    def leave_If(self, node: cst.If) -> None:
        self.stack.pop()

    def visit_Name(self, node: cst.Name) -> None:
        tested = frozenset().union(*(_names(n.test) for n in self.stack))
        self.uses.append(_Use(node.value, any(n is self.target for n in self.stack), tested))


def optional_pointer_guard(source: str, row: int) -> OptionalPointerGuard | None:
    """The parameters the arms of the ``if`` on ``row`` use that are only ever used under an
    ``if`` testing a constexpr flag (the optional pointers), and those flags."""
    finder = _find(source, row)
    if finder.function is None or finder.if_node is None:
        return None
    params = finder.function.params.params
    constexprs = {p.name.value for p in params if _is_constexpr(p)}
    plain = {p.name.value for p in params} - constexprs
    collect = _Uses(finder.if_node)
    finder.function.body.visit(collect)
    candidates = {u.name for u in collect.uses if u.in_target} & plain
    flags = set().union(*(u.tested & constexprs for u in collect.uses if u.in_target and u.name in candidates))
    pointers = {
        name for name in candidates if all(u.tested & flags for u in collect.uses if u.name == name and not u.in_target)
    }
    return OptionalPointerGuard(tuple(sorted(flags)), tuple(sorted(pointers)))
