"""The import graph of the package keeps the shape docs/architecture.md describes: no import
circles, and every module imports only its own layer or lower ones (the table there)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path

from conftest import REPO

PACKAGE = "ascend_lint"
# Source folder -> installed name: rules/ and runtime_check/ install inside ascend_lint.
FOLDERS = {"ascend_lint": PACKAGE, "rules": f"{PACKAGE}.rules", "runtime_check": f"{PACKAGE}.runtime_check"}


def modules() -> dict[str, Path]:
    found = {}
    for folder, name in FOLDERS.items():
        for path in (REPO / folder).rglob("*.py"):
            parts = [name, *path.relative_to(REPO / folder).with_suffix("").parts]
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _runtime_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Import statements that run: everywhere but under `if TYPE_CHECKING:`."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


@cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        edges = set()
        for statement in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(statement, ast.Import):
                edges |= {alias.name for alias in statement.names if alias.name in known}
                continue
            base = statement.module or ""
            if statement.level:
                anchor = package.split(".")[: len(package.split(".")) - statement.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in statement.names:
                submodule = f"{base}.{alias.name}"
                edges.add(submodule if submodule in known else base)
        graph[module] = {edge for edge in edges if edge in known and edge != module}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def documented_layers() -> dict[str, int]:
    """Module pattern -> layer, from the table in docs/architecture.md."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    layers = {}
    for number, names in re.findall(r"^\| (\d+) \| ([^|]+) \|", text, re.MULTILINE):
        for name in re.findall(r"`([\w.*]+)`", names):
            layers[name if name == PACKAGE else f"{PACKAGE}.{name}"] = int(number)
    return layers


def layer_of(module: str, layers: dict[str, int]) -> int | None:
    exact = layers.get(module)
    return exact if exact is not None else next((n for p, n in layers.items() if fnmatchcase(module, p)), None)


def test_no_import_circles() -> None:
    assert not import_circles(import_graph()), f"import circles: {import_circles(import_graph())}"


def test_every_module_has_a_documented_layer() -> None:
    layers = documented_layers()
    missing = sorted(m for m in modules() if layer_of(m, layers) is None)
    assert not missing, f"add these modules to the layer table of docs/architecture.md: {missing}"


def test_modules_import_only_their_layer_or_lower() -> None:
    layers = documented_layers()
    upward = [
        f"{module} (layer {layer_of(module, layers)}) imports {target} (layer {layer_of(target, layers)})"
        for module, targets in import_graph().items()
        for target in sorted(targets)
        if (layer_of(target, layers) or 0) > (layer_of(module, layers) or 0)
    ]
    assert not upward, "\n".join(upward)


def test_the_checks_see_circles_and_upward_imports() -> None:
    """The graph builder finds lazy, relative and `from package import module` imports."""
    graph = import_graph()
    assert "ascend_lint.flow" in graph["ascend_lint.kernels"]  # lazy, inside a property
    assert "ascend_lint.kernels" not in graph["ascend_lint.flow"]  # only under TYPE_CHECKING
    assert "ascend_lint.reporters.shared" in graph["ascend_lint.reporters.github"]
    assert "ascend_lint.rule" in graph["ascend_lint.rules.runtime_dma_branch"]
    assert "ascend_lint.runtime_check.backends" in graph["ascend_lint.runtime_check.cli"]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
