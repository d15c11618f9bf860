"""What the module's names mean: which ones are `triton`, `triton.language`, `triton.jit`...

Imports are read wherever they are written (module level, under `if`/`try`/`with`, inside
classes and factory functions). A name imported from `triton` resolves by its import. A name
imported from any other module (a re-export such as `from vllm.triton_utils import tl,
triton`, or `import pkg.triton_utils as tu` then `tu.triton.jit`) is Triton when the module
uses it the way only Triton is used (`<name>.autotune`, `<name>.constexpr`,
`<name>.program_id`, `@<name>.jit` on a function using `triton.language`), or when it is called `triton` / `tl`
(also as an attribute of an imported module: `tl = tu.tl`), or when its module is listed in
the `triton-modules` setting. A name a star import binds (`from .triton_utils import *`) means
what it means in the module of the package it comes from (`ImportedFunctions.star_imported_triton`). A module-level name assigned a Triton name (`tl = triton.language`,
`_I32 = tl.int32`, also under `if` / `try`) means it, as an import would, when no statement but
an `except` arm binds it again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import overload

import libcst as cst

TRITON = "triton"
LANGUAGE = "triton.language"
# Attributes only Triton has: how a re-exported name gives itself away. (`@x.jit` is not
# enough: torch, numba and others have one. A `@x.jit` function whose body uses
# `triton.language` is a kernel, and that makes `x` Triton: see `kernels.find_kernels`.)
_TRITON_ONLY = ("autotune", "heuristics")
_LANGUAGE_ONLY = ("constexpr", "program_id", "num_programs", "static_range", "make_block_ptr")
_USAGE = re.compile(
    r"(?<![\w.])(?P<prefix>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*?)\.(?P<attr>"
    + "|".join((*_TRITON_ONLY, *_LANGUAGE_ONLY))
    + r")\b"
)
# `<module>.triton` / `<module>.tl`: a module's attribute called as Triton calls its names
_NAMED_ATTRIBUTE = re.compile(r"(?<![\w.])(?P<prefix>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*?)\.(?P<attr>triton|tl)\b(?!\s*\()")
_TRITON_FUNCTIONS = frozenset({"jit", "autotune", "heuristics", "Config", "cdiv", "next_power_of_2"})
# Libraries with a `jit` / `load` / ... of their own: never taken for a Triton re-export.
_NOT_TRITON = frozenset({"torch", "numpy", "numba", "jax", "cupy", "tensorflow", "paddle", "mindspore", "taichi"})
# Names a re-export module binds, as Triton spells them.
_BY_NAME = {"triton": TRITON, "tl": LANGUAGE, "language": LANGUAGE}
# The triton.language functions that are also tensor methods, `x.f(a)` being `tl.f(x, a)`: those
# triton-ascend 3.2 decorates with `_tensor_member_fn` (its `tl.tensor` has them all), and
# `x.to(t)`, a method of its own that casts as `tl.cast(x, t)` does.
_MEMBERS = (
    "abs", "advance", "argmax", "argmin", "associative_scan", "atan2", "atomic_add", "atomic_and",
    "atomic_cas", "atomic_max", "atomic_min", "atomic_or", "atomic_xchg", "atomic_xor",
    "broadcast_to", "cast", "cdiv", "ceil", "cos", "cumprod", "cumsum", "erf", "exp", "exp2",
    "expand_dims", "extract_slice", "finitef", "flip", "floor", "gather", "get_element",
    "histogram", "insert_slice", "isfinited", "log", "log2", "max", "min", "permute", "ravel",
    "reduce", "reshape", "rint", "rsqrt", "sigmoid", "sin", "softmax", "sort", "split", "sqrt",
    "sqrt_rn", "store", "sum", "tanh", "trans", "view", "xor_sum",
)  # fmt: skip
TENSOR_METHODS = {**{name: name for name in _MEMBERS}, "to": "cast"}


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None. Exact types: most values asked are neither."""
    parts = []
    while type(node) is cst.Attribute:
        parts.append(node.attr.value)
        node = node.value
    if type(node) is not cst.Name:
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def root_name(node: cst.BaseExpression) -> str | None:
    """The name a value reached through attributes and items starts from: `kernel`, `mod` of
    `mod.kernel`, `table` of `table["kernel"]`; None for any other start."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def str_literal(node: cst.BaseExpression | None) -> str | None:
    """The value of a plain string literal (`"x"`, `'x'`), else None (bytes, f-strings...). One
    without prefix or escapes is its text between the quotes (no `ast.literal_eval`: see
    `number_literal`)."""
    if not isinstance(node, cst.SimpleString) or "b" in node.prefix.lower():
        return None
    text = node.value
    if text[0] in "'\"":
        quotes = 3 if text[:3] in ('"""', "'''") else 1
        body = text[quotes:-quotes]
        if "\\" not in body and "\r" not in body:
            return body
    try:
        value = node.evaluated_value
    except (SyntaxError, ValueError):
        return None
    return value if isinstance(value, str) else None


