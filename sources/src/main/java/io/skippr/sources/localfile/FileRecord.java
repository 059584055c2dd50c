package io.skippr.sources.localfile;

import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;

/**
 * A record read from a split, with the split's progress after it.
 *
 * @param record a Row or an Undecodable
 * @param schema the schema version a Row is emitted as (announced by a SchemaChange before it)
 * @param recordsRead the split's records read, this one included
 * @param byteOffset the file offset just after this record (CSV, JSONL), else 0
 */
record FileRecord(SourceRecord record, StreamSchema schema, long recordsRead, long byteOffset) {}
