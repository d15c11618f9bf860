"""Where `ascend_lint.specialisations` finds a kernel's configurations away from its decorator
and launch: config lists in names and helpers, comprehensions over module lists, literals
chosen in the arms of an `if`; and that following them stays bounded."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from test_tiles import code, context_of

KERNEL = """
@triton.jit
def k(x, n, BLOCK: tl.constexpr, T: tl.constexpr = 1):
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


def test_a_module_name_a_function_rebinds_is_no_launch_value():
    def launched(module: str) -> list[object]:
        return blocks(f"SIZE = 64\n{module}" + KERNEL + "\ndef launch(x, n):\n    k[(1,)](x, n, BLOCK=SIZE)\n")

    assert launched("") == [64]
    assert launched("\ndef grow():\n    global SIZE\n    SIZE = 128\n") == [None]


def test_a_literal_bound_on_some_paths_only_is_a_configuration_that_names_its_line():
    def configurations(body: str) -> list[tuple[object, str]]:
        context = context_of(KERNEL + f"\ndef launch(x, n, flag):\n{body}\n    k[(1,)](x, n, BLOCK=BLOCK)\n")
        found = context.configurations(context.kernels[0])
        return [(c.values.get("BLOCK"), code(c.arms[0]) if c.arms else "") for c in found]

    runtime = "BLOCK = triton.next_power_of_2(n)"
    assert configurations(f"    if n > 4096:\n        BLOCK = 2048\n    else:\n        {runtime}") == [
        (2048, "BLOCK = 2048")
    ]
    assert configurations(f"    if n <= 2048:\n        BLOCK = 2 * 1024\n    else:\n        {runtime}") == [
        (2048, "BLOCK = 2 * 1024")
    ]
    assert configurations(f"    BLOCK = 4096\n    if flag:\n        {runtime}") == [(4096, "BLOCK = 4096")]
    # not a configuration: a start value refined at run time, a literal the launch's arm never
    # sees or bound after the launch, a value computed from the data
    assert configurations("    BLOCK = 4096\n    if flag:\n        BLOCK = min(BLOCK, n)") == [(None, "")]
    assert configurations(f"    if flag:\n        BLOCK = 4096\n        return\n    else:\n        {runtime}") == [
        (None, "")
    ]
    assert configurations(
        f"    if flag:\n        {runtime}\n    else:\n        BLOCK = 4096\n        raise ValueError"
    ) == [(None, "")]
    assert configurations(f"    BLOCK = 4096\n    BLOCK = n\n    if flag:\n        {runtime}") == [(None, "")]
    # two names bound together: only values of the same arm combine, none on another platform (the
    # CPU's arm, the `else` of the NPU's)
    together = (
        "    if x.device.type == 'cpu':\n        BLOCK, TRUNC = 256, 128\n"
        "    elif flag:\n        BLOCK, TRUNC = 4096, 2048\n"
        "    elif x.device.type == 'npu':\n        BLOCK = min(1024, n)\n        TRUNC = BLOCK // 2\n"
        "    else:\n        BLOCK, TRUNC = 8192, 4096"
    )
    context = context_of(KERNEL + f"\ndef launch(x, n, flag):\n{together}\n    k[(1,)](x, n, BLOCK=BLOCK, T=TRUNC)\n")
    found = context.configurations(context.kernels[0])
    assert [(c.values.get("BLOCK"), c.values.get("T")) for c in found] == [(4096, 2048)]
    exclusive = (
        f"    if flag:\n        BLOCK = 4096\n        k[(1,)](x, n, BLOCK=n)\n    else:\n        {runtime}"
        "\n        k[(1,)](x, n, BLOCK=BLOCK)"
    )
    context = context_of(KERNEL + f"\ndef launch(x, n, flag):\n{exclusive}\n")
    assert [c.values.get("BLOCK") for c in context.configurations(context.kernels[0])] == [None]
    after = f"    {runtime}\n    k[(1,)](x, n, BLOCK=BLOCK)\n    if flag:\n        BLOCK = 4096\n        y = BLOCK"
    context = context_of(KERNEL + f"\ndef launch(x, n, flag):\n{after}\n")
    assert [c.values.get("BLOCK") for c in context.configurations(context.kernels[0])] == [None]


def test_cycles_and_large_spaces_stay_bounded():
    started = time.perf_counter()
    assert tuned("A", "A = B\nB = A\n") == [None]
    assert tuned("get()", "def get():\n    return get()\n") == [None]
    space = '[triton.Config({"BLOCK": a * b}) for a in range(64) for b in range(64) for c in range(64)]'
    assert len(tuned(space)) == 64
    filtered = "[triton.Config({'BLOCK': a}) for a in range(64) for b in range(64) for c in range(64) if a + b + c < 0]"
    assert tuned(filtered) == [None]  # 64**3 items, a bounded number tried
    assert time.perf_counter() - started < 2  # all 64**3 items take seconds


def test_a_class_attribute_is_a_constant_of_its_own_namespace():
    def launched(before: str, body: str = "", value: str = "Cfg.BLOCK", params: str = "x, n") -> list[object]:
        return blocks(before + KERNEL + f"\ndef launch({params}):\n{body}    k[(1,)](x, n, BLOCK={value})\n")

    assert launched("class Cfg:\n    BLOCK = 64\n    WIDE = BLOCK * 2\n") == [64]
    assert launched("class Cfg:\n    BLOCK = 64\n    WIDE = BLOCK * 2\n", value="Cfg.WIDE") == [128]
    # a class body binds no module name: the module's `BLOCK` stays one constant
    assert launched("BLOCK = 128\n\n\nclass Cfg:\n    BLOCK = 64\n", value="BLOCK") == [128]
    # rebound in its body, assigned from outside, an enum member, or a local `Cfg`: no constant
    assert launched("class Cfg:\n    BLOCK = 64\n    BLOCK = 128\n") == [None]
    assert launched("class Cfg:\n    BLOCK = 64\n\n\nCfg.BLOCK = 128\n") == [None]
    assert launched("class Cfg(enum.IntEnum):\n    BLOCK = 64\n") == [None]
    assert launched("class Cfg:\n    BLOCK = 64\n", params="x, n, Cfg") == [None]
    assert launched("class Cfg:\n    BLOCK = 64\n", body="    Cfg = configs[n]\n") == [None]


