"""What every connector class shares: its settings, and environment references."""

from __future__ import annotations

import re
from typing import Any, Dict, Tuple

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class EnvRef:
    """A value taken from an environment variable when a run starts: written ``${NAME}`` in
    skippr.yml, never as the value itself."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        if not isinstance(name, str) or not _ENV_NAME.match(name):
            raise ValueError(
                "environment variable names are letters, digits and _, not starting with a"
                " digit: %r" % (name,)
            )
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EnvRef) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return "EnvRef(%r)" % (self.name,)

    def __str__(self) -> str:
        return "${%s}" % (self.name,)


class Connector:
    """The settings of one connector. The generated classes (``DataSinkPostgres`` and the others,
    in ``skippr.connectors``) take one keyword argument per field of their kind; the values are
    checked by Skippr's config loader when the config is saved."""

    _role = ""
    _kind = ""
    _secrets: Tuple[str, ...] = ()

    def __init__(self, *fields: Tuple[str, Any]) -> None:
        self._values: Dict[str, Any] = {name: value for name, value in fields if value is not None}

    @property
    def kind(self) -> str:
        """The kind's name, as skippr.yml writes it (``Postgres``)."""
        return self._kind

    @property
    def values(self) -> Dict[str, Any]:
        """The fields set, by name."""
        return dict(self._values)

    def _edit_fields(self) -> Dict[str, Any]:
        return {name: _edit_value(value) for name, value in self._values.items()}

    def __repr__(self) -> str:
        args = ", ".join(
            "%s=%s" % (name, _shown(name in self._secrets, value))
            for name, value in self._values.items()
        )
        return "%s(%s)" % (type(self).__name__, args)


def _shown(secret: bool, value: Any) -> str:
    """A value as a message may show it: a secret only as an EnvRef, which names no secret."""
    if secret and not isinstance(value, EnvRef):
        return "'***'"
    return repr(value)


def _edit_value(value: Any) -> Any:
    if isinstance(value, EnvRef):
        return {"env": value.name}
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return value
