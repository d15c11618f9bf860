"""The editor server's incremental parser builds libcst's own tree and re-parses only edits;
the kernels an edit did not touch keep their facts, and a re-lint reports what a fresh one does."""

from __future__ import annotations

import ast
from itertools import accumulate

import pytest
from conftest import CORPUS, FIXTURES, HEADER
from fla_corpus import fla_ascend_files
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_lint import source as sources
from ascend_lint.config import Settings
from ascend_lint.engine import DocumentMemory, lint_source
from ascend_lint.imports import ImportMap
from ascend_lint.incremental import IncrementalParser, runs_around_edits, statement_runs
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


# ---- the runs of an edited text, found around the edits ----------------------------------------

_INSERTED = [
    "# note\n",
    "    # indented note\n",
    "\n",
    "    \n",
    "x = 1\n",
    "def g():\n",
    "    pass\n",
    '"""\n',
    "\f\n",
]


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(CORPUS[:12]),
    st.lists(
        st.tuples(
            st.booleans(), st.floats(0, 1), st.sampled_from(["delete", "repeat", "insert"]), st.sampled_from(_INSERTED)
        ),
        max_size=6,
    ),
)
def test_the_runs_around_edits_are_the_runs_of_the_whole_text(path, edits) -> None:
    """Each edit of a sequence (some of them at the first line of a run) is parsed as a whole
    parse does, and the runs kept around the edits are those a cut of the whole text finds."""
    text = path.read_text(encoding="utf-8")
    parser, previous = IncrementalParser(), statement_runs(text)
    parser.parse(text)
    for at_a_run, where, kind, line in edits:
        lines = text.splitlines(keepends=True)
        firsts = list(accumulate((run.count("\n") for run in previous or []), initial=0))
        at = firsts[int(where * (len(firsts) - 1))] if at_a_run else int(where * len(lines))
        if kind == "delete":
            lines[at : at + 1] = []
        else:
            lines[at:at] = [lines[at] if kind == "repeat" and at < len(lines) else line]
        text = "".join(lines)
        try:
            expected = sources.parse(text)
        except sources.SourceError:
            with pytest.raises(sources.SourceError):
                parser.parse(text)
        else:
            module = parser.parse(text)
            assert module.code == expected.code  # not always the text: libcst drops some form feeds
            assert module.deep_equals(expected)
        runs = runs_around_edits(previous or [], text)
        assert runs is None or runs == statement_runs(text)
        previous = statement_runs(text)


def test_after_an_edit_cpython_parses_only_the_edited_run(monkeypatch) -> None:
    text = (FIXTURES / "triton_ascend" / "asc003_dot_lhs_reuse.py").read_text(encoding="utf-8")
    runs = statement_runs(text)
    assert runs is not None and len(runs) > 3
    parser = IncrementalParser()
    parser.parse(text)
    edited_run = runs[len(runs) // 2].replace("(", "( ", 1)
    parsed: list[str] = []
    whole_parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda source, *args, **kwargs: parsed.append(source) or whole_parse(source))
    edited = "".join([*runs[: len(runs) // 2], edited_run, *runs[len(runs) // 2 + 1 :]])
    assert parser.parse(edited).deep_equals(sources.parse(edited))
    assert parsed == [edited_run]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("    # header\nimport a\n\nx = 1\n", "y = 2\n    # header\nimport a\n\nx = 1\n"),
        ("import a\n\nx = 1\n    # trailing\n", "import a\n\nx = 1\n    # trailing\ny = 2\n"),
        ("import a\n\ndef f():\n    pass\n", "import a\n    # indented\ny = 1\n\ndef f():\n    pass\n"),
        (
            "import a\n\ndef f():\n    pass\n\n\nx = 1\n",
            "import a\n\ndef f():\n    return 1\n    # tail of f\n\n\nx = 1\n",
        ),
    ],
    ids=[
        "the first run is not first any more",
        "the last run is not last any more",
        "indented lines open a stretch",
        "indented lines close a stretch",
    ],
)
def test_runs_kept_only_where_they_may_stand(before: str, after: str) -> None:
    previous = statement_runs(before)
    assert previous is not None and len(previous) >= 2
    assert runs_around_edits(previous, after) in (None, statement_runs(after))


def test_an_edit_in_one_run_is_cut_around_it() -> None:
    text = (FIXTURES / "triton_ascend" / "asc003_dot_lhs_reuse.py").read_text(encoding="utf-8")
    runs = statement_runs(text)
    assert runs is not None and len(runs) > 3
    middle = len(runs) // 2
    edited = [*runs[:middle], runs[middle].replace("\n", "\n# edited\n", 2), *runs[middle + 1 :]]
    assert runs_around_edits(runs, "".join(edited)) == statement_runs("".join(edited)) != runs
    assert runs_around_edits(runs, "".join([*runs[:middle], *runs[middle + 1 :]])) == [
        *runs[:middle],
        *runs[middle + 1 :],
    ]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("import a\n\nx = 1\n\ny = 2\n", "import a\n\nx = 1\n# was y\n"),
        ("import a\n\nx = 1\n\ny = 2\n", "import a\n# about x\n\nx = 1\n\ny = 2\n"),
        ("import a\n\nx = 1\n\ny = 2\n", "# header\nimport a\n\nx = 1\n\ny = 2\n"),
        ("import a\n\nx = 1\n\ny = 2\n", "import a\n\nz = 0\n\n# about x\nx = 1\n\ny = 2\n"),
    ],
    ids=["comments in place of the last run", "a comment after a run", "a new header", "a statement and a comment"],
)
def test_stretches_of_comments_join_the_runs_around_them(before: str, after: str) -> None:
    previous = statement_runs(before)
    assert previous is not None
    assert runs_around_edits(previous, after) == statement_runs(after)
