package io.skippr.sinks.glue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The state and operations of {@link FakeGlueServer}: one Data Catalog held in memory, its requests
 * and responses the JSON documents of the Glue API ({@code TableInput} in, {@code Table} out).
 * Inputs are kept verbatim, as Glue keeps them, with Glue's own additions (names in lower case,
 * {@code DatabaseName}, {@code CreateTime}, {@code VersionId} …). Every operation runs under one
 * lock, so concurrent clients see each other's changes in some order, as with the real service.
 */
final class FakeGlueCatalog {
    static final String CATALOG_ID = "000000000000";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int DEFAULT_PAGE = 100;
    private static final Pattern EQUALS =
            Pattern.compile("\\s*`?(\\w+)`?\\s*=\\s*'((?:[^']|'')*)'\\s*");

    private final Map<String, Database> databases = new TreeMap<>();

    private static final class Database {
        ObjectNode input;
        BigDecimal createTime;
        final Map<String, Table> tables = new TreeMap<>();
    }

    private static final class Table {
        ObjectNode input;
        BigDecimal createTime;
        BigDecimal updateTime;
        long version = 1;
        final List<ObjectNode> archive = new ArrayList<>();
        final Map<List<String>, Partition> partitions = new LinkedHashMap<>();
    }

    private record Partition(ObjectNode input, BigDecimal createTime) {}

    /**
     * The fields of each request the fake models; any other one ({@code TransactionId}, {@code
     * OpenTableFormatInput}, {@code PartitionIndexes}, {@code QueryAsOfTime} …) is refused, since
     * ignoring it would answer as if Glue had honoured it.
     */
    private static final Map<String, Set<String>> REQUESTS =
            Map.ofEntries(
                    Map.entry("CreateDatabase", Set.of("CatalogId", "DatabaseInput")),
                    Map.entry("GetDatabase", Set.of("CatalogId", "Name")),
                    Map.entry("GetDatabases", Set.of("CatalogId", "NextToken", "MaxResults")),
                    Map.entry("UpdateDatabase", Set.of("CatalogId", "Name", "DatabaseInput")),
                    Map.entry("DeleteDatabase", Set.of("CatalogId", "Name")),
                    Map.entry("CreateTable", Set.of("CatalogId", "DatabaseName", "TableInput")),
                    Map.entry("GetTable", Set.of("CatalogId", "DatabaseName", "Name")),
                    Map.entry(
                            "GetTables",
                            Set.of(
                                    "CatalogId",
                                    "DatabaseName",
                                    "Expression",
                                    "NextToken",
                                    "MaxResults")),
                    Map.entry(
                            "UpdateTable",
                            Set.of(
                                    "CatalogId",
                                    "DatabaseName",
                                    "TableInput",
                                    "SkipArchive",
                                    "VersionId")),
                    Map.entry("DeleteTable", Set.of("CatalogId", "DatabaseName", "Name")),
                    Map.entry(
                            "GetTableVersions",
                            Set.of(
                                    "CatalogId",
                                    "DatabaseName",
                                    "TableName",
                                    "NextToken",
                                    "MaxResults")),
                    Map.entry(
                            "CreatePartition",
                            Set.of("CatalogId", "DatabaseName", "TableName", "PartitionInput")),
                    Map.entry(
                            "BatchCreatePartition",
                            Set.of("CatalogId", "DatabaseName", "TableName", "PartitionInputList")),
                    Map.entry(
                            "GetPartition",
                            Set.of("CatalogId", "DatabaseName", "TableName", "PartitionValues")),
                    Map.entry(
                            "GetPartitions",
                            Set.of(
                                    "CatalogId",
                                    "DatabaseName",
                                    "TableName",
                                    "Expression",
                                    "NextToken",
                                    "MaxResults")),
                    Map.entry(
                            "BatchGetPartition",
                            Set.of("CatalogId", "DatabaseName", "TableName", "PartitionsToGet")),
                    Map.entry(
                            "DeletePartition",
                            Set.of("CatalogId", "DatabaseName", "TableName", "PartitionValues")));

    /**
     * The fields of the structures inside requests that the fake keeps verbatim and returns, by the
     * field that holds them (an object, or an array of objects); any other one (a table's {@code
     * TargetTable} or {@code ViewOriginalText}, a storage descriptor's {@code SchemaReference} or
     * {@code SkewedInfo}, a database's {@code TargetDatabase} …) changes what the entry means and
     * is refused. {@code Parameters} maps are free-form, as in Glue.
     */
    private static final Set<String> COLUMN = Set.of("Name", "Type", "Comment", "Parameters");

