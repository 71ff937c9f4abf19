package dev.apmagent.trace;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Walks the instance fields of an event object graph (recursing into objects of this package) and lists the leaf
 * fields where two graphs differ. StringBuilders compare by content, arrays element by element.
 */
final class FieldState {

    private FieldState() {
    }

    /** Paths of leaf fields whose values differ between {@code a} and {@code b} (same class), except {@code ignored}. */
    static List<String> differences(Object a, Object b, String... ignored) {
        List<String> out = new ArrayList<>();
        walk(a.getClass().getSimpleName(), a, b, out, ignored);
        return out;
    }

    /** Paths of leaf fields whose values are equal in {@code a} and {@code b}. */
    static List<String> equalities(Object a, Object b, String... ignored) {
        List<String> out = new ArrayList<>();
        walkEqual(a.getClass().getSimpleName(), a, b, out, ignored);
        return out;
    }

    private static void walk(String path, Object a, Object b, List<String> out, String[] ignored) {
        for (Field f : fields(a.getClass(), ignored)) {
            Object va = get(f, a);
            Object vb = get(f, b);
            String p = path + "." + f.getName();
            if (isComposite(va)) {
                walk(p, va, vb, out, ignored);
            } else if (!leafEquals(va, vb)) {
                out.add(p + ": " + render(va) + " vs " + render(vb));
            }
        }
    }

    private static void walkEqual(String path, Object a, Object b, List<String> out, String[] ignored) {
        for (Field f : fields(a.getClass(), ignored)) {
            Object va = get(f, a);
            Object vb = get(f, b);
            String p = path + "." + f.getName();
            if (isComposite(va)) {
                walkEqual(p, va, vb, out, ignored);
            } else if (leafEquals(va, vb)) {
                out.add(p + " = " + render(va));
            }
        }
    }

    private static boolean isComposite(Object value) {
        return value != null && value.getClass().getPackage() == Outcome.class.getPackage() && !(value instanceof Enum)
                && !(value instanceof AbstractSpan);
    }

    private static List<Field> fields(Class<?> type, String[] ignored) {
        List<Field> out = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || isIgnored(f.getName(), ignored)) {
                    continue;
                }
                f.setAccessible(true);
                out.add(f);
            }
        }
        return out;
    }

    private static boolean isIgnored(String name, String[] ignored) {
        for (String i : ignored) {
            if (i.equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static Object get(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean leafEquals(Object a, Object b) {
        if (a instanceof StringBuilder && b instanceof StringBuilder) {
            return a.toString().equals(b.toString());
        }
        if (a != null && b != null && a.getClass().isArray() && b.getClass().isArray()) {
            int n = Array.getLength(a);
            if (n != Array.getLength(b)) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (!Objects.equals(Array.get(a, i), Array.get(b, i))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    private static String render(Object value) {
        if (value != null && value.getClass().isArray()) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < Array.getLength(value); i++) {
                sb.append(i == 0 ? "" : ",").append(Array.get(value, i));
            }
            return sb.append(']').toString();
        }
        return String.valueOf(value);
    }
}
