"""The pre-commit hooks, run by the real `pre-commit try-repo` on a copy of this checkout.

`try-repo` pip-installs the hook into a fresh environment on every call (setuptools and
libcst come from the package index), so these tests need the index; the calls run side by
side to share the wait.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import installed_environment
from kernel_samples import BAD_KERNEL, BAD_PATH, CUDA_PATH, GOOD_PATH, copy_checkout, git, write_project

CHECKOUT = Path(__file__).resolve().parents[1]
TRY_REPO_TIMEOUT = 600
# Ascend kernel code by ascend-lint's targeting (an `*ascend*` folder, as liger-kernel's
# `ops/backends/_ascend/`), though no `triton_ascend` is in its path.
BACKEND_PATH = "pkg/ops/backends/_ascend/ops/matmul.py"
# Enough files for pre-commit to split them into batches when a hook is not `require_serial`.
MANY_PATHS = [f"pkg/ops/triton_ascend/k{n}.py" for n in range(10)]
# name: (hook, files). Each run gets its own project: pre-commit fails a hook when any file in
# the working tree changes while it runs, and the fix hook rewrites its file.
RUNS = {
    "bad": ("ascend-lint", [BAD_PATH]),
    "good": ("ascend-lint", [GOOD_PATH]),
    "cuda": ("ascend-lint", [CUDA_PATH]),
    "backend": ("ascend-lint", [BACKEND_PATH]),
    "many": ("ascend-lint", MANY_PATHS),
    "fix": ("ascend-lint-fix", [BAD_PATH]),
    "excluded": ("ascend-lint", [BAD_PATH]),  # the project's `exclude` holds for the files pre-commit names
    "excluded-fix": ("ascend-lint-fix", [BAD_PATH]),
}
EXCLUDING = '\n[tool.ascend-lint]\nexclude = ["pkg/ops/triton_ascend/matmul.py"]\n'
# pre-commit runs a hook that is not `require_serial` in 2 batches under Travis whatever the
# CPU count (`lang_base.target_concurrency`): the "many" run shows the batches on any machine.
BATCHING = {"TRAVIS": "true"}


def test_manifest_is_valid() -> None:
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(CHECKOUT / ".pre-commit-hooks.yaml")],
        check=True,
    )


def require_package_index(scratch: Path) -> None:
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--timeout", "10", "--retries", "0"]
    try:
        done = subprocess.run([*command, "-d", str(scratch), "setuptools"], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.skip("package index unreachable (pip download timed out); pre-commit must pip-install the hook")
    if done.returncode:
        reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"package index unreachable, pre-commit must pip-install the hook: {reason}")


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """For each run, a git repository with the sample project staged."""
    projects = {}
    for name in RUNS:
        projects[name] = tmp_path_factory.mktemp(f"project-{name}")
        write_project(projects[name])
        for extra in [BACKEND_PATH, *MANY_PATHS]:
            (projects[name] / extra).parent.mkdir(parents=True, exist_ok=True)
            (projects[name] / extra).write_text(BAD_KERNEL, encoding="utf-8")
        if name.startswith("excluded"):
            with (projects[name] / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
                pyproject.write(EXCLUDING)
        git(projects[name], "init", "-q")
        git(projects[name], "add", "-A")
    return projects


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, projects: dict[str, Path]) -> dict[str, subprocess.CompletedProcess]:
    """`pre-commit try-repo <copy> HOOK --files FILE` for each of RUNS, side by side."""
    require_package_index(tmp_path_factory.mktemp("pip"))
    hook_repo = copy_checkout(tmp_path_factory.mktemp("hook-repo"))
    env = {**installed_environment(), "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home"))}
    started = {
        name: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pre_commit",
                "try-repo",
                str(hook_repo),
                hook,
                "--color",
                "never",
                "--verbose",
                "--files",
                *paths,
            ],
            cwd=projects[name],
            env={**env, **BATCHING} if name == "many" else env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name, (hook, paths) in RUNS.items()
    }
    try:
        outputs = {name: process.communicate(timeout=TRY_REPO_TIMEOUT)[0] for name, process in started.items()}
    finally:
        for process in started.values():
            process.kill()
    return {name: subprocess.CompletedProcess(p.args, p.returncode, outputs[name]) for name, p in started.items()}


@pytest.mark.network
def test_bad_kernel_fails_with_the_findings(runs: dict) -> None:
    done = runs["bad"]
    assert done.returncode == 1, done.stdout
    assert "ascend-lint" in done.stdout and "Failed" in done.stdout
    assert f"{BAD_PATH}:" in done.stdout
    assert "ASC001" in done.stdout and "ASC003" in done.stdout


@pytest.mark.network
def test_good_kernel_passes(runs: dict) -> None:
    done = runs["good"]
    assert done.returncode == 0, done.stdout
    assert "Passed" in done.stdout


def test_hooks_take_python_files_and_run_once() -> None:
    """As ruff's hooks: every Python file (ascend-lint's own targeting picks the Ascend ones;
    no `files` filter narrower than it), and all of them in one process."""
    hooks = yaml.safe_load((CHECKOUT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {hook["id"] for hook in hooks} == {"ascend-lint", "ascend-lint-fix"}
    for hook in hooks:
        assert hook.get("types", hook.get("types_or")) in (["python"], ["python", "pyi"]), hook
        assert "files" not in hook and "exclude" not in hook, hook
        assert hook["require_serial"] is True, hook
        assert "--force-exclude" in hook["entry"].split(), hook


@pytest.mark.parametrize(
    "options",
    [
        ["--output-format", "text"],
        ["--output-format", "github"],
        ["--output-format", "rdjson"],
        ["--fix"],  # the ascend-lint-fix hook
        ["--diff"],
    ],
)
def test_a_commit_of_cuda_files_parses_nothing(tmp_path: Path, options: list[str]) -> None:
    """What the hooks run on a change touching only CUDA kernels: ascend-lint skips them by
    their path and project, before loading libcst (whose import is most of a run's time)."""
    write_project(tmp_path)
    command = [sys.executable, "-X", "importtime", "-m", "ascend_lint", "check", "--force-exclude", "--no-cache"]
    done = subprocess.run(
        [*command, *options, CUDA_PATH],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(CHECKOUT)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "ascend_lint.cli" in done.stderr and "libcst" not in done.stderr


@pytest.mark.network
def test_cuda_kernel_is_passed_and_skipped_by_ascend_lint(runs: dict) -> None:
    done = runs["cuda"]
    assert done.returncode == 0, done.stdout
    assert "Passed" in done.stdout and "ASC0" not in done.stdout
    assert "1 file skipped as not Ascend kernel code" in done.stdout


@pytest.mark.network
def test_kernel_in_an_ascend_backend_folder_is_linted(runs: dict) -> None:
    """liger-kernel's layout: `ops/backends/_ascend/ops/*.py`, no `triton_ascend` in the path."""
    done = runs["backend"]
    assert done.returncode == 1, done.stdout
    assert f"{BACKEND_PATH}:" in done.stdout and "ASC003" in done.stdout


@pytest.mark.network
def test_many_files_give_one_report(runs: dict) -> None:
    """`require_serial`: one ascend-lint process and one summary, not one per pre-commit batch."""
    done = runs["many"]
    assert done.returncode == 1, done.stdout
    assert done.stdout.count("Found ") == 1, done.stdout
    assert f"in {len(MANY_PATHS)} files checked" in done.stdout


@pytest.mark.network
def test_fix_hook_rewrites_the_file_and_reports_what_is_left(runs: dict, projects: dict) -> None:
    done = runs["fix"]
    assert done.returncode == 1, done.stdout
    assert "files were modified by this hook" in done.stdout
    assert "num_warps" not in (projects["fix"] / BAD_PATH).read_text(encoding="utf-8")
    assert "ASC003 [dot-lhs-reuse]" in done.stdout and "ASC001 [launch-num-warps]" not in done.stdout


@pytest.mark.network
@pytest.mark.parametrize("name", ["excluded", "excluded-fix"])
def test_an_excluded_file_is_neither_linted_nor_fixed(runs: dict, projects: dict, name: str) -> None:
    """The hooks pass `--force-exclude`, as ruff's do: pre-commit names every staged file."""
    done = runs[name]
    assert done.returncode == 0, done.stdout
    assert "Passed" in done.stdout and "ASC001" not in done.stdout
    assert "num_warps" in (projects[name] / BAD_PATH).read_text(encoding="utf-8")
