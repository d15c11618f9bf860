"""The shared kernel model (`ascend_lint.flow`) tested directly: value flags, def-use along
control-flow paths, path feasibility, constant propagation, task loops, pointers."""

from __future__ import annotations

import libcst as cst
import pytest
from conftest import snippet_source

from ascend_lint.flow import (
    BOXED,
    CALL,
    CONST,
    DEF,
    LOADED,
    LOOP,
    PID,
    READ,
    RUNTIME_ALWAYS,
    SCALAR,
    SPEC,
    TASK,
    WIDE,
    Flow,
    range_bounds,
)
from ascend_lint.imports import ImportMap
from ascend_lint.incremental import IncrementalParser
from ascend_lint.kernels import KernelMemory, find_kernels
from ascend_lint.rule import ModuleContext
from ascend_lint.specialisations import evaluate


def kernel_of(code: str):
    source, _ = snippet_source(code)
    module = cst.parse_module(source)
    (kernel,) = find_kernels(module, ImportMap(module))
    return kernel


def flow_of(code: str) -> Flow:
    return kernel_of(code).flow


def value(flow: Flow, name: str, nth: int = 0) -> cst.BaseExpression:
    """The expression assigned by the nth definition of `name`."""
    return [d for d in flow.defs[name] if d.value is not None][nth].value


def reads(flow: Flow, name: str) -> list:
    return [e for e in flow.events if e.kind == READ and e.name == name and not e.metadata]


def dots(flow: Flow) -> list:
    return list(flow.calls_to("dot"))


FLAGS_KERNEL = """
@triton.jit
def k(x, B, T_rt: tl.int32, BT: tl.constexpr, NT, T64: tl.int64):
    c_lit = 4
    c_expr = BT * 2 + c_lit
    c_dtype = x.dtype
    s_param = B
    s_cdiv = tl.cdiv(B, BT)
    p_id = tl.program_id(0)
    p_mul = p_id * BT
    r_scalar = T_rt
    r_load = tl.load(x + p_id)
    r_cast = tl.load(x).to(tl.int64)
    mixed = 1
    mixed = tl.load(x)
    for i in tl.range(0, NT):
        l_idx = i
    for j in tl.static_range(4):
        c_static = j
    w_param = p_id * T64
    for i_w in tl.range(p_id, T64, NT):
        w_idx = i_w
"""


@pytest.mark.parametrize(
    ("name", "flags"),
    [
        # every assigned name is BOXED: Triton's front end holds it as a tensor (measured)
        ("c_lit", CONST | BOXED),
        ("c_expr", CONST | BOXED),
        ("c_dtype", CONST | BOXED),
        ("s_param", SPEC | BOXED),
        ("s_cdiv", SPEC | CONST | BOXED),
        ("p_id", PID | BOXED),
        ("p_mul", PID | CONST | BOXED),
        ("r_scalar", SCALAR | BOXED),
        ("r_load", LOADED | BOXED),
        ("r_cast", LOADED | WIDE | BOXED),
        ("mixed", CONST | LOADED | BOXED),
        ("l_idx", LOOP | BOXED),
        ("c_static", CONST | BOXED),
        ("j", CONST),
        ("B", SPEC),
        ("T64", SCALAR | WIDE),  # `T64: tl.int64`: an i64 argument
        ("w_param", PID | SCALAR | WIDE | BOXED),
        ("i", LOOP),
        ("i_w", LOOP | TASK | WIDE),  # a task index (start: a program id), widened to its int64 bound
        ("w_idx", LOOP | TASK | WIDE | BOXED),
    ],
)
def test_value_flags(name: str, flags: int) -> None:
    flow = flow_of(FLAGS_KERNEL)
    assert flow.name_flags[name] == flags


def test_int64_parameters_and_the_loop_indices_they_bound_are_wide_where_read() -> None:
    flow = flow_of(FLAGS_KERNEL)
    assert flow.flags(value(flow, "w_param")) & WIDE
    assert flow.flags(value(flow, "w_idx")) & WIDE
    assert not flow.flags(value(flow, "l_idx")) & WIDE


VARLEN_BOUND = """
@triton.jit
def k(x, T, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    if IS_VARLEN:
        NT = tl.load(x).to(tl.int64)
    else:
        NT = tl.cdiv(T, BT)
    for i_t in range(NT):
        o_t = i_t * BT
"""


def test_a_loop_index_is_wide_only_in_the_specialisations_where_its_bound_is() -> None:
    flow = flow_of(VARLEN_BOUND)
    o_t = value(flow, "o_t")
    assert flow.flags(o_t, frozenset({("IS_VARLEN", True)})) & WIDE
    assert not flow.flags(o_t, frozenset({("IS_VARLEN", False)})) & WIDE


VARLEN_CHOICE = """
@triton.jit
def k(x, cu, T, BT: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_n = tl.program_id(0)
    if IS_VARLEN:
        bos = tl.load(cu + i_n).to(tl.int64)
    else:
        bos = i_n * T
    row = (bos + 1) if IS_VARLEN else (bos + 2)
"""


def test_a_read_in_an_arm_of_a_constexpr_choice_has_the_facts_of_that_arm_only() -> None:
    flow = flow_of(VARLEN_CHOICE)
    choice = value(flow, "row")
    assert isinstance(choice, cst.IfExp)
    assert flow.flags(choice.body) & WIDE
    assert not flow.flags(choice.orelse) & WIDE  # `bos` is int64 only where `IS_VARLEN` is true


def test_wide_everywhere_asks_for_int64_in_every_specialisation() -> None:
    flow = flow_of(FLAGS_KERNEL)
    assert flow.wide_everywhere(value(flow, "w_idx"))  # the index of a loop with an int64 bound
    assert flow.wide_everywhere(value(flow, "r_cast"))
    assert not flow.wide_everywhere(value(flow, "l_idx"))
    varlen = flow_of(VARLEN_BOUND)
    assert not varlen.wide_everywhere(value(varlen, "o_t"))  # int32 when IS_VARLEN is false


