"""Runs a pipeline from Python, as ``skipprd sync`` does."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Dict, List, Optional

from . import _skipprd
from ._config import ConfiguredPipeline
from .errors import SyncError


class Session:
    """Runs one pipeline: ``Session(Config.discover().get_pipeline("orders")).sync(once=True)``.

    ``env`` adds environment variables (such as the secrets ``${VAR}`` references name) to this
    process's for the run."""

    def __init__(self, pipeline: ConfiguredPipeline, env: Optional[Dict[str, str]] = None) -> None:
        if not isinstance(pipeline, ConfiguredPipeline):
            raise TypeError("Session takes a pipeline of a Config (get_pipeline), not %r" % (pipeline,))
        self.pipeline = pipeline
        self.env = dict(env or {})

    def deadletters(self) -> "Deadletters":
        """The pipeline's deadletters, read back from its deadletter sink: ``.list(...)`` and
        ``.replay(...)``, as ``skipprd deadletters list`` and ``replay`` do."""
        from ._deadletters import Deadletters

        return Deadletters(self)

    def sync(self, once: bool = False, log: bool = False) -> None:
        """Runs the pipeline: with ``once``, copies what the source holds now and returns; without,
        runs until stopped (Ctrl-C). Its output goes to this process's standard output and error.
        A failure raises SyncError with skipprd's error lines and exit code."""
        args: List[str] = [
            "sync",
            "--pipeline",
            self.pipeline.name,
            "--config",
            self.pipeline.config.path,
        ]
        if once:
            args.append("--once")
        if log:
            args.append("--log")
        environment = dict(os.environ)
        environment.update(self.env)
        process = subprocess.Popen(
            _skipprd.command() + args,
            stdout=None,  # this process's own standard output
            stderr=subprocess.PIPE,
            text=True,
            encoding=_skipprd.ENCODING,
            errors="replace",
            env=environment,
        )
        errors: List[str] = []
        assert process.stderr is not None
        for line in process.stderr:
            sys.stderr.write(line)
            if line.startswith("error: "):
                errors.append(line[len("error: "):].rstrip("\n"))
        code = process.wait()
        if code != 0:
            message = "\n".join(errors) or "skipprd sync ended with exit code %d" % code
            raise SyncError(message, code)
