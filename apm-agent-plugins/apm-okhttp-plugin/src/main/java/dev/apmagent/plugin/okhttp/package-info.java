/**
 * The OkHttp plugin ({@code okhttp3}: OkHttp 3.x, 4.x, 5.x): an exit span per call and W3C trace context in its
 * request, built on the kit's {@link dev.apmagent.plugin.HttpClientExits}. Advice lives in
 * {@link dev.apmagent.plugin.okhttp.RealCallInstrumentation} and
 * {@link dev.apmagent.plugin.okhttp.AsyncCallInstrumentation}; all logic in
 * {@link dev.apmagent.plugin.okhttp.OkHttpHelper}; the only code that names OkHttp's types is the {@code helper}
 * sub-package, defined next to OkHttp by {@link dev.apmagent.plugin.LibraryHelper}. No thread is started and no agent
 * object is stored in OkHttp's objects (a request copy with the trace headers replaces the call's request).
 */
package dev.apmagent.plugin.okhttp;