@pytest.mark.parametrize(
    ("name", "constexpr", "specialisable"),
    [
        ("c_expr", True, False),
        ("B", False, True),
        ("s_param", False, False),  # assigned: a tensor to the front end, `.to()` compiles
        ("s_cdiv", False, False),
        ("p_mul", False, False),  # program ids are runtime (measured: they never fold)
        ("r_scalar", False, False),  # annotated tl.int32: never a constexpr
        ("r_load", False, False),
        ("mixed", False, False),  # one definition is runtime
        ("l_idx", False, False),
    ],
)
def test_constexpr_and_specialisable(name: str, constexpr: bool, specialisable: bool) -> None:
    flow = flow_of(FLAGS_KERNEL)
    node = cst.Name(name)
    assert (flow.is_constexpr(node), flow.is_specialisable(node)) == (constexpr, specialisable)


def test_metadata_attributes_are_constexpr_but_their_receiver_is_not() -> None:
    flow = flow_of(FLAGS_KERNEL)
    assert flow.flags(cst.parse_expression("r_load.shape")) == CONST
    assert flow.flags(cst.parse_expression("r_load + 1")) == LOADED | CONST | BOXED


@pytest.mark.parametrize(
    "decorator",
    [
        '@triton.jit(do_not_specialize=["T", "N"])',
        "@triton.jit(do_not_specialize=[1, 2])",
        '@triton.jit(do_not_specialize=("T", 2))',
    ],
)
def test_do_not_specialize_by_name_or_index(decorator: str) -> None:
    kernel = kernel_of(f"{decorator}\ndef k(x, T, N, B, BT: tl.constexpr):\n    y = T + N + B\n")
    assert kernel.do_not_specialize == {"T", "N"}
    flow = kernel.flow
    assert flow.name_flags["T"] == flow.name_flags["N"] == SCALAR
    assert flow.name_flags["B"] == SPEC
    assert not flow.is_specialisable(cst.Name("T"))


def test_do_not_specialize_index_out_of_range_is_ignored() -> None:
    kernel = kernel_of("@triton.jit(do_not_specialize=[7])\ndef k(x, T):\n    y = T\n")
    assert kernel.do_not_specialize == frozenset()


def test_heuristics_and_autotune_provide_constexprs() -> None:
    kernel = kernel_of(
        """
@triton.heuristics({"USE_H0": lambda args: args["h0"] is not None, "NV": lambda args: 2})
@triton.autotune(configs=[triton.Config({"BK": bk}) for bk in (32, 64)], key=["K"])
@triton.jit
def k(x, h0, K, USE_H0, NV, BK):
    y = USE_H0 + NV + BK + K
"""
    )
    flow = kernel.flow
    for name in ("USE_H0", "NV", "BK"):
        assert flow.name_flags[name] == CONST, name
    assert flow.name_flags["K"] == SPEC
    assert kernel.optional_pointer_flags == {"h0": {"USE_H0"}}


def test_jit_imported_under_other_names() -> None:
    source = "from triton import jit as tjit\nfrom triton import language as L\n\n"
    source += "@tjit\ndef k(x, B: L.constexpr):\n    y = B\n"
    module = cst.parse_module(source)
    (kernel,) = find_kernels(module, ImportMap(module))
    assert kernel.flow.name_flags["B"] == CONST


def test_reads_after_stops_at_redefinition() -> None:
    flow = flow_of(
        """
@triton.jit
def k(p, q):
    b_a = tl.load(p)
    b_o = tl.dot(b_a, b_a)
    n = b_a.shape
    tl.store(q, b_a)
    b_a = tl.load(p)
    tl.store(q, b_a)
"""
    )
    (dot,) = dots(flow)
    after = flow.reads_after(dot, "b_a")
    # the metadata read and the read after the reload are excluded
    assert after == [reads(flow, "b_a")[2]]


def test_reads_after_follows_the_loop_back_edge() -> None:
    flow = flow_of(
        """
@triton.jit
def k(p, q, NT):
    b_a = tl.load(p)
    b_h = tl.load(q)
    for i in range(NT):
        b_h = tl.dot(b_a, b_h)
"""
    )
    (dot,) = dots(flow)
    after = flow.reads_after(dot, "b_a")
    assert [e.index < dot.index for e in after] == [True]
    # b_h is re-assigned right after the dot: nothing reads the clobbered one
    assert flow.reads_after(dot, "b_h") == []


def test_redefinition_at_the_top_of_the_loop_ends_tracking_in_the_next_trip() -> None:
    flow = flow_of(
        """
@triton.jit
def k(p, q, NT):
    b_h = tl.load(q)
    for i in range(NT):
        b_a = tl.load(p + i)
        b_h += tl.dot(b_a, b_h)
"""
    )
    (dot,) = dots(flow)
    assert flow.reads_after(dot, "b_a") == []


GATED = """
@triton.jit
def k(p, q, USE_G: tl.constexpr, FLAG: tl.constexpr, n):
    b_a = tl.load(p)
    if USE_G:
        b_o = tl.dot(b_a, b_a)
    else:
        tl.store(q, b_a)
    if not USE_G:
        tl.store(q, b_a)
    if USE_G:
        tl.store(q + 1, b_a)
    if FLAG:
        tl.store(q + 2, b_a)
    if n > 0:
        tl.store(q + 3, b_a)
"""


