package dev.apmagent.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UrlUserInfoTest {

    @ParameterizedTest(name = "''{0}''")
    @CsvSource(delimiter = '|', value = {
            "http://user:pw@apm:8200                    | http://[REDACTED]@apm:8200",
            "https://token@apm.example.com/prefix?a=b@c | https://[REDACTED]@apm.example.com/prefix?a=b@c",
            "-Delastic.apm.server_url=http://u:p@h:1    | -Delastic.apm.server_url=http://[REDACTED]@h:1",
            "cannot connect to http://a:b@h: refused    | cannot connect to http://[REDACTED]@h: refused",
            "http://u:p@a,http://v:q@b                  | http://[REDACTED]@a,http://[REDACTED]@b",
            "http://p@ss:w@rd@host/x                    | http://[REDACTED]@host/x",
            "http://apm:8200                            | http://apm:8200",
            "mail me@example.com                        | mail me@example.com",
            "''                                         | ''",
    })
    void redactsTheUserInformationOfEveryUrl(String text, String expected) {
        assertEquals(expected, UrlUserInfo.redact(text));
    }

    @org.junit.jupiter.api.Test
    void findsTheUserInformationToMask() {
        assertEquals(Arrays.asList("u:p", "v"), UrlUserInfo.find("x=http://u:p@a/z,y=https://v@b"));
        assertEquals(Collections.emptyList(), UrlUserInfo.find("http://a/@b"));
    }
}
