"""An editor for the language server's tests: pygls's client, over stdio, driven synchronously.

The client runs in an event loop of its own thread, so that one server (and its mypy daemon,
slow to start) serves every test of a module; each call waits with a time limit, so a server
that stops answering fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Coroutine, Mapping
from pathlib import Path
from typing import Any, Final, TypeVar

from lsprotocol import types
from pygls.lsp.client import LanguageClient

#: A generous limit: a loaded 2-core machine starts mypy's daemon in seconds, not minutes.
TIMEOUT: Final = 120.0

T = TypeVar("T")


class Editor:
    """Opens, edits and saves files of ``workspace`` and asks the server about them."""

    def __init__(self, workspace: Path, env: Mapping[str, str]) -> None:
        self.workspace = workspace
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._published: list[types.PublishDiagnosticsParams] = []
        self._paths: dict[str, Path] = {}
        self.inlay_hint_refreshes = 0
        self._condition = threading.Condition()
        self.client = LanguageClient("typedtensor-tests", "1")

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:  # pygls registers functions only
            self._on_diagnostics(params)

        @self.client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
        def refresh(params: None) -> None:
            self.inlay_hint_refreshes += 1

        self._call(self._start(dict(env)))

    async def _start(self, env: dict[str, str]) -> None:
        await self.client.start_io(sys.executable, "-m", "typedtensor.lsp", cwd=self.workspace, env=env)
        capabilities = types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(
                inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
            )
        )
        params = types.InitializeParams(capabilities=capabilities, root_uri=self.workspace.as_uri())
        await self.client.initialize_async(params)
        self.client.initialized(types.InitializedParams())

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(TIMEOUT)

    def _on_diagnostics(self, params: types.PublishDiagnosticsParams) -> None:
        with self._condition:
            self._published.append(params)
            self._condition.notify_all()

    # Files ----------------------------------------------------------------------------------------

    def open(self, name: str, text: str) -> str:
        """Write the file and open it (version 1); its URI."""
        path = self.workspace / name
        path.write_text(text)
        self._paths[path.as_uri()] = path
        item = types.TextDocumentItem(uri=path.as_uri(), language_id="python", version=1, text=text)
        self._loop.call_soon_threadsafe(self.client.text_document_did_open, types.DidOpenTextDocumentParams(item))
        return item.uri

    def change(self, uri: str, version: int, text: str) -> None:
        """Replace the buffer's text without saving it."""
        document = types.VersionedTextDocumentIdentifier(version=version, uri=uri)
        change = types.TextDocumentContentChangeWholeDocument(text=text)
        params = types.DidChangeTextDocumentParams(text_document=document, content_changes=[change])
        self._loop.call_soon_threadsafe(self.client.text_document_did_change, params)

    def save(self, uri: str, text: str, *, same_second: bool = False) -> None:
        """Write the buffer's text (the last change) to the file and say so.

        ``same_second`` keeps the file's mtime, as a save within the second of the last one does.
        """
        path = self._paths[uri]
        before = path.stat()
        path.write_text(text)
        if same_second:
            os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        params = types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        self._loop.call_soon_threadsafe(self.client.text_document_did_save, params)

    # Questions ------------------------------------------------------------------------------------

    def hover(self, uri: str, position: types.Position) -> types.Hover | None:
        params = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
        return self._call(self.client.text_document_hover_async(params))

    def inlay_hints(self, uri: str) -> list[types.InlayHint]:
        whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10_000, character=0))
        params = types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=whole)
        return list(self._call(self.client.text_document_inlay_hint_async(params)) or [])

    def diagnostics(self, uri: str, version: int) -> list[types.Diagnostic]:
        """The diagnostics published for ``version`` of the document, waiting for them if need be."""

        def published() -> list[types.PublishDiagnosticsParams]:
            return [p for p in self._published if p.uri == uri and p.version == version]

        with self._condition:
            assert self._condition.wait_for(published, TIMEOUT), f"no diagnostics for version {version} of {uri}"
            return list(published()[-1].diagnostics)

    # Ending ---------------------------------------------------------------------------------------

    def close(self) -> None:
        """Shut the server down as an editor does (shutdown, exit) and stop the client's loop."""
        try:
            self._call(self._shutdown())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(TIMEOUT)

    async def _shutdown(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await asyncio.wait_for(self.client.stop(), TIMEOUT)


def position_of(text: str, needle: str, offset: int = 0) -> types.Position:
    """Where ``needle`` starts in ``text`` (plus ``offset`` characters), as LSP counts."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return types.Position(line=line, character=index - (text.rfind("\n", 0, index) + 1))


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for a reaper does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return "\nState:\tZ" not in status
