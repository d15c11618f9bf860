"""`ascend-lint server`: a Language Server (stdio) that brings the findings into any editor.

Built on pygls and lsprotocol (`pip install 'ascend-lint[server]'`). It publishes diagnostics
when a document is opened, changed or saved with a change; offers a code action per fix (labelled safe or
unsafe), a "disable for this line" action that adds `# noqa: ASC00N`, and a source action
applying every safe fix; hovering a finding shows its rule's documentation. It asks the client
to watch the files that decide settings and targeting (`CONFIGURATION_FILES`) and the creation
and deletion of those whose presence decides targeting (`TARGETING_GLOBS`: Ascend-named folders
and modules, `__init__.py`), and lints every open document again when one changes. Each lint
reads the project's folders afresh (`config.forget_disk`).

Per open document the server keeps the text it last linted, the result, and a
`DocumentMemory`: an edit re-parses only the top-level statements it touched (the
`IncrementalParser` in it), and only the changed document is linted again. Linting runs on one worker thread; edits that arrive
while a document is being linted are coalesced into one more run on the newest text, and
diagnostics are published only for the text they were computed on. A code action asked
before the lint of the editor's text is done waits for it (`LINT_WAIT` at most).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from . import __version__
from .ascend_text import ascend_name
from .config import SKIP_EXCLUDED, SKIP_NOT_ASCEND, ConfigError, Settings, forget_disk, load_settings, skip_text
from .directives import Comments, noqa_edit
from .engine import DocumentMemory, lint_source
from .model import NEWLINE, Diagnostic, FileResult, Finding, Fix, Position
from .registry import rule_by_selector
from .reporters.shared import brief_documentation, rule_url

NAME = "ascend-lint"
FIX_ALL = f"{lsp.CodeActionKind.SourceFixAll.value}.{NAME}"
FIX_ALL_TITLE = f"{NAME}: apply every safe fix"
# The files that decide what is linted and how: `[tool.ascend-lint]`, and a project's root and
# its dependencies on torch_npu / triton-ascend (`config.project_of`, default targeting).
CONFIGURATION_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
# The files and folders whose creation or deletion decides targeting (`config.Settings.
# path_skip_reason`): an Ascend-named sibling folder or module (`ascend_text.ascend_name`: a file
# next to one is another backend of a mixed repository) and the `__init__.py` that make a folder
# part of a package (its folders' names count). Glob patterns match case-sensitively.
TARGETING_GLOBS = ("**/*[aA][sS][cC][eE][nN][dD]*", "**/*[nN][pP][uU]*", "**/__init__.py")
WATCHERS = f"{NAME}-configuration-files"  # the id of the client's file watchers
# How long a code action waits for the lint of the text the editor has (codeActionsOnSave
# right after typing), in seconds; past it the answer is empty, as when nothing applies.
LINT_WAIT = 5.0


@dataclass
class Document:
    """What the server keeps for one open document."""

    memory: DocumentMemory = field(default_factory=DocumentMemory.empty)
    text: str | None = None  # the text `result` was computed on
    result: FileResult | None = None
    settings: Settings | None = None
    fixed_all: tuple[FileResult, str | None] | None = None  # a result and its text with every safe fix applied
    linting: bool = False
    stale: bool = False  # the text changed while it was being linted
    linted: asyncio.Event = field(default_factory=asyncio.Event)  # set whenever a lint of it ends
    saves: int = 0  # the server's count of saves when the lint of `result` started
    told: str | None = None  # why it is not linted, as the client's log was last told


class AscendLintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(NAME, __version__)
        self.documents: dict[str, Document] = {}
        self.linter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ascend-lint")
        self.saves = 0  # documents saved: a module a document imports may have changed on disk
        self.shut_down = False  # the client sent `shutdown` (`exit` without it ends with status 1)
        self.watching = False  # the client registered the file watchers (`watch_configuration`)

    async def relint(self, uri: str) -> None:
        """Lint the document's current text and publish; coalesces edits made meanwhile."""
        document = self.documents.setdefault(uri, Document())
        document.stale = True
        if document.linting:
            return
        document.linting = True
        try:
            # `is document`: one closed and opened again meanwhile is another document
            while document.stale and self.documents.get(uri) is document:
                document.stale = False
                text_document = self.workspace.get_text_document(uri)
                text, version, saves = text_document.source, text_document.version, self.saves
                loop = asyncio.get_running_loop()
                linted = await loop.run_in_executor(self.linter, _lint, uri, text, document)
                if document.stale or self.documents.get(uri) is not document:
                    continue
                document.text, (document.result, document.settings) = text, linted
                document.saves = saves
                self.tell_skipped(uri, document)
                self.publish(uri, version, text, document.result)
                document.linted.set()
        finally:
            document.linting = False
            document.linted.set()

    async def saved(self, uri: str) -> None:
        """A document was saved: lint it again, unless its text is the one last linted and no
        other document was saved since (a device function it imports is read from disk); and
        lint again the open documents that import it."""
        document = self.documents.get(uri)
        unchanged = (
            document is not None
            and not document.linting
            and document.result is not None
            and document.saves == self.saves
            and document.text == self.workspace.get_text_document(uri).source
        )
        self.saves += 1
        if document is not None and unchanged:
            document.saves = self.saves
        elif document is not None:
            await self.relint(uri)
        for importer in self.importers_of(uri):
            await self.relint(importer)

    def importers_of(self, uri: str) -> list[str]:
        """The other open documents whose last lint read the saved file (a module whose device
        functions or core-count helpers they import, read from disk): their findings may change."""
        path = to_fs_path(uri)
        if path is None:
            return []
        saved = os.path.realpath(path)
        return [
            other
            for other, document in self.documents.items()
            if other != uri
            and document.result is not None
            and any(os.path.realpath(imported) == saved for imported in document.result.imported_files)
        ]

    def tell_skipped(self, uri: str, document: Document) -> None:
        """Say in the client's log, once, why a document gets no diagnostics at all."""
        result = document.result
        reason = None if result is None or result.checked else result.skip_reason or SKIP_NOT_ASCEND
        if reason is not None and reason != document.told:
            how = "" if reason == SKIP_EXCLUDED else " (list it in `target-paths` to lint it)"
            message = f"{NAME}: {to_fs_path(uri) or uri} is not linted, {skip_text(reason)}{how}"
            self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Info, message=message))
        document.told = reason

    async def watch_configuration(self) -> None:
        """Ask the client to report changes of the configuration files, as ruff does for its
        own: an editor sends `didSave` only for documents it has open, and a client set up for
        Python files opens no `pyproject.toml` with this server. Called again when workspace
        folders are added or removed: the patterns are plain globs, which a client applies in
        every workspace folder, but some (Neovim) bind them to the folders open when they are
        registered, so the watchers are registered again for the folders open now."""
        workspace = self.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace else None
        if watched is None or not watched.dynamic_registration:
            return
        watchers = [lsp.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIGURATION_FILES]
        created_or_deleted = lsp.WatchKind.Create | lsp.WatchKind.Delete
        watchers += [lsp.FileSystemWatcher(glob_pattern=glob, kind=created_or_deleted) for glob in TARGETING_GLOBS]
        registration = lsp.Registration(
            id=WATCHERS,
            method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        try:
            if self.watching:
                gone = lsp.Unregistration(id=WATCHERS, method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
                await self.client_unregister_capability_async(lsp.UnregistrationParams(unregisterations=[gone]))
                self.watching = False
            await self.client_register_capability_async(lsp.RegistrationParams(registrations=[registration]))
            self.watching = True
        except JsonRpcException as exc:
            message = f"{NAME}: the client does not watch the configuration files ({exc}); changes apply on restart"
            self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Warning, message=message))

    def publish(self, uri: str, version: int | None, text: str, result: FileResult | None) -> None:
        lines = _lines(text)
        diagnostics = []
        if result is not None:
            diagnostics = [self._diagnostic(uri, lines, finding) for finding in result.findings]
            # a suppression comment that cannot be read (ignored), as `check` warns on stderr:
            # the range runs from where the warning points to the end of the comment
            diagnostics += [
                self._note(lines, warning, lsp.DiagnosticSeverity.Warning, to_end=True) for warning in result.warnings
            ]
            if result.error is not None:
                diagnostics.append(self._note(lines, result.error, lsp.DiagnosticSeverity.Error))
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def _note(
        self, lines: list[str], note: Diagnostic, severity: lsp.DiagnosticSeverity, to_end: bool = False
    ) -> lsp.Diagnostic:
        """A diagnostic of ascend-lint's own, about the file (no rule's finding); with `to_end`,
        its range ends with its line (a comment's)."""
        where = note.location or Position(1, 1)
        end = where
        if to_end and where.row <= len(lines):
            end = Position(where.row, max(where.column, len(lines[where.row - 1]) + 1))
        return lsp.Diagnostic(
            range=self._range(lines, where, end), message=note.message, severity=severity, source=NAME
        )

    def _diagnostic(self, uri: str, lines: list[str], finding: Finding) -> lsp.Diagnostic:
        url = rule_url(finding.code, finding.name)
        return lsp.Diagnostic(
            range=self._range(lines, finding.location, finding.end_location),
            message=f"[{finding.name}] {finding.message}",
            severity=lsp.DiagnosticSeverity.Warning,
            code=finding.code,
            code_description=lsp.CodeDescription(href=url) if url else None,
            source=NAME,
            tags=[lsp.DiagnosticTag.Unnecessary] if _no_effect(finding.code) else None,
            related_information=[
                lsp.DiagnosticRelatedInformation(
                    location=lsp.Location(uri=uri, range=self._range(lines, r.location, r.end_location)),
                    message=r.message,
                )
                for r in finding.related
            ]
            or None,
        )

    def _range(self, lines: list[str], start: Position, end: Position) -> lsp.Range:
        return lsp.Range(start=self._position(lines, start), end=self._position(lines, end))

    def _position(self, lines: list[str], position: Position) -> lsp.Position:
        """1-based row and code-point column -> LSP's 0-based line and client units."""
        line = lines[position.row - 1] if position.row <= len(lines) else ""
        prefix = line[: position.column - 1]
        encoding = self.workspace.position_encoding
        if encoding == lsp.PositionEncodingKind.Utf8:
            character = len(prefix.encode("utf-8"))
        elif encoding == lsp.PositionEncodingKind.Utf32:
            character = len(prefix)
        else:
            character = len(prefix.encode("utf-16-le")) // 2
        return lsp.Position(line=position.row - 1, character=character)

    def current(self, uri: str) -> tuple[FileResult, Settings | None, list[str]] | None:
        """The document's result and settings when it was linted on the text the editor has now."""
        document = self.documents.get(uri)
        if document is None or document.result is None or document.text is None:
            return None
        if document.text != self.workspace.get_text_document(uri).source:
            return None  # a lint of the newer text is on its way: its actions will follow
        return document.result, document.settings, _lines(document.text)

    async def settled(self, uri: str) -> tuple[FileResult, Settings | None, list[str]] | None:
        """`current`, once the lint of the text the editor has now is done: an editor asks for
        `source.fixAll` on save right after the last keystroke. Waits `LINT_WAIT` at most."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LINT_WAIT
        while (document := self.documents.get(uri)) is not None and document.linting and self.current(uri) is None:
            document.linted.clear()
            try:
                await asyncio.wait_for(document.linted.wait(), deadline - loop.time())
            except asyncio.TimeoutError:
                break
        return self.current(uri)

    async def code_actions(
        self, uri: str, wanted: lsp.Range, only: Sequence[str] | None, resolvable: bool = False
    ) -> list[lsp.CodeAction]:
        """The quick fixes of the findings in `wanted` and the action applying every safe fix.
        Asked without `only` (a lightbulb, a menu) by a client that resolves code actions, that
        action comes without its edit, worked out when it is chosen (`resolve`): the cursor
        moves often, and fixing everything costs a lint."""
        state = await self.settled(uri)
        if state is None:
            return []
        result, settings, lines = state
        actions: list[lsp.CodeAction] = []
        quickfix = not only or any(lsp.CodeActionKind.QuickFix.value.startswith(kind) for kind in only)
        for finding in result.findings if quickfix else ():
            found = self._range(lines, finding.location, finding.end_location)
            if not _overlaps(found, wanted):
                continue
            diagnostic = self._diagnostic(uri, lines, finding)
            if finding.fix is not None:
                actions.append(self._fix_action(uri, lines, finding, finding.fix, diagnostic))
            noqa = self._noqa_action(uri, lines, finding, diagnostic, _comments(self.documents[uri].text or ""))
            if noqa is not None:
                actions.append(noqa)
        if not only and resolvable:
            if _fixable(result):
                actions.append(lsp.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL, data={"uri": uri}))
        elif not only or any(FIX_ALL.startswith(kind) for kind in only):
            fixed = await self.fixed_all(self.documents[uri], result, settings)
            now = self.current(uri)
            if now is None or now[0] is not result:
                return []  # the text changed meanwhile: the editor asks again for the new one
            if fixed is not None:
                actions.append(self._fix_all_action(uri, lines, fixed))
        return actions

    async def resolve(self, action: lsp.CodeAction) -> lsp.CodeAction:
        """The edit of the "apply every safe fix" action, for the text the editor has now."""
        uri = action.data.get("uri") if isinstance(action.data, dict) else None
        if action.kind != FIX_ALL or not isinstance(uri, str):
            return action
        for _ in range(3):  # the text may change while the fixes are worked out
            state = await self.settled(uri)
            if state is None:
                break
            result, settings, lines = state
            fixed = await self.fixed_all(self.documents[uri], result, settings)
            now = self.current(uri)
            if now is not None and now[0] is result:
                return self._fix_all_action(uri, lines, fixed)
        return action

    def _fix_all_action(self, uri: str, lines: list[str], fixed: str | None) -> lsp.CodeAction:
        """The action replacing the text with `fixed` (no edit when nothing is fixed)."""
        edits = [] if fixed is None else [lsp.TextEdit(range=self._whole(lines), new_text=fixed)]
        return lsp.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL, edit=lsp.WorkspaceEdit(changes={uri: edits}))

    async def fixed_all(self, document: Document, result: FileResult, settings: Settings | None) -> str | None:
        """The text of `result` with every safe fix applied (None when none applies). Worked out
        once per lint, on the lint worker: fixing re-lints the fixed text, which takes as long as
        a lint, and the editor asks for code actions whenever the cursor moves, so the server
        keeps answering (diagnostics, hovers) meanwhile."""
        if document.fixed_all is None or document.fixed_all[0] is not result:
            fixed = await asyncio.get_running_loop().run_in_executor(self.linter, _fix_all, result, settings)
            document.fixed_all = (result, fixed)
        return document.fixed_all[1]

    def _fix_action(
        self, uri: str, lines: list[str], finding: Finding, fix: Fix, diagnostic: lsp.Diagnostic
    ) -> lsp.CodeAction:
        label = f"Fix {finding.code}" if fix.applicability == "safe" else f"Fix {finding.code} (unsafe: review it)"
        edits = [lsp.TextEdit(range=self._range(lines, e.start, e.end), new_text=e.content) for e in fix.edits]
        return lsp.CodeAction(
            title=f"{label}: {fix.message}",
            kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            is_preferred=fix.applicability == "safe",
            edit=lsp.WorkspaceEdit(changes={uri: edits}),
        )

    def _noqa_action(
        self, uri: str, lines: list[str], finding: Finding, diagnostic: lsp.Diagnostic, comments: Comments
    ) -> lsp.CodeAction | None:
        """`# noqa: CODE` on the finding's `noqa_row`, as `check --add-noqa` writes it
        (`directives.noqa_edit`); None when no comment can end that row."""
        edit = noqa_edit(comments, lines, finding.noqa_row, [finding.code])
        if edit is None:
            return None
        where = lsp.Range(
            start=self._position(lines, Position(edit.row, edit.start + 1)),
            end=self._position(lines, Position(edit.row, edit.end + 1)),
        )
        return lsp.CodeAction(
            title=f"Disable {finding.code} for this line",
            kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=where, new_text=edit.text)]}),
        )

    def _whole(self, lines: list[str]) -> lsp.Range:
        end = self._position(lines, Position(len(lines), len(lines[-1]) + 1)) if lines else lsp.Position(0, 0)
        return lsp.Range(start=lsp.Position(0, 0), end=end)

    def hover(self, uri: str, at: lsp.Position) -> lsp.Hover | None:
        """The documentation of the rules whose findings cover `at`, without its `## Details`
        (a popup, not a page): a last line says where the whole text is."""
        state = self.current(uri)
        if state is None:
            return None
        result, _, lines = state
        codes = []
        for finding in result.findings:
            found = self._range(lines, finding.location, finding.end_location)
            if _overlaps(found, lsp.Range(start=at, end=at)) and finding.code not in codes:
                codes.append(finding.code)
        docs = [brief_documentation(rule) for rule in map(rule_by_selector, codes) if rule is not None]
        if not docs:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n---\n".join(docs)))

    def forget(self, uri: str) -> None:
        self.documents.pop(uri, None)
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    async def settings_changed(self) -> None:
        """A configuration file changed, or a file or folder that decides targeting appeared or
        went: reload settings and lint every open document again."""
        _settings.cache_clear()
        await asyncio.gather(*(self.relint(uri) for uri in list(self.documents)))


def _lint(uri: str, text: str, document: Document) -> tuple[FileResult | None, Settings | None]:
    path = to_fs_path(uri) or uri
    forget_disk()  # targeting reads the folders around the file: they may have changed since
    try:
        settings = _settings(str(Path(path).parent))
    except ConfigError as exc:
        return FileResult(path, source=text, error=Diagnostic(path, f"configuration error: {exc}")), None
    if settings.is_excluded(path):  # an open document is named: `exclude` holds as with `--force-exclude`
        return FileResult(path, source=text, checked=False, skip_reason=SKIP_EXCLUDED), settings
    return lint_source(text, path, settings, memory=document.memory), settings


@lru_cache(maxsize=64)
def _settings(folder: str) -> Settings:
    """The settings of the project holding `folder` (cleared when a configuration changes)."""
    return load_settings([folder])


def _no_effect(code: str) -> bool:
    """Whether the rule's findings point at code that has no effect (`Rule.NO_EFFECT`)."""
    rule = rule_by_selector(code)
    return rule is not None and rule.NO_EFFECT


