"""`target-soc`, `per-file-target-soc` and `--target-soc`: the SoC family whose UB capacity
ASC013 judges a file against (ascend_lint.socs), through `ascend-lint check`."""

from __future__ import annotations

from pathlib import Path

import pytest
from kernel_samples import UB_KERNEL, UB_LINE
from test_config import pyproject, run, write

from ascend_lint.cli import main

A2_PATH = "pkg/triton_ascend/a2/silu.py"
A5_PATH = "pkg/triton_ascend/a5/silu.py"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write(tmp_path, A2_PATH, UB_KERNEL)
    write(tmp_path, A5_PATH, UB_KERNEL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def flagged(*args: str, capsys) -> dict[str, str]:
    """The ASC013 messages per file (each at the autotune config's line)."""
    code, findings, err = run("--select", "ASC013", *args, capsys=capsys)
    assert code in (0, 1) and not err, err
    assert all(f["location"]["row"] == UB_LINE for f in findings)
    return {f["filename"]: f["message"] for f in findings}


def test_the_default_is_the_910b(project: Path, capsys) -> None:
    messages = flagged(capsys=capsys)
    assert set(messages) == {A2_PATH, A5_PATH}
    assert "224 KiB of UB" in messages[A2_PATH]
    assert "over the 192 KiB the Ascend 910B has (target-soc `ascend910b`)" in messages[A2_PATH]


@pytest.mark.parametrize(("soc", "flagged_files"), [("ascend950", set()), ("ascend910_93", {A2_PATH, A5_PATH})])
def test_target_soc(project: Path, capsys, soc: str, flagged_files: set[str]) -> None:
    pyproject(project, f'target-soc = "{soc}"')
    assert set(flagged(capsys=capsys)) == flagged_files


def test_per_file_target_soc(project: Path, capsys) -> None:
    pyproject(project, '[tool.ascend-lint.per-file-target-soc]\n"**/a5/**" = "ascend950"')
    assert set(flagged(capsys=capsys)) == {A2_PATH}


def test_the_first_matching_glob_wins(project: Path, capsys) -> None:
    pyproject(
        project,
        '[tool.ascend-lint.per-file-target-soc]\n"**/a5/**" = "ascend910b"\n"pkg/**" = "ascend950"',
    )
    assert set(flagged(capsys=capsys)) == {A5_PATH}


def test_the_command_line_replaces_target_soc_but_not_per_file_target_soc(project: Path, capsys) -> None:
    pyproject(project, 'target-soc = "ascend950"\n[tool.ascend-lint.per-file-target-soc]\n"**/a5/**" = "ascend910b"')
    assert set(flagged(capsys=capsys)) == {A5_PATH}
    assert set(flagged("--target-soc", "ascend910b", capsys=capsys)) == {A2_PATH, A5_PATH}
    assert set(flagged("--isolated", "--target-soc", "ascend950", capsys=capsys)) == set()


def test_a_kernel_over_the_950_names_its_capacity(project: Path, capsys) -> None:
    write(project, A5_PATH, UB_KERNEL.replace("16384", "32768"))
    messages = flagged("--target-soc", "ascend950", capsys=capsys)
    assert set(messages) == {A5_PATH}
    assert "448 KiB of UB" in messages[A5_PATH]
    assert "over the 248 KiB the Ascend 950 has (target-soc `ascend950`)" in messages[A5_PATH]


def test_the_cache_keeps_results_per_soc(project: Path, capsys) -> None:
    cache = ["--cache-dir", str(project / "cache"), A2_PATH]
    assert set(flagged(*cache, capsys=capsys)) == {A2_PATH}
    assert set(flagged(*cache, "--target-soc", "ascend950", capsys=capsys)) == set()
    assert set(flagged(*cache, capsys=capsys)) == {A2_PATH}


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ('target-soc = "ascend999"', ["unknown SoC", "ascend999", "ascend950"]),
        ('target-soc = "Ascend950PR_9599"', ["unknown SoC", "Ascend950PR_9599"]),
        ("target-soc = 950", ["target-soc", "must be a string"]),
        ('[tool.ascend-lint.per-file-target-soc]\n"**/a5/**" = "a5"', ["unknown SoC", "'a5'", "**/a5/**"]),
        ('per-file-target-soc = "ascend950"', ["per-file-target-soc", "must map globs"]),
        ('[tool.ascend-lint.per-file-target-soc]\n"**/a5/**" = ["ascend950"]', ["per-file-target-soc"]),
    ],
)
def test_a_bad_soc_is_a_configuration_error(project: Path, capsys, table: str, words: list[str]) -> None:
    pyproject(project, table)
    code, findings, err = run(capsys=capsys)
    assert (code, findings) == (2, [])
    assert err.startswith("ascend-lint: error: ") and len(err.splitlines()) == 1, err
    for word in words:
        assert word in err


def test_an_unknown_soc_on_the_command_line_is_a_usage_error(project: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["check", "--target-soc", "ascend999"])
    assert exited.value.code == 2
    assert "--target-soc" in capsys.readouterr().err
