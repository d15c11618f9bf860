"""Positions are right by construction: every range a finding reports and every fix edit starts
and ends on a token boundary of the ORIGINAL file, and they cover the same code, with the same
fixes, whatever the file's line breaks (\\n, \\r\\n, \\r), form feeds, tabs, BOM or identifiers.

Each fixture file is linted as written and in variants; a variant's findings, read back through
the variant's inverse, must be the plain file's, and so must its fixed text."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest
from conftest import FIXTURES, settings, snippet_source

from ascend_lint import positions
from ascend_lint.engine import lint_file, lint_source
from ascend_lint.fixer import fix_result
from ascend_lint.model import FileResult, LineIndex, Position
from ascend_lint.registry import all_rules
from ascend_lint.rule import Example

FILES = sorted(FIXTURES.rglob("*.py"))
INDENT = re.compile(r"(?m)^((?:    )+)")
TAB_INDENT = re.compile(r"(?m)^(\t+)")

# name -> (the variant of a text, the inverse that maps the variant's text back)
VARIANTS: dict[str, tuple[Callable[[str], str], Callable[[str], str]]] = {
    "lf": (lambda t: t, lambda t: t),
    "crlf": (lambda t: t.replace("\n", "\r\n"), lambda t: t.replace("\r\n", "\n")),
    "cr": (lambda t: t.replace("\n", "\r"), lambda t: t.replace("\r", "\n")),
    # a form feed opens every indented line: libcst 1.9 drops those that open a block's later lines
    "form-feeds": (lambda t: re.sub(r"(?m)^(?=[ \t])", "\f", t), lambda t: t.replace("\f", "")),
    # and inside the indentation: CPython counts the line's columns from it, libcst does not
    "form-feeds-inside": (lambda t: re.sub(r"(?m)^(?=[ \t])", "  \f", t), lambda t: t.replace("  \f", "")),
    "tabs": (
        lambda t: INDENT.sub(lambda m: "\t" * (len(m.group(1)) // 4), t),
        lambda t: TAB_INDENT.sub(lambda m: "    " * len(m.group(1)), t),
    ),
    "bom": (lambda t: "\ufeff" + t, lambda t: t),
    "non-ascii": (lambda t: re.sub(r"\bb_", "bé_", t), lambda t: t.replace("bé_", "b_")),
}


def token_boundaries(text: str) -> set[int]:
    """Offsets where a token of Python's tokenizer starts or ends (rows as CPython counts them)."""
    index = LineIndex(text)
    lines = index.lines()
    boundaries = set()
    for token in tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline):
        for row, column in (token.start, token.end):
            if row > len(lines):
                boundaries.add(len(text))
            elif column > len(lines[row - 1]):  # past the line's end: its line break, whatever its length
                boundaries.add(index.starts[row] if row < len(index.starts) else len(text))
            else:
                boundaries.add(index.starts[row - 1] + column)
    return boundaries


def ranges(result: FileResult) -> list[tuple[str, Position, Position]]:
    """Every range the result reports: findings, related locations, fix edits."""
    out = []
    for finding in result.findings:
        out.append(("finding", finding.location, finding.end_location))
        out.extend(("related", related.location, related.end_location) for related in finding.related)
        if finding.fix is not None:
            out.extend(("edit", edit.start, edit.end) for edit in finding.fix.edits)
    return out


def covered(result: FileResult, inverse: Callable[[str], str]) -> list[tuple[str, str]]:
    """What each range covers, read through `inverse`, whitespace collapsed."""
    assert result.source is not None
    index = LineIndex(result.source)
    return [
        (kind, " ".join(inverse(result.source[index.offset(start) : index.offset(end)]).split()))
        for kind, start, end in ranges(result)
    ]


def lint_variant(path: Path, variant: str, tmp_path: Path) -> FileResult:
    """Lints the variant of a fixture, written next to copies of its package's other modules in
    a folder named as the package's (a fixture may call a device function another module of its
    package defines, imported by a relative or an absolute name)."""
    forward, _ = VARIANTS[variant]
    folder = tmp_path
    if (path.parent / "__init__.py").exists():
        folder = tmp_path / path.parent.name
        folder.mkdir()
        for module in path.parent.glob("*.py"):
            (folder / module.name).write_bytes(module.read_bytes())
    copy = folder / path.name
    copy.write_bytes(forward(path.read_text(encoding="utf-8")).encode("utf-8"))
    return lint_file(str(copy), settings())


