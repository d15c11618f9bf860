"""`ascend-lint server` driven over stdio by pygls's language client, as an editor would."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from conftest import FIXTURES, REPO
from kernel_samples import UB_KERNEL, UB_LINE
from lsprotocol import types as lsp
from pygls.lsp.client import BaseLanguageClient

from ascend_lint.config import load_settings
from ascend_lint.engine import lint_source
from ascend_lint.fixer import fix_result
from ascend_lint.fixes import apply_edits
from ascend_lint.model import Edit, Position
from ascend_lint.reporters.shared import HOMEPAGE, rule_url

# ASC001 after a non-BMP character (UTF-16 columns differ from code points), ASC003 with a
# related location and an unsafe fix.
KERNEL = """\
import triton
import triton.language as tl


@triton.jit
def k(p_a, p_b, p_o):
    b_a = tl.load(p_a)
    b_o = tl.dot(b_a, tl.load(p_b))
    tl.store(p_o, b_a + b_o)


def launch(a, b, o):
    k[(1,)]("😋", a, b, o, num_warps=4)
"""
TIMEOUT = 40


class Editor(BaseLanguageClient):
    """A client that records what the server publishes."""

    def __init__(self) -> None:
        super().__init__("ascend-lint-tests", "1")
        self.published: dict[str, list[lsp.PublishDiagnosticsParams]] = {}
        self.arrived = asyncio.Event()
        self.registrations: list[lsp.Registration] = []
        self.registered = asyncio.Event()
        self.unregistrations: list[lsp.Unregistration] = []
        self.logged: list[lsp.LogMessageParams] = []

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append(params)
            self.arrived.set()

        @self.feature(lsp.CLIENT_REGISTER_CAPABILITY)
        def register(params: lsp.RegistrationParams) -> None:
            self.registrations += params.registrations
            self.registered.set()

        @self.feature(lsp.CLIENT_UNREGISTER_CAPABILITY)
        def unregister(params: lsp.UnregistrationParams) -> None:
            self.unregistrations += params.unregisterations

        @self.feature(lsp.WINDOW_LOG_MESSAGE)
        def log(params: lsp.LogMessageParams) -> None:
            self.logged.append(params)

    async def diagnostics(self, uri: str, count: int) -> lsp.PublishDiagnosticsParams:
        """The `count`-th publication for `uri` (waiting for it)."""
        while len(self.published.get(uri, ())) < count:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), TIMEOUT)
        return self.published[uri][count - 1]


# what VS Code and Neovim tell a server they can do, of what it uses
EDITOR_CAPABILITIES = lsp.ClientCapabilities(
    general=lsp.GeneralClientCapabilities(position_encodings=[lsp.PositionEncodingKind.Utf16]),
    workspace=lsp.WorkspaceClientCapabilities(
        did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
    ),
    text_document=lsp.TextDocumentClientCapabilities(
        code_action=lsp.CodeActionClientCapabilities(
            resolve_support=lsp.ClientCodeActionResolveOptions(properties=["edit"]), data_support=True
        )
    ),
)
PLAIN_CAPABILITIES = lsp.ClientCapabilities(
    general=lsp.GeneralClientCapabilities(position_encodings=[lsp.PositionEncodingKind.Utf16])
)


def with_server(
    project: Path,
    scenario: Callable[[Editor], Awaitable[None]],
    capabilities: lsp.ClientCapabilities = PLAIN_CAPABILITIES,
    folders: list[Path] | None = None,
) -> lsp.InitializeResult:
    """Run `scenario` with a server started in `project` for a client of `capabilities`; the
    server's answer to `initialize`."""
    initialized: list[lsp.InitializeResult] = []

    async def run() -> None:
        editor = Editor()
        environment = {**os.environ, "PYTHONPATH": str(REPO)}
        await editor.start_io(sys.executable, "-m", "ascend_lint", "server", cwd=project, env=environment)
        try:
            initialized.append(
                await editor.initialize_async(
                    lsp.InitializeParams(
                        capabilities=capabilities,
                        root_uri=project.as_uri(),
                        workspace_folders=[lsp.WorkspaceFolder(f.as_uri(), f.name) for f in folders]
                        if folders
                        else None,
                    )
                )
            )
            editor.initialized(lsp.InitializedParams())
            await asyncio.wait_for(scenario(editor), TIMEOUT * 3)
            await asyncio.wait_for(editor.shutdown_async(None), TIMEOUT)
        finally:
            editor.exit(None)
            try:
                await asyncio.wait_for(editor.stop(), TIMEOUT)
            except TimeoutError:
                editor._server.kill()  # the client has no public way to end a server that hangs
                raise

    asyncio.run(run())
    return initialized[0]


