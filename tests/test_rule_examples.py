"""Every rule's VALID/INVALID examples are its tests (fixit-style): nothing missing, nothing extra."""

from __future__ import annotations

import re

import pytest
from conftest import EXPECT, REPO, expected_rows, settings, snippet_source

from ascend_lint.engine import lint_source
from ascend_lint.fixer import fix_result
from ascend_lint.registry import all_rules
from ascend_lint.rule import Example

MARKER = re.compile(r"[ \t]*" + EXPECT.pattern)


def _code(example: str | Example) -> str:
    return example.code if isinstance(example, Example) else example


CASES = [
    pytest.param(rule, kind, index, _code(example), id=f"{rule.CODE}-{kind}-{index}")
    for rule in all_rules()
    for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for index, example in enumerate(examples)
]
FIX_CASES = [
    pytest.param(rule, example, id=f"{rule.CODE}-invalid-{index}")
    for rule in all_rules()
    for index, example in enumerate(rule.INVALID)
    if isinstance(example, Example) and example.fixed is not None
]


@pytest.mark.parametrize(("rule", "kind", "index", "code"), CASES)
def test_example(rule, kind, index, code):
    source, _ = snippet_source(code)
    expected = expected_rows(source, rule.CODE)
    if kind == "invalid":
        assert expected, "an INVALID example must mark at least one line with `# expect`"
    else:
        assert not expected, "a VALID example must not carry `# expect` markers"
    findings = lint_source(source, "snippet.py", settings(select=[rule.CODE])).findings
    found = {(f.location.row, f.code) for f in findings if f.code == rule.CODE}
    assert found == expected, f"missing: {sorted(expected - found)}; unexpected: {sorted(found - expected)}\n{source}"
    places = [(f.code, f.location, f.end_location) for f in findings]
    assert len(places) == len(set(places)), f"two findings of one rule in one place\n{source}"


def test_every_rule_module_defines_one_rule_with_its_own_code_and_name():
    """The registry finds rules by looking: a module whose class is not a `Rule` would be
    silently skipped, two rules in one module would break "one rule, one module"."""
    modules = sorted(path.stem for path in (REPO / "rules").glob("*.py") if path.stem != "__init__")
    assert sorted(rule.__module__.rpartition(".")[2] for rule in all_rules()) == modules
    for attribute in ("CODE", "NAME"):
        values = [getattr(rule, attribute) for rule in all_rules()]
        assert len(set(values)) == len(values), f"duplicate {attribute}: {values}"
    assert all(
        re.fullmatch(r"ASC\d{3}", rule.CODE) and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.NAME)
        for rule in all_rules()
    )


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.CODE)
def test_rule_is_documented(rule):
    doc = rule.documentation()
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert section in doc, f"{rule.CODE} documentation lacks {section!r}"
    if rule.FIX:
        assert "## Fix safety" in doc
    assert rule.VALID and rule.INVALID


# The words a reader of the editor's hover or `ascend-lint rule` meets before the example: a short
# statement; every recognised form, exception and measurement goes to `## Details`.
WHAT_IT_DOES_WORDS = 125
WHY_WORDS = 180
FIX_SAFETY_WORDS = 320  # the fix's contract in full goes to Details too


def section_words(doc: str, title: str) -> int:
    return len(doc.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0].split())


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.CODE)
def test_rule_documentation_is_short_before_its_details(rule):
    """ "What it does" and "Why is this bad?" stay short (they regrew to 3,000 words once);
    `## Details`, when there is one, is the last section, and `documentation(details=False)` is
    the documentation up to it."""
    doc = rule.documentation()
    assert section_words(doc, "What it does") <= WHAT_IT_DOES_WORDS, f"{rule.CODE}: move the catalogue to ## Details"
    assert section_words(doc, "Why is this bad?") <= WHY_WORDS, f"{rule.CODE}: move the catalogue to ## Details"
    if "## Fix safety" in doc:
        assert section_words(doc, "Fix safety") <= FIX_SAFETY_WORDS, f"{rule.CODE}: move the cases to ## Details"
    brief = rule.documentation(details=False)
    assert "## Details" not in brief
    if rule.has_details():
        titles = [line for line in doc.splitlines() if line.startswith("## ")]
        assert titles[-1] == "## Details" and titles.count("## Details") == 1
        assert doc.startswith(brief.rstrip("\n") + "\n\n## Details\n")
    else:
        assert brief == doc


@pytest.mark.parametrize(("rule", "example"), FIX_CASES)
def test_example_fix(rule, example):
    """The rule's fixes (unsafe ones too when the example says so) turn `code` into `fixed`."""
    source, _ = snippet_source(example.code)
    only_rule = settings(select=[rule.CODE])
    result, _ = fix_result(lint_source(source, "snippet.py", only_rule), only_rule, unsafe=example.unsafe_fixes)
    assert result.error is None, result.error
    assert _without_markers(result.source) == _without_markers(snippet_source(example.fixed)[0])


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.CODE)
def test_declared_fix_is_the_fix_the_rule_emits(rule):
    """`FIX` (what `rules`, the README and docs say) agrees with what the rule does: the
    applicability of every fix it emits on its INVALID examples, and an example of the fixed
    code exactly when it has a fix."""
    emitted = set()
    for example in rule.INVALID:
        source, _ = snippet_source(_code(example))
        findings = lint_source(source, "snippet.py", settings(select=[rule.CODE])).findings
        emitted |= {f.fix.applicability for f in findings if f.fix is not None}
    assert emitted == (set(rule.FIX.split("/")) if rule.FIX else set())
    shows_fixed_code = any(isinstance(e, Example) and e.fixed is not None for e in rule.INVALID)
    assert shows_fixed_code == bool(rule.FIX)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.CODE)
def test_a_rule_without_fixes_says_why_on_each_finding(rule):
    """A rule fixes (`FIX`) or says why it never does (`NO_FIX`): that reason is every
    finding's `no_fix_reason`."""
    assert bool(rule.FIX) != bool(rule.NO_FIX), rule.CODE
    if rule.FIX:
        return
    for example in rule.INVALID:
        source, _ = snippet_source(_code(example))
        findings = lint_source(source, "snippet.py", settings(select=[rule.CODE])).findings
        assert findings and all(f.no_fix_reason == rule.NO_FIX for f in findings), rule.CODE


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.CODE)
def test_a_rule_confirm_cannot_decide_says_why(rule):
    """A rule declares how `confirm` decides its findings (`CONFIRM`) or says in one line why
    replaying cannot (`NO_CONFIRM`): that line is the reason of each of its INCONCLUSIVE verdicts."""
    assert (rule.CONFIRM is None) == bool(rule.NO_CONFIRM), rule.CODE
    assert "\n" not in (rule.NO_CONFIRM or ""), rule.CODE


def _without_markers(source: str) -> str:
    """The text without `# expect` markers (they stay behind as comments in the fixed code)."""
    return "\n".join(MARKER.sub("", line) for line in source.split("\n"))
