"""Which files are Ascend code by default: Ascend-named folders inside the project, projects
that depend on torch_npu / triton-ascend (minus other backends beside an Ascend folder), and
the summary saying why the rest was skipped. Through `ascend-lint check`, in a temporary tree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascend_lint.ascend_text import ASCEND_OPTIONS, OPTION_WORDS
from ascend_lint.cli import main

KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(x, B):
    tl.store(x, B.to(tl.int64))
"""


def write(root: Path, relative: str, text: str = KERNEL) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def linted(root: Path, capsys, *args: str) -> set[str]:
    """Files with a finding (every test file holds one ASC002 when linted)."""
    code = main(["check", "--isolated", "--output-format", "json", *args, str(root)])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return {Path(f["filename"]).resolve().relative_to(root.resolve()).as_posix() for f in json.loads(out)}


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project = tmp_path / "ascend-kernels"  # the project's own folder name does not count
    project.mkdir()
    monkeypatch.chdir(project)
    return project


def test_ascend_named_folders_inside_the_project(root: Path, capsys) -> None:
    write(root, "pyproject.toml", '[project]\nname = "x"\n')
    for path in ("vllm_ascend/ops/a.py", "fla_npu/b.py", "pkg/backends/_ascend/c.py", "pkg/npu2/d.py"):
        write(root, path)
    write(root, "pkg/input/e.py")  # `input` has `npu` in it, but not as a word's start or end
    write(root, "pkg/ops/f.py")
    assert linted(root, capsys) == {
        "vllm_ascend/ops/a.py",
        "fla_npu/b.py",
        "pkg/backends/_ascend/c.py",
        "pkg/npu2/d.py",
    }


