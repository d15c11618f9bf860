"""ASC001 in modules that also run on other platforms, and launch shapes read through helpers.

A module testing for the NPU (`_is_npu = is_npu()`, `if _is_npu: import torch_npu`) keeps its
Ascend code apart: a knob on a path outside that code may launch on CUDA too, where it tunes
the kernel (sglang 0.5.23's `batch_invariant_ops.py`: `_matmul_persistent_triton`, reached
from the public `matmul_persistent`, registered with torch under `if not _is_npu:` only). Its
finding stays, with no fix; a knob on the NPU's own path keeps its fix (one finding for a knob
both reach: the no-fix one), but for `num_warps=4`, Triton's default on every platform, whose
removal changes no launch. And the launches of a
launcher a function returns (`_launcher(N)(x)`, `launch = _launcher(); launch(x)`), entries
taken with `_CFG.get(key)`, and dicts copied by a comprehension over an entry's items."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint_and_fix, settings

from ascend_lint.engine import lint_source
from ascend_lint.model import Finding

HEADER = """\
import torch
import triton
import triton.language as tl


@triton.jit
def k(x, y, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o) * 2)
"""


def _lint(source: str) -> tuple[list[Finding], str | None]:
    return lint_and_fix(source, "ops.py", select=["ASC001"])


def _row(source: str, text: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


PLATFORM_MODULE = (
    HEADER
    + """
from sglang.srt.utils import is_npu

_is_npu = is_npu()
if _is_npu:
    import torch_npu


def _matmul_triton(x, y):
    configs = {
        torch.float16: {"BLOCK": 128, "num_stages": 3, "num_warps": 8},
    }
    k[(4,)](x, y, **configs[x.dtype])


def _matmul_npu(x, y):
    k[(4,)](x, y, BLOCK=64, num_warps=4)


def matmul(x, y):
    if _is_npu:
        return _matmul_npu(x, y)
    return _matmul_triton(x, y)


def mm_invariant(x, y):
    return _matmul_triton(x, y)


def enable(lib, key):
    if not _is_npu:
        lib.impl("aten::mm", mm_invariant, key)
    else:
        lib.impl("aten::mm", torch_npu.npu_mm, key)
"""
)


def test_knob_shared_with_other_platforms_has_no_fix() -> None:
    """The table's knobs reach a launch the module does not keep for the NPU: reported, no fix,
    naming the module's NPU code; the launch on the NPU's own path keeps its safe fix."""
    findings, fixed = _lint(PLATFORM_MODULE)
    shared = [f for f in findings if f.location.row in (_row(PLATFORM_MODULE, '"num_stages": 3'),)]
    assert len(shared) == 2
    for finding in shared:
        assert finding.fix is None
        assert finding.no_fix_reason is not None and "another platform" in finding.no_fix_reason
        assert "pass it on their path only" in finding.message
        assert f"(line {_row(PLATFORM_MODULE, 'import torch_npu')})" in finding.message
    [npu] = [f for f in findings if f.location.row == _row(PLATFORM_MODULE, "BLOCK=64, num_warps=4")]
    assert npu.fix is not None and npu.fix.applicability == "safe"
    assert npu.message.endswith("delete it")
    assert fixed is not None
    assert '"num_stages": 3, "num_warps": 8' in fixed  # the CUDA path's table is kept
    assert "k[(4,)](x, y, BLOCK=64)\n" in fixed


SHARED_DICT = (
    HEADER
    + """
from sglang.srt.utils import is_npu

_is_npu = is_npu()

_KW = {"BLOCK": 64, "num_warps": 8}


def run_any(x, y):
    k[(4,)](x, y, **_KW)


def run(x, y):
    if _is_npu:
        k[(4,)](x, y, **_KW)
    else:
        run_any(x, y)
