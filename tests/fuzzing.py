"""The in-project fuzzer (issue 11): inputs a new user's worst day brings, and the properties every
input must keep. Used by tests/test_fuzz.py (a small budget in CI) and bench/fuzz.py (long
campaigns that save shrunk reproducers).

Inputs: the fixture kernels mutated (lines and tokens deleted or duplicated, constexpr
annotations toggled, `.to(...)` wraps, `if FLAG or x:` and task-loop wrappers, BOM, CRLF/CR, form
feeds, tabs, deep nesting, huge literals, NUL and invalid bytes, odd `noqa`/disable comments, banners),
grammar-generated Python (hypothesmith) inside a kernel, and the fixture packages (modules
importing each other's kernels, device functions and core counts) with some modules mutated,
written to disk so that each module's lint reads the others.

Properties: no uncaught exception and no internal error; every range on a token boundary of the
original; `--fix --unsafe-fixes` output compiles, can be linted again (unless it hits a limit of
any input), is idempotent, introduces no undefined name (pyflakes is the oracle) and changes
nothing outside the fixes' edits; no file takes longer than its budget.
"""

from __future__ import annotations

import ast
import io
import keyword
import random
import re
import tempfile
import textwrap
import time
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import hypothesmith
from hypothesis import strategies as st
from pyflakes import checker, messages

from ascend_lint.config import Settings
from ascend_lint.engine import DocumentMemory, lint_source
from ascend_lint.fixer import fix_result
from ascend_lint.model import FileResult, LineIndex
from ascend_lint.source import SourceError, decode

REPO = Path(__file__).resolve().parent.parent
SEEDS = sorted(
    path
    for folder in ("fixtures/triton_ascend", "fixtures/runtime/triton_ascend", "fixtures/example/triton_ascend")
    for path in (REPO / folder).glob("*.py")
)
PACKAGES = sorted(path.parent for path in (REPO / "fixtures/triton_ascend").glob("*/__init__.py"))
KERNEL_HEAD = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef kernel(x, y, B, T, N: tl.constexpr):\n"
ODD_COMMENTS = (
    "# noqa",
    "# noqa:",
    "# noqa: ASC",
    "#noqa:ASC003,ASC9,",
    "# NOQA : asc001",
    "# ascend-lint: disable-file",
    "# ascend-lint: disable-file=",
    "# ascend-lint: disable-file=ASC00, nonsense,",
    "# noqa: ASC001 # noqa: ASC002",
    "#" * 72,  # a banner: after a `]` it once made the launch prefilter backtrack for hours
)
_WORD = re.compile(r"[^\W\d]\w*")
_INDENTED = re.compile(r"(?m)^[ \t]+(?=\S)")

Mutation = Callable[[str, random.Random], str]


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def _pick_line(text: str, rng: random.Random, indented: bool = False) -> tuple[list[str], int]:
    lines = _lines(text)
    rows = [i for i, line in enumerate(lines) if line[:1] in " \t"] if indented else list(range(len(lines)))
    return lines, rng.choice(rows or [0])


def delete_line(text: str, rng: random.Random) -> str:
    lines, row = _pick_line(text, rng)
    return "".join(lines[:row] + lines[row + 1 :])


def duplicate_line(text: str, rng: random.Random) -> str:
    lines, row = _pick_line(text, rng)
    return "".join(lines[: row + 1] + lines[row:])


def repeat_line(text: str, rng: random.Random) -> str:
    """A line of a block written many times over (`acc = acc + acc`, `n = min(n, 1024)`): each
    copy reads the one before, the chain of values a quadratic or exponential analysis shows on."""
    lines, row = _pick_line(text, rng, indented=True)
    return "".join(lines[: row + 1] + lines[row : row + 1] * rng.choice((8, 24, 64)) + lines[row + 1 :])


def _tokens(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the text's tokens (words, numbers, operators)."""
    return [match.span() for match in re.finditer(r"\w+|[^\w\s]", text)]


def delete_token(text: str, rng: random.Random) -> str:
    spans = _tokens(text)
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + text[end:]


def duplicate_token(text: str, rng: random.Random) -> str:
    spans = _tokens(text)
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:end] + text[start:end] + text[end:]


def toggle_constexpr(text: str, rng: random.Random) -> str:
    annotated = list(re.finditer(r":\s*tl\.constexpr", text))
    plain = list(re.finditer(r"(?<=[(,\s])([A-Za-z_]\w*)(?=\s*[,)])", text))
    if annotated and (not plain or rng.random() < 0.5):
        match = rng.choice(annotated)
        return text[: match.start()] + text[match.end() :]
    if plain:
        match = rng.choice(plain)
        return text[: match.end()] + ": tl.constexpr" + text[match.end() :]
    return text


