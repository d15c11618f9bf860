"""Launch facts of the host index: grids, the device core counts they hold, the runtime sizes
they multiply, and launches made through launcher helpers."""

from __future__ import annotations

import dataclasses
import itertools
import re
import textwrap
from pathlib import Path

import libcst as cst
import pytest
from conftest import FIXTURES

from ascend_lint import host
from ascend_lint.host import HostIndex, HostMemory, Passed
from ascend_lint.imports import ImportMap
from ascend_lint.incremental import IncrementalParser
from ascend_lint.kernels import ImportedFunctions, Kernel, find_kernels
from ascend_lint.nodes import walk

KERNEL = """
import triton
import triton.language as tl

def props():
    return triton.runtime.driver.active.utils.get_device_properties(0)

@triton.jit
def k(x, n, BT: tl.constexpr):
    tl.store(x + tl.program_id(0) * BT + tl.arange(0, BT), 0.0)
"""


def index(host: str) -> tuple[HostIndex, Kernel, cst.Module]:
    source = KERNEL + textwrap.dedent(host)
    module = cst.parse_module(source)
    kernels = find_kernels(module, ImportMap(module, source))
    return HostIndex(module, kernels), kernels[0], module


def code_of(module: cst.Module, node: cst.CSTNode | None) -> str | None:
    """The code of a node of `module` (None for none)."""
    return None if node is None else module.code_for_node(node)


def passed_code(module: cst.Module, passed: Passed | None) -> str | None:
    """The code of what a launch passes (None for nothing visible)."""
    return None if passed is None else module.code_for_node(passed.value)


def launch_facts(host: str) -> list[tuple[str, str | None, tuple[str, ...] | None]]:
    """(grid, core count of its first axis, runtime sizes) for each launch of `k`."""
    hosts, kernel, module = index(host)
    found = []
    for launch in hosts.launches_with_helpers(kernel):
        for grid in hosts.grids(launch):
            count = hosts.core_count(grid.axes[0], grid.scope)
            found.append(
                (
                    module.code_for_node(grid.written),
                    count.kind if count else None,
                    tuple(size for extent in hosts.grid_extents(grid, launch) for size in extent or ()),
                )
            )
    return found


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        # a core count read in a helper, through min(); bounded
        (
            "def f(x, n):\n    c = props()['num_aicore']\n    k[(min(c, n),)](x, n, BT=64)\n",
            [("(min(c, n),)", "num_aicore", ())],
        ),
        # fla's helper: the vector cores unless use_aicore=True
        (
            "def f(x, n):\n    k[(get_multiprocessor_count(0),)](x, n, BT=64)\n"
            "    k[(get_multiprocessor_count(0, use_aicore=True),)](x, n, BT=64)\n",
            [
                ("(get_multiprocessor_count(0),)", "num_vectorcore", ()),
                ("(get_multiprocessor_count(0, use_aicore=True),)", "num_aicore", ()),
            ],
        ),
        # counts a helper of the module returns in a tuple, by position: its own `NUM` is
        # read in it, not the module's
        (
            "NUM = props()['num_aicore']\n\ndef counts():\n    NUM = props()['num_vectorcore']\n"
            "    return NUM, props()['num_aicore']\n\n"
            "def f(x, n):\n    k[(counts()[0],)](x, n, BT=64)\n    vec, cube = counts()\n    k[(cube,)](x, n, BT=64)\n",
            [("(counts()[0],)", "num_vectorcore", ()), ("(cube,)", "num_aicore", ())],
        ),
        # shapes unpacked into names, cdiv by a literal-bound name, a grid lambda with META
        (
            "def f(x, BT=64):\n    B, T, H = x.shape\n    NT = triton.cdiv(T, BT)\n"
            "    k[(NT, B * H)](x, T, BT=BT)\n    k[lambda META: (triton.cdiv(T, META['BT']), B)](x, T, BT=BT)\n",
            [
                ("(NT, B * H)", None, ("NT", "B", "H")),
                ("(triton.cdiv(T, META['BT']), B)", None, ("T/META['BT']", "B")),
            ],
        ),
        # shapes unpacked around a starred name: the names before it and after it are
        # extents, the starred one the slice between (`*batch, D = x.shape`)
        (
            "def f(x):\n    B, T, *_ = x.shape\n    *batch, D = x.shape\n"
            "    k[(B * T, batch[0] * batch[1], math.prod(batch))](x, D, BT=64)\n",
            [
                (
                    "(B * T, batch[0] * batch[1], math.prod(batch))",
                    None,
                    ("B", "T", "batch[0]", "batch[1]", "x.shape[:-1][0]", "prod(x.shape[:-1][1:])"),
                )
            ],
        ),
        # a size from a caller, and an axis nobody shows: left out (it is at least 1)
        (
            "def f(x, n, chunk):\n    k[(n, chunk)](x, n, BT=64)\n\ndef api(x):\n    f(x, x.shape[0], pick())\n",
            [("(n, chunk)", None, ("n",))],
        ),
        # an unknown value inside an axis makes the whole axis unknown (it may cap the sizes)
        (
            "def f(x):\n    B, H = x.shape\n    k[(min(B * H, cap()), B // split(), H)](x, 1, BT=64)\n",
            [("(min(B * H, cap()), B // split(), H)", None, ("H",))],
        ),
        # `a if c else b`: a size when both arms are, unknown when one is bounded
        (
            "def f(x, cu):\n    B, T = x.shape\n    NT = triton.cdiv(T, 64) if cu is None else len(cu)\n"
            "    N = B if cu is None else 1\n    k[(NT, N, B if cu else T)](x, T, BT=64)\n",
            [("(NT, N, B if cu else T)", None, ("NT", "B if cu else T"))],
        ),
        # min() is at most its smallest product, max() at least its largest, int() its argument
        (
            "def f(x):\n    B, T, H = x.shape\n    n = min(B, T)\n"
            "    k[(n, min(B * H, T), max(B * H, T, 1), int(B * T))](x, n, BT=64)\n",
            [("(n, min(B * H, T), max(B * H, T, 1), int(B * T))", None, ("n", "min(B * H, T)", "B", "H", "B", "T"))],
        ),
        # a budget axis cancels the sizes it divides by in axes that are exactly their product,
        # one by one; not in a sum (`B * H + T`), nor when it is at least 1 (`max(1, ...)`)
        (
            "def f(x):\n    B, T, H = x.shape\n    per_head = 4096 // H\n"
            "    k[(B, H, T, min(T, per_head // B))](x, T, BT=64)\n"
            "    k[(B * H + T, 32768 // (B * H))](x, T, BT=64)\n"
            "    k[(B * H, max(1, 32768 // (B * H)))](x, T, BT=64)\n",
            [
                ("(B, H, T, min(T, per_head // B))", None, ("T",)),
                ("(B * H + T, 32768 // (B * H))", None, ("B", "H")),
                ("(B * H, max(1, 32768 // (B * H)))", None, ("B", "H")),
            ],
        ),
        # a starred element takes the names the others leave
        (
            "def f(x, v):\n    B, T, H, V = *x.shape, v.shape[-1]\n    k[(B * H, V)](x, T, BT=64)\n",
            [("(B * H, V)", None, ("B", "H", "V"))],
        ),
        # a grid name bound twice in straight-line code: each launch has its own
        (
            "def f(x):\n    B, T = x.shape\n    grid = (B, T)\n    k[grid](x, T, BT=64)\n"
            "    grid = (B, 4)\n    k[grid](x, T, BT=64)\n",
            [("(B, T)", None, ("B", "T")), ("(B, 4)", None, ("B",))],
        ),
        # sizes a helper of the module returns in a tuple, read in the helper (`M` is its own
        # name there); unknown when one of its returns is no tuple
        (
            "def _prepare(x):\n    M, N = x.shape\n    return x.contiguous(), M, N\n\n"
            "def _cached(x):\n    if x in CACHE:\n        return CACHE[x]\n    return x, x.shape[0]\n\n"
            "def f(x):\n    x, M, N = _prepare(x)\n    k[(M, _prepare(x)[2], _cached(x)[1], 4)](x, M, BT=64)\n",
            [("(M, _prepare(x)[2], _cached(x)[1], 4)", None, ("M", "_prepare(x)[2]"))],
        ),
        # names unpacked from a conditional of tuples: each gets its arms' own element
        # (unknown when an arm is unknown)
        (
            "def f(x):\n    m, n = x.shape\n    BM, BN = (1, 256) if m <= 16 else (8, 1024)\n"
            "    TM, TN = (1, 256) if m <= 16 else pick(m)\n"
            "    k[(triton.cdiv(m, BM), triton.cdiv(n, BN), triton.cdiv(m, TM))](x, m, BT=BN)\n",
            [("(triton.cdiv(m, BM), triton.cdiv(n, BN), triton.cdiv(m, TM))", None, ("m/BM", "n/BN"))],
        ),
        # a name rebound after the launch (a cache hit's path, after the miss's `return`), or
        # after the grid a closure launches is written, does not reach it; in a loop it may
        (
            "def f(x):\n    B, T = x.shape\n    if x not in CACHE:\n        k[(B, T)](x, T, BT=64)\n"
            "        return x\n    B, _ = CACHE[x]\n\n"
            "def g(x):\n    B, T = x.shape\n    grid = (B, T)\n\n    def run():\n        k[grid](x, T, BT=64)\n\n"
            "    B = CACHE[x]\n    return run\n\n"
            "def h(x, records):\n    B, T = x.shape\n    while records:\n        k[(B, T)](x, T, BT=64)\n"
            "        B = records.pop()\n",
            [("(B, T)", None, ("B", "T")), ("(B, T)", None, ("B", "T")), ("(B, T)", None, ("T",))],
        ),
        # an update in place reads the earlier value (`n *= d` is `n = n * d`): a product over a
        # loop of a shape's extents is one size, one divided by a size or taken modulo unknown
        (
            "def f(x, dim):\n    pre = 1\n    for d in x.shape[:dim]:\n        pre *= d\n"
            "    n = x.shape[-1]\n    n += 8\n    rows = x.shape[0]\n    rows //= x.shape[1]\n"
            "    tail = x.shape[1]\n    tail %= 4\n    k[(pre, n, rows, tail)](x, n, BT=64)\n",
            [("(pre, n, rows, tail)", None, ("pre", "n"))],
        ),
        # a name bound in the arms of an `if` picking a variant is the arm multiplying the most
        # sizes; one size when the test orders values (the arm may cap it) or in a loop
        (
            "def f(x):\n    n = x.dim()\n    if n == 3:\n        b, s, d = x.shape\n        bs = b * s\n"
            "    else:\n        bs, d = x.shape\n    if x.shape[0] > 64:\n        rows = 64\n"
            "    else:\n        rows = x.shape[0] * d\n    m = d\n    for t in x:\n        m = t.shape[0] * d\n"
            "    k[(bs, rows, m)](x, d, BT=64)\n",
            [("(bs, rows, m)", None, ("b", "s", "rows", "m"))],
        ),
        # a name read in its own values through another (`s = bs` in one arm, `bs = b * s` in
        # the other) is sized from its other origins, without going round the cycle
        (
            "def f(x):\n    if x.dim() == 3:\n        b, s, d = x.shape\n        bs = b * s\n"
            "    else:\n        bs, d = x.shape\n        b, s = 1, bs\n    k[(bs,)](x, d, BT=64)\n"
            "    k[(b, s)](x, d, BT=64)\n",
            [("(bs,)", None, ("b", "s")), ("(b, s)", None, ("b", "s"))],
        ),
        # an update after the launch does not reach it
        (
            "def f(x):\n    n, m = x.shape\n    k[(n, m)](x, 1, BT=64)\n    n //= m\n",
            [("(n, m)", None, ("n", "m"))],
        ),
        # an update reading another updated name reads that one's updates too
        (
            "def f(x):\n    pad = 64\n    n, m = x.shape\n    m += pad\n    n = max(n, m)\n    k[(n, m)](x, 1, BT=64)\n",
            [("(n, m)", None, ("n", "m"))],
        ),
        # an item the module does not show, allocated with: a size; not allocated, a setting
        (
            'def f(x, cfg):\n    L = cfg["len"]\n    out = torch.empty(L, L)\n    s = cfg["splits"]\n'
            "    k[(L, L, s)](out, 1, BT=64)\n",
            [("(L, L, s)", None, ("L", "L"))],
        ),
        # a launcher helper launching the kernel passed to it
        (
            "def launch(kernel, n):\n    kernel[(n.numel(), 4)](n, 1, BT=64)\n\ndef f(x):\n    launch(k, x)\n",
            [("(n.numel(), 4)", None, ("n.numel()",))],
        ),
        # a tensor's element count over some of its own extents and bounded values is its rows
        # (one size); over another tensor's extent, or a value nothing shows, it is unknown
        (
            "def f(g, w, n):\n    H, K = g.shape[-2:]\n    T = g.numel() // (H * K)\n"
            "    k[(T, g.numel() // g.shape[-1] // H, math.prod(g.shape) // (H * 128))](g, 1, BT=64)\n"
            "    k[(g.numel() // (H * w.shape[0]), g.numel() // (n * K), g.numel() // (H * K * n))](g, 1, BT=64)\n",
            [
                (
                    "(T, g.numel() // g.shape[-1] // H, math.prod(g.shape) // (H * 128))",
                    None,
                    ("T", "g.numel() // g.shape[-1] // H", "math.prod(g.shape) // (H * 128)"),
                ),
                ("(g.numel() // (H * w.shape[0]), g.numel() // (n * K), g.numel() // (H * K * n))", None, ()),
            ],
        ),
        # an extent read as a Python int (`int(x.shape[0])`, `operator.index(x.size(0))`, `len(x)`
        # is `x.shape[0]`) divides the element count into rows all the same
        (
            "def f(x):\n    rows = int(x.shape[0])\n    n = len(x)\n    m = operator.index(x.size(0))\n"
            "    k[(x.numel() // rows, x.numel() // n, x.numel() // m)](x, 1, BT=64)\n",
            [
                (
                    "(x.numel() // rows, x.numel() // n, x.numel() // m)",
                    None,
                    ("x.numel() // rows", "x.numel() // n", "x.numel() // m"),
                )
            ],
        ),
    ],
)
def test_launch_facts(host: str, expected: list) -> None:
    assert launch_facts(host) == expected


