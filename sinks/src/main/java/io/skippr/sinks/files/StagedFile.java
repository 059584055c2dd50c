package io.skippr.sinks.files;

/**
 * A complete file staged in its {@link FileStore}, to be published under its key when its
 * checkpoint completes (or, in a bounded run, when all input is written). Committing it twice is
 * harmless: the store publishes a staged file once.
 *
 * <p>A bounded run's writer also hands on one empty marker (no paths, no rows) per subtask, so the
 * commit log can tell a complete run from one that died half committed.
 *
 * @param key where the file is published, relative to the store's root
 * @param token the store's handle on the staged bytes ({@link FileStore.Staged#token})
 * @param run the sink's run number: one per job start
 * @param bounded whether the run is a bounded ({@code --once}) run
 * @param subtask the writer subtask that wrote it
 * @param parallelism how many writer subtasks the run has
 * @param cursor the highest cursor value in the file, as text, or null
 * @param cursorType the cursor column's type kind, or null
 */
public record StagedFile(
        String stream,
        String key,
        String token,
        long rows,
        long run,
        boolean bounded,
        int subtask,
        int parallelism,
        String cursor,
        String cursorType) {

    /** The end-of-run marker of a bounded run's subtask. */
    public static StagedFile marker(String stream, long run, int subtask, int parallelism) {
        return new StagedFile(stream, "", "", 0, run, true, subtask, parallelism, null, null);
    }

    /** An end-of-run marker that carries the read position of one stream of the subtask's input. */
    public static StagedFile marker(
            String stream, long run, int subtask, int parallelism, String readPosition) {
        return positioned(stream, run, true, subtask, parallelism, readPosition);
    }

    /**
     * A continuous run's marker: the read position of one stream of the rows the subtask wrote in
     * this checkpoint, committed with them.
     */
    public static StagedFile position(
            String stream, long run, int subtask, int parallelism, String readPosition) {
        return positioned(stream, run, false, subtask, parallelism, readPosition);
    }

    private static StagedFile positioned(
            String stream,
            long run,
            boolean bounded,
            int subtask,
            int parallelism,
            String readPosition) {
        return new StagedFile(
                stream,
                "",
                "",
                0,
                run,
                bounded,
                subtask,
                parallelism,
                readPosition,
                io.skippr.core.record.CommittedPosition.READ);
    }

    public boolean isMarker() {
        return key.isEmpty();
    }

    public FileStore.Staged staged() {
        return new FileStore.Staged(key, token);
    }
}
