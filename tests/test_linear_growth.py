"""Linting grows linearly with the code, counted in Python calls (not timed): each shape of long
code is linted at n and 2n repetitions, and the second costs about twice the first. A scan per
statement of the statements after it, a width nesting its operands' widths, or a cap nesting
the caps before it read again inside each (a line of `n = min(n, 1024)`, read at most
`MAX_LINE_UPDATES` long), shows as a ratio of 3 to 4 (quadratic) or past 100 (exponential); the
fuzzer's short mutants do not reach it."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable

import pytest
from conftest import settings

from ascend_lint.engine import lint_source

HEAD = """import triton
import triton.language as tl

"""


def python_calls(source: str) -> int:
    """The Python function calls `lint_source` makes on `source` (no error allowed)."""
    calls = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        result = lint_source(source, "snippet.py", settings())
    finally:
        sys.setprofile(None)
    assert result.error is None, result.error
    return calls


def kernel(body: str) -> str:
    return (
        HEAD + "@triton.jit\ndef k(x, n, BT: tl.constexpr):\n    o = tl.program_id(0) * BT + tl.arange(0, BT)\n"
        "    acc = tl.load(x + o, mask=o < n)\n" + body + "    tl.store(x + o, acc)\n\n"
        "def run(x):\n    k[(4,)](x, 8, BT=64)\n"
    )


def launched(host: str) -> str:
    return (
        HEAD
        + "@triton.jit\ndef k(x, n, BLOCK: tl.constexpr):\n    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    tl.store(x + o, tl.load(x + o, mask=o < n), mask=o < n)\n\n"
        "def run(x):\n    n = x.numel()\n" + host + "    k[(1,)](x, x.numel(), BLOCK=n)\n"
    )


def returned_offsets(n: int) -> str:
    """`n` pairs of a device function's product of an int32 offset read into two addresses."""
    return (
        HEAD + "@triton.jit\ndef _off(b, H: tl.constexpr, V: tl.constexpr):\n    return b * H * V\n\n\n"
        "@triton.jit\ndef k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):\n"
        "    r = tl.arange(0, V)\n    bos = tl.load(cu_seqlens + tl.program_id(0)).to(tl.int32)\n"
        + "".join(
            f"    t{i} = _off(bos + {i}, H, V)\n    tl.store(o + t{i} + r, tl.load(v + t{i} + r))\n" for i in range(n)
        )
    )


def chained_offsets(n: int) -> str:
    """`returned_offsets` with the product made by a helper `_off` returns (`_base`)."""
    return returned_offsets(n).replace(
        "def _off(b, H: tl.constexpr, V: tl.constexpr):\n    return b * H * V\n",
        "def _base(b, H: tl.constexpr, V: tl.constexpr):\n    return b * H * V\n\n\n@triton.jit\n"
        "def _off(b, H: tl.constexpr, V: tl.constexpr):\n    return _base(b, H, V) + 1\n",
    )


def helper_chain(n: int) -> str:
    """A kernel passing an int32 offset down a chain of `n` device functions, each reading it
    and calling the next: ASC008 checks each, and each one's offsets are the chain's above it."""
    helpers = "".join(
        f"@triton.jit\ndef _h{i}(v, o, bos, H: tl.constexpr, V: tl.constexpr):\n    r = tl.arange(0, V)\n"
        f"    tl.store(o + bos * H * V + r, tl.load(v + bos * H * V + r))\n"
        + (f"    _h{i + 1}(v, o, bos, H, V)\n" if i + 1 < n else "")
        + "\n\n"
        for i in range(n)
    )
    return (
        HEAD + helpers + "@triton.jit\ndef k(v, o, cu_seqlens, H: tl.constexpr, V: tl.constexpr):\n"
        "    bos = tl.load(cu_seqlens + tl.program_id(0)).to(tl.int32)\n    _h0(v, o, bos, H, V)\n"
    )


SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "a tile doubled in place (`acc = acc + acc`)": (lambda n: kernel("    acc = acc + acc\n" * n), 8),
    "a tile squared through names (`b = a * a`)": (
        lambda n: kernel("".join(f"    a{i} = acc * acc\n    acc = a{i} + a{i}\n" for i in range(n))),
        5,
    ),
    "an accumulation of many loads": (
        lambda n: kernel(
            "".join(f"    t{i} = tl.load(x + o + {i}, mask=o < n)\n    acc = acc + t{i}\n" for i in range(n))
        ),
        80,
    ),
    "a line of host updates (`n = min(n, 1024)`)": (lambda n: launched("    n = min(n, 1024)\n" * n), 5),
    "a device function's offset product read at many calls (`t = _off(bos + i, H, V)`)": (returned_offsets, 40),
    "a product a helper returns through another read at many calls": (chained_offsets, 40),
    # each function's offsets (`_sequence_offsets`), and what it returns into its callers
    # (`Kernel.returned_into`), kept across the module's kernels; callers found in one pass
    "an int32 offset passed down a chain of device functions (ASC008)": (helper_chain, 40),
}


HOST_HEAD = (
    HEAD
    + """import torch

@triton.jit
def k(x, n, BT: tl.constexpr):
    o = tl.program_id(0) * BT + tl.arange(0, BT)
    tl.store(x + o, tl.load(x + o, mask=o < n), mask=o < n)

"""
)


def launch(i: int, indent: str = "    ") -> str:
    """Host code launching many times (issue 11): a grid sized from an input, a tile picked by
    platform, the launch; each launch reads the function by lookup in facts read once per
    function (`WrittenOrder`, `_Suite`, `HostIndex._block_checks`), not by a walk of it."""
    return (
        f"{indent}a{i} = x.shape[0] * {i + 1}\n{indent}b{i} = 64\n{indent}if x.device.type == 'npu':\n"
        f"{indent}    b{i} = 32\n{indent}k[(a{i},)](x, a{i}, BT=b{i})\n"
    )


SHAPES |= {
    "a host function launching many times": (
        lambda n: HOST_HEAD + "def run(x):\n" + "".join(launch(i) for i in range(n)),
        40,
    ),
    "launches under `if`s": (
        lambda n: (
            HOST_HEAD + "def run(x):\n" + "".join(f"    if x.dim() > {i}:\n" + launch(i, " " * 8) for i in range(n))
        ),
        40,
    ),
    "launches in `for` loops": (
        lambda n: (
            HOST_HEAD + "def run(x):\n" + "".join(f"    for j{i} in range(2):\n" + launch(i, " " * 8) for i in range(n))
        ),
        40,
    ),
    "launches under `with`s": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n"
            + "".join("    with torch.npu.device(x.device):\n" + launch(i, " " * 8) for i in range(n))
        ),
        40,
    ),
    "a grid function per launch": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n"
            + "".join(
                f"    g{i} = lambda meta: (triton.cdiv(x.shape[0] * {i + 1}, meta['BT']),)\n    k[g{i}](x, x.shape[0], BT=64)\n"
                for i in range(n)
            )
        ),
        40,
    ),
    "module-level launches": (
        lambda n: HOST_HEAD + "x = torch.empty(8)\n" + "".join(launch(i, "") for i in range(n)),
        40,
    ),
    # each block read at the bound of a test (`_HostNames.tested_bound`), through a line of
    # rebindings made of the tested size (`HostIndex.bound_since`) and an `if`/`else` capping it in each arm
    "launches of tested sizes": (
        lambda n: (
            HOST_HEAD
            + "".join(
                f"def run{i}(x, wide):\n    n = x.shape[0]\n    if n > 1024:\n        raise ValueError\n"
                "    n = n * 2\n    k[(n,)](x, n, BT=triton.next_power_of_2(n))\n"
                "    n += 1\n    k[(n,)](x, n, BT=triton.next_power_of_2(n))\n"
                "    if wide:\n        n = min(n, 4096)\n    else:\n        n = min(n, 1024)\n"
                "    k[(n,)](x, n, BT=n)\n    m = x.shape[1]\n    if m <= 4096:\n        k[(m,)](x, m, BT=m)\n"
                for i in range(n)
            )
        ),
        40,
    ),
    "many host functions launching once": (
        lambda n: HOST_HEAD + "".join(f"def run{i}(x):\n" + launch(i) for i in range(n)),
        40,
    ),
    "launches in loops over items after a `break`": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n"
            + "".join(
                f"    for n{i} in (1, 70000, 30000):\n        if n{i} > 65535:\n            break\n"
                f"        k[(n{i} * 3,)](x, n{i}, BT=64)\n"
                for i in range(n)
            )
        ),
        40,
    ),
    "loops over named shapes in one function (`for d in s: m *= d`)": (
        lambda n: (
            HOST_HEAD
            + "def run(B):\n"
            + "".join(
                f"    s{i} = B.shape[:-2]\n    m{i} = 1\n    for d{i} in s{i}:\n        m{i} *= d{i}\n"
                f"    k[(m{i}, triton.cdiv(B.shape[-1], 16))](B, 1, BT=64)\n"
                for i in range(n)
            )
        ),
        20,
    ),
}