def test_the_dimensions_a_function_allocates_a_tensor_with() -> None:
    """Dimensions (positional, one sequence, `size=`) of torch's allocations and `x.new_*`;
    not the fill value of `torch.full` / `new_full`, the strides of `torch.empty_strided`, a
    `.view` dimension, nor another library's allocation."""
    hosts, _, module = index(
        "def f(x, fill, stride, n_np):\n"
        "    a = torch.empty(b1, b2, dtype=torch.int8)\n"
        "    c = torch.zeros((b3, 4))\n"
        "    d = torch.full([b4, b5], fill)\n"
        "    e = torch.empty_strided((b6,), (stride,))\n"
        "    g = x.new_empty(size=(b7,))\n"
        "    h = x.new_full((b8,), fill)\n"
        "    i = x.new_zeros(b9, 2)\n"
        "    j = torch.randn(b10)\n"
        "    v = x.view(n_view, -1)\n"
        "    w = numpy.empty(n_np)\n"
    )
    [function] = [node for node in module.body if isinstance(node, cst.FunctionDef) and node.name.value == "f"]
    found = {name for name, scope in hosts.allocated_dimensions if scope is None or scope is function}
    assert found == {f"b{number}" for number in range(1, 11)}


def test_the_extent_a_value_or_a_name_is_of_a_tensor_read_as_one() -> None:
    """`extent_position`: the tensor and position of an extent, written in any of its forms or
    bound to a name by assignment, also read as an int (`int(...)`, `operator.index(...)`, `len(x)`
    is `x.shape[0]`), when the tensor's name holds one tensor in the function; not
    a position that is no literal, a name bound to several extents or by a loop over them, nor
    an extent of a tensor the function rebinds."""
    hosts, _, module = index(
        "def f(x, g, y, dim):\n"
        "    m, k = x.shape\n"
        "    shape = x.shape\n"
        "    y = y.contiguous()\n"
        "    rows = x.shape[0] if dim else x.shape[1]\n"
        "    for d in x.shape[:2]:\n"
        "        pass\n"
        "    p_shape = x.shape[0]\n"
        "    p_size = x.size(1)\n"
        "    p_sizes = x.size()[1]\n"
        "    p_sliced = x.shape[1:][0]\n"
        "    p_tail = g.shape[-2:][1]\n"
        "    p_last = g.shape[-1]\n"
        "    p_named = shape[1]\n"
        "    p_unpacked = m\n"
        "    p_at_dim = x.shape[dim]\n"
        "    p_rebound = y.shape[0]\n"
        "    p_either = rows\n"
        "    p_looped = d\n"
        "    p_int = int(x.shape[0])\n"
        "    p_index = operator.index(x.size(1))\n"
        "    p_len = len(x)\n"
        "    p_int_len = int(len(g))\n"
        "    p_len_of_shape = len(x.shape)\n"
    )
    [function] = [node for node in module.body if isinstance(node, cst.FunctionDef) and node.name.value == "f"]
    found = {
        name: hosts.extent_position(values[0], function)
        for (name, scope), values in hosts.bindings.items()
        if scope is function and name.startswith("p_")
    }
    assert found == {
        "p_shape": ("x", 0),
        "p_size": ("x", 1),
        "p_sizes": ("x", 1),
        "p_sliced": ("x", 1),
        "p_tail": ("g", -1),
        "p_last": ("g", -1),
        "p_named": ("x", 1),
        "p_unpacked": ("x", 0),
        "p_at_dim": None,
        "p_rebound": None,
        "p_either": None,
        "p_looped": None,
        "p_int": ("x", 0),
        "p_index": ("x", 1),
        "p_len": ("x", 0),
        "p_int_len": ("g", 0),
        "p_len_of_shape": None,
    }


def test_a_helper_rebinding_its_names_in_conditionals_is_sized_in_few_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """`parts = 4 if parts > 4 else parts` and the like reach a name through many paths: each
    name is worked out once per hop count, not once per path (vllm-ascend 0.30.0rc2
    compute_slot_mapping.py took over 300 s once its helper's returned tuple was read)."""
    calls = itertools.count()
    extent = HostIndex._extent

    def counted(hosts: HostIndex, value: cst.BaseExpression, scope: host.Scope, hops: int) -> tuple[str, ...] | None:
        assert next(calls) < 5000, "sized through every path"
        return extent(hosts, value, scope, hops)

    monkeypatch.setattr(HostIndex, "_extent", counted)
    config = (
        "def _config(m, n, cap=1024):\n    tile = cap\n    if m > 1:\n        per = (n + m - 1) // m\n"
        "        per = 1 if per < 1 else per\n        tile = per if per < cap else cap\n"
        "    parts = (n + tile - 1) // tile\n    parts = 4 if parts > 4 else parts\n"
        "    if m == 1:\n        parts = parts if n >= 2 * tile else 1\n    else:\n        parts = 1\n"
        "    return tile, parts\n\n"
    )
    launch = "def f(x):\n    m, n = x.shape\n    tile, parts = _config(m, n)\n    k[(m, parts)](x, tile, BT=64)\n"
    assert launch_facts(config + launch) == [("(m, parts)", None, ("m",))]


def test_names_updating_one_another_are_sized_in_few_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """`v0 *= v1 + v2 + ...` for eight names, each updated with all the others: every order in
    which the updates read one another was a name being updated (1,753,608 steps;
    a dozen names, updated in six rounds, ran past 300 s). An updated name read inside the
    updates of two others is unknown, so each name is worked out in few contexts."""
    calls = itertools.count()
    extent = HostIndex._extent

    def counted(hosts: HostIndex, value: cst.BaseExpression, scope: host.Scope, hops: int) -> tuple[str, ...] | None:
        assert next(calls) < 5000, "sized in every order of the updates"
        return extent(hosts, value, scope, hops)

    monkeypatch.setattr(HostIndex, "_extent", counted)
    names = [f"v{i}" for i in range(8)]
    body = "".join(f"    {name} = x.shape[{i % 3}]\n" for i, name in enumerate(names))
    body += "".join(f"    {name} *= {' + '.join(o for o in names if o != name)}\n" for name in names)
    grid = f"({', '.join(names)},)"
    assert launch_facts(f"def f(x):\n{body}    k[{grid}](x, 1, BT=64)\n") == [(grid, None, ())]


def test_an_and_of_ors_is_split_into_few_cases() -> None:
    """`(a == 0 or a == 100) and (b == 1 or b == 101) and ...` holds in the product of its `or`s'
    cases (1,024 for ten, walked by ASC010's guards and `orderings`: 189 s for sixteen before
    the launch); past `MAX_CASES` the test is one case of itself, which orders nothing."""
    test = cst.parse_expression(" and ".join(f"(n{i} == {i} or n{i} == {i + 100})" for i in range(10)))
    assert host.holding_cases(test, True) == [((test, True),)]
    assert list(host.orderings(test, True)) == []
    small = cst.parse_expression("(n == 1 or n == 2) and m <= 4")
    assert len(host.holding_cases(small, True)) == 2
    code = cst.Module([]).code_for_node
    assert [(code(lesser), [code(each) for each in greaters]) for lesser, greaters in host.orderings(small, True)] == [
        ("m", ["4"])
    ]


def test_a_tuple_of_many_starred_grids_is_read_as_written() -> None:
    """`(*g0, ..., *g7)`, each of three grids: the product of their grids (6,561, 38 s)
    is past `MAX_GRIDS`, so the tuple is read as written, each starred part one axis."""
    names = [f"g{i}" for i in range(8)]
    body = "".join(f"    {g} = (B,) if a == {i} else (H,)\n    {g} = (T,) if a else {g}\n" for i, g in enumerate(names))
    grid = f"({', '.join('*' + g for g in names)})"
    hosts, kernel, module = index(f"def f(x, a):\n    B, T, H = x.shape\n{body}    k[{grid}](x, T, BT=64)\n")
    [launch] = hosts.launches_with_helpers(kernel)
    [read] = hosts.grids(launch)
    assert [module.code_for_node(axis) for axis in read.axes] == names


def test_a_grid_concatenated_with_itself_many_times_stays_fast() -> None:
    """`grid = grid + grid` forty times reads each earlier binding once (not 2**40 times), and
    the grids past `MAX_GRIDS` combinations of its parts are unknown (no grid), as any part
    no grid is; a chain of updates is read up to `MAX_GRID_UPDATES` deep (four were silent)."""
    doubled = "    grid = (B,) if a else (T,)\n" + "    grid = grid + grid\n" * 40
    hosts, kernel, _ = index(f"def f(x, a):\n    B, T = x.shape\n{doubled}    k[grid](x, T, BT=64)\n")
    [launch] = hosts.launches_with_helpers(kernel)
    assert hosts.grids(launch) == ()
    for updates, axes in ((4, [5]), (host.index.MAX_GRID_UPDATES, [17]), (400, [])):
        chained = "    grid = (B,)\n" + "    grid += (T,)\n" * updates
        hosts, kernel, _ = index(f"def f(x):\n    B, T = x.shape\n{chained}    k[grid](x, T, BT=64)\n")
        [launch] = hosts.launches_with_helpers(kernel)
        assert [len(grid.axes) for grid in hosts.grids(launch)] == axes


def test_a_launch_knows_the_loops_and_tests_around_it() -> None:
    hosts, kernel, _ = index(
        "def f(x, n):\n    if n > 4:\n        for off in range(0, n, 4):\n            k[(4,)](x, off, BT=64)\n"
        "    k[(1,)](x, n, BT=64)\n"
    )
    inner, outer = hosts.launches_of(kernel)
    assert [type(b).__name__ for b in inner.blocks] == ["If", "For"]
    assert len(inner.loops) == 1 and len(inner.guards) == 1
    assert outer.blocks == ()


def test_a_call_knows_the_loops_around_it() -> None:
    """`for` statements whose body or `else` holds the call (also around the functions it is
    in), comprehensions, lambda bodies; None where a `for` target or a lambda's parameters hold
    it; nothing for a loop's iterable."""
    hosts, _, module = index(
        """
        def f(space):
            for s in g(space):
                def inner(c=h(s)):
                    return [cfg(w) for w in (1, 2)]
                m(lambda p, q=d(s): e(p))
            else:
                r(s)
            for a(s).x in space:
                pass
        """
    )
    found = {
        module.code_for_node(call.func): [None if loop is None else type(loop).__name__ for loop in loops]
        for call, loops in hosts.loops_around.items()
    }
    assert found == {
        "h": ["For"],
        "cfg": ["For", "ListComp"],
        "m": ["For"],
        "d": ["For", None],
        "e": ["For", "Lambda"],
        "r": ["For"],
        "a": [None],
    }


def test_a_lambda_given_a_name_anywhere_returns_its_body_as_the_def_it_stands_for() -> None:
    """`HostFacts.returns`: a lambda written in a class body, stored as an attribute or given
    as a parameter's default returns its body, as one bound to a name does
    (`get_a = lambda: 1`): each is the `def` it stands for (one of `lambdas`), read where it is
    written. A lambda no name is given (an argument, a dict's value) is no function's."""
    hosts, _, module = index(
        """
        get_a = lambda: 1

        class Plat:
            get_b = lambda self: 2

            def __init__(self, get_c=lambda: 3):
                self.get_d = lambda: 4
                self.cfg.get_e = lambda: 5
                run(lambda: 6, {"x": lambda: 7})

        def tile(n, get_f=lambda: 8):
            return get_f() // n
        """
    )
    made = {
        name: [(module.code_for_node(value), function in hosts.lambdas) for value, function in returned]
        for name, returned in hosts.returns.items()
        if name.startswith("get_")
    }
    assert made == {f"get_{name}": [(value, True)] for name, value in zip("abcdef", "123458", strict=True)}
    function = hosts.returns["get_f"][0][1]
    assert hosts.enclosing[function] is None and function.params.params == ()