def _fixable(result: FileResult) -> bool:
    """Whether a finding has a safe fix."""
    return any(f.fix is not None and f.fix.applicability == "safe" for f in result.findings)


def _fix_all(result: FileResult, settings: Settings | None) -> str | None:
    """The text with every safe fix applied, or None when there is none."""
    from .fixer import fix_result

    if settings is None or not _fixable(result):
        return None
    _, fixed = fix_result(result, settings, unsafe=False)
    return fixed.fixed if fixed is not None else None


@lru_cache(maxsize=4)
def _comments(text: str) -> Comments:
    """The comments of a document's text, tokenized once however often the editor asks for
    code actions on it."""
    return Comments(text)


def _lines(text: str) -> list[str]:
    """Lines as ascend-lint counts rows (\\r\\n, \\r or \\n end a line), without the breaks."""
    return NEWLINE.split(text)


def _is_configuration(uri: str) -> bool:
    return uri.rsplit("/", 1)[-1] in CONFIGURATION_FILES


def _decides_targeting(change: lsp.FileEvent) -> bool:
    """A folder or module created or deleted whose presence decides targeting (the client may
    report more than `TARGETING_GLOBS` asked for: bytecode, `input.py`, changes)."""
    if change.type == lsp.FileChangeType.Changed:
        return False
    parts = unquote(change.uri).rstrip("/").split("/")
    name = parts[-1]
    if name == "__init__.py":
        return True
    folder = "." not in name or os.path.isdir(to_fs_path(change.uri) or name)
    return (
        ascend_name(name)
        and not name.startswith(".")
        and "__pycache__" not in parts
        and (folder or name.endswith(".py"))
    )


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return p.line, p.character

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def build_server() -> AscendLintServer:
    server = AscendLintServer()

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: AscendLintServer, params: lsp.InitializedParams) -> None:
        await ls.watch_configuration()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def workspace_folders(ls: AscendLintServer, params: lsp.DidChangeWorkspaceFoldersParams) -> None:
        if ls.watching:
            await ls.watch_configuration()

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: AscendLintServer, params: None) -> None:
        ls.shut_down = True

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: AscendLintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        await ls.relint(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: AscendLintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        await ls.relint(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: AscendLintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        if _is_configuration(params.text_document.uri):
            await ls.settings_changed()
        else:
            await ls.saved(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: AscendLintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched_files(ls: AscendLintServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        if any(_is_configuration(change.uri) or _decides_targeting(change) for change in params.changes):
            await ls.settings_changed()

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True),
    )
    async def code_action(ls: AscendLintServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        capability = ls.client_capabilities.text_document
        code_action = capability.code_action if capability else None
        resolving = code_action.resolve_support if code_action else None
        resolvable = resolving is not None and "edit" in resolving.properties
        return await ls.code_actions(params.text_document.uri, params.range, params.context.only, resolvable)

    @server.feature(lsp.CODE_ACTION_RESOLVE)
    async def resolve_code_action(ls: AscendLintServer, params: lsp.CodeAction) -> lsp.CodeAction:
        return await ls.resolve(params)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: AscendLintServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return ls.hover(params.text_document.uri, params.position)

    return server


def main() -> int:
    server = build_server()
    server.start_io()
    return 0 if server.shut_down else 1  # the protocol's exit status of `exit` without `shutdown`
