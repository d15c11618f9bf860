"""Reading and parsing one file: the engine's contract for what it accepts.

Every input ends in exactly one of four ways; none prints a traceback unless `--verbose` asks.

1. **Refused up front** (`SourceError`, before any parser runs), with the reason and, when there
   is one, the place:
   - no regular file (a FIFO or a device named `*.py` would block the read or never end it:
     "cannot read file: not a regular file", `read_source`); a path the OS will not open (a
     symlink loop, a folder that cannot be searched) gets the OS's reason ("cannot read file:
     Too many levels of symbolic links"), wherever discovery meets it: user paths are resolved
     with `config.real_path`, never `Path.resolve()`, which raises on a loop;
   - more than 5 MB (read no further): time and memory grow linearly (docs/robustness.md gives µs/line up to this
     size), and a file that big is generated, not written. A text given in memory (the editor
     server's, flake8's) is measured as UTF-8 (`check_text`);
   - NUL bytes, bytes that are invalid in the file's encoding, an unknown encoding, a UTF-8 BOM
     with a coding cookie naming another encoding: CPython refuses these too (same message);
     a lone surrogate in a text given in memory (no encoding can write it, `check_text`);
   - brackets nested deeper than 200 (CPython's own limit), a line longer than 5,000
     characters or one bracketed expression longer than 50,000: such an expression can hold
     thousands of chained operators (`a + b + ...`), which libcst nests one level per operator
     and every tree walk then recurses through. Brackets are the code's: one in a string or a
     comment never refuses a file.
2. **Syntax error**: CPython decides, not libcst. Every file is compiled as `python file.py`
   would compile it; CPython's message and position are reported, also where libcst would
   accept the file (`x = b"a" "b"`, `f() = 1`, `return` outside a function). Valid Python that
   libcst cannot parse is reported as such ("valid Python that libcst cannot parse"); what is too
   deep for either parser is "too deeply nested to parse".
3. **Linted**: findings, possibly none. A tree too deep for the analyses' recursion (chained
   operators across backslash-continued lines) is reported as "too deeply nested to analyse".
4. **Internal error**: any other exception is a bug in ascend-lint. The file gets
   "internal error (...); please report it" (the traceback with `--verbose`), the other files are
   still linted, and the exit status is 2.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import gc
import io
import os
import re
import stat
import threading
import tokenize
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from types import CodeType, MemberDescriptorType
from typing import TYPE_CHECKING, ClassVar

from .model import Diagnostic, LineIndex, Position

if TYPE_CHECKING:
    import libcst as cst

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_LINE_CHARS = 5000
MAX_BRACKET_DEPTH = 200  # CPython's own limit ("too many nested parentheses")
MAX_BRACKET_SPAN = 50_000

_BRACKETS = re.compile(r"[()\[\]{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_OPENERS = frozenset("([{")


class SourceError(Exception):
    """The file cannot be linted; carries the diagnostic to show."""

    def __init__(self, message: str, location: Position | None = None):
        super().__init__(message)
        self.location = location


def detect_encoding(data: bytes) -> str:
    """The encoding CPython reads the file in (PEP 263 cookie, UTF-8 BOM, else UTF-8).

    Refuses what CPython refuses (an unknown encoding, a BOM with a cookie naming another
    encoding) with CPython's message. `--fix` writes the file back in this same encoding.
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "invalid or missing encoding declaration" in str(exc):
            return "utf-8"  # undecodable first lines: decoding names the bad byte
        raise SourceError(f"SyntaxError: {_cpython_encoding_message(data) or exc}", Position(1, 1)) from None
    return encoding


