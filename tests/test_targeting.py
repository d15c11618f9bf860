"""Which files are Ascend code by default: Ascend-named folders inside the project, projects
that depend on torch_npu / triton-ascend (minus other backends beside an Ascend folder), and
the summary saying why the rest was skipped. Through `ascend-lint check`, in a temporary tree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
        "project). Lint them with `--target-all`, or list them in `target-paths`."
    )


def test_the_summary_says_why_and_how_to_include(root: Path, capsys) -> None:
    write(root, "pyproject.toml", '[project]\nname = "x"\n\n[tool.ascend-lint]\ntarget-paths = ["kernels/**"]\n')
    write(root, "kernels/a.py")
    write(root, "other/b.py")
    write(root, "other/c.py")
    main(["check", str(root)])
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary.startswith("2 files skipped as not Ascend kernel code (not matched by `target-paths`")
    assert summary.endswith("Lint them with `--target-all`, or list them in `target-paths`.")
    assert linted(root, capsys, "--target-all") == {"kernels/a.py", "other/b.py", "other/c.py"}
