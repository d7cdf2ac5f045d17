"""The language server: mypy's diagnostics, and the plugin's exact types on hover and as inlay hints.

A saved file is checked by mypy's daemon, which also answers hovers and inlay hints
(``dmypy inspect``); a buffer with unsaved edits is checked by a one-shot mypy reading the buffer
in place of the file. Types are shown only for a buffer that equals its file: the daemon's types
are those of the file, and a type from other text could be wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.metadata
import os
import shutil
import signal
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NoReturn

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from typedtensor.lsp._mypy import BufferChecker, Daemon, MypyFailed
from typedtensor.lsp._output import Inspected, Message, compact, innermost, inspected, messages
from typedtensor.lsp._source import Target, ascii_before, assignment_targets

#: Wait this long after an edit before checking, so that typing does not start a mypy per key.
EDIT_PAUSE_SECONDS: Final = 0.3
_SEVERITIES: Final = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information,
}


@dataclass(frozen=True)
class _Mypy:
    """mypy for one workspace: the daemon for saved files, one-shot runs for unsaved buffers."""

    daemon: Daemon
    buffers: BufferChecker
    warming: asyncio.Task[None]

    @classmethod
    def start(cls, root: Path, private: Path, first_file: Path) -> _Mypy:
        buffers = BufferChecker(root, private / "cache")
        # Fill the one-shot runs' cache now, so that the first edit is checked as fast as later ones.
        return cls(Daemon(root, private), buffers, asyncio.ensure_future(buffers.warm(first_file)))


class TypedTensorServer(LanguageServer):
    """The server's state: the files as last saved, the daemon, and checks under way."""

    def __init__(self) -> None:
        super().__init__("typedtensor-lsp", importlib.metadata.version("typedtensor"))
        self.private = Path(tempfile.mkdtemp(prefix="typedtensor-lsp-"))
        self._mypy: _Mypy | None = None  # started when the first file is opened
        self._saved: dict[str, str | None] = {}  # uri -> the file's text when opened or last saved
        self._saved_check: asyncio.Task[None] | None = None
        self._unsaved_checks: dict[str, asyncio.Task[None]] = {}
        self._hints: dict[tuple[str, int, int, int], str | None] = {}
        self.is_shut_down = False

    # Documents ----------------------------------------------------------------------------------

    def python_document(self, uri: str) -> TextDocument | None:
        document = self.workspace.get_text_document(uri)
        return document if document.path and document.path.endswith((".py", ".pyi")) else None

    def is_saved(self, document: TextDocument) -> bool:
        """Whether the buffer holds exactly the file's text, which is what the daemon checks."""
        return self._saved.get(document.uri) == document.source

    def opened(self, document: TextDocument) -> None:
        if self._mypy is None:
            self._mypy = _Mypy.start(self.root(document), self.private, Path(document.path))
        self._saved[document.uri] = _read(Path(document.path))
        self.check(document)

    def saved(self, document: TextDocument) -> None:
        self._saved[document.uri] = _read(Path(document.path))
        self.check(document)

    def closed(self, uri: str) -> None:
        self._saved.pop(uri, None)
        if (task := self._unsaved_checks.pop(uri, None)) is not None:
            task.cancel()
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # Checks -------------------------------------------------------------------------------------

    def check(self, document: TextDocument) -> None:
        """Check the document as it is now: through the daemon if saved, else from its buffer."""
        if (task := self._unsaved_checks.pop(document.uri, None)) is not None:
            task.cancel()
        if self.is_saved(document):
            self._saved_check = asyncio.ensure_future(self._check_saved())
        else:
            self._unsaved_checks[document.uri] = asyncio.ensure_future(self._check_unsaved(document))

    async def _check_saved(self) -> None:
        documents = [self.workspace.get_text_document(uri) for uri, text in self._saved.items() if text is not None]
        if not documents:
            return
        before = {document.uri: (document.version, self._saved[document.uri]) for document in documents}
        try:
            output = await self.mypy.daemon.check([Path(document.path) for document in documents])
        except MypyFailed as failure:
            self.log(f"mypy's daemon could not check: {failure}")
            return
        self._hints.clear()
        found = messages(output)
        for document in documents:
            current = self.workspace.text_documents.get(document.uri)
            if current is not None and self.is_saved(current) and before[document.uri] == (
                current.version,
                self._saved.get(document.uri),
            ):
                self.publish(current, found)
        self._refresh_inlay_hints()

    async def _check_unsaved(self, document: TextDocument) -> None:
        await asyncio.sleep(EDIT_PAUSE_SECONDS)
        version, path = document.version, Path(document.path)
        buffers = self._write_unsaved_buffers()
        try:
            output = await self.mypy.buffers.check(path, buffers)
        except MypyFailed as failure:
            self.log(f"mypy could not check {path}: {failure}")
            return
        current = self.workspace.text_documents.get(document.uri)
        if current is not None and current.version == version:
            self.publish(current, messages(output))

    def _write_unsaved_buffers(self) -> dict[Path, Path]:
        """Each open buffer that differs from its file, written to a private copy mypy reads instead."""
        copies = self.private / "buffers"
        copies.mkdir(exist_ok=True)
        buffers = {}
        for uri in self._saved:
            document = self.workspace.get_text_document(uri)
            if not self.is_saved(document):
                path = Path(document.path)
                copy = copies / (hashlib.sha256(uri.encode()).hexdigest()[:16] + path.suffix)
                copy.write_text(document.source, encoding="utf-8", newline="")
                buffers[path] = copy
        return buffers

    async def checked(self) -> None:
        """Wait for the daemon's latest check (a cancelled wait leaves the check running)."""
        if self._saved_check is not None:
            await asyncio.wait({self._saved_check})

    @property
    def mypy(self) -> _Mypy:
        assert self._mypy is not None, "mypy starts when the first file is opened, before any check"
        return self._mypy

    def root(self, document: TextDocument) -> Path:
        """The workspace's root, where mypy looks for the project's configuration."""
        root_path = self.workspace.root_path
        return Path(root_path) if root_path else Path(document.path).parent

    # Answers ------------------------------------------------------------------------------------

    def publish(self, document: TextDocument, found: list[Message]) -> None:
        path = Path(document.path).resolve()
        diagnostics = [_diagnostic(message, document.lines) for message in found if message.path.resolve() == path]
        params = types.PublishDiagnosticsParams(uri=document.uri, diagnostics=diagnostics, version=document.version)
        self.text_document_publish_diagnostics(params)

    async def hover(self, document: TextDocument, position: types.Position) -> types.Hover | None:
        lines = document.lines
        if position.line >= len(lines) or not ascii_before(lines[position.line], position.character):
            return None
        expression = innermost(await self._inspect(document, position.line + 1, position.character + 1))
        if expression is None:
            return None
        span = expression.span
        markdown = f"```python\n{compact(expression.type)}\n```"
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
            range=_range(span.line, span.column, span.end_line, span.end_column, lines),
        )

    async def inlay_hints(self, document: TextDocument, lines: types.Range) -> list[types.InlayHint]:
        """``: Tensor[float32, 32, 5]`` after each name an assignment binds to a tensor."""
        await self.checked()
        if not self.is_saved(document):
            return []
        hints = []
        for target in assignment_targets(document.source, lines.start.line, lines.end.line):
            if (tensor_type := await self._tensor_type(document, target)) is not None:
                position = types.Position(line=target.line, character=target.end)
                label = f": {compact(tensor_type)}"
                hints.append(types.InlayHint(position=position, label=label, kind=types.InlayHintKind.Type))
        return hints

    async def _tensor_type(self, document: TextDocument, target: Target) -> str | None:
        """The type of the name ``target`` if it is a tensor's; asked once after each check."""
        key = (document.uri, target.line, target.start, target.end)
        if key not in self._hints:
            found = await self._inspect(document, target.line + 1, target.start + 1, target.line + 1, target.end)
            self._hints[key] = found[0].type if found and "Tensor[" in found[0].type else None
        return self._hints[key]

    async def _inspect(self, document: TextDocument, *location: int) -> list[Inspected]:
        """``dmypy inspect``'s answer on the saved document; nothing for a buffer that differs."""
        await self.checked()
        if self._mypy is None or not self.is_saved(document):
            return []
        try:
            output = await self._mypy.daemon.inspect(Path(document.path), *location)
        except MypyFailed as failure:
            self.log(str(failure))
            return []
        return inspected(output) if self.is_saved(document) else []

    def _refresh_inlay_hints(self) -> None:
        capabilities = self.client_capabilities.workspace
        if capabilities and capabilities.inlay_hint and capabilities.inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    def log(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=message))

    # Ending -------------------------------------------------------------------------------------

    async def shut_down(self) -> None:
        """Stop every check under way (killing its mypy), then close."""
        self.is_shut_down = True
        warming = self._mypy.warming if self._mypy is not None else None
        tasks = [task for task in (self._saved_check, warming, *self._unsaved_checks.values()) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._saved_check, self._unsaved_checks = None, {}
        self.close()

    def leave(self, status: int) -> NoReturn:
        """Close and end the process at once: pygls would first join its thread reading stdin,
        which waits for input an editor that sent exit or SIGTERM may never close."""
        self.close()
        os._exit(status)

    def close(self) -> None:
        """Stop the daemon and remove the private directory; safe to call twice, and from a signal
        handler (nothing here waits on the event loop)."""
        if self._mypy is not None:
            self._mypy.daemon.stop()
            self._mypy = None
        shutil.rmtree(self.private, ignore_errors=True)


def _read(path: Path) -> str | None:
    """The file's text as an editor holds it (line endings kept), or None if it cannot be read."""
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _diagnostic(message: Message, lines: Sequence[str]) -> types.Diagnostic:
    span = message.span
    return types.Diagnostic(
        range=_range(span.line, span.column, span.end_line, span.end_column, lines),
        message=message.text,
        severity=_SEVERITIES[message.severity],
        code=message.code,
        source="mypy",
    )


def _range(line: int, column: int, end_line: int, end_column: int, lines: Sequence[str]) -> types.Range:
    """LSP's range for mypy's span; whole lines where a non-ASCII character makes columns uncertain."""
    start = types.Position(line=max(line - 1, 0), character=max(column - 1, 0))
    end = types.Position(line=max(end_line - 1, 0), character=max(end_column, 0))
    exact = all(
        position.line < len(lines) and ascii_before(lines[position.line], position.character)
        for position in (start, end)
    )
    if not exact:
        start, end = types.Position(line=start.line, character=0), types.Position(line=end.line + 1, character=0)
    return types.Range(start=start, end=end)


def create_server() -> TypedTensorServer:
    """The server with its features: diagnostics on open, change and save; hover; inlay hints."""
    server = TypedTensorServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: TypedTensorServer, params: types.InitializeParams) -> None:
        # An editor may end the server with SIGTERM. The loop hears it whichever thread the
        # signal lands on (a handler set with signal.signal would wait for the main thread).
        with contextlib.suppress(NotImplementedError):  # Windows: no such signal handlers
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, ls.leave, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TypedTensorServer, params: types.DidOpenTextDocumentParams) -> None:
        if (document := ls.python_document(params.text_document.uri)) is not None:
            ls.opened(document)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TypedTensorServer, params: types.DidChangeTextDocumentParams) -> None:
        if (document := ls.python_document(params.text_document.uri)) is not None:
            ls.check(document)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: TypedTensorServer, params: types.DidSaveTextDocumentParams) -> None:
        if (document := ls.python_document(params.text_document.uri)) is not None:
            ls.saved(document)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TypedTensorServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.closed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: TypedTensorServer, params: types.HoverParams) -> types.Hover | None:
        document = ls.python_document(params.text_document.uri)
        return None if document is None else await ls.hover(document, params.position)

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    async def inlay_hint(ls: TypedTensorServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        document = ls.python_document(params.text_document.uri)
        return [] if document is None else await ls.inlay_hints(document, params.range)

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: TypedTensorServer, params: None) -> None:
        await ls.shut_down()

    @server.feature(types.EXIT)
    def on_exit(ls: TypedTensorServer, params: None) -> NoReturn:
        ls.leave(0 if ls.is_shut_down else 1)

    return server
