"""The `ascend-lint` command: check, rule, rules, confirm.

Exit status: 0 no findings, 1 findings, 2 usage/configuration error or a file that could not
be linted; with --exit-zero, 0 unless a usage/configuration error. `check --add-noqa` exits 0
unless a usage/configuration error, as ruff's.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from . import __version__
from . import source as sources
from .cache import DEFAULT_FOLDER, ENVIRONMENT, Cache, cache_folder
from .config import ConfigError, Settings, load_settings, positive_int
from .engine import default_jobs, lint_data, lint_paths, relative_display, targeting
from .model import FileResult
from .registry import all_rules, rule_by_selector
from .socs import DEFAULT_SOC, SOCS

if TYPE_CHECKING:
    from .changed_lines import ChangedLines
    from .fixer import FixOutcome

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
TEXT_FORMATS = ("text", "full", "concise")


def _codes(value: str) -> list[str]:
    return [code.strip().upper() for code in value.split(",") if code.strip()]


MAX_TIMEOUT = 1e6  # seconds (about 11 days): a CPU timer set beyond what the OS takes fails


def _seconds(value: str) -> float:
    """`--timeout-per-file`: 0 (no limit) or a number of seconds up to `MAX_TIMEOUT`."""
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not 0 <= seconds <= MAX_TIMEOUT:  # NaN fails both comparisons
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) or a number of seconds up to {MAX_TIMEOUT:g}: {value}")
    return seconds


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by `check` and `confirm`: which files and which rules."""
    parser.add_argument(
        "paths",
        nargs="*",
        default=[],
        help="files or folders to lint (default: ., or stdin with `--stdin-filename`); `-` reads stdin",
    )
    parser.add_argument(
        "--select",
        type=_codes,
        action="extend",
        help="rule codes, prefixes or groups (perf) to enable (replaces the default)",
    )
    parser.add_argument(
        "--extend-select", type=_codes, action="extend", help="rule codes, prefixes or groups to enable in addition"
    )
    parser.add_argument(
        "--ignore", type=_codes, action="extend", help="rule codes, prefixes or groups (perf) to disable"
    )
    parser.add_argument(
        "--config", metavar="PATH", help="use this pyproject.toml (or a TOML file with the keys at top level)"
    )
    parser.add_argument("--isolated", action="store_true", help="ignore all configuration files")
    parser.add_argument(
        "--force-exclude",
        action=argparse.BooleanOptionalAction,
        help="apply `exclude` to files named on the command line and to `--stdin-filename` too (pre-commit, editors)",
    )
    parser.add_argument(
        "--target-all", action="store_true", help="lint every Python file given, not only Ascend kernel files"
    )
    parser.add_argument(
        "--target-soc",
        choices=list(SOCS),
        help=f"the Ascend SoC family to judge kernels against (default: {DEFAULT_SOC.name}; "
        "`per-file-target-soc` still applies)",
    )
    parser.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="the path of the file read from stdin (`-`); without `-` among the paths, stdin is read instead of them",
    )


def requested_paths(args: argparse.Namespace) -> list[str]:
    """The paths to lint, `-` for stdin: `.` when none is given; with `--stdin-filename` and no
    `-`, stdin alone, each path given ignored with a warning (as ruff). `-` beside paths lints both.
    (`--add-noqa` refuses `--stdin-filename` itself.)"""
    if args.stdin_filename is None or "-" in args.paths or getattr(args, "add_noqa", False):
        return args.paths or ["."]
    for path in args.paths:
        print(f"ascend-lint: warning: ignoring file {path} in favor of standard input", file=sys.stderr)
    return ["-"]


def settings_from(args: argparse.Namespace) -> Settings:
    return load_settings(
        [p for p in args.paths if p != "-"] or [args.stdin_filename or "."],
        config=args.config,
        isolated=args.isolated,
        select=args.select,
        ignore=args.ignore,
        extend_select=args.extend_select,
        target_all=args.target_all,
        target_soc=args.target_soc,
        force_exclude=args.force_exclude,
    )


