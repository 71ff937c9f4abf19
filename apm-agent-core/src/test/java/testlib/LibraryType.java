package testlib;

/** Stands for a library class (such as a servlet API type) that an application loader holds. */
public class LibraryType {
    public String describe() {
        return "library";
    }
}
