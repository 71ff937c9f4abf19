/**
 * The one class that defines the bootstrap bridge in the bootstrap loader on Java 9+ ({@link
 * dev.apmagent.instrument.injector.BootstrapInjector}); it runs only inside a module layer of its own and refers to JDK
 * types only.
 */
package dev.apmagent.instrument.injector;
