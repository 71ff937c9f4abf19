/**
 * Apache HttpClient 4.3-4.5 (classic), HttpAsyncClient 4.1 and HttpClient 5 (classic and async): exit spans and
 * W3C trace context on the HTTP client kit ({@link dev.apmagent.plugin.HttpClientExits}). The advice is a trampoline
 * into {@link dev.apmagent.plugin.apache.ApacheHttpHelper}; what reads the library's own types lives in
 * {@code helper4} and {@code helper5}, defined next to the application's library by
 * {@link dev.apmagent.plugin.LibraryHelper}. Nothing here may reference an Apache type outside advice and those two
 * packages.
 */
package dev.apmagent.plugin.apache;
