"""Output formats. Each renders a list of FileResults to text; `FORMATS` maps names to them."""

from __future__ import annotations

from collections.abc import Callable

from ..config import Settings
from ..model import FileResult
from . import github, rdjson, sarif, text
from . import json as json_format

Renderer = Callable[[list[FileResult], Settings], str]

FORMATS: dict[str, Renderer] = {
    "text": text.render_full,
    "full": text.render_full,
    "concise": text.render_concise,
    "json": json_format.render_json,
    "json-lines": json_format.render_json_lines,
    "sarif": sarif.render_sarif,
    "github": github.render_github,
    "rdjson": rdjson.render_rdjson,
    "rdjsonl": rdjson.render_rdjsonl,
}


def render(fmt: str, results: list[FileResult], settings: Settings) -> str:
    return FORMATS[fmt](results, settings)