def test_configs_loops_append_to_a_list():
    """`configs.append(...)` / `.extend(...)` in `for` loops: a comprehension over the loops,
    their `if`s and `if t: continue` guards its tests; loops leaving otherwise give nothing."""
    helper = """
def configs():
    found = []
    for b in (64, 128, 256, 512):
        if b == 128:
            continue
        for t in (1, 2):
            if b * t < 1024:
                found.append(triton.Config({"BLOCK": b, "T": t}))
    found.extend([triton.Config({"BLOCK": 32})])
    return found
"""
    assert tuned("configs()", helper) == [64, 64, 256, 256, 512, 32]
    broken = helper.replace("continue", "break")
    assert tuned("configs()", broken) == [32]
    module_level = "CONFIGS = []\nfor b in (64, 128):\n    CONFIGS.append(triton.Config({'BLOCK': b}))\n"
    assert tuned("CONFIGS", module_level) == [64, 128]


def test_a_heuristic_written_as_a_function_of_the_module():
    heuristic = "def _block(args):\n    return 256\n"
    assert blocks(heuristic + '\n@triton.heuristics({"BLOCK": _block})' + KERNEL) == [256]


def test_a_configuration_a_heuristic_sets_is_named_by_it():
    """A heuristic's value is no default: the label says where the value comes from."""
    for table in ('{"BLOCK": lambda args: 256}', '{"BLOCK": _block}'):
        context = context_of("def _block(args):\n    return 256\n" + f"\n@triton.heuristics({table})" + KERNEL)
        [configuration] = context.configurations(context.kernels[0])
        assert configuration.label == "heuristics {BLOCK=256}", table
    context = context_of(KERNEL)
    assert [c.label for c in context.configurations(context.kernels[0])] == ["defaults"]


def test_a_module_constant_a_parameter_hides_configures_nothing():
    """A kernel parameter hides the module's constant of its name (the kernel reads what it is
    passed): `BLOCK = 131072` beside `def k(x, n, BLOCK: tl.constexpr)` launched nowhere leaves
    BLOCK unknown. A constant the body reads is one, and the label names it, not "defaults"."""
    assert blocks("BLOCK = 131072\n" + KERNEL) == [None]
    read = "BLOCK = 4096\n@triton.jit\ndef k(x, n, T: tl.constexpr = 1):\n    tl.store(x + tl.arange(0, BLOCK), 0.0)\n"
    context = context_of(read)
    [configuration] = context.configurations(context.kernels[0])
    assert configuration.values["BLOCK"] == 4096
    assert configuration.label == "defaults and module constants {BLOCK=4096}"


