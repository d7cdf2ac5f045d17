"""mypy as child processes: the daemon, which checks saved files and answers ``dmypy inspect``, and
one-shot runs over unsaved buffers.

Every process runs in the workspace's root, so mypy finds the project's own configuration (and so
its plugins, typedtensor's among them), under this interpreter (the one typedtensor and mypy are
installed in). Nothing is written into the workspace: the daemon's status and log files and the
one-shot runs' cache live in a private directory. Every wait has a time limit, after which the
process is killed; a cancelled wait kills its process too.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: How mypy prints messages for us: one per line, with the span, absolute paths, no colour.
OUTPUT_FLAGS: Final = (
    "--show-column-numbers",
    "--show-error-end",
    "--show-error-codes",
    "--no-pretty",
    "--no-error-summary",
    "--hide-error-context",
    "--show-absolute-path",
    "--no-color-output",
)
#: The daemon stops by itself after this long without a request, should its server die unseen.
DAEMON_IDLE_SECONDS: Final = 3600
CHECK_SECONDS: Final = 600.0  # a first check of a large project takes minutes
INSPECT_SECONDS: Final = 30.0
STOP_SECONDS: Final = 10.0


class MypyFailed(RuntimeError):
    """mypy could not check (a bad configuration, a crash): its output says why."""


@dataclass(frozen=True)
class Completed:
    status: int
    stdout: str
    stderr: str


async def run(arguments: Sequence[str], cwd: Path, timeout: float) -> Completed:
    """Run ``python -m <arguments>`` in ``cwd`` and wait for it; on timeout (``MypyFailed``) or
    cancellation it is killed.

    Its stdin is empty and its output is captured: the server's own stdin and stdout carry the
    language server protocol and must never reach a child.
    """
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        *arguments,
        cwd=cwd,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        stdout, stderr = await asyncio.wait_for(process.communicate(), timeout)
    except BaseException as stopped:
        if process.returncode is None:
            process.kill()
            await process.wait()
        if isinstance(stopped, TimeoutError):
            raise MypyFailed(f"python -m {' '.join(arguments)} did not finish within {timeout:.0f} s") from None
        raise
    assert process.returncode is not None
    return Completed(process.returncode, stdout.decode(errors="replace"), stderr.decode(errors="replace"))


def _checked(completed: Completed) -> str:
    """mypy's messages; exit status 0 is clean, 1 found errors, anything else is a failure."""
    if completed.status not in (0, 1) or "Daemon crashed" in completed.stdout + completed.stderr:
        raise MypyFailed((completed.stdout + completed.stderr).strip())
    return completed.stdout


class Daemon:
    """One mypy daemon for one workspace, requests to it one at a time.

    ``dmypy run`` starts it on first use, restarts it if it died or the configuration changed,
    and re-checks incrementally; ``--export-types`` keeps the types ``inspect`` reads.
    """

    def __init__(self, root: Path, private: Path) -> None:
        self.root = root
        self._dmypy = ("mypy.dmypy", "--status-file", str(private / "dmypy.json"))
        self._log = private / "dmypy.log"
        self._lock = asyncio.Lock()

    async def check(self, paths: Sequence[Path]) -> str:
        """Check ``paths`` as saved on disk (and what they import); mypy's messages.

        ``--export-types`` also makes the daemon re-check every path given, changed or not: it
        would take a file whose size and whole-second mtime are unchanged for unchanged
        (python/mypy#12697), missing a quick save of ``axis=4`` corrected to ``axis=1``.
        """
        arguments = (
            *self._dmypy,
            "run",
            "--export-types",
            f"--timeout={DAEMON_IDLE_SECONDS}",
            f"--log-file={self._log}",
            "--",
            *OUTPUT_FLAGS,
            *map(str, paths),
        )
        async with self._lock:
            return _checked(await run(arguments, self.root, CHECK_SECONDS))

    async def inspect(self, path: Path, *location: int) -> str:
        """``dmypy inspect`` at ``line, column`` (every enclosing expression) or at an exact span."""
        where = ":".join(map(str, (path, *location)))
        arguments = (*self._dmypy, "inspect", "--include-span", "--include-kind", where)
        async with self._lock:
            return (await run(arguments, self.root, INSPECT_SECONDS)).stdout

    def stop(self) -> None:
        """Stop the daemon if it runs: politely, else by force. It blocks: it runs when the
        server ends, also from a signal handler, where nothing else waits for an answer."""
        for command in ("stop", "kill"):
            try:
                stopped = subprocess.run(
                    [sys.executable, "-m", *self._dmypy, command],
                    cwd=self.root,
                    stdin=subprocess.DEVNULL,
                    capture_output=True,
                    text=True,
                    timeout=STOP_SECONDS,
                )
            except subprocess.TimeoutExpired:
                continue
            if stopped.returncode == 0 or "No status file found" in stopped.stdout + stopped.stderr:
                return


class BufferChecker:
    """One-shot mypy runs over unsaved buffers, one at a time, sharing a private cache.

    mypy's ``--shadow-file`` makes it read a copy (the buffer) in place of a file, keeping the
    file's path and module name. The cache is private: it holds results for text not on disk.
    The first run fills it (numpy's stubs, the project's modules) and takes seconds, later runs
    re-check what changed: ``warm`` makes that first run before anyone waits for it.
    """

    def __init__(self, root: Path, cache: Path) -> None:
        self.root = root
        self._cache = cache
        self._lock = asyncio.Lock()

    async def check(self, path: Path, buffers: Mapping[Path, Path]) -> str:
        """Check ``path``, reading each file of ``buffers`` from its copy; mypy's messages."""
        shadows = [flag for source, copy in buffers.items() for flag in ("--shadow-file", str(source), str(copy))]
        arguments = ("mypy", *OUTPUT_FLAGS, f"--cache-dir={self._cache}", *shadows, str(path))
        async with self._lock:
            return _checked(await run(arguments, self.root, CHECK_SECONDS))

    async def warm(self, path: Path) -> None:
        """Fill the cache by checking ``path`` as saved; a failure shows at the first real check."""
        with contextlib.suppress(MypyFailed):
            await self.check(path, {})
