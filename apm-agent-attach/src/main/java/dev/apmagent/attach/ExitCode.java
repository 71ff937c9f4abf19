package dev.apmagent.attach;

import java.util.List;

/**
 * Exit codes of the attach command. Each failure a user can act on has its own code; a run over several targets
 * exits with the code of their failure when they all failed alike, and with {@link #SEVERAL_FAILURES} otherwise.
 */
public enum ExitCode {

    OK(0, "success: every selected JVM has the agent now (or --list/--help ran)"),
    ATTACH_FAILED(1, "attaching failed for another reason (the agent failed to load or to initialize, I/O error)"),
    USAGE(2, "invalid command line"),
    NO_SUCH_PROCESS(3, "no process with that pid"),
    NOT_A_JVM(4, "the process is not a JVM (or not one the Attach API can reach)"),
    OTHER_USER(5, "the JVM belongs to another user: run the command as that user"),
    ATTACH_DISABLED(6, "the JVM refuses attaching (-XX:+DisableAttachMechanism, -Xrs, or it does not answer)"),
    ALREADY_ATTACHED(7, "the agent already runs in the JVM; nothing was done"),
    UNSUPPORTED_JAVA(8, "the JVM's Java version is not supported (supported: " + JavaVersion.MIN_SUPPORTED + " to "
            + JavaVersion.MAX_SUPPORTED + ")"),
    NO_MATCH(9, "no running JVM matched the selection"),
    SETUP(10, "the command cannot work here: agent jar not found, no (or too old an) Attach API in this Java, files not written"),
    SEVERAL_FAILURES(11, "several targets failed for different reasons (each is reported)");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }

    /** The exit code of a run over several targets, from the code of each target ({@link #OK} for a success). */
    public static ExitCode combine(List<ExitCode> outcomes) {
        ExitCode failure = null;
        for (int i = 0; i < outcomes.size(); i++) {
            ExitCode outcome = outcomes.get(i);
            if (outcome == OK) {
                continue;
            }
            if (failure == null) {
                failure = outcome;
            } else if (failure != outcome) {
                return SEVERAL_FAILURES;
            }
        }
        return failure == null ? OK : failure;
    }
}
