"""The flake8 plugin, through real flake8 runs: same findings as the CLI, flake8's own noqa."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from kernel_samples import (
    BAD_FINDINGS,
    BAD_KERNEL,
    BAD_PATH,
    CUDA_PATH,
    GOOD_PATH,
    UB_KERNEL,
    UB_LINE,
    ascend_lint,
    cli_json,
    line_of,
    write_project,
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    write_project(root)
    return root


def flake8(*args: str, cwd: Path, stdin: str | None = None) -> list[str]:
    """The report lines of `flake8 --isolated ARGS` (isolated: no user or project flake8 config)."""
    lines, stderr = flake8_run(*args, cwd=cwd, stdin=stdin)
    assert not stderr, stderr
    return lines


def flake8_run(*args: str, cwd: Path, stdin: str | None = None) -> tuple[list[str], str]:
    """The report lines and stderr of `flake8 --isolated ARGS`."""
    done = subprocess.run(
        [sys.executable, "-m", "flake8", "--isolated", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.splitlines(), done.stderr


def codes(lines: list[str]) -> set[tuple[str, int]]:
    """(code, row) of each `path:row:col: CODE text` report line."""
    found = set()
    for line in lines:
        _, row, _, text = line.split(":", 3)
        found.add((text.split()[0], int(row)))
    return found


def test_file_mode_reports_what_the_cli_reports(project: Path) -> None:
    expected = {
        f"{Path(f['filename']).as_posix()}:{f['location']['row']}:{f['location']['column']}: "
        f"{f['code']} [{f['name']}] {f['message']}"
        for f in cli_json(cwd=project)
    }
    assert expected
    assert set(flake8("--select", "ASC", "pkg", cwd=project)) == expected


def test_cuda_kernel_in_the_same_project_is_not_flagged(project: Path) -> None:
    assert flake8("--select", "ASC", CUDA_PATH, GOOD_PATH, cwd=project) == []


def test_stdin_buffer_is_linted_not_the_file_on_disk(project: Path) -> None:
    unsaved = BAD_KERNEL.replace(", num_warps=4", "")
    lines = flake8("--select", "ASC", "--stdin-display-name", BAD_PATH, "-", cwd=project, stdin=unsaved)
    assert codes(lines) == {("ASC003", line_of(BAD_KERNEL, "tl.store(α_ptr"))}
    assert all(line.startswith(f"{BAD_PATH}:") for line in lines)


def test_stdin_display_name_decides_the_target_paths(project: Path) -> None:
    assert flake8("--select", "ASC", "--stdin-display-name", CUDA_PATH, "-", cwd=project, stdin=BAD_KERNEL) == []


STORE = "    tl.store(α_ptr + tile, b_a)"
WITH_NOQA = BAD_KERNEL.replace(STORE, STORE + "  # noqa: ASC003")


def test_noqa_comment_is_flake8s(project: Path) -> None:
    stdin_args = ("--stdin-display-name", BAD_PATH, "-")
    lines = flake8("--select", "ASC", *stdin_args, cwd=project, stdin=WITH_NOQA)
    assert codes(lines) == {("ASC001", line_of(BAD_KERNEL, "num_warps"))}
    everything = flake8("--select", "ASC", "--disable-noqa", *stdin_args, cwd=project, stdin=WITH_NOQA)
    assert {code for code, _ in codes(everything)} == {"ASC001", "ASC003"}


def test_file_level_disable_comment_applies(project: Path) -> None:
    disabled = "# ascend-lint: disable-file=ASC001\n" + BAD_KERNEL
    lines = flake8("--select", "ASC", "--stdin-display-name", BAD_PATH, "-", cwd=project, stdin=disabled)
    assert {code for code, _ in codes(lines)} == {"ASC003"}


@pytest.mark.parametrize(
    ("header", "enabled", "warning"),
    [
        # only comments count: a docstring quoting the directive disables nothing
        ('"""Generated files carry `# ascend-lint: disable-file`."""', {"ASC001", "ASC003"}, None),
        ("# ascend-lint: disable-file: ASC001", {"ASC003"}, None),
        ("# ascend-lint: disable-file = ASC001", {"ASC003"}, None),
        # a directive that cannot be read disables nothing, with the CLI's warning on stderr
        ("# ascend-lint: disable-file ASC001", {"ASC001", "ASC003"}, "1:1: warning: Invalid `# ascend-lint: disable"),
        ("# ascend-lint: disable-file=ASC999", {"ASC001", "ASC003"}, "1:1: warning: Invalid rule code provided"),
    ],
)
def test_file_level_disable_comment_is_read_as_the_cli_reads_it(
    project: Path, header: str, enabled: set[str], warning: str | None
) -> None:
    text = f"{header}\n{BAD_KERNEL}"
    lines, stderr = flake8_run("--select", "ASC", "--stdin-display-name", BAD_PATH, "-", cwd=project, stdin=text)
    assert {code for code, _ in codes(lines)} == enabled
    if warning is None:
        assert not stderr
    else:
        assert stderr.startswith(f"{BAD_PATH}:{warning}") and stderr.count("\n") == 1, stderr
    assert {code for code, _ in codes(cli_lines(project, text))} == enabled


def cli_lines(project: Path, text: str) -> list[str]:
    """The findings `ascend-lint check` reports for `text` as the file at BAD_PATH (stdin)."""
    done = ascend_lint(
        "check", "--output-format", "concise", "--stdin-filename", BAD_PATH, "-", cwd=project, stdin=text
    )
    assert done.returncode in (0, 1), done.stderr
    return [line for line in done.stdout.splitlines() if line.startswith(f"{BAD_PATH}:")]


def test_a_noqa_in_a_string_suppresses_nothing_in_either(project: Path) -> None:
    """`# noqa` under flake8 is flake8's (its own regex over the physical line): a string
    spelling `#noqa` is none for it, nor for the CLI, which reads only comments."""
    launch = "matmul_kernel[(1,)](a, b, c, α, BLOCK=16, num_warps=4)"
    text = BAD_KERNEL.replace(launch, launch + '; print("#noqa")')
    lines = flake8("--select", "ASC", "--stdin-display-name", BAD_PATH, "-", cwd=project, stdin=text)
    assert codes(lines) == codes(cli_lines(project, text)) == BAD_FINDINGS


def test_extend_ignore(project: Path) -> None:
    lines = flake8("--select", "ASC", "--extend-ignore", "ASC001", BAD_PATH, cwd=project)
    assert codes(lines) == {("ASC003", line_of(BAD_KERNEL, "tl.store(α_ptr"))}


def test_a_restrictive_select_needs_extend_select(project: Path) -> None:
    assert flake8("--select", "E9", BAD_PATH, cwd=project) == []
    with_asc = flake8("--select", "E9", "--extend-select", "ASC", BAD_PATH, cwd=project)
    assert {code for code, _ in codes(with_asc)} == {"ASC001", "ASC003"}


def test_ascend_lint_configuration_applies(tmp_path: Path) -> None:
    write_project(tmp_path)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\n[tool.ascend-lint]\ntarget-paths = ["pkg/ops/cuda/**"]\n')
    lines = flake8("--select", "ASC", "pkg", cwd=tmp_path)
    assert {line.split(":")[0] for line in lines} == {CUDA_PATH}


def test_ascend_lint_exclude_holds_for_the_files_flake8_names(tmp_path: Path) -> None:
    write_project(tmp_path)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + f'\n[tool.ascend-lint]\nexclude = ["{BAD_PATH}"]\n')
    assert flake8("--select", "ASC", BAD_PATH, cwd=tmp_path) == []
    assert flake8("--select", "ASC", "pkg", cwd=tmp_path) == []


def test_per_file_target_soc_applies(tmp_path: Path) -> None:
    for folder in ("a2", "a5"):
        (tmp_path / folder / "triton_ascend").mkdir(parents=True)
        (tmp_path / folder / "triton_ascend" / "silu.py").write_text(UB_KERNEL, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.ascend-lint.per-file-target-soc]\n"a5/**" = "ascend950"\n')
    lines = flake8("--select", "ASC", ".", cwd=tmp_path)
    assert [line.split(":")[:2] for line in lines] == [["./a2/triton_ascend/silu.py", str(UB_LINE)]]
    assert "the Ascend 910B has" in lines[0]


@pytest.mark.parametrize(
    ("configuration", "problem"),
    [
        ("[tool.ascend-lint\n", "invalid TOML"),
        ('[tool.ascend-lint]\nignore = ["ASC999"]\n', "ASC999"),
    ],
)
def test_a_configuration_that_cannot_be_read_is_one_finding_per_file(
    tmp_path: Path, configuration: str, problem: str
) -> None:
    """flake8 and its other checks run on (no traceback); each file says at 1:1 why ascend-lint
    did not check it, and the run fails."""
    write_project(tmp_path)
    (tmp_path / "pyproject.toml").write_text(configuration, encoding="utf-8")
    (tmp_path / CUDA_PATH).write_text("import os\n", encoding="utf-8")
    lines, stderr = flake8_run("--select", "ASC,F", BAD_PATH, CUDA_PATH, cwd=tmp_path)
    assert not stderr, stderr
    found = sorted(line.split(": ", 1) for line in lines)
    assert sorted((where, text.split()[0]) for where, text in found) == sorted(
        [(f"{BAD_PATH}:1:1", "ASC000"), (f"{CUDA_PATH}:1:1", "ASC000"), (f"{CUDA_PATH}:1:1", "F401")]
    )
    errors = [text for _, text in found if text.startswith("ASC000")]
    assert all(problem in text and "configuration error" in text for text in errors)
    unsaved = flake8("--select", "ASC", "--stdin-display-name", BAD_PATH, "-", cwd=tmp_path, stdin=BAD_KERNEL)
    assert [line.split(": ", 1)[1].split()[0] for line in unsaved] == ["ASC000"]


def test_a_launcher_of_an_ascend_modules_kernels_is_linted_as_by_the_cli(tmp_path: Path) -> None:
    """Targeting through the module of the package whose kernels a file launches or whose
    autotune configs it takes (`ascend_imports`) is the CLI's: the same findings in the same
    files, and the modules of no Ascend sign (`cuda_*.py`) stay quiet."""
    shutil.copytree(FIXTURES / "shared" / "launcher_imports", tmp_path / "launcher_imports")
    expected = {
        f"{Path(f['filename']).as_posix()}:{f['location']['row']}:{f['location']['column']}: "
        f"{f['code']} [{f['name']}] {f['message']}"
        for f in cli_json("launcher_imports", cwd=tmp_path)
    }
    assert {line.split(":")[0] for line in expected} == {
        "launcher_imports/launch.py",
        "launcher_imports/tuned_kernel.py",
    }
    assert set(flake8("--select", "ASC", "launcher_imports", cwd=tmp_path)) == expected
