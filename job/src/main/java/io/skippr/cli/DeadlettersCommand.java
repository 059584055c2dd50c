package io.skippr.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.config.Config;
import io.skippr.config.ConfiguredPipeline;
import io.skippr.core.spi.FailPoint;
import io.skippr.job.StateDirs;
import io.skippr.job.deadletters.CannotReadDeadletters;
import io.skippr.job.deadletters.DeadletterFilter;
import io.skippr.job.deadletters.Deadletters;
import io.skippr.job.deadletters.StoredDeadletter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skipprd deadletters list|replay}: a pipeline's deadletters, read back and replayed. */
final class DeadlettersCommand {
    /** Examples shown per reason in the text summary. */
    static final int EXAMPLES = 3;

    private DeadlettersCommand() {}

    static CommandLine command(CliContext context) {
        CommandLine group = new CommandLine(new Group(context));
        group.addSubcommand(new CommandLine(new ListCommand(context)));
        group.addSubcommand(new CommandLine(new ReplayCommand(context)));
        return group;
    }

    @Command(
            name = "deadletters",
            mixinStandardHelpOptions = true,
            description = {
                "Reads a pipeline's deadletters back from its deadletter sink (a table or files),"
                        + " and sends them through the pipeline's normalise and load stages again.",
                "Exit codes: 0 ok, 1 runtime failure (a server out of reach), 2 usage or"
                        + " configuration error (no deadletter sink, or one that cannot be read"
                        + " back)."
            })
    static final class Group implements Callable<Integer> {
        private final CliContext context;

        Group(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() {
            context.err.println("error: skipprd deadletters needs a command: list, replay");
            return Skipprd.USAGE;
        }
    }

    /** The options both commands take. */
    abstract static class Selection {
        final CliContext context;

        @Option(
                names = "--pipeline",
                paramLabel = "PIPELINE",
                required = true,
                description = "The pipeline whose deadletters to read.")
        String pipeline;

        @Option(
                names = "--stage",
                paramLabel = "STAGE",
                description = "Only deadletters of this stage: transform or load.")
        String stage;

        @Option(
                names = "--since",
                paramLabel = "TIME",
                description =
                        "Only deadletters that failed at or after TIME: 2026-12-01,"
                                + " 2026-12-01T10:00:00Z, or a span back from now (30m, 2h, 7d).")
        String since;

        @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to use.")
        Path config;

        Selection(CliContext context) {
            this.context = context;
        }

        ConfiguredPipeline pipeline() {
            Config cfg = context.loadConfig(config);
            return cfg.getPipeline(pipeline);
        }

        DeadletterFilter filter(String reason, boolean all) {
            try {
                return new DeadletterFilter(stage, reason, since(since), all);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--" + e.getMessage());
            }
        }

        Deadletters deadletters(ConfiguredPipeline configured) {
            return new Deadletters(configured, context.env);
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = {
                "Summarizes the pipeline's deadletters by reason: how many, and the first few with"
                        + " their stream and source position. Deadletters already replayed are left"
                        + " out unless --all is given."
            })
    static final class ListCommand extends Selection implements Callable<Integer> {
        @Option(names = "--reason", paramLabel = "TEXT", description = "Only reasons holding TEXT.")
        String reason;

        @Option(names = "--all", description = "Also the deadletters already replayed.")
        boolean all;

        @Option(names = "--json", description = "Print every deadletter taken as JSON.")
        boolean json;

        ListCommand(CliContext context) {
            super(context);
        }

        @Override
        public Integer call() throws Exception {
            ConfiguredPipeline configured = pipeline();
            Deadletters.Listing listing;
            try {
                listing = deadletters(configured).list(filter(reason, all));
            } catch (CannotReadDeadletters e) {
                throw new UsageException(e.getMessage());
            }
            context.out.print(json ? json(listing) : text(listing));
            return Skipprd.OK;
        }
    }

    @Command(
            name = "replay",
            mixinStandardHelpOptions = true,
            description = {
                "Sends the pipeline's deadletters that are not replayed yet through its normalise"
                        + " and load stages into its data sink, exactly once: each keeps its"
                        + " _skippr_id, and a replay interrupted or run again loads none twice. A"
                        + " record that fails again becomes a new deadletter marked as a replay of"
                        + " the old one."
            })
    static final class ReplayCommand extends Selection implements Callable<Integer> {
        @Option(names = "--reason", paramLabel = "TEXT", description = "Only reasons holding TEXT.")
        String reason;

        @Option(names = "--json", description = "Print what the replay did as JSON.")
        boolean json;

        ReplayCommand(CliContext context) {
            super(context);
        }

        @Override
        public Integer call() throws Exception {
            ConfiguredPipeline configured = pipeline();
            configured.resolve(context.env);
            Path stateDir = StateDirs.of(configured.config().path(), pipeline, context.env);
            Logs.configure(stateDir, false, line -> {});
            Deadletters.Replay done;
            try {
                done =
                        deadletters(configured)
                                .replay(
                                        filter(reason, false),
                                        FailPoint.fromSystemProperty(),
                                        ui -> context.err.println("Flink web UI: " + ui));
            } catch (CannotReadDeadletters e) {
                throw new UsageException(e.getMessage());
            }
            if (json) {
                ObjectNode doc = new ObjectMapper().createObjectNode();
                doc.put("replayed", done.replayed());
                doc.put("loaded", done.loaded());
                doc.put("failed_again", done.failedAgain());
                doc.put("not_replayable", done.notReplayable());
                context.out.println(doc.toString());
                return Skipprd.OK;
            }
            if (done.notReplayable() > 0) {
                context.err.println(
                        done.notReplayable()
                                + " deadletters hold the text a source could not decode, not a"
                                + " row: correct the source and sync it again to read them");
            }
            if (done.replayed() == 0) {
                context.out.println("No deadletters of pipeline " + pipeline + " to replay");
                return Skipprd.OK;
            }
            context.out.println(
                    "Replayed "
                            + done.replayed()
                            + " deadletters of pipeline "
                            + pipeline
                            + ": "
                            + done.loaded()
                            + " loaded, "
                            + done.failedAgain()
                            + " failed again");
            return Skipprd.OK;
        }
    }

