"""The `ascend-lint` command: check, rule, rules, confirm.

Exit status: 0 no findings, 1 findings, 2 usage/configuration error or a file that could not
be linted.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import TYPE_CHECKING

from . import __version__
from .config import ConfigError, Settings, load_settings
from .engine import lint_paths, lint_source, relative_display
from .model import FileResult
from .registry import all_rules, rule_by_selector

if TYPE_CHECKING:
    from .fixer import FixOutcome

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(value: str) -> list[str]:
    return [code.strip().upper() for code in value.split(",") if code.strip()]


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by `check` and `confirm`: which files and which rules."""
    parser.add_argument(
        "paths", nargs="*", default=["."], help="files or folders to lint (default: .); `-` reads stdin"
    )
    parser.add_argument(
        "--select", type=_codes, action="extend", help="rule codes or prefixes to enable (replaces the default)"
    )
    parser.add_argument(
        "--extend-select", type=_codes, action="extend", help="rule codes or prefixes to enable in addition"
    )
    parser.add_argument("--ignore", type=_codes, action="extend", help="rule codes or prefixes to disable")
    parser.add_argument(
        "--config", metavar="PATH", help="use this pyproject.toml (or a TOML file with the keys at top level)"
    )
    parser.add_argument("--isolated", action="store_true", help="ignore all configuration files")
    parser.add_argument(
        "--target-all", action="store_true", help="lint every Python file given, not only Ascend kernel files"
    )
    parser.add_argument("--stdin-filename", metavar="PATH", help="the path of the file read from stdin (`-`)")


def settings_from(args: argparse.Namespace) -> Settings:
    return load_settings(
        [p for p in args.paths if p != "-"] or [args.stdin_filename or "."],
        config=args.config,
        isolated=args.isolated,
        select=args.select,
        ignore=args.ignore,
        extend_select=args.extend_select,
        target_all=args.target_all,
    )


def lint_requested(args: argparse.Namespace, settings: Settings) -> list[FileResult]:
    results: list[FileResult] = []
    paths = [p for p in args.paths if p != "-"]
    if "-" in args.paths:
        results.append(lint_source(sys.stdin.read(), args.stdin_filename or "-", settings))
    results.extend(lint_paths(paths, settings))
    return results


def build_parser() -> argparse.ArgumentParser:
    from .reporters import FORMATS

    parser = argparse.ArgumentParser(prog="ascend-lint", description="Lint Triton kernels for Huawei Ascend NPUs.")
    parser.add_argument("--version", action="version", version=f"ascend-lint {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="lint files and folders")
    add_selection_options(check)
    check.add_argument("--output-format", choices=sorted(FORMATS), default="text", help="how to print findings")
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, also apply unsafe fixes")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff instead of writing them")
    check.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied")
    check.add_argument("--diff-base", metavar="REV", help="only report findings on lines changed since REV (git)")
    check.add_argument(
        "--diff-file", metavar="PATH", help="only report findings on lines added by this unified diff (`-`: stdin)"
    )
    check.add_argument("--statistics", action="store_true", help="print the number of findings per rule")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--verbose", action="store_true", help="print the traceback of an internal error")
    check.add_argument(
        "--timeout-per-file",
        type=float,
        default=Settings.timeout_per_file,
        metavar="SECONDS",
        help="give up on a file after this much CPU time, with an error, and go on (default: %(default)g; 0: none)",
    )

    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("selector", nargs="?", help="a code (ASC003) or name (dot-lhs-reuse)")
    rule.add_argument("--all", action="store_true", help="print every rule's documentation")

    commands.add_parser("rules", help="list all rules")

    confirm = commands.add_parser("confirm", help="replay flagged kernels to confirm findings (runtime extra)")
    add_selection_options(confirm)
    # Imports nothing of the runtime extra: `confirm` itself says what to install when it is missing.
    from .runtime_check.cli import configure

    configure(confirm)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "rules":
            return _list_rules()
        if args.command == "rule":
            return _show_rule(args)
        if args.command == "confirm":
            from .runtime_check.cli import run

            settings = settings_from(args)
            return run(args, settings, lint_requested(args, settings))
        return _check(args)
    except ConfigError as exc:
        print(f"ascend-lint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_ERROR


def _check(args: argparse.Namespace) -> int:
    from .reporters import render

    settings = settings_from(args)
    settings.timeout_per_file = args.timeout_per_file or None
    results = lint_requested(args, settings)
    stdin_result = results[0] if "-" in args.paths else None
    report = sys.stdout
    if args.fix or args.diff:
        outcome = _fix(results, stdin_result, settings, args)
        if args.diff:
            sys.stdout.write(outcome.diff)
            return EXIT_FINDINGS if outcome.diff else EXIT_CLEAN
        results = outcome.results
        if stdin_result is not None:
            # ruff's convention: the fixed buffer goes to stdout, the report to stderr
            changed = next((f for f in outcome.fixed if f.filename == stdin_result.filename), None)
            sys.stdout.write(changed.fixed if changed else stdin_result.source or "")
            report = sys.stderr
        if args.show_fixes:
            report.write(outcome.describe())
    if args.diff_base or args.diff_file:
        from .changed_lines import restrict_to_changed_lines

        results = restrict_to_changed_lines(results, diff_base=args.diff_base, diff_file=args.diff_file)
    for result in results:
        if result.error is not None:
            error = result.error
            where = relative_display(error.filename)
            if error.location is not None:
                where += f":{error.location.row}:{error.location.column}"
            print(f"{where}: error: {error.message}", file=sys.stderr)
            if args.verbose and error.detail:
                print(error.detail, end="", file=sys.stderr)
    report.write(render(args.output_format, results, settings))
    if args.statistics:
        counts = Counter((f.code, f.name) for r in results for f in r.findings)
        for (code, name), count in counts.most_common():
            print(f"{count:>5}\t{code}\t{name}", file=report)
    if any(r.error for r in results):
        return EXIT_ERROR
    if any(r.findings for r in results) and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _fix(
    results: list[FileResult], stdin_result: FileResult | None, settings: Settings, args: argparse.Namespace
) -> FixOutcome:
    """Apply fixes; files are written (unless --diff), the stdin buffer never is."""
    from .fixer import apply_fixes, fix_result

    on_disk = [r for r in results if r is not stdin_result]
    outcome = apply_fixes(on_disk, settings, unsafe=args.unsafe_fixes, write=not args.diff)
    if stdin_result is not None:
        fixed_result, change = fix_result(stdin_result, settings, unsafe=args.unsafe_fixes)
        outcome.results.insert(0, fixed_result)
        if change is not None:
            outcome.fixed.insert(0, change)
    return outcome


def _list_rules() -> int:
    for rule in all_rules():
        fix = {"safe": "fix", "unsafe": "unsafe fix"}.get(rule.FIX or "", "")
        print(f"{rule.CODE}  {rule.NAME:<32} {fix:<11} {rule.SUMMARY}")
    return EXIT_CLEAN


def _show_rule(args: argparse.Namespace) -> int:
    if args.all:
        from .docs import rules_page

        sys.stdout.write(rules_page())
        return EXIT_CLEAN
    rule = rule_by_selector(args.selector or "")
    if rule is None:
        known = ", ".join(r.CODE for r in all_rules())
        print(f"ascend-lint: error: unknown rule {args.selector!r} (known: {known})", file=sys.stderr)
        return EXIT_ERROR
    print(rule.documentation())
    return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