def launched_after(check: Callable[[int], str], n: int) -> str:
    """One host function of `n` launches of the same grid, each after its own `check` of the
    size (an `assert`, an early exit): each launch's guard reads every check before it."""
    return (
        HOST_HEAD
        + "def run(x):\n"
        + "".join(check(i) + "    k[(x.shape[0],)](x, x.shape[0], BT=64)\n" for i in range(n))
    )


SHAPES |= {
    "launches after `assert`s on the same size": (
        lambda n: launched_after(lambda i: f"    assert x.shape[0] < {1000 + i}\n", n),
        40,
    ),
    "launches after early exits on the same size": (
        lambda n: launched_after(
            lambda i: f"    if x.shape[0] > {1000 + i}:\n        {'return' if i % 2 else 'raise ValueError'}\n", n
        ),
        40,
    ),
    "a grid name rebound before every launch (`grid = (...)`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n"
            + "".join(f"    grid = (x.shape[0] * {i + 1},)\n    k[grid](x, x.shape[0], BT=64)\n" for i in range(n))
        ),
        40,
    ),
    "a tile name rebound before every launch (`BLOCK = ...`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n"
            + "".join(f"    BLOCK = {16 << i % 4}\n    k[(x.shape[0],)](x, x.shape[0], BT=BLOCK)\n" for i in range(n))
        ),
        40,
    ),
    "a counter rebound by `while` loops before every launch (`start += CH`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n    n = x.shape[0]\n"
            + "".join(
                "    start = 0\n    while start < n:\n"
                "        k[(min(n - start, 1024),)](x[start:], n, BT=64)\n        start += 1024\n"
                for _ in range(n)
            )
        ),
        10,
    ),
    # each launch reads every test before it, each test's guard as bounded at the launch read
    # once for the tests with no binding written between them (`WrittenOrder.segments`)
    "launches after early exits on a size's name (`if m > c: raise`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n    m = x.shape[0]\n"
            + "".join(f"    if m > {1000 + i}:\n        raise ValueError\n    k[(m,)](x, m, BT=64)\n" for i in range(n))
        ),
        80,
    ),
    # each launch reads the bindings written before its grid (`HostIndex._reaching_bindings`):
    # by the ids of what runs after it, with no Python call per binding
    "a core count rebound before every launch (`cores = props[...]`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n    props = torch.npu.get_device_properties(x.device)\n"
            + "    cores = props['num_aicore']\n    k[(cores,)](x, x.shape[0], BT=64)\n" * n
        ),
        80,
    ),
    # each launch reads the dtype of what it passes (`HostIndex._dtype`) and whether the name
    # is updated in a loop (`_accumulated_reaching`): once per name, not per read of it
    "a name doubled before every launch passing it (`n = n * 2`)": (
        lambda n: (
            HOST_HEAD + "def run(x):\n    n = x.shape[0]\n" + "    n = n * 2\n    k[(x.shape[0],)](x, n, BT=64)\n" * n
        ),
        80,
    ),
    # each launch's tile, capped at the bound of the tests where the kernel runs, asks about
    # all the function's launches: the tests holding at them read once (`HostIndex.tests_at`)
    "launches after early exits on an extent their tiles read (`BLOCK=next_power_of_2(...)`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n"
            + "".join(
                f"    if x.shape[0] > {4096 - i}:\n        raise ValueError\n"
                "    k[(1,)](x, x.shape[0], BT=triton.next_power_of_2(x.shape[0]))\n"
                for i in range(n)
            )
        ),
        40,
    ),
    # each launch's capped tile asks whether the one test before them all still bounds the size at
    # every launch of the function: once per test and launches (`Specialisations._kept_at`)
    "launches of capped tiles after one test of the size (`BT=min(n, 1024)`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x, n):\n    if n > 4096:\n        raise ValueError\n"
            + "    k[(n,)](x, n, BT=min(n, 1024))\n" * n
        ),
        80,
    ),
    # each halving reads the core count every binding of `n` holds, each halving again: what the
    # bindings reaching a name hold is read once per name (`HostIndex._bound_core_count`)
    "a size halved then grown before every launch (`n //= 2; n += 1`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x, n):\n    assert n <= 8192\n"
            + "    n //= 2\n    n += 1\n    k[(n,)](x, n, BT=64)\n" * n
        ),
        3,
    ),
    # each rebinding of the line after the test carried once, whatever shrinks or grows the size
    "a size lessened then grown before every launch (`n -= pad; n += 1; n %= 65536`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x, n, pad):\n    assert n <= 8192\n"
            + "    n -= pad\n    n += 1\n    n %= 65536\n    k[(n,)](x, n, BT=64)\n" * n
        ),
        3,
    ),
    # whether the set of allowed shapes is changed is asked once per set (`HostIndex.written_out`)
    "launches under a membership test of a module set of shapes (`shape in SUPPORTED`)": (
        lambda n: (
            HOST_HEAD
            + "SUPPORTED = {(1024, 128), (2048, 64)}\n\ndef run(x):\n    shape = tuple(x.shape)\n"
            + "    assert shape in SUPPORTED\n"
            + "    k[(1,)](x, shape[0], BT=triton.next_power_of_2(shape[1]))\n" * n
        ),
        40,
    ),
    # the stores of `__init__` and the calls between them read once per class and name
    # (`HostIndex._init_line`), each method's launch its own points of them
    "methods `__init__` calls between stores of the launch value (`self.BLOCK = ...; self._m()`)": (
        lambda n: (
            HOST_HEAD
            + "class Op:\n    def __init__(self, x):\n"
            + "".join(f"        self.BT = {16 + i}\n        self._m{i}(x)\n" for i in range(n))
            + "".join(f"\n    def _m{i}(self, x):\n        k[(1,)](x, x.shape[0], BT=self.BT)\n" for i in range(n))
        ),
        40,
    ),
    # each halving's budget divisors read every halving's again, `ORIGIN_HOPS * 2` deep: read once
    # per name, hops and launch (`HostIndex._bound_budget_divisors`)
    "a size halved before every launch (`n //= 2`)": (
        lambda n: HOST_HEAD + "def run(x, n):\n    assert n <= 8192\n" + "    n //= 2\n    k[(n,)](x, n, BT=64)\n" * n,
        3,
    ),
    # each `b` bound to `a` read every binding of `b` again: the origins of a name's reads the same
    # bindings reach are worked out once (`HostIndex._origins_sized`, `_name_origins`)
    "two sizes swapped and doubled before every launch (`a, b = b, a * 2`)": (
        lambda n: HOST_HEAD + "def run(x, a, b):\n" + "    a, b = b, a * 2\n    k[(a, b)](x, a, BT=64)\n" * n,
        4,
    ),
    # each launch read every binding of its grid's name before it (the one reaching it reads the name):
    # for its core count, its origins and the extent of each update, each binding's answer now read
    # once for every launch it reaches (`_reaching_core_count`, `_reaching_origins`, `_updates_sized`)
    **{
        f"a grid's name updated before every launch (`{update}`)": (
            lambda n, update=update: (
                HOST_HEAD + "def run(x):\n    n = x.shape[0]\n" + f"    {update}\n    k[(n,)](x, n, BT=64)\n" * n
            ),
            32,
        )
        for update in ("n = n * 2", "n = n + 1", "n *= 2", "n <<= 1")
    },
    "a parameter updated before every launch of its grid (`n = n * 2`)": (
        lambda n: HOST_HEAD + "def run(x, n):\n" + "    n = n * 2\n    k[(n,)](x, n, BT=64)\n" * n,
        32,
    ),
    # each halving's answer (its core count, the budgets it divides) reads the name's own, one hop
    # further, through every binding before the launch: kept with what it read, read again for
    # each launch only there (`HostIndex._at_launch`, `_kept_each`)
    **{
        f"a grid's name halved before every launch (`{update}`)": (
            lambda n, update=update: (
                HOST_HEAD + "def run(x, n):\n    assert n <= 8192\n" + f"    {update}\n    k[(n,)](x, n, BT=64)\n" * n
            ),
            32,
        )
        for update in ("n //= 2", "n //= 2; n += 1")
    },
    # each launch's tile asked whether any value of the names behind it calls `min`, walking every
    # binding of `cfg`: once per name (`_HostNames._binds_min`)
    "a dict rebuilt from itself before every launch (`cfg = {**cfg, 'B': ...}`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n    cfg = {'B': 64}\n"
            + "    cfg = {**cfg, 'B': cfg['B'] * 2}\n    k[(cfg['B'],)](x, x.shape[0], BT=cfg['B'])\n" * n
        ),
        60,
    ),
    # what is added to a list is read once per list and launch (`HostIndex._added_paths`), from
    # the list's binding to the launch only; each entry read after an `if` reads its arms
    "a list grid appended to before every launch (`grid.append(...)`)": (
        lambda n: (
            HOST_HEAD
            + "def run(x):\n"
            + "    grid = [x.shape[0]]\n    grid.append(2)\n    k[tuple(grid)](x, x.shape[0], BT=64)\n" * n
        ),
        40,
    ),
    # each launch reads the paths from its own list's binding (`HostIndex._added_paths`), once
    "a list grid appended to under an `if` before every launch": (
        lambda n: (
            HOST_HEAD
            + "def run(x, flag):\n"
            + "    grid = [x.shape[0]]\n    if flag:\n        grid.append(2)\n    else:\n        grid.insert(0, 4)\n"
            "    for _ in x.shape[1:]:\n        grid.append(x.shape[1])\n    k[tuple(grid)](x, x.shape[0], BT=64)\n" * n
        ),
        40,
    ),
    "a dict bound in the arms of an `if` before every launch": (
        lambda n: (
            HOST_HEAD
            + "def run(x, flag):\n"
            + "".join(
                f"    if flag:\n        cfg = {{'n': x.shape[0]}}\n    else:\n        cfg = {{'n': {i + 1}}}\n"
                "    k[(cfg['n'],)](x, x.shape[0], BT=64)\n"
                for i in range(n)
            )
        ),
        40,
    ),
    # whether the dict is changed anywhere is asked once per dict (`HostIndex.elements_read`)
    "launches reading a module dict's entry and an instance's field": (
        lambda n: (
            HOST_HEAD
            + "SIZES = {'bt': 64}\n\nclass Cfg:\n    bt = 64\n\ndef run(x):\n    cfg = Cfg()\n"
            + "    k[(1,)](x, x.shape[0], BT=SIZES['bt'])\n    k[(1,)](x, x.shape[0], BT=cfg.bt)\n" * n
        ),
        40,
    ),
    "launches of powers of two under a test (`BT=1 << m`)": (
        lambda n: HOST_HEAD + "def run(x, m):\n    assert m <= 6\n" + "    k[(1,)](x, x.shape[0], BT=1 << m)\n" * n,
        40,
    ),
    "configs appended in `while` loops": (
        lambda n: (
            HEAD
            + "def configs():\n    out = []\n"
            + "".join(
                f"    b{i} = 16\n    while b{i} <= 64:\n"
                f"        out.append(triton.Config({{'BT': b{i}}}))\n        b{i} *= 2\n"
                for i in range(n)
            )
            + "    return out\n\n@triton.autotune(configs=configs(), key=['n'])\n"
            + "@triton.jit\ndef k(x, n, BT: tl.constexpr):\n    tl.store(x + tl.arange(0, BT), 0.0)\n"
        ),
        20,
    ),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_twice_the_code_costs_about_twice_the_calls(shape: str) -> None:
    make, n = SHAPES[shape]
    python_calls(make(1))  # the first lint of a process fills caches: not counted, whichever test runs first
    once, twice = python_calls(make(n)), python_calls(make(2 * n))
    assert twice / once < 2.3, (once, twice)


