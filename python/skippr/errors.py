"""The exceptions the skippr package raises."""


class SkipprError(Exception):
    """Any error of the skippr package."""


class ConfigError(SkipprError, ValueError):
    """skippr.yml, or an edit of it, is wrong: the message is the one skipprd prints."""


class SyncError(SkipprError):
    """A sync ended with a failure; ``exit_code`` is skipprd's (1 failure, 2 configuration)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class SkipprdNotFound(SkipprError):
    """The skipprd command cannot be found."""