# ---- a document's re-lint: the host facts of the statements an edit did not touch -------------


def host_facts(hosts: HostIndex) -> object:
    """What a host index found (not its kernels, not which functions it met), nodes by their
    code: `B, T = x.shape` binds `B` to a `x.shape[0]` each walk builds anew, as it makes the
    `def` of a lambda (`lambdas`)."""

    def shape(value: object) -> object:
        if isinstance(value, cst.CSTNode):
            return type(value).__name__, cst.Module([]).code_for_node(value)
        if dataclasses.is_dataclass(value):
            return type(value).__name__, shape(dataclasses.astuple(value))
        if isinstance(value, dict):
            return tuple((shape(key), shape(item)) for key, item in value.items())
        if isinstance(value, list | tuple):
            return tuple(shape(item) for item in value)
        if isinstance(value, set):
            return tuple(sorted((shape(item) for item in value), key=repr))
        return value

    return shape({name: value for name, value in vars(hosts).items() if name not in ("kernels", "functions_met")})


@pytest.mark.parametrize("path", sorted((FIXTURES / "triton_ascend").glob("*.py")), ids=lambda p: p.name)
def test_a_re_lint_finds_the_host_facts_a_whole_walk_finds(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Edited: one statement changed, and `import triton` renamed, which makes every kernel
    decorated `@triton.jit` a plain function in statements the edit did not touch."""
    original = path.read_text(encoding="utf-8")
    parser, memory = IncrementalParser(), HostMemory()
    walked: list[cst.CSTNode] = []
    real_walk = host.HostFacts.walk
    monkeypatch.setattr(
        host.HostFacts,
        "walk",
        lambda facts, top, kernel_defs: walked.append(top) or real_walk(facts, top, kernel_defs),
    )
    for text in (
        original,
        original + "\n\ndef added():\n    return 1\n",
        original.replace("import triton\n", "import triton as tt\n", 1),
    ):
        walked.clear()
        module = parser.parse(text)
        kernels = find_kernels(module, ImportMap(module, text))
        remembered = HostIndex(module, kernels, memory)
        statements = len(walked)
        assert host_facts(remembered) == host_facts(HostIndex(module, kernels))
        if text.endswith("return 1\n"):  # only the new statement, and the one libcst joins it to
            assert statements <= 2, statements


def test_a_grid_bound_on_several_paths_stays_several() -> None:
    """`if`/`else` alternatives, a binding inside an `if` after the straight-line one, and a
    rebinding later in a loop body: more than one assignment may reach the launch."""
    grids = [
        [code for code, _, _ in launch_facts(host)]
        for host in (
            "def f(x, c):\n    if c:\n        grid = (1,)\n    else:\n        grid = (2,)\n    k[grid](x, 1, BT=64)\n",
            "def f(x, c):\n    grid = (1,)\n    if c:\n        grid = (2,)\n    k[grid](x, 1, BT=64)\n",
            "def f(x, n):\n    grid = (1,)\n    for i in range(n):\n        k[grid](x, i, BT=64)\n        grid = (2,)\n",
        )
    ]
    assert grids == [["(1,)", "(2,)"]] * 3


@pytest.mark.parametrize(
    "updates", ["    grid += (B,)\n    grid += (H,)\n", "    grid = grid + (B,)\n    grid = grid + (H,)\n"]
)
def test_a_grid_updated_in_straight_line_code_is_its_last_update(updates: str) -> None:
    """`grid += (B,)` (or `grid = grid + (B,)`) after `grid = (T,)` replaces it: the grid is the
    last update's tuple, its `grid` the binding before that update (the grid before the updates
    reached the launch too, and a factor was lost through `grid = grid + ...` twice)."""
    host = f"def f(x):\n    B, T, H = x.shape\n    grid = (T,)\n{updates}    k[grid](x, T, BT=64)\n"
    assert launch_facts(host) == [("grid + (H,)", None, ("T", "B", "H"))]


def test_a_class_body_binds_attributes_of_the_class_not_names_of_the_function_around_it() -> None:
    """`class _Options: rows = 8` in a function (or a module) binds `_Options.rows`: the
    function's `rows` is still the one value it assigns."""
    host = """
    def f(x):
        rows = x.shape[0] * x.shape[1]

        class _Options:
            rows = 8
            grid: tuple = (1,)

        grid = (rows,)
        k[grid](x, rows, BT=64)
    """
    assert launch_facts(host) == [("(rows,)", None, ("x.shape[0]", "x.shape[1]"))]


def test_a_grid_function_is_the_def_nearest_before_the_launch() -> None:
    """A `def grid(meta):` per launch gives each launch its own; defs in an `if` and its
    `else`, or a decorated one (the decorator binds the name), leave both."""
    per_launch = (
        "def f(x):\n"
        "    def grid(meta):\n        return (1,)\n"
        "    k[grid](x, 1, BT=64)\n"
        "    def grid(meta):\n        return (2,)\n"
        "    k[grid](x, 2, BT=64)\n"
    )
    in_arms = "def f(x, c):\n    if c:\n        def grid(meta):\n            return (1,)\n"
    in_arms += "    else:\n        def grid(meta):\n            return (2,)\n    k[grid](x, 1, BT=64)\n"
    decorated = per_launch.replace(
        "    def grid(meta):\n        return (2,)", "    @wrap\n    def grid(meta):\n        return (2,)"
    )
    grids = [[code for code, _, _ in launch_facts(host)] for host in (per_launch, in_arms, decorated)]
    assert grids == [["(1,)", "(2,)"], ["(1,)", "(2,)"], ["(1,)", "(1,)", "(2,)"]]


PLAIN_GRIDS = (
    "def f(x):\n    n = x.shape[0]\n    grid = (n, 1)\n    k[grid](x, 1, BT=64)\n"
    "    grid = (n, 2)\n    k[grid](x, 2, BT=64)\n"
)


PLAIN_FACTS = [("(n, 1)", None, ("n",)), ("(n, 2)", None, ("n",))]


@pytest.mark.parametrize(
    ("rewritten", "second"),
    [
        (
            PLAIN_GRIDS.replace("n = x.shape[0]", "(n := x.shape[0])").replace("grid = (n, 2)", "(grid := (n, 2))"),
            "(n, 2)",
        ),
        (PLAIN_GRIDS.replace("grid = (n, 2)", "grid: tuple = (n, 2)"), "(n, 2)"),
        (
            PLAIN_GRIDS.replace("    k[grid](x, 2", "    try:\n        k[grid](x, 2") + "    finally:\n        pass\n",
            "(n, 2)",
        ),
        (PLAIN_GRIDS.replace("    k[grid](x, 2", "    with ctx():\n        if x:\n            k[grid](x, 2"), "(n, 2)"),
        (PLAIN_GRIDS.replace("grid = (n, 2)", "grid = tuple([n, 2])"), "[n, 2]"),
        (
            "def _grid(n, b):\n    return (n, b)\n\n"
            + PLAIN_GRIDS.replace("grid = (n, 1)", "grid = list((n, 1))").replace(
                "grid = (n, 2)", "grid = _grid(n, 2)"
            ),
            "_grid(n, 2)",
        ),
    ],
)
def test_a_grid_rewritten_without_changing_what_it_is_gives_the_same_facts(rewritten: str, second: str) -> None:
    """A walrus, an annotated assignment, a launch under `try` / `with` / `if` (the binding
    before the compound statement reaches it), `tuple([...])` / `list(...)` and a module
    function returning the grid (the call's arguments in place of its parameters) give the
    launches the grids, and sizes, of plain `grid = (...)` statements."""
    assert launch_facts(PLAIN_GRIDS) == PLAIN_FACTS
    assert launch_facts(rewritten) == [PLAIN_FACTS[0], (second, None, ("n",))]


def test_a_grid_bound_around_a_nested_launch_otherwise_stays_several() -> None:
    """A launch nested in a compound statement that binds the grid outside the launch's block
    (the other arm of an `if`, a `try` body before its handler, `with ... as grid`) or in a
    loop binding it later: the binding before the statement is not the only one reaching. An
    `if` test binding it by `:=` binds the one reaching its arms."""
    before = "def f(x, c):\n    grid = (1,)\n    k[grid](x, 1, BT=64)\n"
    grids = [
        [code for code, _, _ in launch_facts(before + after)]
        for after in (
            "    if c:\n        grid = (2,)\n    else:\n        k[grid](x, 2, BT=64)\n",
            "    try:\n        grid = (2,)\n    except ValueError:\n        k[grid](x, 2, BT=64)\n",
            "    for i in c:\n        if i:\n            k[grid](x, 2, BT=64)\n        grid = (2,)\n",
        )
    ]
    assert grids == [["(1,)", "(1,)", "(2,)"]] * 3
    tested = before + "    if (grid := (2,)):\n        k[grid](x, 2, BT=64)\n"
    assert [code for code, _, _ in launch_facts(tested)] == ["(1,)", "(2,)"]


@pytest.mark.parametrize(
    ("statement", "bound", "test_binds"),
    [
        ("if (n := pick()) in (64, 128):\n    f(n)", "pick()", True),
        ("if not (n := pick()) or c:\n    f(n)\nelse:\n    g(n)", "pick()", True),
        ("if c and (n := pick()):\n    f(n)", None, False),  # not always run
        ("if (n := pick()) > (n := 2):\n    f(n)", None, False),  # the test binds it twice
        ("if (n := pick()) > 2:\n    n = 2", None, True),  # an arm binds it
        ("if (n := pick()) > 2:\n    pass\nelse:\n    n.append(2)", None, True),  # an arm changes it
    ],
)
def test_a_walrus_an_if_test_always_runs_binds_the_name_in_its_arms(
    statement: str, bound: str | None, test_binds: bool
) -> None:
    """`guards.tested_walrus`, shared by the host index's bindings (`bindings.bound_by_test`)
    and the specialisations' tests: the `(n := value)` an `if` test always runs, when the test
    binds `n` once and its arms never, as the caller reads a binding (`test_binds`: the test
    alone, whatever the arms do)."""
    node = cst.parse_statement(statement)
    found = host.bindings.bound_by_test(node, "n")
    assert (None if found is None else cst.Module([]).code_for_node(found)) == bound
    walrus = host.guards.tested_walrus(node, "n", lambda arms, name: False)
    assert (walrus is not None) == test_binds


CHOSEN = """
import triton
import triton.language as tl

@triton.jit
def k32(x, BT: tl.constexpr):
    tl.store(x + tl.arange(0, BT), 0.0)

@triton.jit
def k64(x, BT: tl.constexpr):
    tl.store(x + tl.arange(0, BT), 1.0)

def chosen(x, BT):
    fn = k32 if BT == 32 else k64
    fn[(1,)](x, BT=BT)

def chosen_in_branches(x, BT):
    if BT == 32:
        run = k32
    else:
        run = k64
    run[(2,)](x, BT=BT)

def mixed(x, BT, other):
    maybe = k32 if BT == 32 else other
    maybe[(3,)](x, BT=BT)

def passed(x, BT, fn):
    fn[(4,)](x, BT=BT)

def chosen_inline(x, BT):
    (k32 if BT == 32 else k64)[(6,)](x, BT=BT)

fn = k64
"""


def launched_by_kernel(source: str, shown: str) -> dict[str, list[str]]:
    """By kernel, the code of the `shown` node (`grid_node`, `call`) of each of its launches."""
    module = cst.parse_module(source)
    kernels = find_kernels(module, ImportMap(module, source))
    hosts = HostIndex(module, kernels)
    return {
        kernel.name: [module.code_for_node(getattr(launch, shown)) for launch in hosts.launches_with_helpers(kernel)]
        for kernel in kernels
    }


def test_a_launch_through_a_name_bound_only_to_kernels_is_a_launch_of_each() -> None:
    """`fn = k32 if BT == 32 else k64`, then `fn[grid](...)`, and the choice written inline,
    `(k32 if BT == 32 else k64)[grid](...)`: a launch of each."""
    assert launched_by_kernel(CHOSEN, "grid_node") == {"k32": ["(6,)", "(1,)", "(2,)"], "k64": ["(6,)", "(1,)", "(2,)"]}


