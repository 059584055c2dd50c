package io.skippr.sinks.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The temporary-name publish on a store of names in memory, where a name holds a file's identity
 * (two names of one file, as after a hard link, hold the same one): the ordinary publish, the
 * replays, and the races the store contract cannot stage.
 */
class TemporaryNamePublishTest {
    private static final String TEMP = ".skippr-staging/t/1";
    private static final String TARGET = "t/a.jsonl";
    private static final FileStore.Staged STAGED = new FileStore.Staged("t/a.jsonl", TEMP);

    private final Map<String, Object> names = new HashMap<>();
    private final List<String> durable = new ArrayList<>();

    /** Runs just before the store names the staged file: another process's work in the race. */
    private Runnable beforeNaming = () -> {};

    private final TemporaryNamePublish publish =
            new TemporaryNamePublish("mem://root") {
                @Override
                protected boolean isStaged(String temp) {
                    return names.containsKey(temp);
                }

                @Override
                protected boolean nameCreateOnly(String temp, String target) {
                    beforeNaming.run();
                    if (names.containsKey(target) || !names.containsKey(temp)) {
                        return false;
                    }
                    names.put(target, names.remove(temp));
                    return true;
                }

                @Override
                protected Occupant occupant(String temp, String target, boolean staged) {
                    if (!names.containsKey(target)) {
                        return Occupant.NOTHING;
                    }
                    return !staged || names.get(temp) == names.get(target)
                            ? Occupant.STAGED_FILE
                            : Occupant.OTHER_FILE;
                }

                @Override
                protected void removeStaged(String temp) {
                    names.remove(temp);
                }

                @Override
                protected void durable(String target) {
                    durable.add(target);
                }

                @Override
                protected String about(String target) {
                    return " (file " + names.get(target) + ")";
                }
            };

    @Test
    void aStagedFileGetsItsNameDurably() throws IOException {
        names.put(TEMP, "ours");

        assertThat(publish.publish(STAGED, TARGET)).isTrue();
        assertThat(names).containsOnly(Map.entry(TARGET, "ours"));
        assertThat(durable).containsExactly(TARGET);
    }

    @Test
    void aReplayStoppedBetweenNamingAndRemovalRemovesTheStagedNameAndAnswersFalse()
            throws IOException {
        Object file = new Object();
        names.put(TEMP, file);
        names.put(TARGET, file); // the first attempt's link

        assertThat(publish.publish(STAGED, TARGET)).isFalse();
        assertThat(names).containsOnlyKeys(TARGET);
        assertThat(durable).containsExactly(TARGET);
    }

    @Test
    void aReplayOfAFinishedPublishChangesNothing() throws IOException {
        names.put(TARGET, "ours");

        assertThat(publish.publish(STAGED, TARGET)).isFalse();
        assertThat(names).containsOnly(Map.entry(TARGET, "ours"));
        assertThat(durable).isEmpty();
    }

    @Test
    void anotherFileUnderTheNameIsRefusedAndBothStay() {
        names.put(TEMP, "ours");
        names.put(TARGET, "theirs");

        assertThatThrownBy(() -> publish.publish(STAGED, TARGET))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "refusing to publish t/a.jsonl: it already holds a committed file (file"
                                + " theirs) that is not the staged file .skippr-staging/t/1, and a"
                                + " publish never replaces a committed file. A file name was used"
                                + " twice, or something else wrote into the sink's folder; the file"
                                + " is left as it is");
        assertThat(names).containsOnly(Map.entry(TEMP, "ours"), Map.entry(TARGET, "theirs"));
    }

    @Test
    void aFileThatTakesTheNameJustBeforeTheNamingIsNeverReplaced() {
        names.put(TEMP, "ours");
        beforeNaming = () -> names.put(TARGET, "theirs");

        assertThatThrownBy(() -> publish.publish(STAGED, TARGET))
                .hasMessageContaining("refusing to publish t/a.jsonl")
                .hasMessageContaining("never replaces a committed file");
        assertThat(names).containsEntry(TARGET, "theirs").containsEntry(TEMP, "ours");
    }

    @Test
    void aConcurrentReplayThatNamedTheFileFirstLeavesThisOneAFalse() throws IOException {
        names.put(TEMP, "ours");
        beforeNaming = () -> names.put(TARGET, names.remove(TEMP));

        assertThat(publish.publish(STAGED, TARGET)).isFalse();
        assertThat(names).containsOnly(Map.entry(TARGET, "ours"));
    }

    @Test
    void aStagedFileGoneAndNeverPublishedFailsNamingTheKeyAndTheStore() {
        assertThatThrownBy(() -> publish.publish(STAGED, TARGET))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "staged file .skippr-staging/t/1 is gone and t/a.jsonl was never published"
                                + " in mem://root: the sink's folder was changed while the pipeline"
                                + " ran");
    }

    @Test
    void aNameRefusedAsTakenThatThenHoldsNothingFails() {
        names.put(TEMP, "ours");
        names.put(TARGET, "theirs");
        beforeNaming = () -> names.remove(TARGET);
        TemporaryNamePublish refusing =
                new TemporaryNamePublish("mem://root") {
                    @Override
                    protected boolean isStaged(String temp) {
                        return names.containsKey(temp);
                    }

                    @Override
                    protected boolean nameCreateOnly(String temp, String target) {
                        beforeNaming.run(); // refused while the other file was there
                        return false;
                    }

                    @Override
                    protected Occupant occupant(String temp, String target, boolean staged) {
                        return names.containsKey(target) ? Occupant.OTHER_FILE : Occupant.NOTHING;
                    }

                    @Override
                    protected void removeStaged(String temp) {
                        names.remove(temp);
                    }
                };

        assertThatThrownBy(() -> refusing.publish(STAGED, TARGET))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "t/a.jsonl refused the publish as existing, then was gone: something else"
                                + " writes under mem://root");
        assertThat(names).containsOnly(Map.entry(TEMP, "ours"));
    }
}
