"""The published rule documentation and the links to it."""

from __future__ import annotations

from conftest import REPO

from ascend_lint.registry import all_rules
from ascend_lint.rule import heading, heading_anchor


def test_rule_links_point_at_the_rule_headings_of_docs_rules_md() -> None:
    """SARIF `helpUri` and rdjson `code.url` end in `#<anchor>`: the anchor GitHub gives the
    rule's heading in docs/rules.md."""
    titles = {
        line[2:] for line in (REPO / "docs" / "rules.md").read_text(encoding="utf-8").splitlines() if line[:2] == "# "
    }
    assert {heading(rule.CODE, rule.NAME) for rule in all_rules()} <= titles
    # GitHub's anchors for two of those headings, as github.com renders docs/rules.md
    assert heading_anchor("ASC001", "launch-num-warps") == "launch-num-warps-asc001"
    assert heading_anchor("ASC004", "or-constexpr-optional-pointer") == "or-constexpr-optional-pointer-asc004"