CHOSEN_AND_PASSED = (
    CHOSEN.split("def chosen(")[0]
    + """
def _launch(fn, x, BT):
    fn[(5,)](x, BT=BT)

def through_a_name(x, BT):
    fn = k32 if BT == 32 else k64
    _launch(fn, x, BT)

def written_in_the_call(x, BT):
    _launch(k32 if BT == 32 else k64, x, BT)

def another(x, BT, other):
    _launch(other, x, BT)
"""
)


def test_a_launcher_helper_passed_a_name_bound_only_to_kernels_launches_each() -> None:
    """`fn = k32 if BT == 32 else k64`, then `_launch(fn, ...)` (or the choice written in the
    call) launches `k32` and `k64` where the helper launches its parameter, as `fn[grid](...)`
    in the function itself does; a parameter passed on is no kernel of the module."""
    launched = launched_by_kernel(CHOSEN_AND_PASSED, "call")
    assert launched == {"k32": ["fn[(5,)](x, BT=BT)"], "k64": ["fn[(5,)](x, BT=BT)"]}


def test_asc010_multiplies_the_axes_it_could_not_size_into_its_message(lint) -> None:
    source = CHOSEN + textwrap.dedent(
        """
        def unsized(x, BT):
            B, T, H = x.shape
            NT = chunk_count(T)
            k32[(NT, B * H)](x, BT=BT)
            k64[(B * H, NT + 1, triton.cdiv(T, 64))](x, BT=BT)
        """
    )
    messages = [f.message for f in lint(source, select=["ASC010"])]
    assert [m.split("grows as ")[1].split(" and")[0] for m in messages] == [
        "NT * B * H > 65535",
        "B * H * (NT + 1) * T/64 > 65535",
    ]


def test_asc010_reads_a_sum_of_sizes_as_one_size_not_their_product(lint) -> None:
    source = CHOSEN + textwrap.dedent(
        """
        def summed(x, q, k, BT):
            B, T, H = x.shape
            head_q, head_k = q.shape[1], k.shape[1]
            k32[(T, head_q + head_k, B)](x, BT=BT)
            k64[(head_q + head_k,)](x, BT=BT)
            k64[(B * H + T,)](x, BT=BT)
            k32[(T - head_q, B)](x, BT=BT)
        """
    )
    messages = [f.message for f in lint(source, select=["ASC010"])]
    assert [m.split("grows as ")[1].split(" and")[0] for m in messages] == [
        "T * (head_q + head_k) * B > 65535",
        "B * H > 65535",
        "(T - head_q) * B > 65535",
    ]


def test_asc010_leaves_a_quotient_by_a_block_at_least_its_size_out_of_its_message(lint) -> None:
    source = CHOSEN + textwrap.dedent(
        """
        def whole_rows(x):
            B, S, D = x.shape
            BLOCK_D = D
            k32[(B, S, triton.cdiv(D, BLOCK_D))](x, BT=BLOCK_D)
            BD = max(triton.next_power_of_2(D), 16)
            n_d = triton.cdiv(D, BD)
            k64[(B * S, n_d)](x, BT=BD)
            capped = min(triton.next_power_of_2(D), 1024)
            k64[(B * S, triton.cdiv(D, capped))](x, BT=capped)
            NT = chunk_count(S)
            k32[(n_d * NT, B * S)](x, BT=BD)
            k32[(NT * capped, B * S)](x, BT=BD)
        """
    )
    messages = [f.message for f in lint(source, select=["ASC010"])]
    assert [m.split("grows as ")[1].split(" and")[0] for m in messages] == [
        "B * S > 65535",
        "B * S > 65535",
        "B * S * D/capped > 65535",
        "NT * B * S > 65535",
        "(NT * capped) * B * S > 65535",
    ]


ENTRIES = """
import functools
import types
import triton
import triton.language as tl

@functools.lru_cache(maxsize=1)
def _kernels():
    @triton.jit
    def _copy(x, BT: tl.constexpr):
        tl.store(x + tl.arange(0, BT), 0.0)

    return types.SimpleNamespace(copy=_copy, gemm=gemm, choice=_fill if fast() else gemm, helper=wrapper)

@triton.jit
def _fill(x, BT: tl.constexpr):
    tl.store(x + tl.arange(0, BT), 1.0)

@triton.jit
def gemm(x, BT: tl.constexpr):
    tl.store(x + tl.arange(0, BT), 2.0)

def _table():
    if not available():
        return None
    return dict(fill=_fill)

def _loaded():
    return load_namespace()

_K = _kernels()
KERNELS = {"fill": _fill}
k = _kernels()

def by_entry(x):
    k = _kernels()
    k.copy[(1,)](x, BT=64)
    _K.copy[(2,)](x, BT=64)
    table = _table()
    table["fill"][(3,)](x, BT=64)
    KERNELS["fill"][(4,)](x, BT=64)
    k.gemm[(5,)](x, BT=64)  # goes by the kernel's own name: once

def passed(x, k):
    k.copy[(6,)](x, BT=64)

def ambiguous(x, fast, extra):
    k = _kernels() if fast else _loaded()
    k.copy[(7,)](x, BT=64)
    loaded = _loaded()
    loaded.copy[(8,)](x, BT=64)
    splatted = {"fill": _fill, **extra}  # `extra` may replace it
    splatted["fill"][(9,)](x, BT=64)
    _K.choice[(10,)](x, BT=64)
    _K.helper[(11,)](x, BT=64)

def helper(x, fill, table):
    table["fill"][(12,)](x, BT=64)  # not the parameter `fill`

def call_helper(x):
    helper(x, gemm, KERNELS)
"""


def test_a_launch_through_an_entry_of_what_a_module_function_returns_is_a_launch_of_its_kernel() -> None:
    module = cst.parse_module(ENTRIES)
    kernels = find_kernels(module, ImportMap(module, ENTRIES))
    hosts = HostIndex(module, kernels)
    launched = {
        kernel.name: [module.code_for_node(launch.grid_node) for launch in hosts.launches_with_helpers(kernel)]
        for kernel in kernels
    }
    assert launched == {"_copy": ["(1,)", "(2,)"], "_fill": ["(3,)", "(4,)"], "gemm": ["(5,)"]}
    copy = next(kernel for kernel in kernels if kernel.name == "_copy")
    assert [module.code_for_node(passed.value) for _, passed in hosts.arguments(copy, "x") if passed] == ["x", "x"]


IMPORTED_LAUNCHES = """
import triton
import triton.language as tl

from . import kernels
from .kernels import decay_kernel as _decay
from .missing import lost_kernel
from .ops import own_kernel as _own

@triton.jit
def own_kernel(x, BT: tl.constexpr):
    tl.store(x + tl.arange(0, BT), 0.0)

def _launch(kernel, grid, *args):
    kernel[grid](*args)

def run(x):
    _own[(1,)](x, BT=64)
    own_kernel[(2,)](x, BT=64)
    _decay[(3,)](x)
    kernels.decay_kernel[(4,)](x)
    _launch(_decay, (5,), x)
    lost_kernel[(6,)](x)

def hidden(x, _own):
    _own[(7,)](x, BT=64)  # the parameter, not the import
"""


# each launch written as one of the JIT function under an autotuner (`kernel.fn[grid]`)
JIT_FUNCTIONS_LAUNCHED = re.sub(r"(\w)\[(\(\d,\)|grid)\]", r"\1.fn[\2]", IMPORTED_LAUNCHES).replace(
    "own_kernel.fn[", "own_kernel.fn.fn["
)


@pytest.mark.parametrize("source", [IMPORTED_LAUNCHES, JIT_FUNCTIONS_LAUNCHED])
def test_a_launch_through_a_name_imported_from_a_module_of_the_package_is_one_of_the_kernel_it_names(
    tmp_path: Path, source: str
) -> None:
    """`_own` imported from the module itself names its kernel (`launches_of`); `_decay` and
    `kernels.decay_kernel` name the kernel of `kernels.py`, read from disk
    (`imported_kernel_launches`, through a launcher helper too); `lost_kernel`, of a module
    that cannot be read, names none. The same launched as `kernel.fn[grid]` (`.fn.fn`), the
    JIT function under an autotuner or heuristics."""
    if source is JIT_FUNCTIONS_LAUNCHED:
        assert source.count(".fn[") == 7 and "own_kernel.fn.fn[(2,)]" in source
    (tmp_path / "__init__.py").write_text("", encoding="utf-8")
    kernels_source = "import triton\n\n@triton.jit\ndef decay_kernel(x, num_stages):\n    pass\n"
    (tmp_path / "kernels.py").write_text(kernels_source, encoding="utf-8")
    module = cst.parse_module(source)
    imports = ImportMap(module, source)
    imported = ImportedFunctions(tmp_path, imports, file=tmp_path / "ops.py")
    [own] = find_kernels(module, imports, imported=imported)
    hosts = HostIndex(module, [own], imported=imported)
    assert [module.code_for_node(launch.grid_node) for launch in hosts.launches_of(own)] == ["(2,)", "(1,)"]
    assert {
        (kernel.name, tuple(param.name for param in kernel.params)): [
            module.code_for_node(launch.grid_node) for launch in launches
        ]
        for kernel, launches in hosts.imported_kernel_launches().items()
    } == {("decay_kernel", ("x", "num_stages")): ["(3,)", "(4,)", "(5,)"]}


STORED = """
from .other import imported_kernel

def stored(x):
    B, T = x.shape
    grid = (B, T)
    launcher = k[grid]
    grid = (1,)
    if T > 4:
        launcher(x, T, BT=64, num_warps=4)
    imported = imported_kernel[(B, 2)]
    imported(x)

def rebound_after_the_grid(x):
    B, T = x.shape
    launcher = k[(B, T)]
    B = cap()  # after the grid is evaluated: does not reach it
    launcher(x, T, BT=64)

def rebound(x, small):
    launcher = k[(1,)]
    if small:
        launcher = k[(2,)]
    launcher(x, 1, BT=64)

def passed_in(x, launcher=None):
    if launcher is None:
        launcher = k[(3,)]
    launcher(x, 1, BT=64)

def bound_under_a_test(x):
    if x.shape[0] < 4:
        launcher = k[(4,)]
    launcher(x, 1, BT=64)

def elsewhere(x):
    launcher(x, 1, BT=64)

def local_table(x, key):
    k = {"a": print}
    fn = k[(5,)]
    fn(x, num_warps=4)

def outer(x, table):
    def inner():
        fn = table[(6,)]  # the outer function's parameter
        fn(x, num_warps=4)

    inner()
"""


def test_a_launcher_stored_in_a_name_launches_where_its_function_calls_it(lint) -> None:
    """`launcher = k[grid]`, then `launcher(...)`: a launch at the call on the stored grid (the
    grid name's value there, and the names' there: not later), with the call's arguments, tests
    and keywords; not when
    the name is bound twice or is a parameter (it may hold another launcher), when the subscript
    is under a test the call is not, in another function, or of a name the module binds (a
    function's own, or one around it)."""
    hosts, kernel, module = index(STORED)
    launch, after = hosts.launches_with_helpers(kernel)
    assert module.code_for_node(launch.call) == "launcher(x, T, BT=64, num_warps=4)"
    assert [module.code_for_node(grid.written) for grid in hosts.grids(launch)] == ["(B, T)"]
    assert passed_code(module, hosts.argument(launch, kernel, "n")) == "T"
    assert [type(block).__name__ for block in launch.blocks] == ["If"]
    assert [
        module.code_for_node(imported.grid_node)
        for imported in hosts.imported_launches({"imported_kernel"})["imported_kernel"]
    ] == ["(B, 2)"]
    [grid] = hosts.grids(after)
    assert hosts.grid_extents(grid, after) == [("B",), ("T",)]
    findings = lint(KERNEL + STORED, select=["ASC001", "ASC010"])
    assert [(f.code, f.location.row) for f in findings] == [
        ("ASC010", 17),  # at `launcher = k[grid]`, where the grid is written
        ("ASC001", 20),
        ("ASC010", 26),
    ]


def test_what_a_test_bounds_is_bounded_in_the_grid() -> None:
    """`grid_extents` with what a test before the launch bounds: a name, and what is made of it
    only (`NK = triton.cdiv(K, BK)`), an extent of known position (`m` of `m, n = y.shape`), every
    extent of a tensor bounded whole (`z`); the other sizes stay, an unknown axis stays unknown
    (`H // g`: bounding the divisor `g` makes no size of the quotient), and nothing is
    remembered for the next grid sized without them."""
    hosts, kernel, _ = index(
        "def f(q, y, z, g, BK=64):\n"
        "    B, T, H, K = q.shape\n"
        "    m, n = y.shape\n"
        "    NK = triton.cdiv(K, BK)\n"
        "    k[(NK * B * H, m * n, z.shape[0] * z.size(1), H // g)](q, T, BT=BK)\n"
    )
    [launch] = hosts.launches_with_helpers(kernel)
    [grid] = hosts.grids(launch)
    unbounded = [("NK", "B", "H"), ("m", "n"), ("z.shape[0]", "z.size(1)"), None]
    assert hosts.grid_extents(grid, launch) == unbounded
    bounded = host.BoundedSizes(frozenset({"K", "z", "g"}), frozenset({("y", 0)}))
    assert hosts.grid_extents(grid, launch, bounded) == [("B", "H"), ("n",), (), None]
    assert hosts.grid_extents(grid, launch) == unbounded


