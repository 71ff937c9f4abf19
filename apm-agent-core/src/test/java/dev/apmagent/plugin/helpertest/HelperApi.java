package dev.apmagent.plugin.helpertest;

/** A helper API as the agent declares it: library objects are passed as Object. */
public interface HelperApi {
    ClassLoader loaderOfLibraryTypeSeen();

    String describe(Object libraryObject);
}