@overload
def number_literal(node: cst.Integer) -> int: ...
@overload
def number_literal(node: cst.Integer | cst.Float) -> int | float: ...
def number_literal(node: cst.Integer | cst.Float) -> int | float:
    """A number literal's value as CPython reads it (`0x_1F`, `0o17`, `1_000`, `1e-3`): what
    libcst's `evaluated_value` gives, without its `ast.literal_eval`, which compiles the text and
    leaves a reference cycle behind (garbage until a collection finds it)."""
    return int(node.value, 0) if type(node) is cst.Integer else float(node.value)


def int_literal(node: cst.BaseExpression | None) -> int | None:
    """The value of an integer literal in any base (`3`, `0x0`, `1_000`), else None."""
    if type(node) is not cst.Integer:
        return None
    try:
        return number_literal(node)
    except ValueError:  # `010` is not valid Python 3; libcst accepts it
        return None


def literal_truth(node: cst.BaseExpression) -> bool | None:
    """The truth of a literal (`True`, `None`, `0`, `1.5`, `"x"`): the one outcome a test of it
    has in every specialisation; None for anything else. Exact types: each walk of the `if`
    arms around a statement asks it of their tests."""
    if type(node) is cst.Name:
        return node.value == "True" if node.value in ("True", "False", "None") else None
    if type(node) is cst.Float:
        return bool(number_literal(node))
    if type(node) is cst.Imaginary:
        return bool(complex(node.value))
    if type(node) is cst.Integer or type(node) is cst.SimpleString:
        value = int_literal(node) if type(node) is cst.Integer else str_literal(node)
        return None if value is None else bool(value)
    return None


_INT_OPERATORS: dict[type[cst.BaseBinaryOp], Callable[[int, int], int]] = {
    cst.Add: lambda a, b: a + b,
    cst.Subtract: lambda a, b: a - b,
    cst.Multiply: lambda a, b: a * b,
    cst.LeftShift: lambda a, b: a << b if 0 <= b < 64 else 0,
    cst.RightShift: lambda a, b: a >> b if b >= 0 else 0,
    cst.FloorDivide: lambda a, b: a // b if b else 0,
    cst.Power: lambda a, b: a**b if 0 <= b < 64 and abs(a) <= 1 << 16 else 0,
    cst.BitOr: lambda a, b: a | b,
    cst.BitAnd: lambda a, b: a & b,
    cst.BitXor: lambda a, b: a ^ b,
}


def folded_int(
    node: cst.BaseExpression, operand: Callable[[cst.BaseExpression], int | None] | None = None
) -> int | None:
    """The value of integer literal arithmetic (`192 * 1024`, `1 << 17`, `192 * 2**10`, `1572864 //
    8`, `1 << 17 | 1 << 16`), else None; `operand` gives the value of what is neither (a name), when it has one."""
    if isinstance(node, cst.Integer):
        return int_literal(node)
    if isinstance(node, cst.BinaryOperation):
        operation = _INT_OPERATORS.get(type(node.operator))
        if operation is None:
            return None
        left, right = folded_int(node.left, operand), folded_int(node.right, operand)
        return None if left is None or right is None else operation(left, right)
    return None if operand is None else operand(node)


