package dev.apmagent.it.containers;

/** The container scenarios on embedded Jetty 12, ee10 (jakarta.servlet). */
class Jetty12JakartaIT extends AbstractContainerIT {

    Jetty12JakartaIT() {
        super("jetty12", "dev.apmagent.it.containers.launch.Jetty12Container", "jakarta");
    }
}
