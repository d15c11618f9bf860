"""Host code that runs only on another platform than Ascend (`OtherPlatformPaths`: CUDA/ROCm
platform tests, failing NPU tests, early exits, CustomOp methods of other platforms), and the
same path walk with NPU tests holding (`NpuPaths`, a default-targeting signal read by
`npu_paths`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar

import libcst as cst

from ..imports import dotted_name, statement_blocks, str_literal
from ..nodes import (
    ORIGIN_HOPS,
    arms_around,
    child_nodes,
    names_read,
    never_falls_through,
    statements_of,
    suite_lines,
    variables_read,
    walk,
    walk_with_inner_variables,
)
from .bindings import binders_by_name
from .params import first_param, param_named
from .records import NameUse, Scope

if TYPE_CHECKING:
    from .index import HostIndex

_Key = TypeVar("_Key")  # what an answer about a module function is kept by (`_answered`)
_NPU_AVAILABLE = "torch.npu.is_available"
# the NPU's torch module: `torch_npu is not None` after `except ImportError: torch_npu = None`
# is `if torch_npu:`, an NPU test (`_names_npu`)
_NPU_MODULE = "torch_npu"

# vLLM's `CustomOp.dispatch_forward` (and vllm-omni's and sglang's) calls the method of the
# platform it runs on: `forward_oot` (vLLM) or `forward_npu` (vllm-omni, sglang) on Ascend,
# whose defaults call `forward_native`. These others run on Ascend only when called by name.
OTHER_PLATFORM_METHODS = frozenset(
    {"forward_cuda", "forward_hip", "forward_xpu", "forward_cpu", "forward_tpu", "forward_musa"}
)
# Platform object tests false on Ascend (vllm-ascend's platform is the out-of-tree "npu" one).
_OTHER_PLATFORM_TESTS = frozenset({"is_cuda", "is_rocm", "is_cuda_alike"})
# the runtime versions of a torch built for another platform: None in the CPU build torch_npu
# runs on (`transfer_to_npu` leaves `torch.version` alone), set in a CUDA or ROCm build
_OTHER_TORCH_BUILDS = frozenset({"torch.version.cuda", "torch.version.hip"})

# The words that name another vendor's GPU, its runtime or one of its architectures in a
# predicate (`is_hopper()`, `utils.is_hip()`) or a flag (`IS_NVIDIA_HOPPER`, `_is_cuda`,
# `get_platform().is_sm100`): `_named_for_other`. A test so named holds only there, whatever
# module it comes from (`from utils import is_hopper, is_ampere` choosing NVIDIA configs, the
# NPU's in the `else`); the NPU's runtime answers none of them.
_OTHER_PLATFORM_WORDS = frozenset(
    {
        # NVIDIA: vendor and runtime (sglang's `is_cuda()` is `torch.cuda.is_available() and
        # torch.version.cuda is not None`, None with torch_npu), and its GPU architectures;
        # `sm90`, `sm100`... are `_ARCHITECTURE`
        "nvidia", "cuda", "volta", "turing", "ampere", "ada", "lovelace", "hopper", "blackwell",
        # AMD: vendor, runtime (`is_hip()`: `torch.version.hip is not None`; Triton's backend
        # "hip"), ROCm; `gfx942`, `cdna3` are `_ARCHITECTURE`
        "amd", "hip", "rocm",
        # other accelerators torch and Triton run on: Intel GPUs (`xpu`), Cambricon (`mlu`),
        # Moore Threads (`musa`), Apple (`mps`), Gaudi (`hpu`), TPUs
        "intel", "xpu", "mlu", "musa", "mps", "hpu", "tpu",
    }
)  # fmt: skip
_ARCHITECTURE = re.compile(r"sm\d+[a-z]?|gfx\d+\w*|cdna\d*")
# a GPU model or product line, as a word of a key (`_GPU = {"A100": {...}, "H100": {...}}`,
# `"mi300x"`, `"rtx4090"`): NVIDIA data-center parts (A10/A30/A40/A100/A800/A6000, H20/H100/
# H200/H800, L20/L40(S), V100, P100, B100/B200, GB200/GH200), AMD Instinct (MI100... MI325X),
# and the consumer lines. Not `a2` / `a3` (Ascend's Atlas A2 and A3), nor one-digit parts (`t4`,
# `l4`) a plain key may be. Only `names_other_platform` reads them: a key, not a predicate.
_GPU_MODEL = re.compile(
    r"a(?:10|30|40|100|800|6000)g?|h(?:20|100|200|800)|l(?:20|40)s?|[vp]100|g[bh]200|b[12]00"
    r"|mi\d{2,3}[a-z]?|rtx\d*|gtx\d*|geforce|quadro|tesla|radeon"
)
# the other words such a name may hold (`is_cuda_alike`, `is_sm100_or_newer`, `is_gfx95_supported`,
# `is_hopper_with_cuda_12_3`); not `available` (`is_cuda_available()` may be
# `torch.cuda.is_available()`, which answers for the NPU), nor `graph` (`is_cuda_graph_enabled`)
_PREDICATE_WORDS = frozenset({"alike", "supported", "gpu", "arch", "device", "platform", "or", "and", "with", "newer"})


class OtherPlatformPaths:
    """Where the module's host code runs only on another platform than Ascend.

    A test requires another platform when it holds (or fails) only there: `x.device.type ==
    "cuda"` (also of a name bound to device types only, `dev = x.device.type`, and of Triton's
    backend, `triton.runtime.driver.active.get_current_target().backend == "cuda"`),
    `str(x.device) == "cpu"`, `"cuda" in str(x.device)`, `str(x.device).startswith("cuda")`
    (`"cuda"` only for a tensor's device, not `self.device` nor a name `device`, which may hold
    text `transfer_to_npu` maps), `x.is_cpu`, `torch.version.hip` / `torch.version.cuda` set
    (None in the NPU's CPU build of torch), `current_platform.is_cuda()` / `is_rocm()` / `is_cuda_alike()` (any receiver
    named `...platform`), the failing of an NPU test (`IS_NPU`, `is_npu()`, `x.is_npu`,
    `x.device.type == "npu"`, `x.device.type.startswith("npu")`), a name the module compares with `"npu"` too holding another
    name (`BACKEND == "cuda"`: `_names_other_backend`), `not`, a conjunct of a holding `and` (both of a failing one),
    a disjunct of a failing `or` (both of a holding one), a name every value bound to which
    is such a test, a call of a predicate of the module every truthy return of which is on
    such a path, the same of a predicate or a flag the module imports from another module of
    the package, read there (`_definition`: one hop), and a predicate or flag named for
    another vendor's GPU (`_named_for_other`: `is_hopper()`, `utils.is_hip()`,
    `IS_NVIDIA_HOPPER`, `get_platform().is_sm100`) unless a value bound to it names an NPU
    test: then that value decides, whatever the name (`is_cuda = x.device.type in ("cuda",
    "npu")` and `is_cuda = x.is_cuda and n > 0` hold on the NPU), and a value naming none
    leaves the name to decide (`is_rocm = torch.version.hip is not None`; `IS_INTEL =
    device_platform == "xpu"` holds only there by its value too), and
    a predicate so named whose definition, where on hand, returns a test answering for the NPU
    is not taken at its name. Not `x.is_cuda` nor `torch.cuda.is_available()`: torch_npu's
    `transfer_to_npu` makes them answer for the NPU. Nor a comparison of
    `torch.cuda.get_device_capability()`: torch_npu's returns None (`[0]` or `>=` raises)
    and adapters make one up (`(8, 0)`), so it says nothing of where code runs; a predicate
    so defined and named for an architecture (`is_hopper`) is taken at its name.

    On such a path, in functions and at module level: an arm of an `if` or of a conditional
    expression (`a if test else b`) requiring it, a case of a `match` whose string literals, or
    the failing of those of the unguarded cases before it, require it (`_case_tests`), the statements after an `if` whose body
    exits (`return`, `raise`, `continue`, `break`) when its test fails only there, after an
    `assert` of such a test or a call of a function of the module raising unless on such a
    path before it can return (`_asserting`), a function
    defined on such a path, a method `OTHER_PLATFORM_METHODS` names that the module never
    refers to otherwise, a private function (`_name`, undecorated) only ever called, by
    the module, on such paths, and the value of a private module-level name read only there
    (`_read_only_there`)."""

    def __init__(self, host: HostIndex) -> None:
        self.host = host
        self._functions: dict[cst.FunctionDef, bool] = {}
        self._positions: dict[cst.FunctionDef, set[cst.CSTNode]] = {}
        self._predicates: dict[tuple[str, bool, bool], bool] = {}
        self._assertions: dict[str, bool] = {}  # `_asserting`
        self._imported_paths: dict[HostIndex, OtherPlatformPaths] = {}  # `_definition`, by module
        # by id, the names the tests of conditional expressions read that are variables of a
        # comprehension or lambda around them (`_visit_conditional_expressions`): no binding of
        # a function or of the module holds their values
        self._inner_variables: set[int] = set()

    @cached_property
    def nodes(self) -> set[cst.CSTNode]:
        """Every host node on such a path."""
        found: set[cst.CSTNode] = set()
        self._visit(self.host.module.body, False, None, found)
        for functions in self.host.functions.values():
            for function in functions:
                if self.is_other_platform_function(function):
                    found.update(walk(function))
                else:
                    found |= self.positions(function)
        for _, values in self._read_only_there(found, private=True):
            for value in values:
                found.update(walk(value))
        return found

    @cached_property
    def public_values_read_only_there(self) -> dict[cst.CSTNode, cst.Name]:
        """Each node of the values bound to the module's public names that host code reads only
        on such paths, with the first read: `CUDA_CONFIGS` read only in `CUDA_CONFIGS if not
        is_npu else NPU_CONFIGS`. Not on such a path (`nodes`): another module may import
        the name and run it on Ascend."""
        found: dict[cst.CSTNode, cst.Name] = {}
        for read, values in self._read_only_there(self.nodes, private=False):
            found.update((node, read) for value in values for node in walk(value))
        return found

    def _read_only_there(
        self, found: set[cst.CSTNode], private: bool
    ) -> list[tuple[cst.Name, list[cst.BaseExpression]]]:
        """The values bound to the module's private (or public, not `private`) names that host
        code reads, only on such paths (in `found`), each name with its first read:
        `_CUDA_CONFIGS = [...]` read only in `_NPU_CONFIGS if is_npu() else _CUDA_CONFIGS`.
        Only those paths of the module use what they hold."""
        read_there: list[tuple[cst.Name, list[cst.BaseExpression]]] = []
        in_functions = {name for name, scope in self.host.bindings if scope is not None}  # `global`, or a local
        for (name, scope), bound in self.host.bindings.items():
            if scope is not None or _is_private(name) != private or name in self.host.functions or name in in_functions:
                continue
            references = self._references.get(name, [])
            if references and all(reference in found for reference in references):
                read_there.append((references[0], bound))
        return read_there

    @cached_property
    def overridden(self) -> set[cst.CSTNode]:
        """The assignments whose value never reaches past a later `if` of their block that
        rebinds the name on Ascend (in its arm that runs whenever the NPU runs it, `_ascend_arm`)
        before any statement reads the name: `BLOCK = 131072` then `if x.device.type == "npu":
        BLOCK = 1024` (or `if not IS_NPU: ...` / `else: BLOCK = 1024`) binds 1024 there."""
        found: set[cst.CSTNode] = set()
        self._find_overridden(self.host.module.body, None, found)
        for functions in self.host.functions.values():
            for function in functions:
                self._find_overridden(suite_lines(function.body), function, found)
        return found

    def _find_overridden(self, lines: Sequence[cst.CSTNode], scope: Scope, found: set[cst.CSTNode]) -> None:
        """One backward pass over a block: `pending` holds the names whose next event after the
        statement at hand is a rebinding on Ascend (an `if`'s `_ascend_arm`), not a read."""
        pending: set[str] = set()
        for statement in reversed(statements_of(lines)):
            if isinstance(statement, cst.BaseSmallStatement):
                if not pending.isdisjoint(binders_by_name(statement)):
                    found.add(statement)
            elif not isinstance(statement, cst.FunctionDef | cst.ClassDef):
                for block in statement_blocks(statement):
                    self._find_overridden(block, scope, found)
            if pending:
                pending -= names_read(statement)
            if isinstance(statement, cst.If):
                pending |= {name for small in self._ascend_arm(statement, scope) for name in binders_by_name(small)}

    def _ascend_arm(self, statement: cst.If, scope: Scope) -> list[cst.BaseSmallStatement]:
        """The small statements at the top of the arm of an `if` (or of its `elif`s) that the NPU
        runs whenever it runs the `if`: the body when the test fails only on another platform,
        the `else` when it holds only there; none otherwise."""
        if self.requires_other(statement.test, False, scope):
            arm: Sequence[cst.CSTNode] = suite_lines(statement.body)
        elif not self.requires_other(statement.test, True, scope) or statement.orelse is None:
            return []
        elif isinstance(statement.orelse, cst.If):
            return self._ascend_arm(statement.orelse, scope)
        else:
            arm = suite_lines(statement.orelse.body)
        return [small for small in statements_of(arm) if isinstance(small, cst.BaseSmallStatement)]

    def is_other_platform_function(self, function: cst.FunctionDef) -> bool:
        """Every run of the function is on another platform."""
        known = self._functions.get(function)
        if known is not None:
            return known
        self._functions[function] = False  # a function calling itself is no evidence
        outer = self.host.enclosing.get(function)
        if outer is not None:
            defined_there = function in self.positions(outer) or self.is_other_platform_function(outer)
        else:
            arms = arms_around(function, self.host.defined_under.get(function, ()))
            defined_there = any(self.requires_other(test, holds, None) for test, holds in arms)
        found = defined_there or self._dispatched_elsewhere(function) or self._called_only_elsewhere(function)
        self._functions[function] = found
        return found

    def positions(self, function: cst.FunctionDef) -> set[cst.CSTNode]:
        """The nodes of the function (not of the functions nested in it) on such a path there."""
        found = self._positions.get(function)
        if found is None:
            found = self._positions[function] = set()
            self._visit(suite_lines(function.body), False, function, found)
        return found

    def _visit(self, lines: Sequence[cst.CSTNode], other: bool, scope: Scope, found: set[cst.CSTNode]) -> None:
        """Statements in order (`statements_of` the lines): `other` when already on such a path."""
        for statement in statements_of(lines):
            other = other and not self._leaves_path(statement)
            if other:
                found.update(walk(statement))
                continue
            self._visit_conditional_expressions(statement, scope, found)
            if isinstance(statement, cst.If):
                self._visit(suite_lines(statement.body), self.requires_other(statement.test, True, scope), scope, found)
                orelse = statement.orelse
                if orelse is not None:
                    inner = [orelse] if isinstance(orelse, cst.If) else suite_lines(orelse.body)
                    self._visit(inner, self.requires_other(statement.test, False, scope), scope, found)
                other = self._other_after(statement, scope)
            elif isinstance(statement, cst.BaseSmallStatement):
                other = self._asserts(statement, scope)
            elif isinstance(statement, cst.Match):
                for case, tests in _case_tests(statement):
                    there = any(self.requires_other(test, holds, scope) for test, holds in tests)
                    self._visit(suite_lines(case.body), there, scope, found)
            elif not isinstance(statement, cst.FunctionDef | cst.ClassDef):
                for block in statement_blocks(statement):
                    self._visit(block, False, scope, found)

    def _leaves_path(self, statement: cst.CSTNode) -> bool:
        """What runs from the statement on is on the NPU too: it moves a tensor there
        (`_moves_to_npu`: `x = x.to("npu")` under `if x.device.type == "cpu":`)."""
        return any(type(node) is cst.Call and _moves_to_npu(node) for node in walk(statement))

    def _visit_conditional_expressions(self, statement: cst.CSTNode, scope: Scope, found: set[cst.CSTNode]) -> None:
        """The arms of the conditional expressions (`a if test else b`) of a small statement, or
        of the header of a compound one (an `if`'s test, a `for`'s iterable..., the decorators of a
        `def` or `class`), that require such a path."""
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            header: list[cst.CSTNode] = list(statement.decorators)  # run where the statement is
        elif isinstance(statement, cst.BaseSmallStatement):
            header = [statement]
        else:
            header = [c for c in child_nodes(statement) if isinstance(c, _HEADER_PARTS)]
        for part in header:
            for node, variables in walk_with_inner_variables(part):
                if type(node) is cst.IfExp:  # not `isinstance`: see `name_uses`
                    if variables:
                        read = variables_read(node.test)
                        self._inner_variables.update(id(name) for name in read if name.value in variables)
                    for arm, holds in ((node.body, True), (node.orelse, False)):
                        if self.requires_other(node.test, holds, scope):
                            found.update(walk(arm))

    def _other_after(self, statement: cst.If, scope: Scope) -> bool:
        """The statements after the `if` run only on another platform: its body exits and its
        test fails only there (or so does an `elif`'s), or its `else` exits and the test holds
        only there."""
        orelse = statement.orelse
        if never_falls_through(statement.body):
            if self.requires_other(statement.test, False, scope):
                return True
            return isinstance(orelse, cst.If) and self._other_after(orelse, scope)
        return (
            isinstance(orelse, cst.Else)
            and never_falls_through(orelse.body)
            and self.requires_other(statement.test, True, scope)
        )

    def _asserts(self, small: cst.BaseSmallStatement, scope: Scope) -> bool:
        """Only such a path runs after the statement: `assert test` with the test holding only
        there, or a call (its result used or not) of a function of the module that raises
        unless on such a path before it can return (`_check_npu(x)` doing `if x.device.type !=
        "npu": raise ...`: `_asserting`)."""
        if isinstance(small, cst.Assert):
            return self.requires_other(small.test, True, scope)
        value = small.value if isinstance(small, cst.Expr | cst.Assign | cst.AnnAssign) else None
        return isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and self._asserting(value.func.value)

    def _asserting(self, name: str) -> bool:
        """The module's one top-level function `name` reaches, before any `return`, a statement
        after which only such a path runs (an `if` that raises off it, an `assert`, a call of
        another such function): every call of it that returns was on such a path."""

        def asserting(function: cst.FunctionDef) -> bool:
            for statement in statements_of(suite_lines(function.body)):
                if any(type(node) is cst.Return for node in walk(statement)):
                    return False  # returns off the path (`if x.device.type != "npu": return False`)
                if isinstance(statement, cst.If) and self._other_after(statement, function):
                    return True
                if isinstance(statement, cst.BaseSmallStatement) and self._asserts(statement, function):
                    return True
            return False

        return self._answered(self._assertions, name, name, asserting)

    def _answered(
        self, answers: dict[_Key, bool], key: _Key, name: str, answer: Callable[[cst.FunctionDef], bool]
    ) -> bool:
        """`answer` for the module's one function `name`, worked out once per `key` (kept in
        `answers`); False when there is no such function, and while it is worked out (a
        function calling itself is no evidence)."""
        known = answers.get(key)
        if known is None:
            answers[key] = False
            function = self._module_function(name)
            known = answers[key] = function is not None and answer(function)
        return known

    def requires_other(self, test: cst.BaseExpression, holds: bool, scope: Scope, hops: int = 0) -> bool:
        """The test holding (failing, `holds=False`) requires another platform than Ascend."""
        if hops > ORIGIN_HOPS or id(test) in self._inner_variables:
            return False
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self.requires_other(test.expression, not holds, scope, hops)
        if isinstance(test, cst.BooleanOperation):
            sides = [self.requires_other(side, holds, scope, hops) for side in (test.left, test.right)]
            spread = isinstance(test.operator, cst.And) == holds  # each side must hold (fail) too
            return any(sides) if spread else all(sides)  # else either side may: both must say so
        if isinstance(test, cst.Comparison):
            tested = _tested_for_none(test)
            if tested is None:
                return self._compares_platform(test, holds, scope)
            operand, says_set = tested
            if dotted_name(operand) == _NPU_MODULE:  # `None` where its import failed
                return self.requires_other(operand, says_set == holds, scope, hops)
            return says_set == holds and self._set_only_elsewhere(operand, scope, hops)
        if self._names_npu_flag(test, scope):
            return not holds
        if isinstance(test, cst.Call):
            return self._call_requires_other(test, holds, scope, hops)
        if isinstance(test, cst.Name):
            values, where = self._bound_values(test.value, scope)
            if values and all(self.requires_other(value, holds, where, hops + 1) for value in values):
                return True
        if isinstance(test, cst.Name | cst.Attribute) and holds:
            return self._flag_elsewhere(test, scope, hops)
        return False

    def _names_npu_flag(self, test: cst.BaseExpression, scope: Scope) -> bool:
        """A flag or test named for the NPU (`_names_npu`); a name `npu` alone (`_NPU`, `npu`) or
        `torch_npu` only where every value bound to it is a flag's (`_is_flag_value`: `_NPU =
        False` under `except ImportError:`), not a loop's item, a counter, a parameter, nor
        another test (`npu = x.device.type == "cuda"`, read by its value). Nor a name a
        comprehension or lambda binds (`_inner_variables`), whatever the module binds."""
        if not _names_npu(test) or id(test) in self._inner_variables:
            return False
        if not isinstance(test, cst.Name) or not _named_npu_alone(test):
            return True
        values, _ = self._bound_values(test.value, scope)
        return bool(values) and all(map(_is_flag_value, values))

    def _compares_platform(self, test: cst.Comparison, holds: bool, scope: Scope) -> bool:
        """A device type or backend name said to be another platform's, a tensor's device or
        its text said to be another place (`_compares_device`: `str(x.device) == "cpu"`), or an
        NPU comparison failing (`_compares_npu_type`: `device != "npu"`, `"npu" not in
        str(x.device)`)."""
        return (
            _compares_device_type(test, holds, lambda node: self._holds_device_type(node, scope, 0))
            or _compares_device(test, holds)
            or _compares_npu_type(test, not holds)
            or self._names_other_backend(test, holds, scope)
        )

    def _holds_device_type(self, node: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        """A device type (`_is_device_type`: `x.device.type`, Triton's backend), or a name every
        value bound to which where `scope` reads it is one (`dev = x.device.type`; not a
        parameter), or a conditional expression both arms of which are."""
        if _is_device_type(node):
            return True
        if hops > ORIGIN_HOPS:
            return False
        if isinstance(node, cst.IfExp):
            return all(self._holds_device_type(arm, scope, hops + 1) for arm in (node.body, node.orelse))
        if not isinstance(node, cst.Name) or id(node) in self._inner_variables:
            return False
        values, where = self._bound_values(node.value, scope)
        return bool(values) and all(self._holds_device_type(value, where, hops + 1) for value in values)

    def _names_other_backend(self, test: cst.Comparison, holds: bool, scope: Scope) -> bool:
        """`BACKEND == "cuda"` holding (`BACKEND in ("cuda", "cpu")`, `not in` failing) where
        the module compares the same `BACKEND` with `"npu"` too: a name it keeps for the
        platform (FlagGems' `if BACKEND == "npu": ...` then `if BACKEND == "cuda": ...`), so
        another platform's name in it (`_OTHER_PLATFORM_NAMES`) says the platform is not the
        NPU. Not any other value: `ATTN_BACKEND == "triton"` beside `ATTN_BACKEND == "npu"`
        picks an implementation, which may run on the NPU."""
        compared = _compared_with_literals(test)
        if compared is None:
            return False
        name, literals, member = compared
        return (
            member == holds
            and bool(literals)
            and literals <= _OTHER_PLATFORM_NAMES
            and (name.value, self.host._binding_scope(name.value, scope)) in self._platform_names
        )

    @cached_property
    def _platform_names(self) -> frozenset[tuple[str, Scope]]:
        """The names host code compares with `"npu"` (`BACKEND != "npu"`, `"npu" == device`),
        with the function binding each (`NameUse.owner`)."""
        return frozenset(
            (name, use.owner)
            for name, uses in self.host.name_uses.items()
            for use in uses
            if (compared := _compared_with_literals(_comparison_of(use))) is not None
            and compared[0] is use.name
            and "npu" in compared[1]
        )

    def _set_only_elsewhere(self, value: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        """The value is not None only on another platform: `torch.version.hip` / `.cuda`
        (`_built_elsewhere`), a call of a helper of the module every non-None return of which is
        on such a path, or a name bound only to such calls."""
        if hops > ORIGIN_HOPS:
            return False
        if self._built_elsewhere(value):
            return True
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            return self._is_predicate(value.func.value, hops, tested_for_none=True)
        if isinstance(value, cst.Name):
            values, where = self._bound_values(value.value, scope)
            return bool(values) and all(self._set_only_elsewhere(bound, where, hops + 1) for bound in values)
        return False

    def _bound_values(self, name: str, scope: Scope) -> tuple[list[cst.BaseExpression], Scope]:
        """The values bound to the name where `scope` reads it (none for a parameter), and where."""
        where = self.host._binding_scope(name, scope)
        if where is not None and param_named(where, name) is not None:
            return [], where
        return self.host.bindings.get((name, where), []), where

    def _call_requires_other(self, call: cst.Call, holds: bool, scope: Scope, hops: int) -> bool:
        """`current_platform.is_cuda()`, an NPU test failing (`_tests_npu`: `is_npu()`,
        `torch.npu.is_available()`), a predicate of the module holding or failing only there
        (`_is_predicate`: `def on_device(): return hasattr(torch, "npu")` failing), one of
        another module of the package holding (`_imported_predicate`), or one named for another
        platform (`_named_predicate`)."""
        func = call.func
        if _tests_npu(call):
            return not holds
        if isinstance(func, cst.Name) and self._is_predicate(func.value, hops, holds=holds):
            return True
        if not holds:
            return False
        if isinstance(func, cst.Attribute) and func.attr.value in _OTHER_PLATFORM_TESTS and not call.args:
            return _is_platform(func.value) or self._named_predicate(call, scope)
        if _starts_with_other(call):
            return True
        return self._imported_predicate(func, scope, hops) or self._named_predicate(call, scope)

    def _imported_predicate(self, func: cst.BaseExpression, scope: Scope, hops: int) -> bool:
        """`f()` / `utils.f()` with `f` a predicate (`_is_predicate`) of the module of the
        package it is imported from, read from disk (`HostIndex.imported_definition`)."""
        found = self._definition(func, scope)
        return found is not None and found[0]._is_predicate(found[1], hops + 1)

    def _definition(self, reference: cst.BaseExpression, scope: Scope) -> tuple[OtherPlatformPaths, str] | None:
        """These paths in the module of the package a name of host code is imported from (it
        imports from no further), and the name there."""
        name = (dotted_name(reference) or "").rsplit(".", 1)[-1]
        found = self.host.imported_definition(reference, scope, (name,)) if name else None
        if found is None:
            return None
        host, _, there = found
        paths = self._imported_paths.get(host)
        if paths is None:
            paths = self._imported_paths[host] = type(self)(host)
        return paths, there

    def _named_predicate(self, call: cst.Call, scope: Scope) -> bool:
        """`is_hopper()`, `utils.is_hip()`, `platform.is_sm90()`: a call, without arguments,
        of a predicate named for another platform (`_named_for_other`) that the function does
        not bind, unless its definition, where on hand (the module's, or that of the module
        of the package it is imported from), returns a test answering for the NPU
        (`_answers_for_npu`: `def is_cuda(): return torch.cuda.is_available()`)."""
        func = call.func
        if call.args or not _named_for_other(func) or not self._read_from_outside(func, scope):
            return False
        name = func.value if isinstance(func, cst.Name) else None
        if name is not None and self._module_function(name) is not None:
            returned = [value for value, _ in self.host.returns.get(name, ())]
        else:
            found = self._definition(func, scope)
            returned = [] if found is None else [value for value, _ in found[0].host.returns.get(found[1], ())]
        return not any(map(_answers_for_npu, returned))

    def _flag_elsewhere(self, flag: cst.Name | cst.Attribute, scope: Scope, hops: int) -> bool:
        """A flag imported from a module of the package bound there to such a test
        (`_definition`), or named for another platform (`_named_for_other`: `IS_NVIDIA_HOPPER`,
        `_is_hip`, `utils.IS_AMD`, `get_platform().is_sm100`) that is no parameter, unless a
        value bound to it in the module (or in the module of the package it is imported from)
        may answer for the NPU (`_may_answer_for_npu`): then its value decides
        (`requires_other`), whatever its name (`is_cuda = x.device.type in ("cuda", "npu")`,
        `is_cuda = x.is_cuda and n > 0`, `_is_cuda = torch.cuda.is_available()` hold on the
        NPU). A value naming no NPU test (`torch.version.hip is not None`, `IS_NVIDIA =
        device_platform == "cuda"`) leaves the name to decide. And a tensor's `x.is_cpu`."""
        if (isinstance(flag, cst.Attribute) and flag.attr.value == "is_cpu") or self._built_elsewhere(flag):
            return True
        if not self._read_from_outside(flag, scope):
            return False
        found = self._definition(flag, scope) if isinstance(flag, cst.Name) or _is_module_attribute(flag) else None
        if found is not None and found[0].requires_other(cst.Name(found[1]), True, None, hops + 1):
            return True
        if not _named_for_other(flag):
            return False
        values = self._bound_values(flag.value, scope)[0] if isinstance(flag, cst.Name) else []
        if found is not None:
            values = [*values, *found[0].host.bindings.get((found[1], None), [])]
        # the name decides unless a value may answer for the NPU, which `requires_other` then read
        # (`torch.version.hip is not None`, `backend == "cuda"` are tests it cannot read)
        return not any(_may_answer_for_npu(value) for value in values)

    def _built_elsewhere(self, value: cst.BaseExpression) -> bool:
        """`torch.version.hip`, `torch.version.cuda`: set only in a torch built for another
        platform (`_OTHER_TORCH_BUILDS`), None in the NPU's."""
        return dotted_name(value) in _OTHER_TORCH_BUILDS

    def _read_from_outside(self, node: cst.BaseExpression, scope: Scope) -> bool:
        """What a name of another platform's test may be: a name no parameter holds (`_is_hip`,
        an import), an attribute of a platform object (`current_platform.is_hip`,
        `get_platform().is_sm100`) or of an imported module (`utils.is_hopper`), not of
        `torch` (whose `x.is_cuda` / `torch.cuda` answer for the NPU under `transfer_to_npu`)."""
        if isinstance(node, cst.Name):
            where = self.host._binding_scope(node.value, scope)
            return where is None or param_named(where, node.value) is None
        if not isinstance(node, cst.Attribute):
            return False
        if _is_platform(node.value):
            return True
        head = (dotted_name(node.value) or "").split(".")[0]
        return _is_module_attribute(node) and head != "torch" and self.host._is_free(head, scope)

    def _module_function(self, name: str) -> cst.FunctionDef | None:
        """The module's one function `name` defined outside any other function, else None."""
        [*functions] = self.host.functions.get(name, ())
        if len(functions) == 1 and self.host.enclosing.get(functions[0]) is None:
            return functions[0]
        return None

    def _is_predicate(self, name: str, hops: int, tested_for_none: bool = False, holds: bool = True) -> bool:
        """The module's one function `name` returns a true value only on another platform: each
        value it returns is `False` / `None`, such a test, or on such a path in it; a false one
        only there (not `holds`): each is `True`, a test failing only there (`return
        torch.npu.is_available()`), or on such a path. Tested for None (`tested_for_none`): a
        value other than None only there, each returned value `None` or on such a path."""
        unset = ("None",) if tested_for_none else ("None", "False") if holds else ("True",)

        def predicate(function: cst.FunctionDef) -> bool:
            returned = [value for value, where in self.host.returns.get(name, ()) if where is function]
            return bool(returned) and all(
                (isinstance(value, cst.Name) and value.value in unset)
                or value in self.positions(function)
                or (not tested_for_none and self.requires_other(value, holds, function, hops + 1))
                for value in returned
            )

        return self._answered(self._predicates, (name, tested_for_none, holds), name, predicate)

    def _dispatched_elsewhere(self, function: cst.FunctionDef) -> bool:
        """A method `OTHER_PLATFORM_METHODS` names that the module never refers to otherwise
        (`forward_npu = forward_cuda`, `self.forward_cuda(x)` would run it on Ascend)."""
        name = function.name.value
        return (
            name in OTHER_PLATFORM_METHODS and first_param(function.params) == "self" and not self._references.get(name)
        )

    def _called_only_elsewhere(self, function: cst.FunctionDef) -> bool:
        """A private, undecorated function (or method) every reference to which in the module
        is a call (`_f(...)`, `self._f(...)`), each on another platform's path, or a test for
        None; through a private alias too (`_g = _f` at module level: `_aliases`)."""
        name = function.name.value
        if not _is_private(name) or function.decorators:
            return False
        if len(self.host.functions.get(name, ())) != 1:
            return False
        names = [name, *self._aliases.get(name, ())]
        calls = [site for called in names for site in self._calls_by_name.get(called, ())]
        if not calls or not all(
            caller is not None and (call in self.positions(caller) or self.is_other_platform_function(caller))
            for call, caller in calls
        ):
            return False
        harmless = {id(_callee(call)) for call, _ in calls} | self._compared_with_none
        harmless |= {id(value) for alias in names[1:] for value in self.host.bindings[(alias, None)]}
        return all(id(reference) in harmless for called in names for reference in self._references.get(called, ()))

    @cached_property
    def _aliases(self) -> dict[str, list[str]]:
        """Private module-level names bound only to one function of the module (or to None), by
        the function's name: `_run = _run_impl` calls `_run_impl` when called."""
        found: dict[str, list[str]] = {}
        for (alias, scope), values in self.host.bindings.items():
            if scope is not None or not _is_private(alias) or alias in self.host.functions:
                continue
            if not all(isinstance(value, cst.Name) for value in values):
                continue
            named = {value.value for value in values if isinstance(value, cst.Name)} - {"None"}
            if len(named) == 1 and (function := named.pop()) in self.host.functions:
                found.setdefault(function, []).append(alias)
        return found

    @cached_property
    def _compared_with_none(self) -> set[int]:
        """The names host code compares with None (`if _f is None:`), by id: such a reference
        passes no function on."""
        return {
            id(operand)
            for top in self._host_tops
            for node in walk(top)
            if isinstance(node, cst.Comparison)
            and (tested := _tested_for_none(node)) is not None
            and isinstance(operand := tested[0], cst.Name)
        }

    @cached_property
    def _calls_by_name(self) -> dict[str, list[tuple[cst.Call, Scope]]]:
        """Calls of a name or an attribute (`f(...)`, `self.f(...)`) by that name."""
        found: dict[str, list[tuple[cst.Call, Scope]]] = {}
        for call, scope in self.host.calls:
            callee = _callee(call)
            if callee is not None:
                found.setdefault(callee.value, []).append((call, scope))
        return found

    @cached_property
    def _host_tops(self) -> list[cst.CSTNode]:
        """Where host code reads names: functions, and the values and calls of module and class bodies."""
        host = self.host
        tops: list[cst.CSTNode] = [
            function for function, outer in host.enclosing.items() if outer is None and function not in host.lambdas
        ]  # a lambda's `def` is read where the lambda is written
        tops += [call for call, scope in host.calls if scope is None]
        tops += [value for (_, scope), values in host.bindings.items() if scope is None for value in values]
        return tops

    @cached_property
    def _references(self) -> dict[str, list[cst.Name]]:
        """The names (and attribute names) host code reads (`_host_tops`), by name. Not the
        names of `def`s."""
        host = self.host
        defined = {id(function.name) for functions in host.functions.values() for function in functions}
        found: dict[str, list[cst.Name]] = {}
        seen: set[int] = set()
        for top in self._host_tops:
            for node in walk(top):
                if type(node) is cst.Name and id(node) not in defined and id(node) not in seen:
                    seen.add(id(node))
                    found.setdefault(node.value, []).append(node)
        return found


class NpuPaths(OtherPlatformPaths):
    """Where the module's host code runs only on the NPU: `OtherPlatformPaths` with the tests
    turned round (`requires_other` here means "requires the NPU").

    A test requires the NPU when it holds only there: an NPU test holding (`IS_NPU`,
    `is_npu()`, `current_platform.is_npu()`, `x.is_npu`, `torch.npu.is_available()`,
    `x.device.type == "npu"`, `device_type != "npu"` failing), through `not`, `and`, `or`, names
    and the module's predicates as there. A CustomOp's `forward_npu` method runs on the NPU."""

    def requires_other(self, test: cst.BaseExpression, holds: bool, scope: Scope, hops: int = 0) -> bool:
        if self._names_npu_flag(test, scope):
            return holds
        return super().requires_other(test, holds, scope, hops)

    def _compares_platform(self, test: cst.Comparison, holds: bool, scope: Scope) -> bool:
        return _compares_npu_type(test, holds)

    def _call_requires_other(self, call: cst.Call, holds: bool, scope: Scope, hops: int) -> bool:
        if _tests_npu(call):
            return holds
        if isinstance(call.func, cst.Name) and holds:
            return self._is_predicate(call.func.value, hops)
        return False

    def _flag_elsewhere(self, flag: cst.Name | cst.Attribute, scope: Scope, hops: int) -> bool:
        return False  # no name says the NPU's is the only platform left

    def _built_elsewhere(self, value: cst.BaseExpression) -> bool:
        return False  # no torch build is the NPU's alone

    def _dispatched_elsewhere(self, function: cst.FunctionDef) -> bool:
        return function.name.value == "forward_npu" and first_param(function.params) == "self"

    def _leaves_path(self, statement: cst.CSTNode) -> bool:
        return False  # a move to the NPU keeps code there


def _is_platform(node: cst.BaseExpression) -> bool:
    """A platform object: `current_platform`, `self.platform`, `get_platform()`."""
    named = dotted_name(node.func if isinstance(node, cst.Call) and not node.args else node)
    return (named or "").rsplit(".", 1)[-1].endswith("platform")


def _is_module_attribute(node: cst.Attribute) -> bool:
    """`utils.is_hopper`, `fla.utils.IS_AMD`: an attribute of a dotted name (maybe a module)."""
    return dotted_name(node.value) is not None


def _named_for_other(node: cst.BaseExpression) -> bool:
    """`is_hopper`, `IS_NVIDIA_SM100`, `_is_hip`, `x.is_cuda_alike`: `is`, then words at
    least one of which names another platform (`_OTHER_PLATFORM_WORDS`, `_ARCHITECTURE`),
    the others `_PREDICATE_WORDS` or numbers."""
    name = node.attr.value if isinstance(node, cst.Attribute) else node.value if isinstance(node, cst.Name) else ""
    first, *words = name.lower().strip("_").split("_")
    named = [word for word in words if word in _OTHER_PLATFORM_WORDS or _ARCHITECTURE.fullmatch(word)]
    return (
        first == "is"
        and bool(named)
        and all(word in _PREDICATE_WORDS or word.isdigit() for word in words if word not in named)
    )


def names_other_platform(text: str) -> bool:
    """A key or text naming another platform than Ascend, in words (`"cuda"`, `"hip"`,
    `"sm90"`, `"nvidia_h100"`, `"A100"`, `"MI300X"`: `_OTHER_PLATFORM_WORDS`, `_ARCHITECTURE`,
    `_GPU_MODEL`) and not the NPU."""
    words = re.split(r"[^a-z0-9]+", text.lower())
    if "npu" in words or "ascend" in words:
        return False
    return any(
        word in _OTHER_PLATFORM_WORDS or _ARCHITECTURE.fullmatch(word) or _GPU_MODEL.fullmatch(word) for word in words
    )


def _may_answer_for_npu(value: cst.BaseExpression) -> bool:
    """A flag's value that may hold on the NPU: it holds a test torch_npu answers
    (`_answers_for_npu`), or names the NPU (`"npu"`, `x.is_npu`, `IS_NPU`)."""
    for part in walk(value):
        if isinstance(part, cst.BaseExpression) and _answers_for_npu(part):
            return True
        if isinstance(part, cst.SimpleString) and "npu" in part.value.lower():
            return True
        if isinstance(part, cst.Name) and "npu" in part.value.lower():
            return True
    return False


def _answers_for_npu(value: cst.BaseExpression) -> bool:
    """`torch.cuda.is_available()`, `x.is_cuda`: a test torch_npu's `transfer_to_npu` makes
    answer for the NPU."""
    if isinstance(value, cst.Call):
        return not value.args and dotted_name(value.func) == "torch.cuda.is_available"
    return isinstance(value, cst.Attribute) and value.attr.value == "is_cuda"


def _compares_npu_type(test: cst.Comparison, holds: bool) -> bool:
    """The comparison, holding or failing as `holds` says, says the code runs on the NPU: a value
    compared equal to the NPU's literal (`x.device.type == "npu"`, `device == "npu"`,
    `get_device_type() == "npu"`; `!=` failing), a device type listed with the NPU's literal
    only (`x.device.type in ("npu",)`), the literal in a device's text or type (`"npu" in
    str(x.device)`, `"npu" in x.device.type`)."""
    if len(test.comparisons) != 1:
        return False
    operator = test.comparisons[0].operator
    left, right = test.left, test.comparisons[0].comparator
    if isinstance(operator, cst.Equal | cst.NotEqual):
        return "npu" in (str_literal(left), str_literal(right)) and holds == isinstance(operator, cst.Equal)
    if not isinstance(operator, cst.In | cst.NotIn):
        return False
    listed = right.elements if isinstance(right, cst.Tuple | cst.List | cst.Set) else ()
    in_device_text = str_literal(left) == "npu" and (_is_device_text(right) or _is_device_type(right))
    only_npu = _is_device_type(left) and bool(listed) and all(str_literal(each.value) == "npu" for each in listed)
    return (in_device_text or only_npu) and holds == isinstance(operator, cst.In)


def _comparison_of(use: NameUse) -> cst.Comparison | None:
    """The comparison a name is a side of (`x == ...`, `... != x`), if any."""
    around = use.around
    if around and isinstance(around[0], cst.Comparison):
        return around[0]
    if len(around) > 1 and isinstance(around[0], cst.ComparisonTarget) and isinstance(around[1], cst.Comparison):
        return around[1]
    return None


def _compared_with_literals(test: cst.Comparison | None) -> tuple[cst.Name, frozenset[str], bool] | None:
    """`x == "a"` / `"a" != x` / `x in ("a", "b")` / `x not in [...]`: the name, the string
    literals, and whether the comparison holding says the name's value is one of them."""
    if test is None or len(test.comparisons) != 1:
        return None
    operator, right = test.comparisons[0].operator, test.comparisons[0].comparator
    name: cst.BaseExpression
    if isinstance(operator, cst.In | cst.NotIn):
        name = test.left
        listed = right.elements if isinstance(right, cst.Tuple | cst.List | cst.Set) else ()
        literals = [str_literal(element.value) for element in listed]
    elif isinstance(operator, cst.Equal | cst.NotEqual):
        name, literal = (test.left, right) if isinstance(test.left, cst.Name) else (right, test.left)
        literals = [str_literal(literal)]
    else:
        return None
    if not isinstance(name, cst.Name) or not literals or None in literals:
        return None
    return (
        name,
        frozenset(literal for literal in literals if literal is not None),
        isinstance(operator, cst.Equal | cst.In),
    )


def _is_device_text(node: cst.BaseExpression) -> bool:
    """`str(x.device)`, `str(device)`: a device as text."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "str"
        and len(node.args) == 1
        and "device" in (dotted_name(node.args[0].value) or "").rsplit(".", 1)[-1]
    )


def _tested_for_none(test: cst.Comparison) -> tuple[cst.BaseExpression, bool] | None:
    """The operand of `x is None` / `x is not None` (`None is x`), with whether the comparison
    holding says it is not None."""
    if len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, cst.Is | cst.IsNot):
        return None
    left, right = test.left, test.comparisons[0].comparator
    operand = left if _is_none_literal(right) else right if _is_none_literal(left) else None
    return None if operand is None else (operand, isinstance(test.comparisons[0].operator, cst.IsNot))


def _is_none_literal(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _is_private(name: str) -> bool:
    """`_name`, not `__dunder__`."""
    return name.startswith("_") and not name.endswith("__")


def _callee(call: cst.Call) -> cst.Name | None:
    """`f` in `f(...)` and in `self.f(...)`."""
    func = call.func
    return func if isinstance(func, cst.Name) else func.attr if isinstance(func, cst.Attribute) else None


# what a compound statement holds besides its blocks: an `if`'s or `while`'s test, a `for`'s
# target and iterable, a `with`'s items, a `match`'s subject
_HEADER_PARTS = (cst.BaseExpression, cst.WithItem)


def _case_tests(match: cst.Match) -> Iterator[tuple[cst.MatchCase, list[tuple[cst.Comparison, bool]]]]:
    """Each case of a `match` with the tests that hold (`True`) or fail (`False`) whenever it
    runs, written as an `if` would test them: its string literals (`case "cuda" | "hip":` is
    `subject in ("cuda", "hip")` holding) and those of the unguarded cases before it (`case _:`
    after `case "npu":` is `subject in ("npu",)` failing)."""
    before: list[cst.Element] = []  # the literals of the unguarded cases before
    for case in match.cases:
        own = _literals_matched(case.pattern)
        tests = [(_member(match.subject, own), True)] if own else []
        if before:
            tests.append((_member(match.subject, before), False))
        yield case, tests
        if case.guard is None and own:
            before = [*before, *own]


def _literals_matched(pattern: cst.MatchPattern) -> list[cst.Element]:
    """The string literals a pattern matches, when it matches only them (`"cuda"`, `"cuda" |
    "hip"`); none for any other pattern."""
    alternatives = [each.pattern for each in pattern.patterns] if isinstance(pattern, cst.MatchOr) else [pattern]
    values = [each.value for each in alternatives if isinstance(each, cst.MatchValue)]
    if len(values) != len(alternatives) or any(str_literal(value) is None for value in values):
        return []
    return [cst.Element(value) for value in values]


def _member(subject: cst.BaseExpression, literals: Sequence[cst.Element]) -> cst.Comparison:
    """`subject in (literals)`."""
    return cst.Comparison(subject, [cst.ComparisonTarget(cst.In(), cst.Tuple(literals))])


def _compares_device_type(test: cst.Comparison, holds: bool, is_type: Callable[[cst.BaseExpression], bool]) -> bool:
    """A device type (`_device_types_compared`, `is_type` saying what holds one) said to be one
    of device types none of which is the NPU's (`_NPU_DEVICE_TYPES`: `x.device.type == "cuda"`,
    `== "cpu"`, `in ("cuda", "hip")` holding, `!=` failing) or not to be `"npu"`
    (`x.device.type in ("npu", ...)` failing, `not in` holding), a value `== "xpu"` (another
    backend's or vendor's name, `_OTHER_BACKENDS`) holding."""
    if len(test.comparisons) != 1:
        return False
    compared = _device_types_compared(test, is_type)
    if compared is not None:
        types, member = compared
        if member == holds:  # the test says the type is one of them
            return bool(types) and None not in types and _NPU_DEVICE_TYPES.isdisjoint(types)
        return "npu" in types
    operator = test.comparisons[0].operator
    if not isinstance(operator, cst.Equal | cst.NotEqual):
        return False
    equal = holds == isinstance(operator, cst.Equal)  # the comparison says the value is the literal
    literals = {str_literal(test.left), str_literal(test.comparisons[0].comparator)}
    # any value that is another backend's or vendor's name (fla's `device_platform == "xpu"`)
    return equal and not literals.isdisjoint(_OTHER_BACKENDS)


def _device_types_compared(
    test: cst.Comparison, is_type: Callable[[cst.BaseExpression], bool]
) -> tuple[list[str | None], bool] | None:
    """The literals a device type (`is_type`: `_is_device_type`, a name bound to one) is
    compared with (`x.device.type == "cuda"`, `in ("cuda", "hip")`, `"cpu" != device_type`;
    None for what is not a literal), and whether the comparison holding says the type is one
    of them."""
    operator, right = test.comparisons[0].operator, test.comparisons[0].comparator
    if isinstance(operator, cst.In | cst.NotIn) and is_type(test.left):
        listed = right.elements if isinstance(right, cst.Tuple | cst.List | cst.Set) else ()
        return [str_literal(element.value) for element in listed], isinstance(operator, cst.In)
    if isinstance(operator, cst.Equal | cst.NotEqual):
        for typed, other in ((test.left, right), (right, test.left)):
            if str_literal(typed) is None and is_type(typed):
                return [str_literal(other)], isinstance(operator, cst.Equal)
    return None


# the device types of an NPU tensor: torch_npu renames torch's PrivateUse1 backend "npu"; code
# written for a torch without the name lists "privateuseone" too
_NPU_DEVICE_TYPES = frozenset({"npu", "privateuseone"})


# what a name the module also compares with "npu" holds off the NPU only: another platform's
# or vendor's name, or the CPU (`_names_other_backend`)
_OTHER_PLATFORM_NAMES = _OTHER_PLATFORM_WORDS | {"cpu"}


# a backend or vendor name no value on the NPU is (Triton's backend there is "npu"); not "cuda",
# which a device string may hold on the NPU too (`device = "cuda"` under `transfer_to_npu`)
_OTHER_BACKENDS = frozenset({"hip", "rocm", "xpu", "nvidia", "amd", "intel", "musa", "mlu", "mps", "hpu", "tpu"})


# words that, beside `npu` or `ascend`, name a flag or test of the platform the code runs on
_PLATFORM_TEST_WORDS = frozenset(
    {"is", "on", "use", "has", "torch", "triton", "available", "enabled", "running", "current"}
)


def _names_npu(node: cst.BaseExpression) -> bool:
    """`IS_NPU`, `_is_npu`, `x.is_npu`, `utils.is_npu`, `is_npu_available`, `_TRITON_ON_ASCEND`,
    `USE_NPU`, `_NPU`: a flag or a test named for the NPU, `npu` alone or `npu` or `ascend` with
    words of a platform test only (`_PLATFORM_TEST_WORDS`; not `npu_graph_enabled`, nor
    `ascend` alone, a sort order)."""
    words = (dotted_name(node) or "").rsplit(".", 1)[-1].lower().split("_")
    platform = [word for word in words if word in ("npu", "ascend")]
    others = [word for word in words if word and word not in ("npu", "ascend")]
    return (
        len(platform) == 1
        and (bool(others) or platform == ["npu"])
        and all(word in _PLATFORM_TEST_WORDS for word in others)
    )


def _is_flag_value(value: cst.BaseExpression) -> bool:
    """What an NPU flag is bound to: `True`, `False`, `None` (a module whose import failed), an
    NPU test (`is_npu()`, `torch.npu.is_available()`, `x.device.type == "npu"`, `IS_NPU`)."""
    if isinstance(value, cst.Name) and value.value in ("True", "False", "None"):
        return True
    if isinstance(value, cst.Call):
        return _tests_npu(value)
    if isinstance(value, cst.Comparison):
        return _compares_npu_type(value, True)
    return _names_npu(value) and not _named_npu_alone(value)


def _named_npu_alone(node: cst.BaseExpression) -> bool:
    """`npu`, `_NPU`, `torch_npu`: a name that may hold anything else than the NPU's flag (a
    device, a loop's item, a module passed in)."""
    return isinstance(node, cst.Name) and node.value.strip("_").lower() in ("npu", _NPU_MODULE)


def _tests_npu(call: cst.Call) -> bool:
    """`is_npu()`, `utils.is_npu_available()` (`_names_npu`), `torch.npu.is_available()`,
    `hasattr(torch, "npu")` (torch_npu adds it), `x.device.type.startswith("npu")` (of a
    device's text too): a call that holds only on the NPU."""
    if _names_npu(call.func) or dotted_name(call.func) == _NPU_AVAILABLE or _starts_with_npu(call):
        return True
    args = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    return (
        isinstance(call.func, cst.Name)
        and call.func.value == "hasattr"
        and len(args) == len(call.args) == 2
        and dotted_name(args[0]) == "torch"
        and str_literal(args[1]) == "npu"
    )


def _starts_with_npu(call: cst.Call) -> bool:
    """`x.device.type.startswith("npu")`, `str(x.device).startswith("npu")`."""
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "startswith"
        and (_is_device_type(func.value) or _is_device_text(func.value))
        and len(call.args) == 1
        and str_literal(call.args[0].value) == "npu"
    )


def _starts_with_other(call: cst.Call) -> bool:
    """`str(x.device).startswith("cuda")`, `x.device.type.startswith("hip")`: a device type or
    a tensor's device text said to begin with another place than the NPU (`_other_place`)."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "startswith" and len(call.args) == 1):
        return False
    prefix = str_literal(call.args[0].value)
    typed = _is_device_type(func.value)
    if prefix is None or not (typed or _is_device_text(func.value)):
        return False
    return _other_place(prefix, typed or _is_tensor_device(func.value), str.startswith)


def _other_place(text: str, may_be_cuda: bool, part: Callable[[str, str], bool] = str.__eq__) -> bool:
    """A place (`"cpu"`, `"cuda:0"`) no NPU device is: its type is not the NPU's (nor `part` of
    it: its start for a prefix, `"np"`, any part for a substring, `"pu"`), nor `"cuda"` unless
    `may_be_cuda` (a device kept as text may be `"cuda"`, which `transfer_to_npu` maps to the
    NPU)."""
    head = text.split(":")[0]
    if not head or (head == "cuda" and not may_be_cuda):
        return False
    return not any(part(npu, head) for npu in _NPU_DEVICE_TYPES)


def _compares_device(test: cst.Comparison, holds: bool) -> bool:
    """A tensor's device (`x.device`) or a device's text (`str(x.device)`) said to be one of
    places none of which is the NPU's (`str(x.device) == "cpu"`, `x.device ==
    torch.device("cpu")`, `x.device in ("cpu", "meta")`, `!=` failing), or a device's text
    said to hold such a place (`"cpu" in str(x.device)`, `not in` failing). Not the other way:
    `str(x.device) != "npu"` holds on the NPU, whose text is `"npu:0"`. A place `"cuda"` only
    for a tensor's device (`_is_tensor_device`: `str(x.device)`, not `str(self.device)` nor
    `str(device)`): a device held as text may be one (`self.device = "cuda"`) that
    `transfer_to_npu` maps to the NPU (`_other_place`)."""
    operator, right = test.comparisons[0].operator, test.comparisons[0].comparator
    part: Callable[[str, str], bool] = str.__eq__
    if isinstance(operator, cst.In | cst.NotIn) and _is_device_text(right) and str_literal(test.left) is not None:
        device, places, part = right, [str_literal(test.left)], str.__contains__  # `"cuda" in str(x.device)`
    elif isinstance(operator, cst.In | cst.NotIn) and _is_device_place(test.left):
        listed = right.elements if isinstance(right, cst.Tuple | cst.List | cst.Set) else ()
        device, places = test.left, [_place_literal(element.value) for element in listed]
    elif isinstance(operator, cst.Equal | cst.NotEqual) and (_is_device_place(test.left) or _is_device_place(right)):
        device = test.left if _is_device_place(test.left) else right
        places = [_place_literal(right if device is test.left else test.left)]
    else:
        return False
    may_be_cuda = _is_tensor_device(device)
    return (
        isinstance(operator, cst.Equal | cst.In) == holds
        and bool(places)
        and all(place is not None and _other_place(place, may_be_cuda, part) for place in places)
    )


def _is_tensor_device(node: cst.BaseExpression) -> bool:
    """`x.device`, `str(x.device)`: the device of a tensor held in a name (not `self.device`,
    nor a name `device`, which may hold a device's text)."""
    if isinstance(node, cst.Call):
        node = node.args[0].value if _is_device_text(node) else node
    return (
        isinstance(node, cst.Attribute)
        and node.attr.value == "device"
        and isinstance(node.value, cst.Name)
        and node.value.value not in ("self", "cls")
    )


def _is_device_place(node: cst.BaseExpression) -> bool:
    """`x.device`, `str(x.device)`: a tensor's device, or a device's text."""
    return (isinstance(node, cst.Attribute) and node.attr.value == "device") or _is_device_text(node)


def _place_literal(node: cst.BaseExpression) -> str | None:
    """`"cpu"`, `"cuda:0"`, `torch.device("cpu")`: the place written (its type, for a
    `torch.device` given an index apart), else None."""
    if isinstance(node, cst.Call) and dotted_name(node.func) == "torch.device" and node.args:
        node = node.args[0].value  # `torch.device("cpu", 0)` too
    return str_literal(node)


def _moves_to_npu(call: cst.Call) -> bool:
    """`x.npu()`, `x.to("npu")`, `x.to(device="npu:0")`, `x.to(torch.device("npu", 0))`,
    `torch.ones(n, device="npu")`: a call putting a tensor on the NPU, which only runs where
    there is one."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "npu" and not call.args:
        return True
    places = [arg.value for arg in call.args if arg.keyword is None or arg.keyword.value == "device"]
    if not (isinstance(func, cst.Attribute) and func.attr.value == "to"):
        places = [arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "device"]
    return any(_names_npu_device(place) for place in places)


def _names_npu_device(node: cst.BaseExpression) -> bool:
    """`"npu"`, `"npu:0"`, `torch.device("npu", 0)`."""
    if isinstance(node, cst.Call) and dotted_name(node.func) == "torch.device" and node.args:
        node = node.args[0].value
    return (str_literal(node) or "").split(":")[0] == "npu"


def _is_device_type(node: cst.BaseExpression) -> bool:
    """`x.device.type` (`device.type` for a device held in a name), a name `device_type`, or
    Triton's active backend (`triton.runtime.driver.active.get_current_target().backend`:
    `"npu"` on Ascend)."""
    if isinstance(node, cst.Name):
        return node.value == "device_type"
    if (
        isinstance(node, cst.Attribute)
        and node.attr.value == "backend"
        and isinstance(node.value, cst.Call)
        and (dotted_name(node.value.func) or "").rsplit(".", 1)[-1] == "get_current_target"
    ):
        return True
    return (
        isinstance(node, cst.Attribute)
        and node.attr.value in ("type", "device_type")
        and (node.attr.value == "device_type" or (dotted_name(node.value) or "").rsplit(".", 1)[-1] == "device")
    )
