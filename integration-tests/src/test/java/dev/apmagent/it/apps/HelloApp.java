package dev.apmagent.it.apps;

/** A trivial application: prints a few lines, one to stderr, and exits with the code given as first argument. */
public final class HelloApp {

    private HelloApp() {
    }

    public static void main(String[] args) {
        int exitCode = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        System.out.println("hello from the application");
        long sum = 0;
        for (int i = 1; i <= 1000; i++) {
            sum += i;
        }
        System.out.println("sum=" + sum);
        System.err.println("a line on stderr");
        System.out.flush();
        System.exit(exitCode);
    }
}
