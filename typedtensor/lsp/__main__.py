"""``python -m typedtensor.lsp``: the language server over stdin and stdout."""

from __future__ import annotations

import sys


def main() -> None:
    """Serve one editor until it says exit, closes the pipe or sends SIGTERM; the mypy daemon
    stops with the server."""
    try:
        import mypy.dmypy  # noqa: F401  (not used here: the daemon runs as python -m mypy.dmypy)

        from typedtensor.lsp._server import create_server
    except ModuleNotFoundError as missing:
        package = (missing.name or "a module").partition(".")[0]
        sys.exit(f"typedtensor-lsp needs {package}: pip install 'typedtensor[lsp]'")
    server = create_server()
    try:
        server.start_io()
    finally:
        server.close()


if __name__ == "__main__":
    main()
