package dev.apmagent.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EndpointTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "http://localhost:8200, localhost, 8200, false, /intake/v2/events, true",
        "https://apm.example.com, apm.example.com, 443, true, /intake/v2/events, false",
        "http://apm.example.com, apm.example.com, 80, false, /intake/v2/events, false",
        "https://apm.example.com:8443/prefix/, apm.example.com, 8443, true, /prefix/intake/v2/events, false",
        "HTTP://127.0.0.1:8200, 127.0.0.1, 8200, false, /intake/v2/events, true",
        "'  http://[::1]:8200  ', [::1], 8200, false, /intake/v2/events, true"})
    void parsesServerUrls(String url, String host, int port, boolean tls, String path, boolean loopback) {
        IntakeConnection.Endpoint e = IntakeConnection.Endpoint.parse(url, "/intake/v2/events");
        assertEquals(host, e.host);
        assertEquals(port, e.port);
        assertEquals(tls, e.tls);
        assertEquals(path, e.path);
        assertEquals(loopback, e.isLoopback());
    }

    @Test
    void rejectsUrlsItCannotUse() {
        assertThrows(IllegalArgumentException.class, () -> IntakeConnection.Endpoint.parse("ftp://x", "/i"));
        assertThrows(IllegalArgumentException.class, () -> IntakeConnection.Endpoint.parse("localhost:8200", "/i"));
        assertThrows(IllegalArgumentException.class, () -> IntakeConnection.Endpoint.parse("http://", "/i"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IntakeConnection.Endpoint.parse("http://user:pw@apm:99999", "/i"));
        assertEquals("server URL's port is out of range (1 to 65535): http://[REDACTED]@apm:99999", e.getMessage());
    }

    /** What log lines show of an endpoint never holds its credentials. */
    @Test
    void userInformationIsNotShown() {
        IntakeConnection.Endpoint e = IntakeConnection.Endpoint.parse("http://user:pw@apm.example.com:8200/p", "/i");
        assertEquals("http://[REDACTED]@apm.example.com:8200/p", e.toString());
        assertEquals("apm.example.com", e.host);
        assertEquals(8200, e.port);
    }
}
