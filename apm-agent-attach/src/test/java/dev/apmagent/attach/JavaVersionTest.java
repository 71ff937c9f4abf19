package dev.apmagent.attach;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class JavaVersionTest {

    @ParameterizedTest
    @CsvSource({
            "1.6, 6, false",
            "1.7, 7, false",
            "1.8, 8, true",
            "9, 9, true",
            "11, 11, true",
            "17, 17, true",
            "21, 21, true",
            "25, 25, true",
            "26, 26, false",
            "17.0.2, 17, true",
            "' 21 ', 21, true",
            "abc, -1, false",
            "'', -1, false",
            "1.x, -1, false",
    })
    void featureVersionAndSupport(String specificationVersion, int feature, boolean supported) {
        assertThat(JavaVersion.feature(specificationVersion)).isEqualTo(feature);
        assertThat(JavaVersion.isSupported(JavaVersion.feature(specificationVersion))).isEqualTo(supported);
    }

    @ParameterizedTest
    @CsvSource({"8", "25"})
    void boundsAreSupported(int feature) {
        assertThat(JavaVersion.isSupported(feature)).isTrue();
        assertThat(JavaVersion.feature(null)).isEqualTo(-1);
    }
}
