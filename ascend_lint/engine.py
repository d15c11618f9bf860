"""Lint files: parse once, build the shared facts lazily, run every enabled rule, report.

Files are linted in a process pool when asked (`jobs`), each result reused from the content
cache when the file is unchanged. Everything that needs libcst is imported on the first file
that has to be parsed, so a run served from the cache never loads it.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import cache, cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from . import source as sources
from .budget import FileTimeout, check_budget, time_budget, timeout_message
from .config import DEFAULT_EXCLUDE, Settings, missing, real_path
from .directives import DISABLE_FILE, DISABLE_FILE_WORD, NOQA_WORD, Comments, Directive, InvalidDirective
from .model import Diagnostic, FileResult, Finding, Fix, Position, Related
from .prefilter import Words
from .registry import all_codes, all_rules

if TYPE_CHECKING:
    from types import CodeType

    import libcst as cst

    from .cache import Cache
    from .host import HostMemory
    from .incremental import IncrementalParser
    from .kernels import Kernel, KernelMemory
    from .positions import LayoutMemory
    from .rule import ModuleContext, Report, Rule

# Progress callback of lint_paths: (files done, files to lint).
Progress = Callable[[int, int], None]
Done = TypeVar("Done")


class DocumentMemory:
    """What a re-lint of a document keeps from the previous lint (the editor server keeps one
    per open document; `--fix` one per file, from its check to the re-lint of the fixed text):
    the parsed top-level statements an edit did not touch, the kernels it did not touch with
    their facts, what the host code of those statements holds, and the positions found in their
    functions. Each part is made (and its module, which needs libcst, imported) when a lint
    first uses it: a file skipped as not Ascend code loads none of them."""

    @classmethod
    def empty(cls) -> DocumentMemory:
        return cls()

    @cached_property
    def parser(self) -> IncrementalParser:
        from .incremental import IncrementalParser

        return IncrementalParser()

    @cached_property
    def kernels(self) -> KernelMemory:
        from .kernels import KernelMemory

        return KernelMemory()

    @cached_property
    def hosts(self) -> HostMemory:
        from .host import HostMemory

        return HostMemory()

    @cached_property
    def layouts(self) -> LayoutMemory:
        from .positions import LayoutMemory

        return LayoutMemory()


def lint_paths(
    paths: Iterable[str],
    settings: Settings,
    *,
    jobs: int = 1,
    cache: Cache | None = None,
    progress: Progress | None = None,
) -> list[FileResult]:
    """Lint files and folders; one FileResult per Python file considered, in path order
    whatever `jobs` is. Files whose cached result matches their content are not linted again."""
    slots = planned_files(paths, settings, cache)
    files = [slot for slot in slots if isinstance(slot, str)]
    linted = iter(map_files(partial(lint_file, settings=settings, cache=cache), files, jobs, progress))
    return [slot if isinstance(slot, FileResult) else next(linted) for slot in slots]


def planned_files(paths: Iterable[str], settings: Settings, cache: Cache | None) -> list[FileResult | str]:
    """The Python files under `paths`, in path order: each one's result when it is known without
    linting (an unreadable folder, a missing path, a cached result matching the content), else
    its name."""
    slots: list[FileResult | str] = []
    errors: list[FileResult] = []
    for filename in expand_paths(paths, settings, errors):
        slots.extend(errors)  # unreadable folders keep their place among the files
        errors.clear()
        cached = cache.lookup(filename) if cache is not None else None
        slots.append(cached if cached is not None else filename)
    slots.extend(errors)
    return slots


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def map_files(task: Callable[[str], Done], files: list[str], jobs: int, progress: Progress | None) -> list[Done]:
    """`task` of each file (a function a pool can send: module-level, or a `partial` of one),
    in the order given; several processes when `jobs` > 1.

    Files are linted largest first: in a pool, the last file to finish is a small one; in one
    process, the largest tree is built while the heap is still unfragmented by the smaller
    ones (vllm_ascend, `--jobs 1`: a peak of 115 MB instead of 131 MB)."""
    jobs = min(jobs, len(files))
    order = sorted(range(len(files)), key=lambda i: _size(files[i]), reverse=True)
    found: dict[int, Done] = {}
    if jobs <= 1:
        for index in order:
            found[index] = task(files[index])
            if progress is not None:
                progress(len(found), len(files))
        return [found[index] for index in range(len(files))]
    import multiprocessing

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    with context.Pool(jobs) as pool:
        tasks = ((i, files[i]) for i in order)
        for done, (index, result) in enumerate(pool.imap_unordered(partial(_indexed, task), tasks), 1):
            found[index] = result
            if progress is not None:
                progress(done, len(files))
    return [found[index] for index in range(len(files))]


def _indexed(task: Callable[[str], Done], item: tuple[int, str]) -> tuple[int, Done]:
    index, filename = item
    return index, task(filename)


def _size(filename: str) -> int:
    try:
        return os.path.getsize(filename)
    except OSError:
        return 0


def expand_paths(paths: Iterable[str], settings: Settings, errors: list[FileResult]) -> Iterator[str]:
    """Python files under `paths` (sorted, excludes applied: to the files named too with
    `force-exclude`, as in ruff), each once however often the paths reach it (`a.py ./a.py`, a
    file in a folder named too), first as first reached; unreadable ones go to `errors`."""
    seen: set[str] = set()
    for filename in _expanded(paths, settings, errors):
        resolved = os.path.realpath(filename)
        if resolved not in seen:
            seen.add(resolved)
            yield filename


def _expanded(paths: Iterable[str], settings: Settings, errors: list[FileResult]) -> Iterator[str]:
    for path in paths:
        if os.path.isdir(path):

            def on_error(exc: OSError) -> None:
                errors.append(
                    FileResult(exc.filename, error=Diagnostic(exc.filename, f"cannot read directory: {exc.strerror}"))
                )

            # excludes apply below the folder named, as in ruff: the folders of the default list
            # by name, `exclude` by its globs (the folder named is linted wherever it lies: a
            # package under `.venv/lib/.../site-packages`)
            for folder, dirs, files in os.walk(path, onerror=on_error):
                # the folder's configuration decides what it holds: a sub-project the parent
                # excludes is pruned before its own configuration is read
                governing = settings.for_file(os.path.join(folder, "x.py"))
                dirs[:] = sorted(
                    d
                    for d in dirs
                    if d not in DEFAULT_EXCLUDE and not governing.matches_exclude(os.path.join(folder, d, "x.py"))
                )
                for name in sorted(files):
                    full = os.path.join(folder, name)
                    if name.endswith(".py") and not governing.matches_exclude(full):
                        yield full
        elif (own := settings.for_file(path)).force_exclude and own.is_excluded(path):
            continue
        elif missing(path):
            errors.append(FileResult(path, error=Diagnostic(path, "no such file or directory")))
        else:  # a file, or a path the OS refuses to look at: reading it reports why
            yield path


def lint_file(
    filename: str, settings: Settings, cache: Cache | None = None, memory: DocumentMemory | None = None
) -> FileResult:
    """Read and lint one file; with a cache, remember the result for the bytes that were read."""
    data = _read(filename)
    if isinstance(data, FileResult):
        return data
    result = lint_data(data, filename, settings, memory)
    sources.give_back_freed_memory()  # the trees of this lint are garbage now
    if cache is not None and (result.checked or result.skip_reason) and not (result.error and result.error.transient):
        # a skip is kept too: what the bytes say (imports, NPU launches, which may need a parse)
        # holds while they do, and `Cache.lookup` asks the path and project again (no parse)
        cache.store(filename, data, result)  # with the hashes of `result.imported_files`
    return result


def _read(filename: str) -> bytes | FileResult:
    """The file's bytes, or the result of a file that cannot be read."""
    try:
        return sources.read_source(filename)
    except OSError as exc:
        return FileResult(filename, error=Diagnostic(filename, f"cannot read file: {exc.strerror}"))
    except sources.SourceError as exc:
        return FileResult(filename, error=sources.diagnostic(filename, exc))


