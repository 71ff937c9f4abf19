package dev.apmagent.benchmark.dubbo;

/** The service {@link DubboCallBenchmark} calls over Dubbo: a small request and a small answer. */
public interface EchoService {

    /** @return {@code text} itself */
    String echo(String text);
}
