"""skippr.yml from Python: the same operations as the Java API, applied by skipprd's loader."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional

from . import _skipprd
from ._connector import Connector
from .errors import ConfigError

_SECTIONS = ("data_sources", "data_sinks", "schema_sinks", "deadletter_sinks")


class EntryRef:
    """A reference to a connector entry, written ``data_sinks.warehouse`` in skippr.yml."""

    __slots__ = ("section", "name")

    def __init__(self, section: str, name: str) -> None:
        if section not in _SECTIONS:
            raise ValueError("no section %r; sections: %s" % (section, ", ".join(_SECTIONS)))
        self.section = section
        self.name = name

    def _edit(self) -> Dict[str, str]:
        return {"section": self.section, "name": self.name}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EntryRef) and (other.section, other.name) == (
            self.section,
            self.name,
        )

    def __hash__(self) -> int:
        return hash((self.section, self.name))

    def __repr__(self) -> str:
        return "EntryRef(%r, %r)" % (self.section, self.name)

    def __str__(self) -> str:
        return "%s.%s" % (self.section, self.name)


class Pipeline:
    """A pipeline: the data source it reads, and optionally the data sink it loads, the deadletter
    sink for failed records, its write mode (append, merge or replace; default: merge on the
    key of each stream that has one, where the data sink can merge, else append), and
    soft_deletes (change data capture: a delete marks the key's row _skippr_deleted in merge
    instead of removing it)."""

    def __init__(
        self,
        data_source: EntryRef,
        data_sink: Optional[EntryRef] = None,
        deadletter_sink: Optional[EntryRef] = None,
        write_mode: Optional[str] = None,
        soft_deletes: bool = False,
    ) -> None:
        _require(data_source, "data_sources", "data_source", optional=False)
        _require(data_sink, "data_sinks", "data_sink", optional=True)
        _require(deadletter_sink, "deadletter_sinks", "deadletter_sink", optional=True)
        self.data_source = data_source
        self.data_sink = data_sink
        self.deadletter_sink = deadletter_sink
        self.write_mode = write_mode
        self.soft_deletes = soft_deletes


def _require(ref: Optional[EntryRef], section: str, what: str, optional: bool) -> None:
    if ref is None:
        if not optional:
            raise TypeError("%s is required" % what)
        return
    if not isinstance(ref, EntryRef) or ref.section != section:
        raise TypeError("%s must refer to %s, not %s" % (what, section, ref))


class ConfiguredPipeline:
    """A pipeline of a config file, ready for a Session."""

    def __init__(self, config: "Config", name: str) -> None:
        self.config = config
        self.name = name

    def __repr__(self) -> str:
        return "ConfiguredPipeline(%r, %r)" % (str(self.config.path), self.name)


class Config:
    """A skippr.yml file: load it, add or change entries and pipelines, save it.

    Edits are kept in order and applied by skipprd's own loader when ``save()`` is called, so key
    order, comments, ``${VAR}`` references, validation and its messages are the same as the CLI's
    and the Java API's. A mistake raises ConfigError at ``save()``, leaves the file unchanged and
    drops that save's edits: make them again, corrected, and save.
    """

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self._edits: List[Dict[str, Any]] = []

    @classmethod
    def load(cls, path: str = "skippr.yml") -> "Config":
        """The config file at ``path``, which must exist."""
        if not os.path.isfile(path):
            raise ConfigError("%s: no such file" % (path,))
        return cls(path)

    @classmethod
    def discover(cls) -> "Config":
        """The config file skipprd would read: $SKIPPR_CONFIG, else ./skippr.yml or the nearest
        in a parent folder."""
        return cls(_skipprd.run(["config", "path"]).strip())

    def data_source(self, name: str, connector: Connector) -> EntryRef:
        """Adds or replaces a data source."""
        return self._entry("data_source", name, connector)

    def data_sink(
        self, name: str, connector: Connector, schema_sink: Optional[EntryRef] = None
    ) -> EntryRef:
        """Adds or replaces a data sink, linking ``schema_sink`` if given. A paired kind (DuckDB,
        AthenaIceberg, SkipprLake) also writes its schema sink, with the same settings."""
        _require(schema_sink, "schema_sinks", "schema_sink", optional=True)
        return self._entry("data_sink", name, connector, schema_sink)

    def schema_sink(self, name: str, connector: Connector) -> EntryRef:
        """Adds or replaces a schema sink."""
        return self._entry("schema_sink", name, connector)

    def deadletter_sink(self, name: str, connector: Connector) -> EntryRef:
        """Adds or replaces a deadletter sink: a data-sink kind, in its own entry."""
        return self._entry("deadletter_sink", name, connector, role="data_sink")

    def get_data_source(self, name: str) -> EntryRef:
        return self._get("data_sources", name)

    def get_data_sink(self, name: str) -> EntryRef:
        return self._get("data_sinks", name)

    def get_schema_sink(self, name: str) -> EntryRef:
        return self._get("schema_sinks", name)

    def get_deadletter_sink(self, name: str) -> EntryRef:
        return self._get("deadletter_sinks", name)

    def pipeline(self, name: str, pipeline: Pipeline) -> ConfiguredPipeline:
        """Adds or replaces a pipeline; it holds exactly the references ``pipeline`` gives."""
        if not isinstance(pipeline, Pipeline):
            raise TypeError("pipeline takes a Pipeline, not %r" % (pipeline,))
        edit: Dict[str, Any] = {"op": "pipeline", "name": name}
        edit["data_source"] = pipeline.data_source._edit()
        for key in ("data_sink", "deadletter_sink"):
            ref = getattr(pipeline, key)
            if ref is not None:
                edit[key] = ref._edit()
        if pipeline.write_mode is not None:
            edit["write_mode"] = pipeline.write_mode
        if pipeline.soft_deletes:
            edit["soft_deletes"] = True
        self._edits.append(edit)
        return ConfiguredPipeline(self, name)

    def get_pipeline(self, name: str) -> ConfiguredPipeline:
        """A pipeline of this file (skipprd checks that it exists when it runs it)."""
        return ConfiguredPipeline(self, name)

    def save(self) -> None:
        """Applies the edits made since the last save, in order, and writes the file; on a
        ConfigError the file is unchanged and those edits are dropped."""
        if not self._edits:
            return
        # ASCII with \u escapes: YAML, which reads the document, treats some raw characters
        # (NEL, line and paragraph separators) differently from JSON
        document = json.dumps({"edits": self._edits})
        edits, self._edits = self._edits, []
        _skipprd.run(["config", "apply", "--config", self.path], stdin=document)

    def _entry(
        self,
        op: str,
        name: str,
        connector: Connector,
        schema_sink: Optional[EntryRef] = None,
        role: Optional[str] = None,
    ) -> EntryRef:
        role = role or op
        if not isinstance(connector, Connector) or connector._role != role:
            raise TypeError(
                "%s takes a %s connector (%s...), not %r"
                % (op, role.replace("_", " "), _prefix(role), connector)
            )
        edit: Dict[str, Any] = {
            "op": op,
            "name": name,
            "kind": connector.kind,
            "fields": connector._edit_fields(),
        }
        if schema_sink is not None:
            edit["schema_sink"] = schema_sink.name
        self._edits.append(edit)
        return EntryRef(op + "s", name)

    def _get(self, section: str, name: str) -> EntryRef:
        self._edits.append({"op": "get", "section": section, "name": name})
        return EntryRef(section, name)

    def __repr__(self) -> str:
        return "Config(%r)" % (self.path,)


def _prefix(role: str) -> str:
    return "".join(part.capitalize() for part in role.split("_"))
