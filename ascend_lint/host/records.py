"""The records the host index hands out: a call site with the loops and tests around it, a
launch (stored, forwarded), its grid, a core count, what a launch passes, the trail of dicts
splatted into it, the uses of a name, and the evidence about a kernel parameter. Plain data;
the queries that make them are the host index's (`index`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import libcst as cst

from ..nodes import (
    arms_around,
    one_line,
)
from .params import passed_for

Scope = cst.FunctionDef | None
# a construct around a host call that may run it more than once (`HostFacts.loops_around`): a
# `for` statement whose body or `else` holds the call (not its iterable: no entry for that), a
# comprehension (any part of it), a lambda whose body holds it; None for a `for` statement's
# target and a lambda's parameters (their defaults), which hold the call outside the loop's names
Loop = cst.For | cst.Lambda | cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp | None


@dataclass(frozen=True)
class CallSite:
    """A call in host code, the function it is written in and the `for` loops and `if`
    statements of that function around it, outermost first. `wrappers`: for a call of a
    function through wrappers passing their arguments on unchanged (`callers_of`), how many."""

    call: cst.Call
    scope: Scope
    blocks: tuple[cst.For | cst.If, ...] = ()
    wrappers: int = field(default=0, kw_only=True)

    def passes(self, function: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
        """What the call, one of `function`, passes for its parameter `name` (`passed_for`)."""
        return passed_for(self.call, function, name)

    @property
    def arms(self) -> list[tuple[cst.BaseExpression, bool]]:
        """The test of each `if` around the call, with whether it holds there."""
        return arms_around(self.call, self.blocks)

    @property
    def loops(self) -> tuple[cst.For, ...]:
        """The `for` loops around the call, outermost first."""
        return tuple(block for block in self.blocks if isinstance(block, cst.For))


@dataclass(frozen=True)
class Merged:
    """What goes into the same dict as a source of a `**` splat on the way to it
    (`DictTrail.merged`): `node`, read in `scope`; `whole`: any dict the expression may hold
    (`HostIndex.dict_sources` of it), else only what the node itself writes (the entries of a
    dict literal, the keywords of a `dict(...)` call, a store `kw["key"] = v`, a change
    `kw.update(...)` / `kw.setdefault(k, v)` / `kw |= {...}`)."""

    node: DictSource
    scope: Scope
    whole: bool


@dataclass
class DictTrail:
    """What `HostIndex.dict_sources` passed through: names (with the function binding each)
    and the module's functions whose results it read; and for each source it found, what is
    merged with it into the dict the splat gets, on any of its ways there (`merged`): the
    other entries and splats of the dict literal or `dict(...)` call it is splatted into
    (`{**base, "key": v}`, `dict(base, key=v)`), the other side of a `|`, the stores and
    changes of a name holding it, and for such a store or change, what the name holds.
    `tables`: the names of tables it took an entry of (`_CFG[key]`), with the function binding each;
    `attributes`: the names of the attributes holding them (`self.LAUNCH`) or of the methods
    returning them (`self._cfg()`)."""

    names: set[tuple[str, Scope]] = field(default_factory=set)
    functions: set[str] = field(default_factory=set)
    tables: set[tuple[str, Scope]] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)
    merged: dict[DictSource, set[Merged]] = field(default_factory=dict)

    def merge(self, source: DictSource, merged: Sequence[Merged]) -> None:
        if merged:
            self.merged.setdefault(source, set()).update(merged)


@dataclass(frozen=True)
class NameUse:
    """A name written in host code, with the function binding it (None: module level) and the
    nodes around it, innermost first (up to six)."""

    name: cst.Name
    owner: Scope
    around: tuple[cst.CSTNode, ...]


@dataclass(frozen=True)
class Forwarded:
    """How a call of a helper forwarding its parameters to a launch (`def _run(grid, *args,
    **kwargs): kernel[grid](*args, **kwargs)`, then `_run((n,), x, n, BLOCK=64)`) launches:
    the helper's launch, and the grid and arguments the kernel gets, as the call writes them.
    `grid_only`: the call gives the grid only, the arguments are the helper's launch's, read in
    the helper (`def _launch(x, grid): n = x.shape[-1]; kernel[grid](x, n)`)."""

    launch: Launch
    grid: cst.BaseExpression
    args: tuple[cst.Arg, ...]
    grid_only: bool = False


@dataclass(frozen=True)
class Launch(CallSite):
    """`kernel[grid](...)` in host code, or `launcher(...)` after `launcher = kernel[grid]` in the
    same function (`stored`: the subscript bound to the name; `partial`: the call of
    `launcher = functools.partial(kernel[grid], ...)`, whose arguments go first), or `kernel.run(...,
    grid=g)` (`run_grid`: its `grid=` keyword: Triton's `JITFunction.run(*args, grid, warmup,
    **kwargs)`, which `kernel[grid](...)` calls), or a call of a helper passing the launch its
    grid and arguments (`forwarded`: what they are at that call)."""

    stored: cst.Subscript | None = None
    forwarded: Forwarded | None = None
    partial: cst.Call | None = None
    run_grid: cst.Arg | None = None
    # for a launch through a call of a function returning a `kernel[grid]` that reads its
    # parameters (`def _launcher(n): return kernel[(n,)]`, then `_launcher(N)(x)`): that
    # subscript as the function writes it, a node of the module's tree; `stored` is then the
    # subscript as the call makes it (`kernel[(N,)]`: `HostIndex._made_by`), a node of no tree
    written: cst.Subscript | None = None

    @property
    def launcher(self) -> cst.Subscript | cst.Attribute:
        """`kernel[grid]`: what the call calls, or the subscript its launcher holds (the one of
        the launch of the helper it calls); `kernel.run` of a `kernel.run(..., grid=g)` call."""
        if self.forwarded is not None:
            return self.forwarded.launch.launcher
        if self.stored is not None:
            return self.stored
        assert isinstance(self.call.func, (cst.Subscript, cst.Attribute))
        return self.call.func

    @property
    def held(self) -> cst.BaseExpression:
        """What the launch launches, as written: `kernel` of `kernel[grid]` and `kernel.run`, and
        of `wrap_triton(kernel)[grid]` (the index keeps a launch through a call only when the call
        is one of torch's wrappers: `facts.unwrapped`)."""
        value = self.launcher.value
        return value.args[0].value if isinstance(value, cst.Call) else value

    @property
    def guards(self) -> tuple[cst.If, ...]:
        return tuple(block for block in self.blocks if isinstance(block, cst.If))

    @property
    def written_at(self) -> cst.CSTNode:
        """The node of the module's tree a report of the launch's grid goes to: `kernel[grid]`
        (or the one its launcher holds: in the launching function, or in the function of the
        module returning the launcher, `_launcher()(x)`), the subscript a function returning
        it writes (`written`, not the copy `stored` holds), `kernel.run`, or the call of the
        helper launching it. Not always in `scope`: a returned launcher is written in its
        function."""
        if self.written is not None:
            return self.written
        return self.launcher if self.forwarded is None else self.call

    @property
    def bound(self) -> Sequence[cst.Arg]:
        """The arguments its `functools.partial(kernel[grid], ...)` binds (none without one)."""
        return () if self.partial is None else self.partial.args[1:]

    @property
    def arguments_at(self) -> cst.Call:
        """The call writing the arguments the launch is known by: its `functools.partial`, else
        its own."""
        return self.call if self.partial is None else self.partial

    @property
    def calls(self) -> tuple[cst.Call, ...]:
        """The calls making the launch: its own, its `functools.partial` (which writes arguments
        of it), and the launch of the helper it calls."""
        own = (self.call,) if self.partial is None else (self.call, self.partial)
        return own if self.forwarded is None else (*own, *self.forwarded.launch.calls)

    @property
    def args(self) -> Sequence[cst.Arg]:
        """The arguments the kernel gets, as written in the launch's function: those a partial
        binds then those of the call (a keyword the call writes again replaces the partial's),
        without `grid=` / `warmup=` of a `kernel.run(...)`."""
        if self.forwarded is not None:
            return self.forwarded.args
        if self.run_grid is not None:
            return [arg for arg in self.call.args if arg.keyword is None or arg.keyword.value not in _RUN_OPTIONS]
        if not self.bound:
            return self.call.args
        again = {arg.keyword.value for arg in self.call.args if arg.keyword is not None}
        kept = [arg for arg in self.bound if arg.keyword is None or arg.keyword.value not in again]
        return [*kept, *self.call.args]

    @property
    def args_launch(self) -> Launch:
        """The launch whose function `args` are read in: this one, or its helper's when the
        helper's call gives it the grid only (`Forwarded.grid_only`)."""
        if self.forwarded is None or not self.forwarded.grid_only:
            return self
        return self.forwarded.launch.args_launch

    @property
    def args_scope(self) -> Scope:
        """The function `args` are read in (`args_launch`)."""
        return self.args_launch.scope

    @property
    def grid_node(self) -> cst.BaseExpression:
        """What is written between the brackets: `grid` in `kernel[grid](...)` (what a call of
        a forwarding helper passes for it, what `kernel.run(...)` passes as `grid=`)."""
        if self.forwarded is not None:
            return self.forwarded.grid
        if self.run_grid is not None:
            return self.run_grid.value
        subscript = self.launcher
        assert isinstance(subscript, cst.Subscript)
        [only, *more] = subscript.slice
        if not more and isinstance(only.slice, cst.Index) and not isinstance(only.comma, cst.Comma):
            return only.slice.value
        return subscript  # `kernel[a, b](...)`, `kernel[a,](...)`: the axes are the subscript's elements


_RUN_OPTIONS = frozenset({"grid", "warmup"})  # `JITFunction.run`'s own keywords, not the kernel's


@dataclass(frozen=True)
class BoundedSizes:
    """Names and extents of known position (`("x", 0)` for `x.shape[0]`) that a test before a
    launch bounds from above (`if K > 256: raise`): sized as bounded where its grid is."""

    names: frozenset[str] = frozenset()
    extents: frozenset[tuple[str, int]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.names or self.extents)

    def __or__(self, other: BoundedSizes) -> BoundedSizes:
        return BoundedSizes(self.names | other.names, self.extents | other.extents)

    def __and__(self, other: BoundedSizes) -> BoundedSizes:
        return BoundedSizes(self.names & other.names, self.extents & other.extents)


@dataclass(frozen=True)
class Grid:
    """The axes of a launch grid, where their names resolve, and the parameter of a grid
    lambda / function that holds the launch's constexprs (`META` in `META["BLOCK"]`)."""

    axes: tuple[cst.BaseExpression, ...]
    scope: Scope
    written: cst.CSTNode  # the tuple as written
    meta: str | None = None
    variant: bool = False  # one of the grids paths picked whatever the sizes lead to: each may be launched
    unreached: frozenset[int] = frozenset()  # ids of the assignments its path does not run (`grid_extents`)

    @property
    def quoted(self) -> str:
        """The grid as a message quotes it (`one_line`): the tuple a `kernel[a, b]` launches on,
        `(a, b)` (`(a,)` for `kernel[a,]`), not the subscript written around it."""
        if not isinstance(self.written, cst.Subscript):
            return one_line(self.written)
        axes = [one_line(element.slice) for element in self.written.slice]
        return f"({', '.join(axes)}{',' if len(axes) == 1 else ''})"


@dataclass(frozen=True)
class CoreCount:
    """A device core count a host value holds: which one, and where it is read."""

    kind: str  # "num_aicore" or "num_vectorcore"
    node: cst.CSTNode


DictChange = cst.Call | cst.AugAssign  # `kw.update(...)` / `kw.setdefault(k, v)`, `kw |= ...`
Binder = cst.Assign | cst.AnnAssign | cst.AugAssign | cst.NamedExpr  # what binds a value to a name


@dataclass(frozen=True)
class ItemStore:
    """`kw["num_stages"] = 1`: a key written into a dict variable."""

    statement: cst.Assign
    target: cst.Subscript
    key: str
    value: cst.BaseExpression


# what a `**` splat may hold (`HostIndex.dict_sources`): a dict literal, a `dict(...)` call, a change
# (`DictChange`), or a store into a name holding the dict (`kw["num_stages"] = 1`, one target of
# `a = kw["num_warps"] = 8`)
DictSource = cst.CSTNode | ItemStore


@dataclass(frozen=True)
class Passed:
    """What a launch passes for a kernel parameter, and the function its names resolve in: the
    launch's, or the one that filled the dict the launch splats (`kw = dict(eps=eps)` in a
    caller, then `_launch(x, kw)` with `k[grid](**kw)`)."""

    value: cst.BaseExpression
    scope: Scope


@dataclass(frozen=True)
class Evidence:
    """A host-side fact about one kernel parameter, with the launch that shows it."""

    launch: Launch
    value: cst.BaseExpression  # what the launch passes
    why: str  # e.g. "passes `h0=None`"
    elsewhere: str | None = None  # a launch in another module: where ("`_fwd` in `op.py`")

    @property
    def where(self) -> str:
        """The launch, for a message: its line in this module (the report relates the launch),
        or its function and file."""
        return "the launch at line {related_line}" if self.elsewhere is None else f"the launch in {self.elsewhere}"

    @property
    def related(self) -> cst.CSTNode | None:
        """The node a report relates: the launch's call, when it is in this module."""
        return self.launch.call if self.elsewhere is None else None
