package dev.apmagent.it.apps;

/** An application that does nothing for the milliseconds given as first argument, then exits with 0. */
public final class WaitApp {

    private WaitApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread.sleep(Long.parseLong(args[0]));
        System.out.println("waited");
    }
}