def test_feasibility_of_correlated_constexpr_branches() -> None:
    flow = flow_of(GATED)
    (dot,) = dots(flow)
    other_arm, negated, same, other_flag, runtime = reads(flow, "b_a")[2:]
    assert not flow.feasible_together(dot, other_arm)
    assert not flow.feasible_together(dot, negated)
    for event in (same, other_flag, runtime):
        assert flow.feasible_together(dot, event)
    assert flow.reads_after(dot, "b_a") == [same, other_flag, runtime]


def test_if_without_else_is_still_an_arm() -> None:
    flow = flow_of(
        """
@triton.jit
def k(p, q, USE_G: tl.constexpr):
    b_a = tl.load(p)
    if not USE_G:
        b_o = tl.dot(b_a, b_a)
    if USE_G:
        tl.store(q, b_a)
    tl.store(q, b_a)
"""
    )
    (dot,) = dots(flow)
    excluded, after_both = reads(flow, "b_a")[2:]
    assert flow.reads_after(dot, "b_a") == [after_both]
    assert not flow.feasible_together(dot, excluded)
    (gated,) = [b for b in flow.branches if b.node.orelse is None and b.key == ("USE_G", True)]
    assert gated.test_is_constexpr and len(gated.orelse) == 1  # the implicit else's entry point


ROUND_THE_LOOP = """
@triton.jit
def k(p, T, N: tl.constexpr, IS_VARLEN: tl.constexpr):
    for i_n in range(N):
        if IS_VARLEN:
            T = tl.load(p + i_n)
        else:
            tl.store(p, T)
    for i in tl.static_range(4):
        if i == 0:
            s = tl.load(p)
        else:
            tl.store(p + i, s)
"""


def test_a_constexpr_outcome_holds_round_a_loop_unless_the_loop_changes_the_test() -> None:
    flow = flow_of(ROUND_THE_LOOP)
    (in_other_arm,) = [e for e in reads(flow, "T") if e.conds and not e.conds[0][1]]
    # every trip takes the arm `IS_VARLEN` picks, so the load never reaches the other arm
    assert [d.kind for d in flow.reaching(in_other_arm.node)] == [DEF]
    assert [d.value for d in flow.reaching(in_other_arm.node)] == [None]  # the parameter
    (after_first_trip,) = reads(flow, "s")
    # `i == 0` changes from trip to trip: the first trip's load reaches the later trips
    (load,) = flow.reaching(after_first_trip.node)
    assert load.value is value(flow, "s")


TAIL = """
@triton.jit
def k(x, NT, TAIL_MODE: tl.constexpr):
    i_t = tl.program_id(0)
    if TAIL_MODE == 0:
        is_tail = False
    elif TAIL_MODE == 1:
        is_tail = True
    else:
        is_tail = i_t == NT - 1
    if is_tail:
        tl.store(x, 0.0)
    if TAIL_MODE == 0:
        tl.store(x + 1, is_tail)
    always = i_t == NT - 1
    if TAIL_MODE == 0:
        always = i_t >= NT - 1
    if always:
        tl.store(x + 2, 0.0)
"""


def branch_on(flow: Flow, test: str, nth: int = 0):
    return [b for b in flow.branches if b.key == (test, True)][nth]


def test_reaching_defs_for_tail_mode_constant_propagation() -> None:
    flow = flow_of(TAIL)
    point = branch_on(flow, "is_tail").point
    defs = flow.reaching_defs(point, "is_tail")
    assert [flow.def_flags(d) for d in defs] == [CONST | BOXED, CONST | BOXED, PID | SPEC | CONST | BOXED]
    # two definitions fold to constants, so the test is not runtime in every specialisation
    assert not flow.runtime_everywhere(point.node.test)


def test_reaching_defs_respect_the_enclosing_constexpr_branch() -> None:
    flow = flow_of(TAIL)
    (use,) = [e for e in flow.events if e.kind == READ and e.name == "is_tail" and e.conds]
    (only,) = flow.reaching_defs(use, "is_tail")
    assert isinstance(only.value, cst.Name) and only.value.value == "False"


def _decided_flow(code: str) -> Flow:
    """The flow of the snippet's one kernel as the engine gives it to rules: with the outcomes
    the module's constants and the body's constexpr bindings decide (`Flow.decided`)."""
    source, _ = snippet_source(code)
    module = cst.parse_module(source)
    imports = ImportMap(module)
    (kernel,) = ModuleContext("k.py", source, module, imports, find_kernels(module, imports)).kernels
    return kernel.flow


@pytest.mark.parametrize(
    "fixed",
    [
        "IS_VARLEN = tl.constexpr(False)\n",  # by the module
        "",  # by the body (below)
    ],
)
def test_definitions_in_an_arm_a_fixed_test_rules_out_reach_no_read(fixed: str) -> None:
    body = "" if fixed else "    IS_VARLEN: tl.constexpr = tl.constexpr(False)\n"
    flow = _decided_flow(
        fixed
        + "@triton.jit\ndef k(o, cu_seqlens, T, D: tl.constexpr):\n"
        + body
        + "    i_n = tl.program_id(0)\n"
        + "    if IS_VARLEN:\n        bos = tl.load(cu_seqlens + i_n).to(tl.int32)\n"
        + "    else:\n        bos = i_n * T\n"
        + "    tl.store(o + bos * D + tl.arange(0, D), 1.0)\n"
    )
    (use,) = reads(flow, "bos")
    (only,) = flow.reaching(use.node)
    assert isinstance(only.value, cst.BinaryOperation)  # `i_n * T`, not the load
    assert not flow.flags(use.node) & LOADED
    assert flow.decided == {("IS_VARLEN", False)}


def test_runtime_everywhere_when_every_reaching_definition_is_runtime() -> None:
    flow = flow_of(TAIL)
    point = branch_on(flow, "always").point
    assert len(flow.reaching_defs(point, "always")) == 2
    assert flow.runtime_everywhere(point.node.test)


