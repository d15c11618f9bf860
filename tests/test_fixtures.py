"""The fixture corpus: every kernel file's findings match its `# expect: ASCxxx` markers exactly.

Files are linted with the real engine and default settings rooted at the repository (not
`target_all`), so which files count as Ascend code is decided the way a user's run decides it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, FIXTURES, REPO, expected_rows

from ascend_lint.config import Settings
from ascend_lint.engine import lint_file
from ascend_lint.registry import all_codes

RULE_FIXTURES = FIXTURES / "triton_ascend"


def rule_fixtures(code: str) -> list[Path]:
    """A rule's fixture files, found by name: `fixtures/triton_ascend/asc003_*.py` for ASC003."""
    return sorted(RULE_FIXTURES.glob(f"{code.lower()}_*.py"))


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


@pytest.mark.parametrize("code", all_codes())
def test_each_rule_has_fixtures_with_positives_of_its_own(code: str) -> None:
    files = rule_fixtures(code)
    assert files, f"{code} has no fixture file {RULE_FIXTURES.relative_to(REPO)}/{code.lower()}_<name>.py"
    for path in files:
        codes = {c for _, c in expected_rows(path.read_text(encoding="utf-8"), default_code=None)}
        assert codes == {code}, f"{path.name} marks {sorted(codes)}"


def test_every_rule_fixture_belongs_to_a_rule() -> None:
    """`ascNNN_*.py` files whose code no rule has: a renamed or removed rule left them behind."""
    named = {path.name.split("_")[0].upper() for path in RULE_FIXTURES.glob("asc*_*.py")}
    assert named <= set(all_codes())


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
