"""Value facts where a name is read (issue 10, bullet 3): the definitions reaching the read
along paths whose constexpr test outcomes agree, one variant per outcome; runtime tests and
loops make a name runtime; definitions carried round a loop reach its header."""

from __future__ import annotations

import libcst as cst
import pytest
from conftest import snippet_source
from test_flow import flow_of, reads

from ascend_lint.flow import BOXED, CONST, LOADED, NARROW, PHI, PID, SCALAR


def findings(lint, code: str) -> list[tuple[int, str]]:
    source, offset = snippet_source(code)
    return sorted((f.location.row - offset, f.code) for f in lint(source))


VARLEN = """
@triton.jit(do_not_specialize=["T"])
def k(x, cu_seqlens, T, H: tl.constexpr, V: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_n, i_h = tl.program_id(0), tl.program_id(1)
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
        T = eos - bos
    else:
        bos, eos = i_n * T, i_n * T + T
    x += ((bos * H + i_h) * V).to(tl.int64)
"""


def test_fla_varlen_idiom_reports_both_casts(lint) -> None:
    # after the `if`, the non-varlen variant of `bos` is an int32 product (the loaded one of
    # the varlen arm does not hide it)
    assert findings(lint, VARLEN) == [(9, "ASC002")]
    # in the else arm only the parameter `T` reaches: the varlen arm's `T = eos - bos` does not
    cast_in_else = VARLEN.replace("bos, eos = i_n * T, i_n * T + T", "bos = (i_n * T).to(tl.int64)")
    assert findings(lint, cast_in_else) == [(8, "ASC002")]


def test_a_wrap_in_some_specialisations_names_them(lint) -> None:
    def message(code: str) -> str:
        return lint(snippet_source(code)[0])[0].message

    wide_varlen = VARLEN.replace(".to(tl.int32)", ".to(tl.int64)")
    assert "wraps in int32 (when `IS_VARLEN` is false):" in message(wide_varlen)
    # an int32 load in the varlen arm may wrap too (ASC008's case): no specialisation is named
    assert "wraps in int32:" in message(VARLEN)
    assert "wraps in int32:" in message(VARLEN.replace("tl.load(cu_seqlens + i_n).to(tl.int32)", "i_n * T"))


def test_a_name_has_one_variant_per_constexpr_outcome() -> None:
    flow = flow_of(VARLEN)
    after = reads(flow, "bos")[-1]
    variants = sorted(flow.variants(after.node), key=lambda v: sorted(v[1]))
    assert variants == [
        (PID | SCALAR | BOXED, frozenset({("IS_VARLEN", False)})),
        (LOADED | NARROW | BOXED, frozenset({("IS_VARLEN", True)})),  # loaded `.to(tl.int32)`
    ]
    in_else = reads(flow, "T")[0]
    assert flow.variants(in_else.node) == [(SCALAR, frozenset({("IS_VARLEN", False)}))]


DONE = """
@triton.jit
def k(x, f, out, h0, NT, USE_H0: tl.constexpr):
    if USE_H0:
        tl.store(out, tl.load(h0))
    done = False
    cnt = 0
    for i in range(NT):
        if tl.load(f + i) != 0:
            done = True
            cnt += 1
    if not done or cnt < NT:
        tl.store(out, tl.load(h0 + 1))
    tl.store(out + 1, cnt.to(tl.int64))
"""


def test_a_literal_changed_under_a_runtime_test_is_runtime(lint) -> None:
    # `done` and `cnt` change under a runtime test in a loop: runtime values, so the last
    # `if` is not a constexpr flag OR-ed with a runtime test (no ASC004) and the counter's
    # `.to` is not a constexpr's (no ASC002)
    flow = flow_of(DONE)
    test = flow.branches[-1].node.test
    done_read = test.left.expression
    assert isinstance(done_read, cst.Name) and done_read.value == "done"
    assert flow.flags(done_read) == CONST | BOXED | PHI
    assert not flow.is_constexpr(done_read)
    (cnt_read,) = [e for e in reads(flow, "cnt") if e.index > flow.branches[-1].point.index]
    assert flow.flags(cnt_read.node) & PHI
    assert findings(lint, DONE) == []


def test_a_literal_changed_only_under_a_constexpr_test_stays_constexpr() -> None:
    flow = flow_of(
        """
@triton.jit
def k(x, MODE: tl.constexpr):
    scale = 1
    if MODE == 2:
        scale = 2
    y = scale
"""
    )
    (use,) = reads(flow, "scale")
    assert flow.is_constexpr(use.node)
    assert not flow.is_python_constexpr(use.node)  # assigned: a tensor to the front end
    assert sorted(assumed for _, assumed, _ in flow._reach(use)) == [
        frozenset({("MODE==2", False)}),
        frozenset({("MODE==2", True)}),
    ]


@pytest.mark.parametrize(
    ("loop", "carried_is_runtime"),
    [("range(N)", True), ("tl.range(0, N)", True), ("tl.static_range(4)", False)],
)
def test_definitions_carried_round_a_loop_reach_its_header(loop: str, carried_is_runtime: bool) -> None:
    flow = flow_of(
        f"""
@triton.jit
def k(x, N):
    acc = 0
    for i in {loop}:
        y = acc
        acc = 1
"""
    )
    (use,) = reads(flow, "acc")
    assert [d.index for d, _, _ in flow._reach(use)] == [d.index for d in flow.defs["acc"]]
    assert bool(flow.flags(use.node) & PHI) is carried_is_runtime


