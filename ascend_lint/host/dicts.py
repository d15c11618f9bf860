"""Dicts in host code, as the host index follows them into `**` splats of launches: literals,
`dict(...)` calls and namespaces, what copies, changes (`update`, `setdefault`, `|=`), stores
into or takes from one, the entry one gives a key, and the keys read out of one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

import libcst as cst

from ..imports import dotted_name, str_literal
from .records import DictChange, DictSource, ItemStore

# methods of a dict that leave it as it is (`changes_in_place`)
_DICT_READS = frozenset({"get", "copy", "items", "keys", "values", "__getitem__", "__contains__"})


def maps_a_key_to_a_callable(element: cst.BaseDictElement) -> TypeGuard[cst.DictElement]:
    """`"KEY": lambda ...` or `"KEY": name`."""
    return (
        type(element) is cst.DictElement
        and type(element.value) in (cst.Lambda, cst.Name)
        and str_literal(element.key) is not None
    )


def is_dict_call(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "dict"


def is_namespace(node: cst.CSTNode) -> bool:
    """A dict literal, a `dict(...)` call or a `types.SimpleNamespace(...)` call."""
    return (
        isinstance(node, cst.Dict)
        or is_dict_call(node)
        or (isinstance(node, cst.Call) and (dotted_name(node.func) or "").rsplit(".", 1)[-1] == "SimpleNamespace")
    )


def entry_got(call: cst.BaseExpression) -> tuple[cst.Subscript, cst.BaseExpression | None] | None:
    """`table.get(key)` / `table.get(key, default)` of a name, as the entry `table[key]` it
    takes (a subscript made for reading it, in no tree), with the default; else None."""
    if not (
        isinstance(call, cst.Call)
        and isinstance(call.func, cst.Attribute)
        and call.func.attr.value == "get"
        and isinstance(call.func.value, cst.Name)
        and 1 <= len(call.args) <= 2
        and all(arg.keyword is None and not arg.star for arg in call.args)
    ):
        return None
    index = cst.SubscriptElement(cst.Index(call.args[0].value))
    default = call.args[1].value if len(call.args) == 2 else None
    return cst.Subscript(call.func.value, [index]), default


def items_copied(comprehension: cst.BaseExpression) -> cst.BaseExpression | None:
    """`d` in `{k: v for k, v in d.items()}`: a dict comprehension over a dict's items keeping
    each key as it is (its value may change: `{k: int(v) ...}`), with no test reading the key
    (`if v is not None` may drop an entry by its value, never one key for another); else None."""
    if not isinstance(comprehension, cst.DictComp):
        return None
    clause = comprehension.for_in
    target, items = clause.target, clause.iter
    if (
        clause.inner_for_in is not None
        or clause.asynchronous
        or not isinstance(target, cst.Tuple | cst.List)
        or len(target.elements) != 2
        or not isinstance(key := target.elements[0].value, cst.Name)
        or not isinstance(comprehension.key, cst.Name)
        or comprehension.key.value != key.value
        or not isinstance(items, cst.Call)
        or items.args
        or not isinstance(items.func, cst.Attribute)
        or items.func.attr.value != "items"
    ):
        return None
    tested = {node.value for test in clause.ifs for node in _walk_names(test.test)}
    return None if key.value in tested else items.func.value


def _walk_names(node: cst.CSTNode) -> list[cst.Name]:
    found: list[cst.Name] = []

    class _Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.append(name)

    node.visit(_Names())
    return found


def splats_inside(table: cst.BaseExpression) -> list[cst.BaseExpression]:
    """`base` in `dict(..., **base)` / `{..., **base}`, and the dict `dict(base)` copies."""
    if isinstance(table, cst.Call):
        return [arg.value for arg in table.args if arg.star == "**" or (arg.star == "" and arg.keyword is None)]
    if isinstance(table, cst.Dict):
        return [element.value for element in table.elements if isinstance(element, cst.StarredDictElement)]
    return []


def copied_dict(call: cst.Call) -> cst.BaseExpression | None:
    """`d` in `d.copy()`."""
    func = call.func
    return func.value if isinstance(func, cst.Attribute) and func.attr.value == "copy" and not call.args else None


def changed_dict(node: cst.CSTNode) -> tuple[str, DictChange] | None:
    """The name whose dict `kw.update(...)`, `kw.setdefault(...)` or `kw |= ...` changes, and the change."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
        if node.func.attr.value in ("update", "setdefault"):
            return node.func.value.value, node
    elif (
        isinstance(node, cst.AugAssign)
        and isinstance(node.operator, cst.BitOrAssign)
        and isinstance(node.target, cst.Name)
    ):
        return node.target.value, node
    return None