def open_document(editor: Editor, path: Path, text: str) -> str:
    uri = path.as_uri()
    editor.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
    )
    return uri


def change(editor: Editor, uri: str, version: int, edit: lsp.TextEdit) -> None:
    """An incremental change, as editors send them."""
    event = lsp.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)
    editor.text_document_did_change(
        lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [event])
    )


def utf16(text: str, row: int, column: int) -> lsp.Position:
    line = text.splitlines()[row - 1]
    return lsp.Position(line=row - 1, character=len(line[: column - 1].encode("utf-16-le")) // 2)


def applied(text: str, edits: list[lsp.TextEdit]) -> str:
    """`edits` applied the way an editor does (UTF-16 positions)."""

    def position(p: lsp.Position) -> Position:
        line = text.splitlines()[p.line] if p.line < len(text.splitlines()) else ""
        units, column = 0, 0
        while units < p.character:
            units += len(line[column].encode("utf-16-le")) // 2
            column += 1
        return Position(p.line + 1, column + 1)

    return apply_edits(text, [Edit(position(e.range.start), position(e.range.end), e.new_text) for e in edits])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.ascend-lint]\n", encoding="utf-8")
    (tmp_path / "triton_ascend").mkdir()
    return tmp_path


def expected(text: str, path: Path):
    return lint_source(text, str(path), load_settings([str(path.parent)]))


def test_diagnostics_actions_and_hover(project: Path):
    path = project / "triton_ascend" / "k.py"
    reference = expected(KERNEL, path)
    assert sorted(f.code for f in reference.findings) == ["ASC001", "ASC003"]

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, KERNEL)
        published = await editor.diagnostics(uri, 1)
        assert published.version == 1
        got = sorted(published.diagnostics, key=lambda d: d.code)
        assert [d.code for d in got] == ["ASC001", "ASC003"]
        for diagnostic, finding in zip(got, sorted(reference.findings, key=lambda f: f.code), strict=True):
            assert diagnostic.range.start == utf16(KERNEL, finding.location.row, finding.location.column)
            assert diagnostic.range.end == utf16(KERNEL, finding.end_location.row, finding.end_location.column)
            assert diagnostic.message == f"[{finding.name}] {finding.message}"
            assert diagnostic.source == "ascend-lint"
            assert diagnostic.severity == lsp.DiagnosticSeverity.Warning
        assert got[1].related_information[0].location.range.start.line == 7  # the tl.dot
        knobs, dot = got

        actions = await editor.text_document_code_action_async(
            lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri),
                range=knobs.range,
                context=lsp.CodeActionContext(diagnostics=[knobs]),
            )
        )
        titles = [a.title for a in actions]
        assert titles[:2] == ["Fix ASC001: Remove `num_warps`", "Disable ASC001 for this line"]
        assert actions[0].is_preferred
        fixed = applied(KERNEL, actions[0].edit.changes[uri])
        assert "num_warps" not in fixed and expected(fixed, path).findings[0].code == "ASC003"
        silenced = applied(KERNEL, actions[1].edit.changes[uri])
        assert silenced.splitlines()[12].endswith("num_warps=4)  # noqa: ASC001")
        fix_all = next(a for a in actions if a.kind == "source.fixAll.ascend-lint")
        settings = load_settings([str(path.parent)])
        assert applied(KERNEL, fix_all.edit.changes[uri]) == fix_result(reference, settings, unsafe=False)[1].fixed

        dot_actions = await editor.text_document_code_action_async(
            lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri),
                range=dot.range,
                context=lsp.CodeActionContext(diagnostics=[dot], only=[lsp.CodeActionKind.QuickFix]),
            )
        )
        assert [a.title.split(":")[0] for a in dot_actions] == ["Fix ASC003 (unsafe", "Disable ASC003 for this line"]
        assert not dot_actions[0].is_preferred
        assert not expected(applied(KERNEL, dot_actions[0].edit.changes[uri]), path).findings[1:]

        hover = await editor.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri), position=dot.range.start)
        )
        assert hover.contents.value.startswith("# dot-lhs-reuse (ASC003)")
        assert "## Why is this bad?" in hover.contents.value
        # a popup, not a page: the rule's Details stay out, the last line says where they are
        assert "## Details" not in hover.contents.value and "## Fix safety" in hover.contents.value
        where = f"docs/rules.md]({rule_url('ASC003', 'dot-lhs-reuse')})" if HOMEPAGE else "`ascend-lint rule ASC003`"
        assert hover.contents.value.rstrip().splitlines()[-1].endswith(f"{where}*")

        # the editor inserts the noqa comment: the server re-lints the changed document only
        other = open_document(editor, project / "triton_ascend" / "other.py", KERNEL)
        await editor.diagnostics(other, 1)
        noqa = actions[1].edit.changes[uri][0]
        change(editor, uri, 2, noqa)
        published = await editor.diagnostics(uri, 2)
        assert published.version == 2 and [d.code for d in published.diagnostics] == ["ASC003"]
        await editor.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), dot.range.start))
        assert len(editor.published[other]) == 1

        editor.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        assert not (await editor.diagnostics(uri, 3)).diagnostics

    with_server(project, scenario)


