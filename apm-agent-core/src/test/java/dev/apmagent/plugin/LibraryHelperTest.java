package dev.apmagent.plugin;

import dev.apmagent.plugin.helpertest.HelperApi;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A helper is defined next to the library as the application's loader holds it: it links against that loader's copy
 * of the library type, not the agent's, and is cast to its API type as the agent loader knows it.
 */
class LibraryHelperTest {

    private final LibraryHelper<HelperApi> helper = new LibraryHelper<HelperApi>(HelperApi.class,
            "dev.apmagent.plugin.helpertest.impl.HelperImpl", "dev.apmagent.plugin.helpertest.impl.");

    @Test
    void helperLinksAgainstTheApplicationLoadersCopyOfTheLibrary() throws Exception {
        ApplicationLoader app = new ApplicationLoader();
        Class<?> libraryInApp = app.loadClass("testlib.LibraryType");
        assertNotSame(testlib.LibraryType.class, libraryInApp);

        HelperApi api = helper.get(libraryInApp);

        assertSame(app, api.loaderOfLibraryTypeSeen());
        assertEquals("library", api.describe(libraryInApp.getDeclaredConstructor().newInstance()));
        assertSame(api, helper.get(libraryInApp), "one helper per class, created once");
    }

    @Test
    void classesOfOneLoaderShareOneHelper() throws Exception {
        ApplicationLoader app = new ApplicationLoader();
        Class<?> one = app.loadClass("testlib.LibraryType");
        Class<?> two = app.loadClass("dev.apmagent.plugin.LibraryHelperTest$OtherAppClass");
        assertSame(helper.get(one), helper.get(two));
    }

    @Test
    void missingImplementationGivesNullNotAnException() throws Exception {
        LibraryHelper<HelperApi> broken = new LibraryHelper<HelperApi>(HelperApi.class, "dev.apmagent.plugin.helpertest.impl.Missing",
                "dev.apmagent.plugin.helpertest.impl.");
        assertNull(broken.get(new ApplicationLoader().loadClass("testlib.LibraryType")));
    }

    public static class OtherAppClass {
    }

    /** An application loader that defines the "library" and app classes itself, like a web application's loader. */
    static final class ApplicationLoader extends ClassLoader {
        ApplicationLoader() {
            super(LibraryHelperTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.equals("testlib.LibraryType") || name.equals("dev.apmagent.plugin.LibraryHelperTest$OtherAppClass")) {
                synchronized (getClassLoadingLock(name)) {
                    Class<?> loaded = findLoadedClass(name);
                    if (loaded != null) {
                        return loaded;
                    }
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        in.transferTo(out);
                        byte[] bytes = out.toByteArray();
                        return defineClass(name, bytes, 0, bytes.length);
                    } catch (Exception e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
            }
            return super.loadClass(name, resolve);
        }
    }
}
