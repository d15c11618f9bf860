"""Layout that must not change a finding: the same code laid out another way.

An `if`, `else`, `for`, `while` or `with` whose body is one simple line can be written on one
line (`if FLAG: b += tl.load(p)`). The analyses walked only indented blocks, so a one-line
suite was code they never saw: findings were lost, and definitions under a flag were missed
(gaining findings). Each fixture, and each fla Ascend kernel file, is linted as written and with
every such body collapsed onto its header line; the findings (rule and message) must be the same.
Likewise with every `if` test in brackets and every `not` operand too (`if (FLAG):`,
`if not(FLAG):`, as authors from C write them): a test in brackets was keyed apart from the
same test without them, so two tests of one flag were not seen to exclude each other (false
ASC003 and ASC004 findings). Likewise with the consecutive simple statements of host functions
joined with `;` (`y = torch.empty_like(x); grid = (NT, B * H)`): the host analyses took a line
for one statement, so a grid bound beside another statement was not the binding reaching its
launch (lost ASC010 findings), and an `assert` beside a launch guarded nothing (a false one).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import TypeGuard

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


class JoinedHostStatements(cst.CSTTransformer):
    """Join each run of consecutive simple lines of a host function (not a kernel) onto one line
    with `;`, but for a line with a comment or a blank line of its own (a `# noqa` or a
    comment stays on its line)."""

    def __init__(self) -> None:
        super().__init__()
        self.kernels: list[bool] = []  # for each function around, whether it is a kernel

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        code = cst.Module([]).code_for_node
        self.kernels.append(any("jit" in code(decorator) for decorator in node.decorators))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.kernels.pop()
        return updated

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        if not self.kernels or any(self.kernels):
            return updated
        lines: list[cst.BaseStatement] = []
        for line in updated.body:
            last = lines[-1] if lines else None
            if _uncommented(last) and _uncommented(line) and not line.leading_lines:
                *before, end = last.body
                semicolon = cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))
                lines[-1] = last.with_changes(body=[*before, end.with_changes(semicolon=semicolon), *line.body])
            else:
                lines.append(line)
        return updated.with_changes(body=lines)


def _uncommented(line: cst.BaseStatement | None) -> TypeGuard[cst.SimpleStatementLine]:
    """A simple line with no comment after it."""
    return isinstance(line, cst.SimpleStatementLine) and line.trailing_whitespace.comment is None


def _bracketed(test: cst.BaseExpression) -> cst.BaseExpression:
    return test if test.lpar else test.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def one_line_suites(code: str) -> str:
    return cst.parse_module(code).visit(OneLineSuites()).code


def bracketed_tests(code: str) -> str:
    return cst.parse_module(code).visit(BracketedTests()).code


def joined_host_statements(code: str) -> str:
    return cst.parse_module(code).visit(JoinedHostStatements()).code


REWRITES = {
    "one-line-suites": one_line_suites,
    "bracketed-tests": bracketed_tests,
    "joined-host-statements": joined_host_statements,
}


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
    host = "def f(x):\n    n = len(x)\n    g = (n,)\n    k[g](x)  # noqa\n    m = 1\n\n    return m\n"
    assert joined_host_statements(host) == (
        "def f(x):\n    n = len(x); g = (n,)\n    k[g](x)  # noqa\n    m = 1\n\n    return m\n"
    )
    kernel = "@triton.jit\ndef k(x):\n    i = 1\n    j = 2\n"
    assert joined_host_statements(kernel) == kernel


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
    assert {code for rewrite, code in codes if rewrite == "joined-host-statements"} >= {"asc001", "asc009", "asc010"}


@pytest.mark.parametrize("rewrite", REWRITES)
def test_fla_findings_do_not_depend_on_layout(rewrite: str) -> None:
    changed = 0
    for path in fla_ascend_files():
        code = path.read_text(encoding="utf-8")
        rewritten = REWRITES[rewrite](code)
        changed += rewritten != code
        assert findings(rewritten, str(path), rewrite) == findings(code, str(path), rewrite), path
    assert changed > 10
