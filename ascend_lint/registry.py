"""Rule discovery: every module in `ascend_lint.rules` that defines a Rule subclass."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rule import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    from . import rules as package

    return rules_in(package)


def rules_in(package: ModuleType) -> tuple[type[Rule], ...]:
    """The `Rule` subclasses the modules of `package` define, by code; a malformed declaration
    is refused with a `TypeError` saying what to write (`well_formed`)."""
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
                found.append(well_formed(value))
    return tuple(sorted(found, key=lambda rule: rule.CODE))


def well_formed(rule: type[Rule]) -> type[Rule]:
    """`rule`, once its `REQUIRES_TOKENS` is a tuple of token groups, each a non-empty tuple of
    words. A flat tuple of words would be read a character at a time (each character a group:
    the rule would run on files holding them all as words, so on almost none)."""
    tokens: object = rule.REQUIRES_TOKENS
    if isinstance(tokens, tuple) and all(
        isinstance(group, tuple) and group and all(isinstance(token, str) and _findable(token) for token in group)
        for group in tokens
    ):
        return rule
    flat = isinstance(tokens, tuple | list) and bool(tokens) and all(isinstance(token, str) for token in tokens)
    hint = f"; one group of alternatives is ({tuple(tokens)!r},)" if flat else ""  # type: ignore[arg-type]
    groups = tokens if isinstance(tokens, tuple | list) else ()
    unfindable = [
        token
        for group in groups
        for token in (group if isinstance(group, tuple | list) else ())
        if isinstance(token, str) and not _findable(token)
    ]
    if unfindable:
        hint += f"; {unfindable[0]!r} is not a word (a prefilter looks up whole identifiers: `to`, not `.to`)"
    raise TypeError(
        f"{rule.__module__}.{rule.__qualname__} ({getattr(rule, 'CODE', 'no CODE')}): REQUIRES_TOKENS must "
        "be a tuple of token groups, each a non-empty tuple of words (identifiers), one word of each group in every file "
        f'the rule reports in (`(("make_block_ptr", "advance"), ("int64",))`); got {tokens!r}{hint}'
    )


def _findable(token: str) -> bool:
    """A token the prefilter can find: a whole word (an identifier), or one of its non-word
    tokens (`prefilter.LAUNCH`, `prefilter.PACKAGE_IMPORT`)."""
    from .prefilter import LAUNCH, PACKAGE_IMPORT

    return token.isidentifier() or token in (LAUNCH, PACKAGE_IMPORT)


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
