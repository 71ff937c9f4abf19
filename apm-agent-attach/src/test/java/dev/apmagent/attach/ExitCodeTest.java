package dev.apmagent.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static dev.apmagent.attach.ExitCode.ALREADY_ATTACHED;
import static dev.apmagent.attach.ExitCode.NO_SUCH_PROCESS;
import static dev.apmagent.attach.ExitCode.OK;
import static dev.apmagent.attach.ExitCode.OTHER_USER;
import static dev.apmagent.attach.ExitCode.SEVERAL_FAILURES;
import static org.assertj.core.api.Assertions.assertThat;

class ExitCodeTest {

    static Stream<Arguments> combinations() {
        return Stream.of(
                Arguments.of(Arrays.asList(), OK),
                Arguments.of(Arrays.asList(OK), OK),
                Arguments.of(Arrays.asList(OK, OK), OK),
                Arguments.of(Arrays.asList(OTHER_USER), OTHER_USER),
                Arguments.of(Arrays.asList(OK, OTHER_USER, OK), OTHER_USER),
                Arguments.of(Arrays.asList(OTHER_USER, OK, OTHER_USER), OTHER_USER),
                Arguments.of(Arrays.asList(NO_SUCH_PROCESS, ALREADY_ATTACHED), SEVERAL_FAILURES),
                Arguments.of(Arrays.asList(OK, NO_SUCH_PROCESS, OK, ALREADY_ATTACHED), SEVERAL_FAILURES));
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @MethodSource("combinations")
    void severalTargets(List<ExitCode> outcomes, ExitCode expected) {
        assertThat(ExitCode.combine(outcomes)).isEqualTo(expected);
    }

    @Test
    void codesAreDistinctAndSmall() {
        Set<Integer> codes = new HashSet<>();
        List<Integer> all = new ArrayList<>();
        for (ExitCode code : ExitCode.values()) {
            codes.add(code.code());
            all.add(code.code());
            assertThat(code.meaning()).isNotBlank();
        }
        assertThat(codes).hasSize(ExitCode.values().length);
        assertThat(all).allMatch(code -> code >= 0 && code < 64);
        assertThat(OK.code()).isZero();
        assertThat(ExitCode.USAGE.code()).isEqualTo(2);
    }
}