FOLDED = """
@triton.jit
def k(x, NT, MODE: tl.constexpr, USE_MASK: tl.constexpr):
    i_t = tl.program_id(0)
    rt = i_t == NT - 1
    a = rt if MODE == 2 else (MODE == 1)
    b = MODE == 1 or (MODE == 2 and rt)
    c = rt or USE_MASK
    d = rt and not USE_MASK
    e = rt if USE_MASK else i_t > 0
    f = (MODE == 1) or (MODE == 2)
    g = rt if USE_MASK else rt
    h = rt or 0
    i = rt and 1
    j = rt or None
    m = 0 or rt
    n = rt if 1 else False
    tl.store(x, a + b + c + d + e + f + g + h + i + j + m + n)
"""


@pytest.mark.parametrize(
    ("name", "runtime"),
    [
        ("a", False),  # a constant in modes other than 2
        ("b", False),  # `True or x`, `False and x`: constants in modes 0 and 1
        ("c", False),  # `x or True` folds too (the compiler folds `arith.ori x, true`)
        ("d", False),  # `x and False`
        ("e", True),  # a constexpr test choosing between two runtime values
        ("f", False),  # constants only
        ("g", True),
        # a literal has one truth in every specialisation: the runtime operand decides
        ("h", True),
        ("i", True),
        ("j", True),
        ("m", True),
        ("n", True),
    ],
)
def test_a_test_decided_per_specialisation_folds_its_conditional_or_boolean_operation(name: str, runtime: bool) -> None:
    flow = flow_of(FOLDED)
    assert flow.runtime_everywhere(value(flow, name)) is runtime


def test_a_folded_boolean_operation_over_a_runtime_operand_stays_a_tensor_to_the_front_end() -> None:
    """`True or rt` builds `rt.logical_or(True)`: a constant the compiler folds, never a Python value."""
    flow = flow_of(FOLDED)
    test = value(flow, "c")
    assert not flow.is_python_constexpr(test)
    assert all(flags & BOXED for flags, _ in flow.variants(test) if not flags & RUNTIME_ALWAYS)
    assert flow.is_python_constexpr(value(flow, "f"))


@pytest.mark.parametrize(
    ("code", "result"),
    [("rt or True", True), ("rt and False", False), ("rt or False", None), ("rt and True", None), ("rt or 1", None)],
)
def test_the_constant_evaluator_folds_a_decided_right_operand(code: str, result: bool | None) -> None:
    assert evaluate(cst.parse_expression(code), {}.get) is result


@pytest.mark.parametrize(
    ("code", "result"),
    [
        ("rt < 4 < 2", False),  # the link decided fails: Python's `rt < 4 and 4 < 2` is False
        ("rt < 4 < 8", None),
        ("D in (64, 128)", True),
        ("D not in {64, 128}", False),
        ("D in [32, rt]", None),
        ("D in ()", False),
        ("D is 64", None),
        ("32 < D in (64,)", True),
    ],
)
def test_the_constant_evaluator_decides_a_comparison_chain_as_python_does(code: str, result: bool | None) -> None:
    assert evaluate(cst.parse_expression(code), {"D": 64}.get) is result


HELD = """
@triton.jit
def k(x, h0, W, NT, USE_H0: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    need = USE_H0 or i_t * BT < W
    if need:
        tl.store(x, 0.0)
    if not need:
        tl.store(x, 1.0)
    plain = i_t * BT < W
    if plain:
        tl.store(x, 2.0)
    if i_t > 0:
        either = USE_H0 and i_t < NT
    else:
        either = USE_H0 | (i_t > NT)
    if either:
        tl.store(x, 3.0)
    for j in range(NT):
        if need:
            need = j < W or USE_H0
"""


def test_a_name_holding_a_combined_test_is_read_through() -> None:
    flow = flow_of(HELD)
    need, negated, plain, _, either, looped = flow.branches
    held = {branch: flow.held_test(branch.node.test) for branch in flow.branches}
    assert [d.value for d in held[need]] == [value(flow, "need")]
    assert [d.value for d in held[negated]] == [value(flow, "need")]
    assert held[plain] == []  # a comparison, not a combination of tests
    assert [d.value for d in held[either]] == [value(flow, "either"), value(flow, "either", 1)]
    assert held[looped] == []  # carried round the loop


@pytest.mark.parametrize(
    ("loop", "is_task_loop"),
    [
        ("for t in tl.range(core_id, task_num, num_core):", True),
        ("for t in range(pid, total, tl.num_programs(0)):", True),
        ("for t in tl.range(tl.program_id(0), task_num, num_core):", True),
        ("for t in tl.range(0, task_num, num_core):", False),
        ("for t in range(total - 1 - pid, -1, -num_core):", True),  # the tasks in reverse
        ("for t in range(total - 1 - pid, -1, -4):", False),
        ("for t in range(total):", False),
        ("for t in range(pid, total):", False),
        ("for t in tl.static_range(4):", False),
    ],
)
def test_task_loop_detection(loop: str, is_task_loop: bool) -> None:
    flow = flow_of(
        f"""
@triton.jit
def k(x, task_num, num_core, total):
    core_id = tl.program_id(0)
    pid = core_id
    {loop}
        tl.store(x + t, 0.0)
"""
    )
    (found,) = flow.loops
    assert found.is_task_loop is is_task_loop