    /** {@code --since}: a date, an instant, or a span back from now. */
    static Instant since(String text) {
        if (text == null) {
            return null;
        }
        String t = text.trim();
        try {
            if (t.matches("\\d+[smhd]")) {
                long n = Long.parseLong(t.substring(0, t.length() - 1));
                Duration span =
                        switch (t.charAt(t.length() - 1)) {
                            case 's' -> Duration.ofSeconds(n);
                            case 'm' -> Duration.ofMinutes(n);
                            case 'h' -> Duration.ofHours(n);
                            default -> Duration.ofDays(n);
                        };
                return Instant.now().minus(span);
            }
            if (t.length() == 10) {
                return LocalDate.parse(t).atStartOfDay().toInstant(ZoneOffset.UTC);
            }
            return OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new UsageException(
                    "--since '"
                            + text
                            + "': expected a date (2026-12-01), a time with its offset"
                            + " (2026-12-01T10:00:00Z) or a span back from now (30m, 2h, 7d)");
        }
    }

    /** The summary by reason: a header, then per reason its count and first examples. */
    static String text(Deadletters.Listing listing) {
        StringBuilder out = new StringBuilder();
        int hidden = listing.total() - listing.taken().size();
        out.append(
                String.format(
                        Locale.ROOT,
                        "Pipeline %s: %d deadletters in %s",
                        listing.pipeline(),
                        listing.taken().size(),
                        listing.where()));
        if (hidden > 0) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            " (%d more replayed or not selected; --all shows replayed ones)",
                            hidden));
        }
        out.append('\n');
        for (Map.Entry<String, List<StoredDeadletter>> reason : byReason(listing).entrySet()) {
            List<StoredDeadletter> all = reason.getValue();
            out.append(String.format(Locale.ROOT, "%6d  %s%n", all.size(), reason.getKey()));
            for (StoredDeadletter d : all.subList(0, Math.min(EXAMPLES, all.size()))) {
                out.append("        ")
                        .append(d.stream())
                        .append(" at ")
                        .append(d.originalPosition());
                if (d.replayOf() != null) {
                    out.append(" (failed again when deadletter ")
                            .append(d.replayOf())
                            .append(" was replayed)");
                }
                if (listing.replayed().contains(d.id())) {
                    out.append(" (replayed)");
                }
                out.append('\n');
            }
            if (all.size() > EXAMPLES) {
                out.append(
                        String.format(Locale.ROOT, "        and %d more%n", all.size() - EXAMPLES));
            }
        }
        return out.toString();
    }

    private static Map<String, List<StoredDeadletter>> byReason(Deadletters.Listing listing) {
        Map<String, List<StoredDeadletter>> groups = new LinkedHashMap<>();
        for (StoredDeadletter d : listing.taken()) {
            groups.computeIfAbsent(d.stage() + "  " + d.reason(), k -> new ArrayList<>()).add(d);
        }
        List<Map.Entry<String, List<StoredDeadletter>>> sorted = new ArrayList<>(groups.entrySet());
        sorted.sort(
                (a, b) ->
                        a.getValue().size() != b.getValue().size()
                                ? b.getValue().size() - a.getValue().size()
                                : a.getKey().compareTo(b.getKey()));
        Map<String, List<StoredDeadletter>> out = new LinkedHashMap<>();
        sorted.forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** Every deadletter taken, and the counts by reason, as one JSON document. */
    static String json(Deadletters.Listing listing) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode doc = mapper.createObjectNode();
        doc.put("pipeline", listing.pipeline());
        doc.put("deadletter_sink", listing.where());
        doc.put("total", listing.total());
        doc.put("selected", listing.taken().size());
        ArrayNode reasons = doc.putArray("reasons");
        for (Map.Entry<String, List<StoredDeadletter>> e : byReason(listing).entrySet()) {
            StoredDeadletter first = e.getValue().get(0);
            ObjectNode r = reasons.addObject();
            r.put("stage", first.stage());
            r.put("error_class", first.errorClass());
            r.put("error_message", first.errorMessage());
            r.put("count", e.getValue().size());
        }
        ArrayNode items = doc.putArray("deadletters");
        for (StoredDeadletter d : listing.taken()) {
            ObjectNode o = items.addObject();
            o.put("_skippr_id", d.id());
            o.put("stream", d.stream());
            o.put("stage", d.stage());
            o.put("error_class", d.errorClass());
            o.put("error_message", d.errorMessage());
            o.put("failed_at", d.failedAt() == null ? null : d.failedAt().toString());
            o.put("source_position", d.originalPosition());
            o.put("replay_of", d.replayOf());
            o.put("replayed", listing.replayed().contains(d.id()));
            o.put("payload", d.payload());
            o.put("data_run", d.dataRun());
        }
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
    }
}