def _cpython_encoding_message(data: bytes) -> str | None:
    try:
        compile(data, "<source>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return exc.msg
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def read_source(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a source file, as every reader of one takes them (the linted file, the
    modules of its package, the cache's check, `--fix`'s): a regular file, symlinks followed,
    read no further than the size limit. OSError for anything else (a FIFO would block the
    read, a device never end it), SourceError for a larger file."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
    with open(descriptor, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _too_large(max(status.st_size, len(data)))
    return data


def _too_large(size: int) -> SourceError:
    return SourceError(f"file too large to lint ({size} bytes; limit {MAX_FILE_BYTES})")


def decode(data: bytes) -> str:
    """The file's text (without a BOM), or a SourceError saying why it cannot be read."""
    if len(data) > MAX_FILE_BYTES:
        raise _too_large(len(data))
    encoding = detect_encoding(data)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        row = data.count(b"\n", 0, exc.start) + 1
        raise SourceError(
            f"file is not valid {encoding}: byte 0x{data[exc.start]:02x} at offset {exc.start}",
            Position(row, exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1),
        ) from None
    return text.removeprefix("\ufeff")


def check_text(text: str) -> None:
    """Refuse a text given in memory (an editor's document, flake8's lines of a file, a fixed
    text) that `read_source` and `decode` would have refused as bytes: over the size limit
    (counted as its UTF-8 encoding: what the editor saves), or holding a lone surrogate, a
    character no encoding can write. A JSON string may carry one (`"\\ud800"`): the editor
    server passed it on, and `compile` raised UnicodeEncodeError, reported as an internal
    error."""
    if not text.isascii() and (surrogate := _SURROGATE.search(text)) is not None:
        raise SourceError(
            f"text cannot be encoded as utf-8: lone surrogate U+{ord(surrogate.group()):04X}",
            LineIndex(text).position(surrogate.start()),
        )
    # a character is 1 to 4 bytes of UTF-8: only a long text is encoded to be measured
    if len(text) > MAX_FILE_BYTES // 4 and (size := len(text.encode("utf-8"))) > MAX_FILE_BYTES:
        raise _too_large(size)


def _check_shape(text: str) -> None:
    """Refuse inputs that would crash or stall the parser, with the reason."""
    nul = text.find("\0")
    if nul >= 0:
        raise SourceError("source contains NUL bytes", LineIndex(text).position(nul))
    # The brackets of the raw text, strings and comments included, are a cheap bound that
    # almost every file passes; one it trips is measured again on its bracket tokens, so that a
    # `"("` in a string or a comment cannot refuse a valid file.
    problem = _bracket_problem((match.group(), match.start()) for match in _BRACKETS.finditer(text))
    if problem is not None and (problem := _bracket_problem(_bracket_tokens(text))) is not None:
        message, offset = problem
        raise SourceError(message, LineIndex(text).position(offset))
    # rows end at \n, \r\n or \r: a row that long lies within as long a stretch between two \n
    if max(map(len, text.split("\n"))) > MAX_LINE_CHARS:
        for row, line in enumerate(LineIndex(text).lines(), 1):
            if len(line) > MAX_LINE_CHARS:
                raise SourceError(
                    f"line too long to analyse ({len(line)} characters; limit {MAX_LINE_CHARS})", Position(row, 1)
                )


def _bracket_problem(brackets: Iterable[tuple[str, int]]) -> tuple[str, int] | None:
    """Why brackets at those offsets are too deep or span too much text, and where; or None."""
    depth = 0
    group_start = 0
    for bracket, offset in brackets:
        if bracket in _OPENERS:
            if depth == 0:
                group_start = offset
            depth += 1
            if depth > MAX_BRACKET_DEPTH:
                return f"too many nested parentheses (more than {MAX_BRACKET_DEPTH})", offset
        elif depth:
            depth -= 1
            if depth == 0 and offset - group_start > MAX_BRACKET_SPAN:
                span = offset - group_start
                message = f"expression too large to analyse (one bracketed expression spans {span} characters; limit {MAX_BRACKET_SPAN})"
                return message, group_start
    return None


def _bracket_tokens(text: str) -> Iterator[tuple[str, int]]:
    """The text's bracket tokens and their offsets; none past a point the tokenizer refuses
    (the compiler then reports it)."""
    index = LineIndex(text)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.type == tokenize.OP and token.string in "()[]{}":
                yield token.string, index.offset(Position(token.start[0], token.start[1] + 1))
    except (tokenize.TokenError, SyntaxError):
        return


def compile_python(text: str, compiled: CodeType | None = None) -> CodeType:
    """CPython's verdict on the text: its compiled module, or its SyntaxError as a SourceError.
    `compiled`, the module a caller compiled already from this very text, is taken as it is."""
    _check_shape(text)
    if compiled is not None:
        return compiled
    try:
        with warnings.catch_warnings():  # e.g. invalid escape sequences: not ours to report
            warnings.simplefilter("ignore")
            return compile(text, "<source>", "exec", dont_inherit=True)
    except SyntaxError as exc:  # and its subclasses IndentationError, TabError
        where = Position(max(exc.lineno or 1, 1), max(exc.offset or 1, 1))
        raise SourceError(f"{type(exc).__name__}: {exc.msg}", where) from None
    except (RecursionError, MemoryError):
        raise SourceError("too deeply nested to parse") from None


def parse(text: str) -> cst.Module:
    """libcst's tree of a file CPython accepts (`compile_python`; see the contract above)."""
    import libcst as cst  # loaded on the first file that is parsed: cached runs never pay for it

    _parsed_since_release.chars += len(text)
    try:
        with built_old(), _nodes_unchecked():
            return _parse_in_pieces(text)
    except cst.ParserSyntaxError as exc:  # its position is often not where the cause is: none given
        reason = exc.message.strip().splitlines()[0] if exc.message else "invalid syntax"
        raise SourceError(f"valid Python that libcst cannot parse ({reason})") from None
    except cst.CSTValidationError as exc:
        raise SourceError(f"valid Python that libcst cannot parse ({exc})") from None
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None


class _ParsedSinceRelease:
    chars = 0  # of text libcst parsed since the C allocator last gave freed memory back


_parsed_since_release = _ParsedSinceRelease()
RELEASE_AFTER_CHARS = 16 * 1024


def give_back_freed_memory() -> None:
    """Returns to the system the pages the C allocator holds free, once libcst has parsed at
    least RELEASE_AFTER_CHARS of text since the last time (the files' own trees and the modules
    read for their imports and launches).

    libcst's native parser builds its tokens and tree with `malloc`, tens of megabytes for a
    module of a few hundred kilobytes, and frees them once the Python tree is built. glibc gives
    back on its own only what lies at the top of its heap, which the next allocations soon
    cover, so every large parse raised the footprint of a run over many files for good
    (vllm_ascend 0.26.0rc1, `--jobs 1`: a peak of 128 MB, 105 MB with this; docs/performance.md).
    A call costs about 0.5 ms. Nothing happens where the C library has no `malloc_trim`."""
    if _parsed_since_release.chars < RELEASE_AFTER_CHARS:
        return
    _parsed_since_release.chars = 0
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, else None."""
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None


@contextmanager
def _nodes_unchecked() -> Iterator[None]:
    """libcst builds each node through its dataclass `__init__`: one `object.__setattr__` per
    field (nodes are frozen), then `__post_init__`, which checks the node (`_validate`: 15–25% of
    a parse of fla's Ascend files, measured). The parse of a text CPython compiled builds nodes
    that pass (the same trees on 1,270 corpus files and 3,567 fuzzed ones, no validation error),
    so while the parser builds them no node is checked, and the classes it builds most
    (`_BUILT_MOST`) get an `__init__` that stores each field straight into its slot. The switch
    is process-wide: a node another thread builds meanwhile is not checked either (the fixer
    compiles every text it writes, so an invalid node never reaches a file)."""
    import libcst as cst

    with _NodeChecks.lock:
        if not _NodeChecks.parses:
            _NodeChecks.original = cst.CSTNode.__post_init__
            cst.CSTNode.__post_init__ = _no_check  # type: ignore[method-assign, assignment]
            if not _NodeChecks.direct:
                _NodeChecks.direct = _direct_initialisers()
                _NodeChecks.own = {node_class: vars(node_class)["__init__"] for node_class in _NodeChecks.direct}
            for node_class, initialiser in _NodeChecks.direct.items():
                node_class.__init__ = initialiser  # type: ignore[method-assign]
        _NodeChecks.parses += 1
    try:
        yield
    finally:
        with _NodeChecks.lock:
            _NodeChecks.parses -= 1
            if not _NodeChecks.parses and _NodeChecks.original is not None:
                cst.CSTNode.__post_init__ = _NodeChecks.original  # type: ignore[method-assign, assignment]
                for node_class, initialiser in _NodeChecks.own.items():
                    node_class.__init__ = initialiser  # type: ignore[method-assign]


class _NodeChecks:
    """libcst's node checks are off while any thread parses (`_nodes_unchecked`)."""

    lock = threading.Lock()
    parses = 0
    original: Callable[[cst.CSTNode], None] | None = None
    direct: ClassVar[dict[type[cst.CSTNode], Callable[..., None]]] = {}  # built on the first parse
    own: ClassVar[dict[type[cst.CSTNode], Callable[..., None]]] = {}  # their dataclass's `__init__`


def _no_check(node: cst.CSTNode) -> None:
    """A libcst node's `__post_init__` while parsing: no `_validate`."""


# The node classes a parse builds most: 96% of the nodes of fla-core's Ascend files (whitespace
# alone is 43%). Each gets its own generated `__init__`; compiling one for every node class
# would cost a small file's lint more than its parse gains (measured: 28 ms for 172 classes).
_BUILT_MOST = (
    "SimpleWhitespace", "Name", "Newline", "Comma", "TrailingWhitespace", "Arg", "Dot", "Attribute",
    "BinaryOperation", "SimpleStatementLine", "Element", "Call", "ParenthesizedWhitespace",
    "AssignTarget", "Assign", "AssignEqual", "Integer", "Param", "Multiply", "LeftParen",
    "RightParen", "Add", "Tuple", "SubscriptElement", "EmptyLine", "Annotation", "IndentedBlock",
    "LeftSquareBracket", "RightSquareBracket", "Index",
)  # fmt: skip


def _direct_initialisers() -> dict[type[cst.CSTNode], Callable[..., None]]:
    """For each class of `_BUILT_MOST`, an `__init__` with its dataclass's signature that stores
    each field with the field's slot setter, skipping `object.__setattr__` and `__post_init__`
    (measured: 1.47 µs → 0.84 µs for a `Name`). A class whose fields are not all plain slots is
    left to its own `__init__`."""
    import libcst as cst

    namespace: dict[str, object] = {"_FACTORY": _FACTORY}
    lines: list[str] = []
    built: list[type[cst.CSTNode]] = []
    for node_class in (getattr(cst, name) for name in _BUILT_MOST):
        if "__init__" not in vars(node_class):
            continue
        number = len(built)
        parameters: list[str] = []
        body: list[str] = []
        for index, field in enumerate(dataclasses.fields(node_class)):
            slot = _slot(node_class, field.name)
            if slot is None or field.kw_only or not field.init:
                break
            tag = f"{number}_{index}"
            namespace[f"put{tag}"], value = slot.__set__, field.name
            if field.default is not dataclasses.MISSING:
                namespace[f"default{tag}"] = field.default
                parameters.append(f"{field.name}=default{tag}")
            elif field.default_factory is not dataclasses.MISSING:
                namespace[f"factory{tag}"] = field.default_factory
                parameters.append(f"{field.name}=_FACTORY")
                value = f"factory{tag}() if {field.name} is _FACTORY else {field.name}"
            else:
                parameters.append(field.name)
            body.append(f"    put{tag}(self, {value})")
        else:
            lines += [f"def init{number}(self, {', '.join(parameters)}):", *body]
            built.append(node_class)
    exec(compile("\n".join(lines), "<ascend_lint.source: direct node initialisers>", "exec"), namespace)
    return {node_class: namespace[f"init{number}"] for number, node_class in enumerate(built)}  # type: ignore[misc]


_FACTORY = object()  # a field with a default factory was not given


def _slot(node_class: type, name: str) -> MemberDescriptorType | None:
    """The slot that holds field `name` of `node_class`, if it is a plain slot."""
    for klass in node_class.__mro__:
        found = vars(klass).get(name)
        if found is not None:
            return found if isinstance(found, MemberDescriptorType) else None
    return None


@contextmanager
def collection_paused() -> Iterator[None]:
    """No garbage collection in the block: building a tree allocates ~50 objects a line and frees
    none, so a collection would only walk them."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@contextmanager
def built_old() -> Iterator[None]:
    """`collection_paused`, and what the block builds (a tree to analyse) then joins the oldest
    generation unwalked: else every young collection until the tree is garbage walks it to free
    nothing (measured: 0.65 s of a 1 MB check). Inside an analysis nothing moves (its objects
    stay young: see `analysis_kept_young`)."""
    moving = not _analysed.analysing
    with collection_paused():
        yield
        if moving:  # the young generations hold little else: each analysis collects them as it ends
            gc.freeze()  # every tracked object to the permanent generation (a list splice) ...
            gc.unfreeze()  # ... and from there to the oldest one


@contextmanager
def analysis_kept_young() -> Iterator[None]:
    """No collection while a tree is analysed, then one of the young generations only.

    The analysis leaves reference cycles that hold parts of the tree (a kernel's flow events
    point at each other and at its nodes). With collections paused, everything it builds stays
    young, while the tree (`built_old`) sits in the oldest generation. The collection at the
    end walks only the young objects: it frees those cycles, and the tree they held falls by
    reference counting once its lint lets it go. A full collection would walk every tree, alive
    or dead (fla's tree with `--target-all`, `--jobs 1`: 45 full collections took 2.96 s,
    measured with `gc.callbacks`). An analysis whose facts a `DocumentMemory` keeps (the editor
    server, `--fix`) leaves them alive: the collection moves them to the oldest generation, and
    CPython's own schedule makes a full collection once enough of them have moved."""
    _analysed.analysing = True
    with collection_paused():
        try:
            yield
        finally:
            _analysed.analysing = False
            gc.collect(1)


class _Analysed(threading.local):
    analysing = False  # inside `analysis_kept_young`


_analysed = _Analysed()


PIECE_CHARS = 8 * 1024
# A blank line, then a top-level definition: where a file can be cut into modules of its own.
_DEFINITION = re.compile(r"(?:\r\n?|\n)[ \t]*(?:\r\n?|\n)(?=@|def |class |async def )")


def _parse_in_pieces(text: str) -> cst.Module:
    """libcst's tree of `text`, parsed in pieces of about PIECE_CHARS cut before top-level
    definitions and joined into one module.

    libcst's parse time per line grows with the file (measured: 185 µs/line at 0.25 MB, 290 at
    1 MB, GC off); pieces keep every file at the small-file rate. Its native parser also holds
    about 800 bytes per character of the text it is given until the Python tree is built, so the
    pieces are small: a 78 KB module peaked 37 MB above the start parsed in 32 KB pieces, 17 MB in
    8 KB ones, in the same time (docs/performance.md, "Memory"). Joined, the pieces write back
    the same text (the lines a piece ends or starts with lead the next statement). A cut that
    leaves a piece unparsable (inside a string, between decorators), or pieces that disagree on
    the default indentation or newline, fall back to one parse of the whole text.
    """
    import libcst as cst

    pieces = _pieces(text)
    if len(pieces) == 1:
        return _parse_piece(text)
    try:
        modules = [_parse_piece(piece) for piece in pieces]
    except (cst.ParserSyntaxError, cst.CSTValidationError):
        return cst.parse_module(text)
    first = modules[0]
    if any((m.default_indent, m.default_newline) != (first.default_indent, first.default_newline) for m in modules):
        return cst.parse_module(text)
    body = list(first.body)
    lines = list(first.footer)  # lines between a piece's last statement and the next piece's first
    for module in modules[1:]:
        lines.extend(module.header)
        if module.body:
            opening = module.body[0]
            body.append(opening.with_changes(leading_lines=[*lines, *opening.leading_lines]))
            body.extend(module.body[1:])
            lines = []
        lines.extend(module.footer)
    return first.with_changes(body=body, footer=lines, has_trailing_newline=modules[-1].has_trailing_newline)


def _pieces(text: str) -> list[str]:
    """The text cut before top-level definitions (`_DEFINITION`), a piece every PIECE_CHARS or so."""
    return _cut(text, (match.end() for match in _DEFINITION.finditer(text)))


def _cut(text: str, offsets: Iterable[int]) -> list[str]:
    """The text cut at those of the ascending `offsets` at least PIECE_CHARS after the last cut."""
    cuts = [0]
    for offset in offsets:
        if offset - cuts[-1] >= PIECE_CHARS:
            cuts.append(offset)
    return [text[start:end] for start, end in zip(cuts, [*cuts[1:], len(text)], strict=True)]


# A top-level class (its header on one line) and the indentation of its body.
_CLASS_BODY = re.compile(
    r"(?m)^class\b[^\r\n]*:[ \t]*(?:#[^\r\n]*)?(?:\r\n?|\n)(?:[ \t]*(?:#[^\r\n]*)?(?:\r\n?|\n))*([ \t]+)(?=\S)"
)


def _parse_piece(piece: str) -> cst.Module:
    """libcst's tree of one piece. A piece that is mostly one class (a host module's model
    runner: 237 KB in one class) is parsed in parts cut before the class's methods
    (`_class_parts`), the methods of each later part inside a stand-in `class _:`, and the
    methods are joined into the class (`_joined_class_parts`); where the parts do not join, the
    piece is parsed whole."""
    import libcst as cst

    parts = _class_parts(piece)
    if not parts:
        return cst.parse_module(piece)
    try:
        joined = _joined_class_parts(parts)
    except (cst.ParserSyntaxError, cst.CSTValidationError, RecursionError):
        joined = None
    return joined if joined is not None else cst.parse_module(piece)


def _class_parts(piece: str) -> list[str]:
    """The piece cut where a blank line inside its last top-level class leads to a method, its
    decorators or a nested class at the class body's indentation (past more blank lines and
    comments there), every PIECE_CHARS or so; none when the piece is small or holds no such
    class. A cut keeps those lines with the method they lead to, and is not made after a
    comment or decorator line (which may belong to what follows)."""
    if len(piece) < 2 * PIECE_CHARS:
        return []
    classes = list(_CLASS_BODY.finditer(piece))
    if not classes or len(piece) - classes[-1].start() < 2 * PIECE_CHARS:
        return []
    start, indent = classes[-1].end(), re.escape(classes[-1][1])
    blank, comment = r"[ \t\f]*(?:\r\n?|\n)", rf"{indent}#[^\r\n]*(?:\r\n?|\n)"
    method = re.compile(rf"(?:\r\n?|\n)(?={blank}(?:{blank}|{comment}){{0,8}}{indent}(?:@|def |async def |class ))")
    parts = _cut(piece, (match.end() for match in method.finditer(piece, start) if _after_code(piece, match.start())))
    return parts if len(parts) > 1 else []


def _after_code(text: str, line_end: int) -> bool:
    """Whether the line ending at `line_end` is no comment or decorator line."""
    line_start = max(text.rfind("\n", 0, line_end), text.rfind("\r", 0, line_end)) + 1
    return not text[line_start:line_end].strip().startswith(("#", "@"))


def _joined_class_parts(parts: list[str]) -> cst.Module | None:
    """The module of `parts` (`_class_parts`) with the methods of the later ones joined into the
    first one's last class (the last part may go on after the class: the module's statements
    after it); None when the parts do not read as that (the class not last in the first part,
    lines left after a part's last statement, another indentation or newline).

    Each part writes back its own text (libcst's round trip), and a statement of a class body
    writes the same text in any class body of the same indentation, so the joined module writes
    back the whole piece: no codegen checks it (that took 1.0 s of vllm_ascend's 8.4 s parse).
    `tests/test_vllm_corpus.py` compares the trees with the whole parse on every such class of
    vllm-ascend."""
    import libcst as cst

    first = cst.parse_module(parts[0])
    owner = first.body[-1] if first.body else None
    if not isinstance(owner, cst.ClassDef) or not isinstance(owner.body, cst.IndentedBlock) or first.footer:
        return None
    body, footer, module = list(owner.body.body), owner.body.footer, first
    after: Sequence[cst.BaseStatement] = ()
    for part in parts[1:]:
        if footer or module.footer or after:
            return None  # lines after a part's last statement: where they belong is the next one's
        module = cst.parse_module(f"class _:{first.default_newline}{part}")
        stand_in, after = module.body[0], module.body[1:]
        if (
            not isinstance(stand_in, cst.ClassDef)
            or not isinstance(stand_in.body, cst.IndentedBlock)
            or stand_in.body.indent != owner.body.indent
            or (module.default_indent, module.default_newline) != (first.default_indent, first.default_newline)
        ):
            return None
        body.extend(stand_in.body.body)
        footer = stand_in.body.footer
    return first.with_changes(
        body=[*first.body[:-1], owner.with_changes(body=owner.body.with_changes(body=body, footer=footer)), *after],
        footer=module.footer,
        has_trailing_newline=module.has_trailing_newline,
    )


def diagnostic(filename: str, error: SourceError) -> Diagnostic:
    return Diagnostic(filename=filename, message=str(error), location=error.location)
