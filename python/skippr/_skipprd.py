"""Runs the skipprd command, which holds the one implementation of the config plane."""

from __future__ import annotations

import locale
import os
import shutil
import subprocess
from typing import List, Optional, Sequence

from .errors import ConfigError, SkipprdNotFound

USAGE = 2

# skipprd (Java 17) writes in the locale's charset
ENCODING = locale.getpreferredencoding(False)


def command() -> List[str]:
    """The skipprd command: $SKIPPR_SKIPPRD, else skipprd on the PATH."""
    named = os.environ.get("SKIPPR_SKIPPRD")
    if named:
        return [named]
    found = shutil.which("skipprd")
    if found is None:
        raise SkipprdNotFound(
            "skipprd is not on the PATH; install Skippr, or set SKIPPR_SKIPPRD to its launcher"
            " (scripts/skipprd in a checkout)"
        )
    return [found]


def run(args: Sequence[str], stdin: Optional[str] = None) -> str:
    """Runs ``skipprd args``, returns what it printed; a configuration mistake raises
    ConfigError with skipprd's own message, any other failure RuntimeError."""
    done = subprocess.run(
        command() + list(args),
        input=None if stdin is None else stdin.encode("utf-8"),
        capture_output=True,
    )
    stdout = done.stdout.decode(ENCODING, errors="replace")
    stderr = done.stderr.decode(ENCODING, errors="replace")
    if done.returncode == 0:
        return stdout
    message = _errors(stderr)
    if done.returncode == USAGE:
        raise ConfigError(message)
    raise RuntimeError("skipprd %s failed (exit %d): %s" % (args[0], done.returncode, message))


def _errors(stderr: str) -> str:
    lines = [line[len("error: "):] for line in stderr.splitlines() if line.startswith("error: ")]
    return "\n".join(lines) if lines else stderr.strip()
