"""`HostIndex`: the questions rules ask of a module's host code, over the facts of its one walk
(`facts.HostFacts`). Launch sites (with their grids and the host loops and tests around them,
those of kernels the module imports, launches through launchers and forwarding helpers), the
callers of a function (also through wrappers), the argument each launch passes for a kernel
parameter, dicts splatted into launches, where a passed value comes from (a literal, a default,
a caller's argument), the extents a grid axis multiplies and which device core count a value
holds, the evidence about a kernel parameter (None, a float, the integer dtype a tensor is
passed with), the environment variables it sets, and where it runs only on another platform.

Also the host facts of other modules of the package it reads (`_imported_host`, for core
counts and autotune configs another module defines; `_importer_host`, for the launches of a
kernel in the modules that import it): each is a `HostIndex` of its own.

Built once per module, on first use, in one walk of the code outside kernel bodies that reads
node fields directly (no `CSTNode.children` rebuilds). Rules ask it; none re-derives it.
"""

from __future__ import annotations

import itertools
import math
import os
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import cached_property, partial
from pathlib import Path
from typing import TypeVar
from weakref import WeakKeyDictionary

import libcst as cst

from ..arithmetic import ceiling_division, comparison_holds, folded_logic, is_one, power_of_two_above
from ..imports import ImportMap, dotted_name, folded_int, int_literal, literal_truth, root_name, str_literal
from ..kernels import (
    MAX_CALLERS_DEEP,
    ImportedFunctions,
    ImportedModule,
    Kernel,
    imported_module,
    is_constant,
    subscript_key,
)
from ..nodes import (
    NAMES_FOLLOWED,
    ORIGIN_HOPS,
    child_nodes,
    flat_code,
    names_read,
    never_falls_through,
    one_line,
    statements_of,
    suite_lines,
    variables_read,
    walk,
    written_items,
)
from ..package import content_hash, package_folders, package_hash, package_sources
from .bindings import (
    RECORDED_BINDERS,
    SHRINKING_OPERATORS,
    ListPaths,
    WrittenOrder,
    binders_by_name,
    binding_reaching,
    binding_read_by,
    binding_updated,
    comprehension_variables,
    element_at,
    entry_writer,
    if_arms,
    is_negative,
    list_addition,
    list_paths,
    loop_leaves,
    names_read_shrinking,
    never_runs,
    paths_into,
    plain_binding,
    reaching_binding,
    rebound_names,
    returned_index,
    shrinks,
    starred_target,
    stored_entry,
    stores_other_keys,
    swaps_in_for_none,
    tested_binding,
    tuple_element,
    updates_name,
    with_additions,
)
from .dicts import (
    changed_dict,
    changes_in_place,
    copied_dict,
    dict_entry,
    dicts_added,
    entry_got,
    is_dict_call,
    is_namespace,
    items_copied,
    key_read,
    maps_a_key_to_a_callable,
    method_taken,
    only_read_by,
    passed_to,
    removed_from,
    splats_inside,
)
from .dtypes import (
    FLOAT_DTYPES,
    INT_ARITHMETIC,
    INT_WIDTHS,
    TensorDtype,
    agreed,
    converted_or_allocated,
    template_of,
)
from .evidence import (
    is_float,
    is_minus_one,
    is_none,
    last_dimension,
    makes_a_tensor,
    possible_arms,
    stride_read,
    tests_for_none,
)
from .facts import (
    HostFacts,
    HostMemory,
    bound_launcher,
    choices,
    is_partial,
    launched_name,
    launched_value,
    loops_over_items,
    past_fn,
    unwrapped,
)
from .guards import Unrolled, holding_cases, loop_stops, run_before
from .params import (
    add_forwarded,
    all_params,
    arm_for_call,
    first_param,
    is_name,
    param_named,
    passed_for,
    passed_on,
    passed_or_default,
    positional_params,
    splatted_params,
)
from .platforms import NpuPaths, OtherPlatformPaths, names_other_platform
from .records import (
    BoundedSizes,
    CallSite,
    CoreCount,
    DictChange,
    DictSource,
    DictTrail,
    Evidence,
    Forwarded,
    Grid,
    ItemStore,
    Launch,
    Merged,
    NameUse,
    Passed,
    Scope,
)
from .shapes import (
    INT_CONVERSIONS,
    allocation_dimensions,
    broadcast_alignments,
    broadcast_tensors,
    copy_of,
    counted_tensor,
    dimensions_of,
    divided_sizes,
    extent_of,
    extents_kept_from,
    factors_of,
    indexed,
    is_extent,
    is_item,
    is_positioned,
    is_read_back,
    is_shape,
    is_whole_shape,
    multiplied_shape,
    one_extent,
    shape_product,
    shape_tensors,
    summed_sizes,
    without_int_conversion,
    written_extent_position,
)

# a statement, where `npu_code` points
_STATEMENTS = (cst.BaseSmallStatement, cst.BaseCompoundStatement)
# checks (`checks_before`'s) with the place of the statement making each among a block's (`Unrolled.run`)
_PlacedChecks = list[tuple[int, tuple[cst.BaseExpression, bool, cst.CSTNode]]]
MAX_GRIDS = 64  # the grids one tuple may be (`(*a, *b)`: the product of its starred parts' grids)
MAX_GRID_UPDATES = 16  # updates of a grid in place (`grid += (n,)`) read one inside another
# updates of a name read one inside another (`n = min(n, 1024)`: `HostIndex.updated_in_line`)
MAX_LINE_UPDATES = 8
_POWER_BITS = 64  # the largest `**` `at_most` works out, in bits (none past any size)
_T = TypeVar("_T")
_K = TypeVar("_K")
# an answer worked out where each grid is sized, by the ids of the assignments after it (`_unreached`)
_AtLaunch = dict[frozenset[int], object]
# what an answer kept across launches read of those (`HostIndex._at_launch`): each, with what it read
_Reads = tuple[tuple[_AtLaunch, object], ...]
_UNSEEN = object()  # no answer yet where this grid is sized
_MAX_UPDATES_SIZED = 2  # names whose updates (`n = n * m`, `n *= m`) are read one inside another
SIZES_HELD = ("shape", "size", "numel", "nelement")  # a tensor's attributes holding its sizes: `x.numel()`
ORDERINGS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)  # comparisons that may bound
# The core counts triton-ascend's `driver.active.utils.get_device_properties(device)` reports.
CORE_COUNT_KEYS = ("num_aicore", "num_vectorcore")
# torch_npu's device properties, by the core count they hold
CORE_COUNT_ATTRIBUTES = {"cube_core_num": "num_aicore", "vector_core_num": "num_vectorcore"}
_CORE_COUNT_QUERIES = ("num_compute_units", "get_multiprocessor_count")  # functions answering a count
# triton-ascend's driver (`triton.runtime.driver.active.utils`), by the count each method returns
_DRIVER_CORE_COUNTS = {"get_aicore_num": "num_aicore", "get_aivector_core_num": "num_vectorcore"}
# vllm-ascend's `triton_utils` helpers, by the count each returns: read by name when imported
# from a package no file on disk holds (a project downstream of vllm-ascend)
_UNREAD_CORE_COUNTS = {"get_aicore_num": "num_aicore", "get_vectorcore_num": "num_vectorcore"}
# the words a module's text holds when it may work out a core count (`core_count`)
CORE_COUNT_WORDS = (*CORE_COUNT_KEYS, *CORE_COUNT_ATTRIBUTES, *_CORE_COUNT_QUERIES, *_DRIVER_CORE_COUNTS)


class _ArgumentsPlaced(cst.CSTTransformer):
    """An expression with the nodes whose ids `passed` holds (names, a grid function's
    `meta["BLOCK"]`) replaced by its values; `placed` maps each node rebuilt around them to the
    node written (where a finding may point)."""

    def __init__(self, passed: Mapping[int, cst.BaseExpression], placed: dict[cst.CSTNode, cst.CSTNode]) -> None:
        self.passed, self.placed = passed, placed

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        made = self.passed.get(id(original_node))
        if made is not None:
            return made
        if updated_node is not original_node:
            self.placed[updated_node] = original_node
        return updated_node