def targeting(filename: str, settings: Settings, data: bytes | None = None) -> FileResult:
    """What a lint of the file decides before any rule runs, linting nothing: skipped (`checked`
    False and `skip_reason`), not lintable (`error`: unreadable, undecodable, over its time budget
    deciding), else checked. `data`: the file's bytes when they are at hand (stdin's)."""
    read = _read(filename) if data is None else data
    if isinstance(read, FileResult):
        return read
    try:
        text = sources.decode(read)
    except sources.SourceError as exc:
        return FileResult(filename, error=sources.diagnostic(filename, exc))
    settings = settings.for_file(filename)
    result = FileResult(filename)
    try:
        with time_budget(settings.timeout_per_file):  # as in `lint_source`: it may parse (`npu_paths`)
            result.skip_reason = settings.skip_reason(filename, text.removeprefix("\ufeff"), result.imported_files)
    except FileTimeout:
        result.error = Diagnostic(filename, timeout_message("lint", settings.timeout_per_file) + "; skipped")
    except Exception as exc:  # a bug in ascend-lint
        result.error = internal_error(filename, exc)
    result.checked = result.skip_reason is None
    return result


def lint_data(data: bytes, filename: str, settings: Settings, memory: DocumentMemory | None = None) -> FileResult:
    """Lint a file's bytes, decoded as CPython reads them (a diagnostic when they cannot be)."""
    try:
        text = sources.decode(data)
    except sources.SourceError as exc:
        return FileResult(filename, error=sources.diagnostic(filename, exc))
    return lint_source(text, filename, settings, memory=memory)


