package dev.apmagent.trace;

import dev.apmagent.config.WildcardMatcherList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The one rule for secrets in URLs, with the default {@code sanitize_field_names}. */
class UrlSanitizerTest {

    private static final UrlSanitizer DEFAULTS = UrlSanitizer.defaults();

    @ParameterizedTest(name = "?{0} -> ?{1}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "password=hunter2&id=1                 | password=[REDACTED]&id=1",
            "id=1&password=hunter2                 | id=1&password=[REDACTED]",
            "PassWord=hunter2                      | PassWord=[REDACTED]",
            "password                              | password",
            "password=                             | password=[REDACTED]",
            "password=a&password=b&password        | password=[REDACTED]&password=[REDACTED]&password",
            "pass%77ord=x&pass%7word=y             | pass%77ord=[REDACTED]&pass%7word=y",
            "api+key=x&api%20key=y                 | api+key=[REDACTED]&api%20key=[REDACTED]",
            "access_token=abc&state=1#frag         | access_token=[REDACTED]&state=1#frag",
            "q=1#access_token=abc&x=2              | q=1#access_token=[REDACTED]&x=2",
            "a=1;password=x                        | a=1;password=x",
            "password=a=b&x=1                      | password=[REDACTED]&x=1",
            "=x&&&password=y&                      | =x&&&password=[REDACTED]&",
            "q=password%3Dx                        | q=password%3Dx",
            "session_id=1&jsessionid=2&sess=3      | session_id=[REDACTED]&jsessionid=[REDACTED]&sess=3",
            "p%C3%A4ssword=x&my%E2%82%ACkey=y      | p%C3%A4ssword=x&my%E2%82%ACkey=[REDACTED]",
            "''                                    | ''",
            "null                                  | null",
    })
    void queryParameterValuesOfSensitiveNamesAreRedacted(String query, String expected) {
        assertEquals(expected, string(DEFAULTS.query(query, new StringBuilder(), new StringBuilder())));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "/hello;jsessionid=ABC123              | /hello;jsessionid=[REDACTED]",
            "/a;jsessionid=x/b                     | /a;jsessionid=[REDACTED]/b",
            "/a;v=1;token=t;w=2/b;secret=s         | /a;v=1;token=[REDACTED];w=2/b;secret=[REDACTED]",
            "/a;secret/b                           | /a;secret/b",
            "/a;;/b;                               | /a;;/b;",
            "/a;x=1/b                              | /a;x=1/b",
            "/users/1                              | /users/1",
            "/p;password=                          | /p;password=[REDACTED]",
            "/p;pass%77ord=x                       | /p;pass%77ord=[REDACTED]",
    })
    void pathParameterValuesOfSensitiveNamesAreRedacted(String path, String expected) {
        assertEquals(expected, string(DEFAULTS.path(path, new StringBuilder(), new StringBuilder())));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "http://example.com/a?password=x&q=1                 | http://example.com/a?password=[REDACTED]&q=1",
            "https://user:pass@example.com:8443/a;jsessionid=x    | https://[REDACTED]@example.com:8443/a;jsessionid=[REDACTED]",
            "https://ghp_token@github.com/x                       | https://[REDACTED]@github.com/x",
            "http://a@b@example.com/?q=1                          | http://[REDACTED]@example.com/?q=1",
            "http://example.com/p?q=1#access_token=t              | http://example.com/p?q=1#access_token=[REDACTED]",
            "http://example.com#secret=s                          | http://example.com#secret=[REDACTED]",
            "http://example.com/a@b?x=1                           | http://example.com/a@b?x=1",
            "/relative;token=t?password=p                         | /relative;token=[REDACTED]?password=[REDACTED]",
            "mailto:user@example.com                              | mailto:user@example.com",
            "http://example.com/search?q=1                        | http://example.com/search?q=1",
    })
    void fullUrls(String url, String expected) {
        assertEquals(expected, string(DEFAULTS.url(url, new StringBuilder(), new StringBuilder())));
    }

    @Test
    void nothingToRedactGivesTheInputItself() {
        String query = "q=1&page=2";
        String path = "/a;v=1/b";
        String url = "http://example.com/a;v=1?q=1";
        StringBuilder out = new StringBuilder();
        assertSame(query, DEFAULTS.query(query, out, new StringBuilder()));
        assertSame(path, DEFAULTS.path(path, out, new StringBuilder()));
        assertSame(url, DEFAULTS.url(url, out, new StringBuilder()));
        assertNull(DEFAULTS.url(null, out, new StringBuilder()));
    }

    @Test
    void anEmptyListRedactsOnlyUserInfo() {
        UrlSanitizer none = new UrlSanitizer(WildcardMatcherList.EMPTY);
        String query = "password=x";
        assertSame(query, none.query(query, new StringBuilder(), new StringBuilder()));
        assertEquals("http://[REDACTED]@h/?password=x", none.url("http://u:p@h/?password=x", new StringBuilder(), new StringBuilder()).toString());
    }

    @Test
    void customNames() {
        UrlSanitizer custom = new UrlSanitizer(WildcardMatcherList.of("(?-i)Code", "otp*"));
        assertEquals("Code=[REDACTED]&code=1&otp_2=[REDACTED]", custom.query("Code=9&code=1&otp_2=3", new StringBuilder(), new StringBuilder()).toString());
    }

    @Test
    void theUrlModelReadsSanitizedPartsAndFull() {
        Url url = new Url(DEFAULTS);
        url.set("http", "example.com", 8080, "/a;jsessionid=s1/b", "password=hunter2&id=1");
        assertEquals("/a;jsessionid=[REDACTED]/b", url.pathname().toString());
        assertEquals("password=[REDACTED]&id=1", url.search().toString());
        assertEquals("http://example.com:8080/a;jsessionid=[REDACTED]/b?password=[REDACTED]&id=1", url.full().toString());
        url.set("http", "example.com", 80, "/x", "id=2");
        assertEquals("/x", url.pathname().toString());
        assertEquals("http://example.com/x?id=2", url.full().toString());

        Http http = new Http(DEFAULTS);
        http.setUrl("http://u:p@example.com/?token=t");
        assertEquals("http://[REDACTED]@example.com/?token=[REDACTED]", http.url().toString());
        http.setUrl("http://example.com/");
        assertEquals("http://example.com/", http.url().toString());
    }

    @Test
    void aLongMethodIsCut() {
        Request request = new Request();
        request.setMethod("GET");
        assertEquals("GET", request.method().toString());
        StringBuilder longMethod = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            longMethod.append('X');
        }
        request.setMethod(longMethod);
        assertEquals(Request.MAX_METHOD_LENGTH, request.method().length());
    }

    /**
     * Reading a URL allocates nothing once its builders have grown, whether or not something is redacted (the reporter
     * thread reads every transaction's URL; the application thread only stores references).
     */
    @Test
    void readingIsAllocationFreeAfterWarmUp() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        threads.setThreadAllocatedMemoryEnabled(true);
        Url url = new Url(DEFAULTS);
        Http http = new Http(DEFAULTS);
        String[] paths = {"/a;jsessionid=s1/b", "/plain"};
        String[] queries = {"password=hunter2&id=1&pass%77ord=x", "q=1&page=2"};
        long sink = 0;
        for (int i = 0; i < 20_000; i++) {
            sink += read(url, http, paths[i & 1], queries[i & 1]);
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 10_000; i++) {
            sink += read(url, http, paths[i & 1], queries[i & 1]);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertEquals(0, allocated, "bytes allocated by 10,000 reads (" + sink + ")");
    }

    private static long read(Url url, Http http, String path, String query) {
        url.set("https", "example.com", 443, path, query);
        http.setUrl(path);
        return url.full().length() + url.search().length() + url.pathname().length() + http.url().length();
    }

    private static String string(CharSequence s) {
        return s == null ? null : s.toString();
    }
}
