"""Just enough of a TTIR reader to show where an index is multiplied and extended, and to
compare two compiles without their source locations."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ALIAS = re.compile(r"^(#loc\d*)\s*=\s*(loc\(.*\))\s*$")
_FILE_LINE = re.compile(r'"([^"]+)":(\d+):\d+')
_ALIAS_REF = re.compile(r"#loc\d*")
_LOC_START = re.compile(r"(?<![\w.#])loc\(")
_OP = re.compile(r"^\s*(?P<result>%[\w]+)(?::\d+)?\s*=\s*(?P<op>[\w.]+)\s+(?P<rest>.*?)\s*(?P<loc>loc\(.*\))?\s*$")
# Integer arithmetic an index expression is built from (a scalar splat into an index tile too),
# looked through on the way back.
_INDEX_OPS = {"arith.addi", "arith.subi", "arith.muli", "tt.splat"}


def without_locations(text: str) -> str:
    """The IR with its source locations dropped: every `loc(...)` and the `#loc` alias lines.
    Two compiles of one kernel with the same options can number the aliases differently
    (measured with triton-ascend 3.2 on a kernel of 16 scalar loads: `loc(#loc46)` in one
    ttadapter, `loc(#loc19)` in the other), so locations are no part of what a compile made."""
    kept = []
    for line in text.splitlines():
        if _ALIAS.match(line):
            continue
        pieces, cursor = [], 0
        for match in _LOC_START.finditer(line):
            if match.start() < cursor:
                continue  # inside a location already dropped
            pieces.append(line[cursor : match.start()].rstrip(" "))
            cursor = _closing(line, match.end())
        kept.append("".join(pieces) + line[cursor:])
    return "\n".join(kept)


def _closing(line: str, start: int) -> int:
    """The offset after the `)` closing the parenthesis opened just before `start` (quoted
    file names may hold parentheses); the line's end when it is not closed."""
    depth, quoted, index = 1, False, start
    while index < len(line):
        char = line[index]
        if quoted:
            if char == "\\":
                index += 1
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return len(line)


@dataclass(frozen=True)
class Op:
    result: str
    name: str
    operands: tuple[str, ...]
    type: str
    text: str
    places: frozenset[tuple[str, int]]


def _places(loc: str, aliases: dict[str, str], depth: int = 0) -> set[tuple[str, int]]:
    found = {(f, int(line)) for f, line in _FILE_LINE.findall(loc)}
    if depth < 8:
        for ref in _ALIAS_REF.findall(loc):
            if ref in aliases:
                found |= _places(aliases[ref], aliases, depth + 1)
    return found


def parse_ops(ttir: str) -> dict[str, Op]:
    """Ops that define a value, by result name, with the source places of their locations."""
    aliases = {m[1]: m[2] for m in map(_ALIAS.match, ttir.splitlines()) if m}
    ops: dict[str, Op] = {}
    for line in ttir.splitlines():
        match = _OP.match(line)
        if not match:
            continue
        rest = match["rest"]
        operands_text, _, type_text = rest.rpartition(" : ")
        ops[match["result"]] = Op(
            result=match["result"],
            name=match["op"],
            operands=tuple(re.findall(r"%[\w]+", operands_text)),
            type=type_text.strip(),
            text=f"{match['result']} = {match['op']} {rest}".strip(),
            places=frozenset(_places(match["loc"] or "", aliases)),
        )
    return ops


def _is_i32_to_i64(op: Op) -> bool:
    return op.name == "arith.extsi" and re.search(r"i32>? to (tensor<[^>]*x)?i64", op.type) is not None


def _i32_multiplies_behind(op: Op, ops: dict[str, Op]) -> list[Op]:
    found, stack, seen = [], list(op.operands), set()
    while stack:
        name = stack.pop()
        producer = ops.get(name)
        if producer is None or name in seen or producer.name not in _INDEX_OPS:
            continue
        seen.add(name)
        if producer.name == "arith.muli" and re.search(r"\bi32\b", producer.type):
            found.append(producer)
        stack.extend(producer.operands)
    return found


def _line_of(op: Op) -> str:
    rows = sorted({row for _, row in op.places})
    return f"{op.text}    (line {', '.join(map(str, rows))})" if rows else op.text


def extension_of_i32_multiply(ttir: str, file: str, row: int) -> list[str]:
    """The IR lines of an i32 ``arith.muli`` feeding an ``arith.extsi`` to i64 on ``row``."""
    ops = parse_ops(ttir)
    for op in ops.values():
        if _is_i32_to_i64(op) and (file, row) in op.places:
            multiplies = _i32_multiplies_behind(op, ops)
            if multiplies:
                return [_line_of(m) for m in reversed(multiplies)] + [_line_of(op)]
    return []


def multiplies(ttir: str, file: str, row: int, width: str) -> list[str]:
    """The IR lines of scalar ``arith.muli`` of ``width`` (``"i32"``, ``"i64"``) on ``row``."""
    return [
        _line_of(op)
        for op in parse_ops(ttir).values()
        if op.name == "arith.muli" and re.search(rf"\b{width}\b", op.type) and (file, row) in op.places
    ]


def rows_of(ttir: str, file: str) -> set[int]:
    """The rows of ``file`` the TTIR's source locations name (aliases and call sites included)."""
    return {row for name, row in map(_place, _FILE_LINE.finditer(ttir)) if name == file}


def _place(match: re.Match[str]) -> tuple[str, int]:
    return match[1], int(match[2])
