"""typedtensor's language server: the mypy plugin's exact types on hover and as inlay hints, and
mypy's diagnostics as you edit, in any editor that speaks the language server protocol.

Start it with ``python -m typedtensor.lsp`` or ``typedtensor-lsp`` (it talks over stdin and
stdout); it needs the ``lsp`` extra (``pip install 'typedtensor[lsp]'``). See docs/editors.md.
Importing ``typedtensor`` does not import this package.
"""