LAUNCH = 'k[(1,)]("😋", a, b, o, num_warps=4)'


@pytest.mark.parametrize(
    ("launch", "silenced"),
    [
        # a `#` in a string is no comment: the directive goes at the end of the line
        (
            'k[(1,)]("😋 # noqa: E501", a, b, o, num_warps=4)',
            'k[(1,)]("😋 # noqa: E501", a, b, o, num_warps=4)  # noqa: ASC001',
        ),
        # the code joins the list of the line's directive, wherever it is in the comment, sorted
        # as `check --add-noqa` writes it (ruff's quick fix and `--add-noqa` share it too)
        (f"{LAUNCH}  # noqa: E501", f"{LAUNCH}  # noqa: ASC001, E501"),
        (f"{LAUNCH}  # keep # noqa : ASC003 why", f"{LAUNCH}  # keep # noqa: ASC001, ASC003 why"),
        # a directive that cannot be read suppresses nothing: the new one goes before it
        (f"{LAUNCH}  # noqa: ASC", f"{LAUNCH}  # noqa: ASC001  # noqa: ASC"),
        (f"{LAUNCH}  # a remark", f"{LAUNCH}  # a remark  # noqa: ASC001"),
        # never inside a string: a row that ends in one takes the directive on the string's last
        (
            'k[(1,)]("😋", a, b, o, num_warps=4, doc="""\n""")',
            'k[(1,)]("😋", a, b, o, num_warps=4, doc="""\n""")  # noqa: ASC001',
        ),
    ],
)
def test_disable_for_this_line_reads_the_comment_as_the_linter_does(project: Path, launch: str, silenced: str):
    path = project / "triton_ascend" / "k.py"
    text = KERNEL.replace(LAUNCH, launch)
    assert [f.code for f in expected(text, path).findings] == ["ASC003", "ASC001"]

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, text)
        published = await editor.diagnostics(uri, 1)
        knobs = next(d for d in published.diagnostics if d.code == "ASC001")
        actions = await editor.text_document_code_action_async(
            lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri),
                range=knobs.range,
                context=lsp.CodeActionContext(diagnostics=[knobs], only=[lsp.CodeActionKind.QuickFix]),
            )
        )
        disable = next(a for a in actions if a.title == "Disable ASC001 for this line")
        done = applied(text, disable.edit.changes[uri])
        assert done == text.replace(launch, silenced)
        assert [f.code for f in expected(done, path).findings] == ["ASC003"]

    with_server(project, scenario)


def busy_document(kernels: int) -> str:
    """KERNEL with `kernels` more small kernels: a document whose first lint takes a while."""
    extra = "".join(
        f"""

@triton.jit
def pad{i}(x, y, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for j in range(0, n, BLOCK):
        total += tl.load(x + j + offsets, mask=offsets < n, other=0.0)
    tl.store(y + offsets, total.to(tl.float16), mask=offsets < n)
"""
        for i in range(kernels)
    )
    return KERNEL.replace("\n\ndef launch", extra + "\n\ndef launch")


def test_a_burst_of_edits_ends_on_the_last_text(project: Path):
    path = project / "triton_ascend" / "k.py"

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, KERNEL)
        await editor.diagnostics(uri, 1)
        # A long first lint of another document holds the server's one lint worker while the
        # burst arrives, so the coalescing does not depend on how fast a re-lint is.
        open_document(editor, project / "triton_ascend" / "busy.py", busy_document(150))
        end = lsp.Position(line=len(KERNEL.splitlines()), character=0)
        text = KERNEL
        for version in range(2, 12):  # each edit adds a launch with a knob: one more ASC001
            addition = f"    k[(1,)](a, b, o, num_stages={version})\n"
            change(editor, uri, version, lsp.TextEdit(lsp.Range(end, end), addition))
            text += addition
            end = lsp.Position(line=end.line + 1, character=0)
        while True:
            last = editor.published[uri][-1]
            if last.version == 11:
                break
            await editor.diagnostics(uri, len(editor.published[uri]) + 1)
        assert len(editor.published[uri]) < 11  # edits made during a lint were coalesced
        assert sorted(d.code for d in last.diagnostics) == sorted(f.code for f in expected(text, path).findings)

    with_server(project, scenario)


