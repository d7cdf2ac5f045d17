"""Builds the reducer's optional C loops (typedtensor/_reducer/_ckernels.c); the rest is in pyproject.toml.

The extension is optional: without a compiler the build skips it and reductions run on numpy.
It is compiled at the compiler's baseline (no -march=native), so the wheel runs on any CPU of
its platform.

``TYPEDTENSOR_BUILD_EXTENSION=0`` in the environment skips the extension on purpose (any other
value, or none, builds it): an install that tests only the packaging, such as
tests/project/test_install.py, need not spend 40 s compiling the loops.
"""

import os
import sys

from setuptools import Extension, setup

CKERNELS = Extension(
    "typedtensor._reducer._ckernels",
    sources=["typedtensor/_reducer/_ckernels.c"],
    # -ffp-contract=off: no fused multiply-adds, so every CPU gives the same bits
    extra_compile_args=["/O2"] if sys.platform == "win32" else ["-O3", "-g0", "-ffp-contract=off"],
    optional=True,
)

setup(ext_modules=[] if os.environ.get("TYPEDTENSOR_BUILD_EXTENSION") == "0" else [CKERNELS])