def test_a_long_line_of_updates_is_linted() -> None:
    """Past `MAX_LINE_UPDATES` updates a name is unknown: no nesting too deep to analyse."""
    python_calls(launched("    n = min(n, 1024) * 1\n" * 500))


def launches_in_loops_over_items(n: int) -> str:
    return (
        HEAD + "@triton.jit\ndef k(x, BLOCK: tl.constexpr):\n"
        "    tl.store(x + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), 0.0)\n\n"
        "def run(x):\n    for n in (1, 2, 3, 4):\n        for m in (1, 2):\n"
        + "".join(f"            k[(n, m, {i})](x, BLOCK=64)\n" for i in range(n))
    )


def test_launches_in_loops_over_items_read_each_loop_once_and_each_guard_once(monkeypatch) -> None:
    """ASC010 reads each trip's grid of each launch in loops over items (`HostIndex.item_trips`)
    reading each loop's body once, not once per launch, and what the tests around a launch bound
    once per launch, not once per trip. Counted, not timed: the per-launch reads of the launching
    function the guards still make grow with the code as well."""
    import rules.grid_over_65535 as rule
    from ascend_lint.host import index

    counted: Counter[str] = Counter()
    for module, name in ((index, "loops_over_items"), (rule, "_size_guard")):
        monkeypatch.setattr(module, name, _counting(counted, name, getattr(module, name)))
    result = lint_source(launches_in_loops_over_items(40), "snippet.py", settings(select=["ASC010"]))
    assert result.error is None, result.error
    assert counted["loops_over_items"] <= 2, counted  # two loops
    assert counted["_size_guard"] <= 40, counted  # 40 launches, 8 trips each


