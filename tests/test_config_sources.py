"""Where `ascend_lint.specialisations` finds a kernel's configurations away from its decorator
and launch: config lists in names and helpers, comprehensions over module lists, literals
chosen in the arms of an `if`; and that following them stays bounded."""

from __future__ import annotations

import time

from test_tiles import context_of

KERNEL = """
@triton.jit
def k(x, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(x + o, tl.load(x + o, mask=o < n), mask=o < n)
"""


def blocks(code: str) -> list[object]:
    """The BLOCK of each configuration of the snippet's first kernel."""
    context = context_of(code)
    return [c.values.get("BLOCK") for c in context.configurations(context.kernels[0])]


def tuned(configs: str, before: str = "") -> list[object]:
    return blocks(before + f'\n@triton.autotune(configs={configs}, key=["n"])' + KERNEL)


def test_configs_in_a_name_a_helper_and_a_sum_of_lists():
    listed = 'CONFIGS = [triton.Config({"BLOCK": 64}), triton.Config(dict(BLOCK=128))]\n'
    assert tuned("CONFIGS", listed) == [64, 128]
    assert tuned("[*CONFIGS, triton.Config({'BLOCK': 256})]", listed) == [64, 128, 256]
    assert tuned("CONFIGS + [triton.Config({'BLOCK': 256})]", listed) == [64, 128, 256]
    helper = """
def get_configs():
    if SMALL:
        return [triton.Config({"BLOCK": 32})]
    sizes = [64, 128]
    return [triton.Config({"BLOCK": b}) for b in sizes]
"""
    assert tuned("get_configs()", helper) == [32, 64, 128]


def test_comprehension_loops_over_module_lists_tuples_and_unread_lists():
    lists = "BLOCKS = [64, 128]\nNUM_WARPS = [2, 4] if HOPPER else [2, 4, 8]\n"
    assert tuned('[triton.Config({"BLOCK": b}, num_warps=w) for b in BLOCKS for w in NUM_WARPS]', lists) == [64, 128]
    assert tuned('[triton.Config({"BLOCK": b}) for b, w in [(64, 2), (256, 8)]]') == [64, 256]
    # a list a runtime test chooses is a device's choice: no configuration
    assert tuned('[triton.Config({"BLOCK": b}) for b in SIZES]', "SIZES = [64] if HOPPER else [128]\n") == [None]


def test_a_launch_name_gives_one_configuration_per_literal_of_its_paths_only():
    def launched(body: str) -> list[object]:
        return blocks(KERNEL + f"\ndef launch(x, n, flag):\n{body}\n    k[(1,)](x, n, BLOCK=BLOCK)\n")

    assert launched("    if flag:\n        BLOCK = 64\n    else:\n        BLOCK = 128") == [64, 128]
    assert launched("    BLOCK = 64\n    if flag:\n        BLOCK = 128") == [64, 128]
    assert launched("    BLOCK = 64\n    BLOCK = 128") == [None]  # rebound in the same block
    assert launched("    if flag:\n        BLOCK = 64\n    else:\n        BLOCK = 128\n    BLOCK *= 2") == [None]


def test_cycles_and_large_spaces_stay_bounded():
    started = time.perf_counter()
    assert tuned("A", "A = B\nB = A\n") == [None]
    assert tuned("get()", "def get():\n    return get()\n") == [None]
    space = '[triton.Config({"BLOCK": a * b}) for a in range(64) for b in range(64) for c in range(64)]'
    assert len(tuned(space)) == 64
    filtered = "[triton.Config({'BLOCK': a}) for a in range(64) for b in range(64) for c in range(64) if a + b + c < 0]"
    assert tuned(filtered) == [None]  # 64**3 items, a bounded number tried
    assert time.perf_counter() - started < 2  # all 64**3 items take seconds