class HostIndex(HostFacts):
    """What the module's host code holds (`HostFacts`, in one walk, or from a `HostMemory`),
    and the questions rules ask of it."""

    def __init__(
        self,
        module: cst.Module,
        kernels: list[Kernel],
        memory: HostMemory | None = None,
        imported: ImportedFunctions | None = None,
    ):
        super().__init__()
        self.module = module
        self._binders: dict[Scope, dict[str, list[cst.CSTNode]]] = {}  # `_assigned_only`
        self._assigned: dict[tuple[str, Scope, bool], bool] = {}  # `_assigned_only`, by name, owner and `rebound`
        self.kernels = {kernel.name: kernel for kernel in kernels}
        self.imported = imported  # the modules of the package the module imports from
        self._updated: dict[tuple[str, Scope], tuple[str, ...]] = {}  # names being sized: their earlier extent
        self._sizing: frozenset[tuple[str, Scope]] = frozenset()  # names whose origins are being sized
        self._name_extents: dict[tuple[object, ...], tuple[str, ...] | None] = {}
        self._dtypes: dict[tuple[object, ...], TensorDtype | None] = {}
        self._sizing_origins: dict[tuple[object, ...], list[cst.BaseExpression]] = {}  # by value, or name and binding
        # by name and scope, the origins of each value bound to it, by the value's id: empty when they
        # read what reaches the grid (`_reaching_origins`)
        self._binding_origins: dict[tuple[str, Scope], dict[int, list[cst.BaseExpression]]] = {}
        # `_extent` of the updates of a name, by what `_name_extent` is keyed by but what reaches the
        # grid, then by the update's id: those reading none of it (`_updates_sized`)
        self._sized_updates: dict[tuple[object, ...], dict[int, tuple[tuple[str, ...] | None, _Reads | None]]] = {}
        self._passed_in: dict[tuple[str, Scope, frozenset[int]], list[cst.BaseExpression]] = {}
        self._unreached_ids: frozenset[int] = frozenset()  # `_unreached`
        self._unreached_reads = 0  # how often `_unreached` was read (`_read_alone`)
        self._kept_reads: list[tuple[_AtLaunch, object]] | None = None  # what an answer `_read_alone` keeps read
        # by name and scope, the id of the assignment of each value bound (`_reaching_bindings`)
        # and the ids of the values updating the name (`updates_name`), those of a `for` loop apart
        self._binder_ids: dict[tuple[str, Scope], list[int]] = {}
        self._run_bindings: dict[tuple[str, Scope], list[cst.BaseExpression]] = {}  # `_bindings_run`
        self._shown_bindings: dict[tuple[str, int], str] = {}  # `name = value` as `origins` says it
        self._updating_ids: dict[tuple[str, Scope], frozenset[int]] = {}
        self._loop_updating_ids: dict[tuple[str, Scope], frozenset[int]] = {}
        self._tests_at: dict[
            tuple[int, ...], tuple[tuple[CallSite, ...], list[tuple[cst.BaseExpression, bool, cst.CSTNode]]]
        ] = {}
        self._exact = False  # sizing products for `_budgets_cancelled`: no sum nor extremum taken for one term
        self._bounded = BoundedSizes()  # what tests before the launch being sized bound (`grid_extents`)
        self._launch_grids: dict[Launch, tuple[Grid, ...]] = {}
        self._item_loop_bodies: dict[cst.For, frozenset[int]] = {}  # `_item_loop_body`, by loop
        self._stops_by_loop: dict[cst.For, dict[tuple[int, bool], bool]] = {}  # `_loop_stops`
        self._updates_deep = 0  # the updates of a grid in place `_grids` is reading, one inside another
        self._escaping: dict[tuple[str, cst.FunctionDef, bool], list[cst.Name]] = {}  # `_escaping_uses`
        self._holders: dict[tuple[str, Scope], dict[int, cst.CSTNode | None] | None] = {}  # `_split_holders`
        self._list_paths: dict[tuple[cst.List, cst.CSTNode], ListPaths] = {}
        self._bounded_lengths: dict[tuple[str, Scope], bool] = {}  # `_bounded_length`, by list name and function
        self._grid_parts: dict[
            tuple[cst.BaseExpression, Scope, str | None, int], list[tuple[cst.BaseExpression, ...]]
        ] = {}  # `_own_grids`
        self._placed: dict[cst.CSTNode, cst.CSTNode] = {}  # a node `_made_by` rebuilt -> the node written
        self._updated_in_line: dict[tuple[str, Scope], cst.BaseExpression | None] = {}
        self._calls_made: dict[cst.Call, list[cst.BaseExpression]] = {}  # `returned_for`, by call
        # `_returned_element` of a shape returned, by shape and index: one node each, its scope known
        self._returned_items: dict[tuple[cst.BaseExpression, int], cst.Subscript] = {}
        self._positions_returned: set[cst.FunctionDef] = set()  # functions `_returned_position` is reading
        self._checks_made: dict[cst.Call, list[tuple[cst.BaseExpression, bool]]] = {}  # `checks_made`, by call
        self._unrolled_blocks: dict[cst.BaseSuite, Unrolled] = {}  # `_unrolled`, by block
        self._checks_by_block: dict[Unrolled, tuple[_PlacedChecks, _PlacedChecks]] = {}  # `_block_checks`
        self._reading_returns: set[str] = set()  # functions `_call_returns_extent` is reading
        self._dimension_items: dict[cst.BaseExpression, list[cst.BaseExpression] | None] = {}  # `_per_dimension`
        self._elsewhere: dict[str, list[tuple[HostIndex, Kernel]]] = {}  # `launched_elsewhere`, by kernel
        self._launches_as_called: dict[tuple[Launch, str, int], tuple[Launch, ...]] = {}
        self._callers: dict[cst.FunctionDef, list[CallSite]] = {}  # `callers_of`, by function
        self._managed: dict[cst.FunctionDef, dict[cst.Call, tuple[cst.BaseExpression, ...]]] = {}  # `_managers_around`
        self._launches_passing: dict[Kernel, list[Launch]] = {}  # `launches_passing`, by kernel
        self._passed: dict[tuple[Kernel, str], list[tuple[HostIndex, Launch, Passed | None]]] = {}  # `passed_values`
        self._globals_read: set[str] = set()  # the names `_global_core_count` is reading
        self._bound_core_counts: dict[tuple[object, ...], _AtLaunch] = {}  # `_bound_core_count`
        # `_binding_core_count` of each value a name is bound to, by name, scope and hops, then by
        # the value's id, with what it read (`_kept_each`)
        self._binding_core_counts: dict[tuple[str, Scope, int], dict[int, tuple[CoreCount | None, _Reads | None]]] = {}
        self._reads_reaching: dict[tuple[cst.Name, Scope], cst.BaseExpression | None] = {}  # `_read_reaching`
        # `_budget_divisors` of names, by hops and what reaches the grid: each of n halvings `n //= 2` reads them all
        self._name_budgets: dict[tuple[object, ...], _AtLaunch] = {}
        # `_budget_divisors` of each value a name is bound to, by name, scope, hops and what tests
        # bound, then by the value's id, with what it read (`_bound_budget_divisors`, `_kept_each`)
        self._binding_budgets: dict[tuple[object, ...], dict[int, tuple[tuple[str, ...] | None, _Reads | None]]] = {}
        self._written_orders: dict[cst.FunctionDef, WrittenOrder] = {}  # `written_order`, by function
        self._updates: dict[cst.AugAssign, cst.BaseExpression] | None = None  # updates in place -> the values bound
        self._names_read: dict[tuple[object, ...], frozenset[str]] = {}  # `names_behind`, `names_beside_extents`
        self._extents_read: dict[tuple[object, ...], frozenset[tuple[str, int]]] = {}  # `extents_read`
        self._name_positions: dict[tuple[str, Scope], tuple[str, int] | None] = {}  # `extent_position` of names
        self._name_ints: dict[tuple[str, Scope, int], int | None] = {}  # `known_int` of names, by hops
        self._changing_statements: dict[cst.FunctionDef, Counter[str]] = {}  # `_statements_changing`
        self._name_caps: dict[tuple[object, ...], int | None] = {}  # `at_most` of names, by hops and test
        self._entries_changed: dict[tuple[str, Scope], bool] = {}  # `_changed_once`, by binding scope
        self._self_rebound: dict[tuple[cst.FunctionDef, str], bool] = {}  # `_rebinds_self`
        self._self_names: dict[cst.FunctionDef, frozenset[str]] = {}  # `_selves`
        self._init_lines: dict[tuple[cst.ClassDef, str], InitLine | None] = {}  # `_init_line`
        self._named_stores: dict[cst.ClassDef, bool] = {}  # `_sets_by_name`
        # `_carried`, by test and rebinding: the bound
        self._carried_bounds: dict[tuple[object, ...], int | None] = {}
        kernel_defs = {kernel.node for kernel in kernels}
        if memory is None:
            self.walk(module, kernel_defs)
        else:
            for facts in memory.recall(module, kernel_defs):
                self.merge(facts)
        self._size_named_items()
        self._add_wrapped_launches()
        self.stored_launch_calls = self._add_stored_launches()
        self._add_jit_function_launches()

    def _size_named_items(self) -> None:
        """Makes each item a loop over a function's name binds (`for d in dims:`, `for d in
        dims[:-2]:`: `named_items`) the extent it is when the function binds the name once, to a
        shape (`_named_shape`: `dims = x.shape[:-2]`, or `dims = x.shape` sliced in the loop),
        as the loop over that shape written inline binds it (`x.shape[:-2][0]`), or any entry of
        the list the name holds when it is bound only to lists or tuples of dicts (`for cfg in
        _CFGS:` as `_CFGS[cfg]`, read as `_table_entries` reads it); drops it when the name holds
        anything else (`dims = [2, 4]`, a parameter)."""
        sized: dict[int, Sequence[cst.BaseExpression | None]] = {
            id(item): self._named_item_extents(item, scope) or [self._any_entry(item, target, scope)]
            for target, scope, item in self.named_items
        }
        for key in dict.fromkeys((target, scope) for target, scope, _ in self.named_items):
            values = [each for value in self.bindings[key] for each in sized.get(id(value), [value])]
            kept = [value for value in values if value is not None]
            if kept:
                self.bindings[key] = kept
            else:
                del self.bindings[key]

    def _named_item_extents(self, item: cst.Subscript, scope: Scope) -> list[cst.BaseExpression]:
        """`x.shape[:-2][0]` for `dims[0]` (or `dims[:-2][0]` with `dims = x.shape`) when `scope`
        binds `dims` only to shapes (`_named_shapes`), an item of each it may hold (`x.shape[0]`,
        `y.shape[0]` with `dims = x.shape` in one arm of an `if`, `dims = y.shape` in the other);
        none otherwise."""
        iterated = item.value
        held = iterated.value if isinstance(iterated, cst.Subscript) else iterated
        shapes = self._named_shapes(cst.ensure_type(held, cst.Name), scope)
        return [indexed(shape if held is iterated else iterated.with_changes(value=shape), 0) for shape in shapes]

    def _any_entry(self, item: cst.Subscript, target: str, scope: Scope) -> cst.Subscript | None:
        """`_CFGS[cfg]` for the item `_CFGS[0]` a loop binds to `cfg` when `_CFGS` (as `scope`
        reads it) is bound only to lists or tuples of dict literals or `dict(...)` calls: an
        entry the index does not pick; None otherwise."""
        table = item.value
        if not isinstance(table, cst.Name) or not self._table_of_dicts(table.value, scope):
            return None
        return item.with_changes(slice=[cst.SubscriptElement(cst.Index(cst.Name(target)))])

    def _table_of_dicts(self, name: str, scope: Scope) -> bool:
        """`name` is bound only to lists or tuples of dict literals or `dict(...)` calls (`_CFGS =
        [{"BLOCK": 1024}, dict(BLOCK=2048)]`), and is no parameter."""
        owner = self._binding_scope(name, scope)
        tables = self.values_of(name, scope)
        return (
            bool(tables)
            and (owner is None or param_named(owner, name) is None)
            and all(
                isinstance(table, cst.List | cst.Tuple)
                and bool(table.elements)
                and all(
                    isinstance(e, cst.Element) and (isinstance(e.value, cst.Dict) or is_dict_call(e.value))
                    for e in table.elements
                )
                for table in tables
            )
        )

    def _add_wrapped_launches(self) -> None:
        """Adds `torch.library.wrap_triton(kernel)[grid](...)` (any of torch's wrappers, as the
        module's imports name it: `unwrapped`) as a launch of `kernel`, as `kernel[grid](...)`
        is: for `torch.compile`, the same launch; of each kernel a choice wrapped picks
        (`wrap_triton(k_a if fast else k_b)[grid](...)`), as `(k_a if fast else k_b)[grid](...)`."""
        for launch in self.wrapped_launches:
            if unwrapped(launch.launcher.value, self.wrapper_names) is not launch.launcher.value:
                self.add_launch(launch, launch.held)

    def _add_stored_launches(self) -> set[cst.Call]:
        """Adds the launches through a launcher a function stores (`launcher = kernel[grid]`,
        then `launcher(x, n)`: a launch of `kernel` on `grid` at the call; `launcher =
        functools.partial(kernel[grid], BLOCK=64)` too, the arguments it binds going first,
        also through a local name of `partial`: `from functools import partial as bind`), and
        returns their calls and those of the partials. Only for a name the function (or the
        module: then its calls in functions too, `_calls_stored`) binds
        once, to a subscript of a kernel of the module (or of a name bound only to such
        kernels) or of an imported name (one the module does not bind), or of a choice between
        them (`run = (k_a if fast else k_b)[grid]`: a launch of each), and does not take as a
        parameter; only at its calls in that function under every block the subscript is under
        (an `if` bounding the grid is around the launch). Also a launcher called where it is
        made (`functools.partial(kernel[grid], num_warps=4)(x)`) or returned by a function of
        the module (`_launcher()(x)`, `_result_launches`)."""
        calls: set[cst.Call] = set()
        for (name, scope), stored in self.launchers_bound.items():
            if len(self.bindings[name, scope]) != 1 or (
                name in self.globals_declared if scope is None else param_named(scope, name) is not None
            ):
                continue
            [(value, blocks)] = stored
            subscript = bound_launcher(value, self.partial_names)
            if subscript is None or not self._launches_kernel(subscript, scope):
                continue
            if isinstance(value, cst.Call):
                calls.add(value)  # the partial gives the launch its arguments too
            for site in self.calls_of.get(name, ()):
                if self._calls_stored(site, name, scope, value, blocks):
                    partial = value if isinstance(value, cst.Call) else None
                    launch = Launch(site.call, scope, site.blocks, subscript, partial=partial)
                    self.add_launch(launch, launch.held)
                    calls.add(site.call)
        for site in self.result_calls:
            assert isinstance(site.call.func, cst.Call)
            for launch in self._result_launches(site.call.func, site):
                self.add_launch(launch, launch.held)
                calls.update(launch.calls)
        for site, made in self._returned_launchers():
            for launch in self._result_launches(made, site):
                self.add_launch(launch, launch.held)
                calls.add(site.call)
        return calls

    def _calls_stored(
        self, site: CallSite, name: str, scope: Scope, value: cst.BaseExpression, blocks: tuple[cst.CSTNode, ...]
    ) -> bool:
        """Whether `site` calls the launcher `value` that `scope` binds to `name` under
        `blocks`: in that function (or at module level) under every block the binding is under;
        for a module-level launcher, also in a function reading the name from the module
        (`_binding_scope`) and none of the names the launcher reads."""
        if site.scope is scope:
            return site.blocks[: len(blocks)] == blocks
        return (
            scope is None
            and self._binding_scope(name, site.scope) is None
            and all(self._binding_scope(read, site.scope) is None for read in names_read(value))
        )

    def _returned_launchers(self) -> Iterator[tuple[CallSite, cst.Call]]:
        """The calls of a name a function binds once to a call of a function of the module
        (`launch = _launcher(n)`), in that function under every block the binding is under,
        with that call: `launch(x)` calls what `_launcher(n)` returned (`_result_launches`)."""
        for (name, scope), values in self.bindings.items():
            if scope is None or len(values) != 1 or param_named(scope, name) is not None:
                continue
            [made] = values
            if not (isinstance(made, cst.Call) and isinstance(made.func, cst.Name) and made.func.value in self.returns):
                continue
            blocks = self.bound_under.get(made, ())
            for site in self.calls_of.get(name, ()):
                if site.scope is scope and site.blocks[: len(blocks)] == blocks:
                    yield site, made

    def _launches_kernel(self, subscript: cst.Subscript, scope: Scope) -> bool:
        """Whether `kernel[grid]` in `scope` subscripts a kernel of the module (or a name bound
        only to such kernels) or an imported name (one the module does not bind), also wrapped
        by torch (`wrap_triton(kernel)[grid]`: `unwrapped`); of a choice (`(k_a if fast else
        k_b)[grid]`), each arm does."""
        return all(
            launched_name(held) is not None
            and (root := root_name(held)) is not None
            and bool(self.kernels_named(root, scope) or self._is_free(root, scope))
            for held in choices([unwrapped(subscript.value, self.wrapper_names)])
        )

    def _result_launches(self, made: cst.Call, site: CallSite) -> list[Launch]:
        """The launches the call `site` of what the call `made` returns makes
        (`_add_stored_launches`): of a launcher made there (`functools.partial(kernel[grid],
        num_warps=4)(x)`), or returned by a function of the module (`_launcher()(x)` after `def
        _launcher(): return functools.partial(kernel[grid], num_warps=4)`, each such return),
        one whose grid and bound arguments read no name of that function's own (its
        parameters, its locals): the launch reads them where the call is; or a `kernel[grid]`
        whose grid reads only parameters it never rebinds (`def _launcher(n): return
        kernel[(n,)]`, then `_launcher(N)(x)`): the launch's grid is it as `made` makes it
        (`_made_by`: `(N,)`), its `written_at` the subscript written in the function."""
        subscript = bound_launcher(made, self.partial_names)
        if subscript is not None:
            if not self._launches_kernel(subscript, site.scope):
                return []
            return [Launch(site.call, site.scope, site.blocks, subscript, partial=made)]
        if not isinstance(made.func, cst.Name):
            return []
        found: list[Launch] = []
        for returned, function in self.returns.get(made.func.value, ()):
            subscript = bound_launcher(returned, self.partial_names)
            own = {name for name, scope in self.bindings if scope is function} | {
                param.name.value for param in all_params(function)
            }
            if subscript is None or not self._launches_kernel(subscript, function):
                continue
            if names_read(returned) & own:
                placed = self._made_by(returned, function, made, site.scope) if returned is subscript else None
                if isinstance(placed, cst.Subscript) and placed.value.deep_equals(subscript.value):
                    placed = placed.with_changes(value=subscript.value)  # the kernel's name as written
                    found.append(Launch(site.call, site.scope, site.blocks, placed, written=subscript))
                continue
            partial = returned if isinstance(returned, cst.Call) else None
            found.append(Launch(site.call, site.scope, site.blocks, subscript, partial=partial))
        return found

    def _add_jit_function_launches(self) -> None:
        """Adds `kernel.fn[grid](...)` (also `kernel.fn.fn[grid]`, and a launcher storing it) as
        a launch of `kernel` too, when `kernel` names a kernel of the module or one it imports,
        or is a parameter of the launching function (a launcher helper given the kernel):
        `fn` is the JIT function under an autotuner or heuristics (Triton's `Autotuner.fn`),
        launched without them. The launch stays one of `fn` (a kernel of that name another
        module defines, `mod.fn[grid]`)."""
        for launch in list(self.launches.get("fn", ())):
            held = past_fn(launch.held)
            launched, reference = launched_name(held), dotted_name(held)
            if held is launch.held or launched is None or not reference:
                continue
            scope = launch.scope
            named = self.kernels_named(reference, scope) or self.imported_kernels(reference, scope)
            helper = isinstance(held, cst.Name) and scope is not None and param_named(scope, launched) is not None
            if named or (helper and launched not in ("self", "cls")):
                self.launches.setdefault(launched, []).append(launch)

    # ---- names and helpers ------------------------------------------------------------
    def values_of(self, name: str, scope: Scope) -> list[cst.BaseExpression]:
        """Values assigned to `name` in `scope`, else in the functions around it (a closure),
        else at module level."""
        while scope is not None:
            found = self.bindings.get((name, scope))
            if found:
                return found
            scope = self.enclosing.get(scope)
        return self.bindings.get((name, None), [])

    def list_additions(self, name: str, scope: Scope) -> list[CallSite]:
        """The `name.append(x)` / `name.extend(xs)` calls of the function binding `name` that
        `scope` reads (module level when none does), with the blocks around each."""
        owner = self._binding_scope(name, scope)
        return [
            site
            for method in ("append", "extend")
            for held, site in self.attribute_calls.get(method, ())
            if held == name and site.scope is owner and len(site.call.args) == 1
        ]

    def lists_filled(self, name: str, scope: Scope) -> list[tuple[str, cst.FunctionDef]]:
        """The parameters of the module's functions (no methods) the function binding `name`
        that `scope` reads passes it to bare (`_fill(configs)`), with each function, when that
        function never rebinds it: what it appends there (`list_additions`) is added to it."""
        owner = self._binding_scope(name, scope)
        found = []
        for use in self.name_uses.get(name, ()):
            call = passed_to(use.name, use.around) if use.owner is owner and use.around else None
            if call is None or not isinstance(call.func, cst.Name):
                continue
            for function in self.functions.get(call.func.value, ()):
                for param in all_params(function) if function not in self.class_of else ():
                    if passed_for(call, function, param.name.value) is use.name and (
                        (param.name.value, function) not in self.bindings
                    ):
                        found.append((param.name.value, function))
        return found

    def dict_sources(
        self,
        value: cst.BaseExpression,
        scope: Scope,
        hops: int = 0,
        trail: DictTrail | None = None,
        merged: tuple[Merged, ...] = (),
    ) -> Iterator[tuple[DictSource, Scope]]:
        """What a `**value` splat may hold: dict literals and `dict(...)` calls, written
        inline, bound to a name (plus what the function changes it with: `name["key"] = v`
        stores (`ItemStore`: the target storing into the name, whichever of the statement's
        targets it is), `name.update(...)` / `name.setdefault(k, v)` calls and `name |= ...`
        statements, and the dicts those add), returned by a function of the module (also
        called through `functools.partial`, also as an element of a returned tuple:
        `_, config = get_best_config(m)`), an entry of a table of them (`_CFG[key]`,
        `_CFGS[i]`: `_table_entries`), passed for a parameter by the module's calls of its
        function (`_launch(n, common)`), copied (`d.copy()`, `dict(d)`), or splatted into those
        (`dict(..., **base)`, `{**base}`), held by an attribute of a class of the module
        (`self.LAUNCH`: `attribute_values`) or returned by its method (`self._cfg()`:
        `_methods_called`); either arm of a choice (`a if c else b`, `a or b`)
        and both sides of a merge (`base | extra`). A name and the value bound to it are a hop
        each: a getter's result reaches a launch in twice the hops of other values. `trail`
        collects the names, the functions (getters) and attributes the dicts pass through on the way, and
        what is merged with each source on its way (`merged`: what `value` is merged with)."""
        if hops > 2 * ORIGIN_HOPS:
            return
        if isinstance(value, cst.Dict) or is_dict_call(value):
            if trail is not None:
                trail.merge(value, merged)
            yield value, scope
            inner = splats_inside(value)
            for each in inner:
                beside = (
                    Merged(value, scope, False),
                    *(Merged(other, scope, True) for other in inner if other is not each),
                )
                yield from self.dict_sources(each, scope, hops + 1, trail, (*merged, *beside))
        elif isinstance(value, cst.Name):
            if trail is not None:
                trail.names.add((value.value, self._binding_scope(value.value, scope)))
            in_function = self._binding_scope(value.value, scope) is not None
            held: list[tuple[cst.BaseExpression, Scope]] = []  # what the name holds: values bound or passed to it
            for bound in self.values_of(value.value, scope):
                binder = self.binders.get(bound)
                if in_function and isinstance(binder, cst.AugAssign) and changed_dict(binder):
                    continue  # `kw |= {...}` in a function: one of its changes, read below
                held.append((bound, scope))
            if scope is not None and param_named(scope, value.value) is not None:  # what its callers pass
                for site in self.callers_of(scope):
                    passed = passed_for(site.call, scope, value.value)
                    if passed is not None:
                        held.append((passed, site.scope))
            changed: list[tuple[ItemStore | DictChange, Scope]] = []  # its stores and changes
            for reader in self._scopes_reading(value.value, scope):
                changed += [(store, reader) for store in self.item_stores.get((value.value, reader), ())]
                changed += [(change, reader) for change in self._dict_changes(reader).get(value.value, ())]
            changes = [
                (node, [Merged(node, reader, False), *(Merged(added, reader, True) for added in dicts_added(node))])
                for node, reader in changed
            ]
            made_here = tuple(each for _, made in changes for each in made)
            for bound, where in held:
                yield from self.dict_sources(bound, where, hops + 1, trail, (*merged, *made_here))
            for (node, reader), (_, own) in zip(changed, changes, strict=True):
                beside = (
                    *merged,
                    *(Merged(bound, where, True) for bound, where in held),
                    *(each for other, made in changes if other is not node for each in made),
                )
                if trail is not None:
                    trail.merge(node, beside)
                yield node, reader
                for added in dicts_added(node):
                    yield from self.dict_sources(added, reader, hops + 1, trail, (*beside, own[0]))
        elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            for callee in self._callees(value.func.value, scope):
                if trail is not None and callee in self.returns:
                    trail.functions.add(callee)
                for returned, function in self.returns.get(callee, ()):
                    yield from self.dict_sources(returned, function, hops + 1, trail, merged)
        elif isinstance(value, cst.Call) and (copied := copied_dict(value)) is not None:
            yield from self.dict_sources(copied, scope, hops + 1, trail, merged)
        elif (got := entry_got(value)) is not None:  # `_CFG.get(key)`: the entry, or the default
            taken, default = got
            for found, where in self._table_entries(taken, scope, trail):
                yield from self.dict_sources(found, where, hops + 1, trail, merged)
            if default is not None:
                yield from self.dict_sources(default, scope, hops + 1, trail, merged)
        elif (copied := items_copied(value)) is not None:  # `{k: v for k, v in cfg.items()}`
            yield from self.dict_sources(copied, scope, hops + 1, trail, merged)
        elif isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):  # `self._cfg()`
            methods = self._methods_called(value.func, scope)
            if trail is not None and methods:
                trail.attributes.add(value.func.attr.value)
            for method in methods:
                for returned, function in self.returns.get(method.name.value, ()):
                    if function is method:
                        yield from self.dict_sources(returned, method, hops + 1, trail, merged)
        elif isinstance(value, cst.Attribute):  # `self.LAUNCH`, `Op.LAUNCH`
            held = self.attribute_values(value, scope)
            if trail is not None and held:
                trail.attributes.add(value.attr.value)
            for bound, where in held:
                yield from self.dict_sources(bound, where, hops + 1, trail, merged)
        elif isinstance(value, cst.Subscript):
            for element, function in self._returned_elements(value, scope):
                if trail is not None:
                    trail.functions.add(function.name.value)
                if element is not None:
                    yield from self.dict_sources(element, function, hops + 1, trail, merged)
            for entry, where in self._table_entries(value, scope, trail):
                yield from self.dict_sources(entry, where, hops + 1, trail, merged)
        elif isinstance(value, cst.IfExp):  # either arm (`configs[0] if configs else defaults(n)`)
            for arm in (value.body, value.orelse):
                yield from self.dict_sources(arm, scope, hops + 1, trail, merged)
        elif isinstance(value, cst.BooleanOperation):  # either operand (`config or defaults(n)`)
            for operand in (value.left, value.right):
                yield from self.dict_sources(operand, scope, hops + 1, trail, merged)
        elif isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.BitOr):
            # both sides of a merge (`base | dict(num_warps=4)`), each merged with the other
            for operand, other in ((value.left, value.right), (value.right, value.left)):
                yield from self.dict_sources(operand, scope, hops + 1, trail, (*merged, Merged(other, scope, True)))

    def _table_entries(
        self, item: cst.Subscript, scope: Scope, trail: DictTrail | None
    ) -> list[tuple[cst.BaseExpression, Scope]]:
        """What `table[key]` may be, `table` a name bound to a dict, list or tuple literal (a
        table of launch configs: `_CFG = {"small": {"num_warps": 4}, ...}`, `_CFGS =
        [dict(num_warps=4), ...]`), or given an entry by a store (`_CFG["huge"] = {...}`), with
        where the entry's names resolve: the entry of a literal key (`_CFG["small"]`, `_CFGS[0]`),
        else every entry but those of a key naming another platform than Ascend (`"cuda"`,
        `"hip"`, `"sm90"`: `names_other_platform`), which an NPU run does not pick."""
        if not isinstance(item.value, cst.Name) or len(item.slice) != 1:
            return []
        index = item.slice[0].slice
        if not isinstance(index, cst.Index):
            return []
        name, key, position = item.value.value, str_literal(index.value), int_literal(index.value)
        owner = self._binding_scope(name, scope)

        def picked(written: cst.BaseExpression | str) -> bool:
            text = written if isinstance(written, str) else str_literal(written)
            number = None if isinstance(written, str) else int_literal(written)
            if key is not None or position is not None:  # that entry, or one whose key is not written
                return (text, number) in ((key, position), (None, None))
            return text is None or not names_other_platform(text)

        found: list[tuple[cst.BaseExpression, Scope]] = []
        for table in self.values_of(name, scope):
            if isinstance(table, cst.Dict):
                found += [
                    (element.value, owner)
                    for element in table.elements
                    if isinstance(element, cst.DictElement) and picked(element.key)
                ]
            elif isinstance(table, cst.List | cst.Tuple) and key is None:
                listed = [element.value for element in table.elements if isinstance(element, cst.Element)]
                if position is not None and len(listed) == len(table.elements):
                    listed = [listed[position]] if -len(listed) <= position < len(listed) else []
                found += [(element, owner) for element in listed]
        found += [(store.value, owner) for store in self.item_stores.get((name, owner), ()) if picked(store.key)]
        if found and trail is not None:  # a table of dicts (not a name holding a getter's result)
            trail.names.add((name, owner))
            trail.tables.add((name, owner))
        return found

    def attribute_values(self, attribute: cst.Attribute, scope: Scope) -> list[tuple[cst.BaseExpression, Scope]]:
        """What `self.X` / `cls.X` in a method of a class of the module, `Owner.X`, or `cfg.X` of
        an instance (`_instance_of`), may hold, with where the names of each resolve: the values
        the class body binds to `X` and, for `self.X` and `cfg.X`, those `self.X = v` stores of
        its `__init__` put there, when nothing else stores `X` (another method, a nested function, `op.X = v`)
        and no class deriving from it binds or stores it (its value may be the one read); none
        otherwise, nor in a method binding `self` anew (`self = other`: `_rebinds_self`). When
        `__init__` stores `X` only by plain statements of its own or of its `if` arms
        (`InitLine`), they run in order, the arms as alternatives (`_held_from_init`): a method
        it alone calls reads what the stores before each call
        leave, another what they leave at its end (the last hides the class body's value), a read
        in a store's value what the stores before it leave (`self.BLOCK = min(self.BLOCK,
        1024)`: the class body's); `Owner.X` / `cls.X` read the class attribute, which no
        instance store changes. A name a method binds only to `self` (`op = self`: `_selves`)
        is `self`: `op.X` reads and stores as `self.X` does."""
        receiver = attribute.value.value if isinstance(attribute.value, cst.Name) else None
        if receiver is not None and scope is not None and receiver in self._selves(scope):
            receiver = "self"  # `obj = self`, then `obj.BLOCK`
        name = attribute.attr.value
        owners = [
            owner for owner in dict.fromkeys(self.class_of.values()) if self._reaches_class(receiver, scope, owner)
        ]
        instance = None
        if not owners and receiver is not None:
            instance = self._instance_of(receiver, name, scope)
            owners = [] if instance is None else [instance]
        if len(owners) != 1:
            return []
        owner = owners[0]
        related = {owner, *self._derived_classes(owner)}
        found: list[tuple[cst.BaseExpression, Scope]] = [(value, None) for value in _class_body_values(owner, name)]
        if any(_class_body_values(derived, name) for derived in related - {owner}) or self._sets_by_name(owner):
            return []
        if receiver in ("self", "cls") and scope is not None and self._rebinds_self(scope, receiver):
            return []  # `self = other`: what that holds
        as_self = receiver == "self" or instance is not None  # what an instance holds
        line = self._init_line(owner, name) if as_self else None
        if line is not None:
            found = self._held_from_init(line, attribute, None if instance is not None else scope, found)
        for dotted, stored in self.attribute_stores.items():
            held, _, stored_name = dotted.rpartition(".")
            for value, where in stored if stored_name == name else ():
                into_self = held == "self" or (where is not None and held in self._selves(where))
                if into_self and where is not None and self._rebinds_self(where, "self"):
                    return []  # stored into whatever `self` holds there
                if into_self and (where is None or not as_self or self.class_of.get(where) not in (None, *related)):
                    continue  # a class body's (`_class_attribute`, read above), an instance's or another class's
                if into_self and line is not None and where is line.init:
                    continue  # read in order (`_held_from_init`)
                if (
                    not into_self
                    or where is None
                    or self.class_of.get(where) is not owner
                    or where.name.value != "__init__"
                ):
                    return []
                found.append((value, where))
        return found

    def _sets_by_name(self, owner: cst.ClassDef) -> bool:
        """A method of `owner` may store into `self` by a name not written as an attribute:
        `setattr(self, "BLOCK", 1024)` (or into any object: `obj = self; setattr(obj, ...)`),
        `self.__dict__.update(kw)`. Read once per class."""
        if owner not in self._named_stores:
            self._named_stores[owner] = any(
                (isinstance(node, cst.Call) and is_name(node.func, "setattr"))
                or (isinstance(node, cst.Attribute) and node.attr.value == "__dict__")
                for node in walk(owner)
            )
        return self._named_stores[owner]

    def _rebinds_self(self, method: cst.FunctionDef, receiver: str) -> bool:
        """The function binds `receiver` (`self`, `cls`) anew in its own body (`self = other`, `for
        self in ops:`, `(self := o)`): its reads and stores through it are of what that holds.
        Read once per function."""
        key = (method, receiver)
        if key not in self._self_rebound:
            self._self_rebound[key] = any(receiver in rebound_names(node) for node in _own_nodes(method))
        return self._self_rebound[key]

    def _selves(self, method: cst.FunctionDef) -> frozenset[str]:
        """The names a method of a class binds only to its `self` (`obj = self`, assignments
        alone, its `self` never bound anew): what it stores through them is stored into `self`.
        Read once per function."""
        found = self._self_names.get(method)
        if found is None:
            named = (
                []
                if method not in self.class_of
                or first_param(method.params) != "self"
                or self._rebinds_self(method, "self")
                else [
                    target.target.value
                    for node in _own_nodes(method)
                    if isinstance(node, cst.Assign) and is_name(node.value, "self")
                    for target in node.targets
                    if isinstance(target.target, cst.Name)
                ]
            )
            found = self._self_names[method] = frozenset(
                alias
                for alias in named
                # no values when a `for` or `with` also binds it (`_values_bound`): held then is not `self`
                if (bound := self._values_bound(alias, method, module_level=False))[0] is method
                and bound[1]
                and all(is_name(value, "self") for value in bound[1])
            )
        return found

    def _init_line(self, owner: cst.ClassDef, name: str) -> InitLine | None:
        """The stores of `self.X` in `owner`'s one `__init__` (`InitLine.of`), read once per class and name."""
        key = (owner, name)
        if key not in self._init_lines:
            self._init_lines[key] = InitLine.of(owner, name, self._selves)
        return self._init_lines[key]

    def _held_from_init(
        self, line: InitLine, attribute: cst.Attribute, scope: Scope, body: list[tuple[cst.BaseExpression, Scope]]
    ) -> list[tuple[cst.BaseExpression, Scope]]:
        """What `self.X` read at `attribute` in `scope` holds, `body` the class body's values and
        `line` the stores of `__init__`, which run in order: in `__init__`, what the stores
        before the statement reading it leave (`self.BLOCK = min(self.BLOCK, 1024)` reads the
        class body's); in a method only `__init__` calls (by `self.f(...)` in its own
        statements, `_called_by_init_only`), what they leave before each call; elsewhere what
        they leave at its end, and before each of its statements calling a method of `self` or
        passing it on before its last store (which may call this one). With no `scope`, what an
        instance made outside holds (`cfg.X` of `cfg = Cfg()`): what they leave at its end."""
        if scope is None:
            points = [line.end]
        elif scope is line.init:
            points = [line.reads.get(id(attribute), line.end)]
        elif isinstance(scope, cst.FunctionDef) and self._called_by_init_only(scope, line):
            points = line.calls[scope.name.value]
        else:
            points = line.later
        found: dict[int, tuple[cst.BaseExpression, Scope]] = {}
        for value in _joined(*points):
            for held in body if value is None else [(value, line.init)]:
                found.setdefault(id(held[0]), held)
        return list(found.values())

    def _called_by_init_only(self, method: cst.FunctionDef, line: InitLine) -> bool:
        """Every use of the method's name as an attribute in the module is a call `self.f(...)`
        in a statement of `__init__`'s own body (`InitLine.calls`)."""
        name = method.name.value
        uses = self._attribute_uses.get(name, ())
        return name in line.calls and all(id(attribute) in line.called for attribute, _, _ in uses)

    def _instance_of(self, receiver: str, name: str, scope: Scope) -> cst.ClassDef | None:
        """The class of the module whose instance `receiver` holds where `scope` reads it: its one
        binding `cfg = Cfg(...)`, by assignment, of a class the module defines once, with no base
        nor metaclass (no `NamedTuple` or model whose `__init__` sets fields unseen), called with
        nothing that may be the field `name` (no positional, `*` or `**` argument, no `name=`: a
        dataclass's `__init__` stores what is passed)."""
        _, bound = self._values_bound(receiver, scope)
        made = bound[0] if len(bound) == 1 else None
        if not (isinstance(made, cst.Call) and isinstance(made.func, cst.Name)):
            return None
        classes = self.classes.get(made.func.value, [])
        if len(classes) != 1 or classes[0].bases or classes[0].keywords:
            return None
        passes = any(arg.keyword is None or arg.keyword.value == name for arg in made.args)
        return None if passes else classes[0]

    def attribute_used_otherwise(self, trail: DictTrail) -> str | None:
        """An attribute the dicts on the `trail` were held by or returned from
        (`DictTrail.attributes`: `self.LAUNCH`, `self._cfg()`) that host code uses otherwise
        than by splatting it (or the method's result) into a call or storing into it: read,
        passed, changed (`self.LAUNCH["num_warps"]`, `self.kw.update(...)`), where a key of the
        dict may be read or written. Its name, the first such in order."""
        for name in sorted(trail.attributes):
            for attribute, parent, grandparent in self._attribute_uses.get(name, ()):
                if isinstance(parent, cst.AssignTarget) and parent.target is attribute:
                    continue
                splatted = parent if isinstance(parent, cst.Call) and parent.func is attribute else attribute
                above = grandparent if splatted is parent else parent
                if not (isinstance(above, cst.Arg) and above.star == "**" and above.value is splatted):
                    return name
        return None

    @cached_property
    def _attribute_uses(self) -> dict[str, list[tuple[cst.Attribute, cst.CSTNode | None, cst.CSTNode | None]]]:
        """Each attribute host code and kernels write, by its name, with its parent and the
        parent's parent (`attribute_used_otherwise`)."""
        found: dict[str, list[tuple[cst.Attribute, cst.CSTNode | None, cst.CSTNode | None]]] = {}
        stack: list[tuple[cst.CSTNode, cst.CSTNode | None, cst.CSTNode | None]] = [(self.module, None, None)]
        while stack:
            node, parent, grandparent = stack.pop()
            if type(node) is cst.Attribute:
                found.setdefault(node.attr.value, []).append((node, parent, grandparent))
            stack.extend((child, node, parent) for child in child_nodes(node))
        return found

    def keys_removed(self, value: cst.BaseExpression, scope: Scope, launch: cst.Call | None) -> frozenset[str]:
        """The string keys taken out of the dict a `**name` splat of the `launch` splats before
        it on every path: `name.pop("num_warps", None)` / `del name["num_warps"]` statements of
        the function's own body (under no `if`, loop, `with` or `try`) between the one binding
        of `name` there (also in its own body: `cfg = dict(_CFG[key])`) and the statement
        holding the launch. None when the function also stores into or updates the dict
        (`_fills_dict`: `name["k"] = v`, `name.update(...)`), which may put a key back."""
        if not isinstance(value, cst.Name) or not isinstance(scope, cst.FunctionDef) or launch is None:
            return frozenset()
        name = value.value
        bound = self.bindings.get((name, scope), [])
        if len(bound) != 1 or self.bound_under.get(bound[0]) or param_named(scope, name) is not None:
            return frozenset()
        if self._fills_dict(name, scope):
            return frozenset()
        binder = self.binders.get(bound[0])
        statements = statements_of(suite_lines(scope.body))
        first = next((i for i, statement in enumerate(statements) if statement is binder), None)
        last = next((i for i, statement in enumerate(statements) if any(n is launch for n in walk(statement))), None)
        if first is None or last is None or last <= first:
            return frozenset()
        removed: set[str] = set()
        for statement in statements[first + 1 : last]:
            if isinstance(statement, cst.Expr | cst.Del):
                taken = removed_from(statement.value if isinstance(statement, cst.Expr) else statement)
                key = str_literal(taken[1]) if taken is not None and taken[0] == name and taken[1] is not None else None
                if key is not None:
                    removed.add(key)
        return frozenset(removed)

    def changed_anywhere(self, name: str, scope: Scope, kept: Callable[[cst.Call], bool]) -> bool:
        """Whether host code may change the dict `name` (as `scope` reads it) holds, anywhere in the
        module: a method called on it other than a read (`_D.update(...)` at module level too),
        an item stored or deleted (`_D["BLOCK"] = 2048`), an augmented assignment (`_D |= ...`),
        or passing it to a call (`_shrink(_D)`) other than those `kept` says only read it."""
        owner = self._binding_scope(name, scope)
        for use in self.name_uses.get(name, ()):
            if use.owner is owner and use.around:
                passed = passed_to(use.name, use.around)
                if changes_in_place(use.name, use.around) or (passed is not None and not kept(passed)):
                    return True
        return False

    def keys_read(self, trail: DictTrail) -> dict[str, cst.CSTNode]:
        """The string keys read out of the dicts a `**value` splat may hold, given the `trail`
        `dict_sources(value, scope, trail=trail)` left, each with its first read: `d["key"]`
        (loaded, or deleted: `del d["key"]`), `d.pop("key")`, `d.get("key")` (not a `pop` /
        `get` with a default whose result is dropped), `"key" in d`, through any name the dicts
        pass through on their way to the splat or reach from one (`_reached`): an alias or copy,
        a parameter they are passed for, the result of a getter returning them, wherever it is
        bound; also out of an entry of a table holding them (`_CFG[k]["num_warps"]`, also one
        taken by `.get`: `_CFG.get(k)["num_warps"]`, `_CFG.get(k).get("num_warps")`). Taking
        such a key out of the dict changes or breaks what the read does."""
        names, functions = self._reached(trail)
        found: dict[str, cst.CSTNode] = {}
        for name, owner in sorted(names, key=lambda named: named[0]):
            table = (name, owner) in trail.tables  # its keys pick an entry: the entries' are read
            for use in self.name_uses.get(name, ()):
                if use.owner is not owner:
                    continue
                read = None if table else key_read(use.name, use.around)
                entry = use.around[0] if use.around else None
                if read is None and isinstance(entry, cst.Subscript) and entry.value is use.name:
                    read = key_read(entry, use.around[1:])  # `_CFG[k]["num_warps"]`, `_CFG["large"]["num_warps"]`
                elif read is None and table and (got := _got(use.name, use.around)) is not None:
                    read = key_read(got, use.around[2:])  # `_CFG.get(k)["num_warps"]`, `_CFG.get(k).get("num_warps")`
                if read is not None:
                    found.setdefault(*read)
        for function in sorted(functions):  # `defaults()["num_warps"]`: read from the call's result
            for use in self.name_uses.get(function, ()):
                call = use.around[0] if use.around else None
                read = key_read(call, use.around[1:]) if isinstance(call, cst.Call) and call.func is use.name else None
                if read is not None:
                    found.setdefault(*read)
        return found

    def table_read_whole(self, trail: DictTrail) -> str | None:
        """A table the dicts on the `trail` were entries of (`DictTrail.tables`) that host code
        uses otherwise than by storing an entry (`_CFG["huge"] = ...`), binding one to a name
        (`cfg = _CFG[key]`, also a copy: `dict(_CFG[key])`, `_CFG[key].copy()`: `keys_read`
        follows the name), splatting one (`**_CFG[i]`) or reading a literal key out of one
        (`_CFG[key]["BLOCK"]`, `_CFG["large"].get("num_warps")`: `keys_read` has it): iterated,
        passed, its `.values()` read, an entry iterated or passed, where any key of its entries
        may be read (`max(c["num_warps"] for c in _CFGS)`). Its name, the first such in order."""
        for name, owner in sorted(trail.tables, key=lambda named: named[0]):
            for use in self.name_uses.get(name, ()):
                parent = use.around[0] if use.around else None
                if use.owner is not owner:
                    continue
                if isinstance(parent, cst.Subscript) and parent.value is use.name:
                    if not _entry_taken(parent, use.around[1:]):
                        return name
                elif (got := _got(use.name, use.around)) is not None:  # `_CFG.get(key)`: as `_CFG[key]`
                    if not _entry_taken(got, use.around[2:]):
                        return name
                elif self._loops_over_entries(parent, use.name, owner):
                    continue  # `for cfg in _CFGS:`, `cfg` bound to each entry (`_any_entry`): `keys_read` follows it
                elif not isinstance(parent, cst.AssignTarget | cst.NameItem):  # its binding, `global _CFG`
                    return name
        return None

    def _loops_over_entries(self, loop: cst.CSTNode | None, table: cst.Name, scope: Scope) -> bool:
        """`loop` is a `for` over the list of dicts `table` (`_table_of_dicts`) binding a name."""
        return (
            isinstance(loop, cst.For)
            and loop.iter is table
            and isinstance(loop.target, cst.Name)
            and self._table_of_dicts(table.value, scope)
        )

    def _reached(self, trail: DictTrail) -> tuple[set[tuple[str, Scope]], set[str]]:
        """The names (with the function binding each) a dict on the `trail` may be held by: the
        trail's, and those bound to (or passed for a parameter as) one of them, a copy of one
        (`d.copy()`, `dict(d)`, `{**d}`), a choice of them, or the result of a function
        returning one (the trail's getters too), until nothing more is reached."""
        names, functions = set(trail.names), set(trail.functions)
        for _ in range(2 * ORIGIN_HOPS):
            before = len(names) + len(functions)
            for (name, owner), values in self.bindings.items():
                if (name, owner) not in names and any(self._holds(v, owner, names, functions) for v in values):
                    names.add((name, owner))
            for function_name, returned in self.returns.items():
                if function_name not in functions and any(
                    self._holds(value, function, names, functions) for value, function in returned
                ):
                    functions.add(function_name)
            for function_name, sites in self.calls_of.items():
                for function in self.functions.get(function_name, ()):
                    for param in all_params(function):
                        if (param.name.value, function) in names:
                            continue
                        for site in sites:
                            passed = passed_for(site.call, function, param.name.value)
                            if passed is not None and self._holds(passed, site.scope, names, functions):
                                names.add((param.name.value, function))
                                break
            if len(names) + len(functions) == before:
                break
        return names, functions

    def _holds(
        self,
        value: cst.BaseExpression,
        scope: Scope,
        names: AbstractSet[tuple[str, Scope]],
        functions: AbstractSet[str],
    ) -> bool:
        """Whether `value` may be (a copy of) a dict held by `names` or returned by `functions`."""
        if isinstance(value, cst.Name):
            return (value.value, self._binding_scope(value.value, scope)) in names
        if isinstance(value, cst.Call):
            if isinstance(value.func, cst.Name) and value.func.value in functions:
                return True
            copied = copied_dict(value)
            if copied is not None:
                return self._holds(copied, scope, names, functions)
            got = entry_got(value)  # `_CFG.get(key)`, `cfg.get(key, default)`
            if got is not None:
                entry, default = got
                return self._holds(entry.value, scope, names, functions) or (
                    default is not None and self._holds(default, scope, names, functions)
                )
            return is_dict_call(value) and any(self._holds(a.value, scope, names, functions) for a in value.args)
        if isinstance(value, cst.Subscript):  # `f(...)[1]`, an element of a tuple a getter returns
            # (or an entry of a table of dicts: `_CFG[key]`)
            return isinstance(value.value, cst.Call | cst.Name) and self._holds(value.value, scope, names, functions)
        if isinstance(value, cst.Dict):
            return any(
                isinstance(e, cst.StarredDictElement) and self._holds(e.value, scope, names, functions)
                for e in value.elements
            )
        if isinstance(value, cst.IfExp):
            return any(self._holds(arm, scope, names, functions) for arm in (value.body, value.orelse))
        if (copied := items_copied(value)) is not None:
            return self._holds(copied, scope, names, functions)
        if isinstance(value, (cst.BooleanOperation, cst.BinaryOperation)):
            return any(self._holds(side, scope, names, functions) for side in (value.left, value.right))
        return False

    @cached_property
    def name_uses(self) -> dict[str, list[NameUse]]:
        """Each name host code writes (kernel bodies aside; not attribute names, keywords or
        the names of `def`s and parameters), by name, with the function binding it
        (`_binding_scope`) and the nodes around it."""
        # node types compared exactly and kernel bodies by id: this walks the whole module, and
        # a failing `isinstance` of a libcst node, like a node's hash, is a Python call
        kernel_bodies = {id(function.body) for function, is_kernel in self.functions_met if is_kernel}
        found: dict[str, list[NameUse]] = {}
        binders: dict[tuple[str, Scope], Scope] = {}  # `_binding_scope`, by name and function
        stack: list[tuple[cst.CSTNode, Scope, tuple[cst.CSTNode, ...]]] = [(self.module, None, ())]
        while stack:
            node, scope, around = stack.pop()
            if type(node) is cst.Name:
                key = (node.value, scope)
                if key not in binders:
                    binders[key] = self._binding_scope(*key)
                found.setdefault(node.value, []).append(NameUse(node, binders[key], around))
                continue
            if id(node) in kernel_bodies:
                continue
            inner = node if type(node) is cst.FunctionDef else scope
            skipped: cst.CSTNode | None = None
            if type(node) is cst.Attribute:
                skipped = node.attr
            elif type(node) is cst.Arg:
                skipped = node.keyword
            elif type(node) is cst.FunctionDef or type(node) is cst.ClassDef or type(node) is cst.Param:
                skipped = node.name
            around_child = (node, *around[:5])
            for child in reversed(child_nodes(node)):
                if child is not skipped:
                    stack.append((child, inner, around_child))
        return found

    def _scopes_reading(self, name: str, scope: Scope) -> list[Scope]:
        """The functions whose `name` is the one `scope` reads: `scope`, the functions around
        it up to the one binding `name`, and module level when none does (a closure's launch
        splats the dict its outer function fills)."""
        owner = self._binding_scope(name, scope)
        found = [scope]
        while scope is not None and scope != owner:
            scope = self.enclosing.get(scope)
            found.append(scope)
        return found

    def _returned_elements(
        self, value: cst.Subscript, scope: Scope
    ) -> list[tuple[cst.BaseExpression | None, cst.FunctionDef]]:
        """What `f(...)[i]` in `scope` may be (also `b` of `a, b = f(...)`), `f` the one
        function of the module the call names there (`called_function`): for each of its
        returns Ascend may run (`returns_on_ascend`), the i-th element of the tuple it returns,
        with `f` (where the element's names resolve); None for a return that is no such tuple
        (`return cached`)."""
        index = returned_index(value)
        function = self.called_function(value.value, scope) if isinstance(value.value, cst.Call) else None
        if index is None or function is None:
            return []
        return self._elements_returned(function, index)

    def _elements_returned(
        self, function: cst.FunctionDef, index: int
    ) -> list[tuple[cst.BaseExpression | None, cst.FunctionDef]]:
        """The `index`-th element of what each return of `function` Ascend may run returns
        (`_returned_element`)."""
        return [
            (self._returned_element(returned, index, function), function)
            for returned in self.returns_on_ascend(function)
        ]

    def items_held(self, value: cst.BaseExpression, scope: Scope) -> list[cst.BaseExpression] | None:
        """The items of a tuple, list or set written out (`written_items`), or held by a name
        bound once to one (`SUPPORTED = (SHAPE_1, SHAPE_2)` at module level, `shape = (b, h)`);
        None for anything else."""
        if isinstance(value, cst.Name):
            values = self.values_of(value.value, scope)
            value = values[0] if len(values) == 1 else value
        return written_items(value)

    def _returned_element(
        self, returned: cst.BaseExpression, index: int, function: cst.FunctionDef
    ) -> cst.BaseExpression | None:
        """The `index`-th element of a tuple, or the extent of a shape (`x.shape[index]` of
        `return x.shape`, `tuple(x.shape)`, `x.size()`), `function` returns (`_returned_value`):
        what unpacking the value there reads, its names resolving in `function`. None for a
        return that is neither (`return cached`)."""
        held = self._returned_value(returned, function)
        if isinstance(held, cst.Tuple):
            return tuple_element(held, index)
        if not is_shape(held):
            return None
        key = (held, index)
        if key not in self._returned_items:
            self._returned_items[key] = indexed(held, index)
            self._origin_scopes[self._returned_items[key]] = function
        return self._returned_items[key]

    def _returned_value(self, returned: cst.BaseExpression, function: cst.FunctionDef) -> cst.BaseExpression:
        """What a return gives: the tuple or shape a name it returns is bound to once in
        `function` (`shape = (b, h, d)` then `return shape`), else the value returned."""
        if not isinstance(returned, cst.Name):
            return returned
        held = self._bound_once(returned, function, lambda value: isinstance(value, cst.Tuple) or is_shape(value))
        return returned if held is None else held

    def called_function(self, call: cst.Call, scope: Scope) -> cst.FunctionDef | None:
        """The one function of the module `call` names in `scope` (`_visible_functions`:
        `_tiles(n)` calls the `_tiles` defined around it or at module level, not a method
        `Other._tiles` nor another function's nested `_tiles`), or the one method
        `self._tiles(n)` / `Ops._tiles(n)` calls (`_methods_called`); None when there is none
        or several."""
        func = call.func
        if isinstance(func, cst.Attribute):
            functions = self._methods_called(func, scope)
        else:
            functions = self._visible_functions(func.value, scope) if isinstance(func, cst.Name) else []
        return functions[0] if len(functions) == 1 else None

    def returns_on_ascend(self, function: cst.FunctionDef) -> list[cst.BaseExpression]:
        """What each return of `function` returns, but for those only another platform runs
        (`on_other_platform`: `if not IS_NPU: return 8, 131072`)."""
        return [
            value
            for value, returning in self.returns.get(function.name.value, ())
            if returning is function and not self.on_other_platform(value)
        ]

    def _dict_changes(self, scope: Scope) -> dict[str, list[DictChange]]:
        """The statements of a function that change in place the dict a name holds, by name:
        `kw.update(...)`, `kw.setdefault(k, v)` (the calls), `kw |= ...`. Module level has none
        (the host walk keeps no module to look in)."""
        changes = self._dict_changes_by_scope.get(scope)
        if changes is None:
            changes = self._dict_changes_by_scope[scope] = {}
            for node in _own_nodes(scope) if scope is not None else ():
                changed = changed_dict(node)
                if changed is not None:
                    changes.setdefault(changed[0], []).append(changed[1])
        return changes

    @cached_property
    def _dict_changes_by_scope(self) -> dict[Scope, dict[str, list[DictChange]]]:
        """`_dict_changes` of each function asked about so far."""
        return {}

    def _callees(self, name: str, scope: Scope) -> list[str]:
        """The functions a call of `name` runs: itself, and `f` when `name` is bound to
        `functools.partial(f, ...)`."""
        partials = [
            value.args[0].value.value
            for value in self.values_of(name, scope)
            if isinstance(value, cst.Call)
            and is_partial(value.func, self.partial_names)
            and value.args
            and isinstance(value.args[0].value, cst.Name)
        ]
        return [name, *partials]

    def heuristic_entries(self) -> Iterator[tuple[cst.DictElement, cst.Dict, Scope]]:
        """Entries of dict literals that map a string key to a heuristic, a lambda or a
        function of the module, with their dict: the shape of a `triton.heuristics` table,
        whether this module passes it to the decorator or another looks it up
        (`triton.heuristics(runtime.get_heuristic_config("softmax"))`)."""
        for table, scope in self.keyed_callables:
            for element in table.elements:
                if maps_a_key_to_a_callable(element) and self.is_heuristic(element.value):
                    yield element, table, scope

    def is_heuristic(self, value: cst.BaseExpression) -> bool:
        """A lambda, or the name of a function of the module."""
        return isinstance(value, cst.Lambda) or (isinstance(value, cst.Name) and value.value in self.functions)

    def keyword_value(self, args: Sequence[cst.Arg], name: str, scope: Scope) -> Passed | None:
        """The value call arguments in `scope` pass as keyword `name`, written out or through a
        `**` splat, with where the dict holding it was filled."""
        for arg in args:
            if arg.keyword is not None and arg.keyword.value == name:
                return Passed(arg.value, scope)
        for arg in args:
            if arg.star == "**":
                for source, filled in self.dict_sources(arg.value, scope):
                    found = dict_entry(source, name)
                    if found is not None:
                        return Passed(found, filled)
        return None

    # ---- launches of a kernel ---------------------------------------------------------
    def launches_of(self, kernel: Kernel) -> list[Launch]:
        """The kernel's own launches: `kernel[grid](...)`, `mod.kernel[grid](...)`, those
        through an entry naming it in a namespace or dict (`k = _kernels()`, then
        `k.name[grid](...)` / `k["name"][grid](...)`: `_entry_launches`), and those of a name
        the module imports from itself (`from .this_module import kernel as k`, then
        `k[grid](...)`: `imported_kernels`)."""
        return list(
            dict.fromkeys(
                [
                    *self.launches.get(kernel.name, ()),
                    *self._entry_launches.get(kernel.name, ()),
                    *self._import_launches.get(kernel, ()),
                ]
            )
        )

    def launches_with_helpers(self, kernel: Kernel) -> list[Launch]:
        """The kernel's launches with arguments (`launches_passing`), and those of launcher
        helpers it is passed to (`kernel[g](...)` in `def launch(kernel, ...)` when the module
        calls `launch(my_kernel, ...)`)."""
        return [
            *self.launches_passing(kernel),
            *self._as_called(self._helper_launches.get(kernel.name, ()), kernel.name),
        ]

    def launches_passing(self, kernel: Kernel) -> list[Launch]:
        """The launches whose arguments are what the kernel gets: its own (`launches_of`) and
        those through a name bound only to kernels of the module (`fn = k_32 if BT == 32 else
        k_64`, or `kernel = my_kernel`, then `fn[g](...)`: a launch of each). Found once per
        kernel: rules ask of each parameter."""
        if kernel not in self._launches_passing:
            launches = [*self.launches_of(kernel), *self._chosen_launches.get(kernel.name, ())]
            self._launches_passing[kernel] = self._as_called(launches, kernel.name)
        return self._launches_passing[kernel]

    def imported_launches(self, imported: AbstractSet[str]) -> dict[str, list[Launch]]:
        """By name, the launches of the `imported` names (kernels of other modules: `k[grid](...)`
        after `from .kernels import k`, `kernels.k[grid](...)` after `from . import kernels`),
        with those of the launcher helpers they are passed to; not where a function's own
        parameter or binding hides the import."""
        found: dict[str, list[Launch]] = {}
        for launched, launches in self.launches.items():
            for launch in launches:
                head = launched_value(launch, launched)
                while isinstance(head, cst.Attribute):
                    head = head.value
                if isinstance(head, cst.Name) and head.value in imported and not self._hides(head.value, launch.scope):
                    found.setdefault(launched, []).extend(self._as_called([launch], launched))
        for name in imported:
            if name not in self.kernels and not self._hides(name, None):
                found.setdefault(name, []).extend(self._as_called(self._helper_launches.get(name, ()), name))
        return {name: launches for name, launches in found.items() if launches}

    def imported_kernel_launches(self) -> dict[Kernel, list[Launch]]:
        """The kernels of other modules of the package the module launches through a name it
        imports (`a[grid](...)` after `from .kernels import k as a`, `kernels.k[grid](...)`
        after `from . import kernels`: `imported_kernels`), each with those launches as
        called through forwarding helpers, and the launches of the launcher helpers the name
        is passed to (`launch(a, ...)`)."""
        found: dict[Kernel, dict[Launch, None]] = {}
        for kernel, launches in self._import_launches.items():
            if self.kernels.get(kernel.name) is not kernel:
                found.setdefault(kernel, {}).update(dict.fromkeys(self._as_called(launches, kernel.name)))
        for name, launches in self._helper_launches.items():
            for kernel in self.imported_kernels(name, None):
                if self.kernels.get(kernel.name) is not kernel:
                    found.setdefault(kernel, {}).update(dict.fromkeys(self._as_called(launches, name)))
        return {kernel: list(launches) for kernel, launches in found.items()}

    def imported_kernels(self, reference: str, scope: Scope) -> list[Kernel]:
        """The kernels a dotted name (`a`, `kernels.k`) names in `scope` through an import of a
        module of the package: this module's kernel when the import names the module itself
        (`ImportedFunctions.own_name`), else the kernels the imported module defines under
        that name (`ImportedFunctions.jit_functions`: their signatures, one hop). None when
        the function, one around it or the module binds the name's head, or the module
        cannot be read or defines no such kernel."""
        if self.imported is None or not self._is_free(reference.split(".")[0], scope):
            return []
        own = self.imported.own_name(reference)
        if own is not None:
            return [self.kernels[own]] if own in self.kernels else []
        return self.imported.jit_functions(reference)

    @cached_property
    def _import_launches(self) -> dict[Kernel, list[Launch]]:
        """By kernel, the launches of a name imported from a module of the package that names
        it (`imported_kernels`), as written, and of a local name every value of which is such a
        name or a choice between them (`fn = k_32 if BT == 32 else k_64` after `from .kernels
        import k_32, k_64`: a launch of each)."""
        found: dict[Kernel, list[Launch]] = {}
        for launched, launches in self.launches.items():
            for launch in launches:
                held = launched_value(launch, launched)
                reference = dotted_name(held)
                kernels = self.imported_kernels(reference, launch.scope) if reference else []
                if (
                    not kernels
                    and isinstance(held, cst.Name)
                    and launch.scope
                    and not param_named(launch.scope, launched)
                ):
                    kernels = self._imported_kernels_among(self.values_of(launched, launch.scope), launch.scope)
                for kernel in kernels:
                    found.setdefault(kernel, []).append(launch)
        return found

    def _imported_kernels_among(self, bound: Sequence[cst.BaseExpression], scope: Scope) -> list[Kernel]:
        """The imported kernels (`imported_kernels`) the values name, when each names one or is
        a choice between them; none when one value is anything else, or there is none."""
        chosen: dict[Kernel, None] = {}
        for value in choices([unwrapped(value, self.wrapper_names) for value in choices(bound)]):
            reference = dotted_name(value)
            kernels = self.imported_kernels(reference, scope) if reference else []
            if not kernels:
                return []
            chosen.update(dict.fromkeys(kernels))
        return list(chosen)

    def kernels_named(self, name: str, scope: Scope) -> list[str]:
        """The module's kernels `name` holds in `scope`: a kernel the function does not rebind,
        or each kernel of a name bound only to kernels (`_kernels_bound_to`)."""
        if name in self.kernels and not (
            scope is not None and ((name, scope) in self.bindings or param_named(scope, name))
        ):
            return [name]
        return self._kernels_bound_to(name, scope)

    def _is_free(self, name: str, scope: Scope) -> bool:
        """Neither `scope`, a function around it nor the module binds `name` or takes it as a
        parameter: an import (or a builtin)."""
        return self._binding_scope(name, scope) is None and not self._hides(name, None)

    def _hides(self, name: str, scope: Scope) -> bool:
        """`name` is bound in `scope` (a parameter or an assignment), or at module level."""
        return (scope is not None and param_named(scope, name) is not None) or bool(
            self.bindings.get((name, scope)) or self.bindings.get((name, None)) or name in self.functions
        )

    @cached_property
    def _chosen_launches(self) -> dict[str, list[Launch]]:
        """By kernel name: the launches of a local name every value of which is that kernel or
        another kernel of the module, and those of an attribute of `self` / `cls` every value
        of which is (`_kernel = my_kernel` in the class body, `self._kernel = my_kernel`)."""
        found: dict[str, list[Launch]] = {}
        for launched, launches in self.launches.items():
            if launched in self.kernels:
                continue
            for launch in launches:
                held = launch.held
                if isinstance(held, cst.Name):
                    chosen = self._kernels_bound_to(launched, launch.scope)
                elif isinstance(held, cst.Attribute) and dotted_name(held) in (f"self.{launched}", f"cls.{launched}"):
                    stored = [value for value, _ in self.attribute_stores.get(f"self.{launched}", ())]
                    chosen = self._kernels_among([*self.bindings.get((launched, None), ()), *stored])
                else:
                    chosen = []
                for name in chosen:
                    found.setdefault(name, []).append(launch)
        return found

    def _kernels_passed(self, passed: cst.BaseExpression | None, scope: Scope) -> list[str]:
        """The names of the kernels an argument passes: a name (the kernels a local name is
        bound to: `fn = k_32 if BT == 32 else k_64`, then `_launch(fn, ...)`), or a choice
        between kernels (`_launch(k_32 if BT == 32 else k_64, ...)`)."""
        if isinstance(passed, cst.Name):
            return self._kernels_bound_to(passed.value, scope) or [passed.value]
        return self._kernels_among([passed]) if isinstance(passed, cst.IfExp) else []

    def _kernels_bound_to(self, name: str, scope: Scope) -> list[str]:
        """The module's kernels `name` holds when each value bound to it is one of them or a
        choice between them (`a if c else b`); none when one value is anything else, or when
        `name` is a parameter (its callers pass it)."""
        if scope is not None and param_named(scope, name) is not None:
            return []
        return self._kernels_among(self.values_of(name, scope))

    def _kernels_among(self, bound: Sequence[cst.BaseExpression]) -> list[str]:
        """The module's kernels the values name, when each is one of them, wrapped by torch or
        not (`wrap_triton(k)`: `unwrapped`), or a choice between them (`a if c else b`, also
        wrapped: `wrap_triton(a if c else b)`); none when one value is anything else, or there is
        none."""
        chosen = choices([unwrapped(value, self.wrapper_names) for value in choices(bound)])
        if not all(isinstance(value, cst.Name) and value.value in self.kernels for value in chosen):
            return []
        return sorted({value.value for value in chosen if isinstance(value, cst.Name)})

    @cached_property
    def _entry_launches(self) -> dict[str, list[Launch]]:
        """By kernel name: the launches `holder.name[grid](...)` / `holder["name"][grid](...)`
        whose entry names that kernel alone (`_kernel_in_entry`), when it goes by another name."""
        found: dict[str, list[Launch]] = {}
        for launched, launches in self.launches.items():
            for launch in launches:
                held = launch.held
                holder = held.value if isinstance(held, (cst.Attribute, cst.Subscript)) else None
                if isinstance(holder, cst.Name):
                    kernel = self._kernel_in_entry(holder.value, launched, launch.scope)
                    if kernel is not None and kernel != launched:
                        found.setdefault(kernel, []).append(launch)
        return found

    def _kernel_in_entry(self, holder: str, key: str, scope: Scope) -> str | None:
        """The one kernel of the module the entry `key` of `holder` names, when each value
        bound to `holder` is a namespace or dict literal (`types.SimpleNamespace(key=kernel)`,
        `dict(key=kernel)`, `{"key": kernel}`) or a call of a module function (a factory,
        cached or not: `k = _kernels()`) each return of which is one or None; none when
        `holder` is a parameter, a value is anything else, a literal splats what may hold
        `key`, or the entries name no kernel, another value or several kernels."""
        if scope is not None and param_named(scope, holder) is not None:
            return None
        tables: list[cst.BaseExpression] = []
        for value in self.values_of(holder, scope):
            factory = value.func.value if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) else None
            if factory in self.functions:
                tables += [returned for returned, _ in self.returns[factory] if not is_none(returned)]
            else:
                tables.append(value)
        if not all(is_namespace(table) and not splats_inside(table) for table in tables):
            return None
        entries = [entry for table in tables if (entry := dict_entry(table, key)) is not None]
        kernels = self._kernels_among(entries)
        return kernels[0] if len(kernels) == 1 else None

    @cached_property
    def _helper_launches(self) -> dict[str, list[Launch]]:
        """By the name a module call passes to a launcher helper: the helper's launches of it
        (through the parameter itself: `kernel[grid](...)`, not `table.kernel[grid](...)`)."""
        found: dict[str, list[Launch]] = {}
        for launched, launches in self.launches.items():
            for launch in launches:
                scope = launch.scope
                held = launched_value(launch, launched)
                if scope is None or not isinstance(held, cst.Name) or param_named(scope, launched) is None:
                    continue
                passed_names: dict[str, None] = {}
                for site in self.calls_of.get(scope.name.value, ()):
                    passed = passed_for(site.call, scope, launched)
                    passed_names.update(dict.fromkeys(self._kernels_passed(passed, site.scope)))
                for name in passed_names:
                    found.setdefault(name, []).append(launch)
        return found

    def _as_called(self, launches: Sequence[Launch], kernel: str) -> list[Launch]:
        """The launches of `kernel`, each launch in a helper forwarding its grid and arguments
        replaced by its calls (`_called`), without repeats."""
        found: dict[Launch, None] = {}
        for launch in launches:
            found.update(dict.fromkeys(self._called(launch, kernel, 0)))
        return list(found)

    def _called(self, launch: Launch, kernel: str, hops: int) -> tuple[Launch, ...]:
        """The launch as each call of its function launches it, when the launch's grid or a
        splat is that function's parameter and it gets nothing else of the function's own
        (`_forwards_only_parameters`: `def _run(grid, *args, **kwargs): kernel[grid](*args,
        **kwargs)`, `def _launch(x, n, grid=(1,)): kernel[grid](x, n, BLOCK=64)`): at each call
        of the module, a launch on the grid and with the arguments written there (`Forwarded`);
        when only its grid is such a parameter (`_grid_parameter`: `def _launch(x, grid): n =
        x.shape[-1]; kernel[grid](x, n)`), a launch on the grid written there with the
        arguments the helper computes, read in the helper. Followed up through helpers calling
        helpers, at most `ORIGIN_HOPS`; a method's calls are those through its class or `self` /
        `cls` (`callers_of`). A call passing another kernel for the one the function launches (a launcher taking the kernel) is no
        launch of `kernel`; one whose arguments are not all known (a splat filling a named
        parameter) is the launch itself, and so is a launch in a loop of the helper (a chunking
        loop, which the calls do not show). Worked out once per launch, kernel and hop count."""
        key = (launch, kernel, hops)
        found = self._launches_as_called.get(key)
        if found is not None:
            return found
        found = (launch,)
        function = launch.scope
        sites = self._calls_of_function(function) if function is not None and hops < ORIGIN_HOPS else []
        if function is None or not sites or launch.loops:
            self._launches_as_called[key] = found
            return found
        whole = launch.args_scope is function and self._forwards_only_parameters(launch, function)
        grid = None if whole else self._grid_parameter(launch, function)
        if whole or grid is not None:
            views: dict[Launch, None] = {}
            for site in sites:
                held = launched_value(launch, kernel)
                given = held.value if isinstance(held, cst.Name) and hops == 0 else None
                if given is not None and param_named(function, given) is not None:
                    passed = passed_for(site.call, function, given)
                    if kernel not in self._kernels_passed(passed, site.scope):
                        continue  # a launcher helper given another kernel there
                if grid is None:
                    view = self._launch_at(launch, function, site)
                else:
                    view = self._grid_at(launch, function, site, grid)
                called = (launch,) if view is None else self._called(view, kernel, hops + 1 + site.wrappers)
                views.update(dict.fromkeys(called))
            found = tuple(views)
        self._launches_as_called[key] = found
        return found

    def _calls_of_function(self, function: cst.FunctionDef) -> list[CallSite]:
        """The module's calls of `function` by its name, where that name is this function (a
        method's through its class: `callers_of`), and through wrappers (`_through_wrappers`)."""
        if function in self.class_of:
            return self.callers_of(function)
        return self._through_wrappers(function, self._visible_calls(function))

    def _visible_calls(self, function: cst.FunctionDef) -> list[CallSite]:
        """The module's calls of `function` by its name, where that name is this function."""
        name = function.name.value
        return [site for site in self.calls_of.get(name, ()) if function in self._visible_functions(name, site.scope)]

    def callers_of(self, function: cst.FunctionDef) -> list[CallSite]:
        """The module's calls of a function by its name (`f(...)`), or of a method through its
        class (`Ops.f(...)`) or, in a method of that class, `self.f(...)` / `cls.f(...)`; a
        `forward` also through the class's `apply` (`Fn.apply(x, n)` of a
        `torch.autograd.Function`); and through wrappers (`_through_wrappers`). `passed_for`
        reads such a call's arguments past `self` / `cls`, and past `ctx` for `apply`. Worked out
        once per function."""
        if function not in self._callers:
            self._callers[function] = self._through_wrappers(function, self._direct_callers(function))
        return self._callers[function]

    def known_callers(self, function: cst.FunctionDef) -> list[CallSite]:
        """The module's calls of the function (`callers_of`); none when it escapes (`escapes`:
        `OPS = {"launch": _launch}`, `@register`, `__all__`), as calls the module does not show
        may pass it anything: its callers' tests and loops then bound nothing."""
        return [] if self.escapes(function) else self.callers_of(function)

    def bounded_by_callers(
        self,
        function: cst.FunctionDef,
        params: AbstractSet[str],
        bounded: Callable[[CallSite, dict[str, cst.BaseExpression]], AbstractSet[str]],
    ) -> frozenset[str]:
        """The `params` of the function every call of it in the module (at least one:
        `known_callers`) passes a value for that is bounded at the call, as `bounded` says of the
        call and what it passes for them. The caller walk of ASC010's grid sizes (and guarded
        grids, every parameter or none) and ASC013's capped sizes; what bounds a value differs and stays theirs (each also walks on to the
        call's own callers through it): ASC010 asks whether a test orders or pins a size at all
        (a product of sizes under 65535 bounds each), reading a caller's tests as its launching
        function's, only for sizes (not a tensor passed whole), three callers up; ASC013 whether
        one keeps it below a cap's value, one caller up."""
        sites = self.known_callers(function)
        found = frozenset(params) if sites else frozenset()
        for site in sites:
            if not found:
                break
            passed = {name: value for name in found if (value := site.passes(function, name)) is not None}
            found &= bounded(site, passed)
        return found

    def escapes(self, function: cst.FunctionDef) -> bool:
        """Others may call the function with anything, in calls the module does not show (or
        `callers_of` does not find): host code hands its name on other than to call it (`OPS =
        {"launch": _launch}`, `register(_launch)`, `fn = _launch`), a decorator gets it
        (`@register`, `@torch.library.custom_op(...)`) or `__all__` lists it. Reading an
        attribute of it (`_launch.__name__`), comparing it (`f is _launch`) or asking
        `callable(_launch)` hands it to nobody. Not for a method (read through its class or
        instance)."""
        if function in self.class_of:
            return False
        name, around = function.name.value, self.enclosing.get(function)
        if function.decorators or (around is None and self._exported(name)):
            return True
        return any(
            use.owner in (None, around) and not _kept_in_hand(use) for use in self.name_uses.get(name, ()) if use.around
        )

    def _exported(self, name: str) -> bool:
        """A module-level `__all__` lists `name`."""
        return any(
            isinstance(node, cst.SimpleString) and str_literal(node) == name
            for value in self.bindings.get(("__all__", None), ())
            for node in walk(value)
        )

    def _through_wrappers(
        self, function: cst.FunctionDef, sites: list[CallSite], seen: frozenset[cst.FunctionDef] = frozenset()
    ) -> list[CallSite]:
        """`sites` (calls of `function`), but each call in a wrapper passing its parameters on
        to `function` unchanged (`_wraps`: `def norm(*args, **kwargs): return _norm(*args,
        **kwargs)`) replaced by the module's calls of the wrapper: calls of `function` with
        the arguments written there (`norm(x, 1e-6)` passes `_norm` `1e-6` for its second
        parameter), one more `wrappers` each. Followed through wrappers calling wrappers, but
        for those `seen` already (a wrapper calling itself, two calling each other), at most
        `ORIGIN_HOPS`. A wrapper the module never calls keeps its call (what it is passed is not
        known), and so does a method."""
        seen = seen | {function}
        found: list[CallSite] = []
        for site in sites:
            wrapper = site.scope
            if wrapper is None or not (outer := self._wrapper_calls(wrapper, site, function, seen)):
                found.append(site)
                continue
            through = [CallSite(o.call, o.scope, o.blocks, wrappers=site.wrappers + 1) for o in outer]
            found += self._through_wrappers(function, through, seen | {wrapper})
        return found

    def _wrapper_calls(
        self, wrapper: cst.FunctionDef, site: CallSite, function: cst.FunctionDef, seen: frozenset[cst.FunctionDef]
    ) -> list[CallSite]:
        """The module's calls of `wrapper` when the call `site` in it passes `function` its
        arguments unchanged (`_wraps`), it is no method, not `seen` and within the hops; else none."""
        if wrapper in seen or wrapper in self.class_of or site.wrappers >= ORIGIN_HOPS:
            return []
        return self._visible_calls(wrapper) if self._wraps(wrapper, site.call, function) else []

    def _wraps(self, wrapper: cst.FunctionDef, call: cst.Call, function: cst.FunctionDef) -> bool:
        """`call`, in `wrapper`, passes `function` the wrapper's arguments unchanged: the
        wrapper takes named parameters without defaults, then `*args` and/or `**kwargs`
        (no keyword-only ones), and the call passes exactly those, in that order (`f(x,
        *args, **kwargs)`), to parameters of `function` of the same names; the wrapper
        rebinds none of its parameters and reads `*args` / `**kwargs` nowhere else. The
        call fills `function`'s parameters from the first (no `self` left out), as the calls
        of the wrapper by its name fill the wrapper's."""
        params = wrapper.params
        named = [*params.posonly_params, *params.params]
        stars = [(s, p) for s, p in (("*", params.star_arg), ("**", params.star_kwarg)) if isinstance(p, cst.Param)]
        if not stars or params.kwonly_params or any(p.default is not None for p in named):
            return False
        written = [(arg.star, arg.value.value) for arg in call.args if isinstance(arg.value, cst.Name)]
        wanted = [("", p.name.value) for p in named] + [(star, p.name.value) for star, p in stars]
        if len(written) != len(call.args) or written != wanted or any(arg.keyword for arg in call.args):
            return False
        names = [p.name.value for p in named]
        filled = positional_params(call, function)
        if len(filled) != len(function.params.posonly_params) + len(function.params.params):
            return False
        if [p.name.value for p in filled][: len(names)] != names:
            return False
        if any((name, wrapper) in self.bindings for _, name in wanted):
            return False
        reads = Counter(name.value for name in variables_read(wrapper.body))
        return all(reads[p.name.value] == 1 for _, p in stars)

    def _direct_callers(self, function: cst.FunctionDef) -> list[CallSite]:
        """`callers_of`, but for the calls through wrappers."""
        owner = self.class_of.get(function)
        if owner is None:
            return self.calls_of.get(function.name.value, [])
        name = function.name.value
        calls = [
            *self.attribute_calls.get(name, ()),
            *(self.attribute_calls.get("apply", ()) if name == "forward" else ()),
        ]
        return [site for receiver, site in calls if self._reaches_class(receiver, site.scope, owner)]

    def _reaches_class(self, receiver: str | None, scope: Scope, owner: cst.ClassDef) -> bool:
        """A call through `receiver` in `scope` is one of a method of `owner`: `Owner.f(...)`,
        or `self.f(...)` / `cls.f(...)` in one of its methods."""
        return receiver == owner.name.value or (
            receiver in ("self", "cls") and scope is not None and self.class_of.get(scope) is owner
        )

    def _forwards_only_parameters(self, launch: Launch, function: cst.FunctionDef) -> bool:
        """The launch's grid is a parameter of `function`, or it splats one (`*args`,
        `**kwargs`): what the launch gets is written at the calls of `function`; and its
        arguments read no name `function` binds but its parameters, passed whole (`x`, `*args`)
        or read (`x.numel()`, made at each call: `_launch_at`), its grid none but one passed
        whole (`grid`), none of which it rebinds, nor changes in place (`kw["BLOCK"] = 1024`,
        `kw.update(...)`, `kw.pop(...)`: `_changes_dict`). An argument read (not passed whole)
        only when the launch writes no keyword value of its own (`BLOCK=131072`): that value is
        the helper's, reported (and suppressed) at its launch, which then stays in the helper."""
        params = [p.name.value for p in all_params(function)]

        def is_parameter_name(name: str) -> bool:
            return name in params and (name, function) not in self.bindings and not self._changes_dict(name, function)

        def is_parameter(value: cst.BaseExpression) -> bool:
            return isinstance(value, cst.Name) and is_parameter_name(value.value)

        grid = launch.grid_node
        own_keyword = any(
            arg.keyword is not None and not arg.star and set(params).isdisjoint(names_read(arg.value))
            for arg in launch.args
        )
        return (
            (is_parameter(grid) or any(arg.star and is_parameter(arg.value) for arg in launch.args))
            and (
                is_parameter(grid)
                or all(self._binding_scope(name, function) is not function for name in names_read(grid))
            )
            and all(
                (is_parameter(arg.value) if own_keyword else is_parameter_name(name))
                or self._binding_scope(name, function) is not function
                for arg in launch.args
                for name in names_read(arg.value)
            )
        )

    def _changes_dict(self, name: str, function: cst.FunctionDef) -> bool:
        """`function` changes in place what its `name` holds: puts keys into it (`_fills_dict`)
        or takes some from it (`removed_from`: `name.pop(...)`, `del name["k"]`). Its own body
        only, and only these changes: narrower than `changes_in_place` (`changed_anywhere`)."""
        return self._fills_dict(name, function) or any(
            (removed := removed_from(node)) is not None and removed[0] == name for node in _own_nodes(function)
        )

    def _fills_dict(self, name: str, scope: Scope) -> bool:
        """`scope` may put keys into what its `name` holds: stores into it (`name["k"] = v`) or
        updates it (`_dict_changes`: `name.update(...)`, `name |= ...`)."""
        return bool(self.item_stores.get((name, scope)) or self._dict_changes(scope).get(name))

    def _grid_parameter(self, launch: Launch, function: cst.FunctionDef) -> str | None:
        """The parameter of `function` the launch's grid is, directly or through a name
        `function` binds once, to it (`g = grid`), when `function` does not rebind it."""
        params = [p.name.value for p in all_params(function)]
        grid = launch.grid_node
        if isinstance(grid, cst.Name) and param_named(function, grid.value) is None:
            bound = self.bindings.get((grid.value, function), [])
            grid = bound[0] if len(bound) == 1 else grid
        if isinstance(grid, cst.Name) and grid.value in params and (grid.value, function) not in self.bindings:
            return grid.value
        return None

    def _grid_at(self, launch: Launch, function: cst.FunctionDef, site: CallSite, param: str) -> Launch | None:
        """The launch in `function` on the grid the call `site` passes for its parameter
        `param` (its default when it passes none), with the arguments of the launch, read in
        the function that computes them. None when that grid is not known."""
        grid = passed_or_default(site.call, function, param)
        if grid is None:
            return None
        forwarded = Forwarded(launch, grid, tuple(launch.args), grid_only=True)
        return Launch(site.call, site.scope, site.blocks, forwarded=forwarded)

    def _launch_at(self, launch: Launch, function: cst.FunctionDef, site: CallSite) -> Launch | None:
        """The launch in `function` as the call `site` of it makes it: each parameter the
        launch reads replaced by what the call passes for it (its default when it passes
        none; also inside an argument, `x.numel()`: `_made_by`), `*args` by the call's
        positional arguments past the named ones, `**kwargs` by its keywords naming no parameter
        and its `**` splats. None when that is not known."""
        call = site.call
        named = positional_params(call, function)
        names = {p.name.value for p in all_params(function)}
        star, star_kwarg = function.params.star_arg, function.params.star_kwarg
        positional = [arg for arg in call.args if arg.keyword is None and arg.star != "**"]
        if any(arg.star for arg in positional[: len(named)]):
            return None  # `*x` fills named parameters: which ones is unknown

        def passed(value: cst.BaseExpression) -> cst.BaseExpression | None:
            if isinstance(value, cst.Name) and value.value in names:
                return passed_or_default(call, function, value.value)
            if names.isdisjoint(names_read(value)):
                return value
            return self._made_by(value, function, call, site.scope)  # `x.numel()` of the `x` passed

        args: list[cst.Arg] = []
        for arg in launch.args:
            if arg.star == "*" and isinstance(star, cst.Param) and is_name(arg.value, star.name.value):
                args += positional[len(named) :]
            elif arg.star == "**" and isinstance(star_kwarg, cst.Param) and is_name(arg.value, star_kwarg.name.value):
                args += [
                    a for a in call.args if a.star == "**" or (a.keyword is not None and a.keyword.value not in names)
                ]
            elif (value := passed(arg.value)) is not None:
                args.append(arg if value is arg.value else arg.with_changes(value=value))
            else:
                return None
        grid = passed(launch.grid_node)
        if grid is None:
            return None
        return Launch(call, site.scope, site.blocks, forwarded=Forwarded(launch, grid, tuple(args)))

    def launch_constants(self, kernel: Kernel) -> dict[str, cst.BaseExpression]:
        """Of the constexpr parameters a launched kernel casts to (`Kernel.dtype_params`), those
        each of its launches in this module passes one constant for, or leaves at a constant default
        (`IDX: tl.constexpr = tl.int64`; with no launch, the default), with it. Not one an
        autotuner or heuristic provides, one launched from other modules, nor past a launch
        splatting a dict (`**kw`) that may pass it."""
        found: dict[str, cst.BaseExpression] = {}
        for param in kernel.params:
            if param.name not in kernel.dtype_params or param.name in kernel.provided_constexprs:
                continue
            passed = self.passed_values(kernel, param.name)
            if any(host is not self for host, _, _ in passed):
                continue
            default = param.node.default
            values = [
                value.value if value is not None else None if any(a.star == "**" for a in launch.args) else default
                for _, launch, value in passed
            ] or [default]
            known = [value for value in values if value is not None and is_constant(value, kernel.imports)]
            if len(known) == len(values) and len({flat_code(value) for value in known}) == 1:
                found[param.name] = known[0]
        return found

    def argument(self, launch: Launch, kernel: Kernel, param: str) -> Passed | None:
        """What the launch passes for the kernel parameter `param` (None when not visible)."""
        positional = self.positional_arguments(launch.args, launch.args_scope)
        for name, value in zip((p.name for p in kernel.params), positional, strict=False):  # as far as known
            if name == param:
                return Passed(value, launch.args_scope)
        passed = self.keyword_value(launch.args, param, launch.args_scope)
        return passed if passed is not None else self._after_splat(launch, kernel, param)

    def _after_splat(self, launch: Launch, kernel: Kernel, param: str) -> Passed | None:
        """What the positional arguments written after a splat of unknown length pass
        (`k[grid](x, y, *x.stride(), 64)` gives the last parameter 64): when no parameter has a
        default, the call passes every one, so those it passes by position are all but those its
        keywords and the autotuner's configs name, and the last ones written fill the last of
        them."""
        args = launch.args
        splats = [i for i, arg in enumerate(args) if arg.star == "*"]
        if not splats or any(p.node.default is not None for p in kernel.params):
            return None
        trailing = [arg.value for arg in args[splats[-1] + 1 :] if arg.keyword is None and not arg.star]
        named = {arg.keyword.value for arg in args if arg.keyword is not None} | set(kernel.provided_constexprs)
        by_position = [p.name for p in kernel.params if p.name not in named]
        if not trailing or len(trailing) > len(by_position):
            return None  # nothing written after the splat, or a call Python would refuse
        filled = by_position[len(by_position) - len(trailing) :]
        return next((Passed(v, launch.args_scope) for n, v in zip(filled, trailing, strict=True) if n == param), None)

    def positional_arguments(self, args: Sequence[cst.Arg], scope: Scope) -> list[cst.BaseExpression]:
        """The values call arguments pass by position, as far as they are known: a `*name` splat
        of a name the function binds once, to a tuple literal without splats (`args = (x, y,
        n)`, then `kernel[grid](*args, BLOCK=64)`), gives its items, and a splat of a tensor's
        strides or shape of known rank gives one item per dimension (`_per_dimension`); any
        other splat ends what is known."""
        values: list[cst.BaseExpression] = []
        for arg in args:
            if arg.keyword is not None or arg.star == "**":
                continue
            if not arg.star:
                values.append(arg.value)
                continue
            items = self._tuple_items(arg.value, scope)
            if items is None:
                items = self._per_dimension(arg.value, scope)
            if items is None:
                break
            values += items
        return values

    def _per_dimension(self, value: cst.BaseExpression, scope: Scope) -> list[cst.BaseExpression] | None:
        """`t.stride()[i]` (or `t.shape[i]`) for each dimension of `t` when `value` is `t.stride()`
        (or `t.shape`, `t.size()`) and the function shows the rank of `t` (`_rank`); else None.
        Made once per value."""
        if value not in self._dimension_items:
            tensor = dimensions_of(value)
            rank = self._rank(tensor, scope) if tensor is not None and scope is not None else None
            self._dimension_items[value] = None if rank is None else [indexed(value, i) for i in range(rank)]
        return self._dimension_items[value]

    def _rank(self, tensor: str, scope: cst.FunctionDef) -> int | None:
        """The rank of the tensor `scope` names `tensor`: the names one unpacking of its shape
        binds (`B, T, H = x.shape`), else the rank every allocation the function binds it to
        gives (`torch.zeros((H, T))`: `last_dimension`; a copy of itself keeps it); None when
        unknown."""
        unpacked = {
            len(node.targets[0].target.elements)
            for node in _own_nodes(scope)
            if isinstance(node, cst.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Tuple | cst.List)
            and not any(isinstance(e, cst.StarredElement) for e in node.targets[0].target.elements)
            and is_whole_shape(node.value)
            and dimensions_of(node.value) == tensor
        }
        if len(unpacked) == 1:
            return unpacked.pop()
        own = [each for each in self._bound_here(tensor, scope) if copy_of(each) != tensor]  # a copy keeps the rank
        lasts = {max(last_dimension(value), default=-1) for value in own}
        return lasts.pop() + 1 if len(lasts) == 1 and min(lasts) >= 0 else None

    def _tuple_items(self, value: cst.BaseExpression, scope: Scope) -> list[cst.BaseExpression] | None:
        """The items of a tuple literal without splats, written or bound once to a local name."""
        if isinstance(value, cst.Name) and scope is not None and param_named(scope, value.value) is None:
            bound = self.bindings.get((value.value, scope), [])
            value = bound[0] if len(bound) == 1 else value
        if not isinstance(value, cst.Tuple) or any(isinstance(e, cst.StarredElement) for e in value.elements):
            return None
        return [element.value for element in value.elements]

    def arguments(self, kernel: Kernel, param: str) -> list[tuple[Launch, Passed | None]]:
        return [(launch, self.argument(launch, kernel, param)) for launch in self.launches_passing(kernel)]

    def passed_values(self, kernel: Kernel, param: str) -> list[tuple[HostIndex, Launch, Passed | None]]:
        """`arguments`, each with the host index its launch is read in: this module's, or, for a
        kernel only other modules of the package launch, theirs (`launched_elsewhere`). Found
        once per kernel and parameter: several rules ask, some many times."""
        if (kernel, param) not in self._passed:
            self._passed[kernel, param] = self._find_passed_values(kernel, param)
        return self._passed[kernel, param]

    def _find_passed_values(self, kernel: Kernel, param: str) -> list[tuple[HostIndex, Launch, Passed | None]]:
        own = self.arguments(kernel, param)
        if own:
            return [(self, launch, value) for launch, value in own]
        return [
            (host, launch, value)
            for host, theirs in self.launched_elsewhere(kernel)
            for launch, value in host.arguments(theirs, param)
        ]

    def reaching_values(
        self, kernel: Kernel, param: str, hops: int = 0
    ) -> list[tuple[HostIndex, Launch, Passed | None]]:
        """`passed_values`, and for a device function no launch runs, those of the caller's
        parameter each of its calls passes on unchanged (`Kernel.callers_passing_on`), callers
        up to `MAX_CALLERS_DEEP` deep: Triton inlines the function with what its callers are
        launched with. None when a caller shows no launch: what every launch passes is then
        not known."""
        values = self.passed_values(kernel, param)
        if values or hops >= MAX_CALLERS_DEEP:
            return values
        found: list[tuple[HostIndex, Launch, Passed | None]] = []
        for caller, name in kernel.callers_passing_on(param):
            theirs = self.reaching_values(caller, name, hops + 1)
            if not theirs:
                return []
            found += theirs
        return found

    def launched_elsewhere(self, kernel: Kernel) -> list[tuple[HostIndex, Kernel]]:
        """The other modules of the package launching a kernel this module never launches (a
        module of kernels, and one of launchers importing them: `from .kernels import k`, then
        `k[grid](...)`), each as its host index and the kernel as it imports it. Looked for in
        the modules whose text names the kernel and this module (at most `_MAX_IMPORTERS`), so
        the result depends on every module of the package (`package_hash`, in `imported.read`)."""
        if kernel.name not in self._elsewhere:
            self._elsewhere[kernel.name] = self._find_launched_elsewhere(kernel)
        return self._elsewhere[kernel.name]

    def _find_launched_elsewhere(self, kernel: Kernel) -> list[tuple[HostIndex, Kernel]]:
        imported = self.imported
        if imported is None or imported.file is None or kernel.is_device_function or self.launches_with_helpers(kernel):
            return []
        file = imported.file
        stem = os.fsencode(file.parent.name if file.name == "__init__.py" else file.stem)  # a name as its bytes
        candidates = [
            (path, data)
            for path, data in self._package_sources
            if path != file and kernel.name.encode() in data and stem in data
        ]
        found: list[tuple[HostIndex, Kernel]] = []
        for path, data in candidates[:_MAX_IMPORTERS]:
            host = _importer_host(imported_module(str(path), content_hash(data), data, imported.triton_modules), path)
            if host is None or host.imported is None:
                continue
            for theirs in host.imported_kernel_launches():
                if theirs.name == kernel.name and str(file) in host.imported.read:
                    found.append((host, theirs))
        return found

    @cached_property
    def _package_sources(self) -> list[tuple[Path, bytes]]:
        """The modules of the package (`package.package_sources`), read once; what was found in
        them depends on all of them (`package_hash`, recorded in `imported.read`)."""
        folders = package_folders(self.imported.folder) if self.imported is not None else ()
        if not folders or self.imported is None:
            return []
        sources = package_sources(folders[-1])
        self.imported.read[str(folders[-1])] = package_hash(folders[-1], sources)
        return sources

    # ---- where a passed value comes from ----------------------------------------------
    def origins(
        self,
        value: cst.BaseExpression,
        scope: Scope,
        hops: int = 0,
        annotations: bool = True,
        expanded: set[tuple[cst.BaseExpression | str, Scope, int]] | None = None,
    ) -> Iterator[tuple[cst.BaseExpression, str]]:
        """The expressions a value may come from, each with how it got there (a local name's
        binding, `ht = x if c else None`, unless a later step says more): followed
        through local names, parameters (their defaults, their annotations unless
        `annotations` is false, the arguments of the module's calls of the function),
        `x if c else y`, `x or y` / `x and y`, `(n := x)`, `obj.attr = ...` stores, and the elements of
        the tuples a function of the module returns (`f(...)[i]`, `_, n = f(...)`). A value
        reached again at the same hop count (`expanded`: functions sharing a name and calling
        themselves reach it through many paths), or a name every binding of which reaches it
        read again there (`a, b = b, a * 2`), adds nothing new: it is not followed again."""
        expanded = set() if expanded is None else expanded
        if (value, scope, hops) in expanded:
            return
        expanded.add((value, scope, hops))
        yield value, ""
        if hops >= ORIGIN_HOPS:
            return
        if isinstance(value, cst.IfExp):
            for branch in possible_arms(value):
                yield from self.origins(branch, scope, hops + 1, annotations, expanded)
        elif isinstance(value, cst.BooleanOperation):  # `num_cores or query()`: either operand
            for operand in (value.left, value.right):
                yield from self.origins(operand, scope, hops + 1, annotations, expanded)
        elif isinstance(value, cst.NamedExpr):  # `(nc := props["num_aicore"])`: the value it binds
            yield from self.origins(value.value, scope, hops + 1, annotations, expanded)
        elif isinstance(value, cst.Subscript):  # `f(...)[i]`: the element `f` returns there
            for element, function in self._returned_elements(value, scope):
                if element is not None:
                    yield from self.origins(element, function, hops + 1, annotations, expanded)
        elif isinstance(value, cst.Name):
            yield from self._name_origins(value, scope, hops, annotations, expanded)
        elif isinstance(value, cst.Attribute):
            dotted = dotted_name(value)
            for stored, where in self.attribute_stores.get(dotted or "", ()):
                for origin, how in self.origins(stored, where, hops + 1, annotations, expanded):
                    yield origin, how or f"`{dotted}` is set to it"

    def _name_origins(
        self,
        read: cst.Name,
        scope: Scope,
        hops: int,
        annotations: bool,
        expanded: set[tuple[cst.BaseExpression | str, Scope, int]],
    ) -> Iterator[tuple[cst.BaseExpression, str]]:
        """The origins of the values bound to the name `read` in `scope` that reach it: the one
        binding reaching it in straight-line code (`binding_reaching`: `cores = props["num_aicore"]`
        then `cores = 40` reaches a launch after both with 40 only) unless it reads the name
        (`n = min(n, cap)`: the earlier values reach it), else every binding
        (`_reaching_bindings`); with none, what the parameter is passed."""
        name = read.value
        bound = self._reaching_bindings(name, scope)
        sole = self._sole_binding(read, scope, bound)
        if sole is None and bound:  # every binding: another read of the name at these hops adds nothing new
            if (name, scope, hops) in expanded:
                return
            expanded.add((name, scope, hops))
        bound = bound if sole is None else [sole]
        for value in bound:  # how: the binding, unless a later step says more (`h0` defaults to None)
            for origin, how in self.origins(value, scope, hops + 1, annotations, expanded):
                yield origin, how or self._shown_binding(name, value)
        if not bound:  # a parameter the function rebinds: what it binds counts
            yield from self._passed_origins(name, scope, hops, annotations, expanded)

    def _shown_binding(self, name: str, value: cst.BaseExpression) -> str:
        """`name = value` on one line, written once per binding (`origins` says it often)."""
        shown = self._shown_bindings.get((name, id(value)))
        if shown is None:
            shown = self._shown_bindings[name, id(value)] = f"`{name} = {one_line(value)}`"
        return shown

    def _sole_binding(
        self, read: cst.Name, scope: Scope, bound: Sequence[cst.BaseExpression]
    ) -> cst.BaseExpression | None:
        """The one of the values `bound` to the name `read` reaching it (`_read_reaching`); None
        when several may."""
        if len(bound) < 2:
            return None
        reaching = self._read_reaching(read, scope)
        return reaching if reaching is not None and any(value is reaching for value in bound) else None

    def _read_reaching(self, read: cst.Name, scope: Scope) -> cst.BaseExpression | None:
        """The value bound to the name `read` reaching it in straight-line code
        (`binding_reaching`), unless it reads the name (an update: the earlier values reach it),
        whichever reach the grid being sized: once per read and scope."""
        found = self._reads_reaching.get((read, scope), _UNSEEN)
        if found is _UNSEEN:
            reaching = None if scope is None else binding_reaching(read.value, read, self.written_order(scope))
            found = self._reads_reaching[read, scope] = (
                None if reaching is None or read.value in names_read(reaching) else reaching
            )
        return found  # type: ignore[return-value]

    def _passed_origins(
        self,
        name: str,
        scope: Scope,
        hops: int,
        annotations: bool,
        expanded: set[tuple[cst.BaseExpression | str, Scope, int]],
    ) -> Iterator[tuple[cst.BaseExpression, str]]:
        """`origins` of what the function `scope` is passed for its parameter `name`: its
        default, its annotation, the arguments of the module's calls of it; none when `name` is
        no parameter of it."""
        param = param_named(scope, name) if scope is not None else None
        if scope is None or param is None:
            return
        if param.default is not None:
            yield param.default, f"`{name}` defaults to `{one_line(param.default)}`"
        if annotations and param.annotation is not None:
            yield param.annotation.annotation, f"`{name}` is annotated `{one_line(param.annotation.annotation)}`"
        for site in self.callers_of(scope):
            passed = passed_for(site.call, scope, name)
            if site.scope is scope and isinstance(passed, cst.Name) and passed.value == name:
                continue  # a call of the function in itself passing the parameter on: no value of its own
            if passed is not None:
                for origin, how in self.origins(passed, site.scope, hops + 1 + site.wrappers, annotations, expanded):
                    yield origin, how or f"`{scope.name.value}` is called with `{name}={one_line(passed)}`"

    @property
    def _unreached(self) -> frozenset[int]:
        """The ids of the assignments after the grid being sized (`grid_extents`), each read
        counted (`_unreached_reads`): an answer worked out reading it none is the same at every
        launch (`_read_alone`)."""
        self._unreached_reads += 1
        return self._unreached_ids

    def _read_alone(self, work: Callable[[], _T]) -> tuple[_T, _Reads | None]:
        """What `work` gives, and, when it read nothing of what reaches the grid being sized
        (`_unreached`) but answers worked out where it is (`_at_launch`), those and what it read
        of each: then it is the same at every launch where they are (`_kept_each`). None when it
        read what reaches the grid."""
        reads, kept = self._unreached_reads, self._kept_reads
        self._kept_reads = []
        try:
            done = work()
        finally:
            read, self._kept_reads = self._kept_reads, kept
        if kept is not None:  # an answer being kept reading this one read the same
            kept.extend(read)
        return done, tuple(read) if self._unreached_reads == reads else None

    def _at_launch(self, answers: dict[_K, _AtLaunch], key: _K, work: Callable[[], _T]) -> _T:
        """What `work` gives for `key` where the grid being sized is (`_unreached`), worked out
        once there: what it reads of that is its own, an answer being kept that reads this one
        (`_read_alone`) read this one only, and is the same where it is the same (`n //= 2`
        before each of n launches of `k[(n,)]` reads `n`, the same at each launch but through
        every binding before it). An answer equal to the one worked out before for `key` is
        that one: what was read compares by identity (`_kept_each`)."""
        by_launch = answers.get(key)
        if by_launch is None:
            by_launch = answers[key] = {}
        unreached = self._unreached_ids
        found = by_launch.get(unreached, _UNSEEN)
        if found is _UNSEEN:
            reads, kept = self._unreached_reads, self._kept_reads
            self._kept_reads = None
            try:
                found = work()
            finally:
                self._unreached_reads, self._kept_reads = reads, kept
            last = next(reversed(by_launch.values()), _UNSEEN)
            by_launch[unreached] = found = last if last == found else found
        if self._kept_reads is not None:
            self._kept_reads.append((by_launch, found))
        return found  # type: ignore[return-value]

    def _kept_each(
        self,
        kept: dict[int, tuple[_T, _Reads | None]],
        bound: Sequence[cst.BaseExpression],
        work: Callable[[cst.BaseExpression], _T],
    ) -> list[_T] | None:
        """What `work` gives for each value `bound` to a name, kept by the value's id (in `kept`)
        for every launch where what it read of the answers worked out at each is the same
        (`_read_alone`): once for every launch, by `n = n * 2` before each of n launches of
        `k[(n,)]`, and while `n` is the same, by `n //= 2`, reading it. None when one read what
        reaches the grid (`b` of `a, b = b, a * 2` reads every binding of `a`), at every launch:
        the caller reads them all together. No Python call per value kept."""
        unreached = self._unreached_ids  # what was read of it is compared: no read of it
        found: list[_T] = []
        for value in bound:
            known = kept.get(id(value))
            if known is not None:
                reads = known[1]
                if reads is None:
                    return None
                for by_launch, seen in reads:
                    if by_launch.get(unreached, _UNSEEN) is not seen:
                        known = None
                        break
                else:
                    if self._kept_reads is not None:
                        self._kept_reads.extend(reads)
            if known is None:
                known = kept[id(value)] = self._read_alone(partial(work, value))
                if known[1] is None:
                    return None
            found.append(known[0])
        return found

    def _reaching_bindings(self, name: str, scope: Scope) -> list[cst.BaseExpression]:
        """The values `scope` binds to `name` that may run (`_bindings_run`), but for those of
        assignments that run only after the grid being sized is evaluated (`grid_extents`)."""
        bound = self._bindings_run(name, scope)
        unreached = self._unreached
        if not unreached:
            return bound
        binders = self._binder_ids.get((name, scope))
        if binders is None or len(binders) != len(bound):
            binders = self._binder_ids[name, scope] = [id(self.binders.get(value)) for value in bound]
        # one lookup per binding, no Python call: each of n launches reads the bindings before it
        return [value for value, binder in zip(bound, binders, strict=True) if binder not in unreached]

    def environment_values(self, variable: str, scope: Scope, call: cst.Call | None = None) -> list[cst.BaseExpression]:
        """What the module sets the environment variable to (`os.environ[variable] = v`,
        `os.environ.setdefault(variable, v)`, `os.environ.update(variable=v)`, `os.putenv(variable,
        v)`, `mock.patch.dict(os.environ, {variable: v})`) at module level (set by importing it,
        for the whole process) or in `scope` or a function around it; and, for `call` (written
        in `scope`), what the context managers of the module that `with` statements around it
        enter set before they yield (`managed_values`), also those around every call the module
        makes of `scope` (the launch is in a helper: `with _all_blocks_parallel(): _run(x)`)."""
        found = [value for value, where in self.environment.get(variable, ()) if where in self._scopes_out(scope)]
        if call is None:
            return found
        found += self.managed_values(variable, call, scope)
        sites = self.callers_of(scope) if scope is not None else []
        managed = [self.managed_values(variable, site.call, site.scope) for site in sites]
        if managed and all(managed):  # every call of the helper the module makes is managed
            found += [value for values in managed for value in values]
        return found

    def _scopes_out(self, scope: Scope) -> set[Scope]:
        """`scope`, the functions around it and the module (None)."""
        scopes: set[Scope] = {None}
        while scope is not None:
            scopes.add(scope)
            scope = self.enclosing.get(scope)
        return scopes

    def managed_values(self, variable: str, call: cst.Call, scope: Scope) -> list[cst.BaseExpression]:
        """What the environment variable is set to for `call` (written in `scope`) by `with cm():`
        statements of `scope` around it: `cm` a function of the module decorated
        `@contextlib.contextmanager` (`@contextmanager`) setting it before its `yield`
        (`try: yield` then restoring it in `finally:` sets it for the `with` body only), or
        `cm` a class of the module whose `__enter__` sets it (`with AllBlocksParallel():`, also
        `as`, or through a name the function binds once to it, `with cm:`; one setting it only
        in `__exit__` does not count)."""
        found: list[cst.BaseExpression] = []
        settings = self.environment.get(variable, ())
        for entered in self._managers_around(scope).get(call, ()):
            if isinstance(entered, cst.Name) and scope is not None and param_named(scope, entered.value) is None:
                bound = self.bindings.get((entered.value, scope), [])  # `cm = AllBlocksParallel()`, then `with cm:`
                entered = bound[0] if len(bound) == 1 else entered
            if not (isinstance(entered, cst.Call) and isinstance(entered.func, cst.Name)):
                continue
            for manager in self.functions.get(entered.func.value, ()):
                if (
                    self.enclosing.get(manager) is None
                    and manager not in self.class_of
                    and _is_context_manager(manager)
                ):
                    before = _before_yield(manager)
                    found += [value for value, where in settings if where is manager and value in before]
            for method in self.functions.get("__enter__", ()):
                owner = self.class_of.get(method)
                if owner is not None and owner.name.value == entered.func.value and self.enclosing.get(method) is None:
                    found += [value for value, where in settings if where is method]
        return found

    def _managers_around(self, scope: Scope) -> dict[cst.Call, tuple[cst.BaseExpression, ...]]:
        """Each call in the function's own body (`_own_nodes`) inside `with` statements, with what
        they enter (`cm()` of `with cm():`), outermost first. Worked out once per function."""
        if scope is None:
            return {}
        found = self._managed.get(scope)
        if found is None:
            found = self._managed[scope] = {}
            for node in _own_nodes(scope):
                if type(node) is cst.With:
                    entered = tuple(item.item for item in node.items)
                    for inner in _own_nodes(node):
                        if isinstance(inner, cst.Call) and not any(inner is item for item in entered):
                            found[inner] = (*found.get(inner, ()), *entered)
        return found

    # ---- grids and device core counts --------------------------------------------------
    def grids(self, launch: Launch) -> tuple[Grid, ...]:
        """The grids a launch may use: `kernel[(a, b)]`, `kernel[a, b]`, a name bound to a
        tuple, or to a list with axes appended (`_appended_grids`), `lambda META: (...)`, a
        function of the module returning a tuple, an attribute stored on `self` or `ctx`
        (`_held_grids`, `_context_stores`), or the entry of a dict holding one (`cfg["grid"]`
        with `cfg = {"grid": (n,), ...}`: `dict_sources`). A name
        bound several times is the value of its one reaching assignment when there is one
        (`grid = ...` or `def grid(META):` earlier in the launch's block, `reaching_binding`),
        else any of them. A tuple whose starred parts may be more than MAX_GRIDS grids together
        is read as written, each starred part one axis, as when their grids are unknown.
        Worked out once per launch (ASC009 and ASC010 both ask)."""
        found = self._launch_grids.get(launch)
        if found is None:
            found = self._launch_grids[launch] = tuple(
                each for grid in self._written_grids(launch) for each in self._grids_per_path(grid, launch)
            )
        return found

    def _grids_per_path(self, grid: Grid, launch: Launch) -> list[Grid]:
        """The grid once per path through an `if` picking a variant (`_picks_variant`), or a
        `try` (`_split_paths`), whose arms bind the names of two or more values its axes read
        (`_values_read_in`: names, or a dict's entries; `if flag: n, h = B, 4` / `else: n, h =
        4, T`, `try: n, h = B, 4` / `except E: n, h = 4, T`): each reads the bindings of those
        names its path runs (`Grid.unreached`: not the other arms', nor those before the
        statement that its arm overwrites) and may be launched whatever the sizes
        (`Grid.variant`): names bound together are sized together (`(n, h)` multiplies no two
        sizes there), as a name bound in such arms counts as the arm multiplying the most sizes.
        An arm ending in `return` or `raise` is no path. The grid itself when no one such
        statement binds them, when one of their bindings is in a loop or in another block (a
        `finally` one too), or when the statement does not run before the launch or holds it or
        the grid (`grid = (n, h)` in an arm is that arm's alone)."""
        scope = grid.scope
        if not isinstance(scope, cst.FunctionDef) or grid.variant:
            return [grid]
        holders = {
            name.value: self._split_holders(name.value, scope) for axis in grid.axes for name in variables_read(axis)
        }
        split = {name: self.bindings[(name, scope)] for name, each in holders.items() if each}
        held = {key: holder for each in holders.values() if each for key, holder in each.items()}
        chains = set(held.values()) - {None}
        statement = chains.pop() if len(chains) == 1 else None
        if len(self._values_read_in(grid, split)) < 2 or statement is None:
            return [grid]
        order = self.written_order(scope)
        points = [launch.written_at, self._placed.get(grid.written, grid.written)]
        if not order.runs_before(statement, launch.written_at) or any(
            block[index] is statement for point in points for block, index in order.enclosing_statements(point)
        ):
            return [grid]
        found = self._split_paths(statement, scope, order)
        if found is None:
            return [grid]
        arm_lines, runs = found
        arm_of = {
            id(value): self._arm_of(value, arm_lines, order) if held[id(value)] else -1
            for values in split.values()
            for value in values
        }
        if None in arm_of.values() or any(  # a binding outside the arms is written before the statement
            arm_of[id(value)] == -1 and not order.runs_before(value, statement)
            for values in split.values()
            for value in values
        ):
            return [grid]
        paths = []
        for own, kept in runs:
            unreached: set[int] = set()
            for values in split.values():
                reached = own if any(arm_of[id(value)] in own for value in values) else own | kept
                unreached.update(id(self.binders[value]) for value in values if arm_of[id(value)] not in reached)
            paths.append(replace(grid, variant=True, unreached=frozenset(unreached)))
        return paths or [grid]

    def _split_holders(self, name: str, scope: cst.FunctionDef) -> dict[int, cst.CSTNode | None] | None:
        """By the id of each value the function binds `name` to, the compound statement whose
        arms `_grids_per_path` may split the name by: the outermost `if` or loop around it, or,
        for a name bound several times, the `try` holding it in one of its blocks; None when
        no binding has one. Read once per name and function."""
        key = (name, scope)
        if key not in self._holders:
            values = self.bindings.get(key, [])
            order = self.written_order(scope)
            holders: dict[int, cst.CSTNode | None] = {}
            for value in values:
                blocks = self.bound_under.get(value)
                nesting = order.enclosing_statements(value)[-2:-1] if not blocks and len(values) > 1 else []
                tried = [block[index] for block, index in nesting if isinstance(block[index], cst.Try)]
                holders[id(value)] = blocks[0] if blocks else next(iter(tried), None)
            self._holders[key] = holders if any(holders.values()) else None
        return self._holders[key]

    def _split_paths(
        self, statement: cst.CSTNode, scope: Scope, order: WrittenOrder
    ) -> tuple[list[list[cst.CSTNode]], list[tuple[set[int], set[int]]]] | None:
        """The statements of each arm of an `if` whose tests all pick a variant, or of a `try`
        (body, `else` block, handlers), and each path through it that does not leave (end in
        `return` or `raise`): the arms it runs (by place; -1 the code before the statement) and
        those whose bindings of a name its own arms do not bind may still reach past it. An `if`
        arm keeps the code before; a `try` body runs its `else` block too; a handler may follow
        any part of the body. None for another statement, or an `if` under a test that orders
        values (its path's own bound is not read)."""

        def lines(block: cst.BaseSuite | None) -> list[cst.CSTNode]:
            return order.statements(block) if block is not None else []

        def leaves(*arms: int) -> bool:
            return any(arm_lines[arm] and isinstance(arm_lines[arm][-1], cst.Return | cst.Raise) for arm in arms)

        if isinstance(statement, cst.If):
            tests, arms = if_arms(statement)
            if not all(self._picks_variant(test, scope) for test in tests):
                return None
            arm_lines = [lines(arm) for arm in arms]
            return arm_lines, [({place}, {-1}) for place in range(len(arms)) if not leaves(place)]
        if not isinstance(statement, cst.Try):
            return None
        orelse = statement.orelse.body if statement.orelse is not None else None
        arm_lines = [lines(statement.body), lines(orelse), *(lines(handler.body) for handler in statement.handlers)]
        runs = [({0, 1}, {-1})] if not leaves(0, 1) else []
        return arm_lines, runs + [({place}, {-1, 0}) for place in range(2, len(arm_lines)) if not leaves(place)]

    @staticmethod
    def _values_read_in(grid: Grid, names: Collection[str]) -> set[str]:
        """The values of `names` the grid's axes read, as written: a name, or an entry of it
        (`cfg["n"]`, its name not counted), each once."""
        nodes = [node for axis in grid.axes for node in walk(axis)]
        subscripted = {id(node.value) for node in nodes if isinstance(node, cst.Subscript)}
        return {
            one_line(node)
            for node in nodes
            if (isinstance(node, cst.Name) and node.value in names and id(node) not in subscripted)
            or (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value in names)
        }

    @staticmethod
    def _arm_of(value: cst.BaseExpression, arm_lines: list[list[cst.CSTNode]], order: WrittenOrder) -> int | None:
        """The arm (by place among `arm_lines`, the statements of each) whose own statements
        bind `value`; None when another block holds it."""
        nesting = order.enclosing_statements(value)
        return next((place for place, lines in enumerate(arm_lines) if nesting and nesting[-1][0] is lines), None)

    def item_trips(self, grid: Grid, launch: Launch) -> list[tuple[Grid, dict[str, cst.BaseExpression]]]:
        """The grid in each trip of the host loops over written items around the launch whose
        variables its axes read (`loops_over_items`: `for n in (1, 100000): k[(n, 8)]` launches
        `(1, 8)`, then `(100000, 8)`), each item in place of the variable, with the items by
        variable; every trip launches but those the tests there exclude (`trip_excluded`). No
        trips when the axes read no such variable, when the grid is written before the loop (its
        names bound outside it), or when the trips make more than MAX_GRIDS grids."""
        if grid.scope is not launch.scope:
            return []
        written = id(self._placed.get(grid.written, grid.written))
        reads = [name for axis in grid.axes for name in variables_read(axis)]
        read = {name.value for name in reads}
        loops = [
            loop
            for loop in launch.loops
            if isinstance(loop.target, cst.Name) and loop.target.value in read and written in self._item_loop_body(loop)
        ]
        if not loops:
            return []
        targets = [cst.ensure_type(loop.target, cst.Name).value for loop in loops]
        items = [written_items(loop.iter) or [] for loop in loops]
        if math.prod(map(len, items)) > MAX_GRIDS:
            return []
        trips = []
        for chosen in itertools.product(*items):
            placed = dict(zip(targets, chosen, strict=True))
            passed = {id(name): placed[name.value] for name in reads if name.value in placed}
            axes = []
            for axis in grid.axes:
                made = axis.visit(_ArgumentsPlaced(passed, self._placed))
                assert isinstance(made, cst.BaseExpression)
                axes.append(made)
            trips.append((replace(grid, axes=tuple(axes)), placed))
        return trips

    def launching_trips(self, grid: Grid, launch: Launch) -> Iterator[Grid]:
        """The grids the launch runs `grid` as, in the order they run: the grid in each trip of
        the loops over written items around it that no test there excludes (`item_trips`,
        `trip_excluded`), or `grid` itself when it has no such trips."""
        trips = self.item_trips(grid, launch)
        if not trips:
            yield grid
        for place, (trip, placed) in enumerate(trips):
            if not self.trip_excluded(launch, placed, [items for _, items in trips[:place]]):
                yield trip

    def trip_excluded(
        self,
        launch: Launch,
        placed: Mapping[str, cst.BaseExpression],
        earlier: Sequence[Mapping[str, cst.BaseExpression]],
    ) -> bool:
        """A test at the launch in the loops over items (`tests_at`) excludes the trip giving
        their variables the items `placed` (`item_trips`): it cannot go the way it does there with
        them (`_check_fails`: `if n <= 65535:` around the launch, `if n > 65535: continue` or
        `break`, `if n == 100000: continue`, `if n in (100000,): continue`, `assert n < 65536`
        before it, with `n` the item 100000), or one of the `earlier` trips,
        in the order they run, was the last (`loop_stops`: `if n > 65535: break` with `n` the
        item 70000 before 30000), its loop's or, by a `return`, `raise` or `assert`, every loop's."""
        loops = [loop for loop in launch.loops if isinstance(loop.target, cst.Name) and loop.target.value in placed]
        for test, holds, _ in self.tests_at([launch]):
            around = [loop for loop in loops if id(test) in self._item_loop_body(loop)]
            names = {cst.ensure_type(loop.target, cst.Name).value for loop in around}
            if self._check_fails(test, holds, placed, names, launch.scope):
                return True
            for loop in around:
                every = self._loop_stops(loop).get((id(test), holds))
                if every is None:
                    continue
                outer = [cst.ensure_type(each.target, cst.Name).value for each in loops[: loops.index(loop)]]
                if any(
                    (every or all(trip[name] is placed[name] for name in outer))
                    and self._check_fails(test, holds, trip, names, launch.scope)
                    for trip in earlier
                ):
                    return True
        return False

    def _check_fails(
        self,
        test: cst.BaseExpression,
        holds: bool,
        placed: Mapping[str, cst.BaseExpression],
        names: set[str],
        scope: Scope,
    ) -> bool:
        """`test` cannot hold (or fail, as `holds` says) with the items `placed` in place of the
        variables `names`: in each case it would (`holding_cases`), one of its comparisons goes the
        other way with them (`comparison_holds`: `m < 2`, `m == 1`, `m in (1,)` with `m` the
        item 1 fail at a launch past `if ...: continue`; `m != 1` holds there)."""
        passed = {id(name): placed[name.value] for name in variables_read(test) if name.value in names}
        if not passed:
            return False
        known = partial(self._known_placed, passed=passed, scope=scope)
        return all(
            any(
                isinstance(part, cst.Comparison) and comparison_holds(part, known) is (not part_holds)
                for part, part_holds in case
            )
            for case in holding_cases(test, holds)
        )

    def _loop_stops(self, loop: cst.For) -> dict[tuple[int, bool], bool]:
        """`loop_stops` of the loop, worked out once."""
        found = self._stops_by_loop.get(loop)
        if found is None:
            found = self._stops_by_loop[loop] = loop_stops(loop)
        return found

    def _known_placed(
        self, value: cst.BaseExpression, passed: Mapping[int, cst.BaseExpression], scope: Scope
    ) -> int | None:
        """`known_int` of `value` with the names whose ids `passed` holds replaced by its values."""
        made = value.visit(_ArgumentsPlaced(passed, {}))
        assert isinstance(made, cst.BaseExpression)
        return self.known_int(made, scope)

    def _item_loop_body(self, loop: cst.For) -> frozenset[int]:
        """The ids of the nodes in the body of a loop over written items (`loops_over_items`),
        none for another loop. Worked out once per loop."""
        found = self._item_loop_bodies.get(loop)
        if found is None:
            over_items = isinstance(loop.target, cst.Name) and loops_over_items(loop)
            found = self._item_loop_bodies[loop] = frozenset(map(id, walk(loop.body)) if over_items else ())
        return found

    def launched_grids(self, launch: Launch, kernel: Kernel | None) -> tuple[Grid, ...]:
        """The grids a launch of `kernel` may use (`grids`), a grid function's reads of the
        launch's values (`meta["BLOCK"]`, `meta.get("BLOCK")`) replaced by what the launch passes
        for that parameter (`argument`: by keyword or position), when the grid reads its names as
        the launch does and the kernel takes what its launches pass (`Kernel.takes_launch_values`:
        no autotuner or heuristics may choose it). Other reads stay unknown."""
        grids = self.grids(launch)
        if kernel is None or not kernel.takes_launch_values:
            return grids
        return tuple(self._launch_values_placed(grid, launch, kernel) for grid in grids)

    def _launch_values_placed(self, grid: Grid, launch: Launch, kernel: Kernel) -> Grid:
        if grid.meta is None:
            return grid
        passed: dict[int, cst.BaseExpression] = {}
        for node in (node for axis in grid.axes for node in walk(axis)):
            key = _meta_key(node, grid.meta)
            value = self.argument(launch, kernel, key) if key is not None else None
            if value is not None and all(
                self._binding_scope(name, grid.scope) is self._binding_scope(name, value.scope)
                for name in names_read(value.value)
            ):
                passed[id(node)] = value.value
        if not passed:
            return grid
        axes = [axis.visit(_ArgumentsPlaced(passed, self._placed)) for axis in grid.axes]
        assert all(isinstance(axis, cst.BaseExpression) for axis in axes)
        return replace(grid, axes=tuple(axes))  # type: ignore[arg-type]

    def _written_grids(self, launch: Launch) -> Iterator[Grid]:
        written = launch.grid_node
        if (
            isinstance(written, cst.Call)
            and isinstance(written.func, cst.Name)
            and written.func.value in ("tuple", "list")
            and len(written.args) == 1
            and not written.args[0].star
            and isinstance(written.args[0].value, cst.Name)
        ):  # `kernel[tuple(grid)]`: the grid `grid` holds there
            written = written.args[0].value
        if written is launch.launcher:  # `kernel[a, b]`, not `kernel[cfg["grid"]]` nor `grid=grids[i]`
            assert isinstance(written, cst.Subscript)
            axes = tuple(e.slice.value for e in written.slice if isinstance(e.slice, cst.Index))
            return iter([Grid(axes, launch.scope, written)])
        if isinstance(written, cst.Name):
            reaching = (
                reaching_binding(written.value, launch, self.written_order(launch.scope)) if launch.scope else None
            )
            if isinstance(reaching, cst.FunctionDef):
                return self._returned_grids(reaching, 1, first_param(reaching.params))
            if isinstance(reaching, cst.List):
                return self._appended_grids(reaching, written, launch.scope, None, 1, alone=True)
            if reaching is not None:
                return self._grids(reaching, launch.scope, None, 1)
        return self._grids(written, launch.scope, None, 0)

    def _grids(self, value: cst.BaseExpression, scope: Scope, meta: str | None, hops: int) -> Iterator[Grid]:
        if hops > ORIGIN_HOPS:
            return
        if isinstance(value, (cst.Tuple, cst.List)):
            yield from self._listed_grids(value.elements, value, scope, meta, hops)
        elif isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):  # `(B * T,) + (H,)`
            lefts = self._own_grids(value.left, scope, meta, hops)
            rights = self._own_grids(value.right, scope, meta, hops) if lefts else []
            if len(lefts) * len(rights) <= MAX_GRIDS:  # else unknown, as a part no grid is
                for left, right in itertools.product(lefts, rights):
                    yield Grid(left + right, scope, value, meta)
        elif isinstance(value, cst.ListComp):
            for axes in self._comprehended(value, scope, meta, hops + 1):
                yield Grid(axes, scope, value, meta)
        elif isinstance(value, cst.Lambda):
            yield from self._grids(value.body, scope, first_param(value.params), hops + 1)
        elif isinstance(value, cst.IfExp):
            for arm in (value.body, value.orelse):
                yield from self._grids(arm, scope, meta, hops + 1)
        elif isinstance(value, cst.Name):
            updated = (
                binding_updated(value, self.written_order(scope)) if scope is not None else None
            )  # `grid` of `grid + (B,)`
            if updated is not None:  # an earlier statement's value: no hop, up to MAX_GRID_UPDATES deep
                if self._updates_deep < MAX_GRID_UPDATES:
                    self._updates_deep += 1
                    try:
                        yield from list(self._grids(updated, scope, meta, hops))
                    finally:
                        self._updates_deep -= 1
                return
            values = self.values_of(value.value, scope)
            for bound in values:
                if isinstance(bound, cst.List):  # `grid = []`, then `grid.append(n)`
                    yield from self._appended_grids(bound, value, scope, meta, hops + 1, alone=len(values) == 1)
                else:
                    yield from self._grids(bound, scope, meta, hops + 1)
            for function in self._visible_functions(value.value, scope):
                yield from self._returned_grids(function, hops + 1, first_param(function.params))
        elif isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name):  # `cfg["grid"]` of a dict
            key = self._subscript_key(value, scope)
            for entry, filled in [] if key is None else self._dict_entries(value, key, scope):
                if entry is not None:
                    yield from self._grids(entry, filled, meta, hops + 1)
        elif (
            isinstance(value, cst.Attribute)
            and isinstance(value.value, cst.Name)
            and value.value.value in ("self", "cls")
        ):
            yield from self._held_grids(value.attr.value, scope, meta, hops + 1)  # `kernel[self.grid]`
        elif isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name):  # `kernel[ctx.grid]`
            for stored, where in self._context_stores(value.value.value, value.attr.value, scope):
                yield from self._grids(stored, where, meta, hops + 1)
        elif isinstance(value, cst.Call) and is_partial(value.func, self.partial_names):
            yield from self._partial_grids(value, scope, hops + 1)
        elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            if value.func.value in ("tuple", "list") and len(value.args) == 1 and not value.args[0].star:
                made = value.args[0].value
                if isinstance(made, cst.GeneratorExp):  # `tuple(triton.cdiv(s, b) for s, b in zip(S, B))`
                    for axes in self._comprehended(made, scope, meta, hops + 1):
                        yield Grid(axes, scope, value, meta)
                else:
                    yield from self._grids(made, scope, meta, hops + 1)  # `tuple([a, b])`
            for function in self._visible_functions(value.func.value, scope):  # `_grid(T, B)`
                yield from self._returned_grids(function, hops + 1, None, (value, scope))
        elif isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):  # `Ops._grid(T, B)`
            for method in self._methods_called(value.func, scope):
                yield from self._returned_grids(method, hops + 1, None, (value, scope))

    def _appended_grids(
        self, listed: cst.List, read: cst.Name, scope: Scope, meta: str | None, hops: int, alone: bool
    ) -> Iterator[Grid]:
        """The grids the list literal a name is bound to may be where `read` reads the name, with
        what the function adds to it before on each path (`_added_paths`); written as the name
        read when it adds any (`grid` of `k[tuple(grid)]`: the literal, `[]`, is not the grid).
        When the list is the one value the name may hold (`alone`) and every test choosing
        among the paths picks a variant, each path's grid may run whatever the sizes
        (`Grid.variant`)."""
        found = self._added_paths(listed, read, scope)
        if found is None:
            return
        paths, variant = found
        grids = [
            grid
            for path in paths
            for grid in self._listed_grids(
                with_additions(listed.elements, path), read if path else listed, scope, meta, hops
            )
        ]
        if len(grids) > MAX_GRIDS:  # unknown, as a grid of too many parts
            return
        for grid in grids:
            yield replace(grid, variant=True) if alone and variant and len(paths) > 1 else grid

    def list_item(self, value: cst.BaseExpression, scope: Scope) -> cst.BaseExpression | None:
        """The item `grid[i]` (`i` an int literal) reads of the list literal the function binds
        `grid` to, with what it adds to it before the read on each path (`_added_paths`): the
        element at `i` on every path, when it is the same one (`grid = []`, `grid.append(n)`,
        then `grid[0]` reads `n`); None otherwise."""
        if not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and len(value.slice) == 1):
            return None
        index = returned_index(value)
        bound = self.values_of(value.value.value, scope) if index is not None else []
        if index is None or len(bound) != 1 or not isinstance(listed := bound[0], cst.List):
            return None
        found = self._added_paths(listed, value.value, scope) if isinstance(scope, cst.FunctionDef) else None
        items = {element_at(with_additions(listed.elements, path), index) for path in found[0]} if found else {None}
        return items.pop() if len(items) == 1 else None

    def _listed_grids(
        self,
        elements: Sequence[cst.BaseElement],
        written: cst.BaseExpression,
        scope: Scope,
        meta: str | None,
        hops: int,
    ) -> Iterator[Grid]:
        """The grids a tuple or list of `elements` may be."""
        parts = [self._element_axes(element, scope, meta, hops) for element in elements]
        if math.prod(len(part) for part in parts) > MAX_GRIDS:  # read as when no part is known
            parts = [[(element.value,)] for element in elements]
        for chosen in itertools.product(*parts):
            yield Grid(tuple(axis for part in chosen for axis in part), scope, written, meta)

    def _added_paths(self, listed: cst.List, read: cst.Name, scope: Scope) -> ListPaths:
        """What the function adds to the list `listed` it binds a name to before `read` reads
        that name, on each path: the additions (`list_addition`: `.append(v)`, `.extend(vs)`,
        `.insert(i, v)`) the statements of the assignment's own block written between the two
        make, those under an `if` or in a loop on the paths through it (`list_paths`, no arm nor
        loop body `known_truth` says never runs), then those before the read in the blocks
        holding it (`paths_into`: its arm, its loop's body, also run whole on an earlier trip), and
        whether each test choosing among them picks a variant (`_picks_variant`). No addition
        when the read is in no statement of that block; None (no grid: the list is not what it
        was bound to plus what was added) when code that may run between the two changes the
        list otherwise (`_changes_list`), or when the paths are unknown. Read once per list and
        read's place."""
        if not isinstance(scope, cst.FunctionDef):
            return [()], True
        if self._changes_list(listed, read, scope):
            return None
        order = self.written_order(scope)
        binding = order.enclosing_statements(listed)
        statements, start = binding[-1] if binding else ((), 0)
        nesting = order.enclosing_statements(read)
        level = next((level for level, (lines, _) in enumerate(nesting) if lines is statements), None)
        assignment = statements[start] if binding else None
        if (
            level is None
            or not isinstance(assignment, cst.Assign)
            or assignment.value is not listed
            or len(assignment.targets) != 1
            or not isinstance(target := assignment.targets[0].target, cst.Name)
        ):
            return [()], True
        lines, index = nesting[-1]
        key = (listed, lines[index])
        if key not in self._list_paths:
            name = target.value
            picks_variant = partial(self._picks_variant, scope=scope, counted=name)
            truth = partial(self.known_truth, scope=scope)

            def paths_of(lines: Sequence[cst.CSTNode], nested: bool, breaking: bool) -> ListPaths:
                return list_paths(lines, name, order, picks_variant, truth, MAX_GRIDS, nested, breaking)

            self._list_paths[key] = paths_into(nesting[level:], start + 1, paths_of, order, picks_variant, MAX_GRIDS)
        return self._list_paths[key]

    def _changes_list(self, listed: cst.List, read: cst.Name, scope: cst.FunctionDef) -> bool:
        """A use of `read`'s name in the function that may run between its binding to `listed`
        and `read` (anywhere, with a loop around either) may change the list other than by
        adding to it: one `_escaping_uses` finds (`shrink(grid)`, `alias = grid`), or one changing
        it in place (`grid.pop()`, `del grid[1]`, `grid[1] = 4`, `grid[:] = [4]`: any but an
        `.append` / `.extend` / `.insert` statement, `len(grid)` or an item loaded)."""
        order = self.written_order(scope)
        return any(
            use is not read and not order.runs_before(read, use) and not order.runs_before(use, listed)
            for use in self._escaping_uses(read.value, scope, in_place=True)
        )

    def _context_stores(self, receiver: str, attribute: str, scope: Scope) -> list[tuple[cst.BaseExpression, Scope]]:
        """What `ctx.<attribute>` may hold where `scope` reads it, `ctx` the first parameter of
        `scope`: the values the function stores there (`ctx.grid = (B, T)`), or a method of its
        class taking that parameter first (an autograd `forward` storing what `backward` reads)."""
        if not isinstance(scope, cst.FunctionDef) or first_param(scope.params) != receiver:
            return []
        owner = self.class_of.get(scope)
        return [
            (stored, where)
            for stored, where in self.attribute_stores.get(f"{receiver}.{attribute}", ())
            if where is scope
            or (
                isinstance(where, cst.FunctionDef)
                and owner is not None
                and self.class_of.get(where) is owner
                and first_param(where.params) == receiver
            )
        ]

    def _element_axes(
        self, element: cst.BaseElement, scope: Scope, meta: str | None, hops: int
    ) -> list[tuple[cst.BaseExpression, ...]]:
        """The axes an element of a grid tuple may stand for: itself, or the axes of each grid
        a starred one may unpack (`*lead` of `(*lead, n)` with `lead = (B, T)`); a tensor's
        extents unpacked (`*x.shape[:-1]`: `shape_tensors`) launch their product, the one axis
        `math.prod(x.shape[:-1])`; an entry of a dict the function writes, each value it may hold
        (`_entry_values`)."""
        if not isinstance(element, cst.StarredElement):
            return [(element.value,)]
        unpacked = self._own_grids(element.value, scope, meta, hops + 1)
        if unpacked:
            return unpacked
        if shape_tensors(element.value, lambda name: self._named_extents(name, scope)):
            product = cst.Call(cst.Attribute(cst.Name("math"), cst.Name("prod")), [cst.Arg(element.value)])
            self._placed[product] = element
            return [(product,)]
        return [(element.value,)]

    def _entry_values(self, value: cst.BaseExpression, scope: Scope) -> list[cst.BaseExpression]:
        """The values an entry of a dict the function binds (`cfg["n"]`, with `cfg = {"n": B *
        T}` or `cfg["n"] = B * T` before) may hold, read as a name's value is: each value
        `_dict_entries` finds written in the function, when none of the names it reads may be
        rebound between it and the read; else the entry itself. A function nested in the one
        binding the dict (`def grid(meta): return (cfg["n"], 4)`) reads it as that one does
        where it defines the nested function, when no code from there on changes it."""
        if scope is None or not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name)):
            return [value]
        key = self._subscript_key(value, scope)
        owner = self._binding_scope(value.value.value, scope)
        if key is None or not isinstance(owner, cst.FunctionDef) or self._escapes(value, owner):
            return [value]
        if owner is not scope and not self._kept_after_nested(value.value.value, scope, owner):
            return [value]
        entries = []
        for entry, filled in self._dict_entries(value, key, owner):
            if entry is None or filled is not owner or not self.reads_as_written(entry, value, owner):
                return [value]
            entries.append(entry)
        return entries or [value]

    def _kept_after_nested(self, name: str, nested: Scope, owner: cst.FunctionDef) -> bool:
        """`owner` changes `name` nowhere from the function nested in it holding `nested` on
        (nor does that function): its value where it is defined is the one it reads when run."""
        while nested is not None and self.enclosing.get(nested) is not owner:
            nested = self.enclosing.get(nested)
        rebound = None if nested is None else self.written_order(owner).names_rebound_from(nested)
        return rebound is not None and name not in rebound

    def _escapes(self, read: cst.Subscript, scope: cst.FunctionDef) -> bool:
        """The dict `read` takes an entry of may be changed where the function does not say,
        before the read (anywhere, with a loop around either): passed to a call (`adjust(cfg)`,
        `obj.tune(cfg)`, `_shrink(cfg)`: `passed_to`) or held by another name (`alias = cfg`,
        `pair = (cfg, 1)`)."""
        assert isinstance(read.value, cst.Name)
        order = self.written_order(scope)
        return any(not order.runs_before(read, use) for use in self._escaping_uses(read.value.value, scope))

    def _escaping_uses(self, name: str, scope: cst.FunctionDef, in_place: bool = False) -> list[cst.Name]:
        """The uses of `name` in `scope` passing it to a call other than a builtin only reading
        it (`only_read_by`: `len(cfg)`, `tuple(grid)`) or holding it in another name or
        container (`_escapes`); with `in_place`, also those changing it in place (`changes_in_place`:
        `grid.pop()`, `grid[1] = 4`, `del grid[1]`) but an `.append` / `.extend` statement
        (`_appends`), and those taking a method that may (`method_taken`: `add = grid.append`,
        `map(grid.append, xs)`). Found once per name, function and `in_place`."""
        key = (name, scope, in_place)
        found = self._escaping.get(key)
        if found is None:
            found = self._escaping[key] = [
                use.name
                for use in self.name_uses.get(name, ())
                if use.owner is scope
                and use.around
                and (
                    not only_read_by(passed_to(use.name, use.around))
                    or (
                        isinstance(use.around[0], cst.Assign | cst.Element | cst.DictElement)
                        and use.around[0].value is use.name
                    )
                    or (
                        in_place
                        and (
                            (changes_in_place(use.name, use.around) and not _appends(use))
                            or method_taken(use.name, use.around)
                        )
                    )
                )
            ]
        return found

    def reads_as_written(self, value: cst.BaseExpression, read: cst.CSTNode, scope: cst.FunctionDef) -> bool:
        """Every name `value` reads holds at `read` what it held where `value` is written: none
        the function binds is rebound between them (a module's `triton` is not, by the
        `triton.cdiv(...)` of a grid lambda), or, with a loop around either, each holds one value
        (`_holds_one_value`)."""
        rebound = self.written_order(scope).names_rebound_between(value, read)
        if rebound is not None:
            return not any(
                self._binding_scope(name, scope) is scope or scope in self.globals_declared.get(name, ())
                for name in rebound & names_read(value)
            )
        return all(self._holds_one_value(name, scope) for name in variables_read(value))

    def _own_grids(
        self, value: cst.BaseExpression, scope: Scope, meta: str | None, hops: int
    ) -> list[tuple[cst.BaseExpression, ...]]:
        """The axes of each grid `value` may be whose names resolve in `scope`: a part of a
        grid written there (a tuple concatenated or unpacked into it). Read once each
        (`grid = grid + grid`, repeated, reads each earlier binding twice)."""
        key = (value, scope, meta, hops)
        found = self._grid_parts.get(key)
        if found is None:
            found = self._grid_parts[key] = [
                grid.axes for grid in self._grids(value, scope, meta, hops) if grid.scope is scope
            ]
        return found

    def _held_grids(self, attribute: str, scope: Scope, meta: str | None, hops: int) -> Iterator[Grid]:
        """The grids `self.<attribute>` (or `cls.`) may hold in a method: what the methods of its
        class store there (`self.grid = lambda meta: (...)`, read where it is stored), and its
        method of that name (`def _grid(self, meta): return (...)`, `meta` the parameter after
        `self`)."""
        owner = None if scope is None else self.class_of.get(scope)
        if owner is None:
            return
        for held in (f"self.{attribute}", f"cls.{attribute}"):
            for stored, where in self.attribute_stores.get(held, ()):
                if where is not None and self.class_of.get(where) is owner:
                    yield from self._grids(stored, where, meta, hops)
        for method in self.functions.get(attribute, ()):
            params = [*method.params.posonly_params, *method.params.params]
            if self.class_of.get(method) is not owner:
                continue
            if _is_property(method):  # `@property def grid(self): return (...)`: its value
                yield from self._returned_grids(method, hops, None)
            elif len(params) > 1:
                yield from self._returned_grids(method, hops, params[1].name.value)

    def _methods_called(self, func: cst.Attribute, scope: Scope) -> list[cst.FunctionDef]:
        """The methods of the module `func` names in `scope`: `Ops._grid` (a static or class
        method), `self._grid` / `cls._grid` in a method of their class when no class of the
        module deriving from it defines one so named (that one may be the one called)."""
        receiver = func.value.value if isinstance(func.value, cst.Name) else None
        methods = [method for method in self.functions.get(func.attr.value, ()) if method in self.class_of]
        found = [method for method in methods if self._reaches_class(receiver, scope, self.class_of[method])]
        if receiver in ("self", "cls") and found:
            derived = self._derived_classes(self.class_of[found[0]])
            if any(self.class_of[method] in derived for method in methods):
                return []
        return found

    def _derived_classes(self, base: cst.ClassDef) -> set[cst.ClassDef]:
        """The module's classes with methods deriving from `base`, directly or through others of
        them (`class Sub(Op)`, `class Sub(ops.Op)`: by the last name of each base)."""
        derived: set[cst.ClassDef] = set()
        names, classes = {base.name.value}, set(self.class_of.values()) - {base}
        while found := {
            candidate
            for candidate in classes - derived
            if any((dotted_name(arg.value) or "").rpartition(".")[2] in names for arg in candidate.bases)
        }:
            derived |= found
            names |= {candidate.name.value for candidate in found}
        return derived

    def _partial_grids(self, made: cst.Call, scope: Scope, hops: int) -> Iterator[Grid]:
        """The grids of `functools.partial(_grid, n=T)`: what the grid function of the module
        returns for the arguments the partial binds, as a call of it passing them would make
        it (`_returned_grids`); the parameter the launcher fills, the first after those the
        partial binds by position, holds the launch's constexprs (`meta`)."""
        if not made.args:  # `functools.partial()`: a TypeError at the launch
            return
        first, *bound = made.args
        for _ in range(ORIGIN_HOPS):  # `partial(partial(_grid, n=T), bh=B * H)`: one partial
            inner = self._partial_made(first.value, scope) if not (first.keyword or first.star) else None
            if inner is None or not inner.args:
                break
            first, *bound = self._partial_args(inner.args, bound)
        if first.keyword or first.star or not isinstance(first.value, cst.Name) or any(arg.star for arg in bound):
            return
        call = cst.Call(first.value, bound)  # `_grid(n=T)`: the call the partial stands for, but `meta`
        positional = sum(arg.keyword is None for arg in bound)
        for function in self._visible_functions(first.value.value, scope):
            params = [*function.params.posonly_params, *function.params.params]
            if positional < len(params):
                meta = params[positional].name.value
                yield from self._returned_grids(function, hops, meta, (call, scope), made)

    def _partial_made(self, value: cst.BaseExpression, scope: Scope) -> cst.Call | None:
        """The `functools.partial(...)` call `value` is: written there, or the one value a
        name of the function is bound to (`p = partial(_grid, n=T)`, then `partial(p, bh=H)`)."""
        if isinstance(value, cst.Name):
            bound = self.values_of(value.value, scope)
            value = bound[0] if len(bound) == 1 else value
        return value if isinstance(value, cst.Call) and is_partial(value.func, self.partial_names) else None

    @staticmethod
    def _partial_args(inner: Sequence[cst.Arg], outer: Sequence[cst.Arg]) -> list[cst.Arg]:
        """The arguments of the one partial a partial of a partial is: the inner positional ones,
        then the outer ones, the outer keywords replacing the inner of the same name."""
        replaced = {arg.keyword.value for arg in outer if arg.keyword is not None}
        kept = [arg for arg in inner if arg.keyword is None or arg.keyword.value not in replaced]
        positional = [arg for arg in kept if arg.keyword is None] + [arg for arg in outer if arg.keyword is None]
        return (
            positional + [arg for arg in kept if arg.keyword is not None] + [a for a in outer if a.keyword is not None]
        )

    def _comprehended(
        self, made: cst.GeneratorExp | cst.ListComp, scope: Scope, meta: str | None, hops: int
    ) -> list[tuple[cst.BaseExpression, ...]]:
        """The axes a comprehension over sequences of the function makes, one per item, each
        its expression with the items in place of the loop's names: `triton.cdiv(s, b) for s, b
        in zip((T, H), (BT, 1))` is `(triton.cdiv(T, BT), triton.cdiv(H, 1))`. No axes for a loop
        with a test or a nested loop, or over a sequence the function does not write."""
        loop = made.for_in
        if loop.inner_for_in is not None or loop.ifs:
            return []
        targets = [e.value for e in loop.target.elements] if isinstance(loop.target, cst.Tuple) else [loop.target]
        names = [target.value for target in targets if isinstance(target, cst.Name)]
        sources = [loop.iter]
        if isinstance(loop.iter, cst.Call) and dotted_name(loop.iter.func) == "zip":
            sources = [arg.value for arg in loop.iter.args if not (arg.keyword or arg.star)]
            if len(sources) != len(loop.iter.args):
                return []
        if len(names) != len(targets) or len(names) != len(sources):
            return []
        reads = variables_read(made.elt)
        found = []
        for sequences in itertools.product(*(self._own_grids(source, scope, meta, hops) for source in sources)):
            axes = []
            for items in zip(*sequences, strict=False):  # `zip` stops at the shortest
                placed = dict(zip(names, items, strict=True))
                passed = {id(name): placed[name.value] for name in reads if name.value in placed}
                axis = made.elt.visit(_ArgumentsPlaced(passed, self._placed))
                assert isinstance(axis, cst.BaseExpression)
                axes.append(axis)
            found.append(tuple(axes))
        return found

    def _dict_entries(
        self, read: cst.Subscript, key: str, scope: Scope
    ) -> list[tuple[cst.BaseExpression | None, Scope]]:
        """What `read` (`cfg["grid"]`, `key` its key) may be: the entry written last before it
        in straight-line code (`entry_writer`: `cfg["grid"] = (n,)`, or that of the dict
        literal or `dict(...)` bound to `cfg` with no `**` splat in it); what the value bound
        then may give (`dict_sources`: `cfg = base.copy()`), what each path through an `if`
        leaves (`_written_entries`); nothing when another statement may change it there
        (`cfg.update(...)`, `setdefault`, a store in a loop).
        With no statement of the function binding the dict, any entry it may hold."""
        name = read.value
        assert isinstance(name, cst.Name)
        writer = None if scope is None else entry_writer(name.value, key, read, self.written_order(scope))
        if writer is None:
            return [(dict_entry(source, key), filled) for source, filled in self.dict_sources(name, scope)]
        return self._written_entries(writer, name.value, key, scope, 0)

    def _written_entries(
        self, writer: cst.CSTNode, name: str, key: str, scope: Scope, depth: int
    ) -> list[tuple[cst.BaseExpression | None, Scope]]:
        """What the entry `key` of the dict `name` holds after `writer`, the statement last
        changing it (`_dict_entries`): its value stored (`cfg["n"] = v`), the entry of the dict
        bound; after an `if` binding or storing it in its arms, what each arm leaves (`if a: cfg
        = {"n": B}` / `else: cfg = {"n": T}`; an arm changing nothing leaves what was written
        before the `if`); nothing for another statement."""
        stored = stored_entry(writer, name, key)
        if stored is not None:
            return [(stored, scope)]
        if isinstance(writer, cst.If | cst.Try) and isinstance(scope, cst.FunctionDef) and depth < ORIGIN_HOPS:
            return self._entries_after_arms(writer, name, key, scope, depth + 1)
        bound = plain_binding(writer, name)
        if not isinstance(bound, cst.BaseExpression) or splats_inside(bound):
            return []
        if isinstance(bound, cst.Dict) or is_dict_call(bound):
            return [(dict_entry(bound, key), scope)]
        return [(dict_entry(source, key), filled) for source, filled in self.dict_sources(bound, scope)]

    def _entries_after_arms(
        self, statement: cst.If | cst.Try, name: str, key: str, scope: cst.FunctionDef, depth: int
    ) -> list[tuple[cst.BaseExpression | None, Scope]]:
        """`_written_entries` after an `if` or a `try` changing the dict `name` in its blocks: what
        the last statement changing it on each path leaves (`_arm_writers`), and, for a path
        changing nothing, what the statement before the compound one left; nothing when one of
        them is unknown (a loop, an `update`)."""
        order = self.written_order(scope)
        other_keys = partial(stores_other_keys, name=name, key=key)
        writers = self._arm_writers(statement, name, other_keys, order)
        if writers is None:
            return []
        if None in writers:  # that path keeps what was written before the `if` or `try`
            before = order.last_writer(
                name, order.enclosing_statements(statement), lambda s: s is statement or other_keys(s)
            )
            writers = [before if writer is None else writer for writer in writers]
        unreached = self._unreached
        writers = [writer for writer in writers if id(writer) not in unreached]  # not on the grid's path
        entries: list[tuple[cst.BaseExpression | None, Scope]] = []
        for writer in writers:
            found = [] if writer is None else self._written_entries(writer, name, key, scope, depth)
            if not found:
                return []
            entries.extend(found)
        return entries

    @staticmethod
    def _arm_writers(
        statement: cst.If | cst.Try, name: str, other_keys: Callable[[cst.CSTNode], bool], order: WrittenOrder
    ) -> list[cst.CSTNode | None] | None:
        """The last statement changing the dict `name` on each path through `statement` (None
        for a path changing nothing): each arm of an `if` (`elif` ones too; a missing `else`
        changes nothing); the body of a `try` (its `else` block's if that changes it) and each
        handler, which may also follow any part of the body (one changing nothing leaves what
        the body or the code before it left). A path ending in `return`, `raise`, `continue` or
        `break` leaves nothing there. None for a `try` whose `finally` block changes it."""

        def last(block: cst.BaseSuite | None) -> tuple[cst.CSTNode | None, bool]:
            lines = order.statements(block) if block is not None else []
            leaves = bool(lines) and isinstance(lines[-1], cst.Return | cst.Raise | cst.Continue | cst.Break)
            return (order.last_writer(name, [(lines, len(lines) - 1)], other_keys) if lines else None), leaves

        if isinstance(statement, cst.Try):
            if statement.finalbody is not None and last(statement.finalbody.body)[0] is not None:
                return None
            body, body_leaves = last(statement.body)
            if statement.orelse is not None:
                written, body_leaves = last(statement.orelse.body)
                body = written or body
            writers = [] if body_leaves else [body]
            for handler in statement.handlers:
                written, leaves = last(handler.body)
                if not leaves:
                    writers += [written] if written is not None else [None, body]
            return writers
        return [written for written, leaves in map(last, if_arms(statement)[1]) if not leaves]

    def _returned_grids(
        self,
        function: cst.FunctionDef,
        hops: int,
        meta: str | None,
        call: tuple[cst.Call, Scope] | None = None,
        written: cst.CSTNode | None = None,
    ) -> Iterator[Grid]:
        """The grids a function returns: a grid function's (`def grid(META): return (...)`,
        `meta` its first parameter) or a function called for the grid (`grid = _grid(T, BT,
        B)`, `call` and the scope it is written in, no `meta`; or the call a
        `functools.partial(_grid, n=T)` makes, `written`, leaving `meta` unbound). A tuple
        returned of parameters and module names only is the grid the call makes (`_made_by`):
        read where the call is, as if written there; any other is read in the function, its
        parameters being what every call passes (`origins`)."""
        for returned, returning in self.returns.get(function.name.value, ()):
            if returning is not function:
                continue
            made = self._made_by(returned, function, *call, meta) if call is not None else None
            if call is not None and isinstance(made, (cst.Tuple, cst.List)):
                yield Grid(tuple(e.value for e in made.elements), call[1], written or call[0], meta)
            else:
                yield from self._grids(returned, function, meta, hops)

    def _made_by(
        self,
        returned: cst.BaseExpression,
        function: cst.FunctionDef,
        call: cst.Call,
        scope: Scope,
        unbound: str | None = None,
        hops: int = 0,
    ) -> cst.BaseExpression | None:
        """The value `function` returns as `call`, written in `scope`, makes it: each parameter
        but `unbound` (a grid function's `meta`) read replaced by what the call passes for it
        (or its default), when the value reads only
        parameters the function never rebinds, names it and `scope` both read from the
        module, and names it binds once to such a value (`shape` of `b, h = x.shape`, `shape =
        (b, h)`: `(x.shape[0], x.shape[1])` with the call's `x`) (`(triton.cdiv(L, 64), B * H)`
        for `_grid(L, 64, B * H)` of a `_grid(T, BT, BH)` returning `(triton.cdiv(T, BT),
        BH)`); else None."""
        passed: dict[int, cst.BaseExpression] = {}
        for name in variables_read(returned):
            param = param_named(function, name.value)
            if name.value == unbound:
                continue
            if param is None:
                own = hops < NAMES_FOLLOWED and self._binding_scope(name.value, function) is function
                held = self._bound_once(name, function, lambda _: True) if own else None
                local = self._made_by(held, function, call, scope, unbound, hops + 1) if held is not None else None
                if local is not None:
                    passed[id(name)] = local
                elif self._binding_scope(name.value, function) is not None or self._binding_scope(name.value, scope):
                    return None
                continue
            value = passed_or_default(call, function, name.value) if not param.star else None
            if value is None or (name.value, function) in self.bindings:
                return None
            passed[id(name)] = value
        made = returned.visit(_ArgumentsPlaced(passed, self._placed))
        assert isinstance(made, cst.BaseExpression)
        return made

    def returned_for(self, call: cst.Call, scope: Scope) -> list[cst.BaseExpression]:
        """Each value the one function of the module `call` names returns, as the call makes it
        (`_made_by`: `1 << (n - 1).bit_length()` for `_next_pow2(n)`), but for the returns only
        another platform runs (`on_other_platform`); empty when one is not made of its
        parameters and the module's names only. Worked out once per call."""
        found = self._calls_made.get(call)
        if found is None:
            function = self.called_function(call, scope)
            returned = self.returns_on_ascend(function) if function is not None else []
            made = [self._made_by(value, function, call, scope) for value in returned if function is not None]
            found = self._calls_made[call] = [value for value in made if value is not None] if None not in made else []
        return found

    def checks_made(self, call: cst.Call, scope: Scope) -> list[tuple[cst.BaseExpression, bool]]:
        """The tests the one function of the module `call` names checks before it can return,
        raising otherwise: an `if` test whose body raises (False: it fails after it), an
        `assert`'s (True), each as the call makes it (`_made_by`: `NT * B * H > 65535` for
        `_check_grid(NT * B * H)` of a `_check_grid(n)` doing `if n > 65535: raise ...`)."""
        found = self._checks_made.get(call)
        if found is None:
            found = self._checks_made[call] = []
            functions = self._visible_functions(call.func.value, scope) if isinstance(call.func, cst.Name) else []
            statements = statements_of(suite_lines(functions[0].body)) if len(functions) == 1 else []
            returning = [i for i, s in enumerate(statements) if any(isinstance(n, cst.Return) for n in walk(s))]
            before_return = statements[: returning[0]] if returning else statements
            for test, holds in checks_in(before_return, _raises):
                made = self._made_by(test, functions[0], call, scope)
                if made is not None:
                    found.append((made, holds))
        return found

    def checks_before(self, site: CallSite) -> list[tuple[cst.BaseExpression, bool, cst.CSTNode]]:
        """The tests checked on every path to the call in its function, each with whether it
        holds at the call and the statement it holds after: the early exits and `assert`s that
        run before it (`checks_in` of `guards.run_before`), and what a function of the module
        called before it as a statement checks (`_check_grid(NT * B * H)`: `checks_made`). Each
        block's are worked out once (`_block_checks`), however many calls it holds."""
        if site.scope is None:
            return []
        checked: list[tuple[cst.BaseExpression, bool, cst.CSTNode]] = []
        made: list[tuple[cst.BaseExpression, bool, cst.CSTNode]] = []
        holders = self.written_order(site.scope).holders(site.call)
        for statements, count in run_before(site.scope.body, holders, self._unrolled):
            block_checked, block_made = self._block_checks(statements, site.scope)
            checked += [check for _, check in block_checked[: bisect_left(block_checked, count, key=_first)]]
            made += [check for _, check in block_made[: bisect_left(block_made, count, key=_first)]]
        return checked + made

    def _unrolled(self, block: cst.BaseSuite) -> Unrolled:
        """The block's statements as `run_before` reads them, read once."""
        found = self._unrolled_blocks.get(block)
        if found is None:
            found = self._unrolled_blocks[block] = Unrolled(block)
        return found

    def _block_checks(self, statements: Unrolled, scope: Scope) -> tuple[_PlacedChecks, _PlacedChecks]:
        """What each statement a block runs (`Unrolled.run`) checks, with its place there: its
        own test (`checks_in`), then what a function of the module it calls checks
        (`checks_made`), as `checks_before` reads them; worked out once per block."""
        found = self._checks_by_block.get(statements)
        if found is None:
            checked: _PlacedChecks = []
            made: _PlacedChecks = []
            for place, statement in enumerate(statements.run):
                checked += [(place, (test, holds, test)) for test, holds in checks_in([statement], never_falls_through)]
                if isinstance(statement, cst.Expr | cst.Assign) and isinstance(statement.value, cst.Call):
                    made += [
                        (place, (test, holds, statement)) for test, holds in self.checks_made(statement.value, scope)
                    ]
            found = self._checks_by_block[statements] = (checked, made)
        return found

    def _visible_functions(self, name: str, scope: Scope) -> list[cst.FunctionDef]:
        """The functions `name` may call in `scope`: those defined in it (`def grid(meta):`
        nested in the launching function, or a lambda bound to the name there, `make = lambda a,
        b: (a, b)`), else in the nearest function around it that defines one, else at module level."""
        functions = [function for function in self.functions.get(name, []) if function not in self.class_of]
        functions += self.named_lambdas.get(name, [])
        while True:
            found = [function for function in functions if self.enclosing.get(function) is scope]
            if found or scope is None:
                return found
            scope = self.enclosing.get(scope)

    def core_count(self, value: cst.BaseExpression, scope: Scope, hops: int = 0) -> CoreCount | None:
        """The device core count a host value holds: `get_device_properties(...)["num_aicore"]`
        (or `.get("num_aicore")`), followed through names (a function's own, a closure's,
        the module's: `NUM_CORES = ...` read in a launching function), parameters, dict
        entries (`cfg["cores"]`: `_dict_entries`), `min`/`max`/`int` (`min` of both counts is the
        AI count, `max` the vector count), half the vector count (`props["num_vectorcore"] // 2`,
        `/ 2`, `>> 1`: the AI count, two vector cores per AI core) and functions of the module returning one (or a tuple holding one:
        `cores, _ = counts()`, `counts()[0]`; or a choice the call's literal argument makes,
        `arm_for_call`), or a function or module-level name another module of the package
        defines (`_imported_core_count`); fla's
        `get_multiprocessor_count(...)` is the vector core count on an NPU (the AI cores
        with `use_aicore=True`); the driver's `utils.get_aicore_num()` /
        `utils.get_aivector_core_num()` methods (any receiver) are the AI / vector core count.
        A value several origins may give (the arms of an `if`, a binding later in a loop around
        the read) holds the AI core count when any of them does, whatever their order. What the
        bindings reaching a name hold is worked out once for the name, its one binding reaching
        the read (`_sole_binding`) and the hops (`_bound_core_count`)."""
        if hops > ORIGIN_HOPS:
            return None
        if not isinstance(value, cst.Name):
            return self._first_core_count(self.origins(value, scope), scope, hops)
        if self.rebound_global(value.value, scope):
            return self._global_core_count(value.value, hops)
        own = self._first_core_count([(value, "")], scope, hops)
        if own is not None and own.kind == "num_aicore":
            return own
        return _count_of_kind([own, self._bound_core_count(value, scope, hops)], "num_aicore")

    def _bound_core_count(self, read: cst.Name, scope: Scope, hops: int) -> CoreCount | None:
        """`core_count` of the origins of the values bound to the name `read` that reach it
        (`_name_origins`), the same for every read its one reaching binding is the same for
        (each of n halvings `n //= 2` after `n += 1` reads all of them, each halving again):
        worked out once for those where each grid is sized (`_at_launch`), but while a rebound
        global is read (`_globals_read`)."""
        if self._globals_read:
            return self._first_core_count(self._name_origins(read, scope, 0, True, set()), scope, hops)
        key = (read.value, scope, self._read_reaching(read, scope), hops)
        return self._at_launch(self._bound_core_counts, key, partial(self._reaching_core_count, read, scope, hops))

    def _reaching_core_count(self, read: cst.Name, scope: Scope, hops: int) -> CoreCount | None:
        """`_bound_core_count` where the grid being sized is. Every binding reaching it is read
        for each launch (`n = n * 2` before each): from each binding's answer alone, the first
        AI core count of them, else the first count, each binding's kept across launches
        (`_kept_each`)."""
        bound = self._reaching_bindings(read.value, scope)
        if self._sole_binding(read, scope, bound) is None and bound and self._unreached:
            counts = self._kept_each(
                self._binding_core_counts.setdefault((read.value, scope, hops), {}),
                bound,
                partial(self._binding_core_count, read.value, scope, hops),
            )
            if counts is not None:
                return _count_of_kind(counts, "num_aicore")
        return self._first_core_count(self._name_origins(read, scope, 0, True, set()), scope, hops)

    def _binding_core_count(self, name: str, scope: Scope, hops: int, value: cst.BaseExpression) -> CoreCount | None:
        """`_first_core_count` of the origins of one `value` bound to `name`, read after the
        others (`_name_origins`)."""
        return self._first_core_count(self.origins(value, scope, 1, True, {(name, scope, 0)}), scope, hops)

    def _first_core_count(
        self, origins: Iterable[tuple[cst.BaseExpression, str]], scope: Scope, hops: int
    ) -> CoreCount | None:
        """The first AI core count `_core_count_at` finds at the origins, else the first count."""
        first: CoreCount | None = None
        for origin, _ in origins:
            found = self._core_count_at(origin, self._scope_of(origin, scope), hops)
            if found is not None:
                count = CoreCount(found.kind, self._placed.get(found.node, found.node))
                if count.kind == "num_aicore":
                    return count
                first = first or count
        return first

    def _core_count_at(self, node: cst.BaseExpression, scope: Scope, hops: int) -> CoreCount | None:
        key = self._subscript_key(node, scope)
        if key in CORE_COUNT_KEYS:
            return CoreCount(key, node)
        if isinstance(node, cst.Name):
            if self.rebound_global(node.value, scope):  # `global _NUM_AICORE` in an init function
                return self._global_core_count(node.value, hops)
            if self._is_free(node.value, scope):  # bound by an import (`from .utils import NUM_CORES`)
                return self._imported_core_count(node, node, scope)
            binding = self._binding_scope(node.value, scope)  # origins follow the names `scope` binds
            return self.core_count(node, binding, hops + 1) if binding is not scope else None
        if isinstance(node, cst.Attribute) and node.attr.value in CORE_COUNT_ATTRIBUTES:  # `props.cube_core_num`
            return CoreCount(CORE_COUNT_ATTRIBUTES[node.attr.value], node)
        if isinstance(node, cst.Attribute) and self._calls_method(node, scope, properties=True):  # `self.cores`
            return self._returned_core_count(node.attr.value, cst.Call(func=node), hops)
        if isinstance(node, cst.Attribute):  # `utils.NUM_CORES`
            return self._imported_core_count(node, node, scope)
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and key is not None:  # `cfg["cores"]`
            entries = self._dict_entries(node, key, scope)
            counts = [self.core_count(entry, filled, hops + 1) for entry, filled in entries if entry is not None]
            return _count_of_kind(counts, "num_aicore")
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Call):  # `counts()[0]`, `cores, _ = counts()`
            func = node.value.func
            if isinstance(func, cst.Attribute) or (isinstance(func, cst.Name) and func.value not in self.functions):
                return self._imported_core_count(func, node, scope)
            key = subscript_key(node)  # `device_info()["cores"]`, a dict the function returns
            return self._keyed_core_count(func.value, key, hops) if isinstance(func, cst.Name) and key else None
        halved = _half_of(node)
        if halved is not None:  # `props["num_vectorcore"] // 2`: one per AI core, two vector cores each
            count = self.core_count(halved, scope, hops + 1)
            return CoreCount("num_aicore", node) if count is not None and count.kind == "num_vectorcore" else None
        if not isinstance(node, cst.Call):
            return None
        func = node.func
        callee = (
            func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        )
        key = self._key_named(node.args[0].value, scope) if callee == "get" and node.args else None
        if key in CORE_COUNT_KEYS:  # `props.get("num_aicore")`
            return CoreCount(key or "", node)
        if callee == "getattr" and len(node.args) >= 2:  # `getattr(props, "cube_core_num", 24)`
            attribute = str_literal(node.args[1].value)
            return CoreCount(CORE_COUNT_ATTRIBUTES[attribute], node) if attribute in CORE_COUNT_ATTRIBUTES else None
        if callee in _DRIVER_CORE_COUNTS and isinstance(func, cst.Attribute):  # `driver.active.utils.get_aicore_num()`
            return CoreCount(_DRIVER_CORE_COUNTS[callee], node)
        if callee == "num_compute_units":  # vLLM's platform query: vllm-ascend answers `cube_core_num`
            return CoreCount("num_aicore", node)
        if callee == "get_multiprocessor_count":
            use_aicore = next((a.value for a in node.args if a.keyword and a.keyword.value == "use_aicore"), None)
            aicore = isinstance(use_aicore, cst.Name) and use_aicore.value == "True"
            return CoreCount("num_aicore" if aicore else "num_vectorcore", node)
        if callee in ("min", "max", "int"):
            counts = [self.core_count(arg.value, scope, hops + 1) for arg in node.args]
            # two vector cores per AI core: `min` of both counts is the AI count, `max` the vector count
            return _count_of_kind(counts, "num_vectorcore" if callee == "max" else "num_aicore")
        elif (isinstance(func, cst.Name) and callee in self.functions) or (
            isinstance(func, cst.Attribute) and self._calls_method(func, scope)
        ):
            return self._returned_core_count(callee, node, hops)
        elif isinstance(func, (cst.Name, cst.Attribute)):  # `get_num_cores("cube")`, `utils.get_num_cores()`
            return self._imported_core_count(func, node, scope)
        return None

    def _subscript_key(self, node: cst.BaseExpression, scope: Scope) -> str | None:
        """The key of `props["num_aicore"]` or `props[KEY]` (`_key_named`)."""
        if not (
            isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)
        ):
            return None
        return self._key_named(node.slice[0].slice.value, scope)

    def _key_named(self, key: cst.BaseExpression, scope: Scope) -> str | None:
        """The string a key (`KEY` of `props[KEY]`, `props.get(KEY)`) is: a string literal, or a
        name its function (or the module) binds once, to one (`KEY = "num_aicore"`), and nothing
        else rebinds (no parameter, no `global` statement naming it)."""
        if not isinstance(key, cst.Name) or key.value in self.globals_declared:
            return str_literal(key)
        _, values = self._values_bound(key.value, scope)
        return str_literal(values[0]) if len(values) == 1 else None

    def _calls_method(self, func: cst.Attribute, scope: Scope, properties: bool = False) -> bool:
        """`Dev.num_cores` of a class of the module defining `num_cores`, or `self.num_cores` /
        `cls.num_cores` in one of that class's methods; with `properties`, one read without a
        call, a method the class makes a property (`@property`, `@functools.cached_property`)."""
        receiver = func.value.value if isinstance(func.value, cst.Name) else None
        return any(
            self._reaches_class(receiver, scope, owner)
            for method in self.functions.get(func.attr.value, ())
            if (owner := self.class_of.get(method)) is not None and (not properties or _is_property(method))
        )

    def _returned_core_count(self, function_name: str, call: cst.Call, hops: int) -> CoreCount | None:
        """The core count a call of the module's function returns (the arm its literal
        arguments pick)."""
        for returned, function in self.returns.get(function_name, ()):
            found = self.core_count(arm_for_call(returned, call, function), function, hops + 1)
            if found is not None:
                return found
        return None

    def _keyed_core_count(self, function_name: str, key: str, hops: int) -> CoreCount | None:
        """The core count a call of the module's function holds under `key` of the dict literal
        it returns (`return {"cores": props["num_aicore"], ...}`)."""
        for returned, function in self.returns.get(function_name, ()):
            entry = dict_entry(returned, key) if isinstance(returned, cst.Dict) or is_dict_call(returned) else None
            found = self.core_count(entry, function, hops + 1) if entry is not None else None
            if found is not None:
                return found
        return None

    def rebound_global(self, name: str, scope: Scope) -> bool:
        """`name`, read in `scope`, is a module-level name a function of the module rebinds
        (`global name` in it): `scope` declares it so, or reads it from the module."""
        declaring = self.globals_declared.get(name, [])
        return bool(declaring) and (scope in declaring or self._binding_scope(name, scope) is None)

    def _global_core_count(self, name: str, hops: int) -> CoreCount | None:
        """The core count a module-level name holds that functions rebind (vllm-ascend's
        `_NUM_AICORE = -1`, set by `init_device_properties_triton()` under `global _NUM_AICORE`
        to `device_properties.get("num_aicore", -1)` and returned by `get_aicore_num()`): every
        value the module and the functions declaring it global assign, but for a placeholder
        (`None`, `0`, `-1`), holds a count, all of one kind. None when one holds anything else (a
        literal, the other count) or something binds it other than an assignment (`for`, an
        import), and for a value reading the name again (`n = n or query()`) while it is read."""
        if name in self._globals_read or not self._assigned_only(name, None, rebound=True):
            return None
        self._globals_read.add(name)
        try:
            counts: list[CoreCount | None] = [
                self.core_count(value, owner, hops + 1)
                for owner in (None, *dict.fromkeys(self.globals_declared[name]))
                for value in self.bindings.get((name, owner), ())
                if not _is_placeholder(value)
            ]
        finally:
            self._globals_read.discard(name)
        kinds = {count.kind if count is not None else None for count in counts}
        return counts[0] if len(kinds) == 1 and None not in kinds else None

    def _imported_core_count(
        self, reference: cst.Name | cst.Attribute, node: cst.BaseExpression, scope: Scope
    ) -> CoreCount | None:
        """The core count of a name (`NUM_CORES`, `utils.NUM_CORES`) or function
        (`get_num_cores`, called at `node`, or an element of the tuple it returns: `node` is
        `counts()[0]`) another module of the package defines at module level, as that module
        works it out from its own functions and names (one hop: not through its imports);
        pointed at `node` (at the call, for an element). None when `scope` binds the name's
        head; a module whose text holds no word of a count (`CORE_COUNT_WORDS`) is not parsed."""
        found = self.imported_definition(reference, scope, CORE_COUNT_WORDS)
        if found is None:
            return self._unread_core_count(reference, node, scope)
        host, _, name = found
        # the other module's hops are its own: it imports no further
        if isinstance(node, cst.Call):
            count = host._returned_core_count(name, node, 0) if name in host.functions else None
        elif isinstance(node, cst.Subscript):
            index, key = returned_index(node), subscript_key(node)
            functions = host._visible_functions(name, None)
            one = functions[0] if index is not None and len(functions) == 1 else None
            elements = host._elements_returned(one, index) if one is not None and index is not None else []
            counts = (host.core_count(element, function) for element, function in elements if element is not None)
            count = next(filter(None, counts), None) if key is None else host._keyed_core_count(name, key, 0)
            node = node.value  # `_unpacked` made the subscript
        else:
            values = host.values_of(name, None)
            count = next(filter(None, (host.core_count(value, None) for value in values)), None)
        return None if count is None else CoreCount(count.kind, node)

    def _unread_core_count(
        self, reference: cst.Name | cst.Attribute, node: cst.BaseExpression, scope: Scope
    ) -> CoreCount | None:
        """The count a call of a known core-count helper returns (`_UNREAD_CORE_COUNTS`:
        `get_aicore_num()`), told by its name when the module imports it, or the module holding
        it, from a package no file on disk holds (vllm-ascend's `triton_utils` in a project
        using it): its body cannot be read. None for any other call, and when `scope` binds the
        name's head."""
        dotted = dotted_name(reference)
        if not isinstance(node, cst.Call) or dotted is None or self.imported is None:
            return None
        head, imports = dotted.split(".")[0], self.imported.imports
        origin = imports.imported_from.get(head)
        name = origin[1] if origin is not None and head == dotted else dotted.rsplit(".", 1)[-1]  # `as` aside
        kind = _UNREAD_CORE_COUNTS.get(name)
        if (
            kind is None
            or not self._is_free(head, scope)
            or (origin is None and head not in imports.imported_modules)
            or self.imported.module_file(dotted) is not None
        ):
            return None
        return CoreCount(kind, node)

    def imported_definition(
        self, reference: cst.BaseExpression, scope: Scope, words: tuple[str, ...]
    ) -> tuple[HostIndex, ImportMap, str] | None:
        """The host facts and Triton names of the module of the package a name (`CONFIGS`,
        `utils.NUM_CORES`) comes from, and its name there (`ImportedFunctions.definition`). None
        when `scope` binds the name's head, or the module holds none of `words` (it is not parsed)."""
        dotted = dotted_name(reference)
        if self.imported is None or dotted is None or not self._is_free(dotted.split(".")[0], scope):
            return None
        found = self.imported.definition(dotted)
        if found is None or not found[0].words.satisfies((words,)):
            return None
        module, name = found
        host = _imported_host(module)
        return None if host is None or module.tree is None else (host, module.tree[1], name)

    def names_behind(
        self,
        node: cst.CSTNode,
        scope: Scope,
        beside_extents: bool = False,
        growing: bool = False,
        chained: bool = False,
    ) -> frozenset[str]:
        """The names `node` reads, and those read by the values bound to them in `scope`; with
        `chained`, also those the values bound to these read, in turn, up to `ORIGIN_HOPS` names
        away (`start` behind `total` with `total = rows * H`, `rows = bn * M`, `bn = min(64, N -
        start)`); with `growing`, but for those a value reads only where they make it smaller
        (`names_read_shrinking`: an upper bound of `K` with `K = x.numel() // M // N` is none of
        `M`); with `beside_extents`, but for the tensors read only in extents of known position
        (`names_beside_extents`). Read once per node and flags, and the values of a name once per
        name (`_values_read`): each launch reads the tests before it, and a name rebound before
        every launch (`grid = (...)`) is read by each."""
        key = ("behind", node, scope, beside_extents, growing, chained)
        found = self._names_read.get(key)
        if found is not None:
            return found
        behind = set(self.names_beside_extents(node, scope) if beside_extents else names_read(node))
        names = names_read(node)
        for _ in range(ORIGIN_HOPS if chained else 1):
            reached = set().union(*(self._values_read(name, scope, beside_extents, growing) for name in names))
            names = reached - behind
            behind |= reached
        found = self._names_read[key] = frozenset(behind)
        return found

    def _values_read(self, name: str, scope: Scope, beside_extents: bool, growing: bool) -> frozenset[str]:
        """The names the values bound to `name` (`values_of`) read, as `names_behind` reads them."""
        key = ("values", name, scope, beside_extents, growing)
        found = self._names_read.get(key)
        if found is None:
            reached: set[str] = set()
            for value in self.values_of(name, scope):
                read = self.names_beside_extents(value, scope) if beside_extents else names_read(value)
                reached |= read - (names_read_shrinking(value) if growing else set())
            found = self._names_read[key] = frozenset(reached)
        return found

    def names_beside_extents(self, node: cst.CSTNode, scope: Scope) -> frozenset[str]:
        """The names `node` reads but for tensors read only in extents of known position (`x`
        of `x.shape[0] > 128`, `shape` of `shape[1]` with `shape = x.shape`): that extent, not
        the tensor, is what it reads, also when the function rebinds the tensor's name (its
        extents then have no `extent_position`: they read nothing another name is bound to)."""
        key = ("beside", node, scope)
        found = self._names_read.get(key)
        if found is None:
            positioned = (sub for sub in walk(node) if isinstance(sub, cst.BaseExpression) and is_positioned(sub))
            owners = {id(sub) for extent in positioned if self._written_extent(extent, scope) for sub in walk(extent)}
            found = self._names_read[key] = frozenset(names_read(node, skipped=owners))
        return found

    def extents_read(
        self, node: cst.CSTNode, scope: Scope, behind: bool = False, growing: bool = False
    ) -> frozenset[tuple[str, int]]:
        """The extents of known position (`extent_position`) `node` reads, written or through
        names (`m` of `m, k = x.shape`); with `behind`, also those the values bound to the names
        it reads read (`cdiv(m, block_m)` of `num_blocks_m`); with `growing` too, but for the
        names such a value reads only where they make it smaller (`names_read_shrinking`). Read
        once per node and flags."""
        key = (node, scope, behind, growing)
        found = self._extents_read.get(key)
        if found is None:
            found = self._extents_in(node, scope, set())
            if behind:
                found = found.union(*(self._values_extents(name, scope, growing) for name in names_read(node)))
            self._extents_read[key] = found
        return found

    def _values_extents(self, name: str, scope: Scope, growing: bool) -> frozenset[tuple[str, int]]:
        """The extents the values bound to `name` read, as `extents_read` reads them, once per name."""
        key = ("values", name, scope, growing)
        found = self._extents_read.get(key)
        if found is None:
            found = frozenset().union(
                *(
                    self._extents_in(value, scope, names_read_shrinking(value) if growing else set())
                    for value in self.values_of(name, scope)
                )
            )
            self._extents_read[key] = found
        return found

    def _extents_in(self, source: cst.CSTNode, scope: Scope, shrinking: set[str]) -> frozenset[tuple[str, int]]:
        """The extents of known position `source` reads, through names (but for `shrinking`) and
        written (`x.shape[0]`)."""
        candidates: list[cst.BaseExpression] = [name for name in variables_read(source) if name.value not in shrinking]
        candidates += [sub for sub in walk(source) if isinstance(sub, cst.BaseExpression) and is_positioned(sub)]
        return frozenset(
            each
            for sub in candidates
            if (position := self.extent_position(sub, scope)) is not None
            for each in (position, *(self._broadcast_positions(sub, scope) or ()))
        )

    def _broadcast_positions(self, value: cst.BaseExpression, scope: Scope) -> list[tuple[str, int]] | None:
        """The extents of known position an item of shapes broadcast (`s[0]` of `s =
        torch.broadcast_shapes(a.shape, b.shape)`, `extent_position`) may be the largest of
        (`broadcast_alignments`: `a.shape[0]` and `b.shape[0]`); None for another value, or when
        one of them has no known position. A name is read at its one value (`B, T =
        torch.broadcast_shapes(...)`)."""
        if isinstance(value, cst.Name):
            where = self._binding_scope(value.value, scope)
            bound = self.bindings.get((value.value, where), [])
            if len(bound) != 1 or self.extent_position(value, scope) is None:
                return None
            value, scope = bound[0], where
        written = self._written_extent(value, scope)
        if written is None or not isinstance(written[0], cst.Call):
            return None
        positions = [self.extent_position(item, scope) for item in broadcast_alignments(written[0], written[1])]
        return [position for position in positions if position is not None] if None not in positions else None

    def grid_extents(
        self, grid: Grid, launch: Launch, bounded: BoundedSizes = BoundedSizes()
    ) -> list[tuple[str, ...] | None]:
        """`axis_extents` of a grid of the launch, from the values that reach where the grid is
        evaluated: where a tuple bound to a name is written (`grid = (batch, cdiv(dim, 256))`,
        launched by a closure that may run later), else at the launch (a stored launcher's at its
        `kernel[grid]`). An assignment (or update in place) written after that point does not
        reach it (`WrittenOrder.assignments_after`): not `batch, _ = record` written after the launch, on
        the path of a cache hit. A budget axis cancels the sizes it divides by
        (`_budgets_cancelled`). What a test before the launch bounds (`bounded`: `K` of `if K >
        256: raise`) is bounded there, and so is what is made of it only (`triton.cdiv(K, BK)`);
        an axis unknown without that stays unknown: a bounded divisor makes no size of a quotient
        (`N // group_size` after `if group_size > 4096: raise`, with `group_size = N`)."""
        written = grid.written
        if isinstance(written, cst.BaseExpression) and written in self.binders:
            point, function = written, self._scope_of(written, launch.scope)
        else:
            point, function = launch.launcher, launch.scope
        after = frozenset() if function is None else self.written_order(function).assignments_after(point)
        self._unreached_ids = after | grid.unreached
        try:
            extents = self._budgets_cancelled(grid.axes, self.axis_extents(grid.axes, grid.scope), grid.scope)
            if not bounded:
                return extents
            self._bounded = bounded
            within = self._budgets_cancelled(grid.axes, self.axis_extents(grid.axes, grid.scope), grid.scope)
        finally:
            self._unreached_ids, self._bounded = frozenset(), BoundedSizes()
        return [None if extent is None else inside for extent, inside in zip(extents, within, strict=True)]

    def extent_within(self, value: cst.BaseExpression, scope: Scope, bounded: BoundedSizes) -> tuple[str, ...] | None:
        """`axis_extents` of one value where a test bounds `bounded` (as `grid_extents` reads
        them): `()` for `spatial_dim` after `if spatial_dim >= 65536: raise`."""
        outer, self._bounded = self._bounded, bounded
        try:
            return self._extent(value, scope, 0)
        finally:
            self._bounded = outer

    def bounded_at(
        self, bounded: BoundedSizes, since: cst.CSTNode | None, point: cst.CSTNode, scope: Scope
    ) -> BoundedSizes:
        """What a test at `since` bounds (`bounded`; at the entry of the function `scope` when
        None: its callers' tests of its parameters) that still holds at `point`, later in
        `scope`. A name keeps its bound when the one binding reaching `point`
        (`binding_reaching`) reaches `since` too, only `shrinks` it (`n -= pad`) or is a value
        the test leaves bounded (`n = 2 * n`, `n += 1`, `n = int(n)`; not `n = n * M`; how far
        each reaches: `bound_since`). With no such binding (`n, B = n * M, B`,
        a rebinding under `if`, `for n in sizes:`, `with ctx() as n:`), it keeps it only when no
        code between the two may rebind the name but to a value that only shrinks it (`n //= 2`,
        `n = min(n, m)`: `WrittenOrder.names_rebound_between` with `growing`; with a loop
        around either, none written from `since` on). A name bound between the two, in
        straight-line code, to a value bounded where it is written is bounded (`m = n` before `n
        = n * M`)."""
        if scope is None or not bounded.names:
            return bounded
        order = self.written_order(scope)
        start = scope.body if since is None else since
        rebound = order.names_rebound_between(start, point, growing=True)
        if rebound is None:
            rebound = order.names_rebound_from(start, growing=True) or set()

        def holds(name: str) -> bool:
            reaching = binding_reaching(name, point, order)
            if reaching is None:
                return name not in rebound
            if since is not None and reaching is tested_binding(name, since, order):
                return True
            return shrinks(reaching, name) or self.extent_within(reaching, scope, bounded) == ()

        names = {name for name in bounded.names if holds(name)}
        if len(names) == len(bounded.names):
            return bounded
        dropped = bounded.names - names
        for name in (order.names_rebound_between(start, point) or set()) - bounded.names:
            value = binding_reaching(name, point, order)  # written between the two
            if value is None or not names_read(value) & dropped:
                continue
            if self.extent_within(value, scope, self.bounded_at(bounded, since, value, scope)) == ():
                names.add(name)
        return BoundedSizes(frozenset(names), bounded.extents)

    def bound_since(
        self, guarded: tuple[cst.BaseExpression, int], since: cst.CSTNode, point: cst.CSTNode, scope: Scope
    ) -> tuple[cst.BaseExpression, int] | None:
        """What a test at `since` holding the name or extent `guarded[0]` at most `guarded[1]`
        says of it at `point`, later in `scope` where `bounded_at` keeps it bounded: the same
        when the binding reaching `point` reaches `since` or is no one binding (an extent is
        never rebound); else through the rebindings made since (`_carried`: `n = n * 64` after
        `if n > 1024: raise` is at most 65536, not 1024); None when no bound of it is known."""
        tested = guarded[0]
        if not isinstance(tested, cst.Name) or scope is None:
            return guarded
        order = self.written_order(scope)
        before = tested_binding(tested.value, since, order)
        reaching = binding_reaching(tested.value, point, order)
        if reaching is None or reaching is before:  # none between, or only what shrinks it (`bounded_at`)
            return guarded
        carried = self._carried((tested, guarded[1]), before, reaching, order, scope)
        return None if carried is None else (tested, carried)

    def _carried(
        self,
        guarded: tuple[cst.Name, int],
        before: cst.BaseExpression | None,
        reaching: cst.BaseExpression,
        order: WrittenOrder,
        scope: Scope,
    ) -> int | None:
        """At most what the binding `reaching` of the name `guarded[0]` holds, that name held at
        most `guarded[1]` where its binding was `before`: through each rebinding since, made of
        the one before it (`n = triton.next_power_of_2(n)` then `n <<= 1`; `n += 1` is `n = n +
        1`), each at most what `at_most` reads of it, in any order (`n -= pad` then `n += 1`: one
        past the test's bound, `n %= 64` then `n *= 1024`: 64512); None when one reads no one
        binding, or has no bound. Each rebinding is read once per test
        (`_carried_bounds`): launches after each of a line of rebindings."""
        name = guarded[0].value
        line: list[cst.BaseExpression] = []  # the rebindings since the test not yet read, the latest first
        value: cst.BaseExpression | None = reaching
        while value is not before and (guarded, before, value) not in self._carried_bounds:
            if value is None:
                return None
            line.append(value)
            binder = self.binders.get(value)
            value = None if binder is None else binding_read_by(name, binder, order)
        bound = guarded[1] if value is before else self._carried_bounds[(guarded, before, value)]
        for each in reversed(line):
            if bound is not None:
                bound = self.at_most(each, scope, guarded=(guarded[0], bound))
            self._carried_bounds[(guarded, before, each)] = bound
        return bound

    def _budgets_cancelled(
        self, axes: tuple[cst.BaseExpression, ...], extents: list[tuple[str, ...] | None], scope: Scope
    ) -> list[tuple[str, ...] | None]:
        """`extents` of the grid `axes` once each budget axis, a bounded count divided by sizes
        (`_budget_divisors`: `min(n, 32768 // (B * H))`), has cancelled those sizes in the other
        axes: `(B * H, min(n, 32768 // (B * H)))` launches at most 32768 programs, so neither
        axis multiplies a size. A size cancels only in an axis that is exactly a product of
        sizes and bounded factors (`2 * B * H`), not one a sum or an extremum is taken for
        (`B * H + T` may be far more than `B * H`); the divisor is such a product too. Sizes the
        budget divides by and the other axes do not multiply only make it smaller."""
        self._exact = True
        try:
            budgets = [self._budget_divisors(axis, scope, 0) for axis in axes]
            if not any(budgets):
                return extents
            products = [self._extent(axis, scope, 0) for axis in axes]
        finally:
            self._exact = False
        divisors = Counter(size for budget in budgets for size in budget or ())
        cancelled: list[tuple[str, ...] | None] = []
        for extent, product in zip(extents, products, strict=True):
            if extent is None or product != extent:
                cancelled.append(extent)
                continue
            kept = []
            for size in extent:
                if divisors[size]:
                    divisors[size] -= 1
                else:
                    kept.append(size)
            cancelled.append(tuple(kept))
        return cancelled

    def _budget_divisors(self, value: cst.BaseExpression, scope: Scope, hops: int) -> tuple[str, ...] | None:
        """The sizes a budget axis divides a bounded count by (`B`, `H` of `32768 // (B * H)`,
        of `32768 // B // H`, of `min(n, 32768 // (B * H))`, of `int(...)` of one, and of a name
        every binding of which is one: those all bind); None when `value` is no such axis. Not
        `max(1, C // E)` nor `triton.cdiv(C, E)`: at least 1, they stay 1 however many programs
        the other axes launch once `E` passes `C`."""
        if hops > ORIGIN_HOPS * 2:
            return None
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.FloorDivide, cst.Divide)):
            divisor = self._extent(value.right, scope, hops) or ()  # unknown: it only shrinks the quotient
            earlier = self._budget_divisors(value.left, scope, hops)
            if earlier is not None:
                return earlier + divisor
            return divisor if self._extent(value.left, scope, hops) == () else None
        callee = dotted_name(value.func) if isinstance(value, cst.Call) else None
        if isinstance(value, cst.Call) and (callee == "min" or (callee == "int" and len(value.args) == 1)):
            budgets = [self._budget_divisors(arg.value, scope, hops) for arg in value.args]
            return max((budget for budget in budgets if budget is not None), key=len, default=None)
        if isinstance(value, cst.Name):
            where = self._binding_scope(value.value, scope)
            key = (value.value, where, hops, self._bounded)
            return self._at_launch(
                self._name_budgets, key, partial(self._bound_budget_divisors, value.value, where, hops)
            )
        return None

    def _bound_budget_divisors(self, name: str, scope: Scope, hops: int) -> tuple[str, ...] | None:
        """`_budget_divisors` of the name `name` `scope` binds: the sizes every binding reaching
        the grid divides by, None when one is no budget. Each binding's is kept across launches
        (`_kept_each`: each of n halvings `n //= 2` reads them all), else read up to the first
        that is none (one of many rebindings, `cores = props[...]`)."""
        bound = self._reaching_bindings(name, scope)
        if not bound:
            return None
        kept = self._binding_budgets.setdefault((name, scope, hops, self._bounded), {})
        divisors = self._kept_each(
            kept, bound, lambda each: self._budget_divisors(each, self._scope_of(each, scope), hops + 1)
        )
        if divisors is None:
            divisors = []
            for each in bound:
                divisors.append(self._budget_divisors(each, self._scope_of(each, scope), hops + 1))
                if divisors[-1] is None:
                    break
        common: Counter[str] | None = None
        for found in dict.fromkeys(divisors):  # each distinct one once: no Python call per binding
            if found is None:
                return None
            common = Counter(found) if common is None else common & Counter(found)
        return tuple(common.elements()) if common is not None else None

    def axis_extents(self, values: tuple[cst.BaseExpression, ...], scope: Scope) -> list[tuple[str, ...] | None]:
        """For each of `values` (a grid's axes), the unbounded runtime sizes it multiplies,
        rendered (`T/BT`; `B`, `H` for `(triton.cdiv(T, BT), B * H)` with `B, T, H = q.shape`);
        `()` when it is bounded; None when it is unknown.

        A size is a tensor extent (`x.shape[i]`, `x.size(i)`, `x.numel()`, `len(x)`, a name
        unpacked from `x.shape`, `x.shape[:2]`, `x.size()` or a name bound to a shape), the
        rows `x.numel() // x.shape[-1]`, a count read back from a tensor's values
        (`int(t.max().item())`, `is_read_back`), or a name the function allocates a tensor with
        whose value is an item of a name the module does not show (`L = problem["total_s"]`,
        `torch.empty(L, L)`: `allocated_dimensions`, `_is_unseen`); `math.prod(x.shape[:d])` is two
        (`shape_product`, also of a name bound once to a shape: `shape = list(x.shape)`);
        multiples, `//`, `triton.cdiv` (`math.ceil(T / BT)`, `-(-T // BT)`) by a bounded value,
        `max`, and `a if c else b` with both arms sizes keep it a size; a sum of sizes is the
        order of its larger term (`summed_sizes`); `min` with a bounded argument caps it. Bounded: int literals, device core counts, `META["BT"]` items, and
        names every origin of which is bounded. `NAME[i]` of a name bound once to a tuple
        literal is its element (`bm, bn = _TILE` with `_TILE = (64, 128)` at module level).
        Anything else (a parameter no caller shows, another call) is unknown, and so is an axis holding it (`min(T, chunk())` may be
        capped). An axis is at least 1 (a zero axis launches nothing), so the known axes'
        sizes multiply to a lower bound on the programs."""
        return [self._extent(value, scope, 0) for value in values]

    def _extent(self, value: cst.BaseExpression, scope: Scope, hops: int) -> tuple[str, ...] | None:
        """`()` bounded (also when a test before the launch bounds it: `_is_bounded`), a tuple
        of size factors, or None unknown. `hops` counts the names followed to their values (the
        parts of an expression cost none: they end)."""
        if hops > ORIGIN_HOPS * 2:
            return None
        if isinstance(value, cst.Integer) or (self._bounded and self._is_bounded(value, scope)):
            return ()
        if self._bounded_length(value, scope):  # `len(items)` of a list filled `range(min(n, 1024))` times
            return ()
        if (
            is_extent(value)
            or is_read_back(value)
            or self._is_named_shape_item(value, scope)
            or self._is_rows(value, scope)
        ):
            return (flat_code(value),)
        entries = self._entry_values(value, scope)
        if entries != [value]:  # `cfg["n"]` of `cfg = {"n": B * T}`: read as a name is
            sized = [self._extent(entry, scope, hops + 1) for entry in entries]
            return sized[0] if len(set(sized)) == 1 else one_extent(flat_code(value), sized)
        if subscript_key(value) is not None:  # `META["BT"]`, `props["num_aicore"]`: a tile or a count
            return ()
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Call):
            return self._returned_extent(value, scope, hops)
        if is_item(value) and isinstance(value.value, cst.Name):
            element = self._tuple_element(value, scope)
            if element is not None:
                return self._extent(element, self._binding_scope(value.value.value, scope), hops + 1)
            held = self._item_of_shape_or_tuple(value, scope, hops)
            if held is not None:
                return held
        if isinstance(value, cst.Name):
            reaching = self._accumulated_reaching(value, scope, hops)
            if reaching is not None:
                extents = {self._extent(each, scope, hops + 1) for each in reaching}
                return extents.pop() if len(extents) == 1 else None
            return self._name_extent(value, scope, hops)
        ceiling = ceiling_division(value)
        if ceiling is not None:  # `triton.cdiv(T, BT)` however it is written
            return self._cdiv_extent(*ceiling, scope, hops)
        rounded = power_of_two_above(value)
        if rounded is not None:  # `triton.next_power_of_2(n)` however it is written: at most twice `n`
            return self._extent(rounded, scope, hops)
        if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
            return self._extent(value.expression, scope, hops)
        if isinstance(value, cst.BinaryOperation):
            left, right = self._extent(value.left, scope, hops), self._extent(value.right, scope, hops)
            if isinstance(value.operator, cst.FloorDivide) and (
                left == () or self.at_least(value.right, value.left, scope)
            ):  # `16384 // x.element_size()`, `D // BLOCK_D` with `BLOCK_D = triton.next_power_of_2(D)`
                return ()
            if isinstance(value.operator, (cst.FloorDivide, cst.Divide)) and left and right != ():
                return self._quotient_by_alternatives(value.left, value.right, left, scope, hops)
            if left is None or right is None:
                return self._times_a_count(value, left, right, scope, hops)
            if left == () and right == ():  # `1 << 17`, `2**k`, `a % b` of bounded values
                return ()
            if isinstance(value.operator, (cst.FloorDivide, cst.Divide)):
                return divided_sizes(left, value.right)
            if isinstance(value.operator, cst.Multiply):
                return left + right
            if isinstance(value.operator, (cst.Add, cst.Subtract)):
                summed = summed_sizes(left, right, value)
                return None if self._exact and left and right and len(summed) > 1 else summed
            return None
        if isinstance(value, cst.Call):
            return self._call_extent(value, scope, hops)
        if isinstance(value, cst.IfExp):
            return self._either_extent(value.test, (value.body, value.orelse), value, scope, hops)
        if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):  # `n or 1`: `n if n else 1`
            return self._either_extent(value.left, (value.left, value.right), value, scope, hops)
        if self.core_count(value, scope) is not None:
            return ()
        return None

    def _item_of_shape_or_tuple(self, item: cst.Subscript, scope: Scope, hops: int) -> tuple[str, ...] | None:
        """`s[i]` (a literal `i`) of a name its function binds several times, each binding that
        may reach the item to a shape or a tuple literal (`if flag: s = x.shape` / `else: s =
        (2, 4)`, then `B, T = s`): an extent of the one, the element of the other, sized as a
        name bound to them is (`one_extent`); the one binding reaching it when straight-line code
        says which (`binding_reaching`: `s = (1, 1)` after the `if`), else those not written
        after the grid being sized (`_reaching_bindings`: `s = x.shape` after the launch does not
        count). None for another item or name."""
        position = returned_index(item)
        name = cst.ensure_type(item.value, cst.Name)
        binding, bound = self._values_bound(name.value, scope, module_level=False)
        if position is None or len(bound) < 2 or not isinstance(binding, cst.FunctionDef):
            return None
        reaching = binding_reaching(name.value, item, self.written_order(binding)) if binding is scope else None
        if reaching is not None:
            bound = [reaching]
        else:
            kept = set(map(id, self._reaching_bindings(name.value, binding)))
            bound = [each for each in bound if id(each) in kept]
        if not bound or not all(is_shape(each) or isinstance(each, cst.Tuple) for each in bound):
            return None
        extents: list[tuple[str, ...] | None] = []
        for each in bound:
            element = tuple_element(each, position) if isinstance(each, cst.Tuple) else None
            if isinstance(each, cst.Tuple) and element is None:
                return None
            extents.append((flat_code(item),) if element is None else self._extent(element, binding, hops + 1))
        return one_extent(flat_code(item), extents)

    def _times_a_count(
        self,
        value: cst.BinaryOperation,
        left: tuple[str, ...] | None,
        right: tuple[str, ...] | None,
        scope: Scope,
        hops: int,
    ) -> tuple[str, ...] | None:
        """A product of sizes and a factor it cannot size that is at least 1 whenever it is not 0
        (`_is_a_count`: `n_images * triton.cdiv(H, rows_per_block)`): at least the sizes, or no
        program at all, so the sizes; unknown otherwise, and when sizing a product exactly
        (`_exact`: the factor may be large)."""
        if self._exact or not isinstance(value.operator, cst.Multiply):
            return None
        if left is None and right and self._is_a_count(value.left, scope, hops):
            return right
        if right is None and left and self._is_a_count(value.right, scope, hops):
            return left
        return None

    def _is_a_count(self, value: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        """`value` is a whole number at least 1, or 0 (a factor launching nothing): a division
        rounding up (`ceiling_division`) of a count it can size (`triton.cdiv(H, rows)`, whatever
        `rows`), the power of two above anything, `max` with an int literal of 1 or more, `int(...)`
        of one, or a name every binding of which in its function is one (not a parameter)."""
        if hops > ORIGIN_HOPS * 2:
            return False
        value = without_int_conversion(value)
        ceiling = ceiling_division(value)
        if ceiling is not None:
            return self._extent(ceiling[0], scope, hops + 1) is not None
        if power_of_two_above(value) is not None:
            return True
        if isinstance(value, cst.Call) and dotted_name(value.func) == "max":
            return any((int_literal(arg.value) or 0) >= 1 for arg in value.args if not arg.star)
        if isinstance(value, cst.Name):
            owner, bound = self._values_bound(value.value, scope, module_level=False)
            return bool(bound) and all(self._is_a_count(each, self._scope_of(each, owner), hops + 1) for each in bound)
        return False

    def _bounded_length(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """`len(items)` of a list (or tuple) its function binds once, to a literal, and changes only by
        additions of a known count of items (`list_addition`: `.append(v)`, `.insert(i, v)`,
        `.extend((a, b))`), each in no loop but `for` loops of bounded trips around it
        (`_bounded_trips`: `range(min(n, 1024))`, written items), and no other function reads:
        at most a bounded count whatever the sizes and the tests before the launch. Read once
        per list."""
        if not (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Name)
            and value.func.value == "len"
            and len(value.args) == 1
            and isinstance(listed := value.args[0].value, cst.Name)
            and not (value.args[0].star or value.args[0].keyword)
        ):
            return False
        owner = self._binding_scope(listed.value, scope)
        key = (listed.value, owner)
        found = self._bounded_lengths.get(key)
        if found is None and isinstance(owner, cst.FunctionDef):
            self._bounded_lengths[key] = False  # while it is read (`for _ in range(len(items)):`)
            # whatever the launch being sized: no test before it bounds a loop's trips here
            outer, self._unreached_ids, self._bounded = (
                (self._unreached_ids, self._bounded),
                frozenset(),
                BoundedSizes(),
            )
            try:
                found = self._bounded_lengths[key] = self._fills_boundedly(listed.value, owner)
            finally:
                self._unreached_ids, self._bounded = outer
        return bool(found)

    def _fills_boundedly(self, name: str, owner: cst.FunctionDef) -> bool:
        """`_bounded_length` of the list `name` its function `owner` binds."""
        bound = self.bindings.get((name, owner), [])
        if (
            len(bound) != 1
            or not isinstance(bound[0], cst.List | cst.Tuple)
            or any(isinstance(element, cst.StarredElement) for element in bound[0].elements)
            or param_named(owner, name) is not None
            or not self._assigned_only(name, owner)
            or self._escaping_uses(name, owner, in_place=True)
        ):
            return False
        order = self.written_order(owner)
        binding_holders = set(order.holders(bound[0]))
        for use in self.name_uses.get(name, ()):
            if use.owner is not owner:
                continue
            holders = order.holders(use.name)
            if any(isinstance(holder, cst.FunctionDef | cst.Lambda) for holder in holders):
                return False  # a nested function: it may add whenever it is called
            if not _appends(use):
                continue
            statement = use.around[2]
            added = list_addition(statement, name)
            if added is None or any(isinstance(element, cst.StarredElement) for element in added.elements):
                return False  # `.extend(others)`: as many as another sequence holds
            if added.stored:
                continue  # `items[0] = v` keeps its length
            for holder in holders:
                if holder in binding_holders:  # a loop around the binding too starts the list anew
                    break
                if isinstance(holder, cst.While) or (
                    isinstance(holder, cst.For) and not self._bounded_trips(holder, owner)
                ):
                    return False
        return True

    def _bounded_trips(self, loop: cst.For, scope: Scope) -> bool:
        """The `for` loop runs a bounded count of trips whatever the sizes: over items written
        out (`for t in (a, b):`), or a `range` of bounded arguments (`range(min(n, 1024))`)."""
        items = loop.iter
        if isinstance(items, cst.List | cst.Tuple | cst.Set):
            return not any(isinstance(element, cst.StarredElement) for element in items.elements)
        return (
            isinstance(items, cst.Call)
            and dotted_name(items.func) == "range"
            and 1 <= len(items.args) <= 3
            and all(not (arg.star or arg.keyword) and self._extent(arg.value, scope, 0) == () for arg in items.args)
        )

    def _quotient_by_alternatives(
        self, size: cst.BaseExpression, divisor: cst.BaseExpression, sizes: tuple[str, ...], scope: Scope, hops: int
    ) -> tuple[str, ...] | None:
        """A size (`sizes`, its factors) divided by a name (`T / BLOCK`, `triton.cdiv(T, BLOCK)`)
        the function binds first to a bounded value and then, under tests, only to values at
        least the size (`BLOCK = 1024`, then `if T <= 4096: BLOCK = triton.next_power_of_2(T)`):
        the size over the name (`T / 1024` grows; the other paths launch one program). Bounded
        when every value is at least the size; unknown otherwise (a bounded value under a test
        may be one the test sizes: `if T < 16: BLOCK = 16`). Likewise a choice between such values
        (`rows = 8 if n > 8 else triton.next_power_of_2(n)`, written or bound once): the size
        over it when an arm is bounded and the others at least the size."""
        alternatives = self._path_values(divisor.value, scope) if isinstance(divisor, cst.Name) else []
        if not alternatives:
            arms = self._choice_arms(divisor, scope)
            growing = [arm for arm in arms if not self.at_least(arm, size, scope)]
            if len(growing) == len(arms):  # no choice, or no arm at least the size: no bound to divide by
                return None
            return (
                divided_sizes(sizes, divisor)
                if all(self._extent(arm, scope, hops + 1) == () for arm in growing)
                else None
            )
        if not all(self.at_least(each, size, scope) for each in alternatives[1:]):
            return None
        if self.at_least(alternatives[0], size, scope):
            return ()
        return divided_sizes(sizes, divisor) if self._extent(alternatives[0], scope, hops + 1) == () else None

    def _choice_arms(self, value: cst.BaseExpression, scope: Scope) -> list[cst.BaseExpression]:
        """The arms of a conditional expression (nested ones' too), written or the one value a
        local name is bound to; none for anything else."""
        if isinstance(value, cst.Name) and scope is not None and param_named(scope, value.value) is None:
            bound = self.bindings.get((value.value, scope), [])
            value = bound[0] if len(bound) == 1 else value
        return choices([value]) if isinstance(value, cst.IfExp) else []

    def _path_values(self, name: str, scope: Scope) -> list[cst.BaseExpression]:
        """The values `scope` binds `name` to when it binds it first outside any `if` or loop and
        then only inside them, never reading it (each may reach a read after them); empty
        otherwise."""
        bound = self._reaching_bindings(name, scope)
        if len(bound) < 2 or self.bound_under.get(bound[0]) or any(updates_name(each, name) for each in bound):
            return []
        return bound if all(self.bound_under.get(each) for each in bound[1:]) else []

    def _is_bounded(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """`value` is among the names or extents of known position a test before the launch
        bounds (`_bounded`), an item of shapes broadcast whose every alignment it bounds
        (`_broadcast_positions`), or an extent, a count or the rows of tensors it bounds whole
        (`x.shape[0]` after `if x.numel() > 4096: raise`)."""
        bounded = self._bounded
        if isinstance(value, cst.Name) and value.value in bounded.names:
            return True
        if isinstance(value, (cst.Name, cst.Subscript, cst.Call)) and (
            self.extent_position(value, scope) in bounded.extents
            or (
                (aligned := self._broadcast_positions(value, scope)) is not None and bounded.extents.issuperset(aligned)
            )
        ):
            return True
        tensors = names_read(value)
        return (
            bool(tensors)
            and tensors <= bounded.names
            and (
                is_extent(value)
                or is_read_back(value)
                or self._is_rows(value, scope)
                or self._entry_values(value, scope) != [value]  # `cfg["n"]` after `if cfg["n"] > 4096: raise`
            )
        )

    def _accumulated_reaching(self, name: cst.Name, scope: Scope, hops: int) -> list[cst.BaseExpression] | None:
        """The values that reach `name`, read where it is, of a name its function updates in a
        `for` loop (`n *= d`), when straight-line code says which: the one binding reaching it
        not reading the name (`binding_reaching`: `n = 4` after `for d in shape: n *= d`), or
        those a loop before it leaves (`loop_leaves`) when the last binding of its body reads it
        only to cap it (`n = min(n, 100)`: `_caps`), or not at all. None otherwise: every
        binding counts (`_name_extent`)."""
        if not isinstance(scope, cst.FunctionDef) or self._binding_scope(name.value, scope) is not scope:
            return None
        key = (name.value, scope)
        in_loops = self._loop_updating_ids.get(key)
        if in_loops is None:
            in_loops = self._loop_updating_ids[key] = frozenset(
                id(value)
                for value in self.bindings.get(key, ())
                if updates_name(value, name.value)
                and any(isinstance(block, cst.For) for block in self.bound_under.get(value, ()))
            )
        # read once per name, looked up per launch with no Python call per binding
        if not in_loops or in_loops.isdisjoint(map(id, self._reaching_bindings(name.value, scope))):
            return None
        order = self.written_order(scope)
        reaching = binding_reaching(name.value, name, order)
        if reaching is not None:
            return None if name.value in names_read(reaching) else [reaching]
        left = loop_leaves(name.value, name, order)
        if left is None or (name.value in names_read(left[-1]) and not self._caps(name.value, left[-1], scope, hops)):
            return None
        return left

    def _name_extent(self, name: cst.Name, scope: Scope, hops: int) -> tuple[str, ...] | None:
        """A name is one size (`NT` for `NT = triton.cdiv(T, BT)`), or the sizes of its value
        when that multiplies several and every origin is that same product (`M = B * T`). A
        name a nested function reads from a function around it (a `def grid(meta):` closure)
        is looked up there. An update reading the name (`n = min(n, m)`, `n = n + pad`) reads
        its earlier values there; one that bounds it (`n = min(n, 1024)`) may cap it. Worked
        out once for each name, hop count and names being updated: a function rebinding its
        names in conditionals (`n = 4 if n > 4 else n`) reaches each through many paths. An
        updated name read in the updates of two others, one read in the other's (`c` for
        `a *= b` and `b *= c`, with `c *= 2`), is unknown: names updating one another (`a *= b`,
        `b *= a`, and so on for a dozen) would be worked out once for each order they can be
        read in."""
        scope = self._binding_scope(name.value, scope)
        key = (name.value, scope)
        if key in self._updated:
            return self._updated[key]
        if key in self._sizing:  # read in a value of its own (`bs = b * s`, with `s = bs` in another arm)
            return None
        if len(self._updated) >= _MAX_UPDATES_SIZED and any(
            updates_name(value, name.value) for value in self.bindings.get(key, ())
        ):
            return None
        memo = (
            name.value,
            scope,
            hops,
            tuple(self._updated.items()),
            self._unreached,
            self._sizing,
            self._exact,
            self._bounded,
        )
        if memo not in self._name_extents:
            outer, self._sizing = self._sizing, self._sizing | {key}
            try:
                self._name_extents[memo] = self._bound_extent(name, scope, hops)
            finally:
                self._sizing = outer
        return self._name_extents[memo]

    def _bound_extent(self, name: cst.Name, scope: Scope, hops: int) -> tuple[str, ...] | None:
        """`_name_extent` of a name `scope` binds, not being updated. What a test bounds
        (`_bounded`) does not reach a name a `for` or `with` may rebind through its assigned
        values (`B, n = x.shape`, `if x.shape[1] > 1024: raise`, then `for n, _ in pairs:`): the
        test read none of the values it may hold there."""
        if self._bounded and not self._assigned_only(name.value, scope):
            outer, self._bounded = self._bounded, BoundedSizes()
            try:
                return self._bound_extent(name, scope, hops)
            finally:
                self._bounded = outer
        key = (name.value, scope)
        bound = self._reaching_bindings(name.value, scope)
        updating = self._updating_ids.get(key)
        if updating is None:
            updating = self._updating_ids[key] = frozenset(
                id(value) for value in self.bindings.get(key, ()) if updates_name(value, name.value)
            )
        updates = [value for value in bound if id(value) in updating]
        update_ids = {id(update) for update in updates}
        if updates and bound[-1] is updates[-1] and self._caps_last(name.value, bound[-1], scope, hops):
            return ()
        found = [origin for origin in self._origins_sized(name, scope) if origin is not name]
        found += self._passed_in_sized(name.value, scope)
        cyclic = self._through_names_being_sized(found, update_ids, scope)
        origins = [origin for origin in found if id(origin) not in cyclic]
        if not origins or self.core_count(name, scope) is not None:
            return () if origins else None
        kept = [origin for origin in origins if id(origin) not in update_ids]
        extents = [self._extent(origin, self._scope_of(origin, scope), hops + 1) for origin in kept]
        if key in self.allocated_dimensions:  # what the module cannot see is an extent of the tensor
            judged = {id(origin) for origin in kept}
            extents = [
                (name.value,) if self._is_unseen(origin, extent, self._scope_of(origin, scope), judged) else extent
                for origin, extent in zip(kept, extents, strict=True)
            ]
        arms = [
            extent
            for origin, extent in zip(kept, extents, strict=True)
            if extent is not None and self._bound_in_a_variant(origin, self._scope_of(origin, scope))
        ]
        if updates:
            earlier = one_extent(name.value, extents, arms) if extents else None
            if earlier is None:
                return None
            self._updated[key] = earlier
            try:
                updated = self._updates_sized(updates, scope, hops)
            finally:
                del self._updated[key]
            if None in updated or (earlier and () in updated):  # unknown, or capped
                return None
            extents += updated
        return one_extent(name.value, extents, () if self._exact else arms)

    def _updates_sized(
        self, updates: list[cst.BaseExpression], scope: Scope, hops: int
    ) -> list[tuple[str, ...] | None]:
        """`_extent` of each of the `updates` of a name being sized (`_updated`), each kept
        across launches (`_kept_each`)."""
        context = (  # `_name_extent`'s key but for what reaches the grid, and the functions being read
            scope,
            hops,
            tuple(self._updated.items()),
            self._sizing,
            self._exact,
            self._bounded,
            frozenset(self._reading_returns),
            frozenset(self._positions_returned),
        )
        sized = self._sized_updates.setdefault(context, {})
        kept = self._kept_each(sized, updates, lambda update: self._extent(update, scope, hops + 1))
        return [self._extent(update, scope, hops + 1) for update in updates] if kept is None else kept

    def _caps_last(self, name: str, update: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        """`update`, the last value `scope` binds `name` to, is bound under no `if` or loop (every
        path runs it, after the other bindings) and caps it (`_caps`), the value every read
        after it sees."""
        return not self.bound_under.get(update) and self._caps(name, update, scope, hops)

    def _caps(self, name: str, update: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        """`update` is a `min` with a bounded argument not read from `name` (`n = min(n, 4096)`,
        also of a clamp: `if n > 4096: n = 4096`): bounded whatever the name's earlier value."""
        return (
            isinstance(update, cst.Call)
            and dotted_name(update.func) == "min"
            and any(
                name not in names_read(arg.value) and self._extent(arg.value, scope, hops + 1) == ()
                for arg in update.args
            )
        )

    @cached_property
    def allocated_dimensions(self) -> frozenset[tuple[str, Scope]]:
        """The names a function passes as a dimension of a tensor it allocates
        (`torch.empty(L, L)`, `torch.zeros((B, L))`, `x.new_empty(size=(n, d))`, `torch.full((n,),
        0)`: `allocation_dimensions`), each with the function binding it (`_binding_scope`): an
        extent of that tensor, so of the data, when its value is one the module does not show
        (`_is_unseen`)."""
        return frozenset(
            (dimension.value, self._binding_scope(dimension.value, scope))
            for call, scope in self.calls
            if scope is not None
            for dimension in allocation_dimensions(call)
        )

    def _is_unseen(
        self, origin: cst.BaseExpression, extent: tuple[str, ...] | None, scope: Scope, judged: AbstractSet[int]
    ) -> bool:
        """`origin` is an item of a name or attribute the module does not show, in `int(...)` or
        not: string-keyed, which it otherwise takes for a setting or a tile (`problem["total_s"]`;
        a core count, `props["num_aicore"]`, has bounded the name before), or one it cannot size
        (`output_size[0]` of a parameter); or a name (a caller's) it cannot size whose own
        origins are all among those `judged`, so judged in its place. Not a parameter no caller
        shows nor an attribute (`pool.head_dim`): on the corpora, a model's head count, head size
        or group count as often as a length. Nor a call or arithmetic (`min(T, cap())`, `T //
        split()` may be capped), nor an item of a literal or a call's result."""
        while isinstance(origin, cst.Call) and dotted_name(origin.func) == "int" and len(origin.args) == 1:
            origin = origin.args[0].value
        if isinstance(origin, cst.Subscript):
            contained = is_item(origin) and isinstance(origin.value, (cst.Name, cst.Attribute))
            return contained and (extent is None or subscript_key(origin) is not None)
        if extent is not None or not isinstance(origin, cst.Name):
            return False
        reached = [found for found, _ in self.origins(origin, scope, annotations=False) if found is not origin]
        return bool(reached) and all(id(found) in judged for found in reached)

    def _origins_sized(self, value: cst.BaseExpression, scope: Scope) -> list[cst.BaseExpression]:
        """`origins` of a value being sized, annotations aside (`group: int = 48` is its
        default), worked out once for each value: a function of the module alone, asked again
        for each launch, and, where several functions share a name that calls itself, reached
        through many paths. Those of a name's read are worked out once for every read the same
        bindings reach (`a, b = b, a * 2` before each launch: each `b` bound to `a`), from those
        of each binding, kept across launches (`_reaching_origins`)."""
        if isinstance(value, cst.Name):  # the same for each read of the name the same bindings reach
            bound = self._reaching_bindings(value.value, scope)
            sole = self._sole_binding(value, scope, bound)
            name_key = (value.value, scope, sole, self._unreached)
            if name_key not in self._sizing_origins:
                found = self._reaching_origins(value.value, scope, bound) if sole is None and bound else None
                if found is None:
                    reached = self._name_origins(value, scope, 0, False, set())
                    found = {id(origin): origin for origin, _ in reached}
                self._sizing_origins[name_key] = list(found.values())
            return [value] + [origin for origin in self._sizing_origins[name_key] if origin is not value]
        key = (value, scope, self._unreached)
        if key not in self._sizing_origins:
            found = {id(origin): origin for origin, _ in self.origins(value, scope, annotations=False)}
            self._sizing_origins[key] = list(found.values())  # each once, though reached through many paths
        return self._sizing_origins[key]

    def _reaching_origins(
        self, name: str, scope: Scope, bound: Sequence[cst.BaseExpression]
    ) -> dict[int, cst.BaseExpression] | None:
        """The origins of the values `bound` to `name` that reach the grid being sized, each read
        after the other (`_name_origins`, annotations aside), by id, from those of each value
        alone: worked out once for every launch it reaches (`n = n * 2` before each of n launches
        of `k[(n,)]`), but when they read what reaches the grid (`_unreached`: `b` of `a, b = b, a
        * 2` reads every binding of `a`); then None."""
        if not self._unreached:
            return None
        parts = self._binding_origins.setdefault((name, scope), {})
        found: dict[int, cst.BaseExpression] = {}
        for each in bound:  # no Python call per value already read
            part = parts.get(id(each))
            if part is None:
                origins = self.origins(each, scope, 1, False, {(name, scope, 0)})
                walked: list[tuple[cst.BaseExpression, str]]
                walked, reads = self._read_alone(partial(list, origins))
                part = parts[id(each)] = [origin for origin, _ in walked] if reads == () else []
            if not part:
                return None
            found.update(zip(map(id, part), part, strict=True))
        return found

    def _passed_in_sized(self, name: str, scope: Scope) -> list[cst.BaseExpression]:
        """The origins of what the function `scope` is passed for its parameter `name`,
        annotations aside (`_passed_origins`), when its first binding of it is an update (`n =
        int(n)`, `n = max(n, 1)`, `n = n + pad`: `updates_name`): the earlier value that update reads,
        which `origins` leaves out (a parameter the function rebinds is what it binds). Empty
        otherwise."""
        bound = self._reaching_bindings(name, scope)
        if not bound or not updates_name(bound[0], name):
            return []
        key = (name, scope, self._unreached)
        if key not in self._passed_in:
            found = {id(origin): origin for origin, _ in self._passed_origins(name, scope, 0, False, set())}
            self._passed_in[key] = list(found.values())
        return self._passed_in[key]

    def _through_names_being_sized(
        self, origins: list[cst.BaseExpression], update_ids: set[int], scope: Scope
    ) -> set[int]:
        """The ids of the origins that go round a cycle through names being sized (`bs = b * s`
        in one arm, `b, s = 1, bs` in the other): a name being sized and what is reached through
        it (`bs` and its values among those of `s`, while `bs` is sized), and a value reading one
        (`b * s` among those of `s`, reached through `bs`, while `s` is sized) but for an update of
        the name sized (`n = n + pad`, `updates_name`; `update_ids`). The other origins count what those would add;
        sizing them would go round the cycle until the hops run out (unknown)."""
        found: set[int] = set()
        for origin in origins:
            if id(origin) in update_ids:  # a call or arithmetic (`updates_name`), skipped with no Python call
                continue
            where = self._scope_of(origin, scope)
            if (
                isinstance(origin, cst.Name)
                and (origin.value, self._binding_scope(origin.value, where)) in self._sizing
            ):
                found |= {id(reached) for reached in self._origins_sized(origin, where)}
            elif any((read, self._binding_scope(read, where)) in self._sizing for read in names_read(origin)):
                found.add(id(origin))
        return found

    def _bound_in_a_variant(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """`value` is bound in an arm of an `if` of its function `scope`, and each block around
        it there is an `if` whose test picks a variant (`_picks_variant`): the arm runs whatever
        the sizes (`if x.dim() == 4: b, s, d = x.shape; bs = b * s`)."""
        blocks = self.bound_under.get(value, ())
        return bool(blocks) and all(
            isinstance(block, cst.If) and self._picks_variant(block.test, scope) for block in blocks
        )

    def _picks_variant(self, test: cst.BaseExpression, scope: Scope, counted: str | None = None) -> bool:
        """The test orders nothing and calls nothing that may: no `<`, `<=`, `>`, `>=`, no `min`
        / `max`, no function of the module, in it nor in the values bound to the names it reads
        (`input_dim == 4` with `input_dim = x.dim()`, `if cu is None:`); an arm it picks caps no
        size (`if B * T > cap: n = cap` / `else: n = B * T` does). An ordering of the length of
        the list `counted` against int literals only (`while len(grid) < 2:`) orders how many
        items it adds, not their sizes."""
        sources = [test, *(value for name in names_read(test) for value in self.values_of(name, scope))]
        for node in (sub for source in sources for sub in walk(source)):
            if (
                isinstance(node, cst.Comparison)
                and any(isinstance(c.operator, ORDERINGS) for c in node.comparisons)
                and not _counts_items(node, counted)
            ):
                return False
            if (
                isinstance(node, cst.Call)
                and isinstance(node.func, cst.Name)
                and (node.func.value in ("min", "max") or node.func.value in self.functions)
            ):
                return False
        return True

    def _returned_extent(self, value: cst.Subscript, scope: Scope, hops: int) -> tuple[str, ...] | None:
        """`f(...)[i]` (`n` of `x, n = f(x)`): the extents of the i-th elements of the tuples `f`
        returns, read in `f`, as one name's origins are (`one_extent`); unknown when a return
        is no such tuple or `f` is not a function of the module."""
        extents = [
            self._extent(element, function, hops + 1) if element is not None else None
            for element, function in self._returned_elements(value, scope)
        ]
        return one_extent(flat_code(value), extents) if extents else None

    def _binding_scope(self, name: str, scope: Scope) -> Scope:
        """The function binding `name` (assigning it, as a `for`, `with` or `except` target too,
        or taking it as a parameter) that `scope` reads it from: `scope` itself or the nearest
        function around it; None at module level."""
        while (
            scope is not None
            and (name, scope) not in self.bindings
            and (name, scope) not in self.targets_bound
            and param_named(scope, name) is None
        ):
            scope = self.enclosing.get(scope)
        return scope

    def _cdiv_extent(
        self, size: cst.BaseExpression, block: cst.BaseExpression, scope: Scope, hops: int
    ) -> tuple[str, ...] | None:
        """`triton.cdiv(size, block)` (`ceiling_division`)."""
        if self.at_least(block, size, scope):
            return ()  # one program: a block at least the size it divides
        sizes, blocks = self._extent(size, scope, hops), self._extent(block, scope, hops)
        if sizes == ():  # a bounded count over a positive one
            return ()
        if sizes is not None and blocks == ():
            return divided_sizes(sizes, block)
        if sizes and blocks != ():
            return self._quotient_by_alternatives(size, block, sizes, scope, hops)
        return None

    def _call_extent(self, call: cst.Call, scope: Scope, hops: int) -> tuple[str, ...] | None:
        callee = (dotted_name(call.func) or "").rsplit(".", 1)[-1]
        args = [self._extent(arg.value, scope, hops) for arg in call.args]
        if callee in ("prod", "reduce"):
            product = shape_product(call, lambda name: self._named_extents(name, scope))
            if product is not None:
                return product
        if callee == "min" and any(arg == () for arg in args):
            return ()
        as_int = callee in ("int", "ceil") or dotted_name(call.func) in INT_CONVERSIONS
        if as_int and len(args) == 1:  # `math.ceil(T / BT)`: `triton.cdiv(T, BT)`
            return args[0]
        if callee in ("min", "max") and args and all(arg is not None for arg in args):
            sized = [arg for arg in args if arg]
            if len(sized) < 2:
                return sized[0] if sized else ()
            # a minimum is at most its smallest product, a maximum at least its largest
            chosen = min(sized, key=len) if callee == "min" else max(sized, key=len)
            return (flat_code(call),) if len(chosen) == 1 else None if self._exact else chosen
        if self.core_count(call, scope) is not None:
            return ()
        return self._call_returns_extent(call, scope, hops)

    def _call_returns_extent(self, call: cst.Call, scope: Scope, hops: int) -> tuple[str, ...] | None:
        """For a call of a function of the module: bounded when every return is
        (`_returns_bounded`), else the extent of what it returns for the call's arguments
        (`returned_for`: `_next_pow2(n)` is the size of `n`) when every return gives the same.
        Unknown while a call of the same function is being read (a function calling itself,
        `fib(n - 1) + fib(n - 2)`, would be read again for each call it makes)."""
        name = call.func.value if isinstance(call.func, cst.Name) else None
        if name is None or name in self._reading_returns:
            return None
        self._reading_returns.add(name)
        try:
            if self._returns_bounded(call, hops):
                return ()
            made = {self._extent(value, scope, hops + 1) for value in self.returned_for(call, scope)}
        finally:
            self._reading_returns.discard(name)
        return made.pop() if len(made) == 1 else None

    def _returns_bounded(self, call: cst.Call, hops: int) -> bool:
        """`call` calls a function of the module every `return` of which gives a value bounded
        whatever the sizes, read in that function (`def _pick_block(n): return min(2048,
        triton.next_power_of_2(n))`)."""
        returned = self.returns.get(call.func.value, []) if isinstance(call.func, cst.Name) else []
        return (
            hops < ORIGIN_HOPS
            and bool(returned)
            and all(self._extent(value, function, hops + 1) == () for value, function in returned)
        )

    def known_int(self, value: cst.BaseExpression, scope: Scope, hops: int = 0) -> int | None:
        """The one int `value` holds however the code runs: integer literals and their
        arithmetic, a division rounding up (`ceiling_division`) or the power of two above such
        ints, `min` / `max` / `int(...)` of them, and a name every binding of which holds the same
        one (`N_BLOCKS = 1 << 17` at module level), or so an entry of a dict the function writes
        (`_entry_values`); None for anything else, a parameter too. A name's is read once per hops
        (`_name_ints`): a name rebound many times from itself (`start = start + CH` before every
        launch) reads each binding at each hop."""
        if hops > ORIGIN_HOPS:
            return None
        value = without_int_conversion(value)
        known = partial(self.known_int, scope=scope, hops=hops + 1)
        if isinstance(value, cst.Name):
            key = (value.value, scope, hops)
            if key not in self._name_ints:
                held = {known(each) for each in self._values_bound(value.value, scope)[1]}
                self._name_ints[key] = held.pop() if len(held) == 1 and None not in held else None
            return self._name_ints[key]
        if isinstance(value, cst.Subscript):  # `cfg["n"]` read as a name (`_entry_values`)
            held = {None if each is value else known(each) for each in self._entry_values(value, scope)}
            return held.pop() if len(held) == 1 and None not in held else None
        divided = ceiling_division(value)
        if divided is not None:
            size, block = map(known, divided)
            return -(-size // block) if size is not None and block is not None and block > 0 else None
        rounded = power_of_two_above(value)
        if rounded is not None:
            below = known(rounded)
            return 1 << (below - 1).bit_length() if below is not None and below > 0 else None
        if isinstance(value, cst.Call):
            args = [None if arg.keyword or arg.star else known(arg.value) for arg in value.args]
            callee = dotted_name(value.func)
            if callee not in ("min", "max") or len(args) < 2 or None in args:
                return None
            return (min if callee == "min" else max)(each for each in args if each is not None)
        return folded_int(value, known) if isinstance(value, cst.Integer | cst.BinaryOperation) else None

    def known_truth(self, test: cst.BaseExpression, scope: Scope, hops: int = 0) -> bool | None:
        """The one truth value `test` has however the code runs: a literal's (`False`, `0`), a
        collection's written out (`[]`, `()`), `range` of known ints (`range(0)`), a comparison's
        `comparison_holds` decides with `known_int` operands, a known int's, `not`, `and`, `or` of
        such tests, and a name's every binding of which has the same one (`flag = False`; not one bound
        to a list, set or dict, which may be filled in place); None for anything else."""
        if hops > ORIGIN_HOPS:
            return None
        literal = literal_truth(test)
        if literal is not None:
            return literal
        if isinstance(test, cst.List | cst.Tuple | cst.Set | cst.Dict):
            if not test.elements:
                return False
            return True if any(isinstance(each, cst.Element | cst.DictElement) for each in test.elements) else None
        if isinstance(test, cst.BooleanOperation) or (
            isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
        ):
            return folded_logic(test, partial(self.known_truth, scope=scope, hops=hops + 1))
        known = partial(self.known_int, scope=scope, hops=hops + 1)
        if isinstance(test, cst.Comparison):
            return comparison_holds(test, known)
        if isinstance(test, cst.Call) and dotted_name(test.func) == "range" and 1 <= len(test.args) <= 3:
            bounds = [None if arg.keyword or arg.star else known(arg.value) for arg in test.args]
            ints = [bound for bound in bounds if bound is not None]
            return None if len(ints) < len(bounds) or ints[2:] == [0] else bool(range(*ints))
        if isinstance(test, cst.Name):
            values = self._values_bound(test.value, scope)[1]
            if any(isinstance(value, cst.List | cst.Set | cst.Dict) for value in values):  # filled in place
                return None
            held = {self.known_truth(value, scope, hops + 1) for value in values}
            return held.pop() if len(held) == 1 and None not in held else None
        number = known(test)
        return None if number is None else bool(number)

    def at_most(
        self,
        value: cst.BaseExpression,
        scope: Scope,
        hops: int = 0,
        guarded: tuple[cst.BaseExpression, int] | None = None,
    ) -> int | None:
        """The largest int `value` may hold whatever the sizes, or where a test holds a name or
        extent of known position at most an int (`guarded`: `n` and 40000 for `if n > 40000:
        raise`): a `known_int`, that name or extent (also through a name bound to it), a `min`
        of which an argument has such a cap (`min(65535, M - s)`: a chunk of a host loop), a `max`
        all of whose arguments have one (`max(1, min(CH, M - s))`), that
        divided rounding up (`ceiling_division`), divided, shifted right, taken modulo or less a
        value (`_shrunk_at_most`: `n // 2`, `n >> 1` exactly, 4096 for `n <= 8193`; `n - pad`
        at most `n`), the power of two at or above it (`power_of_two_above`:
        `triton.next_power_of_2(n)` is at most 65536 for `n <= 40000`), `+`, `*`, `<<` and `**`
        of such values (none negative, a base of at least 1), and a name every binding of which
        has one (the largest); None for anything else."""
        if guarded is not None and self._is_guarded(value, scope, guarded[0]):
            return guarded[1]
        known = self.known_int(value, scope)
        if known is not None or hops > ORIGIN_HOPS:
            return known
        value = without_int_conversion(value)
        capped = partial(self.at_most, scope=scope, hops=hops + 1, guarded=guarded)
        if isinstance(value, cst.Name):
            key = (value.value, scope, hops, guarded)
            if key not in self._name_caps:
                held = {capped(each) for each in self._values_bound(value.value, scope)[1]}
                self._name_caps[key] = None if not held or None in held else max(each or 0 for each in held)
            return self._name_caps[key]
        divided = ceiling_division(value)
        if (
            divided is None
            and isinstance(value, cst.BinaryOperation)
            and isinstance(value.operator, SHRINKING_OPERATORS)
        ):
            return self._shrunk_at_most(value, capped(value.left), scope)
        if divided is not None:
            size, block = capped(divided[0]), self.known_int(divided[1], scope)
            return -(-size // block) if size is not None and block is not None and block > 0 else None
        if isinstance(value, cst.Call) and (callee := dotted_name(value.func)) in ("min", "max"):
            caps = [
                cap for arg in value.args if not arg.keyword and not arg.star and (cap := capped(arg.value)) is not None
            ]
            if callee == "max":  # a floor (`max(1, min(CH, M - s))`): the largest, when all have one
                return max(caps) if caps and len(caps) == len(value.args) else None
            return min(caps, default=None)
        above = power_of_two_above(value)
        if above is not None:
            below = capped(above)
            return None if below is None else 1 << max(below - 1, 0).bit_length()
        if isinstance(value, cst.BinaryOperation) and isinstance(
            value.operator, cst.Add | cst.Multiply | cst.LeftShift | cst.Power
        ):
            left, right = capped(value.left), capped(value.right)
            if left is None or right is None or min(left, right) < 0:
                return None
            if isinstance(value.operator, cst.LeftShift):
                return left << right
            if isinstance(value.operator, cst.Power):  # `2 ** n`: growing with `n` from a base of 1 up
                return left**right if left >= 1 and right * left.bit_length() <= _POWER_BITS else None
            return left + right if isinstance(value.operator, cst.Add) else left * right
        return None

    def _shrunk_at_most(self, value: cst.BinaryOperation, left: int | None, scope: Scope) -> int | None:
        """`at_most` of `n // d`, `n / d`, `n >> s`, `n % m` or `n - t`, `left` that of `n`:
        exact by a known int (`n % 64` is at most 63 whatever `n` is), else at most `n` (what is
        taken away, divided or shifted by is no size below zero nor a divisor below one, as
        `shrinks` takes it; `n - -1` none)."""
        operator, by = value.operator, self.known_int(value.right, scope)
        if isinstance(operator, cst.Modulo) and by is not None:
            return None if by < 1 else by - 1 if left is None else min(left, by - 1)
        if left is None or is_negative(value.right):
            return None
        if by is None:
            return left
        if isinstance(operator, cst.Subtract):
            return left - by
        if isinstance(operator, cst.RightShift):
            return left >> by if by >= 0 else None
        if by < 1:
            return None
        return left // by if isinstance(operator, cst.FloorDivide) else -(-left // by)

    def tested_part(self, lesser: cst.BaseExpression, bound: int, scope: Scope) -> tuple[cst.BaseExpression, int]:
        """The size a test ordering `lesser` at most `bound` bounds, and how far (sizes not
        negative): `n` at most 32768 for `2 * n <= 65536`, `n + 1 <= 4097` (4096), `n << 2 <=
        4096` (1024), `n - 1 <= 511` (512), `n // 2 <= 255` (511); `lesser` and `bound` as they
        are when no known int (`known_int`) scales or shifts it so."""
        while isinstance(lesser, cst.BinaryOperation):
            operator = lesser.operator
            left, right = self.known_int(lesser.left, scope), self.known_int(lesser.right, scope)
            if left is not None and right is None and isinstance(operator, cst.Multiply | cst.Add):
                part, by = lesser.right, left  # `2 * n` as `n * 2`
            elif right is not None:
                part, by = lesser.left, right
            else:
                break
            if isinstance(operator, cst.Multiply) and by > 0:
                bound //= by
            elif isinstance(operator, cst.FloorDivide) and by > 0:
                bound = bound * by + by - 1
            elif isinstance(operator, cst.LeftShift) and by >= 0:
                bound >>= by
            elif isinstance(operator, cst.Add | cst.Subtract):
                bound += -by if isinstance(operator, cst.Add) else by
            else:
                break
            lesser = part
        return lesser, bound

    def _is_guarded(self, value: cst.BaseExpression, scope: Scope, guarded: cst.BaseExpression) -> bool:
        """`value` is the name `guarded` is, or the same extent of known position (`extent_position`)."""
        if isinstance(value, cst.Name) and isinstance(guarded, cst.Name) and value.value == guarded.value:
            return True
        position = self.extent_position(guarded, scope)
        return position is not None and self.extent_position(value, scope) == position

    def _values_bound(
        self, name: str, scope: Scope, module_level: bool = True, assigned_only: bool = True
    ) -> tuple[Scope, list[cst.BaseExpression]]:
        """Where `name`, read in `scope`, is bound (`_binding_scope`) and the values bound to it
        there that may run (`_bindings_run`); no values when that function takes it as a
        parameter (its callers pass them), when the module binds it and not `module_level`, or
        when `assigned_only` and something other than an assignment binds it there
        (`_assigned_only`)."""
        owner = self._binding_scope(name, scope)
        if (
            (name, owner) not in self.bindings
            or (owner is None and not module_level)
            or (owner is not None and param_named(owner, name) is not None)
            or (assigned_only and not self._assigned_only(name, owner))
        ):
            return owner, []
        return owner, self._bindings_run(name, owner)

    def _bindings_run(self, name: str, scope: Scope) -> list[cst.BaseExpression]:
        """The values the function `scope` binds to `name`, but for those in an arm or loop body
        `known_truth` says never runs (`never_runs`: `if False: n = a * b`), and an unknown
        value (`...`, which nothing sizes, knows or bounds) when a function nested in it rebinds
        the name under `nonlocal` (`_stored_nonlocally`): calling it may store anything there;
        every one at module level. Read once per name; while it is read (a test reading the
        name: `if n: n = 0`), every one."""
        key = (name, scope)
        found = self._run_bindings.get(key)
        if found is None:
            bound = found = self._run_bindings[key] = self.bindings.get(key, [])
            if isinstance(scope, cst.FunctionDef) and any(map(self.bound_under.get, bound)):
                order, truth = self.written_order(scope), partial(self.known_truth, scope=scope)
                found = [
                    value for value in bound if not never_runs(value, self.bound_under.get(value, ()), order, truth)
                ]
            if isinstance(scope, cst.FunctionDef) and self._stored_nonlocally(name, scope):
                found = [*found, cst.Ellipsis()]
            self._run_bindings[key] = found
        return found

    def _stored_nonlocally(self, name: str, scope: cst.FunctionDef) -> bool:
        """A function nested in `scope` declares `nonlocal name` of `scope`'s and binds it (an
        assignment, an update in place, a `for`, `with` or `except` target)."""
        return any(
            ((name, nested) in self.bindings or (name, nested) in self.targets_bound)
            and self._binding_scope(name, self.enclosing.get(nested)) is scope
            for nested in self.nonlocals_declared.get(name, ())
        )

    def _assigned_only(self, name: str, owner: Scope, rebound: bool = False) -> bool:
        """Every binding of `name` in `owner` (the module for None, functions included) is an
        assignment the index records its value of: no `for`, comprehension, `with`, `except`,
        import or `match` target, no starred name of an unpacking (`M, *N = ...`), and at module
        level no `global` statement naming it unless `rebound` (the assignments of the functions
        declaring it are then read too: `_global_core_count`)."""
        found = self._assigned.get((name, owner, rebound))
        if found is not None:
            return found
        if owner not in self._binders:
            self._binders[owner] = binders_by_name(self.module if owner is None else owner.body)
        # a method called on it changes no int (`(n - 1).bit_length()`); a `global` statement
        # naming a module-level name lets any function rebind it
        globals_kept = owner is not None or rebound
        kept = (*RECORDED_BINDERS, cst.Call, cst.Global) if globals_kept else (*RECORDED_BINDERS, cst.Call)
        found = self._assigned[(name, owner, rebound)] = all(
            isinstance(node, kept) and not starred_target(node, name) for node in self._binders[owner].get(name, ())
        )
        return found

    def at_least(self, value: cst.BaseExpression, size: cst.BaseExpression, scope: Scope, hops: int = 0) -> bool:
        """`value` is at least `size` whatever it is: `size` itself, the power of two above a value
        that is (`power_of_two_above`) or a `max` of one, a choice between such values, or a name
        bound only to them."""
        if value.deep_equals(size):
            return True
        if hops >= ORIGIN_HOPS:
            return False
        if isinstance(value, cst.IfExp):
            return self.at_least(value.body, size, scope, hops + 1) and self.at_least(
                value.orelse, size, scope, hops + 1
            )
        if isinstance(value, cst.Name):
            values = self.values_of(value.value, scope)
            return bool(values) and all(self.at_least(each, size, scope, hops + 1) for each in values)
        entries = self._entry_values(value, scope)
        if entries != [value]:  # `meta["BLOCK"]` of `meta = {"BLOCK": triton.next_power_of_2(n)}`
            return all(self.at_least(entry, size, scope, hops + 1) for entry in entries)
        rounded = power_of_two_above(value)
        if rounded is not None:
            return self.at_least(rounded, size, scope, hops + 1)
        return (
            isinstance(value, cst.Call)
            and (dotted_name(value.func) or "").rsplit(".", 1)[-1] == "max"
            and any(self.at_least(arg.value, size, scope, hops + 1) for arg in value.args)
        )

    def _is_named_shape_item(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """`shape[i]` with `shape` a name bound only to a tensor's shape (`shape = q.shape`,
        then `B, H = shape[0], shape[1]` or `B, H, D = shape`)."""
        if not (is_item(value) and isinstance(value.value, cst.Name)):
            return False
        bound = self.values_of(value.value.value, scope)
        return bool(bound) and all(map(is_shape, bound))

    def _named_shape(self, name: cst.Name, scope: Scope) -> cst.BaseExpression | None:
        """The shape a function's name holds when the function binds it once, to a shape
        (`shape = list(x.shape)`, `dims = x.shape[1:]`), and changes it nowhere; None otherwise."""
        return self._bound_once(name, scope, is_shape)

    def _named_shapes(self, name: cst.Name, scope: Scope) -> list[cst.BaseExpression]:
        """The shapes a function's name may hold when the function binds it only to shapes, once
        or on several paths (`if a: s = x.shape` / `else: s = y.shape`, a `try` and its
        `except`), and changes it nowhere; none otherwise."""
        return self._bound_only(name, scope, is_shape)

    def _named_extents(self, name: cst.Name, scope: Scope, hops: int = 0) -> list[cst.BaseExpression]:
        """The sequences of tensors' extents a function's name may hold when the function binds
        it only to shapes (`_named_shapes`) or only to sequences made of shapes (`shape_tensors`:
        `out_shape = shape[:dim] + shape[dim + 1:]`), and changes it nowhere; none otherwise."""
        named = self._named_shapes(name, scope)
        if named or hops >= ORIGIN_HOPS:
            return named
        binding = self._binding_scope(name.value, scope)

        def made_of_shapes(value: cst.BaseExpression) -> bool:
            return name.value not in names_read(value) and bool(
                shape_tensors(value, lambda other: self._named_extents(other, binding, hops + 1))
            )

        return self._bound_only(name, scope, made_of_shapes)

    def _bound_only(
        self, name: cst.Name, scope: Scope, accept: Callable[[cst.BaseExpression], bool]
    ) -> list[cst.BaseExpression]:
        """The values a function's name may hold when the function (not module level, not as a
        parameter) binds it only by assignments of values `accept` takes, once or on several
        paths, and changes it nowhere else (`shape[d] = 1`, `shape.append(...)`, `shape +=
        ...`); none otherwise."""
        binding, bound = self._values_bound(name.value, scope, module_level=False, assigned_only=False)
        if not isinstance(binding, cst.FunctionDef) or not bound or not all(map(accept, bound)):
            return []
        written = len(self.bindings[name.value, binding])  # those that never run too
        return bound if self._statements_changing(binding)[name.value] == written else []

    def _bound_once(
        self, name: cst.Name, scope: Scope, accept: Callable[[cst.BaseExpression], bool]
    ) -> cst.BaseExpression | None:
        """The value a function's name holds when the function binds it once, to a value `accept`
        takes, and changes it nowhere (`_bound_only`); None otherwise."""
        bound = self._bound_only(name, scope, accept)
        return bound[0] if len(bound) == 1 else None

    def _statements_changing(self, function: cst.FunctionDef) -> Counter[str]:
        """How many simple statements of the function's own body (`_own_nodes`) may rebind or
        change each name (`rebinds`), counted in one walk per function: each name bound once
        asks (`_bound_once`)."""
        found = self._changing_statements.get(function)
        if found is None:
            found = self._changing_statements[function] = Counter(
                name
                for node in _own_nodes(function)
                if isinstance(node, cst.BaseSmallStatement) and not isinstance(node, cst.Global)
                for name in binders_by_name(node)
            )
        return found

    def elements_read(self, item: cst.Subscript, scope: Scope) -> list[tuple[cst.BaseExpression | None, Scope]]:
        """What `NAME[i]`, `NAME[i][j]` or `f(...)[i]` (`_, BLOCK = _TILE`, `*_, BLOCK = _TILE`,
        `(BM, (BN, BK)) = _CFG`, `_, BLOCK = _tiles()`) reads, each with the scope its names
        resolve in: the element of the tuple literal `NAME` is bound to once (`_tuple_element`),
        the entry `NAME["key"]` of a dict (`_dict_entries`: `SIZES["block"]` of `SIZES =
        {"block": 4096}`) that no code changes or passes to a call (`changed_anywhere`), or of
        the tuple each return of the module's function `f` returns (`_returned_elements`: None
        for a return that is no such tuple); nothing for another subscript."""
        held = item.value
        while is_item(held):
            held = held.value
        key = self._subscript_key(item, scope) if item.value is held else None
        if isinstance(held, cst.Name) and key is not None:
            return [(None, scope)] if self._changed_once(held.value, scope) else self._dict_entries(item, key, scope)
        if isinstance(held, cst.Name):
            return [(self._tuple_element(item, scope), scope)]
        return list(self._returned_elements(item, scope))

    def _changed_once(self, name: str, scope: Scope) -> bool:
        """`changed_anywhere` of the container `name` holds, passed to no call at all: asked once
        per container, however many launches read it."""
        owner = (name, self._binding_scope(name, scope))
        if owner not in self._entries_changed:
            self._entries_changed[owner] = self.changed_anywhere(name, scope, lambda call: False)
        return self._entries_changed[owner]

    def written_out(self, value: cst.BaseExpression, scope: Scope) -> list[cst.BaseExpression] | None:
        """The items of a tuple, list or set written out (`written_items`), or of the one such
        literal a name is bound to where `scope` reads it (`SUPPORTED = {(1024, 128), (2048,
        64)}`) when no code changes it or passes it to a call (`_changed_once`); None otherwise."""
        if not isinstance(value, cst.Name):
            return written_items(value)
        _, bound = self._values_bound(value.value, scope)
        if len(bound) != 1 or self._changed_once(value.value, scope):
            return None
        return written_items(bound[0])

    def _tuple_element(self, item: cst.Subscript, scope: Scope) -> cst.BaseExpression | None:
        """The element `NAME[i]` (a literal `i`, negative too) reads when `NAME` is bound once,
        to a tuple literal (`_TILE = (64, 128)` at module level or in a function around
        `scope`, then `bm, bn = _TILE` binds `bm` to `_TILE[0]`, the 64, and `BLOCK = _TILE[-1]`
        to the 128), or the element `NAME[i][j]` reads of such an element, itself a tuple
        literal; None otherwise."""
        position = returned_index(item)
        if isinstance(item.value, cst.Name):
            _, bound = self._values_bound(item.value.value, scope, assigned_only=False)
            held = bound[0] if len(bound) == 1 else None
        else:
            held = self._tuple_element(item.value, scope) if is_item(item.value) else None
        return tuple_element(held, position) if isinstance(held, cst.Tuple) and position is not None else None

    def _is_rows(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """A count of `x`'s elements divided by some of `x`'s extents (`_counted_tensor`): the
        product of its other extents, its rows."""
        return isinstance(value, cst.BinaryOperation) and self._counted_tensor(value, scope) is not None

    def _counted_tensor(self, value: cst.BaseExpression, scope: Scope) -> str | None:
        """The tensor, as written, whose elements or rows `value` counts: `x.numel()`,
        `math.prod(x.shape)` (`multiplied_shape`, of the whole shape), or one of those divided
        (`//` or `/`) by a product of factors, one or more of them extents of `x` (`x.shape[-1]`,
        a name bound only to one: `H, K = x.shape[-2:]`) and the others bounded (`128`, a
        constexpr, `META["BT"]`): `x.numel() // (H * K)`, `x.numel() // x.shape[-1] // H`.
        Divided by anything else (an extent of another tensor, an unknown value) it is no
        count. The tensor is taken to have a dimension the divisor leaves out, as it is for
        `x.numel() // x.shape[-1]`."""
        if isinstance(value, cst.Call):
            counted = counted_tensor(value)
            if counted is not None:
                return self._extents_holder(flat_code(counted), scope)
            shape = multiplied_shape(value)
            if isinstance(shape, cst.Name):
                shape = self._named_shape(shape, scope)
            if shape is None or not is_whole_shape(shape):
                return None
            tensor = extent_of(indexed(shape, 0))  # the tensor of `x.shape[0]`
            return None if tensor is None else self._extents_holder(tensor, scope)
        if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, (cst.FloorDivide, cst.Divide))):
            return None
        tensor = self._counted_tensor(value.left, scope)
        if tensor is None:
            return None
        factors = factors_of(value.right)
        own = {id(factor) for factor in factors if self._is_extent_named(factor, tensor, scope)}
        others = [factor for factor in factors if id(factor) not in own]
        return tensor if own and all(self._extent(factor, scope, 0) == () for factor in others) else None

    def _is_extent_named(
        self, value: cst.BaseExpression, tensor: str, scope: Scope, updated: str | None = None, hops: int = 0
    ) -> bool:
        """`value` is an extent of `tensor` (as written) or a product of its extents: inline
        (`x.shape[-1]`, `math.prod(x.shape[dim + 1:])`: `shape_tensors`, `x.size(1) *
        x.size(2)`), or through a name every value of which is one, but for int literals (`inner =
        1`, then `for s in x.shape[dim + 1:]: inner *= s`: an update's own name is no factor)."""
        if hops > ORIGIN_HOPS:
            return False
        if isinstance(value, cst.Name):
            values = [each for each in self.values_of(value.value, scope) if not isinstance(each, cst.Integer)]
            return bool(values) and all(
                self._is_extent_named(each, tensor, scope, value.value, hops + 1) for each in values
            )
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
            factors = [
                factor
                for factor in factors_of(value)
                if not isinstance(factor, cst.Integer)
                and not (isinstance(factor, cst.Name) and factor.value == updated)
            ]
            return bool(factors) and all(self._is_extent_named(each, tensor, scope, None, hops + 1) for each in factors)
        shape = multiplied_shape(value) if isinstance(value, cst.Call) else None
        if shape is not None:
            holders = shape_tensors(shape, lambda name: self._named_extents(name, scope)) or set()
        else:
            holder = extent_of(value)
            holders = set() if holder is None else {holder}
        return bool(holders) and all(self._extents_holder(each, scope) == tensor for each in holders)

    def _extents_holder(self, tensor: str, scope: Scope, hops: int = 0) -> str:
        """The tensor (as written) whose extents `tensor` has: itself, or, for a name the function
        binds only to copies keeping one tensor's extents (`x = input if input.is_contiguous()
        else input.contiguous()`, `x = input.float()`, `torch.empty_like(input)`), that one's."""
        if hops >= ORIGIN_HOPS or scope is None or not tensor.isidentifier() or param_named(scope, tensor) is not None:
            return tensor
        # a copy of itself (`x = x.contiguous()`) keeps the extents of its other bindings
        sources = {extents_kept_from(value) for value in self.bindings.get((tensor, scope), [])} - {tensor}
        if len(sources) != 1:
            return tensor
        source = sources.pop()
        return tensor if source is None else self._extents_holder(source, scope, hops + 1)

    def extent_position(self, value: cst.BaseExpression, scope: Scope) -> tuple[str, int] | None:
        """The tensor name and position of the extent `value` is: written (`x.shape[0]`,
        `x.size(0)`, `x.size()[0]`, `x.shape[1:][0]` is position 1, `shape[0]` of `shape =
        x.shape` bound once), or a name every binding of which in its function is that one
        extent (`m` of `m, k = x.shape`), when the tensor's name holds one tensor wherever the
        function reads it (`_holds_one_value`): a test on `x.shape[0]` then tests `m`, before or
        after `m` is bound. None for anything else (`x.shape[dim]`, `self.x.shape[0]`, a tensor
        rebound by `x = x.view(-1, k)`, a name a `for` or `with` may rebind: `for m in sizes:`).
        A name's is read once (`_name_positions`): a name rebound before every launch is read by each."""
        if isinstance(value, cst.Name):
            where = self._binding_scope(value.value, scope)
            key = (value.value, where)
            if key not in self._name_positions:
                self._name_positions[key] = self._name_position(value.value, where)
            return self._name_positions[key]
        written = self._written_extent(value, scope) or self._returned_position(value, scope)
        if written is None:
            return None
        holder, position = written
        tensors = [holder] if isinstance(holder, cst.Name) else broadcast_tensors(holder)
        if tensors is None or not all(self._holds_one_value(tensor, scope) for tensor in tensors):
            return None
        return flat_code(holder), position

    def _returned_position(self, value: cst.BaseExpression, scope: Scope) -> tuple[cst.Name, int] | None:
        """The extent `f(x)[i]` is in `scope` when every return of `f` gives there the same
        extent of a tensor it is passed (`return x.shape`, `return b, h, d` after `b, h, d =
        x.shape`): the tensor the call passes (a name) at that position. A function returning
        what a call of itself returns gives none."""
        if not isinstance(value, cst.Subscript) or not isinstance(value.value, cst.Call):
            return None
        positions: dict[tuple[str, int], cst.Name] = {}
        for element, function in self._returned_elements(value, scope):
            if function in self._positions_returned:
                return None
            self._positions_returned.add(function)
            try:
                position = self.extent_position(element, function) if element is not None else None
            finally:
                self._positions_returned.discard(function)
            passed = passed_for(value.value, function, position[0]) if position is not None else None
            if position is None or param_named(function, position[0]) is None or not isinstance(passed, cst.Name):
                return None
            positions[passed.value, position[1]] = passed
        if len(positions) != 1:
            return None
        (((_, at), tensor),) = positions.items()
        return tensor, at

    def _name_position(self, name: str, where: Scope) -> tuple[str, int] | None:
        """`extent_position` of `name`, bound in `where`: the one extent every binding is."""
        bound = self.bindings.get((name, where), [])
        if (
            not bound
            or (where is not None and param_named(where, name) is not None)
            or not self._assigned_only(name, where)
        ):
            return None
        # assignments only: `for d in x.shape[:dim]` binds `d` to each extent in turn
        positions = {
            self.extent_position(each, where) if each in self.binders and not isinstance(each, cst.Name) else None
            for each in bound
        }
        return positions.pop() if len(positions) == 1 else None

    def _written_extent(self, value: cst.BaseExpression, scope: Scope) -> tuple[cst.Name | cst.Call, int] | None:
        """`written_extent_position` of `value`, or of `x.shape[i]` for `shape[i]` with `shape
        = x.shape` bound once (`_named_shape`)."""
        if is_item(value) and isinstance(value.value, cst.Name):
            shape = self._named_shape(value.value, scope)
            value = indexed(shape, 0).with_changes(slice=value.slice) if shape is not None else value
        return written_extent_position(value)

    def _holds_one_value(self, name: cst.Name, scope: Scope) -> bool:
        """`name` is bound once, in no loop, or is a parameter its function never rebinds: every
        read of it in that function reads the same value. Not when something other than an
        assignment may rebind it (`for x in xs:`, `with ctx() as x:`: `_assigned_only`)."""
        where = self._binding_scope(name.value, scope)
        bound = self.bindings.get((name.value, where), [])
        if not self._assigned_only(name.value, where):
            return False
        if where is not None and param_named(where, name.value) is not None:
            return not bound
        return len(bound) == 1 and not any(isinstance(block, cst.For) for block in self.bound_under.get(bound[0], ()))

    def written_order(self, function: cst.FunctionDef) -> WrittenOrder:
        """The function's body in the order it is written (`WrittenOrder`), read once."""
        order = self._written_orders.get(function)
        if order is None:
            if self._updates is None:
                self._updates = {
                    binder: value for value, binder in self.binders.items() if type(binder) is cst.AugAssign
                }
            order = self._written_orders[function] = WrittenOrder(function, self._updates)
        return order

    def tests_at(self, sites: Sequence[CallSite]) -> list[tuple[cst.BaseExpression, bool, cst.CSTNode]]:
        """The tests holding at every one of the calls `sites`, each with whether it holds there
        and the node it holds after (for `bounded_at`): an `if` around the call holds in its body
        and fails in its `else` (`CallSite.arms`; not an `if` choosing something else, `num_warps
        = 4 if n <= 1024 else 8`), and what is checked on every path to it (`checks_before`: an
        early exit's test fails after it, an `assert`'s holds; not one after the call, in another
        arm or in a loop before it). Worked out once for the same calls (`_tests_at`, by their ids,
        with the calls kept): each of n launches' sizes asks about all n launches of a function."""
        key = tuple(map(id, sites))
        found = self._tests_at.get(key)
        if found is None:
            found = self._tests_at[key] = (tuple(sites), self._tests_holding_at(sites))
        return found[1]

    def _tests_holding_at(self, sites: Sequence[CallSite]) -> list[tuple[cst.BaseExpression, bool, cst.CSTNode]]:
        held = [
            {
                (id(test), holds): (test, holds, since)
                for test, holds, since in [
                    *((test, holds, test) for test, holds in site.arms),
                    *self.checks_before(site),
                ]
            }
            for site in sites
        ]
        return [test for key, test in held[0].items() if all(key in other for other in held[1:])] if held else []

    def extents_growing(self, node: cst.CSTNode, scope: Scope) -> set[tuple[str, int]]:
        """The extents of known position `node` reads, written or through names (`extents_read`),
        but for those it reads only where they make it smaller (`N` of `N % D` with `M, N =
        x.shape`, `x.shape[1] // 2`: `names_read_shrinking`)."""
        shrinking = names_read_shrinking(node)
        candidates: list[cst.BaseExpression] = [name for name in variables_read(node) if name.value not in shrinking]
        candidates += [
            sub
            for sub in walk(node)
            if isinstance(sub, cst.BaseExpression) and is_positioned(sub) and not names_read(sub) & shrinking
        ]
        return {position for sub in candidates if (position := self.extent_position(sub, scope)) is not None}

    def names_growing(self, node: cst.CSTNode, scope: Scope) -> frozenset[str]:
        """The names `node` reads beside extents (`names_beside_extents`) but for those it reads
        only where they make it smaller (`names_read_shrinking`) and for tensors read only in
        what holds none of their sizes (`x` of `x.stride(-1)`, `x.dtype`): an upper bound of
        `node` is one of theirs (`D` of `2 * D`, `x` of `x.numel()`, not `M` of `n // M`)."""
        owners = {
            id(sub.value)
            for sub in walk(node)
            if isinstance(sub, cst.Attribute) and isinstance(sub.value, cst.Name) and sub.attr.value not in SIZES_HELD
        }
        unsized = names_read(node) - names_read(node, skipped=owners)
        return self.names_beside_extents(node, scope) - names_read_shrinking(node) - unsized

    def test_bound(self, name: cst.Name, scope: Scope) -> cst.BaseExpression | None:
        """The test a name read as a truth value stands for (`if ok:` with `ok = m == 2 and n ==
        4`): the one value its function binds it to (`_holds_one_value`) when that is a test (a
        comparison, or `and`, `or`, `not` of values) reading no name the function may rebind
        from that binding up to `name` (`WrittenOrder.names_rebound_between`); None otherwise (a parameter,
        a name of a function around, one bound in a loop or read in one)."""
        if (
            scope is None
            or self._binding_scope(name.value, scope) is not scope
            or param_named(scope, name.value) is not None
            or not self._holds_one_value(name, scope)
        ):
            return None
        [value] = self.bindings[(name.value, scope)]
        binder = self.binders.get(value)
        if binder is None or not _is_test(value) or name.value in names_read(value):
            return None
        rebound = self.written_order(scope).names_rebound_between(binder, name)
        return value if rebound is not None and not rebound & names_read(value) else None

    def _either_extent(
        self,
        test: cst.BaseExpression,
        values: tuple[cst.BaseExpression, cst.BaseExpression],
        value: cst.BaseExpression,
        scope: Scope,
        hops: int,
    ) -> tuple[str, ...] | None:
        """`a if c else b` (`value`, its `test` and arms `values`; `a or b` is `a if a else b`):
        sized when both arms are, as a name bound to them is (`one_extent`: the longer product
        when the test picks a variant, `B * T * H if flat else B * T`, else one size unless both
        are the same product); bounded when both are; unknown when only one is (the test may cap
        it: `n if n < cap else cap`), but the sized one's when its arm runs only where the test
        says no more than that something is above or unequal to a literal or not empty
        (`_floor_only`: a floor caps nothing: `n if n != 0 else 1`, `n or 1`)."""
        arms = [self._extent(arm, scope, hops) for arm in values]
        if None in arms:
            return None
        if all(arms):
            variants = () if self._exact or not self._picks_variant(test, scope) else arms
            return one_extent(flat_code(value), arms, [arm for arm in variants if arm is not None])
        sized = 0 if arms[0] else 1 if arms[1] else None
        if sized is not None and self._floor_only(test, sized == 0, scope, hops):
            return arms[sized]
        return None if any(arms) else ()

    def _floor_only(self, test: cst.BaseExpression, holds: bool, scope: Scope, hops: int) -> bool:
        """Whether all the test says where it `holds` (or fails) is that something is above an
        int literal (`n > 1` holding, `n < 16` failing: `_above_a_literal`), or unequal to one
        (`n != 0` holding, `n == 0` failing: `_unequal_to_a_literal`), or that a size or a
        shape is not zero or not empty (`n` holding for a size `n`, `dims` for `dims =
        x.shape[:-2]`, also written `x.shape[:-2]`; `not n` failing): a floor, no cap on
        anything. Not a truth test of anything else: a flag may hold an ordering (`small = n <
        4096`)."""
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, holds = test.expression, not holds
        if isinstance(test, cst.Comparison):
            return _above_a_literal(test, holds) or _unequal_to_a_literal(test, holds)
        if not holds or isinstance(test, cst.BooleanOperation):
            return False
        if is_shape(test) or (isinstance(test, cst.Name) and self._named_shape(test, scope) is not None):
            return True
        return bool(self._extent(test, scope, hops + 1))

    def _scope_of(self, origin: cst.BaseExpression, scope: Scope) -> Scope:
        """Where an origin's names resolve (origins do not say): the scope of the call when it
        is an argument (passed to `scope` by a caller), the scope binding it when it is a bound
        value (`head = int(head_size)` in that caller), else `scope`."""
        return self._origin_scopes.get(origin, scope)

    @cached_property
    def _origin_scopes(self) -> dict[cst.BaseExpression, Scope]:
        """Each argument node of a plain call with the scope of the call, each bound value
        with the scope binding it, and each element of a returned tuple (or of one a returned
        name holds) with the function returning it; with each, the arms and operands `origins`
        follows into (`B if c else len(s) - 1` passed on: `B` is the caller's). An extent of a
        returned shape is added as `_returned_element` reads it."""
        scopes: dict[cst.BaseExpression, Scope] = {}

        def add(value: cst.BaseExpression, scope: Scope) -> None:
            scopes.setdefault(value, scope)
            if isinstance(value, cst.IfExp):
                add(value.body, scope)
                add(value.orelse, scope)
            elif isinstance(value, cst.BooleanOperation):
                add(value.left, scope)
                add(value.right, scope)

        for sites in [
            *self.calls_of.values(),
            *([site for _, site in calls] for calls in self.attribute_calls.values()),
        ]:
            for site in sites:
                for arg in site.call.args:
                    add(arg.value, site.scope)
        for (_, scope), values in self.bindings.items():
            for value in values:
                add(value, scope)
        for returns in self.returns.values():
            for returned, function in returns:
                held = self._returned_value(returned, function)
                for element in held.elements if isinstance(held, cst.Tuple) else ():
                    add(element.value, function)
        return scopes

    # ---- evidence per kernel parameter ------------------------------------------------
    def none_passed(self, kernel: Kernel, param: str) -> Evidence | None:
        """A launch in the module that may pass None for the parameter."""
        return self._passing(kernel, param, is_none)

    def float_passed(self, kernel: Kernel, param: str) -> Evidence | None:
        """A launch passing a Python float for the parameter: a float literal, `float(...)`,
        arithmetic with a float, or a name or parameter that is one (its default, its
        `float` annotation, what the module's callers pass)."""
        return self._passing(kernel, param, is_float)

    def tensor_passed(self, kernel: Kernel, param: str) -> Evidence | None:
        """A launch passing a torch tensor the host makes for the parameter (`makes_a_tensor`):
        a pointer there, never specialised."""
        return self._passing(kernel, param, makes_a_tensor)

    def one_passed(self, kernel: Kernel, param: str) -> Evidence | None:
        """A launch passing the int literal 1 for the parameter, written there or a name or
        parameter that may be one: Triton specialises it (no other int: `0`, `16`)."""
        return self._passing(kernel, param, is_one)

    def _passing(self, kernel: Kernel, param: str, is_wanted: Callable[[cst.BaseExpression], bool]) -> Evidence | None:
        """The first launch (`passed_values`) whose value for the parameter may come from an
        origin `is_wanted` accepts, with the way there."""
        for host, launch, passed in self.passed_values(kernel, param):
            if passed is None:
                continue
            for origin, how in host.origins(passed.value, passed.scope):
                if is_wanted(origin):
                    passes = f"passes `{param}={one_line(passed.value)}`"
                    why = f"{passes}, where {how}" if how else passes
                    elsewhere = None if host is self else self._described(host, launch)
                    return Evidence(launch, passed.value, why, elsewhere)
        return None

    def _described(self, host: HostIndex, launch: Launch) -> str:
        """A launch another module makes, for a message: its function and its file from here."""
        assert self.imported is not None and self.imported.file is not None and host.imported is not None
        assert host.imported.file is not None
        path = os.path.relpath(host.imported.file, self.imported.file.parent)
        return f"`{path}`" if launch.scope is None else f"`{launch.scope.name.value}` of `{path}`"

    def always_passes_a_tensor(self, kernel: Kernel, param: str) -> bool:
        """Every launch (at least one: `reaching_values`) passes a value that cannot be None."""
        values = self.reaching_values(kernel, param)
        return bool(values) and all(
            passed is not None and not any(is_none(origin) for origin, _ in host.origins(passed.value, passed.scope))
            for host, _, passed in values
        )

    def always_passes_one(self, kernel: Kernel, param: str) -> bool:
        """Every launch (at least one: `reaching_values`) passes 1 for the parameter: the literal
        `1`, or the stride of the last dimension of a tensor its function allocates contiguous
        (`t.stride(-1)`, or `t.stride(1)` of `t = torch.empty((H, T))`: `_is_one`)."""
        values = self.reaching_values(kernel, param)
        return bool(values) and all(
            passed is not None and host._is_one(passed.value, passed.scope, 0) for host, _, passed in values
        )

    def _is_one(self, value: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        """`1`, or a stride of the last dimension (`stride_read`) of a tensor each value the
        function binds to is new and contiguous (`last_dimension`; a copy of itself,
        `t = t.contiguous()`, keeps its rank), or a name the function binds only to such
        values; of a parameter (its callers pass it), only `t.stride(-1)` after the function
        makes it contiguous on every path."""
        if isinstance(value, cst.Integer):
            return int_literal(value) == 1
        if isinstance(value, cst.Name):
            bound = self._bound_here(value.value, scope)
            return hops < ORIGIN_HOPS and bool(bound) and all(self._is_one(v, scope, hops + 1) for v in bound)
        read = stride_read(value)
        if read is None:
            return False
        tensor, dimension = read
        last = -1 if is_minus_one(dimension) else int_literal(dimension)
        if scope is not None and param_named(scope, tensor) is not None:  # made contiguous on every path
            copies = self.bindings.get((tensor, scope), [])
            return (
                last == -1
                and bool(copies)
                and all(copy_of(each) == tensor and not self.bound_under.get(each) for each in copies)
            )
        own = [each for each in self._bound_here(tensor, scope) if copy_of(each) != tensor]  # a copy keeps the rank
        return bool(own) and last is not None and all(last in last_dimension(each) for each in own)

    def _bound_here(self, name: str, scope: Scope) -> list[cst.BaseExpression]:
        """The values the function `scope` binds to `name`; none for a parameter or outside functions."""
        if scope is None or param_named(scope, name) is not None:
            return []
        return self.bindings.get((name, scope), [])

    def dtype_passed(self, kernel: Kernel, param: str) -> TensorDtype | None:
        """The dtype every launch (at least one: `reaching_values`) passes for the tensor
        parameter, shown by the first launch's evidence (`_dtype`); None when a launch passes a
        value nothing shows the dtype of, or launches pass different ones. Evidence another
        module shows says which launch there (`TensorDtype.elsewhere`)."""
        dtypes = []
        for host, launch, passed in self.reaching_values(kernel, param):
            dtype = host._dtype(passed.value, passed.scope, 0) if passed is not None else None
            if dtype is not None and host is not self:
                dtype = replace(dtype, elsewhere=self._described(host, launch))
            dtypes.append(dtype)
        return agreed(dtypes)

    def int_dtype_passed(self, kernel: Kernel, param: str) -> TensorDtype | None:
        """`dtype_passed` when it is an integer dtype (`int8` to `int64`, `uint8`)."""
        passed = self.dtype_passed(kernel, param)
        return passed if passed is not None and passed.dtype in INT_WIDTHS else None

    def element_bytes(self, value: cst.BaseExpression, scope: Scope) -> int | None:
        """The bytes of an element of the tensor `value` where the host shows its dtype (`_dtype`)."""
        dtype = self._dtype(value, scope, 0)
        return None if dtype is None else dtype.element_bytes

    def _dtype(self, value: cst.BaseExpression, scope: Scope, hops: int) -> TensorDtype | None:
        """`_shown_dtype`, worked out once for each value, scope and hop count: a parameter is
        followed to every call of its function, and functions calling themselves under one
        name reach the same values through many paths. A name's is read from every binding of
        it, wherever it is read: once per name (`n = n * 2` before each of n launches)."""
        read = value.value if isinstance(value, cst.Name) else value
        key = (read, scope, hops, self._unreached, self._bounded, self._exact)  # sizes read in `_is_python_int`
        if key not in self._dtypes:
            self._dtypes[key] = self._shown_dtype(value, scope, hops)
        return self._dtypes[key]

    def _shown_dtype(self, value: cst.BaseExpression, scope: Scope, hops: int) -> TensorDtype | None:
        """The dtype of a tensor, where the host shows it: a conversion (`t.to(torch.int32)`,
        `t.to(dtype=torch.float32)`, `t.int()`, `t.float()`, `t.bfloat16()`...), a torch function
        given the dtype (`torch.empty(n, dtype=torch.int32)`, `torch.cumsum(x, 0,
        dtype=torch.int32)`), a tensor made like another whose dtype is shown (`torch.empty_like(x)`,
        `x.new_zeros(n)`) or keeping its dtype (`F.pad(x, (1, 0))`, `x.contiguous()`), an element
        of a comprehension that reads none of its own variables (`a, b = (torch.randn(n,
        dtype=torch.float32) for _ in range(2))`), an element of the tuples a function of the
        module returns (`s` of `s, e = ranges(g, n)`, read in `ranges`), or a name every
        binding of the function sets to one of those; a parameter the function does not rebind
        takes an unconditional `assert t.dtype == torch.int32` of the function (or
        `torch._assert(...)`, `if t.dtype != torch.int32: raise ...`), else what every
        call of the function in the module passes (also when only some paths rebind it: `if cu
        is None: cu = torch.tensor(..., dtype=torch.int32)` keeps the caller's). Arithmetic
        keeps it as torch promotes it (`_arithmetic_dtype`)."""
        if isinstance(value, cst.Call):
            dtype = converted_or_allocated(value)
            if dtype is not None:
                return TensorDtype(dtype, value)
            template = template_of(value)
            return self._dtype(template, scope, hops + 1) if template is not None and hops < ORIGIN_HOPS else None
        if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
            return self._dtype(value.expression, scope, hops)
        if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, INT_ARITHMETIC):
            return self._arithmetic_dtype(value, scope, hops)
        if isinstance(value, cst.Subscript) and isinstance(value.value, (cst.GeneratorExp, cst.ListComp)):
            element = value.value.elt  # `_unpacked` binds each name to an item of the comprehension
            return (
                None
                if names_read(element) & comprehension_variables(value.value)
                else self._dtype(element, scope, hops)
            )
        if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Call) and hops < ORIGIN_HOPS:
            returned = self._returned_elements(value, scope)  # `f(...)[i]`, `s` of `s, e = f(...)`
            return agreed([self._dtype(e, where, hops + 1) if e is not None else None for e, where in returned])
        if not isinstance(value, cst.Name) or scope is None or hops >= ORIGIN_HOPS:
            return None
        name = value.value
        # a copy of itself (`x = x.contiguous()`) keeps what shows its dtype
        bound = [v for v in self.bindings.get((name, scope), []) if copy_of(v) != name]
        dtypes = [self._dtype(v, scope, hops + 1) for v in bound]
        if param_named(scope, name) is None or (bound and not any(self.bound_under.get(v) for v in bound)):
            return agreed(dtypes)  # a local name, or a parameter rebound on every path
        asserted = self.dtype_asserts.get((name, scope), [])
        if asserted and not bound:
            return agreed(list(asserted))
        callers = self.callers_of(scope)
        for site in callers:  # the parameter as passed, also where an `if` keeps it
            argument = passed_for(site.call, scope, name)
            dtypes.append(self._dtype(argument, site.scope, hops + 1 + site.wrappers) if argument is not None else None)
        return agreed(dtypes) if callers else None

    def _arithmetic_dtype(self, value: cst.BinaryOperation, scope: Scope, hops: int) -> TensorDtype | None:
        """The dtype of `a + b` (`-`, `*`, `//`, `%`) as torch promotes it: an integer or float
        tensor's with a Python int (`_is_python_int`: `torch.arange(n, dtype=torch.int32) *
        spec` stays int32, measured with torch 2.13: a Python scalar of the same kind never
        widens a tensor), a float tensor's with a Python float, the wider of two integer
        tensors' (int32 with int64 is int64), that of two float tensors of one dtype; None when
        an operand's is unknown (a tensor of unknown dtype may widen it, a float makes an
        integer a float) or the operands mix kinds."""
        left, right = (self._dtype(operand, scope, hops) for operand in (value.left, value.right))
        if left is not None and right is not None:
            if left.dtype in INT_WIDTHS and right.dtype in INT_WIDTHS:
                if left.dtype != right.dtype and INT_WIDTHS[left.dtype] == INT_WIDTHS[right.dtype]:
                    return None  # int8 with uint8 is int16
                return max(left, right, key=lambda known: INT_WIDTHS[known.dtype])
            return left if left.dtype == right.dtype and left.dtype in FLOAT_DTYPES else None
        for tensor, scalar in ((left, value.right), (right, value.left)):
            if tensor is not None and tensor.dtype in INT_WIDTHS and self._is_python_int(scalar, scope):
                return tensor
            if (
                tensor is not None
                and tensor.dtype in FLOAT_DTYPES
                and (is_float(scalar) or self._is_python_int(scalar, scope))
            ):
                return tensor
        return None

    def _is_python_int(self, value: cst.BaseExpression, scope: Scope) -> bool:
        """A Python int, as the host shows it: a size or a bounded count (`_extent`: `8`,
        `x.shape[1]`, `len(x)`, a name every origin of which is one) but a true quotient (`n / 2`
        is a float), or a parameter annotated `int` that the function does not rebind."""
        if isinstance(value, cst.Name) and scope is not None and not self.bindings.get((value.value, scope)):
            param = param_named(scope, value.value)
            if param is not None and param.annotation is not None:
                return dotted_name(param.annotation.annotation) == "int"
        return not is_float(value) and self._extent(value, scope, 0) is not None

    def flag_tied_to(self, kernel: Kernel, flag: str, pointer: str) -> Evidence | None:
        """A launch passing `FLAG=p is not None` / `FLAG=bool(p)` with `p` what it passes for
        the pointer parameter (or such a test in `int(...)`, `True if ... else False`, `... and
        W > 0`: `tests_for_none`), or a name the function binds only to that (`use_h0 = h0 is
        not None`, then `USE_H0=use_h0`). Not when the function swaps a stand-in in for a None
        pointer before passing it (`if not use_h0: h0 = x`: `swaps_in_for_none`)."""
        for host, launch, tested in self.passed_values(kernel, flag):
            passed = host.argument(launch, kernel, pointer)
            if tested is None or passed is None:
                continue
            named = tested.value.value if isinstance(tested.value, cst.Name) else None
            values = host.values_of(named, tested.scope) if named and tested.scope is not None else []
            if all(tests_for_none(value, passed.value) for value in values or [tested.value]):
                held = passed.value.value if isinstance(passed.value, cst.Name) else None
                if held and passed.scope is not None and swaps_in_for_none(passed.scope, held, {named or held}):
                    continue  # `if not use_h0: h0 = x`: the launch passes no None
                elsewhere = None if host is self else self._described(host, launch)
                shown = f", where `{named} = {one_line(values[0])}`" if values else ""
                return Evidence(launch, tested.value, f"passes `{flag}={one_line(tested.value)}`{shown}", elsewhere)
        return None

    @cached_property
    def forwarders(self) -> dict[str, tuple[cst.FunctionDef, frozenset[str]]]:
        """Functions that splat one of their parameters into a launch (`def launch(k, grid,
        **kw): k[grid](**kw)`), or pass it on to such a function (`def dispatch(x, config):
        launch(x, config)`, `**kw` into a `**kw` forwarder), and wrappers passing their
        arguments on unchanged to such a function (`_add_wrapper`): name -> (function, the
        forwarded parameters; for a wrapper, the function it wraps, whose parameters its calls
        fill). Passing on is followed to a fixed point, at most `ORIGIN_HOPS` helpers up."""
        found: dict[str, tuple[cst.FunctionDef, frozenset[str]]] = {}
        for launches in self.launches.values():
            for launch in launches:
                if launch.scope is not None:
                    splatted = splatted_params(launch.scope, launch.call.args)
                    add_forwarded(found, launch.scope, splatted)
        for _ in range(ORIGIN_HOPS):
            grown = False
            for name, (function, forwarded) in list(found.items()):
                for site in self.calls_of.get(name, ()):
                    if site.scope is not None:
                        grown |= add_forwarded(found, site.scope, passed_on(site.call, function, forwarded, site.scope))
                        grown |= self._add_wrapper(found, site, function, forwarded)
            if not grown:
                break
        return found

    def launch_on_other_platform(self, forwarder: cst.FunctionDef) -> cst.Call | None:
        """A launch running only on another platform than Ascend that `forwarder` (of
        `forwarders`) splats its parameters into, itself or through the forwarders it calls
        (`def _launch(k, grid, **kw): if device != "npu": k[grid](**kw); return ...`): there the
        launch options it passes on still tune the kernel."""
        for launch in self.forwarded_launches(forwarder):
            other = next((call for call in launch.calls if self.on_other_platform(call)), None)
            if other is not None:
                return other
        return None

    def forwarded_launches(self, forwarder: cst.FunctionDef, hops: int = 0) -> Iterator[Launch]:
        """The launches `forwarder` (of `forwarders`) splats its parameters into, itself or
        through the forwarders it calls, at most `ORIGIN_HOPS` helpers down."""
        for launches in self.launches.values():
            for launch in launches:
                if launch.scope is forwarder and splatted_params(forwarder, launch.call.args):
                    yield launch
        if hops >= ORIGIN_HOPS:
            return
        for name, (callee, _) in self.forwarders.items():
            if callee is not forwarder and any(site.scope is forwarder for site in self.calls_of.get(name, ())):
                yield from self.forwarded_launches(callee, hops + 1)

    def _add_wrapper(
        self,
        found: dict[str, tuple[cst.FunctionDef, frozenset[str]]],
        site: CallSite,
        function: cst.FunctionDef,
        forwarded: frozenset[str],
    ) -> bool:
        """Records the function the call `site` is in as forwarding what `function` forwards,
        its calls read as calls of `function`, when it is a wrapper passing its arguments on
        to `function` unchanged (`_wraps`) and is not recorded as forwarding parameters of its own
        (its `**kwargs` into a `**kwargs` forwarder); whether that is new."""
        wrapper = site.scope
        if wrapper is None or wrapper in self.class_of or not self._wraps(wrapper, site.call, function):
            return False
        held_function, held = found.get(wrapper.name.value, (function, frozenset()))
        if held_function is not function or forwarded <= held:
            return False
        found[wrapper.name.value] = (function, held | forwarded)
        return True

    def on_other_platform(self, node: cst.CSTNode) -> bool:
        """The host node (or the one written that `_made_by` rebuilt) runs only on another
        platform than Ascend (`OtherPlatformPaths`)."""
        return self._placed.get(node, node) in self._other_platform_paths.nodes

    def platform_outcome(self, test: cst.BaseExpression, scope: Scope) -> bool | None:
        """What a platform test is on Ascend (`OtherPlatformPaths.requires_other`): True when
        its failing requires another platform (`IS_NPU`), False when its holding does (`not
        IS_NPU`); None for another test."""
        paths = self._other_platform_paths
        if paths.requires_other(test, False, scope):
            return True
        return False if paths.requires_other(test, True, scope) else None

    def updated_in_line(self, name: str, scope: Scope) -> cst.BaseExpression | None:
        """What `name` holds after the function `scope` binds it in a line of updates, each
        computed from the one before (`n = x.numel()`, `n = min(n, 1024)`, `n = n * 64`:
        `min(x.numel(), 1024) * 64`), built once per name: its bindings, at most
        `MAX_LINE_UPDATES` updates, run on Ascend (`reaches_on_ascend`), in the order written,
        each run whenever the function runs (in its body or a `with` there: `Unrolled.run`), plain assignments or updates in
        place (`n *= 64`), each but the first reading `name` (`updates_name`), the first not,
        and every other read of `name` is written after the last, so reads the last value.
        None otherwise."""
        key = (name, scope)
        if key in self._updated_in_line:
            return self._updated_in_line[key]
        self._updated_in_line[key] = None
        values = self.bindings.get(key, [])
        if (
            not isinstance(scope, cst.FunctionDef)
            or not 2 <= len(values) <= MAX_LINE_UPDATES + 1
            or updates_name(values[0], name)
        ):
            return None
        order, unconditional = self.written_order(scope), self._unrolled(scope.body).run
        binders = [binder for value in values if (binder := self.binders.get(value)) is not None]
        if len(binders) != len(values) or any(
            not self.reaches_on_ascend(value)
            or not (isinstance(binder, cst.AugAssign) or plain_binding(binder, name) is value)
            for value, binder in zip(values, binders, strict=True)
        ):
            return None
        steps = self._line_steps(values, binders, unconditional)
        if (
            steps is None
            or isinstance(steps[0][0], cst.If)
            or not all(updates_name(value, name) for value in values[1:])
            or not all(order.runs_before(earlier, later) for (earlier, _), (later, _) in itertools.pairwise(steps))
        ):
            return None
        read = [*binders, *(statement.test for statement, _ in steps if isinstance(statement, cst.If))]
        chained = {id(node) for each in read for node in walk(each)}
        last = steps[-1][0]
        for use in self.name_uses.get(name, ()):
            if (use.owner is scope and id(use.name) not in chained) and (
                not order.runs_before(last, use.name) or last in order.holders(use.name)
            ):
                return None  # read before the last step, or in an arm of it
        made = values[0]
        for _, value in steps[1:]:
            passed = {id(node): made for node in walk(value) if type(node) is cst.Name and node.value == name}
            updated = value.visit(_ArgumentsPlaced(passed, self._placed))
            assert isinstance(updated, cst.BaseExpression)
            made = updated
        self._updated_in_line[key] = made
        return made

    def updates_itself(self, name: str, scope: Scope) -> bool:
        """Some binding of `name` in `scope` computes it from its earlier value (`updates_name`:
        `n = min(n, 1024)`)."""
        return any(updates_name(value, name) for value in self.bindings.get((name, scope), ()))

    def _line_steps(
        self,
        values: Sequence[cst.BaseExpression],
        binders: Sequence[cst.CSTNode],
        unconditional: Sequence[cst.CSTNode],
    ) -> list[tuple[cst.CSTNode, cst.BaseExpression]] | None:
        """The steps of a line of updates (`updated_in_line`), in order, each run whenever the
        function runs, with the value it binds: a binding, or an `if`/`else` each arm of which
        binds the name once, where the arm always runs it (`if wide: n = min(n, 65536)` / `else:
        n = min(n, 1024)`: `min(n, 65536) if wide else min(n, 1024)`, both read, the larger the
        bound). None when a binding is neither."""
        steps: list[tuple[cst.CSTNode, cst.BaseExpression]] = []
        arms: dict[cst.If, list[tuple[cst.CSTNode, cst.BaseExpression]]] = {}  # by the `if`, its two bindings
        for value, binder in zip(values, binders, strict=True):
            if binder in unconditional:
                steps.append((binder, value))
                continue
            blocks = self.bound_under.get(value, ())
            choice = blocks[-1] if blocks else None
            if not isinstance(choice, cst.If) or choice not in unconditional or not isinstance(choice.orelse, cst.Else):
                return None
            if choice not in arms:
                steps.append((choice, value))  # its value made below
            arms.setdefault(choice, []).append((binder, value))
        made = []
        for statement, value in steps:
            if isinstance(statement, cst.If):
                bound = arms[statement]
                orelse = cst.ensure_type(statement.orelse, cst.Else)
                if len(bound) != 2 or not all(
                    binder in self._unrolled(arm).run
                    for (binder, _), arm in zip(bound, (statement.body, orelse.body), strict=True)
                ):
                    return None
                value = cst.IfExp(test=statement.test, body=bound[0][1], orelse=bound[1][1])
            made.append((statement, value))
        return made

    def bound_on_ascend(self, name: str, scope: Scope) -> list[cst.BaseExpression]:
        """The values `scope` binds to `name` (`bindings`) but for those bound only on another
        platform (`on_other_platform`): `if x.device.type == "npu": BLOCK = 1024` / `else: BLOCK
        = 131072` binds 1024 on Ascend, as `1024 if x.device.type == "npu" else 131072` does;
        nor those a later `if` rebinds on Ascend before they are read (`reaches_on_ascend`)."""
        values = self.bindings.get((name, scope), ())
        return [value for value in values if self.reaches_on_ascend(value)]

    def reaches_on_ascend(self, value: cst.BaseExpression) -> bool:
        """The binding of `value` runs on Ascend and its value is read there: it is not on
        another platform's path (`on_other_platform`) nor overridden on Ascend (`BLOCK = 131072`
        then `if x.device.type == "npu": BLOCK = 1024`: `OtherPlatformPaths.overridden`)."""
        binder = self.binders.get(value, value)
        return not self.on_other_platform(binder) and binder not in self._other_platform_paths.overridden

    def launched_only_on_other_platform(self, kernel: Kernel) -> bool:
        """The module launches the kernel (`launches_with_helpers`, one launch at least), each
        launch only on another platform than Ascend (`on_other_platform`): what configures the
        kernel (its autotune configs, its launch values) never compiles on Ascend here."""
        launches = self.launches_with_helpers(kernel)
        return bool(launches) and all(self.on_other_platform(launch.call) for launch in launches)

    @cached_property
    def _other_platform_paths(self) -> OtherPlatformPaths:
        return OtherPlatformPaths(self)

    def read_only_on_other_platform(self, node: cst.CSTNode) -> cst.Name | None:
        """The read of the module's public name whose value holds the host node, when host code
        reads the name only on another platform's paths (`CUDA_CONFIGS` in `CUDA_CONFIGS if not
        is_npu else NPU_CONFIGS`: `OtherPlatformPaths.public_values_read_only_there`), else None."""
        return self._other_platform_paths.public_values_read_only_there.get(node)

    def on_npu_path(self, node: cst.CSTNode) -> bool:
        """The host node runs only on the NPU (`NpuPaths`: an arm of `if _is_npu:`, the `else`
        of `if not _is_npu:`, a CustomOp's `forward_npu`...)."""
        return node in self._npu_paths.nodes

    @cached_property
    def npu_code(self) -> cst.CSTNode | None:
        """The first statement (in the order written) of the module's host code that runs only on
        the NPU (`on_npu_path`), or None: a module holding one tests for the NPU and keeps its
        Ascend code apart, so the rest of it may run on another platform too (sglang's
        `batch_invariant_ops.py`: `if _is_npu: import torch_npu`, and NPU ops registered in the
        `else` of `if not _is_npu:`)."""
        nodes = self._npu_paths.nodes
        if not nodes:
            return None
        return next(
            (node for node in walk(self.module) if node in nodes and isinstance(node, _STATEMENTS)),
            None,
        )

    @cached_property
    def _npu_paths(self) -> NpuPaths:
        return NpuPaths(self)


# an imported module -> its host facts (`ImportedModule` is one per file content: they go with it)
_IMPORTED_HOSTS: WeakKeyDictionary[ImportedModule, HostIndex | None] = WeakKeyDictionary()


# a module of the package launching kernels of others -> its host facts, read with its imports
_IMPORTER_HOSTS: WeakKeyDictionary[ImportedModule, HostIndex | None] = WeakKeyDictionary()
_MAX_IMPORTERS = 16  # modules read for the launches of one kernel (`launched_elsewhere`)


def _meta_key(node: cst.CSTNode, meta: str) -> str | None:
    """`"BLOCK"` for a grid function's `meta["BLOCK"]` or `meta.get("BLOCK")` (`meta` its
    parameter holding the launch's values)."""
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == meta:
        return subscript_key(node)
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and isinstance(node.func.value, cst.Name)
        and node.func.value.value == meta
        and node.func.attr.value == "get"
        and node.args
        and not (node.args[0].keyword or node.args[0].star)
    ):
        return str_literal(node.args[0].value)
    return None


def _importer_host(module: ImportedModule, path: Path) -> HostIndex | None:
    """The host facts of the module at `path` (another of the package), with the modules it
    imports from; found again only when a file they were read from changed. None when it is no
    valid Python."""
    known = _IMPORTER_HOSTS.get(module)
    if known is not None and known.imported is not None and known.imported.unchanged(dict(known.imported.read)):
        return known
    if known is None and module in _IMPORTER_HOSTS:
        return None
    tree = module.tree
    imported = None if tree is None else ImportedFunctions(path.parent, tree[1], module.triton_modules, {}, path)
    found = None if tree is None or imported is None else HostIndex(tree[0], module.kernels, None, imported)
    _IMPORTER_HOSTS[module] = found
    return found


def _imported_host(module: ImportedModule) -> HostIndex | None:
    """The host facts of a module of the package another module imports from, found once;
    None when it is no valid Python."""
    if module not in _IMPORTED_HOSTS:
        tree = module.tree
        _IMPORTED_HOSTS[module] = None if tree is None else HostIndex(tree[0], module.kernels)
    return _IMPORTED_HOSTS[module]


_TORCH_CHECKS = ("torch._check", "torch._assert")  # raise unless their first argument holds, as `assert` does


def checks_in(
    statements: Sequence[cst.CSTNode], exits: Callable[[cst.BaseSuite], bool]
) -> list[tuple[cst.BaseExpression, bool]]:
    """The tests the statements (`statements_of` some lines) check, each with whether it holds
    past them: an `if` whose body `exits` (its test fails past it) or, the body not, whose `else`
    does (it holds), an `assert` or a call of `torch._check` / `torch._assert` (its test holds:
    `torch._check(n < 65536, lambda: "...")`)."""
    found: list[tuple[cst.BaseExpression, bool]] = []
    for statement in statements:
        if isinstance(statement, cst.If) and exits(statement.body):
            found.append((statement.test, False))
        elif isinstance(statement, cst.Assert) or (
            isinstance(statement, cst.If) and isinstance(statement.orelse, cst.Else) and exits(statement.orelse.body)
        ):
            found.append((statement.test, True))
        elif (
            isinstance(statement, cst.Expr)
            and isinstance(statement.value, cst.Call)
            and dotted_name(statement.value.func) in _TORCH_CHECKS
            and statement.value.args
            and statement.value.args[0].keyword is None
            and not statement.value.args[0].star
        ):
            found.append((statement.value.args[0].value, True))
    return found


def _raises(suite: cst.BaseSuite) -> bool:
    """A suite one of whose own statements is a `raise`."""
    return any(isinstance(statement, cst.Raise) for statement in statements_of(suite_lines(suite)))


def _above_a_literal(test: cst.Comparison, holds: bool) -> bool:
    """Whether all a comparison says where it `holds` (or fails) is that something is above an
    int literal (`n > 1` holding, `n < 16` failing)."""
    if len(test.comparisons) != 1:
        return False
    operator, right = test.comparisons[0].operator, test.comparisons[0].comparator
    if isinstance(operator, (cst.GreaterThan, cst.GreaterThanEqual)):
        lesser = right if holds else test.left
    elif isinstance(operator, (cst.LessThan, cst.LessThanEqual)):
        lesser = test.left if holds else right
    else:
        return False
    return int_literal(lesser) is not None


def _unequal_to_a_literal(test: cst.Comparison, holds: bool) -> bool:
    """Whether all a comparison says where it `holds` (or fails) is that something is not an int
    literal (`n != 0` holding, `n == 0` failing): no cap on it."""
    if len(test.comparisons) != 1:
        return False
    operator, right = test.comparisons[0].operator, test.comparisons[0].comparator
    unequal = isinstance(operator, cst.NotEqual) if holds else isinstance(operator, cst.Equal)
    return unequal and (int_literal(test.left) is not None or int_literal(right) is not None)


def _is_test(value: cst.BaseExpression) -> bool:
    """A comparison, or `and`, `or`, `not` of values: what a name bound to it holds is a truth value."""
    return isinstance(value, (cst.Comparison, cst.BooleanOperation)) or (
        isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Not)
    )


# what `_own_nodes` does not enter, by exact type (a failing `isinstance` of a libcst class is a Python call)
_OWN_SCOPES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})


def _own_nodes(function: cst.FunctionDef | cst.With) -> Iterator[cst.CSTNode]:
    """The nodes of a function's body (a `with` statement's) in source order, not those of the
    functions, classes and lambdas it defines."""
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        yield node
        if type(node) not in _OWN_SCOPES:
            stack.extend(reversed(child_nodes(node)))


def _half_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`n` of `n // 2`, `n / 2` or `n >> 1`, else None."""
    if not isinstance(node, cst.BinaryOperation):
        return None
    if isinstance(node.operator, cst.RightShift):
        halves = int_literal(node.right) == 1
    else:
        halves = isinstance(node.operator, cst.FloorDivide | cst.Divide) and int_literal(node.right) == 2
    return node.left if halves else None


def _count_of_kind(counts: Sequence[CoreCount | None], kind: str) -> CoreCount | None:
    """The first of the counts of `kind`, else the first count."""
    found = [count for count in counts if count is not None]
    return next((count for count in found if count.kind == kind), found[0] if found else None)


def _counts_items(comparison: cst.Comparison, listed: str | None) -> bool:
    """`comparison` orders `len(listed)` against int literals only (`len(grid) < 2`)."""
    operands = [comparison.left, *(c.comparator for c in comparison.comparisons)]
    return listed is not None and all(
        folded_int(operand) is not None
        or (
            isinstance(operand, cst.Call)
            and is_name(operand.func, "len")
            and len(operand.args) == 1
            and is_name(operand.args[0].value, listed)
        )
        for operand in operands
    )


def _appends(use: NameUse) -> bool:
    """The use of a name is the list of an `.append` / `.extend` / `.insert` statement, or the
    one target of an item stored (`grid[1] = v`) (`list_addition`)."""
    call, statement = use.around[1:3] if len(use.around) > 2 else (None, None)
    return (
        isinstance(call, cst.Call | cst.AssignTarget)
        and (call.func if isinstance(call, cst.Call) else call.target) is use.around[0]
        and statement is not None
        and list_addition(statement, use.name.value) is not None
    )


def _is_property(function: cst.FunctionDef) -> bool:
    """A method read as an attribute: `@property`, `@functools.cached_property`."""
    return any(
        dotted_name(d.decorator) in ("property", "cached_property", "functools.cached_property")
        for d in function.decorators
    )


def _is_placeholder(value: cst.BaseExpression) -> bool:
    """A value standing for a count not known yet: `None`, `0`, `-1`."""
    return (isinstance(value, cst.Name) and value.value == "None") or int_literal(value) == 0 or is_minus_one(value)


def _is_context_manager(function: cst.FunctionDef) -> bool:
    """Decorated `@contextlib.contextmanager` / `@contextmanager` (or the async one)."""
    return any(
        (dotted_name(decorator.decorator) or "").rsplit(".", 1)[-1] in ("contextmanager", "asynccontextmanager")
        for decorator in function.decorators
    )


def _before_yield(function: cst.FunctionDef) -> set[cst.CSTNode]:
    """The nodes of a function's body that come before its first `yield`, in source order
    (none when it never yields: no generator)."""
    before: set[cst.CSTNode] = set()
    for node in _own_nodes(function):
        if isinstance(node, cst.Yield):
            return before
        before.add(node)
    return set()


Held = tuple[cst.BaseExpression | None, ...]  # the values `self.X` may hold at a point, None for the class body's


@dataclass(frozen=True)
class InitLine:
    """The statements of a class's one `__init__` (its own, `statements_of`) as they bear on
    `self.X`, run in order, the arms of an `if` as alternatives: the values the stores may
    leave at its end (`end`, on each path reaching it, an early `return` too; none from an arm
    that raises), before the statement of each read (`reads`, by the read's id), before each
    statement calling a method by `self.f(...)` (`calls`, by name; `called`, the ids of those
    `self.f`), and where another method may run (`later`: its end, and before each statement
    reading `self` but as the receiver of an attribute read or stored, ahead of a store: a
    method of it called, `f(self)`, `obj = self`)."""

    init: cst.FunctionDef
    end: Held
    reads: dict[int, Held]
    calls: dict[str, list[Held]]
    called: set[int]
    later: list[Held]

    @staticmethod
    def of(owner: cst.ClassDef, name: str, selves: Callable[[cst.FunctionDef], frozenset[str]]) -> InitLine | None:
        """None when the class has no one `__init__`, or it stores `X` otherwise than by a plain
        `self.X = v` statement of its own or of an `if` arm's (in a loop, a `with` or `try`
        block, a function it defines, an unpacking, an item of it: `self.X[0] = v`). A name
        `__init__` binds only to `self` (`selves`: `obj = self`) is `self` there."""
        inits = [
            statement
            for statement in statements_of(suite_lines(owner.body))
            if isinstance(statement, cst.FunctionDef) and statement.name.value == "__init__"
        ]
        if len(inits) != 1:
            return None
        names = {"self", *selves(inits[0])}
        reader = _InitReader(name, names)
        fallen = reader.block(inits[0].body, (None,))
        stores = [
            node
            for node in walk(inits[0])
            if isinstance(node, cst.AssignTarget | cst.AugAssign | cst.AnnAssign | cst.Del)
            and any(_is_self_attribute(sub, name, names) for sub in walk(node.target))
        ]
        if len(stores) != reader.stores:
            return None
        end = _joined(fallen, *reader.returned)
        later = [end, *(held for held, seen in reader.escapes if seen < reader.stores)]
        return InitLine(inits[0], end, reader.reads, reader.calls, reader.called, later)


class _InitReader:
    """Reads `__init__`'s statements for `InitLine.of`, with the values `self.X` may hold
    before each (None past a `return` or `raise`: no path)."""

    def __init__(self, name: str, selves: set[str]) -> None:
        self.name = name
        self.selves = selves  # `self` and the names bound only to it
        self.stores = 0  # the plain stores read, in the order written
        self.reads: dict[int, Held] = {}
        self.calls: dict[str, list[Held]] = {}
        self.called: set[int] = set()
        self.escapes: list[tuple[Held, int]] = []  # with how many stores come before
        self.returned: list[Held] = []

    def block(self, suite: cst.BaseSuite, held: Held | None) -> Held | None:
        for statement in statements_of(suite_lines(suite)):
            if held is None:
                break
            held = self.statement(statement, held)
        return held

    def statement(self, statement: cst.CSTNode, held: Held) -> Held | None:
        if isinstance(statement, cst.If):
            self.note(statement.test, held)
            orelse = statement.orelse
            if isinstance(orelse, cst.If):
                other = self.statement(orelse, held)
            else:
                other = held if orelse is None else self.block(orelse.body, held)
            return _joined(self.block(statement.body, held), other)
        self.note(statement, held)
        if isinstance(statement, cst.Return):
            self.returned.append(held)
        if isinstance(statement, cst.Return | cst.Raise):
            return None
        target = (
            statement.targets[0].target if isinstance(statement, cst.Assign) and len(statement.targets) == 1 else None
        )
        if target is not None and _is_self_attribute(target, self.name, self.selves):
            self.stores += 1
            return (cst.ensure_type(statement, cst.Assign).value,)
        return held

    def note(self, node: cst.CSTNode, held: Held) -> None:
        """The reads of `self.X`, the calls `self.f(...)` and the other uses of `self` in `node`
        (a statement, or an `if`'s test), with what `self.X` holds before it."""
        target = node.targets[0].target if isinstance(node, cst.Assign) and len(node.targets) == 1 else None
        if (
            isinstance(node, cst.Assign)
            and is_name(node.value, "self")
            and all(isinstance(each.target, cst.Name) and each.target.value in self.selves for each in node.targets)
        ):
            return  # `obj = self`: another name for it
        nodes = list(walk(node))
        called = {id(sub.func) for sub in nodes if isinstance(sub, cst.Call)}
        receivers = set()  # the `self` of each `self.Y` read or stored, not called
        for sub in nodes:
            if sub is not target and _is_self_attribute(sub, self.name, self.selves):
                self.reads[id(sub)] = held
            if isinstance(sub, cst.Attribute) and type(sub.value) is cst.Name and sub.value.value in self.selves:
                if id(sub) not in called:
                    receivers.add(id(sub.value))
                else:
                    self.calls.setdefault(sub.attr.value, []).append(held)
                    self.called.add(id(sub))
        if any(type(sub) is cst.Name and sub.value in self.selves and id(sub) not in receivers for sub in nodes):
            self.escapes.append((held, self.stores))


def _joined(*paths: Held | None) -> Held:
    """The values held on any of the paths (None: no path), each once, in order."""
    found: dict[int, cst.BaseExpression | None] = {}
    for held in paths:
        for value in held or ():
            found.setdefault(id(value), value)
    return tuple(found.values())


def _is_self_attribute(node: cst.CSTNode, name: str, selves: AbstractSet[str]) -> bool:
    """`node` is `self.X` for `name` X (or `obj.X` of a name `obj` of `selves`)."""
    return (
        isinstance(node, cst.Attribute)
        and node.attr.value == name
        and isinstance(node.value, cst.Name)
        and node.value.value in selves
    )


def _class_body_values(owner: cst.ClassDef, name: str) -> list[cst.BaseExpression]:
    """The values the statements of a class body (not under an `if`) bind to `name`: `LAUNCH =
    {"num_warps": 4}`, `LAUNCH: dict = {...}`."""
    found: list[cst.BaseExpression] = []
    for statement in statements_of(suite_lines(owner.body)):
        if isinstance(statement, cst.Assign):
            targets = [target.target for target in statement.targets]
        elif isinstance(statement, cst.AnnAssign) and statement.value is not None:
            targets = [statement.target]
        else:
            continue
        if statement.value is not None and any(isinstance(t, cst.Name) and t.value == name for t in targets):
            found.append(statement.value)
    return found


def _got(name: cst.Name, around: Sequence[cst.CSTNode]) -> cst.Call | None:
    """The call `name.get(key)` / `name.get(key, default)` (`entry_got`) the name (with the
    nodes `around` it) is the table of, or None."""
    attribute, call = (around[0], around[1]) if len(around) > 1 else (None, None)
    if isinstance(attribute, cst.Attribute) and attribute.value is name and isinstance(call, cst.Call):
        return call if call.func is attribute and entry_got(call) is not None else None
    return None


def _entry_taken(entry: cst.BaseExpression, around: Sequence[cst.CSTNode]) -> bool:
    """Whether the use of a table's entry `entry` (`_CFG[key]`, with the nodes `around` it,
    innermost first) is one whose reads `keys_read` sees, or no read: a store (`_CFG["huge"] =
    {...}`, `del _CFG[key]`, `_CFG[key]["BLOCK"] = 64`), the entry bound to names (`cfg =
    _CFG[key]`, also a copy: `dict(_CFG[key])`, `_CFG[key].copy()`), splatted (`**_CFG[key]`),
    or a literal key read out of it (`_CFG[key]["BLOCK"]`, `_CFG[key].get("BLOCK")`). Not an
    entry iterated, passed, unpacked or read by a key that is no literal."""
    outer = around[0] if around else None
    if isinstance(outer, cst.AssignTarget | cst.Del):
        return True
    if isinstance(outer, cst.Subscript) and outer.value is entry:
        return key_read(entry, around) is not None or (len(around) > 1 and isinstance(around[1], cst.AssignTarget))
    if isinstance(outer, cst.Attribute) and outer.value is entry and outer.attr.value in ("get", "pop"):
        return key_read(entry, around) is not None
    if isinstance(outer, cst.Arg) and outer.value is entry and outer.star == "**":
        return True
    held: cst.CSTNode = entry
    rest = list(around)
    if isinstance(outer, cst.Arg) and outer.value is entry and not outer.star and outer.keyword is None:
        call = around[1] if len(around) > 1 else None  # `dict(_CFG[key])`
        if not (isinstance(call, cst.Call) and is_dict_call(call) and len(call.args) == 1):
            return False
        held, rest = call, list(around[2:])
    elif isinstance(outer, cst.Attribute) and outer.attr.value == "copy" and len(around) > 1:
        call = around[1]  # `_CFG[key].copy()`
        if not (isinstance(call, cst.Call) and call.func is outer and copied_dict(call) is entry):
            return False
        held, rest = call, list(around[2:])
    elif isinstance(outer, cst.Attribute) and outer.attr.value == "items" and len(around) > 3:
        comprehension = around[3]  # `{k: v for k, v in _CFG[key].items()}`
        if not (isinstance(comprehension, cst.DictComp) and items_copied(comprehension) is entry):
            return False
        held, rest = comprehension, list(around[4:])
        splat = rest[0] if rest else None
        if isinstance(splat, cst.Arg):
            return splat.star == "**" and splat.value is comprehension  # `**{k: v for ...}`
    bound = rest[0] if rest else None
    return (
        isinstance(bound, cst.Assign)
        and bound.value is held
        and all(isinstance(target.target, cst.Name) for target in bound.targets)
    )


def _kept_in_hand(use: NameUse) -> bool:
    """The use of a function's name calls it (`f(...)`), reads an attribute of it
    (`f.__name__`), compares it (`g is f`) or asks `callable(f)`: it hands the function to no
    one who could call it."""
    parent = use.around[0]
    if isinstance(parent, cst.Call | cst.Attribute):
        return (parent.func if isinstance(parent, cst.Call) else parent.value) is use.name
    if isinstance(parent, cst.Comparison | cst.ComparisonTarget):
        return True
    outer = use.around[1] if len(use.around) > 1 else None
    return isinstance(parent, cst.Arg) and isinstance(outer, cst.Call) and dotted_name(outer.func) == "callable"


def _first(entry: tuple[int, object]) -> int:
    """The place of an entry of `_PlacedChecks`."""
    return entry[0]
