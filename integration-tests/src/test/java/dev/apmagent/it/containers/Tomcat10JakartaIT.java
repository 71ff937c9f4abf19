package dev.apmagent.it.containers;

/** The container scenarios on embedded Tomcat 10.1 (jakarta.servlet). */
class Tomcat10JakartaIT extends AbstractContainerIT {

    Tomcat10JakartaIT() {
        super("tomcat10", "dev.apmagent.it.containers.launch.TomcatContainer", "jakarta");
    }
}
