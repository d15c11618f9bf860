"""The editor server's incremental parser builds libcst's own tree and re-parses only edits;
the kernels an edit did not touch keep their facts, and a re-lint reports what a fresh one does."""

from __future__ import annotations

import pytest
from conftest import CORPUS, FIXTURES, HEADER
from fla_corpus import fla_ascend_files

from ascend_lint import source as sources
from ascend_lint.config import Settings
from ascend_lint.engine import DocumentMemory, lint_source
from ascend_lint.imports import ImportMap
from ascend_lint.incremental import IncrementalParser, statement_runs
from ascend_lint.kernels import Kernel, KernelMemory, find_kernels
from ascend_lint.model import FileResult

EDGE_CASES = {
    "indented comment after a block": "def f():\n    x = 1\n\n    # end of f\n\n# next\ny = 2\n",
    "comments between statements": "# head\n\nimport a\n\n\n# about b\ndef b():\n    pass\n# tail\n",
    "statements sharing a line": "import a; import b\nx = 1; y = 2\n",
    "decorators and a comment between them": "@d1\n# why\n@d2(\n    1)\ndef f():\n    pass\n\n\nx = 1\n",
    "no trailing newline": "import a\n\ndef f():\n    return a",
    "crlf": "import a\r\n\r\ndef f():\r\n    return a\r\n\r\nx = 1\r\n",
    "mixed line endings": "import a\n\ndef f():\r\n    return a\r\n\nx = 1\n",
    "indentation differs between runs": "def f():\n  return 1\n\n\ndef g():\n    return 2\n",
    "tabs": "def f():\n\treturn 1\n\n\ndef g():\n\treturn 2\n",
    "whitespace-only gap line": "def f():\n    pass\n    \nx = 1\n",
    "one-line suites and else": "if a: b = 1\nelse:\n    b = 2\n\nfor i in x: pass\n\ntry:\n    pass\nexcept E:\n    pass\n",
    "backslash continuation": "x = 1 + \\\n    2\n\ny = 3\n",
    "coding cookie": "# -*- coding: latin-1 -*-\nimport a\n\nx = 1\n",
    "form feed": "import a\n\x0c\ndef f():\n    pass\n",
}


@pytest.mark.parametrize("text", EDGE_CASES.values(), ids=EDGE_CASES.keys())
def test_edge_cases_parse_to_libcsts_tree(text: str):
    module = IncrementalParser().parse(text)
    assert module.code == text
    assert module.deep_equals(sources.parse(text))


def _assert_same_trees(paths) -> None:
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert IncrementalParser().parse(text).deep_equals(sources.parse(text)), path


def test_fixtures_parse_to_libcsts_tree():
    _assert_same_trees(sorted(FIXTURES.rglob("*.py")))


@pytest.mark.network
def test_fla_ascend_files_parse_to_libcsts_tree():
    _assert_same_trees(fla_ascend_files())


def test_an_edit_reparses_only_the_statements_it_touches():
    text = (FIXTURES / "triton_ascend" / "asc003_dot_lhs_reuse.py").read_text(encoding="utf-8")
    runs = statement_runs(text)
    assert runs is not None and len(runs) > 3
    parser = IncrementalParser()
    before = parser.parse(text)
    edited_run = len(runs) // 2
    edited = "".join(run + ("# edited\n" if index == edited_run else "") for index, run in enumerate(runs))
    after = parser.parse(edited)
    assert after.deep_equals(sources.parse(edited))
    kept = [a is b for a, b in zip(before.body, after.body, strict=True)]
    assert kept.count(False) == 1  # only the statement whose run changed is a new node