@pytest.mark.parametrize(
    ("host", "one"),
    [
        ("def f(x, T):\n    a = torch.zeros((4, T)) + float('-inf')\n    k[(1,)](a, a.stride(1), BT=64)\n", True),
        ("def f(x, T):\n    a = torch.empty(4, T)\n    n = a.stride(-1)\n    k[(1,)](a, n, BT=64)\n", True),
        ("def f(x, T):\n    k[(1,)](x, 1, BT=64)\n    k[(1,)](x, n=1, BT=64)\n", True),
        ("def f(x, s):\n    a = torch.empty(s)\n    k[(1,)](a, a.stride(-1), BT=64)\n", True),
        (
            "def f(x):\n    a = torch.empty_like(x, memory_format=torch.contiguous_format)\n"
            "    k[(1,)](a, a.stride(-1), BT=64)\n",
            True,
        ),
        # not the last dimension, a rank not written out, the caller's tensor, a view, strides
        # kept from another tensor, a launch passing something else
        ("def f(x, T):\n    a = torch.empty((4, T))\n    k[(1,)](a, a.stride(0), BT=64)\n", False),
        ("def f(x, s):\n    a = torch.empty(s)\n    k[(1,)](a, a.stride(1), BT=64)\n", False),
        ("def f(x, T):\n    k[(1,)](x, x.stride(1), BT=64)\n", False),
        ("def f(x, T):\n    a = torch.empty((T, 4)).t()\n    k[(1,)](a, a.stride(1), BT=64)\n", False),
        ("def f(x):\n    a = torch.empty_like(x)\n    k[(1,)](a, a.stride(-1), BT=64)\n", False),
        ("def f(x, T):\n    k[(1,)](x, 1, BT=64)\n    k[(1,)](x, T, BT=64)\n", False),
        ("def f(x, T):\n    pass\n", False),
    ],
)
def test_a_parameter_every_launch_passes_1_for(host: str, one: bool) -> None:
    hosts, kernel, _ = index(host)
    assert hosts.always_passes_one(kernel, "n") is one


@pytest.mark.parametrize(
    ("host", "dtype", "shown"),
    [
        (
            "def f(x):\n    assert x.dtype == torch.int32\n    k[(1,)](x, 1, BT=64)\n",
            "int32",
            "assert x.dtype == torch.int32",
        ),
        (
            "def f(y, x):\n    assert y.dtype is torch.int64 and torch.int32 == x.dtype\n    k[(1,)](x, 1, BT=64)\n",
            "int32",
            "assert y.dtype is torch.int64 and torch.int32 == x.dtype",
        ),
        ("def f(x):\n    x = x.to(torch.int32)\n    k[(1,)](x, 1, BT=64)\n", "int32", "x.to(torch.int32)"),
        (
            "def f(x):\n    k[(1,)](x.to(x.device, dtype=torch.int), 1, BT=64)\n",
            "int32",
            "x.to(x.device, dtype=torch.int)",
        ),
        ("def f(x):\n    k[(1,)](x.long(), 1, BT=64)\n", "int64", "x.long()"),
        # arithmetic keeps the dtype as torch promotes it: with a Python int the host shows (a
        # size, a literal, an `int` parameter), the wider of two integer tensors'
        (
            "def f(x, off: int):\n    b, s = x.shape\n    a = torch.arange(b, dtype=torch.int32)\n"
            "    k[(1,)](-(a * s) + off, 1, BT=64)\n    k[(1,)]((a // 2) % 7 - x.cumsum(0, dtype=torch.int16), 1, BT=64)\n",
            "int32",
            "torch.arange(b, dtype=torch.int32)",
        ),
        ("def f(x):\n    k[(1,)](x.int() + x.long(), 1, BT=64)\n", "int64", "x.long()"),
        (
            "def f(n):\n    a = torch.zeros(n + 1, dtype=torch.int32)\n    k[(1,)](a, 1, BT=64)\n",
            "int32",
            "torch.zeros(n + 1, dtype=torch.int32)",
        ),
        (
            "def f(x, lens):\n    k[(1,)](torch.cumsum(lens, 0, dtype=torch.int32), 1, BT=64)\n"
            "    k[(1,)](x.int(), 1, BT=64)\n",
            "int32",
            "torch.cumsum(lens, 0, dtype=torch.int32)",
        ),
        # through the launcher's parameter to every call of it in the module
        (
            "def f(x):\n    k[(1,)](x, 1, BT=64)\n\ndef g(y):\n    f(y.int())\n\ndef h(y):\n    f(x=y.int())\n",
            "int32",
            "y.int()",
        ),
        # an element of the tuple every return of a function of the module gives (unpacked
        # or indexed), read in that function
        (
            "def ranges(g, n):\n    s = torch.zeros(n, dtype=torch.int32)\n    return s, g\n\n"
            "def f(g, n):\n    x, e = ranges(g, n)\n    k[(1,)](x, 1, BT=64)\n    k[(1,)](ranges(g, 2)[0], 1, BT=64)\n",
            "int32",
            "torch.zeros(n, dtype=torch.int32)",
        ),
        # a copy of itself keeps the dtype the assert shows
        (
            "def f(x):\n    assert x.dtype == torch.int32\n    x = x.contiguous()\n    k[(1,)](x, 1, BT=64)\n",
            "int32",
            "assert x.dtype == torch.int32",
        ),
        # a parameter rebound on some paths only: also what its callers pass
        (
            "def f(x=None):\n    if x is None:\n        x = torch.zeros(4, dtype=torch.int32)\n    k[(1,)](x, 1, BT=64)\n\n"
            "def g(y):\n    f(y.int())\n",
            "int32",
            "torch.zeros(4, dtype=torch.int32)",
        ),
        # a pad or a copy keeps the dtype; a check raising unless it holds asserts it
        (
            "def f(x, lens):\n    k[(1,)](F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)), 1, BT=64)\n"
            "    k[(1,)](torch.nn.functional.pad(lens.int(), (1, 0)).clone(), 1, BT=64)\n",
            "int32",
            "torch.cumsum(lens, 0, dtype=torch.int32)",
        ),
        (
            "def f(x):\n    if not (x.dtype == torch.int32) or x.dim() != 1:\n        raise TypeError\n"
            "    k[(1,)](x, 1, BT=64)\n",
            "int32",
            "if not (x.dtype == torch.int32) or x.dim() != 1:\n    raise TypeError\n",
        ),
        (
            "def f(x):\n    torch._assert(x.dtype == torch.int32, 'int32')\n    k[(1,)](x, 1, BT=64)\n",
            "int32",
            "torch._assert(x.dtype == torch.int32, 'int32')",
        ),
        # nothing said, an assert under an `if`, a rebinding nothing shows, launches passing
        # different dtypes, a caller's tensor nothing shows, a parameter rebound on some paths
        # with no caller, a launcher no one calls
        ("def f(x):\n    k[(1,)](x, 1, BT=64)\n", None, None),
        # arithmetic with a value that may be a wider tensor or a float, or that makes a float;
        # a cumsum of an integer tensor with no dtype (int64)
        *(
            (f"def f(x, n, t: torch.Tensor):\n    a = x.int()\n    k[(1,)]({passed}, 1, BT=64)\n", None, None)
            for passed in ("a * n", "a + t", "a * 2.0", "a / 2", "a.cumsum(0)", "x.to(torch.int8) + x.to(torch.uint8)")
        ),
        ("def f(x, c):\n    if c:\n        assert x.dtype == torch.int32\n    k[(1,)](x, 1, BT=64)\n", None, None),
        # a check that falls through, or raises on only some of the other dtypes
        *(
            (f"def f(x, c):\n    if {test}:\n        {body}\n    k[(1,)](x, 1, BT=64)\n", None, None)
            for test, body in (
                ("x.dtype != torch.int32", "warnings.warn('slow')"),
                ("x.dtype != torch.int32 and c", "raise TypeError"),
                ("c", "torch._assert(x.dtype == torch.int32, 'int32')"),
            )
        ),
        ("def f(x):\n    assert x.dtype == torch.int32\n    x = x.view(-1)\n    k[(1,)](x, 1, BT=64)\n", None, None),
        ("def f(x):\n    k[(1,)](x.int(), 1, BT=64)\n    k[(1,)](x.long(), 1, BT=64)\n", None, None),
        ("def f(x):\n    k[(1,)](x.to('npu'), 1, BT=64)\n    k[(1,)](torch.empty(4), 1, BT=64)\n", None, None),
        ("def f(x):\n    k[(1,)](x, 1, BT=64)\n\ndef g(y):\n    f(y.int())\n\ndef h(y):\n    f(y)\n", None, None),
        (
            "def f(x=None):\n    if x is None:\n        x = torch.zeros(4, dtype=torch.int32)\n    k[(1,)](x, 1, BT=64)\n",
            None,
            None,
        ),
        ("def f(x):\n    k[(1,)](x, 1, BT=64)\n\ndef g(y):\n    f(y.int())\n    f(y.long())\n", None, None),
        # a return giving another element, or a dtype nothing shows
        (
            "def ranges(g, n, c):\n    if c:\n        return g, g\n    return torch.zeros(n, dtype=torch.int32), g\n\n"
            "def f(g, n, c):\n    x, e = ranges(g, n, c)\n    k[(1,)](x, 1, BT=64)\n",
            None,
            None,
        ),
        # a float or bool tensor is no integer one
        ("def f(x):\n    k[(1,)](x.float(), 1, BT=64)\n", None, None),
        ("def f(x):\n    assert x.dtype == torch.bool\n    k[(1,)](x, 1, BT=64)\n", None, None),
    ],
)
def test_the_int_dtype_every_launch_passes_for_a_tensor(host: str, dtype: str | None, shown: str | None) -> None:
    hosts, kernel, module = index(host)
    passed = hosts.int_dtype_passed(kernel, "x")
    found = (passed.dtype, module.code_for_node(passed.shown_by)) if passed else (None, None)
    assert found == (dtype, shown)


@pytest.mark.parametrize(
    ("host", "dtype", "element_bytes", "shown"),
    [
        ("def f(x):\n    k[(1,)](x.float(), 1, BT=64)\n", "float32", 4, "x.float()"),
        (
            "def f(x):\n    k[(1,)](x.bfloat16(), 1, BT=64)\n    k[(1,)](x.to(dtype=torch.bfloat16), 1, BT=64)\n",
            "bfloat16",
            2,
            "x.bfloat16()",
        ),
        (
            "def f(x):\n    x = x.to('npu', torch.half)\n    k[(1,)](x, 1, BT=64)\n",
            "float16",
            2,
            "x.to('npu', torch.half)",
        ),
        (
            "def f(n):\n    k[(1,)](torch.randn(n, dtype=torch.float64), 1, BT=64)\n",
            "float64",
            8,
            "torch.randn(n, dtype=torch.float64)",
        ),
        (
            "def f(n):\n    k[(1,)](torch.ones(n, dtype=torch.bool), 1, BT=64)\n",
            "bool",
            1,
            "torch.ones(n, dtype=torch.bool)",
        ),
        (
            "def f(x):\n    k[(1,)](x.to(torch.float8_e4m3fn), 1, BT=64)\n",
            "float8_e4m3fn",
            1,
            "x.to(torch.float8_e4m3fn)",
        ),
        (
            "def f(x):\n    assert x.dtype == torch.float\n    k[(1,)](x, 1, BT=64)\n",
            "float32",
            4,
            "assert x.dtype == torch.float",
        ),
        # a tensor made like another takes its dtype when the host shows it, or the one given
        (
            "def f(x, n):\n    a = torch.empty(n, dtype=torch.float32)\n    o = torch.empty_like(a)\n"
            "    k[(1,)](o, 1, BT=64)\n    k[(1,)](a.new_zeros(n), 1, BT=64)\n",
            "float32",
            4,
            "torch.empty(n, dtype=torch.float32)",
        ),
        (
            "def f(x):\n    k[(1,)](torch.zeros_like(x, dtype=torch.int8), 1, BT=64)\n",
            "int8",
            1,
            "torch.zeros_like(x, dtype=torch.int8)",
        ),
        # a name bound in both arms of an `if` to the same dtype
        (
            "def f(x, n, c):\n    if c:\n        a = torch.zeros(n, dtype=torch.float32)\n    else:\n        a = x.float()\n"
            "    k[(1,)](a, 1, BT=64)\n",
            "float32",
            4,
            "torch.zeros(n, dtype=torch.float32)",
        ),
        # each item of a comprehension whose element reads none of its variables
        (
            "def f(n):\n    a, b = (torch.randn(n, dtype=torch.float32) for _ in range(2))\n    k[(1,)](b, 1, BT=64)\n",
            "float32",
            4,
            "torch.randn(n, dtype=torch.float32)",
        ),
        # a float tensor with a Python scalar keeps its dtype
        ("def f(x):\n    a = x.half()\n    k[(1,)](a * 2.0 + 1, 1, BT=64)\n", "float16", 2, "x.half()"),
        # nothing shows the template's dtype, the arms disagree, a comprehension element that
        # reads its variable, floats of two dtypes, a bool with an int, an int with a float
        # tensor, a float with a tensor of unknown dtype
        ("def f(x):\n    k[(1,)](torch.empty_like(x), 1, BT=64)\n", None, None, None),
        (
            "def f(x, c):\n    if c:\n        a = x.float()\n    else:\n        a = x.half()\n    k[(1,)](a, 1, BT=64)\n",
            None,
            None,
            None,
        ),
        (
            "def f(x, y):\n    t = x.float()\n    a, b = (torch.empty_like(t) for t in (x, y))\n    k[(1,)](a, 1, BT=64)\n",
            None,
            None,
            None,
        ),
        *(
            (f"def f(x, t: torch.Tensor):\n    a = x.half()\n    k[(1,)]({passed}, 1, BT=64)\n", None, None, None)
            for passed in ("a + x.float()", "x.bool() + 1", "x.int() * a", "a * t")
        ),
    ],
)
def test_the_dtype_every_launch_passes_for_a_tensor(
    host: str, dtype: str | None, element_bytes: int | None, shown: str | None
) -> None:
    hosts, kernel, module = index(host)
    passed = hosts.dtype_passed(kernel, "x")
    found = (
        (passed.dtype, passed.element_bytes, module.code_for_node(passed.shown_by)) if passed else (None, None, None)
    )
    assert found == (dtype, element_bytes, shown)


