package dev.apmagent.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AgentArgumentsTest {

    /** Arguments -> the pairs found, written "key=value" and joined by " | "; then the number of warnings. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '#', value = {
            "service_name=x                                        # service_name=x                                      # 0",
            "service_name=x,environment=prod                       # service_name=x | environment=prod                   # 0",
            "disable_instrumentations=jdbc,servlet,service_name=x  # disable_instrumentations=jdbc,servlet | service_name=x # 0",
            "disable_instrumentations=jdbc, servlet , service_name = x # disable_instrumentations=jdbc, servlet | service_name=x # 0",
            "transaction_ignore_urls=/a,/b*,*.js                   # transaction_ignore_urls=/a,/b*,*.js                 # 0",
            "disable_instrumentations=jdbc,servlet;service_name=x  # disable_instrumentations=jdbc,servlet | service_name=x # 0",
            "global_labels=a=1,b=2                                 # global_labels=a=1 | b=2                             # 0",
            "global_labels=a=1,b=2;service_name=x                  # global_labels=a=1,b=2 | service_name=x              # 0",
            "server_url=http://h:8200/?a=b,c                       # server_url=http://h:8200/?a=b,c                     # 0",
            "secret_token=ab=cd==                                  # secret_token=ab=cd==                                # 0",
            "SERVICE_NAME=x                                        # service_name=x                                      # 0",
            "service_name=                                         # service_name=                                       # 0",
            "a=1,,b=2                                              # a=1, | b=2                                          # 0",
            "a=1;;b=2;                                             # a=1 | b=2                                           # 0",
            "justtext                                              # ''                                                  # 1",
            "justtext,service_name=x                               # service_name=x                                      # 1",
            "=x;service_name=y                                     # service_name=y                                      # 1",
            "9key=x;k=v                                            # k=v                                                 # 1",
            "'  '                                                  # ''                                                  # 0",
            "list=a,b c=d                                          # list=a,b c=d                                        # 0",
    })
    void splitsPairs(String args, String expected, int warningCount) {
        List<String> warnings = new ArrayList<>();
        List<String> found = new ArrayList<>();
        for (AgentArguments.Pair pair : AgentArguments.parse(args, warnings)) {
            found.add(pair.toString());
        }
        assertEquals(expected == null ? "" : expected, String.join(" | ", found));
        assertEquals(warningCount, warnings.size(), warnings.toString());
    }
}