    private static final Set<String> STORAGE_DESCRIPTOR =
            Set.of(
                    "Columns",
                    "Location",
                    "InputFormat",
                    "OutputFormat",
                    "Compressed",
                    "NumberOfBuckets",
                    "SerdeInfo",
                    "BucketColumns",
                    "SortColumns",
                    "Parameters",
                    "StoredAsSubDirectories",
                    "AdditionalLocations"); // Iceberg's GlueCatalog sends it; kept verbatim

    private static final Set<String> PARTITION_INPUT =
            Set.of(
                    "Values",
                    "StorageDescriptor",
                    "Parameters",
                    "LastAccessTime",
                    "LastAnalyzedTime");

    private static final Map<String, Set<String>> STRUCTURES =
            Map.ofEntries(
                    Map.entry(
                            "DatabaseInput",
                            Set.of("Name", "Description", "LocationUri", "Parameters")),
                    Map.entry(
                            "TableInput",
                            Set.of(
                                    "Name",
                                    "Description",
                                    "Owner",
                                    "LastAccessTime",
                                    "LastAnalyzedTime",
                                    "Retention",
                                    "StorageDescriptor",
                                    "PartitionKeys",
                                    "TableType",
                                    "Parameters")),
                    Map.entry("StorageDescriptor", STORAGE_DESCRIPTOR),
                    Map.entry("Columns", COLUMN),
                    Map.entry("PartitionKeys", COLUMN),
                    Map.entry("SerdeInfo", Set.of("Name", "SerializationLibrary", "Parameters")),
                    Map.entry("SortColumns", Set.of("Column", "SortOrder")),
                    Map.entry("PartitionInput", PARTITION_INPUT),
                    Map.entry("PartitionInputList", PARTITION_INPUT),
                    Map.entry("PartitionsToGet", Set.of("Values")));

    synchronized ObjectNode call(String operation, JsonNode request) {
        Set<String> fields = REQUESTS.get(operation);
        if (fields == null) {
            throw new GlueFault(
                    "UnknownOperationException",
                    "FakeGlueServer does not implement AWSGlue." + operation);
        }
        checkFields(operation, operation, request, fields);
        if (request.has("CatalogId") && !CATALOG_ID.equals(request.get("CatalogId").asText())) {
            throw GlueFault.invalid(
                    "FakeGlueServer holds only catalog "
                            + CATALOG_ID
                            + ", not "
                            + request.get("CatalogId").asText());
        }
        return switch (operation) {
            case "CreateDatabase" -> createDatabase(request);
            case "GetDatabase" -> getDatabase(request);
            case "GetDatabases" -> getDatabases(request);
            case "UpdateDatabase" -> updateDatabase(request);
            case "DeleteDatabase" -> deleteDatabase(request);
            case "CreateTable" -> createTable(request);
            case "GetTable" -> getTable(request);
            case "GetTables" -> getTables(request);
            case "UpdateTable" -> updateTable(request);
            case "DeleteTable" -> deleteTable(request);
            case "GetTableVersions" -> getTableVersions(request);
            case "CreatePartition" -> createPartition(request);
            case "BatchCreatePartition" -> batchCreatePartition(request);
            case "GetPartition" -> getPartition(request);
            case "GetPartitions" -> getPartitions(request);
            case "BatchGetPartition" -> batchGetPartition(request);
            case "DeletePartition" -> deletePartition(request);
            default ->
                    throw new GlueFault(
                            "UnknownOperationException",
                            "FakeGlueServer does not implement AWSGlue." + operation);
        };
    }