FORWARDED = """
def _run(grid, *args, **kwargs):
    return k[grid](*args, **kwargs)

def _named(x, n, grid):
    k[grid](x, n, BT=64)

def _defaulted(x, n, grid=(1,)):
    k[grid](x, n, BT=32)

def _outer(grid, *args, **kwargs):
    return _run(grid, *args, **kwargs)

def _own(x):
    k[(x.numel(),)](x, x.numel(), BT=8)

def _looped(grid, *args):
    for _ in range(2):
        k[grid](*args, BT=4)

def entry(x, y, n, m):
    _run((triton.cdiv(n, 64),), x, n, BT=64)
    _named(y, m, (m, n))
    _defaulted(y, m)
    kw = {"BT": 16}
    _outer((n,), x, m, **kw)
    _own(x)
    _looped((n,), x, n)
"""


def test_a_launch_through_a_forwarding_helper_is_read_at_each_call_of_it(lint) -> None:
    """A helper passing a launch its parameters (`*args`, `**kwargs`, named ones, a default
    grid; through a helper calling it) launches at each call of it, on the grid and with the
    arguments written there; a helper launching with values of its own, or in a loop (a
    chunking loop the calls do not show), keeps its launch."""
    hosts, kernel, module = index(FORWARDED)

    assert [
        (
            code_of(module, launch.written_at),
            [code_of(module, grid.written) for grid in hosts.grids(launch)],
            passed_code(module, hosts.argument(launch, kernel, "x")),
            passed_code(module, hosts.argument(launch, kernel, "n")),
            passed_code(module, hosts.argument(launch, kernel, "BT")),
        )
        for launch in hosts.launches_with_helpers(kernel)
    ] == [
        ("_outer((n,), x, m, **kw)", ["(n,)"], "x", "m", "16"),
        ("_run((triton.cdiv(n, 64),), x, n, BT=64)", ["(triton.cdiv(n, 64),)"], "x", "n", "64"),
        ("_named(y, m, (m, n))", ["(m, n)"], "y", "m", "64"),
        ("_defaulted(y, m)", ["(1,)"], "y", "m", "32"),
        ("k[(x.numel(),)]", ["(x.numel(),)"], "x", "x.numel()", "8"),
        ("k[grid]", [], None, None, "4"),
    ]


def test_a_forwarding_helper_reading_its_parameters_launches_at_each_call_of_it(lint) -> None:
    """A helper splatting its `**kw` into a launch whose other arguments read its parameters
    (`x.numel()`) launches at each call of it, with those arguments as the call makes them (the
    `x` passed) and the keywords the call passes: `launch(y, BT=64)` passes `BT` 64. (A grid
    reading them keeps the launch in the helper.)"""
    hosts, kernel, module = index(
        "def launch(x, **kw):\n    k[(1,)](x, x.numel(), **kw)\n\ndef entry(y):\n    launch(y, BT=64)\n"
    )
    assert [
        (
            code_of(module, launch.written_at),
            passed_code(module, hosts.argument(launch, kernel, "n")),
            passed_code(module, hosts.argument(launch, kernel, "BT")),
        )
        for launch in hosts.launches_with_helpers(kernel)
    ] == [("launch(y, BT=64)", "y.numel()", "64")]


def test_a_forwarding_helper_writing_a_launch_value_itself_keeps_its_launch(lint) -> None:
    """A helper splatting its `**kw` into a launch that also writes a keyword value of its own
    (`BT=64`) and reads a parameter (`x.numel()`) keeps its launch: that value is the helper's,
    reported (and suppressed with a `# noqa`) at its launch, not at the first call of it."""
    hosts, kernel, module = index(
        "def launch(x, **kw):\n    k[(1,)](x, x.numel(), BT=64, **kw)\n\ndef entry(y):\n    launch(y, num_warps=4)\n"
    )
    assert [code_of(module, launch.written_at) for launch in hosts.launches_with_helpers(kernel)] == ["k[(1,)]"]


@pytest.mark.parametrize(
    "change",
    ['kw["BT"] = min(kw["BT"], 64)', 'if IS_NPU:\n        kw["BT"] = 64', "kw.update(BT=64)", 'kw.pop("BT")'],
)
def test_a_forwarding_helper_changing_its_kw_keeps_its_launch(lint, change) -> None:
    """A helper that changes the `**kw` it splats into a launch (stores into it, updates it,
    pops from it) keeps its launch: what the kernel gets is not what the calls write."""
    hosts, kernel, module = index(
        f"def launch(x, **kw):\n    {change}\n    k[(1,)](x, 8, **kw)\n\ndef entry(y):\n    launch(y, BT=131072)\n"
    )
    assert [code_of(module, launch.written_at) for launch in hosts.launches_with_helpers(kernel)] == ["k[(1,)]"]


GRID_ONLY = """
def _launch(x, grid):
    n = x.shape[-1]
    k[grid](x, n, BT=64)

def _bound(x, axes):
    grid = axes
    k[grid](x, x.numel(), BT=32)

def _looped(x, grid):
    for _ in range(2):
        k[grid](x, x.numel(), BT=16)

class Op:
    def run(self, x, grid):
        k[grid](x, x.numel(), BT=8)

def entry(x, B, T):
    _launch(x, (T, B))
    _bound(x, (B * T,))
    _looped(x, (T,))
"""


def test_a_launch_given_its_grid_only_by_a_helper_is_read_at_each_call_with_the_helpers_arguments(lint) -> None:
    """A helper passing a launch its grid parameter (directly or through a name it binds once
    to it) while computing the other arguments itself launches at each call of it, on the
    grid written there, with the arguments read in the helper; a launch in a loop of the
    helper or in a method keeps its own."""
    hosts, kernel, module = index(GRID_ONLY)

    assert [
        (
            code_of(module, launch.written_at),
            [code_of(module, grid.written) for grid in hosts.grids(launch)],
            passed_code(module, hosts.argument(launch, kernel, "n")),
            launch.args_scope.name.value if launch.args_scope is not None else None,
        )
        for launch in hosts.launches_with_helpers(kernel)
    ] == [
        ("_launch(x, (T, B))", ["(T, B)"], "n", "_launch"),
        ("_bound(x, (B * T,))", ["(B * T,)"], "x.numel()", "_bound"),
        ("k[grid]", [], "x.numel()", "_looped"),
        ("k[grid]", [], "x.numel()", "run"),
    ]


HELPER = """
def _run(grid, *args, **kwargs):
    return {kernel}[grid](*args, **kwargs)
"""
THROUGH_A_HELPER = [
    # the grid a helper is called with (ASC010), and a knob it passes on (ASC001)
    (
        """
@triton.jit
def scale_kernel(x, y, T, BT: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    offs = i_bh * T + i_t * BT + tl.arange(0, BT)
    tl.store(y + offs, tl.load(x + offs) * 2)

def scale(x, BT: int = 64):
    B, H, T = x.shape
    y = torch.empty_like(x)
    grid = (triton.cdiv(T, BT), B * H)
    scale_kernel[grid](x, y, T, BT=BT, num_warps=4)
    return y
""",
        ["ASC001", "ASC010"],
    ),
    # a float passed through `*args` is no int a constexpr could be (no ASC002)
    (
        """
@triton.jit
def shift_kernel(x_ptr, y_ptr, offset, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    shift = offset.to(tl.float32)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + shift, mask=offs < n)

def shift(x, offset: float = 0.5):
    y = torch.empty_like(x)
    n = x.numel()
    shift_kernel[(triton.cdiv(n, 1024),)](x, y, offset, n, BLOCK=1024)
    return y
""",
        [],
    ),
    # `num_stages=` passed on to a kernel taking a `num_stages` parameter is an argument (no ASC001)
    (
        """
@triton.jit
def rows_kernel(x, T, BT: tl.constexpr, num_stages: tl.constexpr):
    for i in tl.range(0, T, BT, num_stages=num_stages):
        offs = i + tl.arange(0, BT)
        tl.store(x + offs, tl.load(x + offs, mask=offs < T) * 2, mask=offs < T)

def rows(x):
    rows_kernel[(1,)](x, x.numel(), BT=64, num_stages=2)
""",
        [],
    ),
]


@pytest.mark.parametrize(("direct", "codes"), THROUGH_A_HELPER)
def test_a_launch_rewritten_through_a_forwarding_helper_keeps_its_findings(lint, direct: str, codes: list) -> None:
    """Every launch `kernel[grid](...)` rewritten as `_run(grid, ...)`, `_run` passing its
    parameters to the launch: the same findings, in the same function."""
    header = "import torch\nimport triton\nimport triton.language as tl\n"
    kernel = direct.split("def ", 2)[1].split("(")[0]
    through = re.sub(rf"\b{kernel}\[(.*?)\]\(", r"_run(\1, ", direct) + HELPER.format(kernel=kernel)
    for source in (direct, through):
        findings = lint(header + source)
        assert sorted(f.code for f in findings) == codes, source


def test_a_knob_a_kernel_takes_is_its_argument_in_a_forwarding_helpers_launch_too(lint) -> None:
    """`num_stages=` written in the launch of a helper forwarding to a kernel that takes a
    `num_stages` parameter is an argument (no ASC001); `num_warps=` it does not take is a knob."""
    source = """import triton
import triton.language as tl

@triton.jit
def rows_kernel(x, T, BT: tl.constexpr, num_stages: tl.constexpr):
    for i in tl.range(0, T, BT, num_stages=num_stages):
        tl.store(x + i + tl.arange(0, BT), 0.0)

def _run(grid, *args, **kwargs):
    return rows_kernel[grid](*args, num_stages=2, num_warps=4, **kwargs)

def rows(x):
    _run((1,), x, x.numel(), BT=64)
"""
    assert [(f.code, f.location.row) for f in lint(source)] == [("ASC001", 10)]


