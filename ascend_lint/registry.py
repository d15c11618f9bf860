"""Rule discovery: every module in `ascend_lint.rules` that defines a Rule subclass."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rule import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    from . import rules as package
    from .rule import Rule

    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Rule)
                and value is not Rule
                and value.__module__ == module.__name__
            ):
                found.append(value)
    return tuple(sorted(found, key=lambda rule: rule.CODE))


def all_codes() -> tuple[str, ...]:
    return tuple(rule.CODE for rule in all_rules())


def rule_groups() -> tuple[tuple[str, str | None], ...]:
    """Each code with its rule's group (`perf`), or None."""
    return tuple((rule.CODE, rule.GROUP) for rule in all_rules())


def rule_by_selector(selector: str) -> type[Rule] | None:
    """A rule by code (`ASC003`) or name (`dot-lhs-reuse`)."""
    for rule in all_rules():
        if selector.upper() == rule.CODE or selector == rule.NAME:
            return rule
    return None