def test_a_syntax_error_is_a_diagnostic_and_other_files_are_not_flagged(project: Path):
    async def scenario(editor: Editor) -> None:
        broken = open_document(editor, project / "triton_ascend" / "broken.py", "def f(:\n")
        (error,) = (await editor.diagnostics(broken, 1)).diagnostics
        assert error.severity == lsp.DiagnosticSeverity.Error and error.message.startswith("SyntaxError")
        cuda = open_document(editor, project / "cuda_kernels.py", KERNEL)  # not Ascend code
        assert not (await editor.diagnostics(cuda, 1)).diagnostics

    with_server(project, scenario)


def test_a_document_no_file_can_hold_gets_one_diagnostic_saying_why(project: Path):
    """A lone surrogate (JSON may carry `"\ud800"`) was "internal error (UnicodeEncodeError ...)"
    at 0:0, and a 6 MB document was linted (the command line refuses a file over 5 MB): each is
    refused as the file would be, the surrogate where it is."""
    surrogate = KERNEL + 'x = "\ud800"  # \udcff\n'
    large = "x = 1\n" * (1024 * 1024)

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, project / "triton_ascend" / "surrogate.py", surrogate)
        (error,) = (await editor.diagnostics(uri, 1)).diagnostics
        row = surrogate.count("\n")
        assert error.message == "text cannot be encoded as utf-8: lone surrogate U+D800"
        assert error.range.start == utf16(surrogate, row, 6) and error.severity == lsp.DiagnosticSeverity.Error
        uri = open_document(editor, project / "triton_ascend" / "large.py", large)
        (error,) = (await editor.diagnostics(uri, 1)).diagnostics
        assert error.message == f"file too large to lint ({len(large)} bytes; limit 5242880)"

    with_server(project, scenario)


def test_a_suppression_comment_that_cannot_be_read_is_a_warning(project: Path):
    """`check` warns on stderr; the editor shows it where the comment is, and the finding stays."""
    text = KERNEL.replace("num_warps=4)", "num_warps=4)  # noqa: ASC-001")
    row = next(n for n, line in enumerate(text.splitlines()) if "# noqa: ASC-001" in line)

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, project / "triton_ascend" / "k.py", text)
        diagnostics = (await editor.diagnostics(uri, 1)).diagnostics
        (warning,) = [d for d in diagnostics if d.code is None]
        assert warning.severity == lsp.DiagnosticSeverity.Warning and "Invalid" in warning.message
        assert warning.range.start.line == row
        assert "ASC001" in [d.code for d in diagnostics]

    with_server(project, scenario)


def test_saves_and_configuration_changes_lint_again(project: Path):
    path = project / "triton_ascend" / "k.py"
    configuration = project / "pyproject.toml"

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, KERNEL)
        assert sorted(d.code for d in (await editor.diagnostics(uri, 1)).diagnostics) == ["ASC001", "ASC003"]

        configuration.write_text('[tool.ascend-lint]\nignore = ["ASC003"]\n', encoding="utf-8")
        saved = lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(configuration.as_uri()))
        editor.text_document_did_save(saved)
        assert [d.code for d in (await editor.diagnostics(uri, 2)).diagnostics] == ["ASC001"]

        # saved as linted: nothing to do; once another file was saved (a module it may import
        # from), it is linted again
        editor.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        other = open_document(editor, project / "triton_ascend" / "other.py", KERNEL)
        await editor.diagnostics(other, 1)
        assert len(editor.published[uri]) == 2
        editor.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(other)))
        editor.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        assert [d.code for d in (await editor.diagnostics(uri, 3)).diagnostics] == ["ASC001"]
        assert len(editor.published[other]) == 1

        configuration.write_text('[tool.ascend-lint]\nignore = ["ASC001"]\n', encoding="utf-8")
        changed = lsp.FileEvent(uri=configuration.as_uri(), type=lsp.FileChangeType.Changed)
        editor.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[changed]))
        assert [d.code for d in (await editor.diagnostics(uri, 4)).diagnostics] == ["ASC003"]

    with_server(project, scenario)


HELPER = """import triton
import triton.language as tl


@triton.jit
def mix(a, b):
    return a + b
"""

IMPORTER = """import triton
import triton.language as tl

from .helpers import mix


@triton.jit
def k(x, w, o, BT: tl.constexpr):
    o_i = tl.arange(0, BT)
    tile = o_i[:, None] * BT + o_i[None, :]
    b_x = tl.load(x + tile)
    b_o = mix(b_x, tl.load(w + tile))
    tl.store(o + tile, b_o + b_x)
"""