WRAPPED_LAUNCHERS = [
    # a float the wrapper's caller passes is no int a constexpr could be (no ASC002)
    (
        """
@triton.jit
def norm_kernel(x_ptr, eps, D: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * D + tl.arange(0, D))
    tl.store(x_ptr + row * D + tl.arange(0, D), x / (tl.sum(x * x) + eps.to(tl.float32)))

def norm(x, eps):
    B, T, D = x.shape
    norm_kernel[(B * T,)](x, eps, D=D)

def layer(x):
    return norm(x, 1e-6)
""",
        ["ASC010"],
    ),
    # a knob in the dict the wrapper's caller passes (ASC001), a grid axis it passes (ASC010)
    (
        """
@triton.jit
def rows_kernel(x, T, BT: tl.constexpr):
    tl.store(x + tl.program_id(0) * T + tl.program_id(1) * BT + tl.arange(0, BT), 0.0)

def rows(x, n, config):
    rows_kernel[(n, triton.cdiv(x.shape[-1], config["BT"]))](x, x.shape[-1], **config)

def model(x):
    B, H, T = x.shape
    config = {"BT": 64, "num_warps": 4}
    rows(x, B * H, config)
""",
        ["ASC001", "ASC010"],
    ),
]
WRAPPERS = [
    "def {name}(*args, **kwargs):\n    return _{name}_impl(*args, **kwargs)\n",
    "def {name}(x, *args, **kwargs):\n    return _{name}_impl(x, *args, **kwargs)\n",
    "def {name}(*args):\n    return _{name}_impl(*args)\n",
    # through two wrappers
    "def {name}(*args, **kwargs):\n    return _{name}_outer(*args, **kwargs)\n\n"
    "def _{name}_outer(*args, **kwargs):\n    return _{name}_impl(*args, **kwargs)\n",
    # a wrapper (by name) calling itself, and two calling each other: followed, each once
    "def {name}(*args, **kwargs):\n    return _{name}_impl(*args, **kwargs)\n\n"
    "def {name}(*args, **kwargs):\n    return {name}(*args, **kwargs)\n",
    "if VARIANT:\n    def {name}(*args, **kwargs):\n        return _{name}_impl(*args, **kwargs)\n"
    "else:\n    def {name}(*args, **kwargs):\n        return _{name}_other(*args, **kwargs)\n\n"
    "def _{name}_other(*args, **kwargs):\n    return {name}(*args, **kwargs)\n",
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize(("direct", "codes"), WRAPPED_LAUNCHERS)
def test_a_launcher_rewritten_behind_a_wrapper_passing_its_arguments_on_keeps_its_findings(
    lint, direct: str, codes: list, wrapper: str
) -> None:
    """The launching function `f` renamed `_f_impl` and called through a wrapper `f` passing
    its arguments on unchanged (`def f(*args, **kwargs): return _f_impl(*args, **kwargs)`,
    also after named parameters, through two wrappers, and wrappers calling themselves or
    each other): its callers' values reach the launch; the same findings."""
    header = "import torch\nimport triton\nimport triton.language as tl\n"
    name = direct.split("\ndef ", 2)[2].split("(")[0]
    wrapped = direct.replace(f"\ndef {name}(", f"\ndef _{name}_impl(") + "\n" + wrapper.format(name=name)
    for source in (direct, wrapped):
        assert sorted(f.code for f in lint(header + source)) == codes, source


def test_a_wrapper_changing_what_it_passes_on_is_no_wrapper(lint) -> None:
    """A function passing on other arguments than its own, reading its `*args` elsewhere,
    or taking a keyword-only parameter is not read through: its callers' values do not reach the launch (a float passed there
    is not seen: ASC002)."""
    [(direct, _)] = WRAPPED_LAUNCHERS[:1]
    header = "import torch\nimport triton\nimport triton.language as tl\n"
    impl = direct.replace("\ndef norm(", "\ndef _norm_impl(")
    for wrapper in (
        "def norm(*args, **kwargs):\n    return _norm_impl(*args[:1], 1, **kwargs)\n",
        "def norm(*args, **kwargs):\n    print(args)\n    return _norm_impl(*args, **kwargs)\n",
        "def norm(*args, scale=2, **kwargs):\n    return _norm_impl(*args, **kwargs)\n",
    ):
        assert sorted(f.code for f in lint(header + impl + "\n" + wrapper)) == ["ASC002", "ASC010"], wrapper


def test_the_jit_function_under_an_autotuner_launched_is_a_launch_of_its_kernel() -> None:
    """`k.fn[grid](...)`, `k.fn.fn[grid](...)` and a launcher storing `k.fn[grid]` launch
    `k` (Triton's `Autotuner.fn`: the JIT function, launched without the autotuner), with the
    facts of `k[grid](...)`; `.fn` of what names no kernel (`self.fn`, a value nothing
    shows) launches none."""
    plain = "def f(x):\n    B, T = x.shape\n    k[(B, T)](x, T, BT=64)\n"
    assert launch_facts(plain) == [("(B, T)", None, ("B", "T"))]
    for launched in ("k.fn[(B, T)](", "k.fn.fn[(B, T)](", "run = k.fn[(B, T)]\n    run("):
        assert launch_facts(plain.replace("k[(B, T)](", launched)) == launch_facts(plain), launched
    others = (
        "class Op:\n    def run(self, x):\n        self.fn[(x.numel(),)](x, 1, BT=64)\n\n"
        "def g(x):\n    table.fn[(x.numel(),)](x, 1, BT=64)\n"
    )
    assert launch_facts(others) == []


@pytest.mark.parametrize(
    ("launch", "expected"),
    [
        ("k[(1,)](x, *x.stride()[:1], 64)", {"x": "x", "n": None, "BT": "64"}),  # the last parameter
        ("k[(1,)](*x.stride(), n, BT=64)", {"x": None, "n": "n", "BT": "64"}),  # the keyword's is not filled
        ("k[(1,)](*x.stride(), x, 1, 2, 3)", {"x": None, "n": None, "BT": None}),  # more than the parameters
        ("k[(1,)](*x.stride())", {"x": None, "n": None, "BT": None}),
    ],
)
def test_arguments_written_after_a_splat_of_unknown_length(launch: str, expected: dict[str, str | None]) -> None:
    hosts, kernel, module = index(f"\ndef run(x, n):\n    {launch}\n")
    (found,) = hosts.launches_with_helpers(kernel)
    assert {name: passed_code(module, hosts.argument(found, kernel, name)) for name in expected} == expected


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        # literals and their arithmetic, module constants, a ceiling division however written
        (
            "N = 1 << 20\nH = 32\n\ndef f(x):\n"
            "    k[(70000, N // 64 * H, triton.cdiv(N, 16), -(-N // 3), (N + 7 - 1) // 7, math.ceil(N / 5))](x, 1, BT=64)\n",
            [70000, 524288, 65536, 349526, 149797, 209716],
        ),
        # the power of two above a count, `min` / `max`, `int(...)`, a name bound twice to one value
        (
            "def f(x):\n    n = 100\n    if x.is_cuda:\n        n = 50 * 2\n"
            "    k[(triton.next_power_of_2(n), 1 << (n - 1).bit_length(), min(n, 65535), max(n, 7), int(n))](x, 1, BT=64)\n",
            [128, 128, 100, 100, 100],
        ),
        # unknown: a parameter (also one shadowing a module constant), a name bound to two values,
        # a size, a grid function's meta-parameter, a division by zero rounding up
        (
            "N = 4096\n\ndef f(x, N, m=8):\n    n = 1 if x.is_cuda else 2\n    b = 4\n    if x.is_cuda:\n        b = 8\n"
            "    k[(N, m, n, b, x.shape[0], triton.cdiv(7, 0))](x, 1, BT=64)\n"
            "    k[lambda META: (triton.cdiv(4096, META['BT']),)](x, 1, BT=64)\n",
            [None, None, None, None, None, None, None],
        ),
        # unknown: a module constant some other binding may replace (a `for` or comprehension
        # target, `with ... as`, `except ... as`, an import, a `global` rebinding elsewhere)
        (
            "N = 4096\nM = 4096\nW = 4096\nE = 4096\nI = 4096\nG = 4096\nOK = 4096\n\n"
            "def reset():\n    global G\n    G = 8\n\n"
            "def f(x):\n    for N in (1, 2):\n        pass\n    ys = [M for M in (1, 2)]\n"
            "    with open(x) as W:\n        pass\n    try:\n        pass\n    except E as E:\n        pass\n"
            "    from cfg import I\n    k[(N, M, W, E, I, G, OK)](x, 1, BT=64)\n",
            [None, None, None, None, None, None, 4096],
        ),
        # unknown: the starred name of an unpacking, a `match` star or mapping rest (the rest
        # of a sequence or dict, whatever the name held before)
        (
            "N = 70000\nS = 70000\nR = 70000\nF = 70000\n\n"
            "def f(x):\n    k[(N, S, R, F)](x, 1, BT=64)\n\n"
            "M, *N = 1, 2, 3\n"
            "match x:\n    case [*S]:\n        pass\n    case {**R}:\n        pass\n",
            [None, None, None, 70000],
        ),
        (
            "def f(x):\n    N = 70000\n    *N, M = [1, 2, 3]\n    k[(N,)](x, 1, BT=64)\n",
            [None],
        ),
    ],
)
def test_known_counts(host: str, expected: list[int | None]) -> None:
    """The ints a grid's axes hold however the code runs (`HostIndex.known_int`)."""
    hosts, kernel, _ = index(host)
    found = [
        hosts.known_int(axis, grid.scope)
        for launch in hosts.launches_with_helpers(kernel)
        for grid in hosts.grids(launch)
        for axis in grid.axes
    ]
    assert found == expected


@pytest.mark.parametrize(
    ("host", "module_level", "assigned_only", "expected"),
    [
        ("N = 64\n", True, True, ["64"]),
        ("N = 64\n", False, True, []),  # bound at module level
        ("N = 64\nfor N in range(2):\n    pass\n", True, True, []),  # also a `for` target
        ("N = 64\nfor N in range(2):\n    pass\n", True, False, ["64"]),
        ("N = 64\n\ndef g():\n    N = 8\n\n    def f():\n        return N\n", False, True, ["8"]),
        ("def g(N):\n    N = 8\n\n    def f():\n        return N\n", True, False, []),  # a parameter
        # not a binding in an arm or loop body `known_truth` says never runs
        ("def f(a, b):\n    N = a\n    if False:\n        N = a * b\n    return N\n", True, True, ["a"]),
        ("def f(a, b):\n    N = a\n    on = 0\n    if on:\n        N = b\n    return N\n", True, True, ["a"]),
        ("def f(a, b):\n    if True:\n        N = a\n    else:\n        N = b\n    return N\n", True, True, ["a"]),
        ("def f(a, b):\n    for _ in ():\n        N = b\n    N = a\n    return N\n", True, True, ["a"]),
        ("def f(a, b, c):\n    N = a\n    if c:\n        N = b\n    return N\n", True, True, ["a", "b"]),
    ],
)
def test_values_bound(host: str, module_level: bool, assigned_only: bool, expected: list[str]) -> None:
    """The values a name read in `f` is bound to where it is bound (`HostIndex._values_bound`:
    `f`, a function around it, or the module), without the module's bindings unless
    `module_level`, nor those of a name something else binds too when `assigned_only`."""
    hosts, _, module = index(host if "def f" in host else host + "\ndef f():\n    return N\n")
    [function] = [node for node in walk(module) if isinstance(node, cst.FunctionDef) and node.name.value == "f"]
    _, values = hosts._values_bound("N", function, module_level, assigned_only)
    assert [module.code_for_node(value) for value in values] == expected


def _rebound_by_walking(start: cst.CSTNode, end: cst.CSTNode, function: cst.FunctionDef) -> set[str] | None:
    """`WrittenOrder.names_rebound_between` as it was, a walk of the function per question."""
    from ascend_lint.host.bindings import _BINDING_TYPES, _targets
    from ascend_lint.nodes import child_nodes, walk

    names: set[str] = set()
    reached = False
    stack: list[tuple[cst.CSTNode, bool]] = [(function.body, False)]
    while stack:
        node, in_loop = stack.pop()
        if node is start or node is end:
            if in_loop or (node is end and not reached):
                return None
            if node is end:
                return names
            reached = True
        if reached and type(node) in _BINDING_TYPES:
            names |= {sub.value for target in _targets(node) for sub in walk(target) if isinstance(sub, cst.Name)}
        in_loop = in_loop or type(node) is cst.For or type(node) is cst.While
        stack.extend((child, in_loop) for child in reversed(child_nodes(node)))
    return None


def _assigned_after_by_walking(point: cst.CSTNode, function: cst.FunctionDef) -> frozenset[cst.CSTNode]:
    """`WrittenOrder.assignments_after` as it was, a walk of the function per question."""
    from ascend_lint.host.bindings import _BINDER_TYPES
    from ascend_lint.nodes import child_nodes

    found: list[cst.CSTNode] = []
    reached = False
    stack: list[tuple[cst.CSTNode, bool]] = [(function.body, False)]
    while stack:
        node, in_loop = stack.pop()
        if node is point:
            if in_loop:
                return frozenset()
            reached = True
        if reached and type(node) in _BINDER_TYPES:
            found.append(node)
        in_loop = in_loop or type(node) is cst.For or type(node) is cst.While
        stack.extend((child, in_loop) for child in reversed(child_nodes(node)))
    return frozenset(found) if reached else frozenset()