def walk_statements(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    """Every statement at any depth: compound statements' blocks, classes, function bodies."""
    stack = list(reversed(body))
    while stack:
        statement = stack.pop()
        yield statement
        blocks = statement_blocks(statement)
        for block in reversed(blocks):
            stack.extend(reversed(block))


def statement_blocks(statement: cst.BaseStatement) -> list[Sequence[cst.BaseStatement]]:
    """The statement lists directly inside a compound statement."""
    if isinstance(statement, cst.SimpleStatementLine):
        return []
    blocks: list[Sequence[cst.BaseStatement]] = []
    suite = getattr(statement, "body", None)
    if isinstance(suite, cst.IndentedBlock):
        blocks.append(suite.body)
    elif isinstance(suite, cst.SimpleStatementSuite):  # `if x: import y` on one line
        blocks.append([cst.SimpleStatementLine(body=suite.body)])
    if isinstance(statement, cst.Try | cst.TryStar):
        blocks.extend(
            handler.body.body for handler in statement.handlers if isinstance(handler.body, cst.IndentedBlock)
        )
    if isinstance(statement, cst.Match):
        blocks.extend(case.body.body for case in statement.cases if isinstance(case.body, cst.IndentedBlock))
    orelse = getattr(statement, "orelse", None)
    while isinstance(orelse, cst.If):  # elif chains
        if isinstance(orelse.body, cst.IndentedBlock):
            blocks.append(orelse.body.body)
        orelse = orelse.orelse
    if isinstance(orelse, cst.Else) and isinstance(orelse.body, cst.IndentedBlock):
        blocks.append(orelse.body.body)
    final = getattr(statement, "finalbody", None)
    if isinstance(final, cst.Finally) and isinstance(final.body, cst.IndentedBlock):
        blocks.append(final.body.body)
    return blocks


class ImportMap:
    """Local (dotted) name -> fully qualified Triton name, for the names that mean Triton.

    Built from one statement-level walk of the module, which also collects the decorated
    functions at any depth (`functions`: the kernel candidates).
    """

    def __init__(self, module: cst.Module, source: str | None = None, triton_modules: Iterable[str] = ()):
        self.aliases: dict[str, str] = {}
        self.functions: list[cst.FunctionDef] = []
        self.imported: set[str] = set()  # the local names of imports not of Triton
        # `from module import name [as local]` not of Triton: local -> (module, with its leading
        # dots when relative; name); `from . import name` as (".", name)
        self.imported_from: dict[str, tuple[str, str]] = {}
        # `import module as local` not of Triton: local -> module (`import a.b` binds `a`: a -> a)
        self.imported_modules: dict[str, str] = {}
        self.star_imports: list[str] = []  # `from module import *` not of Triton: the modules, in order
        self.module_names: frozenset[str] = frozenset()  # the names module-level code binds (but `except` arms)
        self.all_names: frozenset[str] | None = None  # `__all__` when a literal list or tuple of strings
        self._heads: dict[str, int] = {}  # first part of each alias -> most parts in one alias
        self.source = module.code if source is None else source  # the text usage is read from
        self._triton_modules = tuple(triton_modules)
        self._pending_reexports: dict[str, str] = {}
        self._language_names: dict[cst.BaseExpression, str | None] = {}
        foreign: dict[str, str] = {}  # local name -> the name it has in its (non-triton) module
        for statement in walk_statements(module.body):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Import):
                        self._add_import(small, foreign)
                    elif isinstance(small, cst.ImportFrom):
                        self._add_import_from(small, foreign)
            elif isinstance(statement, cst.FunctionDef) and statement.decorators:
                self.functions.append(statement)
        if foreign:
            self._add_by_usage(foreign, self.source)
        for local, name in self._pending_reexports.items():
            self.add(local, _reexport_meaning(local, name, self.source))
        self._read_module_bindings(module.body)
        self.imported -= self.aliases.keys()
        for local in self.aliases.keys() & self.imported_from.keys():
            del self.imported_from[local]
        for local in self.aliases.keys() & self.imported_modules.keys():
            del self.imported_modules[local]

    # ---- reading imports ----------------------------------------------------------------
    def _add_import(self, node: cst.Import, foreign: dict[str, str]) -> None:
        for alias in node.names:
            full = dotted_name(alias.name)
            if not full:
                continue
            local = _as_name(alias)
            if _is_triton_module(full):
                if local is not None:
                    self.add(local, full)
                else:
                    self.add(full.split(".")[0], full.split(".")[0])
            elif self._is_reexport_module(full):
                self._add_reexport_module(local or full)
            else:
                head = full.split(".")[0]
                self.imported.add(local or head)
                self.imported_modules[local or head] = full if local else head
                if head not in _NOT_TRITON:
                    foreign[local or head] = full

    def _add_import_from(self, node: cst.ImportFrom, foreign: dict[str, str]) -> None:
        if isinstance(node.names, cst.ImportStar):
            named = dotted_name(node.module) if node.module is not None else None
            module = "." * len(node.relative) + (named or "")
            if not _is_triton_module(module) and not self._is_reexport_module(module):
                self.star_imports.append(module)
            return
        if node.module is None:  # `from . import kernels`: modules of the package
            for alias in node.names:
                name = dotted_name(alias.name) or ""
                local = _as_name(alias) or name
                self.imported.add(local)
                self.imported_from[local] = ("." * len(node.relative), name)
            return
        base = dotted_name(node.module) or ""
        if node.relative:
            base = "." * len(node.relative) + base
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            local = _as_name(alias) or name
            if _is_triton_module(base):
                self.add(local, f"{base}.{name}")
            elif self._is_reexport_module(base):
                self._add_reexported(local, name)
            else:
                self.imported.add(local)
                self.imported_from[local] = (base, name)
                if base.lstrip(".").split(".")[0] not in _NOT_TRITON:
                    foreign[local] = name

    def _read_module_bindings(self, body: Sequence[cst.BaseStatement]) -> None:
        """Module-level names assigned a Triton name (`tl = triton.language`, also under `if` /
        `try`), as an import would bind them: those the module binds that once, outside `except`
        arms (`tl = None` where Triton is missing). And what `from <module> import *` reads:
        `module_names`, `all_names`."""
        bindings: dict[str, list[cst.BaseExpression | None]] = {}
        for value, names in _module_bindings(body):
            for name in names:
                bindings.setdefault(name, []).append(value)
        for name, values in bindings.items():
            full = self.resolve(values[0]) if len(values) == 1 and values[0] is not None else None
            if full is not None:
                self.add(name, full)
        self.module_names = frozenset(bindings)
        listed = bindings.get("__all__", [None])
        if len(listed) == 1 and isinstance(listed[0], cst.List | cst.Tuple):
            literals = [str_literal(element.value) for element in listed[0].elements]
            self.all_names = frozenset(name for name in literals if name is not None) if None not in literals else None

    def _is_reexport_module(self, module: str) -> bool:
        module = module.lstrip(".")
        return any(module == m or module.endswith(f".{m}") for m in self._triton_modules if m)

    def _add_reexport_module(self, local: str) -> None:
        self.add(local, TRITON)
        for name, full in _BY_NAME.items():
            self.add(f"{local}.{name}", full)

    def _add_reexported(self, local: str, name: str) -> None:
        """A name from a module listed in `triton-modules`: Triton for sure; `triton` / `tl` /
        `language` by name, else `triton.language` when used as a module (`L.load(...)`), else
        the Triton function of that name (`jit`, `autotune`, `cdiv`)."""
        if name in _BY_NAME:
            self.add(local, _BY_NAME[name])
        else:
            self._pending_reexports[local] = name

    def _add_by_usage(self, foreign: dict[str, str], source: str) -> None:
        """Names from other modules that the source uses as only Triton is used, or that are
        called `triton` / `tl` where they come from, or attributes of theirs so called
        (`tu.tl` after `from pkg import triton_utils as tu`: then `tl = tu.tl`, `@tu.triton.jit`)."""
        decided: dict[str, str] = {}
        for match in _USAGE.finditer(source):
            prefix = match["prefix"]
            if prefix.split(".")[0] in foreign and self.resolve_dotted(prefix) is None:
                kind = TRITON if match["attr"] in _TRITON_ONLY else LANGUAGE
                decided.setdefault(prefix, kind)
        for match in _NAMED_ATTRIBUTE.finditer(source):
            prefix = match["prefix"]
            if prefix.split(".")[0] in foreign and self.resolve_dotted(prefix) is None and prefix not in decided:
                decided.setdefault(f"{prefix}.{match['attr']}", _BY_NAME[match["attr"]])
        for local, name in foreign.items():
            if local not in decided and name in ("triton", "tl"):
                decided[local] = _BY_NAME[name]
        for prefix, kind in decided.items():
            self.add(prefix, kind)

    def add(self, local: str, full: str) -> None:
        """Bind the (dotted) local name to a qualified Triton name."""
        self.aliases[local] = full
        self._language_names.clear()
        head, parts = local.split(".")[0], local.count(".") + 1
        self._heads[head] = max(self._heads.get(head, 0), parts)

    # ---- queries ------------------------------------------------------------------------
    def meaning(self) -> dict[str, str]:
        """Every Triton name and what it means: maps with equal meanings resolve alike."""
        return dict(self.aliases)

    def resolve(self, node: cst.BaseExpression) -> str | None:
        """The qualified name an expression refers to through a Triton name, if any."""
        head = node
        while type(head) is cst.Attribute:
            head = head.value
        if type(head) is not cst.Name or head.value not in self._heads:
            return None
        dotted = dotted_name(node)
        return self.resolve_dotted(dotted) if dotted else None

    def resolve_dotted(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        longest = self._heads.get(parts[0], 0)
        for size in range(min(longest, len(parts)), 0, -1):
            full = self.aliases.get(".".join(parts[:size]))
            if full is not None:
                rest = parts[size:]
                return ".".join([full, *rest])
        return None

    def language_name(self, node: cst.BaseExpression) -> str | None:
        """`load` for `tl.load` (any alias of triton.language, its `core` or an `extra`
        module), else None."""
        if node in self._language_names:
            return self._language_names[node]
        found = None
        full = self.resolve(node)
        if full is not None and full.startswith("triton.language."):
            rest = full[len("triton.language.") :]
            if rest.startswith("core."):
                rest = rest[len("core.") :]
            elif rest.startswith("extra."):
                rest = rest.rsplit(".", 1)[-1]
            found = rest if "." not in rest else None
        self._language_names[node] = found
        return found

    def method_name(self, node: cst.BaseExpression) -> str | None:
        """`reshape` for `x.reshape` and `cast` for `x.to`: the triton.language function a
        tensor method is (`x` any expression but a module); None for other attributes."""
        if type(node) is not cst.Attribute:
            return None
        name = TENSOR_METHODS.get(node.attr.value)
        return name if name is not None and self.resolve(node) is None else None

    def is_tl(self, node: cst.BaseExpression, *names: str) -> bool:
        """Whether `node` is `tl.<name>` (any alias of triton.language) for one of `names`."""
        return self.language_name(node) in names

    def is_triton(self, node: cst.BaseExpression, name: str) -> bool:
        """Whether `node` is `triton.<name>` (e.g. jit, autotune, heuristics, Config)."""
        full = self.resolve(node)
        return full is not None and (
            full == f"triton.{name}" or (full.endswith(f".{name}") and full.startswith("triton."))
        )

    @property
    def language_alias(self) -> str | None:
        """How new code in the module names `triton.language`: its module-level alias (`tl`),
        else through the module's name for Triton (`triton.language`); None when it imports
        neither at module level (only pieces: `from triton.language import load`)."""
        for wanted, suffix in ((LANGUAGE, ""), (TRITON, ".language")):
            # bound at module level: an import inside another function is no name in a kernel
            bound = (local for local, full in self.aliases.items() if full == wanted and local in self.module_names)
            local = next(bound, None)
            if local is not None:
                return local + suffix
        return None

    @property
    def local_names(self) -> frozenset[str]:
        """First parts of the names bound to Triton (never kernel variables)."""
        return frozenset(self._heads)


def _reexport_meaning(local: str, name: str, source: str) -> str:
    """What a name imported from a `triton-modules` module means, from how it is used."""
    attribute = re.compile(rf"(?<![\w.]){re.escape(local)}\.(\w+)")
    used = {match[1] for match in attribute.finditer(source)}
    if used & _TRITON_FUNCTIONS:
        return TRITON
    if used:
        return LANGUAGE
    return f"{TRITON}.{name}"


def _module_bindings(
    body: Sequence[cst.BaseStatement],
) -> Iterator[tuple[cst.BaseExpression | None, list[str]]]:
    """The module-level bindings outside `except` arms, in order: each as the value of a plain
    `name = value` or `name: annotation = value` (None for any other binding) and the names it
    binds."""
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    plain = len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                    names = [name for target in small.targets for name in _target_names(target.target)]
                    yield (small.value if plain else None), names
                elif isinstance(small, cst.AnnAssign):  # `X: tl.constexpr = tl.int32`
                    yield (small.value if isinstance(small.target, cst.Name) else None), _target_names(small.target)
                elif isinstance(small, cst.AugAssign):
                    yield None, _target_names(small.target)
                elif isinstance(small, cst.Import | cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                    yield (
                        None,
                        [(_as_name(alias) or (dotted_name(alias.name) or "")).split(".")[0] for alias in small.names],
                    )
            continue
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            yield None, [statement.name.value]
            continue
        if isinstance(statement, cst.For):
            yield None, _target_names(statement.target)
        elif isinstance(statement, cst.With):
            yield None, [name for item in statement.items if item.asname for name in _target_names(item.asname.name)]
        handlers = {
            id(h.body.body) for h in getattr(statement, "handlers", ()) if isinstance(h.body, cst.IndentedBlock)
        }
        for block in statement_blocks(statement):
            if id(block) not in handlers:
                yield from _module_bindings(block)


def _target_names(target: cst.BaseExpression) -> list[str]:
    """The names an assignment target binds (`a`, `a, (b, *c)`); none for attributes, items."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, cst.Tuple | cst.List):
        return [name for element in target.elements for name in _target_names(element.value)]
    return []


def _as_name(alias: cst.ImportAlias) -> str | None:
    """`b` in `import a as b` / `from x import a as b`."""
    target = alias.asname.name if alias.asname is not None else None
    return target.value if isinstance(target, cst.Name) else None


def _is_triton_module(module: str) -> bool:
    return module == "triton" or module.startswith("triton.")