def lint_source(
    source: str,
    filename: str,
    settings: Settings,
    *,
    check_target: bool = True,
    apply_noqa: bool = True,
    prefilter: bool = True,
    memory: DocumentMemory | None = None,
    compiled: CodeType | None = None,
) -> FileResult:
    """Lint text already in memory (a BOM is dropped, as when reading a file). Files that are not
    Ascend code get no findings. `compiled` is CPython's compiled module of `source`, when the
    caller has it (the fixer compiles a fixed text before its re-lint).

    Rules whose required tokens are missing from the text do not run (`prefilter=False` runs
    every enabled rule: the tests prove the prefilters lose nothing). `memory` keeps what the
    previous lint of the same document parsed and found where an edit changed nothing (the
    editor server's documents; `--fix`, from the check to the re-lint of the fixed text)."""
    source = source.removeprefix("\ufeff")
    settings = settings.for_file(filename)  # the nearest configuration's, as in ruff
    result = FileResult(filename, source=source)
    comments = Comments(source)  # tokenized only when a directive's words or a continued row ask
    try:
        sources.check_text(source)  # what a file's bytes cannot hold: an editor's text can
        with time_budget(settings.timeout_per_file):  # targeting may parse the file (`npu_paths`)
            skip_reason = settings.skip_reason(filename, source, result.imported_files) if check_target else None
            if skip_reason is not None:
                result.checked, result.skip_reason = False, skip_reason
                return result
            codes = settings.enabled_codes(filename) - _disabled_for_file(comments, result)
            words = Words(source)
            rules = [rule() for rule in all_rules() if rule.CODE in codes and (not prefilter or rule.may_report(words))]
            code = sources.compile_python(source, compiled)  # CPython decides what is a syntax error
            if rules:
                module = memory.parser.parse(source) if memory is not None else sources.parse(source)
                with sources.analysis_kept_young():
                    result.findings = _analysed(
                        filename, source, module, code, rules, settings, memory, result, comments
                    )
    except FileTimeout:
        result.error = Diagnostic(
            filename, timeout_message("lint", settings.timeout_per_file) + "; skipped", transient=True
        )
    except sources.SourceError as exc:
        result.error = sources.diagnostic(filename, exc)
    except RecursionError:
        result.error = Diagnostic(filename, "too deeply nested to analyse")
    except Exception as exc:  # a bug in ascend-lint (see the contract in source.py)
        result.error = internal_error(filename, exc)
    if result.error is not None and memory is not None:
        memory.kernels.forget()  # facts a failed lint left half-computed are not trusted again
    if apply_noqa and result.error is None and NOQA_WORD.search(source) is not None:
        noqa = _noqa_directives(comments, result)
        result.findings = [_fix_sparing(f, noqa) for f in result.findings if not _suppressed(f, noqa)]
    return result


def _analysed(
    filename: str,
    source: str,
    module: cst.Module,
    code: CodeType,
    rules: list[Rule],
    settings: Settings,
    memory: DocumentMemory | None,
    result: FileResult,
    comments: Comments,
) -> list[Finding]:
    """The findings of `rules` on a parsed file; the files of the modules whose device functions,
    kernels or core-count helpers it imports go to `result.imported_files` as they are read. What the analysis built is
    garbage once this returns, unless `memory` keeps it (see `source.analysis_kept_young`)."""
    from .imports import ImportMap
    from .kernels import ImportedFunctions, find_kernels
    from .rule import ModuleContext

    imports = ImportMap(module, source, settings.triton_modules)
    imported = None
    if filename != "-":  # bare stdin: no package
        file = Path(filename).absolute()
        imported = ImportedFunctions(file.parent, imports, settings.triton_modules, result.imported_files, file)
        for name, full in imported.star_imported_triton().items():
            imports.add(name, full)
    kernels = find_kernels(module, imports, memory.kernels if memory else None, imported)
    context = ModuleContext(
        filename,
        source,
        module,
        imports,
        kernels,
        memory.hosts if memory else None,
        settings.soc(filename),
        imported,
        code,
        comments,
    )
    reports = list(_run_rules(rules, context))
    return _findings(context, reports, code, memory.layouts if memory else None, comments)


