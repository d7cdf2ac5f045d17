"""Static-checking plugins for typedtensor (``typing_plugins.mypy_plugin``)."""
