"""The editor server's incremental parser builds libcst's own tree and re-parses only edits."""

from __future__ import annotations

import pytest
from conftest import FIXTURES
from fla_corpus import fla_ascend_files

from ascend_lint import source as sources
from ascend_lint.incremental import IncrementalParser, statement_runs

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


def test_a_syntax_error_is_reported_as_by_a_whole_parse():
    parser = IncrementalParser()
    parser.parse("import a\n\nx = 1\n")
    with pytest.raises(sources.SourceError) as whole:
        sources.parse("import a\n\nx = (\n")
    with pytest.raises(sources.SourceError) as incremental:
        parser.parse("import a\n\nx = (\n")
    assert (str(incremental.value), incremental.value.location) == (str(whole.value), whole.value.location)