def test_saving_a_module_lints_the_open_documents_that_import_it_again(project: Path):
    """The device function `mix` is read from disk: saving its module with a `tl.dot` makes the
    importer's read of `b_x` an ASC003, without an edit or a save of the importer."""
    (project / "triton_ascend" / "__init__.py").write_text("", encoding="utf-8")
    helpers = project / "triton_ascend" / "helpers.py"
    helpers.write_text(HELPER, encoding="utf-8")
    unrelated_path = project / "triton_ascend" / "other.py"

    async def scenario(editor: Editor) -> None:
        importer = open_document(editor, project / "triton_ascend" / "k.py", IMPORTER)
        assert not (await editor.diagnostics(importer, 1)).diagnostics
        unrelated = open_document(editor, unrelated_path, KERNEL)
        await editor.diagnostics(unrelated, 1)
        helper = open_document(editor, helpers, HELPER)
        await editor.diagnostics(helper, 1)
        with_dot = HELPER.replace("return a + b", "return tl.dot(a, b)")
        end = lsp.Position(line=len(HELPER.splitlines()), character=0)
        change(editor, helper, 2, lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), with_dot))
        helpers.write_text(with_dot, encoding="utf-8")
        editor.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(helper)))
        relinted = (await editor.diagnostics(importer, 2)).diagnostics
        assert [(d.code, d.range.start.line + 1) for d in relinted] == [("ASC003", 13)]
        assert len(editor.published[unrelated]) == 1  # it imports nothing from the saved file

    with_server(project, scenario)


def test_an_excluded_document_gets_no_diagnostics(project: Path):
    """An open document is named, as a file on `--force-exclude`'s command line is."""
    path = project / "triton_ascend" / "k.py"
    configuration = project / "pyproject.toml"

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, KERNEL)
        assert sorted(d.code for d in (await editor.diagnostics(uri, 1)).diagnostics) == ["ASC001", "ASC003"]
        configuration.write_text('[tool.ascend-lint]\nexclude = ["triton_ascend/k.py"]\n', encoding="utf-8")
        changed = lsp.FileEvent(uri=configuration.as_uri(), type=lsp.FileChangeType.Changed)
        editor.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[changed]))
        assert not (await editor.diagnostics(uri, 2)).diagnostics

    with_server(project, scenario)


def test_target_soc_changes_lint_again(project: Path):
    """The kernel's UB estimate is kept with the document; the capacity it is judged against
    comes from the configuration each time."""
    path = project / "triton_ascend" / "silu.py"
    configuration = project / "pyproject.toml"

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, UB_KERNEL)
        first = (await editor.diagnostics(uri, 1)).diagnostics
        assert [(d.code, d.range.start.line + 1) for d in first] == [("ASC013", UB_LINE)]
        assert "the Ascend 910B has" in first[0].message

        configuration.write_text('[tool.ascend-lint]\ntarget-soc = "ascend950"\n', encoding="utf-8")
        changed = lsp.FileEvent(uri=configuration.as_uri(), type=lsp.FileChangeType.Changed)
        editor.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[changed]))
        assert not (await editor.diagnostics(uri, 2)).diagnostics

    with_server(project, scenario)


def test_fixing_everything_does_not_hold_up_the_editor(project: Path):
    """The "apply every safe fix" action re-lints the fixed text, as long as a lint; the editor
    asks for code actions whenever the cursor moves. A hover asked meanwhile is answered first."""
    path = project / "triton_ascend" / "k.py"
    text = busy_document(150)
    row = next(i for i, line in enumerate(text.splitlines()) if "num_warps" in line)
    knob = utf16(text, row + 1, text.splitlines()[row].index("num_warps") + 1)
    settings = load_settings([str(path.parent)])
    reference = fix_result(lint_source(text, str(path), settings), settings, unsafe=False)[1]
    assert reference is not None

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, text)
        await editor.diagnostics(uri, 1)
        identifier = lsp.TextDocumentIdentifier(uri)
        everything = lsp.Range(lsp.Position(0, 0), lsp.Position(row + 1, 0))
        answered: list[str] = []

        async def ask(name: str, request: Awaitable[object]) -> object:
            answer = await request
            answered.append(name)
            return answer

        for _ in range(2):  # the second time from what the first worked out
            actions_asked = editor.text_document_code_action_async(
                lsp.CodeActionParams(identifier, everything, lsp.CodeActionContext(diagnostics=[]))
            )
            hover_asked = editor.text_document_hover_async(lsp.HoverParams(identifier, knob))
            actions, hover = await asyncio.gather(ask("actions", actions_asked), ask("hover", hover_asked))
            assert hover is not None and "num_warps" in hover.contents.value
            fix_all = next(a for a in actions if a.kind == "source.fixAll.ascend-lint")
            assert applied(text, fix_all.edit.changes[uri]) == reference.fixed
        assert answered[:2] == ["hover", "actions"]

    with_server(project, scenario)


