package com.dslplatform.json;

/**
 * Creates a DSL-JSON {@link JsonWriter} without a {@link DslJson} instance.
 *
 * <p>The agent writes JSON through {@code JsonWriter}'s byte-level primitives only ({@code JsonHelper} escapes
 * strings itself); it never serializes objects through converters. {@code new DslJson()} registers every built-in
 * converter anyway: 170 classes and 80 lambdas spun at start-up, 110 ms of {@code premain} on one core
 * (docs/benchmarks.md). The writer's
 * constructor is package-private, hence this one class in DSL-JSON's package (the shading relocates both together,
 * and DSL-JSON's jar is neither sealed nor a module). Without an {@code UnknownSerializer}, a call that would need a
 * converter fails instead of guessing; the agent makes none.
 */
public final class BareJsonWriter {

    private BareJsonWriter() {
    }

    public static JsonWriter create(int initialBufferSize) {
        return new JsonWriter(initialBufferSize, null);
    }
}
