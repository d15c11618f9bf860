"""Layout that must not change a finding: the same code laid out another way.

An `if`, `else`, `for`, `while` or `with` whose body is one simple line can be written on one
line (`if FLAG: b += tl.load(p)`). The analyses walked only indented blocks, so a one-line
suite was code they never saw: findings were lost, and definitions under a flag were missed
(gaining findings). Each fixture, and each fla Ascend kernel file, is linted as written and with
every such body collapsed onto its header line; the findings (rule and message) must be the same.
Likewise with every `if` test in brackets and every `not` operand too (`if (FLAG):`,
`if not(FLAG):`, as authors from C write them): a test in brackets was keyed apart from the
same test without them, so two tests of one flag were not seen to exclude each other (false
ASC003 and ASC004 findings).
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


class BracketedTests(cst.CSTTransformer):
    """Put every `if` test, and every operand of `not`, in brackets."""

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        return updated.with_changes(test=_bracketed(updated.test), whitespace_before_test=cst.SimpleWhitespace(""))

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.UnaryOperation:
        if not isinstance(updated.operator, cst.Not):
            return updated
        return updated.with_changes(
            expression=_bracketed(updated.expression), operator=cst.Not(whitespace_after=cst.SimpleWhitespace(""))
        )


def _bracketed(test: cst.BaseExpression) -> cst.BaseExpression:
    return test if test.lpar else test.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def one_line_suites(code: str) -> str:
    return cst.parse_module(code).visit(OneLineSuites()).code


def bracketed_tests(code: str) -> str:
    return cst.parse_module(code).visit(BracketedTests()).code


REWRITES = {"one-line-suites": one_line_suites, "bracketed-tests": bracketed_tests}


def findings(code: str, filename: str, rewrite: str) -> Counter[tuple[str, str]]:
    """Each finding's rule and message, without the rows messages cite (`(line 836)`); its
    rule and row where the rewrite changes the code messages quote, not the rows."""
    result = lint_source(code, filename, settings())
    assert result.error is None, result.error
    if rewrite == "bracketed-tests":
        return Counter((f.code, str(f.location.row)) for f in result.findings)
    return Counter((f.code, re.sub(r"\bline \d+", "line N", f.message)) for f in result.findings)


def test_the_rewrites_lay_out_code_as_authors_do() -> None:
    assert one_line_suites("if F:\n    x = 1\nelse:\n    y = 2\n") == "if F: x = 1\nelse: y = 2\n"
    assert bracketed_tests("if not F:\n    x = 1\nelif G:\n    y = 2\n") == (
        "if(not(F)):\n    x = 1\nelif(G):\n    y = 2\n"
    )


def _rewritten_fixtures() -> list[tuple[Path, str, str]]:
    """(fixture, rewrite, rewritten code) for each fixture a rewrite changes."""
    found = []
    for fixture in [*CORPUS, *RUNTIME_FIXTURES]:
        code = fixture.read_text(encoding="utf-8")
        found += [(fixture, name, new) for name, rewrite in REWRITES.items() if (new := rewrite(code)) != code]
    return found


@pytest.mark.parametrize(
    ("fixture", "rewrite", "rewritten"),
    [pytest.param(*case, id=f"{case[0].relative_to(FIXTURES).as_posix()}-{case[1]}") for case in _rewritten_fixtures()],
)
def test_fixture_findings_do_not_depend_on_layout(fixture: Path, rewrite: str, rewritten: str) -> None:
    compile(rewritten, str(fixture), "exec")
    code = fixture.read_text(encoding="utf-8")
    assert findings(rewritten, str(fixture), rewrite) == findings(code, str(fixture), rewrite)


def test_the_rewrites_change_fixtures_of_every_rule() -> None:
    codes = {
        (rewrite, fixture.name[:6]) for fixture, rewrite, _ in _rewritten_fixtures() if fixture.name.startswith("asc")
    }
    assert {code for rewrite, code in codes if rewrite == "one-line-suites"} >= {"asc003", "asc004", "asc006"}
    assert {code for rewrite, code in codes if rewrite == "bracketed-tests"} >= {"asc003", "asc004", "asc005"}


@pytest.mark.parametrize("rewrite", REWRITES)
def test_fla_findings_do_not_depend_on_layout(rewrite: str) -> None:
    changed = 0
    for path in fla_ascend_files():
        code = path.read_text(encoding="utf-8")
        rewritten = REWRITES[rewrite](code)
        changed += rewritten != code
        assert findings(rewritten, str(path), rewrite) == findings(code, str(path), rewrite), path
    assert changed > 10