def test_the_files_that_decide_targeting_are_watched(tmp_path: Path):
    """The client is asked to watch pyproject.toml, setup.cfg and setup.py (a client set up for
    Python files never saves them with this server); a change lints the open documents again.
    A document that is not linted says why in the client's log, once."""
    (tmp_path / "pyproject.toml").write_text("[tool.ascend-lint]\n", encoding="utf-8")
    (tmp_path / "kernels").mkdir()
    path = tmp_path / "kernels" / "k.py"  # no Ascend folder, import or dependency: not linted

    async def scenario(editor: Editor) -> None:
        await asyncio.wait_for(editor.registered.wait(), TIMEOUT)
        (registration,) = editor.registrations
        assert registration.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
        watchers = lsp.DidChangeWatchedFilesRegistrationOptions(**registration.register_options).watchers
        patterns = {w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in watchers}
        assert {"**/pyproject.toml", "**/setup.cfg", "**/setup.py"} <= patterns

        uri = open_document(editor, path, KERNEL)
        assert not (await editor.diagnostics(uri, 1)).diagnostics
        (told,) = editor.logged
        assert f"{path} is not linted, not Ascend kernel code" in told.message and "target-paths" in told.message
        change(editor, uri, 2, lsp.TextEdit(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), "# edited\n"))
        await editor.diagnostics(uri, 2)
        assert len(editor.logged) == 1  # said once

        setup = tmp_path / "setup.cfg"
        setup.write_text("[options]\ninstall_requires =\n    torch-npu>=2.1\n", encoding="utf-8")
        created = lsp.FileEvent(uri=setup.as_uri(), type=lsp.FileChangeType.Created)
        editor.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[created]))
        assert sorted(d.code for d in (await editor.diagnostics(uri, 3)).diagnostics) == ["ASC001", "ASC003"]

    with_server(tmp_path, scenario, EDITOR_CAPABILITIES)


def test_fix_all_on_save_right_after_typing_waits_for_the_lint(project: Path):
    """codeActionsOnSave asks for `source.fixAll` right after the last keystroke, before the
    lint of that text is done: the answer waits for it instead of being empty."""
    path = project / "triton_ascend" / "k.py"
    settings = load_settings([str(path.parent)])

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, KERNEL)
        await editor.diagnostics(uri, 1)
        # another document's first lint holds the lint worker while the edit arrives
        open_document(editor, project / "triton_ascend" / "busy.py", busy_document(60))
        typed = "# typed\n"
        change(editor, uri, 2, lsp.TextEdit(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), typed))
        text = typed + KERNEL
        identifier = lsp.TextDocumentIdentifier(uri)
        everything = lsp.Range(lsp.Position(0, 0), lsp.Position(len(text.splitlines()), 0))
        on_save = lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.SourceFixAll])
        quick = lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.QuickFix])
        fix_all, quickfixes = await asyncio.gather(
            editor.text_document_code_action_async(lsp.CodeActionParams(identifier, everything, on_save)),
            editor.text_document_code_action_async(lsp.CodeActionParams(identifier, everything, quick)),
        )
        (action,) = fix_all
        reference = fix_result(lint_source(text, str(path), settings), settings, unsafe=False)[1]
        assert applied(text, action.edit.changes[uri]) == reference.fixed
        assert [a.title.split(":")[0] for a in quickfixes] == [
            "Fix ASC003 (unsafe",
            "Disable ASC003 for this line",
            "Fix ASC001",
            "Disable ASC001 for this line",
        ]
        assert quickfixes[2].edit.changes[uri][0].range.start.line == len(text.splitlines()) - 1

    with_server(project, scenario)


def test_fixing_everything_is_worked_out_when_chosen(project: Path):
    """A client that resolves code actions (VS Code, Neovim) asks for them whenever the cursor
    moves: the "apply every safe fix" action comes without its edit, worked out on
    `codeAction/resolve`, so the lint worker is free for the next edit."""
    path = project / "triton_ascend" / "k.py"
    settings = load_settings([str(path.parent)])
    reference = fix_result(lint_source(KERNEL, str(path), settings), settings, unsafe=False)[1]

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, KERNEL)
        await editor.diagnostics(uri, 1)
        at = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
        actions = await editor.text_document_code_action_async(
            lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), at, lsp.CodeActionContext(diagnostics=[]))
        )
        (deferred,) = actions  # no finding at 1:1
        assert deferred.kind == "source.fixAll.ascend-lint" and deferred.edit is None
        resolved = await editor.code_action_resolve_async(deferred)
        assert applied(KERNEL, resolved.edit.changes[uri]) == reference.fixed
        # on save the edit comes at once: a client may apply the action without resolving it
        on_save = lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.SourceFixAll])
        (eager,) = await editor.text_document_code_action_async(
            lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), at, on_save)
        )
        assert applied(KERNEL, eager.edit.changes[uri]) == reference.fixed

    initialized = with_server(project, scenario, EDITOR_CAPABILITIES)
    assert initialized.capabilities.code_action_provider.resolve_provider


