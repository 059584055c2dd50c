"""A pipeline's deadletters from Python, read back and replayed by ``skipprd deadletters``."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any, Dict, List, Optional

from . import _skipprd
from .errors import ConfigError, SyncError


class Deadletters:
    """The deadletters of a session's pipeline: ``Session(pipeline).deadletters()``."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def list(
        self,
        stage: Optional[str] = None,
        since: Optional[str] = None,
        reason: Optional[str] = None,
        all: bool = False,
    ) -> Dict[str, Any]:
        """The deadletters not replayed yet (every one with ``all``), as ``skipprd deadletters list
        --json`` prints them: ``pipeline``, ``deadletter_sink``, ``total``, ``selected``, the
        ``reasons`` with their counts, and each of the ``deadletters``. ``stage`` is
        ``"transform"`` or ``"load"``; ``since`` a date, a time with its offset, or a span back
        from now (``"2h"``). A pipeline whose deadletters cannot be read back raises ConfigError
        with the reason."""
        args = ["list", "--json"] + self._selection(stage, since, reason)
        if all:
            args.append("--all")
        return json.loads(self._run(args))

    def replay(
        self, stage: Optional[str] = None, since: Optional[str] = None, reason: Optional[str] = None
    ) -> Dict[str, int]:
        """Sends the deadletters not replayed yet through the pipeline's normalise and load stages
        into its data sink, exactly once; returns ``replayed``, ``loaded``, ``failed_again`` and
        ``not_replayable``. A failed run raises SyncError with skipprd's error and exit code."""
        args = ["replay", "--json"] + self._selection(stage, since, reason)
        return json.loads(self._run(args))

    def _selection(
        self, stage: Optional[str], since: Optional[str], reason: Optional[str]
    ) -> List[str]:
        pipeline = self._session.pipeline
        args = ["--pipeline", pipeline.name, "--config", pipeline.config.path]
        if stage is not None:
            args += ["--stage", stage]
        if since is not None:
            args += ["--since", since]
        if reason is not None:
            args += ["--reason", reason]
        return args

    def _run(self, args: List[str]) -> str:
        environment = dict(os.environ)
        environment.update(self._session.env)
        done = subprocess.run(
            _skipprd.command() + ["deadletters"] + args, capture_output=True, env=environment
        )
        stdout = done.stdout.decode(_skipprd.ENCODING, errors="replace")
        stderr = done.stderr.decode(_skipprd.ENCODING, errors="replace")
        if done.returncode == 0:
            return stdout
        message = _skipprd._errors(stderr)
        if done.returncode == _skipprd.USAGE:
            raise ConfigError(message)
        raise SyncError(message, done.returncode)
