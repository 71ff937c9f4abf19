/**
 * The JDK's HTTP clients: {@code java.net.HttpURLConnection} (HTTP and HTTPS, {@link
 * dev.apmagent.plugin.jdkhttp.UrlConnectionInstrumentation}) and {@code java.net.http.HttpClient} ({@link
 * dev.apmagent.plugin.jdkhttp.HttpClientInstrumentation}), both classes of the JDK whose advice reaches the agent
 * through the bootstrap bridge, both recorded by the kit's {@link dev.apmagent.plugin.HttpClientExits}. What is here is
 * only what these two clients need beyond the kit: how to read their requests, and when a request is over.
 */
package dev.apmagent.plugin.jdkhttp;
