"""What the module's imports bind: which names mean `triton`, `triton.language`, `triton.jit`...

Only top-level imports (and those under top-level `if`/`try`) count, which is where kernel
modules import Triton.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def string_value(node: cst.CSTNode | None) -> str | None:
    """The text of a (non-bytes) string literal, else None."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


class ImportMap:
    """Local name -> fully qualified name, for names bound by imports of triton."""

    def __init__(self, module: cst.Module):
        self.aliases: dict[str, str] = {}
        for statement in _top_level_statements(module.body):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Import):
                        self._add_import(small)
                    elif isinstance(small, cst.ImportFrom):
                        self._add_import_from(small)

    def _add_import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted_name(alias.name)
            if not full or not full.startswith("triton"):
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.aliases[alias.asname.name.value] = full
            else:
                self.aliases.setdefault(full.split(".")[0], full.split(".")[0])

    def _add_import_from(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        base = dotted_name(node.module)
        if not base or not base.startswith("triton"):
            return
        for alias in node.names:
            name = dotted_name(alias.name)
            asname = alias.asname.name if alias.asname is not None else None
            local = asname.value if isinstance(asname, cst.Name) else name
            if local is not None:
                self.aliases[local] = f"{base}.{name}"

    def resolve(self, node: cst.BaseExpression) -> str | None:
        """The qualified name an expression refers to through a triton import, if any."""
        dotted = dotted_name(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        full = self.aliases.get(head)
        if full is None:
            return None
        return f"{full}.{rest}" if rest else full

    def is_tl(self, node: cst.BaseExpression, *names: str) -> bool:
        """Whether `node` is `tl.<name>` (any alias of triton.language) for one of `names`."""
        full = self.resolve(node)
        if full is None:
            return False
        for name in names:
            if full == f"triton.language.{name}" or full == f"triton.language.core.{name}":
                return True
            if full.startswith("triton.language.extra.") and full.endswith(f".{name}"):
                return True
        return False

    def is_triton(self, node: cst.BaseExpression, name: str) -> bool:
        """Whether `node` is `triton.<name>` (e.g. jit, autotune, heuristics, Config)."""
        full = self.resolve(node)
        return full is not None and (
            full == f"triton.{name}" or (full.endswith(f".{name}") and full.startswith("triton."))
        )


def _top_level_statements(body: Sequence[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    for statement in body:
        yield statement
        if isinstance(statement, cst.If):
            yield from _top_level_statements(statement.body.body)
            if isinstance(statement.orelse, cst.Else):
                yield from _top_level_statements(statement.orelse.body.body)
            elif isinstance(statement.orelse, cst.If):
                yield from _top_level_statements([statement.orelse])
        elif isinstance(statement, cst.Try):
            yield from _top_level_statements(statement.body.body)
            for handler in statement.handlers:
                yield from _top_level_statements(handler.body.body)
