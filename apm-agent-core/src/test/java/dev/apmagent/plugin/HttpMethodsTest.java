package dev.apmagent.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class HttpMethodsTest {

    @ParameterizedTest(name = "{0} -> {1} / {2}")
    @CsvSource(nullValues = "null", value = {
            "GET,      GET,     Get",
            "HEAD,     HEAD,    Head",
            "POST,     POST,    Post",
            "PUT,      PUT,     Put",
            "DELETE,   DELETE,  Delete",
            "OPTIONS,  OPTIONS, Options",
            "TRACE,    TRACE,   Trace",
            "PATCH,    PATCH,   Patch",
            "CONNECT,  CONNECT, Connect",
            "get,      OTHER,   Other",
            "AMZXQZEQ, OTHER,   Other",
            "PROPFIND, OTHER,   Other",
            "GETX,     OTHER,   Other",
            "GE,       OTHER,   Other",
            "'',       OTHER,   Other",
            "null,     null,    Other",
    })
    void standardMethodsByNameEverythingElseOneBucket(String method, String forName, String capitalized) {
        assertEquals(forName, HttpMethods.forName(method));
        assertEquals(capitalized, HttpMethods.capitalized(method));
    }

    @Test
    void aHugeMethodIsTheBucket() {
        StringBuilder huge = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            huge.append('G');
        }
        assertSame(HttpMethods.OTHER, HttpMethods.forName(huge));
        assertSame("Other", HttpMethods.capitalized(huge));
        assertNull(HttpMethods.forName(null));
    }
}