def removed_from(node: cst.CSTNode) -> tuple[str, cst.BaseExpression | None] | None:
    """The name whose dict `name.pop(key, ...)`, `name.popitem()`, `name.clear()` or `del
    name[key]` takes from, and the key taken when one is written (`pop`'s first argument, the
    one index deleted)."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
        if node.func.attr.value in ("pop", "popitem", "clear"):
            key = node.args[0].value if node.func.attr.value == "pop" and node.args else None
            return node.func.value.value, key
    elif (
        isinstance(node, cst.Del) and isinstance(node.target, cst.Subscript) and isinstance(node.target.value, cst.Name)
    ):
        index = node.target.slice[0].slice if len(node.target.slice) == 1 else None
        return node.target.value.value, index.value if isinstance(index, cst.Index) else None
    return None


def changes_in_place(name: cst.Name, around: Sequence[cst.CSTNode]) -> bool:
    """This use of `name` (with the nodes `around` it, innermost first) changes in place the
    dict (or list) the name holds: a method called on it other than a read (`_DICT_READS`): the
    changes `changed_dict` and `removed_from` name (`_D.update(...)`, `_D.pop(k)`) and any other
    (`_L.append(x)`); an item stored, deleted or updated (`_D["BLOCK"] = 2048`, `del _D[k]`,
    `_D[k] += 1`); an augmented assignment (`_D |= ...`). Whether passing it to a call changes
    it (`passed_to`) is the caller's to say."""
    parent, outer = around[0], around[1] if len(around) > 1 else None
    if isinstance(parent, cst.Attribute) and parent.value is name:
        return parent.attr.value not in _DICT_READS and isinstance(outer, cst.Call) and outer.func is parent
    if isinstance(parent, cst.Subscript) and parent.value is name:
        return isinstance(outer, cst.AssignTarget | cst.Del) or (
            isinstance(outer, cst.AugAssign) and outer.target is parent
        )
    return isinstance(parent, cst.AugAssign) and parent.target is name


def method_taken(name: cst.Name, around: Sequence[cst.CSTNode]) -> bool:
    """This use of `name` takes a method of the dict (or list) it holds other than a read
    (`_DICT_READS`) without calling it there (`add = items.append`, `map(items.append, xs)`):
    wherever that is called it may change it in place."""
    parent, outer = around[0], around[1] if len(around) > 1 else None
    return (
        isinstance(parent, cst.Attribute)
        and parent.value is name
        and parent.attr.value not in _DICT_READS
        and not (isinstance(outer, cst.Call) and outer.func is parent)
    )


def passed_to(name: cst.Name, around: Sequence[cst.CSTNode]) -> cst.Call | None:
    """The call this use of `name` passes it to as an argument (`_shrink(_D)`), else None."""
    parent, outer = around[0], around[1] if len(around) > 1 else None
    if isinstance(parent, cst.Arg) and parent.value is name and isinstance(outer, cst.Call):
        return outer
    return None


READING_BUILTINS = frozenset(
    {"dict", "len", "list", "sorted", "tuple", "set", "print", "repr", "str"}
)  # builtins only reading a container passed to them


def only_read_by(call: cst.Call | None) -> bool:
    """`call` is a builtin only reading a container passed to it (`READING_BUILTINS`:
    `len(grid)`, `tuple(cfg)`, a copy); true for no call."""
    return call is None or (isinstance(call.func, cst.Name) and call.func.value in READING_BUILTINS)


def dicts_added(node: ItemStore | DictChange) -> list[cst.BaseExpression]:
    """The dicts a store (none) or a change adds that are not written in it (`_added_dicts`)."""
    return [] if isinstance(node, ItemStore) else _added_dicts(node)


def _added_dicts(change: DictChange) -> list[cst.BaseExpression]:
    """The dicts a change adds that are not written in it: `base` in `kw.update(base)`,
    `kw.update(**base)`, `kw |= base` (a literal `{...}` there is the change's own)."""
    if isinstance(change, cst.AugAssign):
        added = [change.value]
    elif isinstance(change.func, cst.Attribute) and change.func.attr.value == "update":
        added = [arg.value for arg in change.args if arg.keyword is None]
    else:
        added = []
    return [value for value in added if not isinstance(value, cst.Dict)]


def key_read(name: cst.BaseExpression, around: Sequence[cst.CSTNode]) -> tuple[str, cst.CSTNode] | None:
    """The string key read out of the dict `name` holds (a name, or a call returning it) with
    the nodes `around` it, innermost first, with the reading node: `d["key"]` loaded or
    deleted (not stored), `d.pop("key")` / `d.get("key")` (not one with a default whose result
    is dropped: `d.pop("key", None)` alone), `"key" in d` / `not in`."""
    parent = around[0] if around else None
    if isinstance(parent, cst.Subscript) and parent.value is name and len(parent.slice) == 1:
        index = parent.slice[0].slice
        key = str_literal(index.value) if isinstance(index, cst.Index) else None
        outer = around[1] if len(around) > 1 else None
        if key is None or isinstance(outer, cst.AssignTarget):  # a store reads nothing
            return None
        return key, outer if isinstance(outer, cst.Del) else parent
    if isinstance(parent, cst.Attribute) and parent.value is name and parent.attr.value in ("pop", "get"):
        call = around[1] if len(around) > 1 else None
        if not isinstance(call, cst.Call) or call.func is not parent or not call.args:
            return None
        key = str_literal(call.args[0].value)
        dropped = len(call.args) > 1 and len(around) > 2 and isinstance(around[2], cst.Expr)
        return (key, call) if key is not None and not dropped else None
    if isinstance(parent, cst.ComparisonTarget) and parent.comparator is name:
        comparison = around[1] if len(around) > 1 else None
        if (
            isinstance(comparison, cst.Comparison)
            and isinstance(parent.operator, (cst.In, cst.NotIn))
            and comparison.comparisons[0] is parent
            and (key := str_literal(comparison.left)) is not None
        ):
            return key, comparison
    return None


def dict_entry(source: DictSource, key: str) -> cst.BaseExpression | None:
    """The value a dict literal, `dict(...)` call or item store gives `key`."""
    if isinstance(source, ItemStore):
        return source.value if source.key == key else None
    if isinstance(source, cst.Dict):
        for element in source.elements:
            if isinstance(element, cst.DictElement) and str_literal(element.key) == key:
                return element.value
    elif isinstance(source, cst.Call):
        for arg in source.args:
            if arg.keyword is not None and arg.keyword.value == key:
                return arg.value
    return None