"""
)


def test_dict_splatted_on_and_off_the_npu_path_has_one_finding_with_no_fix() -> None:
    """A dict splatted both by a launch kept for the NPU and by one other platforms may run:
    one finding for its knob, with no fix (removing it would change the other launch), in
    whichever order the launches come."""
    npu_first = SHARED_DICT.replace("def run_any(x, y):\n    k[(4,)](x, y, **_KW)\n\n\n", "") + (
        "\n\ndef run_any(x, y):\n    k[(4,)](x, y, **_KW)\n"
    )
    assert npu_first != SHARED_DICT
    for source in (SHARED_DICT, npu_first):
        findings, fixed = _lint(source)
        [finding] = findings
        assert finding.location.row == _row(source, '"num_warps": 8')
        assert finding.fix is None
        assert finding.no_fix_reason is not None and "another platform" in finding.no_fix_reason
        assert "pass it on their path only" in finding.message
        assert fixed is None


def test_knob_shared_with_other_platforms_written_as_their_default_keeps_the_fix() -> None:
    """`num_warps=4` is what Triton gives every platform's launch and `triton.Config` without
    it (upstream `CUDAOptions`, `HIPOptions`, `Config`; triton-ascend 3.2's `Config`): deleting
    it changes no launch, so the safe fix stays off the NPU's path too, saying why, and removes
    only such knobs: `num_stages=3` (CUDA's default, not ROCm's) and `num_warps=8` keep no fix."""
    source = PLATFORM_MODULE.replace(
        "    k[(4,)](x, y, **configs[x.dtype])\n",
        "    k[(4,)](x, y, **configs[x.dtype])\n"
        "    k[(4,)](y, x, BLOCK=32, num_warps=4, num_stages=3)\n"
        '    k[(4,)](y, x, **{"BLOCK": 16, "num_warps": 4})\n',
    )
    assert source != PLATFORM_MODULE
    findings, fixed = _lint(source)
    rows = {
        (f.location.row, f.message.split("`")[1]): f
        for f in findings
        if f.location.row in (_row(source, "BLOCK=32"), _row(source, '"BLOCK": 16'))
    }
    assert sorted(rows) == [
        (_row(source, "BLOCK=32"), "num_stages"),
        (_row(source, "BLOCK=32"), "num_warps"),
        (_row(source, '"BLOCK": 16'), "num_warps"),
    ]
    stages = rows[_row(source, "BLOCK=32"), "num_stages"]
    assert stages.fix is None and "pass it on their path only" in stages.message
    for key in ((_row(source, "BLOCK=32"), "num_warps"), (_row(source, '"BLOCK": 16'), "num_warps")):
        finding = rows[key]
        assert finding.fix is not None and finding.fix.applicability == "safe", key
        assert "Triton's default on every platform" in finding.message
        assert f"line {_row(source, 'import torch_npu')}" in finding.message
    assert fixed is not None
    assert "k[(4,)](y, x, BLOCK=32, num_stages=3)\n" in fixed  # num_stages stays: CUDA and ROCm differ
    assert 'k[(4,)](y, x, **{"BLOCK": 16})\n' in fixed
    assert '"num_stages": 3, "num_warps": 8' in fixed  # not the default: the CUDA path's table is kept


SHARED_HEADER = (
    HEADER
    + """
from sglang.srt.utils import is_npu
import functools

_is_npu = is_npu()
if _is_npu:
    import torch_npu
"""
)

# `num_warps=4` overriding another value the same launch gets (QA review): without it the
# other value reaches other platforms' launch
OVERRIDING_DEFAULT = {
    "merge": """
_BASE = {"BLOCK": 64, "num_warps": 8}


def mm(x, y):
    k[(4,)](x, y, **{**_BASE, "num_warps": 4})
""",
    "dict call": """
def mm(x, y):
    cfg = dict({"num_warps": 8}, BLOCK=64, num_warps=4)
    k[(4,)](x, y, **cfg)
""",
    "update": """
def mm(x, y):
    base = {"num_warps": 8}
    base.update({"BLOCK": 64, "num_warps": 4})
    k[(4,)](x, y, **base)
""",
    "or": """
def mm(x, y, cfg=None):
    cfg = cfg or {"BLOCK": 64, "num_warps": 4}
    cfg = {"num_warps": 8, **cfg}
    k[(4,)](x, y, **cfg)
""",
    "partial": """
def mm(x, y):
    launcher = functools.partial(k[(4,)], BLOCK=64, num_warps=8)
    launcher(x, y, num_warps=4)
""",
    "setdefault": """
def _launch(x, y, **kw):
    kw.setdefault("num_warps", 8)
    k[(4,)](x, y, **kw)


def mm(x, y):
    _launch(x, y, BLOCK=32, num_warps=4)
""",
    "helper's dict given a default": """
def _opts():
    return {"BLOCK": 64, "num_warps": 4}


def mm(x, y):
    o = _opts()
    o.setdefault("num_warps", 8)
    k[(4,)](x, y, **o)
""",
    "helper's other return": """
_BASE = {"BLOCK": 64, "num_warps": 8}


def _opts(small):
    if small:
        return {"BLOCK": 64, "num_warps": 4}
    return dict(_BASE)


def mm(x, y, small):
    k[(4,)](x, y, **_opts(small))
""",
    "unknown splat": """
from .configs import BASE


def mm(x, y):
    k[(4,)](x, y, **{**BASE, "num_warps": 4})
""",
}


@pytest.mark.parametrize("case", sorted(OVERRIDING_DEFAULT))
def test_default_knob_overriding_another_write_keeps_no_fix(case: str) -> None:
    """The default-valued fix holds only for the one `num_warps` a launch gets: a `num_warps=4`
    beside another write of the knob that may reach the launch (a dict it overrides, a partial's
    keyword, a helper's `setdefault`, a splat of a dict not read) gets no fix."""
    source = SHARED_HEADER + OVERRIDING_DEFAULT[case]
    findings, fixed = _lint(source)
    four = "num_warps=4" if "num_warps=4" in source else '"num_warps": 4'
    column = source.splitlines()[_row(source, four) - 1].index(four) + 1
    [finding] = [f for f in findings if (f.location.row, f.location.column) == (_row(source, four), column)]
    assert finding.fix is None
    assert "pass it on their path only" in finding.message
    assert fixed is None or four in fixed


def test_default_knob_alone_in_a_dict_two_launches_splat_keeps_the_fix() -> None:
    """`_KW` holding the only `num_warps` of both launches splatting it: its removal leaves
    Triton's default at each, the safe fix stays."""
    source = (
        SHARED_HEADER
        + """
_KW = {"BLOCK": 64, "num_warps": 4}


def mm(x, y):
    k[(4,)](x, y, **_KW)
    k[(4,)](y, x, **_KW)
"""
    )
    findings, fixed = _lint(source)
    [finding] = findings
    assert finding.fix is not None and finding.fix.applicability == "safe"
    assert fixed is not None and '_KW = {"BLOCK": 64}' in fixed


def test_default_knob_alone_in_a_dict_a_helper_returns_keeps_the_fix() -> None:
    """A dict literal a function of the module returns, splatted as `**_opts()` or through `o =
    _opts()`, holding the only `num_warps` of each launch: the safe fix stays, as for a dict
    written in the launching function."""
    source = (
        SHARED_HEADER
        + """
def _opts():
    return {"BLOCK": 64, "num_warps": 4}


def mm(x, y):
    k[(4,)](x, y, **_opts())
    o = _opts()
    k[(4,)](y, x, **o)
"""
    )
    findings, fixed = _lint(source)
    [finding] = findings
    assert finding.fix is not None and finding.fix.applicability == "safe"
    assert "Triton's default on every platform" in finding.message
    assert fixed is not None and 'return {"BLOCK": 64}' in fixed


def test_module_without_npu_code_keeps_the_fix() -> None:
    """With no code kept for the NPU, the module runs as written on Ascend: the fix stays."""
    source = (
        HEADER
        + """

def run(x, y):
    k[(4,)](x, y, **{"BLOCK": 64, "num_warps": 8})
"""
    )
    findings, fixed = _lint(source)
    assert [f.fix is not None and f.fix.applicability for f in findings] == ["safe"]
    assert fixed is not None and "num_warps" not in fixed


def test_configs_a_match_chooses_for_another_platform_are_silent() -> None:
    """A `match` on the platform is read as the `if`s comparing it: the configs of a case only
    another platform takes (`case "cuda" | "hip":`) are not reported, those of the `case _:`
    after `case "npu":` neither, and those of a `case _:` the NPU may take are."""
    source = (
        HEADER
        + """

def _configs():
    match triton.runtime.driver.active.get_current_target().backend:
        case "cuda" | "hip":
            return [triton.Config({"BLOCK": 128}, num_warps=8)]
        case "npu":
            return [triton.Config({"BLOCK": 64})]
        case _:
            return [triton.Config({"BLOCK": 32}, num_warps=2)]


def _launch(x, y):
    match x.device.type:
        case "cuda":
            k[(4,)](x, y, BLOCK=64, num_warps=8)
        case _:
            k[(4,)](x, y, BLOCK=64, num_stages=2)


@triton.autotune(configs=_configs(), key=[])
@triton.jit
def tuned(x, y, BLOCK: tl.constexpr):
    tl.store(y + tl.arange(0, BLOCK), tl.load(x + tl.arange(0, BLOCK)))


def run(x, y):
    tuned[(4,)](x, y)
"""
    )
    findings, _ = _lint(source)
    assert [f.location.row for f in findings] == [_row(source, "num_stages=2")]


def test_launcher_returned_by_a_function() -> None:
    """`_launcher(N)(x, num_warps=4)` (a grid made of the function's parameter) and `launch =
    _launcher(); launch(x, num_warps=4)` are launches: reported, with the safe fix."""
    source = (
        HEADER
        + """

def _launcher(n):
    return k[(triton.cdiv(n, 64),)]


def _fixed_launcher():
    return k[(4,)]


def run(x, y, n):
    _launcher(n)(x, y, BLOCK=64, num_warps=4)
    launch = _fixed_launcher()
    launch(x, y, BLOCK=64, num_stages=2)
"""
    )
    findings, fixed = _lint(source)
    assert [(f.location.row, f.message.split("`")[1]) for f in findings] == [
        (_row(source, "_launcher(n)(x"), "num_warps"),
        (_row(source, "launch(x, y"), "num_stages"),
    ]
    assert all(f.message.startswith(f"`{f.message.split('`')[1]}` in a launch") for f in findings)
    assert fixed is not None
    assert "_launcher(n)(x, y, BLOCK=64)\n" in fixed
    assert "launch(x, y, BLOCK=64)\n" in fixed


def test_launcher_of_a_kernel_taking_the_knob_is_silent() -> None:
    """A returned launcher of a kernel with a `num_stages` parameter: the keyword is its argument."""
    source = """\
import triton
import triton.language as tl


@triton.jit
def k(x, num_stages: tl.constexpr):
    tl.store(x + tl.arange(0, 16), tl.zeros([16], tl.float32) + num_stages)


def _launcher(n):
    return k[(n,)]


def run(x, n):
    _launcher(n)(x, num_stages=2)
"""
    findings, _ = _lint(source)
    assert findings == []


def test_table_entry_taken_with_get() -> None:
    """`cfg = _CFG.get(key)` takes an entry as `_CFG[key]` does: its knobs are reported and
    removed from the entries; the default's too."""
    source = (
        HEADER
        + """
_CFG = {"small": {"BLOCK": 64, "num_warps": 4}, "big": {"BLOCK": 128, "num_warps": 8}}


def run(x, y, key):
    cfg = _CFG.get(key, {"BLOCK": 32, "num_stages": 2})
    k[(4,)](x, y, **cfg)
"""
    )
    findings, fixed = _lint(source)
    assert [f.message.split("`")[1] for f in findings] == ["num_warps", "num_warps", "num_stages"]
    assert all(f.fix is not None and f.fix.applicability == "safe" for f in findings)
    assert fixed is not None
    assert '_CFG = {"small": {"BLOCK": 64}, "big": {"BLOCK": 128}}' in fixed
    assert 'cfg = _CFG.get(key, {"BLOCK": 32})' in fixed


def test_get_of_a_table_read_elsewhere_has_no_fix() -> None:
    """A table another function also reads by a key that is no literal of an entry keeps its
    knobs: no fix (the read may need them)."""
    source = (
        HEADER
        + """
_CFG = {"small": {"BLOCK": 64, "num_warps": 4}}


def run(x, y, key):
    k[(4,)](x, y, **_CFG.get(key))


def warps(key):
    return max(c["num_warps"] for c in _CFG.values())
"""
    )
    findings, _ = _lint(source)
    assert len(findings) == 1 and findings[0].fix is None
    assert findings[0].no_fix_reason is not None and "`_CFG`" in findings[0].no_fix_reason


def test_knob_read_out_of_an_entry_taken_with_get_has_no_fix() -> None:
    """`_CFG.get(key)["num_warps"]` and `_CFG.get(key).get("num_warps")` in another function
    read the knob out of an entry as `_CFG[key]["num_warps"]` does: removing it from the
    entries would break (KeyError) or change that read, so no fix, naming the read."""
    for read in ('_CFG.get(key)["num_warps"]', '_CFG.get(key).get("num_warps")', '_CFG.get(key, {})["num_warps"]'):
        source = (
            HEADER
            + f"""
_CFG = {{"small": {{"BLOCK": 64, "num_warps": 4}}, "big": {{"BLOCK": 128, "num_warps": 8}}}}


def run(x, y, key):
    k[(4,)](x, y, **_CFG.get(key))


def warps(key):
    return {read}
"""
        )
        findings, fixed = _lint(source)
        assert len(findings) == 2, read
        for finding in findings:
            assert finding.fix is None, read
            assert finding.no_fix_reason is not None and f"`{read}`" in finding.no_fix_reason
        assert fixed is None, read


def test_comprehension_over_an_entrys_items() -> None:
    """`{k: v for k, v in entry.items()}` copies the entry (a test on the value alone keeps
    every key): its knobs are the entry's. A test reading the key may drop them: not followed."""
    source = (
        HEADER
        + """
_TABLE = {"small": {"BLOCK": 64, "num_warps": 4, "num_stages": 2}}


def run(x, y, key):
    entry = _TABLE[key]
    kw = {name: value for name, value in entry.items()}
    k[(4,)](x, y, **kw)


def run_inline(x, y, key):
    k[(4,)](x, y, **{n: v for n, v in _TABLE[key].items() if v is not None})


def run_filtered(x, y, launch):
    k[(4,)](x, y, **{n: v for n, v in launch.items() if n != "num_warps"})


def run_filtered_caller(x, y):
    run_filtered(x, y, {"BLOCK": 64, "num_warps": 8})
"""
    )
    findings, fixed = _lint(source)
    assert [(f.location.row, f.message.split("`")[1]) for f in findings] == [
        (_row(source, "_TABLE = {"), "num_warps"),
        (_row(source, "_TABLE = {"), "num_stages"),
    ]
    assert all(f.fix is not None and f.fix.applicability == "safe" for f in findings)
    assert fixed is not None and '_TABLE = {"small": {"BLOCK": 64}}' in fixed


def test_module_of_an_ascend_package_keeps_the_fix(tmp_path: Path) -> None:
    """vllm-ascend keeps upstream's platform tests (`if current_platform.device_name == "npu":
    return False`) in modules that run on the NPU only: a package folder (or the file's name)
    saying Ascend keeps the fix."""
    package = tmp_path / "vllm_ascend" / "ops"
    package.mkdir(parents=True)
    for folder in (package, package.parent):
        (folder / "__init__.py").write_text("")
    source = (
        HEADER
        + """
from vllm.platforms import current_platform


def _supports_pdl():
    if current_platform.device_name == "npu":
        return False
    return current_platform.is_arch_support_pdl()


def run(x, y):
    k[(4,)](x, y, BLOCK=64, num_warps=8)
"""
    )
    config = settings(select=["ASC001"])
    for name in (package / "attention.py", tmp_path / "engram_npu.py"):
        [finding] = lint_source(source, str(name), config).findings
        assert finding.fix is not None and finding.fix.applicability == "safe"
    [shared] = lint_source(source, str(tmp_path / "attention.py"), config).findings
    assert shared.fix is None  # the same module in no Ascend package: other platforms may run it


PLATFORM_CHOSEN_CONFIGS = """\
import triton
import triton.language as tl
from utils import is_npu

_NPU_CONFIGS = [triton.Config({"BLOCK": 1024})]
_CUDA_CONFIGS = [triton.Config({"BLOCK": 1024}, num_warps=8)]
_SHARED_CONFIGS = [triton.Config({"BLOCK": 2048}, num_warps=8)]


@triton.autotune(configs=_NPU_CONFIGS if is_npu() else _CUDA_CONFIGS, key=["n"])
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o))


@triton.autotune(
    configs=[triton.Config({"BLOCK": 64})] if is_npu() else [triton.Config({"BLOCK": 64}, num_stages=3)],
    key=["n"],
)
@triton.jit
def k2(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o))


@triton.autotune(configs=_SHARED_CONFIGS if is_npu() else _SHARED_CONFIGS + _CUDA_CONFIGS, key=["n"])
@triton.jit
def k3(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o))


def run(x, y):
    k[(4,)](x, y, x.numel())
    k2[(4,)](x, y, x.numel())
    k3[(4,)](x, y, x.numel())
"""


def test_configs_a_decorators_platform_choice_keeps_for_another_platform_are_not_reported() -> None:
    """`configs=_NPU_CONFIGS if is_npu() else _CUDA_CONFIGS`: the `else` arm of a kernel's
    decorator runs only on another platform, and so does a private list only such arms read
    (as after `if is_npu(): return _NPU_CONFIGS`); a list the NPU's arm reads too is reported
    with its fix."""
    findings, fixed = _lint(PLATFORM_CHOSEN_CONFIGS)
    [shared] = findings
    assert shared.location.row == _row(PLATFORM_CHOSEN_CONFIGS, "_SHARED_CONFIGS = ")
    assert shared.fix is not None
    assert fixed is not None
    assert '_CUDA_CONFIGS = [triton.Config({"BLOCK": 1024}, num_warps=8)]' in fixed
    assert 'else [triton.Config({"BLOCK": 64}, num_stages=3)]' in fixed


PUBLIC_CHOSEN_CONFIGS = """\
import triton
import triton.language as tl
from utils import is_npu

NPU_CONFIGS = [triton.Config({"BLOCK": 1024})]
CUDA_CONFIGS = [
    triton.Config({"BLOCK": 1024}, num_warps=4),
    triton.Config({"BLOCK": 2048}, num_warps=8),
]


@triton.autotune(configs=CUDA_CONFIGS if not is_npu() else NPU_CONFIGS, key=["n"])
@triton.jit
def k(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + o, tl.load(x + o))


def run(x, y):
    k[(4,)](x, y, x.numel())
"""


def test_public_configs_a_decorators_platform_choice_keeps_for_another_platform_have_no_fix() -> None:
    """`configs=CUDA_CONFIGS if not is_npu() else NPU_CONFIGS` with a public list: the module
    reads it only where CUDA runs, where its knobs tune the kernel, but another module may
    import it and run it on Ascend. The findings stay (a private list is none), with no fix
    (plat23: the safe fix edited CUDA's list), but for `num_warps=4`, Triton's default on every
    platform, whose removal changes no launch."""
    findings, fixed = _lint(PUBLIC_CHOSEN_CONFIGS)
    first = _row(PUBLIC_CHOSEN_CONFIGS, "CUDA_CONFIGS = ")
    assert [(f.location.row - first, f.fix is not None) for f in findings] == [(1, True), (2, False)]
    assert "reads `CUDA_CONFIGS` only on another platform's path (line 12)" in findings[1].message
    assert findings[1].no_fix_reason is not None and "the name is public" in findings[1].no_fix_reason
    assert fixed is not None
    assert 'triton.Config({"BLOCK": 2048}, num_warps=8)' in fixed
    assert 'triton.Config({"BLOCK": 1024}),' in fixed


SPLATTED_BY_BOTH = {
    "a module-level dict": (
        '_KW = {"BLOCK": 64, "num_warps": 8}\n',
        "**_KW",
    ),
    "a dict a helper returns": (
        'def _cfg():\n    return {"BLOCK": 64, "num_warps": 8}\n',
        "**_cfg()",
    ),
    "a class attribute": (
        'class Op:\n    LAUNCH = {"BLOCK": 64, "num_warps": 8}\n\n    def run(self, x, y):\n'
        '        if x.device.type == "npu":\n            k[(4,)](x, y, **self.LAUNCH)\n'
        "        else:\n            k[(4,)](x, y, **self.LAUNCH)\n",
        None,
    ),
}


@pytest.mark.parametrize("case", sorted(SPLATTED_BY_BOTH))
def test_dict_splatted_on_the_npu_path_and_another_platforms_has_no_fix(case: str) -> None:
    """A dict splatted by a launch on the NPU's path and by one on another platform's path
    (`if x.device.type == "npu": ... else: ...`): removing its knob would change the other
    platform's launch, so the finding keeps it for that launch, with no fix, naming it; with or
    without other NPU code in the module."""
    definition, splat = SPLATTED_BY_BOTH[case]
    body = definition
    if splat is not None:
        body += (
            f'\n\ndef run(x, y):\n    if x.device.type == "npu":\n        k[(4,)](x, y, {splat})\n'
            f"    else:\n        k[(4,)](x, y, {splat})\n"
        )
    for test in ('x.device.type == "npu"', 'x.device.type != "cuda"'):
        source = HEADER + "\n\n" + body.replace('x.device.type == "npu"', test)
        findings, fixed = _lint(source)
        [finding] = findings
        assert finding.location.row == _row(source, '"num_warps": 8')
        assert finding.fix is None
        assert finding.no_fix_reason is not None and "launch on another platform" in finding.no_fix_reason
        assert finding.message.endswith("keep it for the other platform's launch only")
        assert [related.location.row for related in finding.related] == [_row(source, "else:") + 1]
        assert fixed is None


def test_knob_whose_value_has_another_platforms_arm_has_no_fix() -> None:
    """`num_warps=None if _is_npu else 8`: the knob's value in the arm another platform takes
    tunes the kernel there, so deleting the keyword would change that launch: no fix."""
    source = (
        HEADER
        + """
from sglang.srt.utils import is_npu

_is_npu = is_npu()


def run(x, y):
    k[(4,)](x, y, BLOCK=64, num_warps=None if _is_npu else 8)
    k[(4,)](x, y, BLOCK=64, num_warps=4 if torch.version.hip is None else 8)
    k[(4,)](x, y, BLOCK=64, num_warps=4 if y.numel() > 4 else 8)
"""
    )
    findings, fixed = _lint(source)
    by_row = {f.location.row: f for f in findings}
    for text in ("None if _is_npu", "4 if torch.version.hip"):
        finding = by_row[_row(source, text)]
        assert finding.fix is None
        assert finding.no_fix_reason is not None and "another platform" in finding.no_fix_reason
    assert by_row[_row(source, "y.numel() > 4")].fix is not None
    assert fixed is not None and "num_warps=None if _is_npu else 8" in fixed
