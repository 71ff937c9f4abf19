package dev.apmagent.it.containers;

/** The container scenarios on embedded Undertow 2.3 (jakarta.servlet). */
class Undertow23JakartaIT extends AbstractContainerIT {

    Undertow23JakartaIT() {
        super("undertow", "dev.apmagent.it.containers.launch.UndertowContainer", "jakarta");
    }
}
