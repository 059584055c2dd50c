package io.skippr.sinks.files;

/**
 * A complete file written under a temporary name, to be renamed to its final name when its
 * checkpoint completes (or, in a bounded run, when all input is written). Committing it twice is
 * harmless: the second rename finds the final file and no temporary one.
 *
 * @param run the sink's run number: one per job start
 * @param bounded whether the run is a bounded ({@code --once}) run
 * @param cursor the highest cursor value in the file, as text, or null
 * @param cursorType the cursor column's type kind, or null
 */
public record StagedFile(
        String stream,
        String tempPath,
        String finalPath,
        long rows,
        long run,
        boolean bounded,
        String cursor,
        String cursorType) {}