def test_a_statement_written_twice_is_two_nodes():
    """Runs are kept by their text, but a text met twice in one document is parsed twice: the
    analysis keys facts and positions by node, so a node must stand once in the tree."""
    kernel = (FIXTURES / "triton_ascend" / "asc003_dot_lhs_reuse.py").read_text(encoding="utf-8")
    twice = f"{kernel}\n\n{kernel}"
    parser = IncrementalParser()
    for text in (twice, twice + "\n# edited\n"):
        module = parser.parse(text)
        assert module.deep_equals(sources.parse(text))
        assert len({id(statement) for statement in module.body}) == len(module.body)
    memory = DocumentMemory.empty()
    kept = lint_source(twice, "k.py", SETTINGS, check_target=False, memory=memory)
    fresh = lint_source(twice, "k.py", SETTINGS, check_target=False)
    assert kept.findings == fresh.findings
    assert len(fresh.findings) == 2 * len(lint_source(kernel, "k.py", SETTINGS, check_target=False).findings) > 0


def test_a_syntax_error_is_reported_as_by_a_whole_parse():
    parser = IncrementalParser()
    parser.parse("import a\n\nx = 1\n")
    with pytest.raises(sources.SourceError) as whole:
        sources.parse("import a\n\nx = (\n")
    with pytest.raises(sources.SourceError) as incremental:
        parser.parse("import a\n\nx = (\n")
    assert (str(incremental.value), incremental.value.location) == (str(whole.value), whole.value.location)


# ---- the kernels a re-lint keeps (the server's KernelMemory) ------------------------------------


SETTINGS = Settings(root=FIXTURES)


def _relint(memory: DocumentMemory, text: str) -> FileResult:
    return lint_source(text, "k.py", SETTINGS, check_target=False, memory=memory)


def _same_result(kept: FileResult, fresh: FileResult) -> bool:
    errors = [r.error and (r.error.message, r.error.location) for r in (kept, fresh)]
    return kept.findings == fresh.findings and errors[0] == errors[1]


def _edits(text: str) -> list[str]:
    """The text with one of its lines duplicated, deleted, or followed by a comment, at a few
    places (some of them syntax errors), then the text itself again."""
    lines = text.splitlines(keepends=True)
    texts = []
    for at in range(3, len(lines), max(len(lines) // 5, 1)):
        texts.append("".join([*lines[:at], lines[at], *lines[at:]]))
        texts.append("".join([*lines[:at], *lines[at + 1 :]]))
        texts.append("".join([*lines[:at], "# edited\n", *lines[at:]]))
    return [*texts, text]


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_a_relint_keeping_kernels_reports_what_a_fresh_lint_reports(path):
    text = path.read_text(encoding="utf-8")
    memory = DocumentMemory.empty()
    for edited in [text, *_edits(text)]:
        kept = _relint(memory, edited)
        fresh = lint_source(edited, "k.py", SETTINGS, check_target=False)
        assert _same_result(kept, fresh), edited


KERNELS = (
    HEADER
    + """
@triton.jit
def first(x, N: tl.constexpr):
    tl.store(x + tl.arange(0, N), tl.load(x + tl.arange(0, N)) * 2)


@triton.jit
def second(x, N: tl.constexpr):
    tl.store(x + tl.arange(0, N), tl.load(x + tl.arange(0, N)) + 1)
"""
)


def _kernels(parser: IncrementalParser, memory: KernelMemory, text: str) -> dict[str, Kernel]:
    module = parser.parse(text)
    return {kernel.name: kernel for kernel in find_kernels(module, ImportMap(module, text), memory)}


def test_an_edit_keeps_the_kernels_it_did_not_touch():
    parser, memory = IncrementalParser(), KernelMemory()
    before = _kernels(parser, memory, KERNELS)
    after = _kernels(parser, memory, KERNELS.replace("* 2)", "* 3)"))
    assert after["second"] is before["second"]
    assert after["first"] is not before["first"]


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(lambda text: text.replace("import triton.language as tl", "import numpy as tl"), id="tl rebound"),
        pytest.param(lambda text: text + "\n\ndef host(x):\n    second(x, 4)\n", id="now called"),
    ],
)
def test_an_edit_elsewhere_that_changes_what_a_kernel_is_keeps_nothing(edit):
    parser, memory = IncrementalParser(), KernelMemory()
    before = _kernels(parser, memory, KERNELS)
    after = _kernels(parser, memory, edit(KERNELS))
    assert "second" not in after or after["second"] is not before["second"]
