"""Builds the reducer's optional C loops (typedtensor/_reducer/_ckernels*.c); the rest is in pyproject.toml.

The extension is optional: without a compiler the build skips it and reductions run on numpy.
It is compiled at the compiler's baseline (no -march=native), so the wheel runs on any CPU of
its platform; GCC on x86-64 Linux adds x86-64-v3 clones of the hot loops, picked at load time.
Its two units compile in parallel (about 25 s here, where one unit took 45-90 s).

``TYPEDTENSOR_BUILD_EXTENSION=0`` in the environment skips the extension on purpose (any other
value, or none, builds it): an install that tests only the packaging, such as
tests/project/test_install.py, need not spend the time compiling the loops.
"""

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REDUCER = "typedtensor/_reducer/"
CKERNELS = Extension(
    "typedtensor._reducer._ckernels",
    sources=[REDUCER + "_ckernels.c", REDUCER + "_ckernels_integers.c"],
    depends=[REDUCER + "_ckernels_loops.h"],
    # -ffp-contract=off: no multiply and add fused by the compiler, so every CPU gives the same bits
    # (the float16 loops' explicit fma adds x * 1, exactly an add); -g0: debug
    # information took a fifth of the compile time; -falign-functions=64: a function's loops keep
    # their place in the cache lines when other code changes (adding a loop elsewhere in the
    # unit moved int32 row sums by 16 bytes and made them 13% slower)
    extra_compile_args=["/O2"] if sys.platform == "win32" else ["-O3", "-g0", "-ffp-contract=off", "-falign-functions=64"],
    optional=True,
)


class ParallelBuildExt(build_ext):
    """build_ext that compiles an extension's sources at the same time, one compiler each."""

    def build_extensions(self) -> None:
        compile_serially = self.compiler.compile

        def compile_in_parallel(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(max(1, len(sources))) as pool:
                units = pool.map(lambda source: compile_serially([source], *args, **kwargs), sources)
                return [obj for objects in units for obj in objects]

        self.compiler.compile = compile_in_parallel
        super().build_extensions()


setup(
    ext_modules=[] if os.environ.get("TYPEDTENSOR_BUILD_EXTENSION") == "0" else [CKERNELS],
    cmdclass={"build_ext": ParallelBuildExt},
)