def test_the_module_constants_a_label_names_are_in_written_order_whatever_the_hash_seed():
    """The label lists the module constants the body reads in the order the module binds them,
    the same in every process (a set's order changes with PYTHONHASHSEED)."""
    source = (
        "import triton\nimport triton.language as tl\nW = 8\nZ = 16\nA = 32\nM = 64\n"
        "@triton.jit\ndef k(x):\n    tl.store(x + tl.arange(0, M * A * Z * W), 0.0)\n"
    )
    script = (
        "import sys; sys.path[:0] = [sys.argv[1], sys.argv[1] + '/tests']; from test_tiles import context_of; "
        "c = context_of(sys.stdin.read()); print(c.configurations(c.kernels[0])[0].label)"
    )
    root = str(Path(__file__).resolve().parent.parent)
    labels = {
        subprocess.run(
            [sys.executable, "-c", script, root],
            input=source,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout.strip()
        for seed in range(6)
    }
    assert labels == {"module constants {W=8, Z=16, A=32, M=64}"}


def test_configs_and_launches_for_another_platform_only_are_no_configuration():
    """What runs only on another platform than Ascend (`HostIndex.on_other_platform`, the fact
    ASC001 skips knobs by) configures nothing there: a config returned after `if IS_NPU:
    return ...`, bound in the `else` of an NPU test or under a CUDA-only test, a launch on such
    a path; and a kernel every launch of which is on one has no configuration at all."""
    returned_after = """
def get_configs():
    if IS_NPU:
        return [triton.Config({"BLOCK": 64})]
    return [triton.Config({"BLOCK": 4096}, num_warps=8)]
"""
    assert tuned("get_configs()", returned_after) == [64]
    arms = """
def get_configs():
    if torch.cuda.is_available() and not IS_NPU:
        return [triton.Config({"BLOCK": 8192})]
    if x.device.type == "npu":
        configs = [triton.Config({"BLOCK": 64})]
    else:
        configs = [triton.Config({"BLOCK": 4096})]
    return configs
"""
    assert tuned("get_configs()", arms) == [64]
    # a runtime test that is no platform's keeps both
    assert tuned("get_configs()", returned_after.replace("IS_NPU", "SMALL")) == [64, 4096]

    def launched(body: str) -> list[object]:
        return blocks(KERNEL + f"\ndef launch(x, n):\n{body}")

    cuda = '    if x.device.type == "cuda":\n        k[(1,)](x, n, BLOCK=4096)\n        return\n'
    assert launched(cuda + "    k[(1,)](x, n, BLOCK=64)\n") == [64]
    context = context_of(KERNEL + f"\ndef launch(x, n):\n{cuda}")
    assert context.configurations(context.kernels[0]) == []


def test_a_binding_the_npu_arm_of_a_later_if_rebinds_is_not_what_ascend_launches():
    """`BLOCK = 131072` then `if x.device.type == "npu": BLOCK = 1024`: on Ascend the launch
    passes 1024 (`OtherPlatformPaths.overridden`), as with the NPU's arm of an `if`/`else`; also
    through `if not ...: ... else:`, an `elif` and at module level. An override on another
    platform only, or one after a read, leaves the binding reaching the launch."""

    def launched(body: str) -> list[object]:
        return blocks(KERNEL + f"\ndef launch(x, n):\n{body}\n    k[(1,)](x, n, BLOCK=BLOCK)\n")

    default = "    BLOCK = 131072\n"
    assert launched(default + '    if x.device.type == "npu":\n        BLOCK = 1024') == [1024]
    assert launched(default + '    if x.device.type != "npu":\n        pass\n    else:\n        BLOCK = 1024') == [1024]
    cuda = '    if x.device.type == "cuda":\n        BLOCK = 256\n'
    assert launched(default + cuda + '    elif x.device.type == "npu":\n        BLOCK = 1024') == [1024]
    assert launched(default + cuda) == [131072]
    module = "BLOCK = 131072\nif IS_NPU:\n    BLOCK = 1024\n"
    assert blocks(module + KERNEL + "\ndef launch(x, n):\n    k[(1,)](x, n, BLOCK=BLOCK)\n") == [1024]
    read_first = "    k[(1,)](x, n, BLOCK=BLOCK)\n" + '    if x.device.type == "npu":\n        BLOCK = 1024'
    assert sorted(launched(default + read_first)) == [1024, 131072]


def test_a_launch_value_read_from_a_tuple_element():
    """`_, BLOCK = _TILE` (or `_TILE[1]` written in the launch) after `_TILE = (8, 4096)` passes
    4096, and `_, BLOCK = _tiles(n)` each second element `_tiles` returns
    (`HostIndex.elements_read`); a tuple bound twice, or a return whose element has no value,
    gives none."""

    def launched(body: str, before: str = "") -> list[object]:
        return blocks(before + KERNEL + f"\ndef launch(x, n):\n{body}\n    k[(1,)](x, n, BLOCK=BLOCK)\n")

    tile = "_TILE = (8, 4096)\n"
    assert launched("    _, BLOCK = _TILE", tile) == [4096]
    assert launched("    BLOCK = _TILE[1]", tile) == [4096]
    assert launched("    _, BLOCK = _TILE", tile + "_TILE = (8, 8192)\n") == [None]
    helper = "def _tiles(n):\n    if n > 4:\n        return 8, 4096\n    return 16, 2048\n\n"
    assert launched("    _, BLOCK = _tiles(n)", helper) == [4096, 2048]
    assert launched("    _, BLOCK = _tiles(n)", helper.replace("8, 4096", "8, n")) == [None]


def test_a_launch_value_read_by_a_star_a_negative_index_or_a_nested_unpack():
    """`*_, BLOCK = _TILE`, `BLOCK = _TILE[-1]` and `(BM, (BN, BK)) = _CFG` read the tuple
    literal's element (`HostIndex.elements_read`), and `*_, BLOCK = _tiles(n)` that of each
    return; an element behind a starred one has no known position."""

    def launched(body: str, before: str = "") -> list[object]:
        return blocks(before + KERNEL + f"\ndef launch(x, n):\n{body}\n    k[(1,)](x, n, BLOCK=BLOCK)\n")

    tile = "_TILE = (8, 4096)\n"
    assert launched("    *_, BLOCK = _TILE", tile) == [4096]
    assert launched("    BLOCK = _TILE[-1]", tile) == [4096]
    assert launched("    BLOCK = _TILE[-2]", tile) == [8]
    assert launched("    BLOCK = _TILE[-3]", tile) == [None]
    assert launched("    (BM, (BLOCK, BK)) = _CFG", "_CFG = (8, (4096, 64))\n") == [4096]
    assert launched("    BLOCK = _CFG[1][0]", "_CFG = (8, (4096, 64))\n") == [4096]
    assert launched("    BLOCK = _TILE[-1]", "_TILE = (8, *SIZES)\n") == [None]
    helper = "def _tiles(n):\n    if n > 4:\n        return 8, 4096\n    return 16, 2048\n\n"
    assert launched("    *_, BLOCK = _tiles(n)", helper) == [4096, 2048]


def test_a_launch_value_a_helper_of_the_module_returns():
    """`BLOCK=_block(n)` of a `def _block(n): return 4096 if n > 1024 else 1024` gives each arm
    (`HostIndex.returned_for`), as the conditional expression written in the launch does; so
    do its returns, but for those only another platform runs or arms only it takes. A name of
    its own the helper binds once gives its value; one bound twice, or a helper querying the
    device, gives none."""

    def launched(helper: str, passed: str = "n") -> list[object]:
        return blocks(KERNEL + f"\n{helper}\ndef launch(x, n):\n    k[(1,)](x, n, BLOCK=_block({passed}))\n")

    assert launched("def _block(n):\n    return 4096 if n > 1024 else 1024\n") == [4096, 1024]
    assert launched("def _block(n):\n    if n > 1024:\n        return 4096\n    return 1024\n") == [4096, 1024]
    npu_test = "def _block(x):\n    return 4096 if x.device.type == 'npu' else 131072\n"
    assert launched(npu_test, "x") == [4096]
    npu_exit = "def _block(x):\n    if x.device.type == 'npu':\n        return 4096\n    return 131072\n"
    assert launched(npu_exit, "x") == [4096]
    assert launched("def _block(n):\n    b = 4096\n    return b\n") == [4096]  # bound once (round 35)
    assert launched("def _block(n):\n    b = 4096\n    if n > 4:\n        b = 1024\n    return b\n") == [None]
    assert launched("def _block(n):\n    b = n\n    return b\n") == [None]
    assert launched("def _block(n):\n    return 4096 if check_shared_mem() else 1024\n") == [None]
    assert launched("def _block(n):\n    if check_shared_mem():\n        return 4096\n    return 1024\n") == [None]


def test_a_helper_testing_the_platform_through_a_call_gives_what_ascend_returns():
    """`if is_npu(): return 4096` / `return 1024` in a helper is a platform test, not a device's
    choice: the NPU's return is read (`HostIndex.platform_outcome`), also through a predicate
    of the module of another name (`def _on_device(): return hasattr(torch, "npu")`) and
    `torch.npu.is_available()` written in the test; not the returns only another platform runs."""

    def launched(helper: str) -> list[object]:
        return blocks(KERNEL + f"\n{helper}\ndef launch(x, n):\n    k[(1,)](x, n, BLOCK=_block())\n")

    def chosen(test: str, npu: int, other: int, predicate: str = "") -> list[object]:
        helper = f"def _block():\n    if {test}:\n        return {npu}\n    return {other}\n"
        return launched(predicate + helper)

    is_npu = "def is_npu():\n    return torch.npu.is_available()\n\n"
    assert chosen("is_npu()", 131072, 1024, is_npu) == [131072]
    assert chosen("not is_npu()", 1024, 131072, is_npu) == [131072]
    on_device = 'def _on_device():\n    return hasattr(torch, "npu")\n\n'
    assert chosen("_on_device()", 131072, 1024, on_device) == [131072]
    assert chosen("_on_device()", 1024, 131072, on_device) == [1024]
    assert chosen("torch.npu.is_available()", 131072, 1024) == [131072]
    assert chosen("check_shared_mem()", 131072, 1024) == [None]


def test_a_helper_is_read_alike_for_its_value_and_its_tuple_elements():
    """`_, BLOCK = _tiles(x)` reads the function `BLOCK=_block(n)` would (`HostIndex.called_function`):
    not its returns only another platform runs, nothing when it queries the device; the function
    visible where it is called, not a method or another function's nested function of that name."""

    def launched(helper: str, read: str = "    _, BLOCK = _tiles(x)") -> list[object]:
        return blocks(KERNEL + f"\n{helper}\ndef launch(x, n):\n{read}\n    k[(1,)](x, n, BLOCK=BLOCK)\n")

    npu_exit = "def _tiles(x):\n    if x.device.type == 'npu':\n        return 8, 4096\n    return 8, 131072\n"
    assert launched(npu_exit) == [4096]
    other_only = "def _tiles(x):\n    if not IS_NPU:\n        return 8, 131072\n    return 8, 4096\n"
    assert launched(other_only) == [4096]
    device = "def _tiles(x):\n    if check_shared_mem():\n        return 8, 131072\n    return 8, 4096\n"
    assert launched(device) == [None]
    method = "class Other:\n    def _tiles(self):\n        return 8, 131072\n\ndef _tiles(x):\n    return 8, 4096\n"
    assert launched(method) == [4096]
    nested = (
        "def other():\n    def _block(n):\n        if check_shared_mem():\n            return 1\n        return 2\n"
        "    return _block(3)\n\ndef _block(n):\n    return 131072 if n > 10 else 4096\n"
    )
    assert launched(nested, "    BLOCK = _block(n)") == [131072, 4096]


def test_a_launch_value_a_method_of_the_launching_class_returns():
    """`BLOCK = self._block(n)` in a method reads the method `_block` of the same class
    (`HostIndex.called_function`), with `n` passed past `self`, as `_block(n)` reads a
    function, and `Op._block(n)` too; not when a class of the module deriving from it defines
    one too (an unrelated class's is never called), nor one called through another receiver,
    nor a size the host computes from an unbounded `n`."""

    def launched(methods: str, read: str = "        BLOCK = self._block(n)", before: str = "") -> list[object]:
        launch = f"    def launch(self, x, n):\n{read}\n        k[(1,)](x, n, BLOCK=BLOCK)\n"
        return blocks(before + KERNEL + f"\nclass Op:\n{methods}\n{launch}")

    constant = "    def _block(self, n):\n        return 131072\n"
    assert launched(constant) == [131072]
    assert launched("    def _block(self, n):\n        return 4096 if n > 1024 else 1024\n") == [4096, 1024]
    assert launched(constant, "        BLOCK = other._block(n)") == [None]
    assert launched(constant, before="class Other:\n    def _block(self, n):\n        return 1024\n\n") == [131072]
    derived = "class Sub(Op):\n    def _block(self, n):\n        return 1024\n"
    assert blocks(
        KERNEL + f"\nclass Op:\n{constant}\n    def launch(self, x, n):\n        BLOCK = self._block(n)\n"
        f"        k[(1,)](x, n, BLOCK=BLOCK)\n\n{derived}"
    ) == [None]
    assert launched(constant, "        BLOCK = Op._block(self, n)") == [131072]
    assert launched("    def _block(self, n):\n        return triton.next_power_of_2(n)\n") == [None]
    assert launched("    def _tiles(self):\n        return 8, 131072\n", "        _, BLOCK = self._tiles()") == [131072]


def test_a_method_called_through_its_class_is_passed_its_self_first():
    """`Op.launch(op, x, n, 1024)` (or `cls.launch(op, ...)`) passes `op` for `self`, `1024` for
    the fourth parameter, as `self.launch(x, n, 1024)` passes 1024 for it; a classmethod called
    through its class is passed `cls` by Python."""
    methods = "\nclass Op:\n    def launch(self, x, n, block):\n        k[(1,)](x, n, BLOCK=block)\n\n"
    assert blocks(KERNEL + methods + "def use(op, x):\n    Op.launch(op, x, 65536, 1024)\n") == [1024]
    assert blocks(KERNEL + methods + "    def run(self, x):\n        self.launch(x, 65536, 1024)\n") == [1024]
    made = "    @classmethod\n    def make(cls, op, x):\n        cls.launch(op, x, 65536, 1024)\n"
    assert blocks(KERNEL + methods + made) == [1024]
    classmethod_ = (
        "\nclass Op:\n    @classmethod\n    def launch(cls, x, block):\n        k[(1,)](x, 16, BLOCK=block)\n\n"
    )
    assert blocks(KERNEL + classmethod_ + "def use(x):\n    Op.launch(x, 1024)\n") == [1024]


def test_a_host_loop_over_written_block_sizes_launches_each():
    """`for BLOCK in (1024, 4096): k[grid](..., BLOCK=BLOCK)` launches each item; not a loop
    rebinding its name in its body, nor one over what has no value."""

    def launched(body: str) -> list[object]:
        return blocks(KERNEL + "\ndef launch(x, n):\n" + body)

    launch = "        k[(1,)](x, n, BLOCK=BLOCK)\n"
    assert launched("    for BLOCK in (1024, 4096):\n" + launch) == [1024, 4096]
    assert launched("    for BLOCK in [1024, 4096]:\n        if BLOCK > n:\n            continue\n" + launch) == [
        1024,
        4096,
    ]
    assert launched("    for BLOCK in (1024, 4096):\n        BLOCK = 64\n" + launch) == [64]
    assert launched("    for BLOCK in (1024, n):\n" + launch) == [None]


def test_a_host_loop_skipping_an_item_on_the_npu_only_does_not_launch_it():
    """`if IS_NPU and BLOCK > 8192: continue` skips the 65536 on Ascend (`_on_ascend`: a platform
    test of an `and` is what it is there); a CUDA-only skip (`not IS_NPU and ...`) skips nothing."""

    def launched(skip: str) -> list[object]:
        loop = f"    for BLOCK in (1024, 65536):\n        if {skip}:\n            continue\n"
        return blocks(
            "IS_NPU = hasattr(torch, 'npu')\n"
            + KERNEL
            + "\ndef launch(x, n):\n"
            + loop
            + "        k[(1,)](x, n, BLOCK=BLOCK)\n"
        )

    assert launched("IS_NPU and BLOCK > 8192") == [1024]
    assert launched("not IS_NPU and BLOCK > 8192") == [1024, 65536]


def test_a_literal_early_prune_drops_the_configs_it_rejects():
    """`prune_configs_by={"early_config_prune": f}` with `f` (a function of the module or a
    lambda) only filtering its configs by their tables and constants: Triton never compiles the
    configs it rejects. One reading the launch's arguments, or a list of one config (which
    Triton does not prune), keeps them."""
    listed = '[triton.Config({"BLOCK": b}) for b in (64, 4096, 16384)]'

    def pruned(prune: str, before: str = "", configs: str = listed) -> list[object]:
        decorator = (
            f'\n@triton.autotune(configs={configs}, key=["n"], prune_configs_by={{"early_config_prune": {prune}}})'
        )
        return blocks(before + decorator + KERNEL)

    function = 'LIMIT = 4096\n\n\ndef _prune(configs, nargs, **kwargs):\n    """Fits."""\n    return [c for c in configs if c.kwargs["BLOCK"] <= LIMIT]\n'
    assert pruned("_prune", function) == [64, 4096]
    assert pruned('lambda configs, nargs, **kw: [c for c in configs if c.kwargs["BLOCK"] * 4 < 65536]') == [64, 4096]
    assert pruned("_prune", function, '[triton.Config({"BLOCK": 16384})]') == [16384]
    reading_args = (
        "def _prune(configs, nargs, **kwargs):\n    return [c for c in configs if c.kwargs['BLOCK'] <= nargs['n']]\n"
    )
    assert pruned("_prune", reading_args) == [64, 4096, 16384]
    early_return = function.replace('    """Fits."""\n', "    if SMALL:\n        return configs\n")
    assert pruned("_prune", early_return) == [64, 4096, 16384]


def capped(launching: str, caller: str = "") -> list[object]:
    """BLOCK of each configuration of `KERNEL` launched by `launching`, a function body reading
    `x` and `n = x.numel()` and binding BLOCK to a cap of `n`, and the module code `caller`."""
    body = "\n".join("    " + line for line in launching.strip().splitlines())
    launch = f"def launch(x, n):\n{body}\n    k[(1,)](x, n, BLOCK=BLOCK)\n"
    return blocks(KERNEL + "\n" + launch + caller)


CAP = "BLOCK = min(65536, triton.next_power_of_2(n))"


def test_a_cap_is_not_read_where_a_test_bounds_its_size_from_above():
    """A test ordering the capped size, or an extent or name its value reads, below something
    else than the cap (`if x.shape[-1] <= 512:` with `n = x.shape[-1]`, `if 2 * n <= 1024:`),
    or every caller's test of what it passes, may keep the size under the cap: the cap is not
    read; the bound the size reaches is (512 under a caller's `D <= 512`, or under `2 * n <=
    1024`: `HostIndex.tested_part`), when `HostIndex.at_most` carries it to the size (not from
    the extent here: no value)."""
    assert capped(f"n = x.shape[-1]\n{CAP}\nif x.shape[-1] > 512:\n    raise ValueError") == [None]
    assert capped(f"{CAP}\nassert 2 * n <= 1024") == [512]
    caller = "\ndef outer(x):\n    D = x.shape[-1]\n    if D <= 512:\n        launch(x, D)\n"
    assert capped(CAP, caller) == [512]
    unbounded_caller = "\ndef outer(x):\n    D = x.shape[-1]\n    if D > 0:\n        launch(x, D)\n"
    assert capped(CAP, unbounded_caller) == [65536]


def test_a_callers_bound_is_read_through_the_cap_as_the_launching_functions_is():
    """`n <= 40000` keeps `triton.next_power_of_2(n)` at most 65536, the cap: the cap is read,
    whether the test is in the launching function or in its caller (read there as bounding the
    passed `n`, not the power of two above it, the caller's test kept the size under the cap);
    `n <= 1000` keeps it at 1024, which is read."""
    exits = "    if D > {}:\n        raise ValueError\n"
    caller = "\ndef outer(x):\n    D = x.shape[-1]\n{}    launch(x, D)\n"
    assert capped(f"{CAP}\nif n > 40000:\n    raise ValueError") == [65536]
    assert capped(CAP, caller.format(exits.format(40000))) == [65536]
    assert capped(CAP, caller.format(exits.format(1000))) == [1024]


def test_an_if_bounds_a_capped_size_only_where_it_holds_at_the_launch():
    """An `if` bounds the size in its body and fails in its `else`: a caller launching in the
    `else` of `if D <= 512:` passes only sizes over 512; an `if` around something else (a
    `num_warps` choice, `pass`) bounds nothing at the launch."""
    in_else = "\ndef outer(x):\n    D = x.shape[-1]\n    if D <= 512:\n        pass\n    else:\n        launch(x, D)\n"
    assert capped(CAP, in_else) == [65536]
    assert capped(f"{CAP}\nif not n > 512 and n > 0:\n    pass") == [65536]
    assert capped(f"{CAP}\nnum_warps = 4 if n <= 1024 else 8") == [65536]
    assert capped(f"{CAP}\nif n <= 1024:\n    num_warps = 4") == [65536]
    # one function launching the kernel under `if n <= 512:` and another kernel in the `else`
    # (fla's block and row kernels): the test holds at this kernel's launch only
    other = KERNEL.replace("def k(", "def row(")
    choice = f"def launch(x, n):\n    {CAP}\n    if n <= 512:\n        k[(1,)](x, n, BLOCK=BLOCK)\n"
    choice += "    else:\n        row[(1,)](x, n, BLOCK=BLOCK)\n"
    assert blocks(KERNEL + other + "\n" + choice) == [512]
    assert blocks(other + KERNEL + "\n" + choice) == [65536]


def test_a_test_bounds_a_capped_size_only_where_it_holds_at_the_launch():
    """A test bounds the size only when it is checked on every path to the launch
    (`HostIndex.tests_at`): not an `assert` or early exit after it, in another arm, in a loop
    before it (it may run no times) or in a function nested in the launching one. One before
    it, in the arm holding the launch, or in a checking helper called before it does; so too in
    a caller binding the cap, before it calls the function launching the kernel, and in a caller
    of the launching function, before its call."""

    def launched(body: str) -> list[object]:
        """BLOCK of `k` launched by `body` (`LAUNCH` standing for the launch), beside `_check`."""
        lines = body.replace("LAUNCH", "k[(1,)](x, n, BLOCK=BLOCK)").splitlines()
        helper = "\ndef _check(n):\n    if n > 1024:\n        raise ValueError\n"
        return blocks(KERNEL + "\ndef launch(x, n, flag):\n" + "".join(f"    {line}\n" for line in lines) + helper)

    exits = "if n > 1024:\n    raise ValueError"
    assert launched(f"{CAP}\nLAUNCH\nassert n <= 1024") == [65536]
    assert launched(f"{CAP}\nLAUNCH\n{exits}") == [65536]
    assert launched(f"if flag:\n    if n > 1024:\n        raise ValueError\n{CAP}\nLAUNCH") == [65536]
    assert launched(f"for _ in range(3):\n    if n > 1024:\n        raise ValueError\n{CAP}\nLAUNCH") == [65536]
    assert launched(f"def check(n):\n    assert n <= 1024\n{CAP}\nLAUNCH") == [65536]
    assert launched(f"{CAP}\n{exits}\nLAUNCH") == [1024]
    assert launched(f"{CAP}\n_check(n)\nLAUNCH") == [1024]
    assert launched(f"if flag:\n    if n > 1024:\n        raise ValueError\n    {CAP}\n    LAUNCH") == [1024]
    passing = KERNEL + "\ndef launch(x, n, BLOCK):\n    k[(1,)](x, n, BLOCK=BLOCK)\n\ndef outer(x, n):\n"
    passing += f"    {CAP}\n{{}}    launch(x, n, BLOCK)\n{{}}"
    assert blocks(passing.format("    if n > 1024:\n        raise ValueError\n", "")) == [1024]
    assert blocks(passing.format("", "    assert n <= 1024\n")) == [65536]
    # a caller's test of what it passes, before its call or after it
    caller = "\ndef outer(x):\n    D = x.shape[-1]\n{}    launch(x, D)\n{}"
    assert capped(CAP, caller.format("    if D > 512:\n        raise ValueError\n", "")) == [512]
    assert capped(CAP, caller.format("", "    assert D <= 512\n")) == [65536]


def test_a_test_of_a_name_rebound_before_the_launch_bounds_it_only_as_rebound():
    """A name the test orders, rebound between the test and the launch to what it leaves
    unbounded (`n = x.numel()`), is not bounded there (`HostIndex.bounded_at`); one rebound to
    what only shrinks it (`n = n // 2`) still is."""
    assert capped(f"assert n <= 1024\nn = x.numel()\n{CAP}") == [65536]
    assert capped(f"if n > 1024:\n    raise ValueError\nn = n // 2\n{CAP}") == [512]


def test_a_floor_or_an_order_below_the_cap_leaves_the_cap_read():
    """A floor bounds nothing from above (`if n == 0: return`, `if n > 0:`, `assert n >= 1`),
    nor does ordering the size below the cap itself, however the cap is bound (`BLOCK: int =
    min(...)`, or through `CAP = min(...)` then `BLOCK = CAP`, before `if n > BLOCK: raise`)."""
    assert capped(f"if n == 0:\n    return\n{CAP}") == [65536]
    assert capped(f"{CAP}\nif n > 0:\n    pass") == [65536]
    assert capped(f"{CAP}\nassert n >= 1") == [65536]
    annotated = CAP.replace("BLOCK =", "BLOCK: int =")
    assert capped(f"{annotated}\nif n > BLOCK:\n    raise ValueError") == [65536]
    aliased = CAP.replace("BLOCK =", "CAP =")
    assert capped(f"{aliased}\nBLOCK = CAP\nif n > BLOCK:\n    raise ValueError") == [65536]


def test_a_bound_at_or_above_the_cap_or_on_no_size_leaves_the_cap_read():
    """A bound no lower than the cap keeps it reached (`if n > 100000: raise`, or `n` up to
    `65536 // x.element_size()` itself), and so do tests of what holds no size of `n`, or orders
    it below nothing with a value: `x.stride(-1) == 1`, `n % 4 == 0`, `w.shape == (n,)`."""
    assert capped(f"{CAP}\nif n > 100000:\n    raise ValueError") == [65536]
    in_bytes = "BLOCK = min(65536 // x.element_size(), triton.next_power_of_2(n))"
    assert capped(f"{in_bytes}\nif n > 65536 // x.element_size():\n    raise ValueError") == [32768]
    n_of_x = "_, n = x.shape"
    tests = "assert x.stride(-1) == 1\nassert n % 4 == 0\nassert w.shape == (n,)"
    assert capped(f"{n_of_x}\n{tests}\n{CAP}") == [65536]


def test_the_defaults_label_names_no_constant_a_parameter_hides_or_a_keyword_or_attribute_names():
    """`BLOCK = 4096` beside a kernel taking `BLOCK` (its default 131072) is no constant the
    kernel reads, and neither is a keyword (`f(BLOCK=1)`) or an attribute (`cfg.BLOCK`)."""
    hidden = "BLOCK = 4096\n" + KERNEL.replace("BLOCK: tl.constexpr", "BLOCK: tl.constexpr = 131072")
    named = (
        "BLOCK = 4096\n@triton.jit\ndef k(x, cfg, SIZE: tl.constexpr = 128):\n"
        "    tl.store(x + tl.arange(0, SIZE), cfg.BLOCK + tl.full((SIZE,), 0, tl.int32, BLOCK=1))\n"
    )
    for source in (hidden, named):
        context = context_of(source)
        assert [c.label for c in context.configurations(context.kernels[0])] == ["defaults"]


def test_configs_from_dicts_splatted_into_triton_config():
    """`triton.Config(**spec)` takes its table from the `"kwargs"` entry of the dict splatted in:
    written there, named (`**SPEC`), the table itself named, or each item of a comprehension's
    list (`[triton.Config(**s) for s in SPECS]`); nothing from a dict the code changes."""
    assert tuned('[triton.Config(**{"kwargs": {"BLOCK": 4096}, "num_warps": 1})]') == [4096]
    assert tuned("[triton.Config(**SPEC)]", 'SPEC = {"kwargs": {"BLOCK": 4096}}\n') == [4096]
    assert tuned("[triton.Config(**SPEC)]", 'T = {"BLOCK": 4096}\nSPEC = dict(kwargs=T)\n') == [4096]
    specs = 'SPECS = [{"kwargs": {"BLOCK": 64}}, {"kwargs": {"BLOCK": 4096}}]\n'
    assert tuned("[triton.Config(**s) for s in SPECS]", specs) == [64, 4096]
    named = 'A = {"kwargs": {"BLOCK": 64}}\nB = dict(kwargs={"BLOCK": 128})\n'
    assert tuned("[triton.Config(**s) for s in (A, B)]", named) == [64, 128]
    changed = 'SPEC = {"kwargs": {"BLOCK": 4096}}\nSPEC["kwargs"] = {"BLOCK": 64}\n'
    assert tuned("[triton.Config(**SPEC)]", changed) == [None]


def test_a_launch_value_an_entry_of_a_module_dict_holds():
    """`BLOCK=SIZES["block"]` reads the entry of the dict `SIZES` holds (each one, bound in
    arms), none when code changes the dict or passes it to a call."""

    def launched(module: str, body: str = "    pass") -> list[object]:
        launch = '\n    k[(1,)](x, n, BLOCK=SIZES["block"])\n'
        return blocks(KERNEL + f"\n{module}\ndef launch(x, n):\n{body}{launch}")

    assert launched('SIZES = {"block": 4096}') == [4096]
    assert launched("SIZES = dict(block=4096)") == [4096]
    assert launched('if FAST:\n    SIZES = {"block": 4096}\nelse:\n    SIZES = {"block": 64}') == [4096, 64]
    assert launched("", '    SIZES = {"block": 4096}\n    if n < 100:\n        SIZES = {"block": 64}') == [64, 4096]
    assert launched('SIZES = {"block": 4096}', '    SIZES["block"] = 64') == [None]
    assert launched('SIZES = {"block": 4096}\ndef shrink():\n    SIZES["block"] = 64') == [None]
    assert launched('SIZES = {"block": 4096}', "    SIZES.update(block=64)") == [None]
    assert launched('SIZES = {"block": 4096}', "    tune(SIZES)") == [None]


def test_a_launch_value_a_field_of_an_instance_holds():
    """`cfg.block` of `cfg = Cfg()` reads what the class gives the instance when the call passes
    nothing that may be the field: a dataclass field's default, a plain class's attribute; none
    when the call passes the field, the class has a base, or code stores the attribute."""

    def launched(module: str, made: str, read: str = "cfg.block") -> list[object]:
        body = f"\ndef launch(x, n):\n{made}\n    k[(1,)](x, n, BLOCK={read})\n"
        return blocks(KERNEL + "\nfrom dataclasses import dataclass\nimport dataclasses\n" + module + body)

    fields = "@dataclass\nclass Cfg:\n    block: int = 4096\n"
    assert launched(fields, "    cfg = Cfg()") == [4096]
    assert launched(fields, "    cfg = Cfg(other=1)") == [4096]
    assert launched(fields.replace("@dataclass", "@dataclasses.dataclass(frozen=True)"), "    cfg = Cfg()") == [4096]
    assert launched(fields + "CFG = Cfg()\n", "    pass", "CFG.block") == [4096]
    assert launched("class Cfg:\n    block = 4096\n", "    cfg = Cfg()") == [4096]
    assert launched(fields, "    cfg = Cfg(64)") == [None]
    assert launched(fields, "    cfg = Cfg(block=64)") == [None]
    assert launched(fields, "    cfg = Cfg()\n    cfg.block = 64") == [None]
    assert launched(fields, "    cfg = Cfg()\n    if n:\n        cfg = Cfg(block=64)") == [None]
    assert launched(fields.replace("= 4096", "= field(default=4096)"), "    cfg = Cfg()") == [None]
    stored = "class Cfg:\n    block = 4096\n    def __init__(self, b):\n        self.block = b\n"
    assert launched(stored, "    cfg = Cfg(64)") == [None]
    # the instance holds what its `__init__` leaves, and nothing known once another method may store it
    init = "class Cfg:\n    block = 65536\n    def __init__(self):\n        self.block = 1024\n"
    assert launched(init, "    cfg = Cfg()") == [1024]
    configured = "class Cfg:\n    block = 65536\n    def configure(self):\n        self.block = 1024\n"
    assert launched(configured, "    cfg = Cfg()\n    cfg.configure()") == [None]
    tupled = "from typing import NamedTuple\nclass Cfg(NamedTuple):\n    block: int = 4096\n"
    assert launched(tupled, "    cfg = Cfg()") == [None]  # a base's `__init__` may set it
    assert launched(fields + "CFG = Cfg()\ndef tweak():\n    CFG.block = 64\n", "    pass", "CFG.block") == [None]


def test_configs_appended_in_a_while_loop():
    """`configs.append(...)` in a `while b <= 4096:` loop's body adds a config per trip, `b` read
    from its one binding before the loop through its one update in the body, before or after
    the append as written; none known when the loop may leave otherwise, its test reads what has
    no value, or the config reads another name the loop binds."""

    def appended(body: str, before: str = "    b = 64\n") -> list[object]:
        return tuned("get_configs()", f"\ndef get_configs():\n    configs = []\n{before}{body}    return configs\n")

    append = "        configs.append(triton.Config({'BLOCK': b}))\n"
    assert appended(f"    while b <= 4096:\n{append}        b *= 2\n") == [64, 128, 256, 512, 1024, 2048, 4096]
    assert appended(f"    while b < 1024:\n        b <<= 1\n{append}") == [128, 256, 512, 1024]
    assert appended(f"    while b <= 4096:\n{append}        b = b + 2048\n") == [64, 2112]
    assert appended(f"    while b <= 4096:\n{append}        if b > 1024:\n            break\n        b *= 2\n") == [
        None
    ]
    assert appended(f"    while b <= n:\n{append}        b *= 2\n") == [None]
    other = "        configs.append(triton.Config({'BLOCK': b * w}))\n        w = 2\n        b *= 2\n"
    assert appended(f"    while b <= 4096:\n{other}", "    b = 64\n    w = 1\n") == [None]


def test_configs_appended_by_a_helper_the_list_is_passed_to():
    """`_fill(configs)` adds what the module's function `_fill` appends to its parameter (in a
    `while` loop, a `for` loop or straight), read where it is written; nothing when the helper
    binds its parameter anew (`out = []`)."""

    def filled(helper: str, call: str = "_fill(configs)") -> list[object]:
        builder = (
            f"\ndef get_configs():\n    configs = [triton.Config({{'BLOCK': 32}})]\n    {call}\n    return configs\n"
        )
        return tuned("get_configs()", helper + builder)

    append = "        out.append(triton.Config({'BLOCK': b}))\n"
    assert filled(f"\ndef _fill(out):\n    b = 64\n    while b <= 256:\n{append}        b *= 2\n") == [32, 64, 128, 256]
    assert filled(f"\ndef _fill(out, n=4):\n    for b in (64, 512):\n{append}") == [32, 64, 512]
    assert filled(f"\ndef _fill(other, out):\n    for b in (64,):\n{append}", "_fill(1, out=configs)") == [32, 64]
    assert filled(f"\ndef _fill(out):\n    out = []\n    for b in (64,):\n{append}") == [32]


def test_a_config_appended_in_an_arm_no_call_runs_is_not_read():
    """An append under an `if` (outside any loop) whose test every call of the function decides
    against it (`if big:` in a helper each call of which passes `big=False`, or the `else` of a
    test each passes True) adds nothing; a test some call lets through, or one reading what has
    no one value, keeps it."""
    helper = "\ndef _fill(out, big):\n    out.append(triton.Config({'BLOCK': 1024}))\n    if big:\n"
    helper += "        out.append(triton.Config({'BLOCK': 65536}))\n"

    def filled(*calls: str) -> list[object]:
        called = "".join(f"    {call}\n" for call in calls)
        return tuned("get_configs()", helper + f"\ndef get_configs():\n    configs = []\n{called}    return configs\n")

    assert filled("_fill(configs, big=False)") == [1024]
    assert filled("_fill(configs, False)") == [1024]
    assert filled("_fill(configs, big=True)") == [1024, 65536]
    assert filled("_fill(configs, big=False)", "_fill([], big=True)") == [1024, 65536]
    assert filled("_fill(configs, big=n > 4)") == [1024, 65536]
    returned = "\ndef get_configs(big=False):\n    configs = [triton.Config({'BLOCK': 1024})]\n    if big:\n"
    returned += "        configs.append(triton.Config({'BLOCK': 65536}))\n    else:\n"
    returned += "        configs += [triton.Config({'BLOCK': 2048})]\n    return configs\n"
    assert tuned("get_configs()", returned) == [1024, 2048]
    assert tuned("get_configs(True)", returned) == [1024, 65536]


def test_configs_appended_in_a_while_loop_under_an_if_or_a_with():
    """A `while` loop in an arm of an `if` (or a `with` body) of the function adds its trips as
    one in its own body does, its variable bound before it on its path: in that arm or before
    the `if`; none known when it is bound in another arm, or an `if` in the loop picks the
    appends."""

    def appended(body: str) -> list[object]:
        return tuned("get_configs(True)", f"\ndef get_configs(wide):\n    configs = []\n{body}    return configs\n")

    append = "            configs.append(triton.Config({'BLOCK': b}))\n"
    loop = f"        while b <= 1024:\n{append}            b *= 4\n"
    assert appended(f"    b = 64\n    if wide:\n{loop}") == [64, 256, 1024]
    assert appended(f"    if wide:\n        b = 64\n{loop}") == [64, 256, 1024]
    assert appended(f"    if not wide:\n        pass\n    elif wide:\n        b = 64\n{loop}") == [64, 256, 1024]
    assert appended(f"    if not wide:\n        pass\n    else:\n        b = 64\n{loop}") == [64, 256, 1024]
    assert appended(f"    with torch.no_grad():\n        b = 64\n{loop}") == [64, 256, 1024]
    assert appended(f"    if not wide:\n        b = 64\n    else:\n{loop}") == [None]
    picked = f"        while b <= 1024:\n            if wide:\n    {append}            b *= 4\n"
    assert appended(f"    b = 64\n    if True:\n{picked}") == [None]
