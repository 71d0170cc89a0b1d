"""`rulespec lsp`: the editor server (Language Server Protocol over stdio, on pygls).

Problems as the designer types (the parser's and the checker's, at their
spans), hover (a name's declaration and comment; a card's proof text), go
to definition, and completion of the names in scope. The work is done by
compiler/tools/editing.py; this module only speaks the protocol.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from rulespec.compiler.tools.editing import Editing, Problem, word_at
from rulespec.compiler.tools.lsp_frames import FrameError, note, start_io

SOURCE = "rulespec"
DEBOUNCE_SECONDS = 0.4


class RulesServer(LanguageServer):
    """The server and what it remembers: the buffers, and which files it last reported on."""

    def __init__(self) -> None:
        super().__init__("rulespec", "0.1.0", text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.editing = Editing()
        self.reported: dict[Path, set[Path]] = {}  # game folder -> files with problems shown
        self.lock = threading.Lock()
        self.versions: dict[Path, int] = {}


server = RulesServer()


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri)).resolve()


def _range(problem: Problem) -> types.Range:
    return types.Range(types.Position(problem.line - 1, problem.column - 1),
                       types.Position(problem.end_line - 1, problem.end_column - 1))


def _checked(ls: RulesServer, path: Path) -> dict[Path, list[Problem]]:
    with ls.lock:  # one check at a time: they share the mirror folder
        return ls.editing.check(path)


async def publish(ls: RulesServer, path: Path) -> None:
    """Check the game of a file (off the event loop) and show every problem found; clear the ones gone."""
    found = await asyncio.to_thread(_checked, ls, path)
    folder = ls.editing.game(path).folder
    stale = ls.reported.get(folder, set()) - set(found)
    for real in stale | set(found):
        diagnostics = [types.Diagnostic(_range(p), p.message, severity=types.DiagnosticSeverity.Error,
                                        source=SOURCE) for p in found.get(real, [])]
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=from_fs_path(str(real)), diagnostics=diagnostics))
    ls.reported[folder] = {p for p, problems in found.items() if problems}


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    ls.editing.buffers[path] = params.text_document.text
    await publish(ls, path)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
    """Checked after a pause in typing: only the latest version of the buffer is."""
    path = _path(params.text_document.uri)
    document = ls.workspace.get_text_document(params.text_document.uri)
    ls.editing.buffers[path] = document.source
    version = params.text_document.version
    ls.versions[path] = version
    await asyncio.sleep(DEBOUNCE_SECONDS)
    if ls.versions.get(path) == version:
        await publish(ls, path)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams) -> None:
    await publish(ls, _path(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.editing.buffers.pop(_path(params.text_document.uri), None)


def _name_at(ls: RulesServer, params: types.TextDocumentPositionParams) -> tuple[Path, str | None]:
    path = _path(params.text_document.uri)
    text = ls.workspace.get_text_document(params.text_document.uri).source
    return path, word_at(text, params.position.line, params.position.character)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: RulesServer, params: types.HoverParams) -> types.Hover | None:
    path, name = _name_at(ls, params)
    declaration = ls.editing.declaration(path, name) if name else None
    if declaration is None:
        return None
    return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, declaration.hover))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulesServer, params: types.DefinitionParams) -> types.Location | None:
    path, name = _name_at(ls, params)
    declaration = ls.editing.declaration(path, name) if name else None
    if declaration is None or declaration.line < 1:
        return None
    start = types.Position(declaration.line - 1, declaration.column - 1)
    end = types.Position(declaration.line - 1, declaration.column - 1 + len(declaration.name))
    return types.Location(from_fs_path(str(declaration.path)), types.Range(start, end))


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
def completion(ls: RulesServer, params: types.CompletionParams) -> types.CompletionList:
    path = _path(params.text_document.uri)
    names = ls.editing.completions(path, params.position.line + 1)
    items = []
    for name in names:
        declaration = ls.editing.declaration(path, name)
        documentation = (types.MarkupContent(types.MarkupKind.Markdown, declaration.hover)
                         if declaration is not None else None)
        items.append(types.CompletionItem(label=name, documentation=documentation))
    return types.CompletionList(is_incomplete=False, items=items)


def serve() -> None:
    """Serve on stdin/stdout; a frame no editor sends is one line and exit 1 (lsp_frames.py)."""
    try:
        start_io(server)
    except FrameError as err:
        note(f"error: {err}")
        sys.exit(1)


if __name__ == "__main__":
    serve()