@pytest.mark.parametrize(
    ("start", "test", "advance", "is_task_loop"),
    [
        ("t = core_id", "t < task_num", "t += num_core", True),
        ("t = tl.program_id(0)", "t < task_num", "t += tl.num_programs(0)", True),
        ("t = core_id * 256", "t < task_num", "t += tl.num_programs(axis=0) * 256", True),
        ("t = task_num - 1 - core_id", "t >= 0", "t -= num_core", True),
        ("t = core_id", "task_num > t", "t = t + num_core", True),
        ("t = core_id * 256", "t < task_num", "t += 256", False),  # one program's blocks
        ("t = 0", "t < task_num", "t += num_core", False),
        ("t = core_id", "t < task_num and t >= 0", "t += num_core", False),
        ("t = core_id", "t < task_num", "t *= num_core", False),
    ],
)
def test_while_task_loop_detection(start: str, test: str, advance: str, is_task_loop: bool) -> None:
    flow = flow_of(
        f"""
@triton.jit
def k(x, task_num, num_core):
    core_id = tl.program_id(0)
    {start}
    while {test}:
        tl.store(x + t, 0.0)
        {advance}
"""
    )
    (found,) = flow.loops
    assert found.is_task_loop is is_task_loop


@pytest.mark.parametrize(
    ("loop", "binding", "is_task_loop"),
    [
        ("for i in range(tl.cdiv(n - core_id, num_core)):", "t = core_id + i * num_core", True),
        ("for i in range(0, (n - core_id + num_core - 1) // num_core):", "t = num_core * i + core_id", True),
        ("for i in range(tiles):", "t = tl.program_id(0) + i * tl.num_programs(0)", True),
        ("for i in range(tiles):", "t = core_id + i * 2", False),  # a constexpr step: one program's
        ("for i in range(tiles):", "t = 4 + i * num_core", False),  # no program id
        ("for i in range(1, tiles):", "t = core_id + i * num_core", False),
        ("for i in range(tiles):", "t = core_id + i * stride", False),  # a stride, not the program count
    ],
)
def test_a_loop_counting_task_trips_is_a_task_loop(loop: str, binding: str, is_task_loop: bool) -> None:
    flow = flow_of(
        f"""
@triton.jit
def k(x, n, tiles, stride, BT: tl.constexpr):
    core_id = tl.program_id(0)
    num_core = tl.num_programs(0)
    {loop}
        {binding}
        counter = i * BT
        tl.store(x + t, 0.0)
"""
    )
    (found,) = flow.loops
    assert found.is_task_loop is is_task_loop
    # the trip counter is no task index (the bound name is: it holds the program id)
    assert flow.flags(value(flow, "counter")) & (PID | TASK) == 0


@pytest.mark.parametrize(
    "trip",
    [
        "if tl.load(x + t) > 0:\n            t += num_core",  # skipped on some trips
        "for i in range(4):\n            t += num_core",  # in an inner loop
        "t += num_core\n        t += num_core",  # set twice
    ],
)
def test_a_while_loop_counting_irregularly_is_no_task_loop(trip: str) -> None:
    flow = flow_of(
        f"""
@triton.jit
def k(x, task_num, num_core):
    t = tl.program_id(0)
    while t < task_num:
        {trip}
"""
    )
    assert not any(loop.is_task_loop for loop in flow.loops)


def test_the_index_of_a_for_task_loop_is_a_task_index() -> None:
    flow = flow_of(
        """
@triton.jit
def k(x, n, num_core, BT: tl.constexpr):
    core_id = tl.program_id(0)
    for task in tl.range(core_id, n, num_core):
        start = task * BT
        for j in range(task * BT, n, BT):
            inner = j
    t = core_id
    while t < n:
        w_start = t * BT
        t += num_core
"""
    )
    task, blocks, counting = flow.loops
    assert task.is_task_loop and not blocks.is_task_loop and counting.is_task_loop
    assert flow.flags(value(flow, "start")) & TASK and flow.name_flags["start"] & TASK
    # finding the task loops worked out the inner loop's start before the index was marked
    bounds = range_bounds(blocks)
    assert bounds is not None and flow.flags(bounds[0]) & TASK
    assert not flow.flags(value(flow, "inner")) & TASK  # a block index within one task
    # a `while` loop's index is no loop index: it holds its start's program id
    assert flow.flags(value(flow, "w_start")) & (PID | TASK) == PID


def test_a_task_index_is_in_the_coarse_facts_worked_out_while_finding_the_task_loops() -> None:
    flow = flow_of(
        """
@triton.jit
def k(x, n, num_core, BT: tl.constexpr):
    first = tl.program_id(0)
    for sweep in range(4):
        for task in tl.range(first, n, num_core):  # its start comes round the outer loop
            start = task * BT
        first = first + 1
"""
    )
    assert flow.loops[1].is_task_loop
    assert flow.name_flags["start"] & TASK


def test_loop_body_and_enclosing_loops() -> None:
    flow = flow_of(
        """
@triton.jit
def k(x, task_num, num_core, T):
    core_id = tl.program_id(0)
    for t in tl.range(core_id, task_num, num_core):
        for i in range(T):
            x += 1
"""
    )
    task, inner = flow.loops
    (advance,) = [e for e in flow.events if e.kind == DEF and e.name == "x" and e.value is not None]
    assert advance.index in task.body and advance.index in inner.body
    assert advance.loops == (task, inner)  # the enclosing loops, outermost first
    assert task.is_task_loop and not inner.is_task_loop


def test_pointer_names_follow_definitions_back_to_the_base() -> None:
    flow = flow_of(
        """
@triton.jit
def k(x, y, h, offsets, T, BT: tl.constexpr):
    i_t = tl.program_id(0)
    o_t = i_t * BT + tl.arange(0, BT)
    p_x = x + tl.load(offsets + i_t) + o_t
    b_x = tl.load(p_x, mask=o_t < T)
    p_h = tl.make_block_ptr(h, (T,), (1,), (0,), (BT,), (0,))
    p_h2 = tl.advance(p_h, (BT,))
    tl.store(p_h2, b_x)
    tl.store(pointer=y + o_t, value=b_x)
"""
    )
    assert flow.pointer_names == {"p_x", "x", "offsets", "p_h2", "p_h", "h", "y"}


