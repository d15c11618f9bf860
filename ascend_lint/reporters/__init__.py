"""Output formats. Each renders a list of FileResults to text; `FORMATS` names the module and
function of each, imported only when that format is asked for."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from ..config import Settings
from ..model import FileResult

Renderer = Callable[[list[FileResult], Settings], str]

FORMATS: dict[str, tuple[str, str]] = {
    "text": ("text", "render_full"),
    "full": ("text", "render_full"),
    "concise": ("text", "render_concise"),
    "json": ("json", "render_json"),
    "json-lines": ("json", "render_json_lines"),
    "sarif": ("sarif", "render_sarif"),
    "github": ("github", "render_github"),
    "rdjson": ("rdjson", "render_rdjson"),
    "rdjsonl": ("rdjson", "render_rdjsonl"),
}


def render(fmt: str, results: list[FileResult], settings: Settings) -> str:
    module, function = FORMATS[fmt]
    renderer: Renderer = getattr(importlib.import_module(f"{__name__}.{module}"), function)
    return renderer(results, settings)