def wrap_to(text: str, rng: random.Random) -> str:
    words = [m for m in _WORD.finditer(text) if m.group() not in ("def", "if", "for", "import", "return")]
    if not words:
        return text
    match = rng.choice(words)
    links = rng.choice((1, 1, 2, 5, 40))
    return text[: match.end()] + ".to(tl.int64)" * links + text[match.end() :]


def _wrap_line(text: str, rng: random.Random, header: str) -> str:
    lines, row = _pick_line(text, rng, indented=True)
    statement = lines[row].lstrip(" \t")
    indent = lines[row][: len(lines[row]) - len(statement)]
    lines[row] = f"{indent}{header}\n{indent}    {statement}"
    return "".join(lines)


def or_flag_wrapper(text: str, rng: random.Random) -> str:
    return _wrap_line(text, rng, rng.choice(("if FLAG or x:", "if not HAS_H0 or i_t < NT - 1:", "if x and N:")))


def task_loop_wrapper(text: str, rng: random.Random) -> str:
    return _wrap_line(text, rng, "for task_id in tl.range(tl.program_id(0), T, tl.num_programs(0)):")


def crlf(text: str, rng: random.Random) -> str:
    return text.replace("\n", "\r\n")


def cr(text: str, rng: random.Random) -> str:
    return text.replace("\n", "\r")


def form_feeds(text: str, rng: random.Random) -> str:
    """Form feeds opening indented lines, some after whitespace (CPython counts columns from the
    form feed, so the indentation stays what it was)."""
    openings = ("\f", "\f", "  \f", "\t\f")
    return _INDENTED.sub(lambda m: (rng.choice(openings) if rng.random() < 0.3 else "") + m.group(), text)


