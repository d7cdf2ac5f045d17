"""The language server end to end: pygls's client talks to ``python -m typedtensor.lsp`` over stdio.

One server (and so one mypy daemon) serves the module; each test opens files of its own in the
same temporary workspace, whose mypy configuration loads the plugin. The server's private
directory is made under the workspace's own TMPDIR, so the module's teardown can check that
shutting the server down stopped the daemon, removed that directory and wrote nothing into the
workspace.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from lsprotocol import types

from tests.support import PROJECT
from tests.support.lsp_editor import Editor, position_of, process_alive

MODEL = """\
from typing import Literal as L

import typedtensor as tt

x: tt.Tensor[tt.float32, L[32], L[256], L[5], L[128]] = tt.zeros((32, 256, 5, 128), tt.float32)
m = tt.reduce_mean(x, axis=(1, 3))
k = x.sum(axis=-1, keepdims=True)
n = 3
"""
AXIS_4 = 'Axis 4 is out of range for "sum" on Tensor[float32, 32, 256, 5, 128] (valid axes are -4 to 3)'


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    (root / "tmp").mkdir()
    # The plugin's project, found as source: an editable install is invisible to mypy.
    (root / "mypy.ini").write_text(
        f"[mypy]\nstrict = True\nplugins = typing_plugins.mypy_plugin\nmypy_path = {PROJECT}\n"
        "[mypy-typedtensor.*]\nfollow_imports = silent\n"
    )
    return root


@pytest.fixture(scope="module")
def editor(workspace: Path) -> Iterator[Editor]:
    editor = Editor(workspace, {**os.environ, "TMPDIR": str(workspace / "tmp")})
    try:
        yield editor
    finally:
        private = list((workspace / "tmp").glob("typedtensor-lsp-*"))
        daemons = [json.loads(status.read_text())["pid"] for status in (workspace / "tmp").glob("*/dmypy.json")]
        editor.close()
        deadline = time.monotonic() + 30
        while any(map(process_alive, daemons)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(private) == 1 and daemons, "the server kept its daemon's files in its private directory"
        assert not any(map(process_alive, daemons)), "shutting the server down left mypy's daemon running"
        assert not private[0].exists(), "shutting the server down left its private directory behind"
        assert list((workspace / "tmp").iterdir()) == [], "the daemon left files in the temporary directory"
        written = sorted(path.name for path in workspace.iterdir() if path.name.startswith("."))
        assert written == [], "the server wrote into the workspace"


def _markdown(hover: types.Hover | None) -> str:
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    return hover.contents.value


def test_hover_over_a_reduction_shows_the_plugins_exact_type(editor: Editor) -> None:
    uri = editor.open("hover.py", MODEL)
    hover = editor.hover(uri, position_of(MODEL, "reduce_mean", 3))
    assert _markdown(hover) == "```python\nTensor[float32, 32, 5]\n```"
    assert hover is not None and hover.range == types.Range(
        start=position_of(MODEL, "tt.reduce_mean"), end=position_of(MODEL, ")\nk", 1)
    )
    assert _markdown(editor.hover(uri, position_of(MODEL, "sum("))) == "```python\nTensor[float32, 32, 256, 5, 1]\n```"
    assert _markdown(editor.hover(uri, position_of(MODEL, "x.sum"))) == (
        "```python\nTensor[float32, 32, 256, 5, 128]\n```"
    )
    assert editor.hover(uri, position_of(MODEL, "\n\nimport")) is None  # nothing there


def test_opening_a_file_publishes_mypys_diagnostics(editor: Editor) -> None:
    text = MODEL + "bad = x.sum(axis=4)\n"
    uri = editor.open("errors.py", text)
    [diagnostic] = editor.diagnostics(uri, version=1)
    assert (diagnostic.message, diagnostic.code, diagnostic.source) == (AXIS_4, "tensor-axis", "mypy")
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    start = position_of(text, "4)")
    end = types.Position(line=start.line, character=start.character + 1)
    assert diagnostic.range == types.Range(start=start, end=end)


def test_an_unsaved_edit_is_checked_from_the_buffer(editor: Editor) -> None:
    uri = editor.open("edit.py", MODEL)
    assert editor.diagnostics(uri, version=1) == []
    editor.change(uri, 2, MODEL + "bad = m.mean(axis=2)\n")
    [diagnostic] = editor.diagnostics(uri, version=2)
    assert diagnostic.message == 'Axis 2 is out of range for "mean" on Tensor[float32, 32, 5] (valid axes are -2 to 1)'
    assert diagnostic.code == "tensor-axis"
    assert (editor.workspace / "edit.py").read_text() == MODEL, "the server wrote into the user's file"
    # The daemon's types are those of the saved file: none are shown for a buffer that differs.
    assert editor.hover(uri, position_of(MODEL, "reduce_mean")) is None
    editor.change(uri, 3, MODEL + "fine = m.mean(axis=1)\n")
    assert editor.diagnostics(uri, version=3) == []


def test_saving_an_edit_rechecks_it_through_the_daemon(editor: Editor) -> None:
    uri = editor.open("save.py", MODEL)
    assert editor.diagnostics(uri, version=1) == []
    reshaped = MODEL.replace("L[5]", "L[7]").replace("256, 5, 128", "256, 7, 128")
    editor.change(uri, 2, reshaped)
    editor.save(uri, reshaped)
    assert editor.diagnostics(uri, version=2) == []
    hover = editor.hover(uri, position_of(reshaped, "reduce_mean"))
    assert _markdown(hover) == "```python\nTensor[float32, 32, 7]\n```"
    broken = reshaped + "bad = x.sum(axis=4)\n"
    editor.change(uri, 3, broken)
    editor.save(uri, broken)
    [diagnostic] = editor.diagnostics(uri, version=3)
    assert diagnostic.message == AXIS_4.replace("5, 128", "7, 128")


def test_a_save_within_the_second_that_keeps_the_size_is_seen(editor: Editor) -> None:
    """mypy's daemon compares sizes and whole-second mtimes (python/mypy#12697), but re-checks
    every file it is given when asked to export types, as the server asks."""
    broken = MODEL + "bad = x.sum(axis=4)\n"
    uri = editor.open("same_second.py", broken)
    assert [d.message for d in editor.diagnostics(uri, version=1)] == [AXIS_4]
    fixed = broken.replace("axis=4", "axis=1")
    editor.change(uri, 2, fixed)
    editor.save(uri, fixed, same_second=True)
    assert editor.diagnostics(uri, version=2) == []


def test_inlay_hints_show_the_shapes_of_tensor_assignments(editor: Editor) -> None:
    refreshes = editor.inlay_hint_refreshes
    uri = editor.open("hints.py", MODEL)
    hints = {(hint.position.line, hint.position.character, hint.label) for hint in editor.inlay_hints(uri)}
    assert hints == {
        (position_of(MODEL, "m =").line, 1, ": Tensor[float32, 32, 5]"),
        (position_of(MODEL, "k =").line, 1, ": Tensor[float32, 32, 256, 5, 1]"),
    }  # not x (annotated), not n (no tensor)
    assert editor.inlay_hint_refreshes > refreshes, "a check that may change types asks the editor to ask again"


def test_after_a_non_ascii_character_the_server_says_less(editor: Editor) -> None:
    """mypy's columns after a non-ASCII character depend on its parser: whole lines, no hover."""
    text = MODEL + 'note = "é"; bad = x.sum(axis=4)\n'
    uri = editor.open("accent.py", text)
    [diagnostic] = editor.diagnostics(uri, version=1)
    line = position_of(text, "note").line
    assert diagnostic.message == AXIS_4
    assert diagnostic.range == types.Range(
        start=types.Position(line=line, character=0), end=types.Position(line=line + 1, character=0)
    )
    assert editor.hover(uri, position_of(text, "sum(axis=4)")) is None
    assert _markdown(editor.hover(uri, position_of(text, "reduce_mean"))) == "```python\nTensor[float32, 32, 5]\n```"


