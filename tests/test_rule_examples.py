"""Every rule's VALID/INVALID examples are its tests (fixit-style): nothing missing, nothing extra."""

from __future__ import annotations

import pytest

from ascend_lint.registry import all_rules
from conftest import expected_rows, found_rows, snippet_source

CASES = [
    pytest.param(rule, kind, index, code, id=f"{rule.CODE}-{kind}-{index}")
    for rule in all_rules()
    for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for index, code in enumerate(examples)
]


@pytest.mark.parametrize(("rule", "kind", "index", "code"), CASES)
def test_example(rule, kind, index, code):
    source, _ = snippet_source(code)
    expected = expected_rows(source, rule.CODE)
    if kind == "invalid":
        assert expected, "an INVALID example must mark at least one line with `# expect`"
    else:
        assert not expected, "a VALID example must not carry `# expect` markers"
    found = {(row, c) for row, c in found_rows(source, select=[rule.CODE]) if c == rule.CODE}
    assert found == expected, f"missing: {sorted(expected - found)}; unexpected: {sorted(found - expected)}\n{source}"


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.CODE)
def test_rule_is_documented(rule):
    doc = rule.documentation()
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert section in doc, f"{rule.CODE} documentation lacks {section!r}"
    if rule.FIX:
        assert "## Fix safety" in doc
    assert rule.VALID and rule.INVALID