def tabs(text: str, rng: random.Random) -> str:
    return re.sub(r"(?m)^((?:    )+)", lambda m: "\t" * (len(m.group(1)) // 4), text)


def deep_nesting(text: str, rng: random.Random) -> str:
    spans = [m.span() for m in _WORD.finditer(text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    depth = rng.choice((2, 20, 150, 199, 201, 300))
    return text[:start] + "(" * depth + text[start:end] + ")" * depth + text[end:]


def huge_literal(text: str, rng: random.Random) -> str:
    numbers = list(re.finditer(r"\b\d+\b", text))
    literal = rng.choice(("9" * rng.choice((50, 4301, 20000)), '"' + "x" * 4000 + '"', "0x" + "f" * 3000))
    if not numbers:
        return text + f"\nBIG = {literal}\n"
    match = rng.choice(numbers)
    return text[: match.start()] + literal + text[match.end() :]


def nul(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + "\0" + text[at:]


def odd_comment(text: str, rng: random.Random) -> str:
    lines, row = _pick_line(text, rng)
    body = lines[row].rstrip("\r\n")
    lines[row] = f"{body}  {rng.choice(ODD_COMMENTS)}{lines[row][len(body) :]}"
    return "".join(lines)


# What kernel authors do (often), how files are formatted (less), what breaks a file (least): most
# mutants still parse, so the analyses and fixes get exercised.
TEXT_MUTATIONS: tuple[Mutation, ...] = (
    *(duplicate_line, toggle_constexpr, wrap_to, or_flag_wrapper, task_loop_wrapper, odd_comment) * 4,
    *(crlf, cr, form_feeds, tabs) * 2,
    *(delete_line, delete_token, duplicate_token, deep_nesting, huge_literal, nul, repeat_line),
)
BYTE_MUTATIONS = ("none",) * 7 + ("bom", "invalid-bytes", "latin-1-cookie")  # mostly files that decode


def to_bytes(text: str, how: str, rng: random.Random) -> bytes:
    data = text.encode("utf-8", "surrogatepass")
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "invalid-bytes":
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80")) + data[at:]
    if how == "latin-1-cookie":
        return rng.choice((b"", b"\xef\xbb\xbf")) + b"# -*- coding: latin-1 -*-\n" + data
    return data


@st.composite
def mutants(draw: st.DrawFn) -> bytes:
    """A fixture kernel with up to four mutations, as the bytes of a file."""
    seed = draw(st.sampled_from(SEEDS))
    text = seed.read_text(encoding="utf-8")
    for mutation, number in draw(
        st.lists(st.tuples(st.sampled_from(TEXT_MUTATIONS), st.integers(0, 2**32)), max_size=4)
    ):
        text = mutation(text, random.Random(number))
    return to_bytes(text, draw(st.sampled_from(BYTE_MUTATIONS)), random.Random(draw(st.integers(0, 2**32))))


@st.composite
def package_mutants(draw: st.DrawFn) -> dict[str, bytes]:
    """A fixture package with one to three of its modules mutated as `mutants` are, as
    `{path: bytes}`, the paths under the package's folder (its absolute imports name it)."""
    package = draw(st.sampled_from(PACKAGES))
    files = {f"{package.name}/{path.name}": path.read_bytes() for path in sorted(package.glob("*.py"))}
    for name in draw(st.lists(st.sampled_from(sorted(files)), min_size=1, max_size=3, unique=True)):
        text = files[name].decode("utf-8")
        if draw(st.booleans()):  # imports in a circle, of itself, of all of a module, of what it lacks
            text = cross_import(text, package.name, sorted(files), random.Random(draw(st.integers(0, 2**32))))
        for mutation, number in draw(
            st.lists(st.tuples(st.sampled_from(TEXT_MUTATIONS), st.integers(0, 2**32)), min_size=1, max_size=3)
        ):
            text = mutation(text, random.Random(number))
        files[name] = to_bytes(text, draw(st.sampled_from(BYTE_MUTATIONS)), random.Random(draw(st.integers(0, 2**32))))
    return files


def cross_import(text: str, package: str, files: list[str], rng: random.Random) -> str:
    """`text` with an import of a module of the package (maybe itself or a missing one) inserted
    at a line's start: relative or absolute, a name of the package's words, `*`, or the module."""
    module = rng.choice([*(Path(name).stem for name in files), "missing"])
    word = rng.choice([*(word for word in _WORD.findall(text) if not keyword.iskeyword(word)), "*"])
    line = rng.choice(
        (
            f"from .{module} import {word}",
            f"from {package}.{module} import {word}",
            f"from . import {module}",
            f"import {package}.{module} as {word if word != '*' else module}",
        )
    )
    rows = _lines(text)
    starts = [i for i, row in enumerate(rows) if re.match(r"(import|from|def|class|@|[^\W\d])", row)]
    rows.insert(rng.choice(starts or [0]), line + "\n")
    return "".join(rows)


def in_a_kernel(code: str) -> str:
    """`code` as the body of a kernel (after a `pass`: code of comments alone is no body)."""
    return KERNEL_HEAD + "    pass\n" + textwrap.indent(code, "    ") + "\n"


def generated() -> st.SearchStrategy[bytes]:
    """Grammar-generated Python, as a module of its own or as the body of a kernel."""
    code = st.one_of(hypothesmith.from_grammar(), hypothesmith.from_node())
    return st.one_of(code, code.map(in_a_kernel)).map(lambda text: text.encode("utf-8", "surrogatepass"))


# ---- the properties --------------------------------------------------------------------------


DEFECTS = ("internal error", "took longer")  # in a diagnostic: a bug, or a hang
# A fix's edits are libcst's code spliced into a text libcst parsed: a fixed text it cannot parse
# is the fix's bug (new lines indented as libcst cannot tokenize them). The fixed text's other
# refusals are the limits of any input (a line a fix made too long, nesting a fix deepened).
FIX_DEFECTS = (*DEFECTS, "libcst cannot parse")


@dataclass
class Outcome:
    """What became of one input (the campaign's statistics count these)."""

    refused: str | None = None  # the diagnostic when the file could not be linted
    findings: int = 0
    fixed: bool = False
    fix_refused: str | None = None
    seconds: float = 0.0  # CPU seconds (as the per-file budget counts), not wall time under load
    lines: int = 0
    problems: list[str] = field(default_factory=list)  # property violations


def check(data: bytes, budget: float, path: Path | None = None) -> Outcome:
    """Lint and fix one file's bytes in process; every property violation goes to `problems`.
    With `path`, the file is there and its package around it."""
    outcome = Outcome()
    settings = Settings(root=path.parent if path else REPO, target_all=True, timeout_per_file=budget)
    started = time.process_time()
    try:
        text = decode(data)
    except SourceError as error:
        outcome.refused = str(error)
        return outcome
    outcome.lines = len(LineIndex(text).starts)
    memory = DocumentMemory.empty()  # as `--fix` lints: its re-lint keeps what the check found
    result = lint_source(text, str(path or "triton_ascend/mutant.py"), settings, memory=memory)
    outcome.seconds = time.process_time() - started
    if result.error is not None:
        outcome.refused = result.error.message
        if any(defect in result.error.message for defect in DEFECTS):
            outcome.problems.append(f"{result.error.message}\n{result.error.detail or ''}")
        return outcome
    outcome.findings = len(result.findings)
    outcome.problems.extend(off_boundary(result))
    started = time.process_time()
    fixed, change = fix_result(result, settings, unsafe=True, memory=memory)
    outcome.seconds += time.process_time() - started
    if fixed.error is not None:
        outcome.fix_refused = fixed.error.message
        if fix_defect(fixed.error.message):
            outcome.problems.append(f"fix: {fixed.error.message}\n{fixed.error.detail or ''}")
        return outcome
    if change is not None:
        outcome.fixed = True
        outcome.problems.extend(fix_problems(result, fixed, change.fixed, settings))
    return outcome


def check_package(files: dict[str, bytes], budget: float) -> dict[str, Outcome]:
    """Write the package to a temporary folder and `check` each module there (its lint reads
    the other modules it imports from or that launch its kernels)."""
    with tempfile.TemporaryDirectory() as folder:
        for name, data in files.items():
            Path(folder, name).parent.mkdir(parents=True, exist_ok=True)
            Path(folder, name).write_bytes(data)
        return {name: check(data, budget, Path(folder, name)) for name, data in files.items()}


def fix_defect(message: str) -> bool:
    """Whether a fix refusal's message shows a bug (FIX_DEFECTS), not a limit or a check."""
    return any(defect in message for defect in FIX_DEFECTS)


def expected_fix_refusal(message: str) -> bool:
    """Whether a fix was refused by the fixer's own checks of the fixed text (it would not
    compile, or would read a name that resolves nowhere): what they are for. Any other refusal
    (the fixed text's re-lint failed) is rare and worth a look."""
    return message.startswith("fixes for ")


def off_boundary(result: FileResult) -> list[str]:
    """Ranges (findings, related, fix edits) that do not start and end on a token boundary."""
    assert result.source is not None
    boundaries = token_boundaries(result.source)
    if boundaries is None:
        return []
    index = LineIndex(result.source)
    problems = []
    for finding in result.findings:
        spans = [(finding.location, finding.end_location)]
        spans += [(related.location, related.end_location) for related in finding.related]
        spans += [(edit.start, edit.end) for edit in finding.fix.edits] if finding.fix else []
        for start, end in spans:
            if index.offset(start) not in boundaries or index.offset(end) not in boundaries:
                problems.append(f"{finding.code} range {start}-{end} is not on token boundaries")
    return problems


def token_boundaries(text: str) -> set[int] | None:
    """Offsets where Python's tokenizer starts or ends a token (None if it cannot tokenize)."""
    index = LineIndex(text)
    lines = index.lines()
    boundaries = set()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    for token in tokens:
        for row, column in (token.start, token.end):
            if row > len(lines):
                boundaries.add(len(text))
            elif column > len(lines[row - 1]):  # past the line's end: its line break
                boundaries.add(index.starts[row] if row < len(index.starts) else len(text))
            else:
                boundaries.add(index.starts[row - 1] + column)
    return boundaries


def fix_problems(result: FileResult, relinted: FileResult, fixed: str, settings: Settings) -> list[str]:
    """The fixed text compiles, changes nothing outside the edits, reads no new undefined name,
    fixing it again changes nothing, and the fix's re-lint (`relinted`, keeping the check's
    memory) reports what a fresh lint of it reports."""
    assert result.source is not None
    problems = []
    try:
        compile(fixed, "fixed.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        return [f"the fixed file does not compile: {error}"]
    problems.extend(outside_edits(result, fixed))
    new = undefined_names(fixed) - undefined_names(result.source)
    if new:
        problems.append(f"the fixes introduced undefined names: {sorted(new)}")
    fresh = lint_source(fixed, result.filename, settings)
    if (relinted.error, relinted.findings) != (fresh.error, fresh.findings):
        problems.append("the re-lint keeping the check's memory differs from a fresh lint of the fixed file")
    _, change = fix_result(fresh, settings, unsafe=True)
    if change is not None:
        problems.append("fixing the fixed file changed it again")
    return problems


def outside_edits(result: FileResult, fixed: str) -> list[str]:
    """The source's text outside every fix edit must be in `fixed`, in order, with only new
    text between: `fixed` = kept[0] + new + kept[1] + new + ... + kept[-1]."""
    source = result.source
    assert source is not None
    index = LineIndex(source)
    cuts = sorted(
        (index.offset(edit.start), index.offset(edit.end))
        for finding in result.findings
        if finding.fix is not None
        for edit in finding.fix.edits
    )
    kept, cursor = [], 0
    for start, end in cuts:
        if start >= cursor:
            kept.append(source[cursor:start])
        cursor = max(cursor, end)
    kept.append(source[cursor:])
    if not (fixed.startswith(kept[0]) and fixed.endswith(kept[-1])):
        return ["the fixed file's start or end differs outside the edits"]
    at = len(kept[0])
    for piece in kept[1:-1]:
        at = fixed.find(piece, at)
        if at < 0:
            return [f"text outside the edits is gone: {piece[:60]!r}"]
        at += len(piece)
    if at > len(fixed) - len(kept[-1]):
        return ["text outside the edits is out of order"]
    return []


def undefined_names(text: str) -> set[str]:
    """pyflakes' undefined names (an oracle independent of ascend-lint's names.py)."""
    found = checker.Checker(ast.parse(text), "f.py").messages
    return {message.message_args[0] for message in found if isinstance(message, messages.UndefinedName)}