def test_a_terminated_server_cleans_up_too(tmp_path: Path) -> None:
    """An editor may end the server with SIGTERM rather than shutdown and exit."""
    command = [sys.executable, "-m", "typedtensor.lsp"]
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    with subprocess.Popen(command, cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE) as server:
        try:
            assert server.stdin is not None and server.stdout is not None
            request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
            body = json.dumps(request).encode()
            server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            server.stdin.flush()
            ready, _, _ = select.select([server.stdout], [], [], 60)
            assert ready and server.stdout.readline().startswith(b"Content-Length"), "the server did not answer"
            assert len(list(tmp_path.glob("typedtensor-lsp-*"))) == 1
            server.terminate()
            assert server.wait(timeout=60) == 0
            assert list(tmp_path.glob("typedtensor-lsp-*")) == []
        finally:
            if server.poll() is None:
                server.kill()


def test_the_server_starts_as_a_console_script_too() -> None:
    [script] = [entry for entry in entry_points(group="console_scripts") if entry.name == "typedtensor-lsp"]
    assert script.value == "typedtensor.lsp.__main__:main"


@pytest.mark.parametrize("package", ["pygls", "mypy"])
def test_without_the_lsp_extra_the_server_says_what_to_install(package: str) -> None:
    code = f"import sys; sys.modules[{package!r}] = None; from typedtensor.lsp.__main__ import main; main()"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    advice = f"typedtensor-lsp needs {package}: pip install 'typedtensor[lsp]'"
    assert (result.returncode, result.stderr.strip()) == (1, advice)