def _counting(counted: Counter[str], name: str, function: Callable[..., object]) -> Callable[..., object]:
    def counting(*args: object, **kwargs: object) -> object:
        counted[name] += 1
        return function(*args, **kwargs)

    return counting


def helper_calls(n: int) -> str:
    """A kernel calling a device function with a dot `n` times, each call fixing one of its two
    specialisations (`GUARD=True`, whose dot takes a copy, or `GUARD=False`)."""
    return (
        HEAD + "@triton.jit\ndef mm(x, y, GUARD: tl.constexpr):\n    if GUARD:\n        x = x + 0.0\n"
        "    return tl.dot(x, y)\n\n\n@triton.jit\ndef k(p_a, p_b, p_o):\n"
        "    b_a = tl.load(p_a)\n    b_b = tl.load(p_b)\n    c = tl.zeros((16, 16), dtype=tl.float32)\n"
        + "".join(f"    c += mm(b_a, b_b, GUARD={i % 2 == 0})\n" for i in range(n))
        + "    tl.store(p_o, c + b_a + b_b)\n"
    )


def test_a_device_function_called_many_times_decides_each_specialisation_once(monkeypatch) -> None:
    """ASC003 reads each call of a device function in the specialisations it compiles
    (`ModuleContext.call_outcomes`): the constexpr outcomes of each specialisation are worked
    out once per function, not again for each call agreeing with it."""
    from ascend_lint import rule

    counted: Counter[str] = Counter()
    for n in (2, 40):
        monkeypatch.setattr(rule, "decided_outcomes", _counting(counted, f"{n} calls", rule.decided_outcomes))
        result = lint_source(helper_calls(n), "snippet.py", settings(select=["ASC003"]))
        assert result.error is None, result.error
        monkeypatch.undo()
    assert counted["40 calls"] == counted["2 calls"], counted


def dots_sharing_a_left_operand(n: int) -> str:
    """`n + 1` dots with one left operand, each clobbering it for the next (fuzz run 32's slow mutant)."""
    return (
        HEAD + "@triton.jit\ndef k(x, w, o, BT: tl.constexpr):\n    t = tl.arange(0, BT)\n"
        "    b = tl.load(x + t)\n    acc = tl.dot(b, tl.load(w + t))\n"
        + "    acc += tl.dot(b, tl.load(w + t))\n" * n
        + "    tl.store(o + t, acc)\n"
    )


def test_dots_sharing_a_left_operand_cost_no_more_than_their_fixes() -> None:
    """Each of the `n` findings' fixes copies the tile once for every later dot, so the fixes are
    quadratic in size; the analysis is not worse: each walk of the flow from an event
    (`Flow._nearest`), each question whether a dot's value is read (`Flow.value_is_read`) and
    each fresh name (`FreshNames.fresh`) is answered once, not once per pair of dots."""
    python_calls(dots_sharing_a_left_operand(1))
    once, twice = python_calls(dots_sharing_a_left_operand(32)), python_calls(dots_sharing_a_left_operand(64))
    assert twice / once < 4.3, (once, twice)
