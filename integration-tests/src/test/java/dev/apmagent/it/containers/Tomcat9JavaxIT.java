package dev.apmagent.it.containers;

/** The container scenarios on embedded Tomcat 9 (javax.servlet). */
class Tomcat9JavaxIT extends AbstractContainerIT {

    Tomcat9JavaxIT() {
        super("tomcat9", "dev.apmagent.it.containers.launch.TomcatContainer", "javax");
    }
}