def test_pointer_root_follows_names_every_reaching_definition_binds_to_one_base() -> None:
    flow = flow_of(
        """
@triton.jit
def k(x, y, cu_seqlens, T, BT: tl.constexpr):
    i_n = tl.program_id(0)
    p_cu = cu_seqlens + i_n
    bos = tl.load(p_cu + 1)
    p_y = y + bos
    if i_n > 0:
        p_y = x + bos
    p_x = x
    for _ in range(T):
        tl.store(p_x, tl.load(p_y))
        p_x = p_x + BT
    p_t = tl.make_block_ptr(x + bos, (T,), (1,), (0,), (BT,), (0,))
    b_t = tl.load(tl.advance(p_t, (BT,)))
    row = tl.load(b_t + 1)
"""
    )
    addresses = [event.call.args[0].value for event in flow.calls_to("load", "store")]
    roots = {flow.pointer_base(address): flow.pointer_root(address) for address in addresses}
    # bound to addresses on `y` and `x`: unknown; `p_x = p_x + BT` leaves `x`; a loaded value stays itself
    assert roots == {"p_cu": "cu_seqlens", "p_y": "p_y", "p_x": "x", "p_t": "x", "b_t": "b_t"}


def test_loaded_from_names_the_pointers_every_reaching_definition_loads_through() -> None:
    flow = flow_of(
        """
@triton.jit
def k(x, h0, o, W, D: tl.constexpr, USE_H0: tl.constexpr):
    i_t = tl.program_id(0)
    o_d = tl.arange(0, D)
    if USE_H0:
        p_h0 = tl.make_block_ptr(h0, (D,), (1,), (0,), (D,), (0,))
        b_h0 = tl.load(p_h0, boundary_check=(0,)).to(tl.float32)
        b_s = -b_h0 * 2.0 + tl.load(x + o_d)
        b_e = tl.load(h0 + o_d)
    else:
        b_e = tl.zeros([D], dtype=tl.float32)
    b_x = tl.load(x + o_d)
    for _ in range(W):
        b_x = b_x * 0.5
    tl.store(o + o_d, b_h0 + b_s + b_e + b_x + i_t)
"""
    )
    (store,) = flow.calls_to("store")
    value = store.call.args[1].value
    reads = {node.value: node for node in _names_in(value)}
    loaded = {name: set(flow.loaded_from(node)) for name, node in reads.items()}
    # `b_e` is a zeros tile on the other path, `i_t` loads nothing; `b_x = b_x * 0.5` round the loop leaves `x`
    assert loaded == {"b_h0": {"h0"}, "b_s": {"h0", "x"}, "b_e": set(), "b_x": {"x"}, "i_t": set()}


def _names_in(node: cst.CSTNode) -> list[cst.Name]:
    found: list[cst.Name] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.append(name)

    node.visit(Names())
    return found


HELPERS = """
@triton.jit
def _load_rows(tensor, n_rows, stride, row, K: tl.constexpr, BT: tl.constexpr):
    p = tl.make_block_ptr(tensor, (n_rows, K), (stride, 1), (row, 0), (BT, K), (1, 0))
    return tl.load(p, boundary_check=(0, 1))


@triton.jit
def _gate(gk, offset, K: tl.constexpr):
    return tl.load(gk + offset + tl.arange(0, K))


@triton.jit
def _gated_rows(w, gate, n_rows, offset, K: tl.constexpr, BT: tl.constexpr):
    return _load_rows(w, n_rows, K, 0, K=K, BT=BT) * _gate(gate, offset, K)


@triton.jit
def _countdown(x, n):
    if n > 0:
        return _countdown(x, n - 1)
    return tl.load(x)


@triton.jit
def chunk_kernel(k, w, g, o, cu_seqlens, n, scale, H: tl.constexpr, K: tl.constexpr, BT: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    k += ((bos * H + i_h) * K).to(tl.int64)
    b_k = _load_rows(k, n, H * K, 0, K, BT)
    b_w = _gated_rows(w, gate=g, n_rows=n, offset=bos * H * K, K=K, BT=BT)
    b_s = _countdown(o, n) * unknown(scale)
    tl.store(o + tl.arange(0, K), b_k + b_w + b_s)
"""


def test_arguments_a_device_function_uses_as_pointers_are_pointers() -> None:
    source, _ = snippet_source(HELPERS)
    module = cst.parse_module(source)
    kernels = {kernel.name: kernel for kernel in find_kernels(module, ImportMap(module))}
    # `scale` goes to `unknown`, no device function of the module
    assert kernels["chunk_kernel"].flow.pointer_names == {"k", "w", "g", "o", "cu_seqlens"}
    assert kernels["_load_rows"].pointer_params == {"tensor"}
    assert kernels["_gate"].pointer_params == {"gk"}  # not the offset added to it
    assert kernels["_gated_rows"].pointer_params == {"w", "gate"}  # passed on to another device function
    assert kernels["_countdown"].pointer_params == {"x"}  # a recursive call adds nothing and ends


def test_a_kept_kernel_sees_an_edit_of_the_device_function_it_calls() -> None:
    source, _ = snippet_source(HELPERS)
    edited = source.replace("gk + offset", "offset + gk")  # `_gate` now takes its pointer as `offset`
    parser, memory = IncrementalParser(), KernelMemory()
    for text, pointers in ((source, {"k", "w", "g", "o", "cu_seqlens"}), (edited, {"k", "w", "o", "cu_seqlens"})):
        module = parser.parse(text)
        kernels = {kernel.name: kernel for kernel in find_kernels(module, ImportMap(module, text), memory)}
        assert kernels["chunk_kernel"].flow.pointer_names == pointers