def test_assigned_names_are_tensors_to_the_front_end(lint) -> None:
    # measured on triton-ascend 3.2: `c = BT * 2; c.to(...)` compiles, `(BT * 2).to(...)` does not
    assert findings(
        lint,
        """
@triton.jit
def k(x, BT: tl.constexpr):
    c = BT * 2
    a = c.to(tl.int64)
    b = (BT * 2).to(tl.int64)
    NB: tl.constexpr = BT * 2
    d = NB.to(tl.int64)
""",
    ) == [(5, "ASC002"), (7, "ASC002")]


def test_int64_operands_and_constant_factors_do_not_wrap(lint) -> None:
    assert findings(
        lint,
        """
@triton.jit(do_not_specialize=["T"])
def k(x, T, MULTI: tl.constexpr):
    i_b = tl.program_id(0).to(tl.int64)
    if MULTI:
        i_n = tl.program_id(1)
    else:
        i_n = 0
    a = (i_b * T).to(tl.int64)
    b = (i_n * T).to(tl.int64)
    c = (tl.program_id(1) * T).to(tl.int64)
""",
    ) == [(9, "ASC002"), (10, "ASC002")]  # `i_n * T` wraps when MULTI, is 0 otherwise


def test_flags_of_a_synthetic_name_fall_back_to_every_definition() -> None:
    flow = flow_of(VARLEN)
    assert flow.flags(cst.Name("bos")) == LOADED | NARROW | PID | SCALAR | BOXED


def test_reach_through_runs_arms_and_a_back_edge() -> None:
    # `acc` read after `if FLAG: acc = y` in a loop: from the body arm (FLAG true); from the
    # else arm back out of the loop to `acc = 0`; not round the back-edge to `acc = y`, as the
    # loop rebinds nothing `FLAG` reads, so every trip takes the else arm the walk came from.
    # The walk passes the run of reads and the call in `y = ...` on each way back.
    flow = flow_of(
        """
@triton.jit
def k(x, N, FLAG: tl.constexpr):
    acc = 0
    for i in range(N):
        y = tl.load(x + i) + acc * 2 + i
        if FLAG:
            acc = y
        z = acc + 1
"""
    )
    use = reads(flow, "acc")[-1]
    initial, in_arm = flow.defs["acc"]
    on = frozenset({("FLAG", True)})
    off = frozenset({("FLAG", False)})
    assert flow._reach(use) == [(initial, off, None), (in_arm, on, None)]


def test_reach_takes_the_outcome_of_an_arm_it_walks_back_into() -> None:
    # after `if not FLAG: return`, only FLAG true runs on: `acc = 0` reaches `z = acc` only
    # through the else arm of `if FLAG:` (FLAG false), so it does not reach it at all; the
    # walk enters the arm from `t = x + 1`, whose events have no arm
    flow = flow_of(
        """
@triton.jit
def k(x, FLAG: tl.constexpr):
    acc = 0
    if FLAG:
        acc = 1
    if not FLAG:
        return
    t = x + 1
    z = acc
"""
    )
    (use,) = reads(flow, "acc")
    _, in_arm = flow.defs["acc"]
    assert flow._reach(use) == [(in_arm, frozenset({("FLAG", True)}), None)]


def guarded_updates(levels: int) -> str:
    """fla's log-linear attention shape: a value updated under `levels` constexpr tests in a
    row (each also under a runtime test), then read. A walk that tells paths apart by every
    outcome they passed meets 2^levels paths."""
    updates = "".join(
        f"    if MIN_LEVEL <= {level} and MAX_LEVEL >= {level}:\n"
        f"        if c & {2**level}:\n"
        f"            b_o += tl.load(x + {level} * BT + o)\n"
        for level in range(levels)
    )
    return (
        "@triton.jit\n"
        "def k(x, y, c, MIN_LEVEL: tl.constexpr, MAX_LEVEL: tl.constexpr, BT: tl.constexpr):\n"
        "    o = tl.arange(0, BT)\n"
        "    b_o = tl.zeros([BT], dtype=tl.float32)\n"
        f"{updates}"
        "    step = 1\n"
        "    if MIN_LEVEL == 0:\n"
        "        step = 2\n"
        "    tl.store(y + o * step, (b_o * 2).to(tl.float16))\n"
    )


def exact_walk(flow):
    """`flow` answering every read from `Flow._reach`, which lists each path's outcomes."""
    flow._tracks_many = lambda use: False
    return flow


@pytest.mark.parametrize("levels", [5, 6, 7])
def test_reads_past_many_tests_get_the_answers_of_the_walk_that_lists_every_path(levels: int) -> None:
    source = guarded_updates(levels)
    flow, exact = flow_of(source), exact_walk(flow_of(source))
    assert any(flow._tracks_many(use) for use in reads(flow, "b_o"))
    for name in ("b_o", "step"):
        for use, same in zip(reads(flow, name), reads(exact, name), strict=True):
            assert flow.variants(use.node) == exact.variants(same.node)
            assert [d.index for d in flow.reaching(use.node)] == [d.index for d in exact.reaching(same.node)]
            specs = {None, *(assumed for _, assumed, _ in exact._reach(same))}
            for spec in specs:
                assert flow.constant_int(use.node, spec) == exact.constant_int(same.node, spec)


def test_a_read_past_forty_tests_takes_linear_time() -> None:
    from ascend_lint.budget import time_budget

    flow, small = flow_of(guarded_updates(40)), exact_walk(flow_of(guarded_updates(6)))
    with time_budget(20):  # 2^40 paths would never end: the budget's FileTimeout fails the test
        variants = flow.variants(reads(flow, "b_o")[-1].node)  # the read stored, after the updates
    expected = small.variants(reads(small, "b_o")[-1].node)
    assert variants == expected