@pytest.fixture(scope="module")
def plain() -> dict[Path, FileResult]:
    return {path: lint_file(str(path), settings()) for path in FILES}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_ranges_sit_on_token_boundaries_and_cover_the_same_code(path, variant, plain, tmp_path) -> None:
    result = lint_variant(path, variant, tmp_path)
    assert result.error is None, result.error
    assert result.source is not None
    boundaries = token_boundaries(result.source)
    index = LineIndex(result.source)
    for kind, start, end in ranges(result):
        assert index.offset(start) in boundaries, (kind, start)
        assert index.offset(end) in boundaries, (kind, end)
    _, inverse = VARIANTS[variant]
    assert covered(result, inverse) == covered(plain[path], lambda t: t)


@pytest.mark.parametrize("variant", sorted(set(VARIANTS) - {"lf"}))
@pytest.mark.parametrize("path", [p for p in FILES if "triton_ascend" in p.parts], ids=lambda p: p.name)
def test_fixes_of_a_variant_are_the_variant_of_the_fixes(path, variant, tmp_path) -> None:
    config = settings()
    _, expected = fix_result(lint_file(str(path), config), config, unsafe=True)
    result, fixed = fix_result(lint_variant(path, variant, tmp_path), config, unsafe=True)
    assert result.error is None, result.error
    _, inverse = VARIANTS[variant]
    assert (inverse(fixed.fixed) if fixed else None) == (expected.fixed if expected else None)


def test_token_boundaries_are_those_of_the_original_text() -> None:
    """The oracle itself: rows end at \\r too, a form feed is a character of its line."""
    text = "a = 1\r\f  b = (2,\r  3)\n"
    boundaries = token_boundaries(text)
    assert {text.index("b"), text.index("2"), text.index("3") + 1} <= boundaries
    assert text.index("b") - 1 not in boundaries


KERNELS = (FIXTURES / "triton_ascend" / "clean_kernels.py").read_text(encoding="utf-8")
UB_CONSTANT = "\n_UB_BYTES = 196608\n"


@pytest.mark.parametrize(
    "text",
    [
        KERNELS * 8 + UB_CONSTANT + KERNELS * 8,  # between two top-level functions
        UB_CONSTANT.lstrip() + KERNELS * 8,  # before the first one
        KERNELS * 8 + "\nif True:\n    x = 1;" + UB_CONSTANT.lstrip(),  # in a block, after the last one
    ],
    ids=["between", "first", "last"],
)
def test_a_module_level_finding_is_positioned_without_parsing_the_whole_file(text, monkeypatch) -> None:
    """A node no function holds is looked for in the top-level statement holding it, from the
    row CPython's ast gives it in the text between the top-level functions around it: the same
    range as generating the whole module's code finds, with no `ast` parse of the whole file."""
    config = settings(timeout_per_file=None)
    monkeypatch.setattr(positions, "_look_at_top_level", lambda *args: set())
    whole = lint_source(text, "big.py", config)
    monkeypatch.undo()
    parsed: list[int] = []
    real_parse = ast.parse
    monkeypatch.setattr(
        ast, "parse", lambda source, *args, **kwargs: parsed.append(len(source)) or real_parse(source, *args, **kwargs)
    )
    result = lint_source(text, "big.py", config)
    assert result.error is None and result.findings == whole.findings
    [finding] = [f for f in result.findings if f.code == "ASC012"]
    at = text.index("196608")
    row, column = text[:at].count("\n") + 1, at - text.rfind("\n", 0, at)
    assert (finding.location, finding.end_location) == (Position(row, column), Position(row, column + 6))
    assert max(parsed) < len(text) / 4


@pytest.fixture
def whole_module_codegen(monkeypatch) -> list[cst.Module]:
    """The modules whose whole code the position pass generates from now on."""
    whole: list[cst.Module] = []
    real_generate = positions._generate

    def generate(root, *args, **kwargs):
        if isinstance(root, cst.Module):
            whole.append(root)
        return real_generate(root, *args, **kwargs)

    monkeypatch.setattr(positions, "_generate", generate)
    return whole


def test_no_fixture_finding_needs_the_whole_modules_code(whole_module_codegen) -> None:
    """Every report names the function holding its nodes (a kernel, or `within` for host code),
    or stands at the top level: generating the whole module's code, which at 5 MB costs more
    than the rest of the lint, is only the last resort."""
    needing = []
    for path in FILES:
        assert lint_file(str(path), settings()).error is None
        if whole_module_codegen:
            needing.append(path.name)
            whole_module_codegen.clear()
    assert needing == []


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.CODE)
def test_no_rule_example_needs_the_whole_modules_code(rule, whole_module_codegen) -> None:
    """The same for every rule's examples, whose related nodes may sit in a host function other
    than the one a report names (ASC004's evidence: a launch passing None)."""
    for example in (*rule.VALID, *rule.INVALID):
        source, _ = snippet_source(example.code if isinstance(example, Example) else example)
        assert lint_source(source, "example.py", settings()).error is None
    assert whole_module_codegen == []
