"""The documentation generated from the rules stays in sync with them, and links to it work."""

from __future__ import annotations

import inspect
import re

from conftest import REPO
from snapshot import REGENERATE

from ascend_lint.docs import (
    TABLE_END,
    TABLE_START,
    group_sentence,
    group_sentences,
    rules_page,
    rules_table,
    with_group_sentences,
    with_rules_table,
)
from ascend_lint.registry import all_rules
from ascend_lint.rule import Rule, heading, heading_anchor


def test_docs_rules_md_is_the_rule_documentation() -> None:
    published = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert published == rules_page(), f"docs/rules.md is out of date: run `{REGENERATE}`"


def test_the_contract_names_every_rule_attribute() -> None:
    """docs/CONTRACT.md is what tools built on ascend-lint read: each class attribute a rule
    declares (`CODE`, `NO_EFFECT`, ...) is in its list of them, as in CONTRIBUTING's."""
    contract = (REPO / "docs" / "CONTRACT.md").read_text(encoding="utf-8")
    declared = {name for name in inspect.get_annotations(Rule) if name.isupper()}
    assert {"CODE", "NO_CONFIRM", "NO_EFFECT"} <= declared
    for name in sorted(declared):
        assert f"`{name}`" in contract, f"docs/CONTRACT.md does not name Rule.{name}"


def test_readme_rules_table_lists_every_rule() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme == with_rules_table(readme), f"the rules table in README.md is out of date: run `{REGENERATE}`"
    table = readme[readme.index(TABLE_START) : readme.index(TABLE_END)]
    for rule in all_rules():
        assert f"| {rule.CODE} | `{rule.NAME}` | {rule.FIX or '—'} |" in table


def test_readme_names_the_rules_of_the_perf_group() -> None:
    """ "ASC009, ASC011 and ASC012 form the `perf` group": generated, so a new `GROUP = "perf"`
    rule joins it when the docs are regenerated."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme == with_group_sentences(readme), f"the `perf` group in README.md is out of date: run `{REGENERATE}`"
    perf = [rule.CODE for rule in all_rules() if rule.GROUP == "perf"]
    assert group_sentences(readme) == [group_sentence("perf")]
    assert all(code in group_sentence("perf") for code in perf) and len(perf) >= 3


def test_the_table_escapes_what_markdown_would_read_as_a_column() -> None:
    for line in rules_table().splitlines():
        assert line.replace("\\|", "").count("|") == 5, line


def test_rule_links_point_at_the_rule_headings_of_docs_rules_md() -> None:
    """SARIF `helpUri` and rdjson `code.url` end in `#<anchor>`: the anchor GitHub gives the
    rule's heading in docs/rules.md."""
    lines = (REPO / "docs" / "rules.md").read_text(encoding="utf-8").splitlines()
    titles = {line[2:] for line in lines if line[:2] == "# "}
    assert {heading(rule.CODE, rule.NAME) for rule in all_rules()} <= titles
    # GitHub's anchors for two of those headings, as github.com renders docs/rules.md
    assert heading_anchor("ASC001", "launch-num-warps") == "launch-num-warps-asc001"
    assert heading_anchor("ASC004", "or-constexpr-optional-pointer") == "or-constexpr-optional-pointer-asc004"


def test_the_prefilter_table_names_each_rules_required_tokens() -> None:
    """docs/performance.md's prefilter table: per rule it lists, the words in backticks are the
    tokens the rule requires (`Rule.required_tokens`), no more and no fewer. (A new rule needs no
    row: adding one is a rule module and fixtures.)"""
    text = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    rows = {
        cells[1].strip(): set(re.findall(r"`([^`]+)`", cells[2]))
        for cells in (line.split("|") for line in text.splitlines())
        if len(cells) == 4 and re.fullmatch(r" ASC\d{3} ", cells[1])
    }
    required = {rule.CODE: {token for group in rule.required_tokens() for token in group} for rule in all_rules()}
    assert len(rows) >= 13
    assert rows == {code: required[code] for code in rows}


def test_no_merge_conflict_markers_are_committed() -> None:
    """A merge resolved in a hurry can leave `<<<<<<<` / `>>>>>>>` lines in a document."""
    tracked = [*REPO.glob("*.md"), *REPO.glob("docs/*.md"), *REPO.glob("ascend_lint/**/*.py"), *REPO.glob("rules/*.py")]
    marked = [
        f"{path.relative_to(REPO)}:{number}"
        for path in tracked
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"(<{7}|>{7}) ", line)
    ]
    assert marked == []
