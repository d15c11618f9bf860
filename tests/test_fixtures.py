"""The fixture corpus: every kernel file's findings match its `# expect: ASCxxx` markers exactly.

Files are linted with the real engine and default settings rooted at the repository (not
`target_all`), so which files count as Ascend code is decided the way a user's run decides it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES, REPO, expected_rows

from ascend_lint.config import Settings
from ascend_lint.engine import lint_file

# fixtures/runtime/ belongs to the replay tests (`confirm`) and carries no markers.
CORPUS = sorted(path for folder in ("triton_ascend", "cuda", "example") for path in (FIXTURES / folder).rglob("*.py"))
RULE_FILES = {
    "ASC001": "asc001_launch_num_warps.py",
    "ASC002": "asc002_constexpr_to.py",
    "ASC003": "asc003_dot_lhs_reuse.py",
    "ASC004": "asc004_or_constexpr_optional_pointer.py",
    "ASC005": "asc005_runtime_dma_branch.py",
    "ASC006": "asc006_task_loop_pointer_accumulation.py",
}


def lint(path: Path, **overrides):
    result = lint_file(str(path), Settings(root=REPO, **overrides))
    assert result.error is None, result.error
    return result


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_findings_match_markers(path: Path) -> None:
    expected = expected_rows(path.read_text(encoding="utf-8"), default_code=None)
    found = {(f.location.row, f.code) for f in lint(path).findings}
    missing, extra = sorted(expected - found), sorted(found - expected)
    assert not missing and not extra, f"missing: {missing}; unexpected: {extra}"


@pytest.mark.parametrize("code", sorted(RULE_FILES))
def test_each_rule_has_a_fixture_with_positives(code: str) -> None:
    path = FIXTURES / "triton_ascend" / RULE_FILES[code]
    codes = {c for _, c in expected_rows(path.read_text(encoding="utf-8"), default_code=None)}
    assert codes == {code}


def test_clean_module_is_linted_and_clean() -> None:
    result = lint(FIXTURES / "triton_ascend" / "clean_kernels.py")
    assert result.checked and result.findings == []


def test_cuda_kernel_is_skipped_only_because_of_its_path() -> None:
    path = FIXTURES / "cuda" / "chunk_o_cuda.py"
    by_default = lint(path)
    assert not by_default.checked and by_default.findings == []
    # the same file does hold Ascend traps: linting it anyway reports them
    codes = {f.code for f in lint(path, target_all=True).findings}
    assert {"ASC001", "ASC002", "ASC003"} <= codes


def test_example_for_the_quick_start_reports_three_rules() -> None:
    path = FIXTURES / "example" / "triton_ascend" / "chunk_o_example.py"
    assert {f.code for f in lint(path).findings} >= {"ASC001", "ASC002", "ASC003"}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_messages_are_single_lines(path: Path) -> None:
    # e.g. ASC004 quotes the test of a parenthesised multi-line `if` (with a comment inside)
    for finding in lint(path, target_all=True).findings:
        assert "\n" not in finding.message and "#" not in finding.message, finding.message