def internal_error(filename: str, exc: Exception) -> Diagnostic:
    """A bug met while handling `filename`: the one-line diagnostic and, for --verbose, the traceback."""
    return Diagnostic(
        filename,
        f"internal error ({type(exc).__name__}: {exc}); please report it (--verbose shows the traceback)",
        detail="".join(traceback.format_exception(exc)),
        transient=True,
    )


def _run_rules(rules: Iterable[Rule], context: ModuleContext) -> Iterator[tuple[Rule, Report, Kernel | None]]:
    for rule in rules:
        for report in rule.check_module(context):
            yield rule, report, None
        for kernel in context.kernels:
            check_budget()
            for report in rule.check_kernel(kernel, context):
                if report.node not in context.uncompiled(kernel):  # code no specialisation compiles
                    yield rule, report, kernel


def _findings(
    context: ModuleContext,
    reports: list[tuple[Rule, Report, Kernel | None]],
    code: CodeType,
    layouts: LayoutMemory | None,
    comments: Comments,
) -> list[Finding]:
    if not reports:
        return []
    from .fixes import FixPlan, plan_edits, with_nested
    from .positions import node_layout

    hints = _where_to_look(context.kernels, reports)
    layout = node_layout(context.source, context.module, code, hints, {n: f for n, f in hints.items() if f}, layouts)
    findings: dict[tuple[str, Position, Position, str], Finding] = {}
    fixes: dict[int, Fix] = {}  # id(plan) -> its fix: findings may share a plan (a `.to` chain)
    nested = with_nested((r.fix for _, r, _ in reports if isinstance(r.fix, FixPlan)), layout)
    for rule, report, kernel in reports:
        start, end = layout.range(report.node)
        if report.end_node is not None:
            end = layout.range(report.end_node)[1]
        related = tuple(Related(context.filename, *layout.range(node), message) for node, message in report.related)
        fix, no_fix_reason = None, rule.NO_FIX
        plan = report.fix
        if isinstance(plan, FixPlan):
            if id(plan) not in fixes:
                edits = plan_edits(context.module, nested.get(id(plan), plan), layout)
                fixes[id(plan)] = Fix(plan.applicability, plan.message, edits)
            fix = fixes[id(plan)]
        elif plan is not None:
            no_fix_reason = plan.reason
        message = report.message
        if related:
            message = message.replace("{related_line}", str(related[0].location.row))
        name = kernel.name if kernel else None
        finding = Finding(
            rule.CODE,
            rule.NAME,
            message,
            context.filename,
            start,
            end,
            name,
            related,
            fix,
            dict(report.facts),
            no_fix_reason,
        )
        findings.setdefault((finding.code, start, end, finding.message), finding)
    ends = comments.continued_to({finding.location.row for finding in findings.values()})
    found = [replace(f, continued_to=ends[f.location.row]) if f.location.row in ends else f for f in findings.values()]
    return sorted(found, key=lambda f: (f.location, f.code))


def _where_to_look(
    kernels: list[Kernel], reports: list[tuple[Rule, Report, Kernel | None]]
) -> dict[cst.CSTNode, cst.FunctionDef | None]:
    """Every node the reports name -> the function holding it, where its position is looked for
    first: for the reported range the report's `within`, else its kernel; for related nodes and
    fix edits its kernel, else `within` (a kernel's finding at a host launch relates tiles of
    the kernel); else a kernel whose decorators hold it (an autotune config), else None (looked
    for at the top level, then from the top of the file)."""
    from .fixes import FixPlan

    hints: dict[cst.CSTNode, cst.FunctionDef | None] = {}
    for _, report, kernel in reports:
        holder = kernel.node if kernel else None
        for node in (report.node, report.end_node):
            if node is not None:
                hints.setdefault(node, report.within or holder)
        others = [node for node, _ in report.related]
        if isinstance(report.fix, FixPlan):
            others.extend(report.fix.nodes())
        for node in others:
            hints.setdefault(node, holder or report.within)
    unplaced = {node for node, within in hints.items() if within is None}
    if unplaced:
        hints.update(_in_decorators(kernels, unplaced))
    return hints


def _in_decorators(kernels: list[Kernel], nodes: set[cst.CSTNode]) -> Iterator[tuple[cst.CSTNode, cst.FunctionDef]]:
    """Each of `nodes` that a kernel's decorators hold, with the kernel."""
    from .nodes import walk

    left = set(nodes)
    for kernel in kernels:
        for decorator in kernel.node.decorators:
            for node in walk(decorator):
                if node in left:
                    left.discard(node)
                    yield node, kernel.node
                    if not left:
                        return


