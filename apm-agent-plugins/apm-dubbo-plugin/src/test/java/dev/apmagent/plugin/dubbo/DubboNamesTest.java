package dev.apmagent.plugin.dubbo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import static org.assertj.core.api.Assertions.assertThat;

class DubboNamesTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(nullValues = "null", value = {
            "com.shop.OrderService,       place,   OrderService#place",
            "OrderService,                place,   OrderService#place",
            "com.shop.Outer$Api,          get,     Api#get",
            "null,                        place,   unknown#place",
            "'',                          place,   unknown#place",
            "com.shop.OrderService,       null,    OrderService#unknown",
            "com.shop.,                   place,   com.shop.#place",
            "group/com.shop.OrderService, place,   OrderService#place",
    })
    void namesAreSimpleInterfaceHashMethod(String serviceInterface, String method, String expected) {
        assertThat(DubboNames.appendName(new StringBuilder(), serviceInterface, method).toString()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource(nullValues = "null", value = {
            "$invoke,      greet,   greet",
            "$invokeAsync, greet,   greet",
            "$invoke,      '',      $invoke",
            "$invoke,      null,    $invoke",
            "greet,        other,   greet",
            "$echo,        x,       $echo",
    })
    void genericInvocationsAreNamedByTheRealMethod(String method, String firstArgument, String expected) {
        Object[] arguments = {firstArgument, new String[]{"java.lang.String"}, new Object[]{"x"}};
        assertThat(DubboNames.realMethod(method, arguments)).isEqualTo(expected);
    }

    @Test
    void genericInvocationWithUnexpectedArgumentsKeepsItsOwnName() {
        assertThat(DubboNames.realMethod("$invoke", null)).isEqualTo("$invoke");
        assertThat(DubboNames.realMethod("$invoke", new Object[]{"greet"})).isEqualTo("$invoke");
        assertThat(DubboNames.realMethod("$invoke", new Object[]{42, null, null})).isEqualTo("$invoke");
    }

    @ParameterizedTest(name = "{0} declared={1} -> {2}")
    @CsvSource(nullValues = "null", value = {
            "greet,               true,  greet",
            "madeUpMethodNumber7, false, <other>",
            "$invoke,             false, $invoke",
            "$invokeAsync,        false, $invokeAsync",
            "$echo,               false, $echo",
            "null,                false, null",
    })
    void aProviderNamesOnlyMethodsItsInterfaceHas(String method, boolean declared, String expected) {
        assertThat(DubboNames.providerMethod(method, declared)).isEqualTo(expected);
    }

    @Test
    void results() {
        assertThat(DubboNames.result(null, false)).isEqualTo("OK");
        assertThat(DubboNames.result(new IllegalStateException(), false)).isEqualTo("Error");
        assertThat(DubboNames.result(new IllegalStateException(), true)).isEqualTo("Timeout");
    }

    @Test
    void futureWrappersAreUnwrapped() {
        IllegalStateException cause = new IllegalStateException("x");
        assertThat(DubboHelper.unwrap(new CompletionException(new ExecutionException(cause)))).isSameAs(cause);
        assertThat(DubboHelper.unwrap(cause)).isSameAs(cause);
        assertThat(DubboHelper.unwrap(null)).isNull();
        CompletionException bare = new CompletionException("no cause", null);
        assertThat(DubboHelper.unwrap(bare)).isSameAs(bare);
    }

    @Test
    void targetFollowsTheSharedInferenceRules() {
        assertThat(DubboHelper.TARGET_TYPE).isEqualTo("dubbo");
        assertThat(DubboHelper.SERVICE_RESOURCE).isEqualTo("dubbo");
    }
}
