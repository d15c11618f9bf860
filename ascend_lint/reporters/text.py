"""Human-readable output: `path:row:col: CODE [name] message`, with a source excerpt."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..config import SKIP_DETAIL, SKIP_EXCLUDED, SKIP_NOT_ASCEND, Settings
from ..engine import display_paths, relative_display
from ..model import Applicability, FileResult, Finding, LineIndex


def where(finding: Finding, display: Callable[[str], str] = relative_display) -> str:
    return f"{display(finding.filename)}:{finding.location.row}:{finding.location.column}"


def _header(finding: Finding, display: Callable[[str], str]) -> str:
    return f"{where(finding, display)}: {finding.code} [{finding.name}] {finding.message}"


def not_fixed(findings: list[Finding], heading: str) -> list[str]:
    """`heading`, then one line per finding: where, code, why it was not fixed."""
    from ..fixes import why_not_fixed  # libcst: only then (a run whose files were all skipped parses nothing)

    return [heading, *(f"  {where(f)}: {f.code} {why_not_fixed(f)}" for f in findings)] if findings else []


def _excerpt(finding: Finding, lines: list[str], display: Callable[[str], str]) -> list[str]:
    row = finding.location.row
    if not 0 < row <= len(lines):
        return []
    line = lines[row - 1].rstrip("\n")
    width = len(str(row))
    start = finding.location.column
    end = finding.end_location.column if finding.end_location.row == row else len(line) + 1
    marker = " " * (start - 1) + "^" * max(1, end - start)
    out = [f"  {row:>{width}} | {line}", f"  {'':>{width}} | {marker}"]
    for related in finding.related:
        out.append(
            f"  {'':>{width}} = {display(related.filename)}:{related.location.row}:"
            f"{related.location.column}: {related.message}"
        )
    if finding.fix is not None:
        label = "fix" if finding.fix.applicability == "safe" else "unsafe fix"
        out.append(f"  {'':>{width}} = {label} available: {finding.fix.message}")
    return out


def render_full(results: list[FileResult], settings: Settings) -> str:
    out = []
    display = display_paths()
    for result in results:
        lines = LineIndex(result.source).lines() if result.source else []
        for finding in result.findings:
            out.append(_header(finding, display))
            out.extend(_excerpt(finding, lines, display))
            out.append("")
    out.append(summary(results))
    return "\n".join(out) + "\n"


def render_concise(results: list[FileResult], settings: Settings) -> str:
    display = display_paths()
    out = [_header(f, display) for r in results for f in r.findings]
    out.append(summary(results))
    return "\n".join(out) + "\n"


def _skipped_summary(results: list[FileResult]) -> str:
    """How many files were skipped, why, and how to lint them anyway."""
    reasons = Counter(r.skip_reason or SKIP_NOT_ASCEND for r in results if not r.checked)
    excluded = reasons.pop(SKIP_EXCLUDED, 0)
    if excluded:  # stdin's name, with `force-exclude`
        others = _skipped_summary([r for r in results if r.skip_reason != SKIP_EXCLUDED]) if reasons else ""
        return " ".join(filter(None, [f"{excluded} file{'s' * (excluded != 1)} excluded (`exclude`).", others]))
    total = sum(reasons.values())
    if len(reasons) == 1:
        (reason,) = reasons
        why = SKIP_DETAIL.get(reason, reason)
    else:
        why = "; ".join(f"{n}: {SKIP_DETAIL.get(reason, reason)}" for reason, n in reasons.most_common())
    return (
        f"{total} file{'s' * (total != 1)} skipped as not Ascend kernel code ({why}). "
        "Lint them with `--target-all`, or list them in `target-paths`; `--show-files` names them."
    )


def fixes_applied(results: list[FileResult]) -> str:
    """The `--show-fixes` listing (ruff's): per file, each fix with the findings it repaired."""
    total = sum(sum(result.fixed.values()) for result in results)
    if not total:
        return ""
    out = [f"Fixed {total} finding{'s' * (total != 1)}:"]
    for result in results:
        if result.fixed:
            out.append(f"- {relative_display(result.filename)}:")
            out.extend(f"    {count} × {code} ({message})" for (code, message), count in sorted(result.fixed.items()))
    return "".join(f"{line}\n" for line in out)


def would_fix(results: list[FileResult], unsafe: bool) -> str:
    """`--diff`'s closing line on stderr (ruff's): how many findings the diff fixes, and how many
    more unsafe fixes would without `--unsafe-fixes`; nothing when there are neither."""
    fixed = sum(sum(result.fixed.values()) for result in results)
    unapplied = (
        0 if unsafe else sum(1 for r in results for f in r.findings if f.fix and f.fix.applicability == "unsafe")
    )
    more = f"{unapplied} fix{'es' * (unapplied != 1)} available with `--unsafe-fixes`"
    if fixed:
        findings = f"{fixed} finding{'s' * (fixed != 1)}"
        return f"Would fix {findings} ({more}).\n" if unapplied else f"Would fix {findings}.\n"
    return f"No findings would be fixed ({more}).\n" if unapplied else ""


def summary(results: list[FileResult], listed: bool = True) -> str:
    """The closing lines; `listed`: with the findings that have no fix, one a line."""
    findings = [f for r in results for f in r.findings]
    fixed = sum(sum(r.fixed.values()) for r in results)
    errors = sum(1 for r in results if r.error)
    checked = sum(1 for r in results if r.checked and (r.error is None or r.findings))
    skipped = sum(1 for r in results if not r.checked)
    files = f"{checked} file{'s' * (checked != 1)} checked"
    found = len(findings) + fixed
    if not found:
        text = f"No findings in {files}." if errors else f"All checks passed ({files})."
    else:
        counts = Counter(f.code for f in findings)
        detail = ", ".join(f"{code}: {n}" for code, n in sorted(counts.items()))
        if fixed:  # ruff's `Found 3 errors (2 fixed, 1 remaining).`, with the remaining codes
            detail = f"{fixed} fixed, {len(findings)} remaining" + (f": {detail}" if findings else "")
        text = f"Found {found} finding{'s' * (found != 1)} ({detail}) in {files}."
        again: Counter[Applicability] = Counter()
        for result in results:
            again.update(result.fix_again)
        fixable = Counter(f.fix.applicability for f in findings if f.fix) - again
        if fixable["safe"]:
            text += f"\n[*] {fixable['safe']} fixable with `--fix`."
        if fixable["unsafe"]:
            text += f"\n{fixable['unsafe']} more fixable with `--fix --unsafe-fixes` (unsafe: review them)."
        if again:
            count = sum(again.values())
            text += (
                f"\n[*] {count} more fixable by running the same command again: "
                f"{'their fixes share' if count > 1 else 'its fix shares'} text with fixes made in this run."
            )
        unfixable = [f for f in findings if f.fix is None] if listed else []
        count = len(unfixable)
        text += "".join(
            f"\n{line}" for line in not_fixed(unfixable, f"No fix for {count} finding{'s' * (count != 1)}:")
        )
    if skipped:
        text += "\n" + _skipped_summary(results)
    if errors:
        text += f"\n{errors} file{'s' * (errors != 1)} could not be linted (see errors above)."
    return text