@pytest.mark.parametrize(
    ("filename", "text"),
    [
        ("pyproject.toml", '[project]\nname = "x"\ndependencies = ["torch", "torch_npu>=2.1"]\n'),
        ("pyproject.toml", '[project]\nname = "x"\ndependencies = ["Triton.Ascend==3.2.0"]\n'),
        ("pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.10"\ntorch-npu = "2.1"\n'),
        ("setup.cfg", "[options]\ninstall_requires =\n    numpy\n    torch-npu\n"),
    ],
)
def test_a_project_depending_on_torch_npu_is_ascend_code(root: Path, capsys, filename: str, text: str) -> None:
    write(root, filename, text)
    write(root, "pkg/ops/a.py")
    (root / ".ascend_npu").mkdir()  # a hidden folder is no Ascend backend folder
    assert linted(root, capsys) == {"pkg/ops/a.py"}


def test_a_dependency_added_later_is_seen_through_the_cache(root: Path, capsys) -> None:
    write(root, "pyproject.toml", '[project]\nname = "x"\n')
    write(root, "pkg/ops/a.py")
    assert linted(root, capsys) == set()
    assert (root / ".ascend_lint_cache").is_dir()  # the run used the cache
    write(root, "pyproject.toml", '[project]\nname = "x"\ndependencies = ["torch_npu"]\n')
    assert linted(root, capsys) == {"pkg/ops/a.py"}


def test_an_optional_extra_does_not_make_the_project_ascend_only(root: Path, capsys) -> None:
    write(root, "pyproject.toml", '[project]\nname = "x"\n[project.optional-dependencies]\nnpu = ["torch_npu"]\n')
    write(root, "pkg/ops/a.py")
    assert linted(root, capsys) == set()


def test_other_backends_beside_an_ascend_folder_stay_out(root: Path, capsys) -> None:
    write(root, "pyproject.toml", '[project]\nname = "x"\ndependencies = ["torch_npu"]\n')
    write(root, "pkg/ops/chunk/triton_ascend/a.py")
    write(root, "pkg/ops/chunk/cuda/b.py")
    write(root, "pkg/ops/chunk/triton_core/c.py")
    write(root, "pkg/conv/backends/triton_ascend.py")
    write(root, "pkg/conv/backends/triton.py")
    write(root, "pkg/norm/d.py")  # no Ascend folder anywhere near it: the project's dependency decides
    assert linted(root, capsys) == {
        "pkg/ops/chunk/triton_ascend/a.py",
        "pkg/conv/backends/triton_ascend.py",
        "pkg/norm/d.py",
    }
    main(["check", "--isolated", str(root)])
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary == (
        "3 files skipped as not Ascend kernel code (another backend (e.g. CUDA) beside an Ascend folder of the "
        "project). Lint them with `--target-all`, or list them in `target-paths`; `--show-files` names them."
    )


def test_the_summary_says_why_and_how_to_include(root: Path, capsys) -> None:
    write(root, "pyproject.toml", '[project]\nname = "x"\n\n[tool.ascend-lint]\ntarget-paths = ["kernels/**"]\n')
    write(root, "kernels/a.py")
    write(root, "other/b.py")
    write(root, "other/c.py")
    main(["check", str(root)])
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary.startswith("2 files skipped as not Ascend kernel code (not matched by `target-paths`")
    assert summary.endswith("Lint them with `--target-all`, or list them in `target-paths`; `--show-files` names them.")
    assert linted(root, capsys, "--target-all") == {"kernels/a.py", "other/b.py", "other/c.py"}


@pytest.mark.parametrize(
    ("head", "tail"),
    [
        # imports of Ascend modules, also after other modules of one statement
        ("import torch, torch_npu", ""),
        ("import os, torch_npu as tnpu", ""),
        ("import triton.language.extra.ascend.libdevice as libdevice", ""),  # triton-ascend 3.2's `extra.cann`
        ("from triton.language.extra.ascend import libdevice", ""),
        ("from triton.language.extra import cann", ""),
        ("try:\n    import torch\nexcept ImportError:\n    from triton.language.extra.ascend import libdevice", ""),
        # any module a part of whose name says Ascend, imported at module level: the module
        # loads only where that package does
        ("from vllm_ascend.ops.triton.triton_utils import insert_slice", ""),
        ("import mindie_npu.ops as ops", ""),
        ("import os, vllm_ascend", ""),
        # compile options only triton-ascend takes, as a launch's, a `triton.Config`'s keyword or key
        ("", "def f(x):\n    k[(1,)](x, 2, multibuffer=False)"),
        (
            "",
            "def f(x):\n    k[(1,)](\n        x,\n        2,  # a comment\n        enable_auto_bind_sub_block=True,\n    )",
        ),
        ("", "def f(x):\n    k[(1,)](x, 2, force_simt_only=True)"),
        (
            "",
            "def f(x):\n    k[(1,)](x, 2, set_workspace_multibuffer=4, limit_auto_multi_buffer_of_local_buffer='no-l0c')",
        ),
        ("", 'CONFIGS = [triton.Config({"B": 64}, sync_solver=True)]'),
        ("", 'CONFIGS = [triton.Config({"B": 64, "multibuffer": True})]'),
        # triton-ascend's driver answering a core count
        ("", "CORES = triton.runtime.driver.active.utils.get_aivector_core_num()"),
        ("", "def f(x):\n    k[(triton.runtime.driver.active.utils.get_aicore_num(),)](x, 2)"),
        # its driver's properties of the device named "npu", its language's own keyword and extension
        ("", "CORES = triton.runtime.driver.active.utils.get_device_properties('npu')['num_vectorcore']"),
        (
            "",
            "@triton.jit\ndef j(x):\n    tl.store(x, tl.load(x, mask=None,\n                        care_padding=False))",
        ),
        ("", "@triton.jit\ndef j(x):\n    tl.extra.cann.extension.compile_hint(tl.load(x), 'hint')"),
        # a call of a function only triton-ascend's `triton.language` has, on a name bound to it
        (
            "",
            "@triton.jit\ndef g(x_ptr, idx_ptr, out_ptr, B: tl.constexpr):\n"
            "    idx = tl.load(idx_ptr + tl.arange(0, B))\n    for i in range(0, B):\n"
            "        j = tl.get_element(idx, (i,))\n        tl.store(out_ptr + i, tl.load(x_ptr + j))",
        ),
        (
            "",
            "@triton.jit\ndef j(x):\n    b = tl.load(x + tl.arange(0, 4))\n    tl.store(x, tl.extract_slice(b, [0], [2], [1]))",
        ),
        ("", "@triton.jit\ndef j(x, y):\n    y = tl.insert_slice(y, x, [0], [2], [1])"),
        ("", "@triton.jit\ndef j(x):\n    tl.compile_hint(x, 'bind_buffer')"),
        ("", "@triton.jit\ndef j(x):\n    for i in tl.parallel(0, 2, bind_sub_block=True):\n        tl.store(x, i)"),
        ("", "@triton.jit\ndef j(x):\n    tl.sync_block_set('cube', 'vector', 5)"),
        ("import triton", "@triton.jit\ndef j(x):\n    triton.language.get_element(x, (0,))"),
        ("from triton import language as L", "@triton.jit\ndef j(x):\n    L.extract_slice(x, [0], [2], [1])"),
        ("from triton import (\n    jit,\n    language,\n)", "@jit\ndef j(x):\n    language.get_element(x, (0,))"),
        ("from vllm.triton_utils import (\n    tl as T,  # re-exported\n)", "def j(x):\n    T.get_element(x, (0,))"),
    ],
)
def test_an_ascend_import_option_or_driver_call_is_ascend_code(root: Path, capsys, head: str, tail: str) -> None:
    write(root, "pkg/ops/a.py", f"{head}\n{KERNEL}\n\n{tail}\n")
    assert linted(root, capsys) == {"pkg/ops/a.py"}


@pytest.mark.parametrize(
    "tail",
    [
        "multibuffer = True",  # an option's name, no keyword
        "def f(x):\n    k[(1,)](x, 2, use_multibuffer=True)",  # another keyword
        'def f(x, multibuffer):\n    k[(1,)](x, multibuffer == "on")',
        # fla's portable helpers: options in a plain dict, core counts of the driver's properties
        "def kwargs(*, workspace_multibuffer=1):\n    found = {'multibuffer': False}\n"
        "    found['set_workspace_multibuffer'] = workspace_multibuffer\n    return found",
        "def cores(props):\n    return props['num_vectorcore']",
        "def get_aicore_num():\n    return 24",
        # Ascend words in an import that are no module's name
        "from sglang.srt.utils import is_npu",
        "from .input_ids import ids  # npu",
        # an Ascend package imported where the NPU takes another implementation
        "def norm(x):\n    from sgl_kernel_npu.norm import rms_norm\n    return rms_norm(x)",
        "if IS_NPU:\n    from sglang.srt.hardware_backend.npu.pool import Pool",
        # a device index, a plain variable, words in a comment
        "CORES = triton.runtime.driver.active.utils.get_device_properties(0)['num_vectorcore']",
        "care_padding = False",
        "# on Ascend: tl.extra.cann.extension.compile_hint(x, 'hint')",
        # triton-ascend's language functions: in a comment, on a name not bound to triton.language,
        # or one CUDA kernels call by mistake (`tl.tanh`: upstream has `libdevice.tanh`)
        "@triton.jit\ndef j(x):\n    tl.store(x, 1)  # tl.get_element(x, (0,)) on Ascend",
        "def f(rows, table):\n    rows.insert_slice(0, 2)\n    return table.get_element(0)",
        "def f(scores):\n    t = scores.float()\n    return t.extract_slice(0)",
        "import tensorlayer as T\n\n\ndef f(x):\n    return T.parallel(x)",
        "@triton.jit\ndef j(x):\n    tl.store(x, tl.tanh(tl.load(x)))",
        # named in a docstring or a string, not called: only real calls count
        '@triton.jit\ndef j(x):\n    """On Ascend, split the loop with\n    tl.parallel(0, 2) instead."""\n    tl.store(x, 1)',
        "HINT = 'write tl.insert_slice(y, x, [0], [2], [1]) on Ascend'",
        "HINT = (\n    'on Ascend:'\n    ' tl.get_element(x, (0,))'\n)",
    ],
)
def test_an_ascend_word_outside_an_import_or_a_call_is_not(root: Path, capsys, tail: str) -> None:
    write(root, "pkg/ops/a.py", f"{KERNEL}\n\n{tail}\n")
    assert linted(root, capsys) == set()


def test_every_ascend_option_holds_a_word_searched_for_first() -> None:
    assert all(any(word in option for word in OPTION_WORDS) for option in ASCEND_OPTIONS)


NPU_HOST = """\
import torch
import triton
import triton.language as tl
from vllm.platforms import current_platform
from sglang.srt.utils import is_npu

_is_npu = is_npu()


@triton.jit
def k(x, B):
    tl.store(x, B.to(tl.int64))


{host}
"""


@pytest.mark.parametrize(
    "host",
    [
        'def f(x):\n    if x.device.type == "npu":\n        k[(1,)](x, 2)',
        "def f(x):\n    if is_npu():\n        k[(1,)](x, 2)",
        "def f(x):\n    if _is_npu:\n        k[(1,)](x, 2)",
        "def f(x):\n    if current_platform.is_npu():\n        k[(1,)](x, 2)",
        "def f(x):\n    if torch.npu.is_available():\n        k[(1,)](x, 2)",
        "def f(x):\n    if not _is_npu:\n        return x\n    k[(1,)](x, 2)",
        "def f(x):\n    if _is_npu and x.numel() > 0:\n        k[(1,)](x, 2)",
        # flags named for the platform, also imported from a module of the package (mindiesd)
        "from .triton_utils import _TRITON_ON_ASCEND\n\n\ndef f(x):\n    if _TRITON_ON_ASCEND:\n        k[(1,)](x, 2)",
        "def f(x):\n    if USE_NPU:\n        k[(1,)](x, 2)",
        "def f(x):\n    if not utils.is_npu_available():\n        return x\n    k[(1,)](x, 2)",
        "def f(x):\n    if is_torch_npu_available():\n        k[(1,)](x, 2)",
        # any value compared with the NPU's literal, a device type listed with it alone, a device's text
        'def f(x, device):\n    if device == "npu":\n        k[(1,)](x, 2)',
        'def f(x):\n    if get_device_type() != "npu":\n        return x\n    k[(1,)](x, 2)',
        'def f(x):\n    if x.device.type in ("npu",):\n        k[(1,)](x, 2)',
        'def f(x):\n    if "npu" in str(x.device):\n        k[(1,)](x, 2)',
        'def f(x):\n    if "npu" in x.device.type:\n        k[(1,)](x, 2)',
        'def f(x):\n    if not x.device.type.startswith("npu"):\n        return x\n    k[(1,)](x, 2)',
        # a launcher helper reached from the NPU path (vllm-omni's indexed_modulation.py)
        'def _launch(kernel, device_type, x):\n    if device_type != "npu":\n        return x\n'
        "    kernel[(1,)](x, 2)\n\n\ndef f(x):\n    _launch(k, x.device.type, x)",
        # a private function only the NPU path calls
        "def _run(x):\n    k[(1,)](x, 2)\n\n\ndef f(x):\n    if _is_npu:\n        _run(x)",
        # the CustomOp method vllm-omni and sglang dispatch to on the NPU
        "class Op:\n    def forward_npu(self, x):\n        k[(1,)](x, 2)",
        # ... calling a private function through a module-level alias
        "def _run_impl(x):\n    k[(1,)](x, 2)\n\n\n_run = _run_impl\n\n\n"
        "class Op:\n    def forward_npu(self, x):\n        _run(x)",
        # after an exit on the None a helper returns unless the tensor is on the NPU
        'def _npu_block(x):\n    if x.device.type != "npu":\n        return None\n    return 64\n\n\n'
        "def f(x):\n    block = _npu_block(x)\n    if block is None:\n        return x\n    k[(1,)](x, block)",
        # after an assertion, or a call of a function raising off the NPU before it returns (OpenTile)
        'def f(x):\n    assert x.device.type == "npu"\n    k[(1,)](x, 2)',
        'def _check_npu(x):\n    if x.device.type != "npu":\n        raise RuntimeError("NPU only")\n\n\n'
        "def f(x):\n    _check_npu(x)\n    k[(1,)](x, 2)",
        "def _npu_device(x):\n    assert is_npu()\n    return x.device\n\n\n"
        "def f(x):\n    device = _npu_device(x)\n    k[(1,)](x, 2)",
    ],
)
def test_a_kernel_launched_on_an_npu_path_is_ascend_code(root: Path, capsys, host: str) -> None:
    write(root, "pkg/ops/shared.py", NPU_HOST.format(host=host))
    assert linted(root, capsys) == {"pkg/ops/shared.py"}


@pytest.mark.parametrize(
    "host",
    [
        # the NPU takes another implementation: the kernel runs elsewhere
        "def f(x):\n    if _is_npu:\n        return torch.relu(x)\n    k[(1,)](x, 2)",
        "def f(x):\n    if not is_npu():\n        k[(1,)](x, 2)",
        'def f(x):\n    if x.device.type != "npu":\n        k[(1,)](x, 2)',
        "class Op:\n    def forward_npu(self, x):\n        return x\n\n    def forward_cuda(self, x):\n        k[(1,)](x, 2)",
        # a helper returning False off the NPU returns something other than None there
        'def _npu_block(x):\n    if x.device.type != "npu":\n        return False\n    return 64\n\n\n'
        "def f(x):\n    block = _npu_block(x)\n    if block is None:\n        return x\n    k[(1,)](x, block)",
        # the NPU's literal listed with another device, or in a list of names
        'def f(x):\n    if x.device.type in ("npu", "cpu"):\n        k[(1,)](x, 2)',
        'def f(x):\n    if "npu" in SUPPORTED:\n        k[(1,)](x, 2)',
        # a flag named for something the NPU has, not for the NPU
        "def f(x):\n    if npu_graph_enabled:\n        k[(1,)](x, 2)",
        # an NPU word with nothing to do with the launch
        'DEVICE = "npu"\n\n\ndef f(x):\n    k[(1,)](x, 2)',
        'def f(x):\n    if x.device.type == "npu":\n        torch.npu.synchronize()\n    k[(1,)](x, 2)',
        # a launch of something that is no kernel of the file
        'def f(x, table):\n    if x.device.type == "npu":\n        table["relu"](x)',
        # a check that may return before it raises, or one made after the launch
        'def _check_npu(x):\n    if x.numel() == 0:\n        return\n    if x.device.type != "npu":\n'
        '        raise RuntimeError("NPU only")\n\n\ndef f(x):\n    _check_npu(x)\n    k[(1,)](x, 2)',
        'def f(x):\n    k[(1,)](x, 2)\n    assert x.device.type == "npu"',
    ],
)
def test_an_npu_word_away_from_the_launches_is_not(root: Path, capsys, host: str) -> None:
    write(root, "pkg/ops/shared.py", NPU_HOST.format(host=host))
    assert linted(root, capsys) == set()


def test_the_cuda_launch_of_a_file_its_npu_path_brings_in_stays_quiet(root: Path, capsys) -> None:
    host = (
        'def f(x):\n    if x.device.type == "npu":\n        k[(1,)](x, 2, num_warps=4)\n'
        "    else:\n        k[(1,)](x, 2, num_warps=8)"
    )
    write(root, "pkg/ops/shared.py", NPU_HOST.format(host=host))
    main(["check", "--isolated", "--output-format", "json", "--select", "ASC001", str(root)])
    rows = [f["location"]["row"] for f in json.loads(capsys.readouterr().out)]
    assert rows == [NPU_HOST.format(host=host).splitlines().index("        k[(1,)](x, 2, num_warps=4)") + 1]


def test_an_npu_text_libcst_cannot_parse_stays_out_silently(root: Path, capsys) -> None:
    write(root, "pkg/ops/broken.py", NPU_HOST.format(host="def f(x):\n    if _is_npu:\n        k[(1,)](x, 2"))
    assert main(["check", "--isolated", str(root)]) == 0
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary == (
        "1 file skipped as not Ascend kernel code (no Ascend folder (`triton_ascend`, `*ascend*`, `*npu*`) on the "
        "path, no Ascend import, no `torch_npu` / `triton-ascend` dependency in the project, no kernel launched on "
        "an NPU path, no kernel launched or autotune configs taken from an Ascend module of its package). Lint them "
        "with `--target-all`, or list them in `target-paths`; `--show-files` names them."
    )


def test_target_paths_give_way_to_an_npu_launch_as_to_an_import(root: Path, capsys) -> None:
    write(root, "pyproject.toml", '[project]\nname = "x"\n\n[tool.ascend-lint]\ntarget-paths = ["kernels/**"]\n')
    write(root, "other/a.py", NPU_HOST.format(host="def f(x):\n    if _is_npu:\n        k[(1,)](x, 2)"))
    write(root, "other/b.py")
    assert linted(root, capsys) == {"other/a.py"}


def test_a_package_named_for_the_npu_is_ascend_code_from_wherever_it_is_linted(
    root: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unpacked wheel has no project file: the package's own folder names count (up to its
    top `__init__.py`, namespace folders in between), not the path from the working directory."""
    write(root, "titan_npu/__init__.py", "")
    write(root, "titan_npu/ops/kernels/__init__.py", "")  # `ops` is a namespace folder
    write(root, "titan_npu/ops/kernels/k.py")
    write(root, "plain/kernels/__init__.py", "")
    write(root, "plain/kernels/k.py")
    for package, found in (("titan_npu/ops/kernels", {"k.py"}), ("plain/kernels", set())):
        monkeypatch.chdir(root / package)
        assert linted(root / package, capsys) == found


def test_a_loose_files_own_folder_counts_from_inside_it(root: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside any project and package, linting from inside a `triton_ascend` folder finds what
    linting from the folder above does (the folder was left out: the path from the working
    directory had no folder in it)."""
    write(root, "triton_ascend/k.py")
    write(root, "kernels_npu/k.py")
    write(root, "plain/k.py")
    assert linted(root, capsys) == {"triton_ascend/k.py", "kernels_npu/k.py"}
    for folder, found in (("triton_ascend", {"k.py"}), ("kernels_npu", {"k.py"}), ("plain", set())):
        monkeypatch.chdir(root / folder)
        assert linted(root / folder, capsys) == found


# ---- a launcher of the kernels, or a user of the autotune configs, of an Ascend module ----------
# MindSpeed-MM: `fsdp/ops/hc/sinkhorn.py` launches the kernels of `hc/triton/sinkhorn.py` (which
# imports triton-ascend's extension); `gdn/triton/merge_scan.py` tunes with `gdn/triton/utils.py`'s
# configs (torch_npu, `multibuffer`). Each launcher below holds one ASC001 when linted.
ASCEND_KERNELS = KERNEL.replace(
    "import triton.language as tl\n",
    "import triton.language as tl\nfrom triton.language.extra.cann.extension import extract_slice  # noqa: F401\n",
)


def write_package(root: Path, kernels: str = ASCEND_KERNELS, where: str = "pkg/ops/kernels.py") -> None:
    write(root, "pyproject.toml", '[project]\nname = "x"\n')
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/ops/__init__.py", "")
    write(root, where, kernels)


@pytest.mark.parametrize(
    "launcher",
    [
        "from .kernels import k\n\n\ndef f(x):\n    k[(1,)](x, 2, num_warps=4)",
        "from pkg.ops.kernels import k as _k\n\n\ndef f(x):\n    _k[(1,)](x, 2, num_warps=4)",
        "from . import kernels\n\n\ndef f(x):\n    kernels.k[(1,)](x, 2, num_warps=4)",
        "import pkg.ops.kernels as K\n\n\ndef f(x):\n    K.k[(1,)](x, 2, num_warps=4)",
        # through a launcher helper given the kernel
        "from .kernels import k\n\n\ndef _launch(kernel, x):\n    kernel[(1,)](x, 2, num_warps=4)\n\n\n"
        "def f(x):\n    _launch(k, x)",
        # a name bound to the kernel, chosen between kernels
        "from .kernels import k\n\n\ndef f(x, c):\n    fn = k if c else k\n    fn[(1,)](x, 2, num_warps=4)",
    ],
)
def test_a_launch_of_a_kernel_an_ascend_module_of_the_package_defines_is_ascend_code(
    root: Path, capsys, launcher: str
) -> None:
    write_package(root)
    write(root, "pkg/ops/launch.py", f"import triton\n{launcher}\n")
    assert linted(root, capsys) == {"pkg/ops/kernels.py", "pkg/ops/launch.py"}


def test_the_kernel_module_may_be_ascend_by_its_path_or_reexported(root: Path, capsys) -> None:
    write_package(root, KERNEL, "pkg/ops/triton_ascend/kernels.py")
    write(root, "pkg/ops/triton_ascend/__init__.py", "from .kernels import k  # noqa: F401\n")
    write(root, "pkg/ops/a.py", "from .triton_ascend.kernels import k\n\n\ndef f(x):\n    k[(1,)](x, 2, num_warps=4)\n")
    write(root, "pkg/ops/b.py", "from pkg.ops.triton_ascend import k\n\n\ndef f(x):\n    k[(1,)](x, 2, num_warps=4)\n")
    assert linted(root, capsys) == {"pkg/ops/triton_ascend/kernels.py", "pkg/ops/a.py", "pkg/ops/b.py"}


TUNED = """\
import triton
import triton.language as tl

{imports}


@triton.autotune(configs={configs}, key=["n"])
@triton.jit
def t(x, n, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 0.0)


def f(x):
    t[(1,)](x, x.numel(), num_stages=2)
"""
ASCEND_CONFIGS = 'import triton\n\n\ndef configs():\n    return [triton.Config({"multibuffer": True, "BLOCK": 64})]\n'


@pytest.mark.parametrize(
    ("imports", "configs"),
    [
        ("from .tune import configs", "configs()"),
        ("from . import tune", "tune.configs()"),
        ("from pkg.ops.tune import configs as ascend_configs", "[*ascend_configs()]"),
        # read by a function of the module the autotuner's argument calls (MindSpeed-MM's merge_scan.py)
        ("from .tune import configs\n\n\ndef _crossed():\n    return [c for c in configs()]", "_crossed()"),
    ],
)
def test_autotune_configs_an_ascend_module_of_the_package_makes_are_ascend_code(
    root: Path, capsys, imports: str, configs: str
) -> None:
    write_package(root)
    write(root, "pkg/ops/tune.py", ASCEND_CONFIGS)
    write(root, "pkg/ops/tuned.py", TUNED.format(imports=imports, configs=configs))
    assert linted(root, capsys) == {"pkg/ops/kernels.py", "pkg/ops/tuned.py"}


@pytest.mark.parametrize(
    ("kernels", "launcher"),
    [
        # a kernel of a module of the package with no Ascend sign (another vendor's backend)
        (KERNEL, "from .kernels import k\n\n\ndef f(x):\n    k[(1,)](x, 2, num_warps=4)"),
        # the module is Ascend code by its NPU launch only: its kernel is shared with CUDA
        (
            KERNEL + '\n\ndef g(x):\n    if x.device.type == "npu":\n        k[(1,)](x, 2)\n',
            "from .kernels import k\n\n\ndef f(x):\n    k[(1,)](x, 2, num_warps=4)",
        ),
        # the Ascend module imported, but the launch is of the file's own kernel
        (
            ASCEND_KERNELS,
            "import triton.language as tl\n\nfrom . import kernels  # noqa: F401\n\n\n@triton.jit\n"
            "def own(x):\n    tl.store(x, 1)\n\n\ndef f(x):\n    own[(1,)](x, num_warps=4)",
        ),
        # the Ascend kernel launched only where host code runs on CUDA
        (
            ASCEND_KERNELS,
            'from .kernels import k\n\n\ndef f(x):\n    if x.device.type == "cuda":\n        k[(1,)](x, 2, num_warps=4)',
        ),
        # a launch argument from the Ascend module is no kernel of it
        (
            ASCEND_KERNELS.replace("@triton.jit", "BLOCK = 4\n\n\n@triton.jit"),
            "import triton.language as tl\n\nfrom .kernels import BLOCK\n\n\n@triton.jit\n"
            "def own(x, B: tl.constexpr):\n    tl.store(x, 1)\n\n\ndef f(x):\n    own[(1,)](x, BLOCK, num_warps=4)",
        ),
        # a kernel module outside the package is not looked for
        (ASCEND_KERNELS, "from other.kernels import k\n\n\ndef f(x):\n    k[(1,)](x, 2, num_warps=4)"),
    ],
)
def test_a_launcher_of_no_ascend_modules_kernel_stays_out(root: Path, capsys, kernels: str, launcher: str) -> None:
    write_package(root, kernels)
    write(root, "other/kernels.py", ASCEND_KERNELS)
    write(root, "pkg/ops/launch.py", f"import triton\n{launcher}\n")
    assert "pkg/ops/launch.py" not in linted(root, capsys)


def test_autotune_configs_of_a_module_with_no_ascend_sign_stay_out(root: Path, capsys) -> None:
    write_package(root)
    write(root, "pkg/ops/tune.py", ASCEND_CONFIGS.replace('"multibuffer": True, ', ""))
    write(root, "pkg/ops/tuned.py", TUNED.format(imports="from .tune import configs", configs="configs()"))
    # nor does an import of the Ascend module beside configs of the file's own
    write(root, "pkg/ops/own.py", TUNED.format(imports="from . import kernels  # noqa: F401", configs="[]"))
    assert linted(root, capsys) == {"pkg/ops/kernels.py"}


def test_show_files_says_a_launcher_of_an_ascend_modules_kernels_is_linted(root: Path, capsys) -> None:
    write_package(root, KERNEL)
    write(root, "pkg/ops/launch.py", "from .kernels import k\n\n\ndef f(x):\n    k[(1,)](x, 2, num_warps=4)\n")
    main(["check", "--isolated", "--show-files", str(root / "pkg" / "ops" / "launch.py")])
    skipped = capsys.readouterr().out
    assert "no kernel launched or autotune configs taken from an Ascend module of its package" in skipped
    write(root, "pkg/ops/kernels.py", ASCEND_KERNELS)
    main(["check", "--isolated", "--show-files", str(root / "pkg" / "ops" / "launch.py")])
    assert capsys.readouterr().out.strip() == "pkg/ops/launch.py"
