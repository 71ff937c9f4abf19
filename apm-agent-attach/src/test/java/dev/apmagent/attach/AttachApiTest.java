package dev.apmagent.attach;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class AttachApiTest {

    /** Stands in for com.sun.tools.attach.AttachNotSupportedException, which the mapping recognises by name. */
    static final class AttachNotSupportedException extends Exception {
        AttachNotSupportedException(String message) {
            super(message);
        }
    }

    static Stream<Arguments> failures() {
        String noAnswer = "Unable to open socket file /proc/9/root/tmp/.java_pid9: target process 9 doesn't respond within 10500ms or HotSpot VM not loaded";
        return Stream.of(
                Arguments.of(new IOException("No such process"), true, ExitCode.NO_SUCH_PROCESS),
                Arguments.of(new IOException("Permission denied"), true, ExitCode.OTHER_USER),
                Arguments.of(new IOException("well-known file /tmp/.java_pid9 is not secure: file should be owned by the current user"), true, ExitCode.OTHER_USER),
                Arguments.of(new AttachNotSupportedException(noAnswer), true, ExitCode.ATTACH_DISABLED),
                Arguments.of(new AttachNotSupportedException(noAnswer), false, ExitCode.NOT_A_JVM),
                Arguments.of(new IOException("Connection reset"), true, ExitCode.ATTACH_FAILED));
    }

    @ParameterizedTest(name = "[{index}] {0} (known JVM: {1})")
    @MethodSource("failures")
    void attachFailuresMapToTheirCause(Throwable cause, boolean knownJvm, ExitCode expected) {
        AttachFailure failure = AttachApi.mapAttachFailure(9, knownJvm, cause);
        assertThat(failure.exitCode).isEqualTo(expected);
        assertThat(failure.getMessage()).contains("9");
        assertThat(failure.getCause()).isSameAs(cause);
    }
}