def test_a_document_closed_and_opened_again_during_a_lint_gets_no_stale_diagnostics(project: Path):
    path = project / "triton_ascend" / "k.py"
    clean = "import triton\n"

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, path, busy_document(150))
        editor.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        editor.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=uri, language_id="python", version=7, text=clean))
        )
        while not editor.published.get(uri) or editor.published[uri][-1].version != 7:
            await editor.diagnostics(uri, len(editor.published.get(uri, ())) + 1)
        assert [len(p.diagnostics) for p in editor.published[uri]] == [0] * len(editor.published[uri])

    with_server(project, scenario)


def test_what_editors_show_of_a_finding_and_a_suppression_comment(project: Path):
    """ASC001's knobs have no effect: tagged unnecessary (faded); a suppression comment that
    cannot be read is marked from where the problem is to the end of the comment."""
    comment = "# noqa: ASC-001"
    text = KERNEL.replace("num_warps=4)", f"num_warps=4)  {comment}")
    row = next(n for n, line in enumerate(text.splitlines()) if comment in line)
    line = text.splitlines()[row]

    async def scenario(editor: Editor) -> None:
        uri = open_document(editor, project / "triton_ascend" / "k.py", text)
        diagnostics = {d.code: d for d in (await editor.diagnostics(uri, 1)).diagnostics}
        assert list(diagnostics["ASC001"].tags) == [lsp.DiagnosticTag.Unnecessary]
        assert not diagnostics["ASC003"].tags
        warning = diagnostics[None]
        assert warning.range.start.line == warning.range.end.line == row
        assert warning.range.start.character >= utf16(text, row + 1, line.index(comment) + 1).character
        assert warning.range.end == utf16(text, row + 1, len(line) + 1)

    with_server(project, scenario)


def message(method: str, params: object, id: int | None = None) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", "method": method, "params": params, **({} if id is None else {"id": id})})
    return f"Content-Length: {len(body.encode())}\r\n\r\n{body}".encode()


@pytest.mark.parametrize(("shutdown", "status"), [(True, 0), (False, 1)])
def test_exit_without_shutdown_ends_with_status_1(project: Path, shutdown: bool, status: int):
    """As the protocol says: `exit` ends the server with 0 after `shutdown`, else with 1."""
    talk = message("initialize", {"processId": None, "rootUri": project.as_uri(), "capabilities": {}}, 1)
    talk += message("initialized", {})
    if shutdown:
        talk += message("shutdown", None, 2)
    talk += message("exit", None)
    done = subprocess.run(
        [sys.executable, "-m", "ascend_lint", "server"],
        input=talk,
        capture_output=True,
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=TIMEOUT,
    )
    assert done.returncode == status, done.stderr


def created_or_deleted(editor: Editor, path: Path, kind: lsp.FileChangeType) -> None:
    """What a client watching the registered patterns sends for `path`."""
    event = lsp.FileEvent(uri=path.as_uri(), type=kind)
    editor.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[event]))


