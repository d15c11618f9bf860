"""Layout that must not change a finding: the same code with a different statement layout.

An `if`, `else`, `for`, `while` or `with` whose body is one simple line can be written on one
line (`if FLAG: b += tl.load(p)`). The analyses walked only indented blocks, so a one-line
suite was code they never saw: findings were lost, and definitions under a flag were missed
(gaining findings). Each fixture, and each fla Ascend kernel file, is linted as written and with
every such body collapsed onto its header line; the findings (rule and message) must be the same.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import libcst as cst
import pytest
from conftest import CORPUS, FIXTURES, settings
from fla_corpus import fla_ascend_files

from ascend_lint.engine import lint_source

RUNTIME_FIXTURES = sorted((FIXTURES / "runtime").rglob("*.py"))


class OneLineSuites(cst.CSTTransformer):
    """Collapse every body that is one simple line onto its header line (a comment after the
    line stays after it; a comment on the header or a line of its own keeps the block)."""

    def _collapsed(self, body: cst.BaseSuite) -> cst.BaseSuite:
        if not isinstance(body, cst.IndentedBlock) or len(body.body) != 1 or body.header.comment or body.footer:
            return body
        line = body.body[0]
        if not isinstance(line, cst.SimpleStatementLine) or line.leading_lines:
            return body
        return cst.SimpleStatementSuite(line.body, trailing_whitespace=line.trailing_whitespace)

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        return updated.with_changes(body=self._collapsed(updated.body))

    def leave_Else(self, original: cst.Else, updated: cst.Else) -> cst.Else:
        return updated.with_changes(body=self._collapsed(updated.body))

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        return updated.with_changes(body=self._collapsed(updated.body))

    def leave_While(self, original: cst.While, updated: cst.While) -> cst.While:
        return updated.with_changes(body=self._collapsed(updated.body))

    def leave_With(self, original: cst.With, updated: cst.With) -> cst.With:
        return updated.with_changes(body=self._collapsed(updated.body))


def one_line_suites(code: str) -> str:
    return cst.parse_module(code).visit(OneLineSuites()).code


def findings(code: str, filename: str) -> Counter[tuple[str, str]]:
    """Each finding's rule and message, without the rows messages cite (`(line 836)`)."""
    result = lint_source(code, filename, settings())
    assert result.error is None, result.error
    return Counter((f.code, re.sub(r"\bline \d+", "line N", f.message)) for f in result.findings)


def assert_same_findings(path: Path) -> None:
    code = path.read_text(encoding="utf-8")
    collapsed = one_line_suites(code)
    if collapsed == code:
        pytest.skip("no body to collapse")
    compile(collapsed, str(path), "exec")
    assert findings(collapsed, str(path)) == findings(code, str(path))


def test_the_rewrite_collapses_a_body() -> None:
    assert one_line_suites("if F:\n    x = 1\nelse:\n    y = 2\n") == "if F: x = 1\nelse: y = 2\n"


@pytest.mark.parametrize("fixture", [*CORPUS, *RUNTIME_FIXTURES], ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_fixture_findings_do_not_depend_on_one_line_suites(fixture: Path) -> None:
    assert_same_findings(fixture)


def test_fla_findings_do_not_depend_on_one_line_suites() -> None:
    changed = 0
    for path in fla_ascend_files():
        code = path.read_text(encoding="utf-8")
        collapsed = one_line_suites(code)
        changed += collapsed != code
        assert findings(collapsed, str(path)) == findings(code, str(path)), path
    assert changed > 10
