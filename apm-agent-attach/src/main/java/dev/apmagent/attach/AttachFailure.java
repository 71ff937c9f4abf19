package dev.apmagent.attach;

/** Why a JVM could not be attached to: the exit code the failure maps to and a message that says what to do. */
final class AttachFailure extends Exception {

    private static final long serialVersionUID = 1L;

    final ExitCode exitCode;

    AttachFailure(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    AttachFailure(ExitCode exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }
}