    /** Refuses a field of {@code node} (named {@code where}) that the fake does not model. */
    private static void checkFields(
            String operation, String where, JsonNode node, Set<String> fields) {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String name = field.getKey();
            if (!fields.contains(name)) {
                throw GlueFault.invalid(
                        "FakeGlueServer does not model "
                                + where
                                + "."
                                + name
                                + " (in AWSGlue."
                                + operation
                                + ")");
            }
            Set<String> nested = STRUCTURES.get(name);
            JsonNode value = field.getValue();
            if (nested == null) {
                continue;
            }
            if (value.isObject()) {
                checkFields(operation, name, value, nested);
            } else if (value.isArray()) {
                for (JsonNode element : value) {
                    if (element.isObject()) {
                        checkFields(operation, name, element, nested);
                    }
                }
            }
        }
    }

    // ---- what tests may inspect

    synchronized List<String> databaseNames() {
        return new ArrayList<>(databases.keySet());
    }

    synchronized List<String> tableNames(String database) {
        Database db = databases.get(lower(database));
        return db == null ? List.of() : new ArrayList<>(db.tables.keySet());
    }

    synchronized Optional<JsonNode> table(String database, String name) {
        Database db = databases.get(lower(database));
        Table table = db == null ? null : db.tables.get(lower(name));
        return table == null ? Optional.empty() : Optional.of(tableOutput(db, table));
    }

    synchronized List<List<String>> partitionValues(String database, String name) {
        Database db = databases.get(lower(database));
        Table table = db == null ? null : db.tables.get(lower(name));
        return table == null ? List.of() : new ArrayList<>(table.partitions.keySet());
    }

    /** A partition as GetPartition returns it, if the table has one with these values. */
    synchronized Optional<JsonNode> partition(String database, String name, List<String> values) {
        Database db = databases.get(lower(database));
        Table table = db == null ? null : db.tables.get(lower(name));
        Partition partition = table == null ? null : table.partitions.get(values);
        return partition == null
                ? Optional.empty()
                : Optional.of(partitionOutput(db, table, partition));
    }

    // ---- databases

    private ObjectNode createDatabase(JsonNode request) {
        ObjectNode input = object(request, "DatabaseInput");
        String name = lower(text(input, "Name"));
        if (databases.containsKey(name)) {
            throw GlueFault.alreadyExists("Database already exists.");
        }
        Database db = new Database();
        db.input = input.deepCopy();
        db.input.put("Name", name);
        db.createTime = now();
        databases.put(name, db);
        return NODES.objectNode();
    }

    private ObjectNode getDatabase(JsonNode request) {
        Database db = database(text(request, "Name"));
        ObjectNode response = NODES.objectNode();
        response.set("Database", databaseOutput(db));
        return response;
    }

    private ObjectNode getDatabases(JsonNode request) {
        List<JsonNode> all = new ArrayList<>();
        databases.values().forEach(db -> all.add(databaseOutput(db)));
        return page(request, all, "DatabaseList");
    }

    private ObjectNode updateDatabase(JsonNode request) {
        Database db = database(text(request, "Name"));
        ObjectNode input = object(request, "DatabaseInput");
        db.input = input.deepCopy();
        db.input.put("Name", lower(text(input, "Name")));
        return NODES.objectNode();
    }

    private ObjectNode deleteDatabase(JsonNode request) {
        Database db = database(text(request, "Name"));
        databases.remove(lower(db.input.get("Name").asText()));
        return NODES.objectNode();
    }

    private ObjectNode databaseOutput(Database db) {
        ObjectNode out = db.input.deepCopy();
        out.put("CreateTime", db.createTime);
        out.put("CatalogId", CATALOG_ID);
        return out;
    }

    private Database database(String name) {
        Database db = databases.get(lower(name));
        if (db == null) {
            throw GlueFault.notFound("Database " + lower(name) + " not found.");
        }
        return db;
    }

    // ---- tables

    private ObjectNode createTable(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        ObjectNode input = object(request, "TableInput");
        String name = lower(text(input, "Name"));
        if (db.tables.containsKey(name)) {
            throw GlueFault.alreadyExists("Table already exists.");
        }
        Table table = new Table();
        table.input = input.deepCopy();
        table.input.put("Name", name);
        table.createTime = now();
        table.updateTime = table.createTime;
        db.tables.put(name, table);
        return NODES.objectNode();
    }

    private ObjectNode getTable(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        ObjectNode response = NODES.objectNode();
        response.set("Table", tableOutput(db, table(db, text(request, "Name"))));
        return response;
    }

    private ObjectNode getTables(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        Pattern filter = null;
        if (request.hasNonNull("Expression")) {
            try {
                filter = Pattern.compile(request.get("Expression").asText());
            } catch (PatternSyntaxException e) {
                throw GlueFault.invalid("Expression is not a valid pattern: " + e.getMessage());
            }
        }
        List<JsonNode> matching = new ArrayList<>();
        for (Map.Entry<String, Table> entry : db.tables.entrySet()) {
            if (filter == null || filter.matcher(entry.getKey()).matches()) {
                matching.add(tableOutput(db, entry.getValue()));
            }
        }
        return page(request, matching, "TableList");
    }

    private ObjectNode updateTable(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        ObjectNode input = object(request, "TableInput");
        Table table = table(db, text(input, "Name"));
        if (request.hasNonNull("VersionId")
                && !request.get("VersionId").asText().equals(Long.toString(table.version))) {
            throw new GlueFault(
                    "ConcurrentModificationException",
                    "Update table failed due to concurrent modifications.");
        }
        if (!request.path("SkipArchive").asBoolean(false)) {
            table.archive.add(tableOutput(db, table));
        }
        table.input = input.deepCopy();
        table.input.put("Name", lower(text(input, "Name")));
        table.updateTime = now();
        table.version++;
        return NODES.objectNode();
    }

    private ObjectNode deleteTable(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        table(db, text(request, "Name"));
        db.tables.remove(lower(text(request, "Name")));
        return NODES.objectNode();
    }

    private ObjectNode getTableVersions(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        Table table = table(db, text(request, "TableName"));
        List<JsonNode> versions = new ArrayList<>();
        ObjectNode current = NODES.objectNode();
        current.set("Table", tableOutput(db, table));
        current.put("VersionId", Long.toString(table.version));
        versions.add(current);
        for (int i = table.archive.size() - 1; i >= 0; i--) {
            ObjectNode version = NODES.objectNode();
            version.set("Table", table.archive.get(i));
            version.set("VersionId", table.archive.get(i).get("VersionId"));
            versions.add(version);
        }
        return page(request, versions, "TableVersions");
    }

    private ObjectNode tableOutput(Database db, Table table) {
        ObjectNode out = table.input.deepCopy();
        out.put("DatabaseName", db.input.get("Name").asText());
        out.put("CreateTime", table.createTime);
        out.put("UpdateTime", table.updateTime);
        out.put("IsRegisteredWithLakeFormation", false);
        out.put("CatalogId", CATALOG_ID);
        out.put("VersionId", Long.toString(table.version));
        return out;
    }

    private Table table(Database db, String name) {
        Table table = db.tables.get(lower(name));
        if (table == null) {
            throw GlueFault.notFound("Table " + lower(name) + " not found.");
        }
        return table;
    }

    // ---- partitions

    private ObjectNode createPartition(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        Table table = table(db, text(request, "TableName"));
        addPartition(table, object(request, "PartitionInput"));
        return NODES.objectNode();
    }

    private ObjectNode batchCreatePartition(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        Table table = table(db, text(request, "TableName"));
        JsonNode inputs = request.path("PartitionInputList");
        if (!inputs.isArray() || inputs.size() > 100) {
            throw GlueFault.invalid("PartitionInputList must hold 0 to 100 partitions");
        }
        ArrayNode errors = NODES.arrayNode();
        for (JsonNode input : inputs) {
            try {
                addPartition(table, (ObjectNode) input);
            } catch (GlueFault e) {
                ObjectNode error = errors.addObject();
                error.set("PartitionValues", input.path("Values").deepCopy());
                ObjectNode detail = error.putObject("ErrorDetail");
                detail.put("ErrorCode", e.type());
                detail.put("ErrorMessage", e.getMessage());
            }
        }
        ObjectNode response = NODES.objectNode();
        response.set("Errors", errors);
        return response;
    }

    private void addPartition(Table table, ObjectNode input) {
        List<String> values = values(table, input.path("Values"));
        if (table.partitions.containsKey(values)) {
            throw GlueFault.alreadyExists("Partition already exists.");
        }
        table.partitions.put(values, new Partition(input.deepCopy(), now()));
    }

    private ObjectNode getPartition(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        Table table = table(db, text(request, "TableName"));
        List<String> values = values(table, request.path("PartitionValues"));
        Partition partition = table.partitions.get(values);
        if (partition == null) {
            throw GlueFault.notFound("Partition not found.");
        }
        ObjectNode response = NODES.objectNode();
        response.set("Partition", partitionOutput(db, table, partition));
        return response;
    }

    private ObjectNode getPartitions(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        Table table = table(db, text(request, "TableName"));
        Map<Integer, String> wanted = expression(table, request.path("Expression").asText(""));
        List<JsonNode> matching = new ArrayList<>();
        for (Map.Entry<List<String>, Partition> entry : table.partitions.entrySet()) {
            boolean match = true;
            for (Map.Entry<Integer, String> condition : wanted.entrySet()) {
                match &= entry.getKey().get(condition.getKey()).equals(condition.getValue());
            }
            if (match) {
                matching.add(partitionOutput(db, table, entry.getValue()));
            }
        }
        return page(request, matching, "Partitions");
    }

    private ObjectNode batchGetPartition(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        Table table = table(db, text(request, "TableName"));
        ArrayNode found = NODES.arrayNode();
        for (JsonNode key : request.path("PartitionsToGet")) {
            Partition partition = table.partitions.get(values(table, key.path("Values")));
            if (partition != null) {
                found.add(partitionOutput(db, table, partition));
            }
        }
        ObjectNode response = NODES.objectNode();
        response.set("Partitions", found);
        response.set("UnprocessedKeys", NODES.arrayNode());
        return response;
    }

    private ObjectNode deletePartition(JsonNode request) {
        Database db = database(text(request, "DatabaseName"));
        Table table = table(db, text(request, "TableName"));
        if (table.partitions.remove(values(table, request.path("PartitionValues"))) == null) {
            throw GlueFault.notFound("Partition not found.");
        }
        return NODES.objectNode();
    }

    private ObjectNode partitionOutput(Database db, Table table, Partition partition) {
        ObjectNode out = partition.input().deepCopy();
        out.put("DatabaseName", db.input.get("Name").asText());
        out.put("TableName", table.input.get("Name").asText());
        out.put("CreationTime", partition.createTime());
        out.put("CatalogId", CATALOG_ID);
        return out;
    }

    private static List<String> values(Table table, JsonNode values) {
        int keys = table.input.path("PartitionKeys").size();
        if (!values.isArray() || values.size() != keys) {
            throw GlueFault.invalid(
                    "The number of partition keys do not match the number of partition values");
        }
        List<String> list = new ArrayList<>();
        values.forEach(v -> list.add(v.asText()));
        return List.copyOf(list);
    }

    /**
     * The partition filter of GetPartitions, as far as this fake understands it: {@code key =
     * 'value'} conditions joined by AND. Anything else is refused rather than misread.
     */
    private static Map<Integer, String> expression(Table table, String expression) {
        Map<Integer, String> conditions = new TreeMap<>();
        if (expression.isBlank()) {
            return conditions;
        }
        for (String part : expression.split("(?i)\\s+AND\\s+")) {
            Matcher m = EQUALS.matcher(part);
            int index = -1;
            if (m.matches()) {
                JsonNode keys = table.input.path("PartitionKeys");
                for (int i = 0; i < keys.size(); i++) {
                    if (keys.get(i).path("Name").asText().equalsIgnoreCase(m.group(1))) {
                        index = i;
                    }
                }
            }
            if (index < 0) {
                throw GlueFault.invalid(
                        "FakeGlueServer understands only key = 'value' conditions on partition"
                                + " keys joined by AND, not: "
                                + expression);
            }
            conditions.put(index, m.group(2).replace("''", "'"));
        }
        return conditions;
    }

    // ---- JSON helpers

    private static ObjectNode page(JsonNode request, List<JsonNode> items, String field) {
        int from = 0;
        if (request.hasNonNull("NextToken")) {
            try {
                from = Integer.parseInt(request.get("NextToken").asText());
            } catch (NumberFormatException e) {
                throw GlueFault.invalid("Invalid NextToken");
            }
        }
        int size = request.path("MaxResults").asInt(DEFAULT_PAGE);
        int to = Math.min(items.size(), from + Math.max(1, size));
        ObjectNode response = NODES.objectNode();
        ArrayNode list = response.putArray(field);
        for (int i = Math.min(from, items.size()); i < to; i++) {
            list.add(items.get(i));
        }
        if (to < items.size()) {
            response.put("NextToken", Integer.toString(to));
        }
        return response;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw GlueFault.invalid(field + " is required");
        }
        return value.asText();
    }

    private static ObjectNode object(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (!(value instanceof ObjectNode object)) {
            throw GlueFault.invalid(field + " is required");
        }
        return object;
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** Epoch seconds with milliseconds, as the JSON 1.1 protocol writes timestamps. */
    private static BigDecimal now() {
        return BigDecimal.valueOf(System.currentTimeMillis(), 3);
    }
}