def _disabled_for_file(comments: Comments, result: FileResult) -> frozenset[str]:
    """The codes the file's `# ascend-lint: disable-file` comments disable; a directive that
    cannot be read disables nothing, and it and unknown codes are warned about in `result`."""
    if DISABLE_FILE_WORD.search(comments.source) is None:
        return frozenset()
    known = set(all_codes())
    disabled: set[str] = set()
    for row, found in sorted(comments.disable_file().items()):
        directive = _readable(found, DISABLE_FILE, row, comments, result)
        if directive is not None:
            listed = known if directive.codes is None else set(directive.codes)
            for unknown in sorted(listed - known):
                _warn(
                    result, row, comments, directive.start, f"Invalid rule code provided to `{DISABLE_FILE}`: {unknown}"
                )
            disabled |= listed & known
    return frozenset(disabled)


def _noqa_directives(comments: Comments, result: FileResult) -> dict[int, Directive]:
    """The readable `# noqa` directives by row; one that cannot be read, and an `ASC` code no
    rule has, are warned about in `result` (codes of other linters are theirs: `F401`)."""
    known = set(all_codes())
    found: dict[int, Directive] = {}
    for row, read in sorted(comments.noqa().items()):
        directive = _readable(read, "# noqa", row, comments, result)
        if directive is not None:
            for code in directive.codes or ():
                if code.startswith("ASC") and code not in known:
                    _warn(result, row, comments, directive.start, f"Invalid rule code provided to `# noqa`: {code}")
            found[row] = directive
    return found


def _readable(
    directive: Directive | InvalidDirective, name: str, row: int, comments: Comments, result: FileResult
) -> Directive | None:
    """The directive when it could be read, else None; warnings in `result` for what it holds
    that is read past (`,,`), or why it is ignored."""
    if isinstance(directive, InvalidDirective):
        _warn(result, row, comments, directive.start, f"Invalid `{name}` directive ignored: {directive}")
        return None
    for warning in directive.warnings:
        _warn(result, row, comments, directive.start, f"Missing or joined rule code(s) in `{name}`: {warning}")
    return directive


def _warn(result: FileResult, row: int, comments: Comments, offset: int, message: str) -> None:
    """A warning at `offset` in the comment of `row`."""
    column = comments.comments[row][0] + offset + 1
    result.warnings.append(Diagnostic(result.filename, message, Position(row, column)))


def _suppressed(finding: Finding, noqa: dict[int, Directive]) -> bool:
    directive = noqa.get(finding.noqa_row)
    return directive is not None and directive.suppresses(finding.code)


def _fix_sparing(finding: Finding, noqa: dict[int, Directive]) -> Finding:
    """The finding, without its fix when the fix edits a row whose `# noqa` suppresses the
    finding's code (`fixes.suppressed_row`): what a user suppressed is never rewritten (a fix
    bundling the advances of several pointers would rewrite the one marked `# noqa: ASC006`)."""
    from .fixes import suppressed_row

    if finding.fix is None:
        return finding
    row = suppressed_row(finding.fix.edits, noqa, finding.code)
    if row is None:
        return finding
    reason = f"the fix would edit line {row}, where `# noqa` suppresses {finding.code}"
    return replace(finding, fix=None, no_fix_reason=reason)


def display_paths() -> Callable[[str], str]:
    """`relative_display` for one report, each path resolved once (a file's findings share it)."""
    return cache(relative_display)


def relative_display(filename: str) -> str:
    """Paths as the user sees them: relative to the current directory when inside it (its
    folders' symlinks resolved, not a symlink the file itself is: its target may be anywhere),
    `printable`."""
    absolute = Path(os.path.abspath(filename))
    try:
        return printable((real_path(absolute.parent) / absolute.name).relative_to(real_path(Path.cwd())).as_posix())
    except ValueError:
        return printable(filename)


def printable(name: str) -> str:
    """A path as every output shows it: a name that is not UTF-8 (`k\xff.py`, which Python holds
    as the lone surrogate `\udcff`) with U+FFFD for each byte that cannot be read, `k\ufffd.py`,
    as ruff shows it. A lone surrogate cannot be written as UTF-8: printing one raised
    UnicodeEncodeError (where stdout is strict), and JSON and SARIF carried it as `\udcff`,
    which stricter JSON readers refuse."""
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate no undecodable byte made (`\ud800`)
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in name)