def test_a_functions_written_order_answers_as_a_walk_per_question_did() -> None:
    """`WrittenOrder` reads a function once and answers each launch by lookup (a walk per
    launch was quadratic in the function's size): its answers are the walk's, for every
    statement and name of every function of the fixtures, loops, arms and nested functions
    included, and for nodes of another function."""
    from ascend_lint.host.bindings import WrittenOrder

    asked = 0
    for path in sorted(FIXTURES.rglob("*.py"))[::6]:
        module = cst.parse_module(path.read_text(encoding="utf-8"))
        functions = [node for node in walk(module) if isinstance(node, cst.FunctionDef)]
        for function in functions:
            order = WrittenOrder(function)
            nodes = [*walk(function)]
            statements = [n for n in nodes if isinstance(n, cst.BaseSmallStatement | cst.BaseCompoundStatement)]
            names = [*[n for n in nodes if isinstance(n, cst.Name)][::3], functions[0].name]
            for point in statements + names[:5]:
                assert order.assignments_after(point) == frozenset(map(id, _assigned_after_by_walking(point, function)))
            for start in statements[:4]:
                for end in [*names[:20], *statements[:8]]:
                    assert order.names_rebound_between(start, end) == _rebound_by_walking(start, end, function)
                    asked += 1
    assert asked > 1_000


def test_a_block_read_once_finds_the_asserts_and_bindings_a_walk_did() -> None:
    """`_Suite` (the block `asserted_values` reads once) says which statements hold a node and
    which bind a name as a walk of each statement did."""
    from ascend_lint.specialisations import _names_bound, _Suite

    for path in sorted(FIXTURES.rglob("*.py"))[::12]:
        module = cst.parse_module(path.read_text(encoding="utf-8"))
        suite = _Suite(module)
        statements = [n for n in walk(module) if isinstance(n, cst.BaseSmallStatement | cst.BaseCompoundStatement)]
        calls = [n for n in walk(module) if isinstance(n, cst.Call)][::7]
        bound = [*sorted({name for node in walk(module) for name in _names_bound(node)})[:8], "not_bound"]
        for statement in statements:
            inside = {id(node) for node in walk(statement)}
            assert [suite.holds(statement, call) for call in calls] == [id(call) in inside for call in calls]
            binding = {name for node in walk(statement) for name in _names_bound(node)}
            assert [suite.binds_anywhere([statement], name) for name in bound] == [name in binding for name in bound]


TORCH_WRAPPED = """import torch
import triton
import triton.language as tl
{imports}

@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)

def other(x):
    return x

{host}"""
BIG_GRID = "[(batch * channels, triton.cdiv(length, 1024))](x, y, length, BLOCK=1024)"
SHAPED = "def f(x):\n    batch, channels, length = x.shape\n    y = torch.empty_like(x)\n"


@pytest.mark.parametrize(
    ("imports", "host", "codes"),
    [
        # vllm-omni's alias-free SnakeBeta: the grid multiplies two runtime extents
        ("", SHAPED + f"    torch.library.wrap_triton(k){BIG_GRID}\n", ["ASC010"]),
        ("from torch.library import wrap_triton as w", SHAPED + f"    w(k){BIG_GRID}\n", ["ASC010"]),
        (  # torch 2.5's name, where torch 2.6 kept it
            "from torch._higher_order_ops.triton_kernel_wrap import capture_triton",
            SHAPED + f"    capture_triton(k){BIG_GRID}\n",
            ["ASC010"],
        ),
        # a name bound to the wrapped kernel, in the function or at module level
        ("from torch.library import wrap_triton", SHAPED + f"    wk = wrap_triton(k)\n    wk{BIG_GRID}\n", ["ASC010"]),
        ("", "WK = torch.library.capture_triton(k)\n" + SHAPED + f"    WK{BIG_GRID}\n", ["ASC010"]),
        # a launcher storing the wrapped kernel's subscript
        (
            "import torch.library as L",
            SHAPED + "    run = L.wrap_triton(k)" + BIG_GRID.replace("](", "]\n    run(", 1) + "\n",
            ["ASC010"],
        ),
        # the UB estimate reads the launch's BLOCK as at `k[(4,)](...)`
        ("", "def f(x, y):\n    torch.library.wrap_triton(k)[(4,)](x, y, x.numel(), BLOCK=131072)\n", ["ASC013"]),
        (
            "from torch.library import wrap_triton",
            "def f(x, y):\n    wrap_triton(k).run(x, y, x.numel(), BLOCK=131072, grid=(4,), warmup=False)\n",
            ["ASC013"],
        ),
        # not torch's wrapper, and torch's wrapping no kernel: nothing is known of what they launch
        ("from mylib import wrap", SHAPED + f"    wrap(k){BIG_GRID}\n", []),
        ("", SHAPED + f"    torch.library.wrap_triton(other){BIG_GRID}\n", []),
        ("", SHAPED + f"    torch.library.wrap_triton(make_kernel()){BIG_GRID}\n", []),
    ],
)
def test_a_launch_through_torchs_wrapper_is_one_of_the_kernel_it_wraps(
    lint, imports: str, host: str, codes: list
) -> None:
    """`torch.library.wrap_triton(k)[grid](...)` (also `capture_triton`, its older name, and any
    spelling the imports give them) launches `k` on `grid`, as `k[grid](...)` does: every rule
    reading launches sees it."""
    source = TORCH_WRAPPED.format(imports=imports, host=host)
    assert sorted(f.code for f in lint(source, select=["ASC010", "ASC013"])) == codes, source


WRAPPED_CHOICE = """import torch
import triton
import triton.language as tl
{imports}

@triton.jit
def k_a(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)

@triton.jit
def k_b(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n) * 2, mask=offs < n)

def f(x, fast):
    batch, channels, length = x.shape
    y = torch.empty_like(x)
{host}"""
CHOSEN_GRID = "[(batch * channels, triton.cdiv(length, 1024))](x, y, length, BLOCK=131072)\n"


@pytest.mark.parametrize(
    ("imports", "host", "findings"),
    [
        ("", f"    torch.library.wrap_triton(k_a if fast else k_b){CHOSEN_GRID}", [19, 19, 19]),
        (
            "from torch.library import capture_triton",
            f"    capture_triton(k_a if fast else k_b){CHOSEN_GRID}",
            [19, 19, 19],
        ),
        (
            "from torch.library import wrap_triton",
            f"    wk = wrap_triton(k_a if fast else k_b)\n    wk{CHOSEN_GRID}",
            [20, 20, 20],
        ),
        (
            "from torch.library import wrap_triton",
            "    wrap_triton(k_a if fast else k_b).run(x, y, length, BLOCK=131072, grid=(4,), warmup=False)\n",
            [19, 19],
        ),
        # an arm naming no kernel: nothing is known of what the launch runs
        ("", f"    torch.library.wrap_triton(k_a if fast else make()){CHOSEN_GRID}", []),
    ],
)
def test_a_wrapped_choice_launches_each_kernel_it_may_pick(lint, imports: str, host: str, findings: list) -> None:
    """`wrap_triton(k_a if fast else k_b)[grid](...)` launches `k_a` or `k_b` on `grid`, as
    `(k_a if fast else k_b)[grid](...)` does: ASC010 sizes the grid, ASC013 each kernel's UB."""
    source = WRAPPED_CHOICE.format(imports=imports, host=host)
    found = lint(source, select=["ASC010", "ASC013"])
    assert sorted(f.location.row for f in found) == findings, source
    assert [f.code for f in found].count("ASC013") == (2 if findings else 0), source  # one per kernel


CHOSEN_LAUNCHER = """import functools
import torch
import triton
import triton.language as tl

@triton.jit
def k_a({params}):
{body}

@triton.jit
def k_b({params}):
{body}

def f(x, o, lens, fast):
    batch, channels, length = x.shape
    props = triton.runtime.driver.active.utils.get_device_properties(0)
{launch}"""
TILE = "    o = tl.arange(0, BLOCK)\n"
# by rule reading launches: the kernels' parameters and body, the grid, the arguments, and how
# many findings a launch of `k_a if fast else k_b` makes (one of the launch, or one per kernel)
LAUNCH_READERS = {
    # a float passed for `offset`: no int to specialise
    "ASC002": (
        "x, n, offset, BLOCK: tl.constexpr",
        TILE + "    tl.store(x + o, tl.load(x + o, mask=o < n) + offset.to(tl.float32), mask=o < n)",
        "(4,)",
        "x, length, 0.5, BLOCK=64",
        0,
    ),
    "ASC001": (
        "x, n, BLOCK: tl.constexpr",
        TILE + "    tl.store(x + o, 0.0)",
        "(1,)",
        "x, length, BLOCK=64, num_warps=4",
        1,
    ),
    "ASC004": (  # a tensor passed for `h0`: no optional pointer
        "x, h0, y, W, USE_H0: tl.constexpr, BLOCK: tl.constexpr",
        TILE + "    if USE_H0 or tl.program_id(0) * BLOCK < W:\n        b = tl.load(h0 + o)\n    else:\n"
        "        b = tl.load(x + o)\n    tl.store(y + o, b)",
        "(4,)",
        "x, o, o, length, USE_H0=True, BLOCK=16",
        0,
    ),
    "ASC008": (  # the boundaries passed as int32
        "q, o, cu_seqlens, H: tl.constexpr, D: tl.constexpr",
        "    i_n, i_h = tl.program_id(0), tl.program_id(1)\n    bos = tl.load(cu_seqlens + i_n)\n"
        "    tl.store(o + (bos * H + i_h) * D + tl.arange(0, D), tl.load(q + i_h))",
        "(len(lens), 4)",
        "x, o, torch.cumsum(lens, 0, dtype=torch.int32), 4, 64",
        2,
    ),
    "ASC009": (
        "x, n, BLOCK: tl.constexpr",
        "    for row in tl.range(tl.program_id(0), n, tl.num_programs(0)):\n"
        "        tl.store(x + row * BLOCK + tl.arange(0, BLOCK), 0.0)",
        '(props["num_aicore"],)',
        "x, length, BLOCK=64",
        2,
    ),
    "ASC010": (
        "x, n, BLOCK: tl.constexpr",
        TILE + "    tl.store(x + tl.program_id(0) * BLOCK + o, 0.0)",
        "(batch * channels, triton.cdiv(length, 1024))",
        "x, length, BLOCK=64",
        1,
    ),
    "ASC013": (
        "x, n, BLOCK: tl.constexpr",
        TILE + "    tl.store(x + o, tl.load(x + o, mask=o < n) * 2.0, mask=o < n)",
        "(4,)",
        "x, length, BLOCK=131072",
        2,
    ),
}


@pytest.mark.parametrize(
    "launch",
    [
        "    run = (k_a if fast else k_b)[{grid}]\n    run({args})\n",
        "    run = functools.partial((k_a if fast else k_b)[{grid}], {args})\n    run()\n",
        "    run = torch.library.wrap_triton(k_a if fast else k_b)[{grid}]\n    run({args})\n",
        "    functools.partial((k_a if fast else k_b)[{grid}])({args})\n",
        "    (k_a if fast else k_b)[{grid}]({args})\n",  # as written in the launch
    ],
)
@pytest.mark.parametrize("code", sorted(LAUNCH_READERS))
def test_a_launcher_holding_a_choice_launches_each_kernel_it_may_pick(lint, code: str, launch: str) -> None:
    """`run = (k_a if fast else k_b)[grid]`, then `run(...)` (also through `functools.partial`
    and torch's wrapper, stored or called where it is made) launches `k_a` or `k_b` on `grid`,
    as `(k_a if fast else k_b)[grid](...)` does: every rule reading launches sees it."""
    params, body, grid, args, count = LAUNCH_READERS[code]
    source = CHOSEN_LAUNCHER.format(params=params, body=body, launch=launch.format(grid=grid, args=args))
    assert len(lint(source, select=[code])) == count, source


def test_a_knob_a_wrapped_kernel_takes_is_its_argument(lint) -> None:
    """ASC001 and the index agree on what `wrap_triton(k)[grid](...)` launches: `num_stages=`
    is an argument of a kernel taking a `num_stages` parameter; `num_warps=`, which it does not
    take, is a knob, also in the wrapper's `run(...)`."""
    source = """import torch
import triton
import triton.language as tl

@triton.jit
def k(x, n, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)

def f(x):
    torch.library.wrap_triton(k)[(1,)](x, x.numel(), BLOCK=64, num_stages=2, num_warps=8)
    torch.library.wrap_triton(k).run(x, x.numel(), BLOCK=64, num_stages=2, num_warps=8, grid=(1,), warmup=False)
"""
    assert [(f.code, f.location.row) for f in lint(source, select=["ASC001"])] == [("ASC001", 10), ("ASC001", 11)]


def test_an_answer_reading_what_reaches_the_grid_is_not_kept_across_launches() -> None:
    """`HostIndex._read_alone` keeps an answer across launches only when it read nothing of what
    reaches the grid being sized (`_unreached`): every read of it is counted, none by hand."""
    hosts, _, _ = index("def run(x):\n    k[(1,)](x, 1, BT=64)\n")
    assert hosts._read_alone(lambda: 1) == (1, ())
    assert hosts._read_alone(lambda: hosts._unreached) == (frozenset(), None)
