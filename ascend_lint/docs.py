"""Documentation generated from the rule registry: `docs/rules.md` (what `ascend-lint rule
--all` prints) and the rules table of README.md. `python tests/regenerate.py` rewrites both
files; tests/test_docs.py fails when they drift from the rules."""

from __future__ import annotations

from .registry import all_rules

TABLE_START = "<!-- rules table: generated from the rules by `python tests/regenerate.py`; do not edit -->"
TABLE_END = "<!-- end of rules table -->"


def rules_page() -> str:
    """Every rule's documentation, in code order."""
    return "\n".join(rule.documentation() for rule in all_rules()) + "\n"


def rules_table() -> str:
    """A Markdown table of the rules: code, name, fix applicability, summary."""
    rows = ["| Code | Name | Fix | What it catches |", "|---|---|---|---|"]
    for rule in all_rules():
        summary = rule.SUMMARY.replace("|", "\\|")
        rows.append(f"| {rule.CODE} | `{rule.NAME}` | {rule.FIX or '—'} | {summary} |")
    return "\n".join(rows) + "\n"


def with_rules_table(readme: str) -> str:
    """`readme` with the text between the table markers replaced by `rules_table()`."""
    start = readme.index(TABLE_START) + len(TABLE_START)
    end = readme.index(TABLE_END, start)
    return f"{readme[:start]}\n{rules_table()}{readme[end:]}"
