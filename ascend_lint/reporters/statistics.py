"""`check --statistics`: the number of findings per rule instead of the findings, as ruff prints it.

Text (`text`, `full`, `concise`): one row per rule, most frequent first (then by code),
`{count}\\t{code}\\t[*] {name}` with the count right-aligned and the code padded; the `[*]`/`[ ]`
column says whether the rule's findings have a fix this run's options apply (safe fixes, and
unsafe ones with `--unsafe-fixes`) and appears only when some row has one; the summary follows.
JSON: `[{"code", "name", "count", "fixable", "fixable_count"}]`. A file that could not be linted
is a row with no code (`null` in JSON), named as in the JSON output (`invalid-syntax`,
`lint-error`). Other formats have no statistics form (an error, as in ruff).
"""

from __future__ import annotations

import json
from collections import Counter

from ..model import FileResult
from . import shared

FORMATS = ("text", "full", "concise", "json")


def rows(results: list[FileResult], unsafe_fixes: bool) -> list[dict[str, object]]:
    """Per rule (and per kind of file error): code, name, count and how many a fix applies to."""
    counts: Counter[tuple[str | None, str]] = Counter()
    fixable: Counter[tuple[str | None, str]] = Counter()
    for result in results:
        if result.error is not None:
            counts[None, shared.error_name(result.error)] += 1
        for finding in result.findings:
            counts[finding.code, finding.name] += 1
            if finding.fix is not None and (unsafe_fixes or finding.fix.applicability == "safe"):
                fixable[finding.code, finding.name] += 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0] or "", item[0][1]))
    return [
        {
            "code": code,
            "name": name,
            "count": count,
            "fixable": fixable[code, name] > 0,
            "fixable_count": fixable[code, name],
        }
        for (code, name), count in ordered
    ]


def render_statistics(fmt: str, results: list[FileResult], unsafe_fixes: bool) -> str:
    table = rows(results, unsafe_fixes)
    if fmt == "json":
        return json.dumps(table, indent=2) + "\n"
    from .text import summary

    out = []
    if table:
        count_width = max(len(str(row["count"])) for row in table)
        code_width = max(len(str(row["code"] or "")) for row in table)
        marked = any(row["fixable"] for row in table)
        for row in table:
            marker = ("[*] " if row["fixable"] else "[ ] ") if marked else ""
            out.append(f"{row['count']:>{count_width}}\t{row['code'] or '':<{code_width}}\t{marker}{row['name']}")
    out.append(summary(results, listed=False))
    return "\n".join(out) + "\n"