def test_block_pointer_through_a_name() -> None:
    flow = flow_of(
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    p = tl.make_block_ptr(x, (T,), (1,), (0,), (BT,), (0,))
    q = x + 1
"""
    )
    assert flow.is_block_pointer(cst.Name("p"))
    assert not flow.is_block_pointer(cst.Name("q"))


def test_events_are_in_evaluation_order() -> None:
    flow = flow_of("@triton.jit\ndef k(p, q):\n    b = tl.dot(tl.load(p), q)\n")
    kinds = [(e.kind, e.name) for e in flow.events[2:]]  # after the two parameter definitions
    assert kinds == [(READ, "p"), (CALL, None), (READ, "q"), (CALL, None), (DEF, "b")]


ENTERING_KERNEL = """
@triton.jit
def k(x, n, FLAG: tl.constexpr):
    p = x
    if FLAG:
        p = x + 1
    for i in range(n):
        tl.store(p, 1.0)
        if i == 2:
            continue
        p += 1
    q = x
    for j in range(n):
        for t in range(n):
            tl.store(q, 1.0)
            q += 1
"""


def test_defs_entering_a_loop_come_from_outside_it() -> None:
    flow = flow_of(ENTERING_KERNEL)
    first, outer, inner = flow.loops
    code = cst.Module([]).code_for_node
    assert [code(d.value) for d in flow.defs_entering(first, "p")] == ["x", "x + 1"]
    # around an outer loop, the inner loop's own advance reaches its entry too
    assert len(flow.defs_entering(inner, "q")) == 2
    assert len(flow.defs_entering(outer, "q")) == 1


def test_runs_every_trip_sees_continue() -> None:
    flow = flow_of(ENTERING_KERNEL)
    first, _, inner = flow.loops
    (advance_p,) = [d for d in flow.defs["p"] if d.index in first.body]
    (advance_q,) = [d for d in flow.defs["q"] if d.index in inner.body]
    assert not flow.runs_every_trip(first, advance_p)
    assert flow.runs_every_trip(inner, advance_q)


@pytest.mark.parametrize(
    ("statement", "operator"),
    [("n += 4", cst.Add), ("n -= 4", cst.Subtract), ("n *= 4", cst.Multiply), ("n //= 4", cst.FloorDivide)],
)
def test_an_augmented_assignment_defines_the_operation_it_writes(statement: str, operator: type) -> None:
    flow = flow_of(f"@triton.jit\ndef k(x):\n    n = 8\n    {statement}\n    tl.store(x + n, 0.0)\n")
    (augmented,) = [d for d in flow.defs["n"] if isinstance(d.node, cst.AugAssign)]
    assert isinstance(augmented.value, cst.BinaryOperation) and type(augmented.value.operator) is operator
    # the value is built by the flow: the source node to report for it is the statement
    assert flow.written(augmented.value) is augmented.node


READ_VALUES = """
@triton.jit
def k(p, q, NT, WIDE: tl.constexpr):
    a = tl.load(p)
    unread = a * 2.0
    halved = a * 0.5
    for i in range(NT):
        halved = halved * 0.5
    chained = (a + 1.0).to(tl.float16)
    c = -chained
    c += 1.0
    stored = a - 1.0
    tl.store(p, stored)
    passed = a * 4.0
    tl.store(p, tl.sum(passed, 0))
    unpacked = a * 5.0
    u, v = unpacked, a
    returned = a * 3.0
    if WIDE:
        tl.store(q, c)
    else:
        tl.store(q, a)
    return returned
"""


@pytest.mark.parametrize(
    ("name", "read"),
    [
        ("unread", False),
        ("halved", False),  # carried round the loop into itself only
        ("chained", True),  # through `c` and `c += 1.0` into a store
        ("stored", True),
        ("passed", True),
        ("unpacked", True),  # unpacking is not followed
        ("returned", True),
    ],
)
def test_value_is_read_follows_pure_arithmetic_into_names(name: str, read: bool) -> None:
    flow = flow_of(READ_VALUES)
    assert flow.value_is_read(value(flow, name)) is read


def test_value_is_read_alongside_counts_reads_in_its_specialisations_only() -> None:
    flow = flow_of(READ_VALUES)
    stored_c, stored_a = reads(flow, "c")[-1], reads(flow, "a")[-1]
    assert flow.value_is_read(value(flow, "chained"), alongside=stored_c)
    assert not flow.value_is_read(value(flow, "chained"), alongside=stored_a)
    assert flow.value_is_read(value(flow, "stored"), alongside=stored_a)


WIDENED_KERNEL = """
@triton.jit
def k(x, cu_seqlens, T, H: tl.constexpr, V: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    loaded = tl.load(cu_seqlens + i_n).to(tl.int32)
    if IS_VARLEN:
        bos = tl.load(cu_seqlens + i_n).to(tl.int32)
    else:
        bos = i_n * T
    a = ((loaded * H + i_h) * V).to(tl.int64)
    b = tl.cast((bos * H + i_h) * V, tl.int64)
    c = (i_n * H).to(tl.int64) * V
    d = ((i_n * H).to(tl.int64) + i_h) * V
    e = (loaded * H).to(tl.int32)
"""


def test_casts_and_the_index_multiplies_they_widen() -> None:
    """`cast_parts` reads both spellings of a cast; `index_multiplies_widened` gives, per
    specialisation, the int32 multiply over a program id made before an int64 cast: none where
    the value is loaded (`loaded`, the `IS_VARLEN` arm of `bos`), the program-id product in the
    other arm; `scaled_after` tells a cast whose result is multiplied again."""
    flow = flow_of(WIDENED_KERNEL)
    a, b, e = (cst.ensure_type(value(flow, name), cst.Call) for name in "abe")
    assert flow.cast_parts(a) == (cst.ensure_type(a.func, cst.Attribute).value, a.args[0].value)
    assert flow.cast_parts(b) == (b.args[0].value, b.args[1].value)
    assert flow.cast_parts(cst.ensure_type(cst.parse_expression("tl.load(x)"), cst.Call)) is None

    assert set(flow.index_multiplies_widened(a).values()) == {None}
    by_arm = {dict(spec)["IS_VARLEN"]: multiply for spec, multiply in flow.index_multiplies_widened(b).items()}
    assert by_arm[True] is None
    assert by_arm[False] is b.args[0].value  # `bos` is `i_n * T` in the `else` arm
    assert flow.index_multiplies_widened(e) == {}  # an int32 cast widens nothing

    c_cast = cst.ensure_type(cst.ensure_type(value(flow, "c"), cst.BinaryOperation).left, cst.Call)
    d_sum = cst.ensure_type(cst.ensure_type(value(flow, "d"), cst.BinaryOperation).left, cst.BinaryOperation)
    assert flow.scaled_after(c_cast) and flow.scaled_after(cst.ensure_type(d_sum.left, cst.Call))
    assert not flow.scaled_after(a)


KEPT_VALUES_KERNEL = """
@triton.jit
def k(x, n, BT: tl.constexpr):
    rows = tl.arange(0, BT)
    a = rows[:, None]
    b = rows[None, :]
    c = tl.maximum(n, tl.minimum(rows, n - 1))
    d = rows[1:, None]
    e = tl.cdiv(rows, 2)
    f = tl.minimum(rows, n, propagate_nan=tl.PropagateNan.ALL)
"""


def test_value_kept_from_broadcasts_and_clamps() -> None:
    """A broadcast keeps its tile's value, a clamp its bounds' (`propagate_nan` is no bound);
    a slice that drops rows and other calls keep nothing."""
    flow = flow_of(KEPT_VALUES_KERNEL)
    a, b, c, d, e, f = (value(flow, name) for name in "abcdef")
    assert flow.value_kept_from(a) == (cst.ensure_type(a, cst.Subscript).value,)
    assert flow.value_kept_from(b) == (cst.ensure_type(b, cst.Subscript).value,)
    outer, inner = cst.ensure_type(c, cst.Call).args
    assert flow.value_kept_from(c) == (outer.value, inner.value)
    assert flow.value_kept_from(inner.value) == tuple(arg.value for arg in cst.ensure_type(inner.value, cst.Call).args)
    assert flow.value_kept_from(d) == ()
    assert flow.value_kept_from(e) == ()
    assert flow.value_kept_from(f) == tuple(arg.value for arg in cst.ensure_type(f, cst.Call).args[:2])


SLOTS = [f"s{i}" for i in range(6)]


def rotating_slots_kernel(blocks: int) -> str:
    """A kernel of the shape of a CV-pipelined one (MindIE-SD's sparse attention): task slots
    rewritten by tuple unpacking under a runtime `if` at the top of nested loops, then read in
    `blocks` blocks below, each with a runtime `if` of its own."""
    body = [
        "@triton.jit",
        "def k(x, n, m):",
        "    pid = tl.program_id(0)",
        f"    {', '.join(SLOTS)} = {', '.join('0' for _ in SLOTS)}",
        "    for i in range(pid, n, 20):",
        "        for j in range(0, m):",
        "            if j < m - 3:",
        f"                {', '.join(SLOTS)} = {', '.join(SLOTS[1:])}, i + j",
    ]
    for block in range(blocks):
        body += [
            f"            u{block} = {SLOTS[block % len(SLOTS)]} * {block + 1}",
            f"            if u{block} > {block}:",
            f"                tl.store(x + u{block}, j)",
        ]
    return "\n".join(body) + "\n"


def walk_steps(blocks: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """The states the backward walks step onto while every read of a slot is asked whether it
    is wide (what the tile model asks of each scalar operand)."""
    flow = flow_of(rotating_slots_kernel(blocks))
    steps = 0
    arrive = Flow._arrive

    def counted(self: Flow, *args: object) -> object:
        nonlocal steps
        steps += 1
        return arrive(self, *args)  # type: ignore[arg-type]

    with monkeypatch.context() as patched:
        patched.setattr(Flow, "_arrive", counted)
        for slot in SLOTS:
            for event in reads(flow, slot):
                assert not flow.wide_everywhere(cst.ensure_type(event.node, cst.Name))
    return steps


def test_the_reads_of_many_rewritten_slots_are_resolved_in_linear_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each read walks back over the whole loop body to its slot's definitions; the reads of
    one name share the walk, so doubling the body doubles the steps (not quadruples them)."""
    small, large = walk_steps(40, monkeypatch), walk_steps(80, monkeypatch)
    assert large <= 2.2 * small, (small, large)


def test_an_assignment_expression_binds_its_target_after_its_value() -> None:
    """`(r := pid * BT)` defines `r` (after the reads of its value, before the rest of the
    statement reads `r`), so a later read of `r` holds `pid * BT`: not a global, which Triton
    would read as a constexpr; the walrus itself has its value's flags."""
    flow = flow_of(
        """
@triton.jit
def k(x, T, BT: tl.constexpr):
    pid = tl.program_id(0)
    if (r := pid * BT) < T + r:
        tl.store(x + r, 0.0)
"""
    )
    (definition,) = flow.defs["r"]
    assert definition.kind == DEF and isinstance(definition.value, cst.BinaryOperation)
    pid_read = next(e for e in flow.events if e.kind == READ and e.name == "pid")
    r_reads = reads(flow, "r")
    assert len(r_reads) == 2 and pid_read.index < definition.index < r_reads[0].index
    assert all(flow.reaching(read.node) == [definition] for read in r_reads)
    assert all(flow.flags(read.node) & PID and not flow.is_constexpr(read.node) for read in r_reads)
    walrus = flow.parents[definition.node]
    assert isinstance(walrus, cst.NamedExpr) and flow.binding(walrus) is definition
    assert flow.flags(walrus) & PID
