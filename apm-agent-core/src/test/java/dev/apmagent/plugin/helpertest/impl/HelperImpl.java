package dev.apmagent.plugin.helpertest.impl;

import dev.apmagent.plugin.helpertest.HelperApi;
import testlib.LibraryType;

/** A helper implementation that links against the library type. */
public class HelperImpl implements HelperApi {
    @Override
    public ClassLoader loaderOfLibraryTypeSeen() {
        return LibraryType.class.getClassLoader();
    }

    @Override
    public String describe(Object libraryObject) {
        return ((LibraryType) libraryObject).describe();
    }
}
