package dev.apmagent.it.containers;

/** The container scenarios on embedded Jetty 9.4 (javax.servlet). */
class Jetty9JavaxIT extends AbstractContainerIT {

    Jetty9JavaxIT() {
        super("jetty9", "dev.apmagent.it.containers.launch.Jetty9Container", "javax");
    }
}
