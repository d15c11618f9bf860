"""Documentation generated from the rule registry: `docs/rules.md` (what `ascend-lint rule
--all` prints), and in README.md the rules table and the sentence naming the `perf` group's
rules. `python tests/regenerate.py` rewrites both files; tests/test_docs.py fails when they
drift from the rules."""

from __future__ import annotations

import re

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


# README's sentence naming a group's rules: "ASC009, ASC011 and ASC012 form the `perf` group"
_GROUP_SENTENCE = re.compile(r"(?:ASC\d{3}, )*ASC\d{3}(?: and ASC\d{3})? forms? the `(?P<group>[a-z]+)` group")


def group_sentence(group: str) -> str:
    """The rules of `group` in code order, as README names them: "ASC009, ASC011 and ASC012
    form the `perf` group"."""
    codes = [rule.CODE for rule in all_rules() if group == rule.GROUP]
    if not codes:
        raise ValueError(f"no rule is in the {group!r} group")
    if len(codes) == 1:
        return f"{codes[0]} forms the `{group}` group"
    return f"{', '.join(codes[:-1])} and {codes[-1]} form the `{group}` group"


def group_sentences(readme: str) -> list[str]:
    """The sentences of `readme` naming a group's rules, as written."""
    return [match[0] for match in _GROUP_SENTENCE.finditer(readme)]


def with_rules_table(readme: str) -> str:
    """`readme` with the text between the table markers replaced by `rules_table()`."""
    start = readme.index(TABLE_START) + len(TABLE_START)
    end = readme.index(TABLE_END, start)
    return f"{readme[:start]}\n{rules_table()}{readme[end:]}"


def with_group_sentences(readme: str) -> str:
    """`readme` with each sentence naming a group's rules naming the rules the group has now
    (`group_sentence`): a new `perf` rule joins the sentence."""
    return _GROUP_SENTENCE.sub(lambda sentence: group_sentence(sentence["group"]), readme)