def test_an_ascend_folder_created_or_deleted_beside_a_document_lints_it_again(tmp_path: Path):
    """In a project that depends on torch_npu, a kernel file is linted until an Ascend-named
    folder appears beside it (it is then another backend of a mixed repository), and again once
    that folder is gone: the client is asked to report such folders and modules, and the
    server reads the folder again instead of what it saw when the document was opened."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "ops"\ndependencies = ["torch-npu>=2.1"]\n\n[tool.ascend-lint]\n', encoding="utf-8"
    )
    (tmp_path / "kernels").mkdir()
    path = tmp_path / "kernels" / "k.py"
    ascend = tmp_path / "kernels" / "triton_ascend"
    noise = tmp_path / "kernels" / "__pycache__" / "k_npu.cpython-311.pyc"

    async def scenario(editor: Editor) -> None:
        await asyncio.wait_for(editor.registered.wait(), TIMEOUT)
        watchers = [
            w
            for r in editor.registrations
            for w in lsp.DidChangeWatchedFilesRegistrationOptions(**r.register_options).watchers
        ]
        patterns = {w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in watchers}
        assert {"**/*[aA][sS][cC][eE][nN][dD]*", "**/*[nN][pP][uU]*", "**/__init__.py"} <= patterns

        uri = open_document(editor, path, KERNEL)
        assert sorted(d.code for d in (await editor.diagnostics(uri, 1)).diagnostics) == ["ASC001", "ASC003"]
        created_or_deleted(editor, noise, lsp.FileChangeType.Created)  # bytecode: decides nothing
        ascend.mkdir()
        created_or_deleted(editor, ascend, lsp.FileChangeType.Created)
        assert not (await editor.diagnostics(uri, 2)).diagnostics
        assert "another backend" in editor.logged[-1].message
        # an edit meanwhile reads the folder as it is, not as it was when first read
        ascend.rmdir()
        change(editor, uri, 2, lsp.TextEdit(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), "# edited\n"))
        assert sorted(d.code for d in (await editor.diagnostics(uri, 3)).diagnostics) == ["ASC001", "ASC003"]
        ascend.mkdir()
        created_or_deleted(editor, ascend, lsp.FileChangeType.Created)
        assert not (await editor.diagnostics(uri, 4)).diagnostics
        ascend.rmdir()
        created_or_deleted(editor, ascend, lsp.FileChangeType.Deleted)
        assert sorted(d.code for d in (await editor.diagnostics(uri, 5)).diagnostics) == ["ASC001", "ASC003"]
        assert len(editor.published[uri]) == 5  # the bytecode file linted nothing again

    with_server(tmp_path, scenario, EDITOR_CAPABILITIES)


def test_a_workspace_folder_added_later_gets_the_watchers_too(tmp_path: Path):
    """The watchers' patterns are plain globs: VS Code applies them in every workspace folder,
    Neovim in those open when they are registered (`_watchfiles.lua`: one watch per
    `client.workspace_folders`). A folder added later gets them when they are registered again;
    a configuration change in it lints its open documents again."""
    first, second = tmp_path / "first", tmp_path / "second"
    for root in (first, second):
        (root / "triton_ascend").mkdir(parents=True)
        (root / "pyproject.toml").write_text("[tool.ascend-lint]\n", encoding="utf-8")
    configuration = second / "pyproject.toml"

    async def scenario(editor: Editor) -> None:
        await asyncio.wait_for(editor.registered.wait(), TIMEOUT)
        editor.registered.clear()
        added = lsp.WorkspaceFoldersChangeEvent(added=[lsp.WorkspaceFolder(second.as_uri(), "second")], removed=[])
        editor.workspace_did_change_workspace_folders(lsp.DidChangeWorkspaceFoldersParams(event=added))
        await asyncio.wait_for(editor.registered.wait(), TIMEOUT)
        first_id, again = editor.registrations[0].id, editor.registrations[-1]
        assert [u.id for u in editor.unregistrations] == [first_id]  # no id registered twice
        assert again.register_options == editor.registrations[0].register_options

        uri = open_document(editor, second / "triton_ascend" / "k.py", KERNEL)
        assert sorted(d.code for d in (await editor.diagnostics(uri, 1)).diagnostics) == ["ASC001", "ASC003"]
        configuration.write_text('[tool.ascend-lint]\nignore = ["ASC003"]\n', encoding="utf-8")
        changed = lsp.FileEvent(uri=configuration.as_uri(), type=lsp.FileChangeType.Changed)
        editor.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[changed]))
        assert [d.code for d in (await editor.diagnostics(uri, 2)).diagnostics] == ["ASC001"]

    with_server(first, scenario, EDITOR_CAPABILITIES, folders=[first])


def test_saving_the_kernel_module_of_a_skipped_launcher_lints_it(project: Path):
    """A launcher is Ascend code through the module of its package whose kernels it launches
    (`ascend_imports`), as in a run: skipped while that module has no Ascend sign, linted once
    the module is saved with one, without an edit or a save of the launcher."""
    package = project / "launcher_imports"
    shutil.copytree(FIXTURES / "shared" / "launcher_imports", package)
    kernels, launch = package / "kernels.py", package / "launch.py"
    ascend = kernels.read_text(encoding="utf-8")
    other = ascend.replace("from triton.language.extra.cann", "from other.cann")
    kernels.write_text(other, encoding="utf-8")

    async def scenario(editor: Editor) -> None:
        launcher = open_document(editor, launch, launch.read_text(encoding="utf-8"))
        assert not (await editor.diagnostics(launcher, 1)).diagnostics
        module = open_document(editor, kernels, other)
        await editor.diagnostics(module, 1)
        end = lsp.Position(line=len(other.splitlines()), character=0)
        change(editor, module, 2, lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), ascend))
        kernels.write_text(ascend, encoding="utf-8")
        editor.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(module)))
        relinted = (await editor.diagnostics(launcher, 2)).diagnostics
        assert [(d.code, d.range.start.line + 1) for d in relinted] == [
            ("ASC010", 20),
            ("ASC001", 20),
            ("ASC010", 21),
            ("ASC001", 21),
        ]

    with_server(project, scenario)