def read_stdin(args: argparse.Namespace) -> bytes | None:
    """The bytes of stdin when a path is `-` (decoded as a file's would be: cookie, BOM)."""
    return sys.stdin.buffer.read() if "-" in args.paths else None


def lint_requested(
    args: argparse.Namespace, settings: Settings, stdin: bytes | None, **options: Any
) -> list[FileResult]:
    """Lint the paths of the command line, stdin's bytes first for `-`; `options` go to `lint_paths`."""
    results: list[FileResult] = []
    paths = [p for p in args.paths if p != "-"]
    if stdin is not None:
        results.append(lint_data(stdin, args.stdin_filename or "-", settings))
    results.extend(lint_paths(paths, settings, **options))
    return results


class _CommandParser(argparse.ArgumentParser):
    """A command's parser taking paths before, between and after its options, as ruff does
    (`check a.py --fix b.py`): argparse's intermixed parsing."""

    _intermixing = False

    def parse_known_args(  # type: ignore[override]
        self, args: list[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # the intermixed parse's own passes; after `--` (paths that look like options: `-- -k.py`)
        # Python 3.11's intermixed parse fails, and the paths come last anyway
        if self._intermixing or (args is not None and "--" in args):
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; confirm's own options (from the runtime companion) only when `command` is
    confirm, so `check` never imports `runtime_check`."""
    from .reporters import FORMATS

    parser = argparse.ArgumentParser(prog="ascend-lint", description="Lint Triton kernels for Huawei Ascend NPUs.")
    parser.add_argument("--version", action="version", version=f"ascend-lint {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_CommandParser)

    check = commands.add_parser("check", help="lint files and folders")
    add_selection_options(check)
    check.add_argument("--output-format", choices=sorted(FORMATS), default="text", help="how to print findings")
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, also apply unsafe fixes")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff instead of writing them")
    check.add_argument("--show-fixes", action="store_true", help="list the fixes that were applied")
    check.add_argument(
        "--add-noqa",
        action="store_true",
        help="add a `# noqa: CODE` comment on each finding's line, keeping the line's comments (baseline a codebase)",
    )
    check.add_argument("--diff-base", metavar="REV", help="only report findings on lines changed since REV (git)")
    check.add_argument(
        "--diff-file", metavar="PATH", help="only report findings on lines added by this unified diff (`-`: stdin)"
    )
    check.add_argument(
        "--statistics", action="store_true", help="print the number of findings per rule instead of the findings"
    )
    check.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when there are findings or files that could not be linted (not on a usage error)",
    )
    check.add_argument(
        "-j", "--jobs", type=positive_int, metavar="N", help="files linted at once (default: the number of usable CPUs)"
    )
    check.add_argument(
        "--cache-dir",
        metavar="PATH",
        help=f"where to keep the cache (default: ${ENVIRONMENT}, else {DEFAULT_FOLDER} next to the configuration)",
    )
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    check.add_argument(
        "--verbose",
        action="store_true",
        help="also list each skipped file and why, and print the traceback of an internal error (stderr)",
    )
    show = check.add_mutually_exclusive_group()
    show.add_argument(
        "--show-files",
        action="store_true",
        help="list the files the run would lint, and why any is skipped as not Ascend kernel code; lint nothing",
    )
    show.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings the first file is linted with (its configuration, rules, targeting); lint nothing",
    )
    check.add_argument(
        "--timeout-per-file",
        type=_seconds,
        default=Settings.timeout_per_file,
        metavar="SECONDS",
        help="give up on a file after this much CPU time, with an error, and go on (default: %(default)g; 0: none)",
    )

    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("selector", nargs="?", help="a code (ASC003) or name (dot-lhs-reuse)")
    rule.add_argument("--all", action="store_true", help="print every rule's documentation")
    rule.add_argument(
        "--brief", action="store_true", help="leave out the rule's `## Details` (what the editor's hover shows)"
    )

    commands.add_parser("rules", help="list all rules")
    commands.add_parser("server", help="run the Language Server for editors (stdio; the server extra)")

    confirm = commands.add_parser("confirm", help="replay flagged kernels to confirm findings (runtime extra)")
    add_selection_options(confirm)
    if command != "confirm":
        return parser
    # Imports nothing of the runtime extra: `confirm` itself says what to install when it is missing.
    from .runtime_check.cli import configure

    configure(confirm)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    if command == "confirm":  # stoppable from here: a signal while it imports and lints says so too
        from .runtime_check.process import stoppable

        return stoppable(lambda: _main(argv, command), "ascend-lint confirm")
    return _main(argv, command)


def _main(argv: list[str], command: str | None) -> int:
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if hasattr(args, "paths"):
        args.paths = requested_paths(args)
    try:
        if args.command == "rules":
            return _list_rules()
        if args.command == "rule":
            return _show_rule(args)
        if args.command == "server":
            return _serve()
        if args.command == "confirm":
            from .runtime_check.cli import confirm

            settings = settings_from(args)
            return confirm(args, settings, lambda: lint_requested(args, settings, read_stdin(args)))
        return _check(args)
    except ConfigError as exc:
        print(f"ascend-lint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_ERROR


def _check(args: argparse.Namespace) -> int:
    if args.add_noqa:
        return _add_noqa(args)
    if args.show_files or args.show_settings:
        return _show(args)
    from .reporters import render
    from .reporters.statistics import FORMATS as STATISTICS_FORMATS

    if args.statistics and args.diff:  # as ruff: the diff is the output, with no table to print
        raise ConfigError("--statistics cannot be used with --diff")
    if args.statistics and args.output_format not in STATISTICS_FORMATS:
        raise ConfigError(f"--statistics has no {args.output_format} form (it takes {', '.join(STATISTICS_FORMATS)})")
    settings = _check_settings(args)
    stdin = read_stdin(args)
    options = _lint_options(args, settings)
    progress = options["progress"]
    changed = _changed_lines(args)
    outcome = _fix(args, settings, stdin, changed, **options) if args.fix or args.diff else None
    results = outcome.results if outcome is not None else lint_requested(args, settings, stdin, **options)
    if progress is not None:
        progress.clear()
    report = sys.stdout
    if outcome is not None:
        if args.diff:  # the diff of what would be fixed; a file that cannot be is an error
            sys.stdout.write(outcome.diff)
            _print_errors(results, args.verbose)
            if args.output_format in TEXT_FORMATS:
                from .reporters.text import would_fix

                sys.stderr.write(would_fix(results, args.unsafe_fixes))
            return EXIT_ERROR if any(r.error for r in results) else EXIT_FINDINGS if outcome.diff else EXIT_CLEAN
        if stdin is not None:
            # ruff's convention: the fixed buffer goes to stdout, the report to stderr; the buffer
            # in its own bytes (encoding, BOM, line endings), unchanged unless a fix applied
            buffer = next((f for f in outcome.fixed if f.filename == results[0].filename), None)
            sys.stdout.flush()
            sys.stdout.buffer.write(buffer.fixed.encode(sources.detect_encoding(stdin)) if buffer else stdin)
            report = sys.stderr
        if args.show_fixes and args.output_format in TEXT_FORMATS:  # the others are data to parse
            from .reporters.text import fixes_applied

            report.write(fixes_applied(results))
    if changed is not None:
        from .changed_lines import filter_results, lines_of

        if outcome is not None:  # the fixes moved rows and wrote some
            from .fixer import changed_after_fixes

            changed = changed_after_fixes(changed, outcome.fixed)
        if args.diff_file and changed and not any(lines_of(changed, r.filename) for r in results):
            print(
                "ascend-lint: warning: no file of the diff was linted (its paths are taken relative to "
                "the current directory: run from the folder the diff was made in)",
                file=sys.stderr,
            )
        results = filter_results(results, changed or {})
    _print_errors(results, args.verbose)
    if args.statistics:  # the table instead of the findings, as ruff
        from .reporters.statistics import render_statistics

        report.write(render_statistics(args.output_format, results, args.unsafe_fixes))
    else:
        report.write(render(args.output_format, results, settings))
    if args.exit_zero:  # as ruff: a file that could not be linted is reported, and exits 0 too
        return EXIT_CLEAN
    if any(r.error for r in results):
        return EXIT_ERROR
    return EXIT_FINDINGS if any(r.findings for r in results) else EXIT_CLEAN


# what `--add-noqa` cannot be combined with, as ruff refuses them (`--diff` too: it promises to
# write nothing, and `--add-noqa` writes)
_NOT_WITH_ADD_NOQA = (
    ("fix", "--fix"),
    ("diff", "--diff"),
    ("statistics", "--statistics"),
    ("show_files", "--show-files"),
    ("show_settings", "--show-settings"),
    ("stdin_filename", "--stdin-filename"),
)


def _lint_options(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    """How `check` lints the requested files: its jobs, its cache, and a progress line on a terminal."""
    return {
        "jobs": args.jobs or default_jobs(),
        "cache": _cache(args, settings),
        "progress": ProgressLine(sys.stderr) if sys.stderr.isatty() else None,
    }


def _add_noqa(args: argparse.Namespace) -> int:
    """`--add-noqa`: a `# noqa` for each finding of the selected rules in the targeted files
    (on changed lines only with `--diff-base` / `--diff-file`), the count on stderr, as ruff's
    `Added 3 noqa directives.` (nothing when none is added); exit 0, as ruff's, also when a file
    could not be linted (reported, left untouched)."""
    for name, flag in _NOT_WITH_ADD_NOQA:
        if getattr(args, name):
            raise ConfigError(f"--add-noqa cannot be used with {flag}")
    if "-" in args.paths:
        raise ConfigError("--add-noqa cannot be used with stdin (`-`): it writes the files it lints")
    from .add_noqa import add_noqa

    settings = _check_settings(args)
    options = _lint_options(args, settings)
    results = lint_requested(args, settings, None, **options)
    if options["progress"] is not None:
        options["progress"].clear()
    changed = _changed_lines(args)
    if changed is not None:
        from .changed_lines import filter_results

        results = filter_results(results, changed)
    results, added = add_noqa(results)
    _print_errors(results, args.verbose)
    if added:
        print(f"Added {added} noqa directive{'' if added == 1 else 's'}.", file=sys.stderr)
    return EXIT_CLEAN


def _show(args: argparse.Namespace) -> int:
    """`--show-files` / `--show-settings`: what the run would lint and with what (`show`)."""
    from . import show

    settings = _check_settings(args)
    stdin, name = read_stdin(args), args.stdin_filename or "-"
    paths = [p for p in args.paths if p != "-"]
    if args.show_files:
        sys.stdout.write(show.show_files(paths, settings, stdin, name))
        return EXIT_CLEAN
    filename = show.first_file(args.paths, settings, name)
    result = targeting(filename, settings, stdin if args.paths[0] == "-" else None)
    sys.stdout.write(show.show_settings(result, settings, cache_folder(settings, args.cache_dir), _cache_wanted(args)))
    return EXIT_CLEAN


def _check_settings(args: argparse.Namespace) -> Settings:
    """`check`'s settings: the selection's (`settings_from`), with its `--timeout-per-file`."""
    settings = settings_from(args)
    settings.timeout_per_file = args.timeout_per_file or None
    return settings


_STDIN_NAMES = ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")  # a `--diff-file` reading stdin


def _changed_lines(args: argparse.Namespace) -> ChangedLines | None:
    """The lines `--diff-base` / `--diff-file` name, or None without either."""
    if not (args.diff_base or args.diff_file):
        return None
    if args.diff_file in _STDIN_NAMES and "-" in args.paths:
        raise ConfigError("--diff-file - cannot be used with stdin as a file to lint (`-`, `--stdin-filename`)")
    from .changed_lines import changed_lines

    return changed_lines(diff_base=args.diff_base, diff_file=args.diff_file)


def _cache_wanted(args: argparse.Namespace) -> bool:
    """Whether the run uses a cache: not with `--no-cache`, nor when it reads only stdin."""
    return not (args.no_cache or all(path == "-" for path in args.paths))


def _cache(args: argparse.Namespace, settings: Settings) -> Cache | None:
    """The cache for files named on the command line (stdin is never cached)."""
    if not _cache_wanted(args):
        return None
    cache = Cache(cache_folder(settings, args.cache_dir), settings)
    problem = cache.prepare()
    if problem is not None:
        print(f"ascend-lint: warning: {problem}; running without the cache", file=sys.stderr)
        return None
    return cache


class ProgressLine:
    """`ascend-lint: 120/506 files` on a terminal, for runs that lint many files."""

    FROM_FILES = 20

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.shown = False
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if total < self.FROM_FILES or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        self.shown = True
        self.stream.write(f"\rascend-lint: {done}/{total} files")
        self.stream.flush()

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _print_errors(results: list[FileResult], verbose: bool) -> None:
    """Each file's warnings and error on stderr (`path:row:column: warning: message`, `...:
    error: ...`); with `--verbose`, an error's traceback and each skipped file with why, as
    `--show-files` lists it (stderr, as ruff's verbose output: stdout stays the report's)."""
    for result in results:
        if verbose and not result.checked:
            from .show import file_line

            print(file_line(result), file=sys.stderr)
        for warning in result.warnings:
            print(f"{warning.where(relative_display(warning.filename))}: warning: {warning.message}", file=sys.stderr)
        if result.error is not None:
            error = result.error
            print(f"{error.where(relative_display(error.filename))}: error: {error.message}", file=sys.stderr)
            if verbose and error.detail:
                print(error.detail, end="", file=sys.stderr)


def _fix(
    args: argparse.Namespace, settings: Settings, stdin: bytes | None, changed: ChangedLines | None, **options: Any
) -> FixOutcome:
    """Lint and fix the paths of the command line, stdin's bytes first for `-`; files are
    written (unless --diff), the stdin buffer never is; only the findings on `changed` lines
    are fixed, when given (`--diff-base`, `--diff-file`). `options` go to `fix_paths`."""
    from .changed_lines import lines_of
    from .fixer import fix_data, fix_paths

    paths = [p for p in args.paths if p != "-"]
    outcome = fix_paths(paths, settings, unsafe=args.unsafe_fixes, write=not args.diff, changed=changed, **options)
    if stdin is not None:
        name = args.stdin_filename or "-"
        lines = None if changed is None else lines_of(changed, name)
        fixed_result, change = fix_data(stdin, name, settings, unsafe=args.unsafe_fixes, lines=lines)
        outcome.results.insert(0, fixed_result)
        if change is not None:
            outcome.fixed.insert(0, change)
    return outcome


def _serve() -> int:
    try:
        from .server import main as serve
    except ImportError as exc:
        print(f"ascend-lint: error: the server needs pygls ({exc}): pip install 'ascend-lint[server]'", file=sys.stderr)
        return EXIT_ERROR
    return serve()


def _list_rules() -> int:
    for rule in all_rules():
        fix = {"safe": "fix", "unsafe": "unsafe fix", "safe/unsafe": "fix/unsafe"}.get(rule.FIX or "", "")
        print(f"{rule.CODE}  {rule.NAME:<32} {fix:<11} {rule.SUMMARY}")
    return EXIT_CLEAN


def _show_rule(args: argparse.Namespace) -> int:
    if args.all:
        from .docs import rules_page

        sys.stdout.write(rules_page())
        return EXIT_CLEAN
    if args.selector is None:
        print("ascend-lint: error: `rule` needs a code or name (ASC003, dot-lhs-reuse), or --all", file=sys.stderr)
        return EXIT_ERROR
    rule = rule_by_selector(args.selector)
    if rule is None:
        known = ", ".join(r.CODE for r in all_rules())
        print(f"ascend-lint: error: unknown rule {args.selector!r} (known: {known})", file=sys.stderr)
        return EXIT_ERROR
    if args.brief:
        from .reporters.shared import brief_documentation

        print(brief_documentation(rule))
    else:
        print(rule.documentation())
    return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
