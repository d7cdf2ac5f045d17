"""Builds the reducer's optional C loops (typedtensor/_reducer/_ckernels.c); the rest is in pyproject.toml.

The extension is optional: without a compiler the build skips it and reductions run on numpy.
It is compiled at the compiler's baseline (no -march=native), so the wheel runs on any CPU of
its platform.
"""

import sys

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "typedtensor._reducer._ckernels",
            sources=["typedtensor/_reducer/_ckernels.c"],
            # -ffp-contract=off: no fused multiply-adds, so every CPU gives the same bits
            extra_compile_args=["/O2"] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
