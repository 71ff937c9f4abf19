package dev.apmagent.plugin.servlet.tomcat;

import dev.apmagent.plugin.servlet.ContainerHeaders;
import dev.apmagent.plugin.servlet.FieldNames;
import dev.apmagent.trace.KeyValues;
import dev.apmagent.trace.UrlSanitizer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.catalina.connector.Response;
import org.apache.catalina.connector.ResponseFacade;
import org.apache.tomcat.util.buf.ByteChunk;
import org.apache.tomcat.util.buf.MessageBytes;
import org.apache.tomcat.util.http.MimeHeaders;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;

/**
 * Headers straight from Tomcat's {@link MimeHeaders} (Tomcat 7 to 11, javax and jakarta alike: nothing here refers to
 * a servlet type). A request header's name and value are {@link MessageBytes} over the request's input buffer; values
 * are copied into the captured list's own buffer ({@link KeyValues#addLatin1}) and names looked up by their bytes
 * ({@link FieldNames}), so no String is built on the application's thread. Response headers are mostly Strings the
 * application set, kept as references. The {@code Cookie} header is split here into its cookies (RFC 6265:
 * {@code name=value} pairs separated by {@code ;}, values kept as sent, quotes included).
 *
 * <p>Reaches the connector's request through the facade the container hands to filters and servlets
 * ({@code RequestFacade.request}, a protected field read by reflection: {@code Field.get} of a reference allocates
 * nothing); a request the application wrapped, or of another class, is left to the servlet API.
 *
 * <p>Defined next to Tomcat by {@link dev.apmagent.plugin.LibraryHelper}, and loaded only where Tomcat's classes are
 * visible ({@link ContainerHeaders#load}).
 */
public final class TomcatHeaders implements ContainerHeaders {

    private final Field request;
    private final Field response;

    public TomcatHeaders() throws ReflectiveOperationException {
        request = RequestFacade.class.getDeclaredField("request");
        request.setAccessible(true);
        response = ResponseFacade.class.getDeclaredField("response");
        response.setAccessible(true);
    }

    @Override
    public boolean captureRequest(Object facade, KeyValues headers, KeyValues cookies, FieldNames names) {
        if (facade == null || facade.getClass() != RequestFacade.class) {
            return false;
        }
        Request r = (Request) fieldOf(request, facade);
        if (r == null) {
            return false;
        }
        MimeHeaders all = r.getCoyoteRequest().getMimeHeaders();
        boolean headersFull = false;
        int n = all.size();
        for (int i = 0; i < n; i++) {
            FieldNames.Name name = name(all.getName(i), names);
            if (name == null) {
                continue;
            }
            if (name.cookie) {
                addCookies(all.getValue(i), cookies, names);
            } else if (!headersFull) {
                headersFull = !add(headers, name, all.getValue(i));
            }
        }
        return true;
    }

    @Override
    public boolean captureResponse(Object facade, KeyValues headers, FieldNames names) {
        if (facade == null || facade.getClass() != ResponseFacade.class) {
            return false;
        }
        Response r = (Response) fieldOf(response, facade);
        if (r == null) {
            return false;
        }
        MimeHeaders all = r.getCoyoteResponse().getMimeHeaders();
        int n = all.size();
        for (int i = 0; i < n; i++) {
            FieldNames.Name name = name(all.getName(i), names);
            if (name != null && !add(headers, name, all.getValue(i))) {
                break;
            }
        }
        return true;
    }

    private static Object fieldOf(Field field, Object facade) {
        try {
            return field.get(facade);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e); // made accessible in the constructor
        }
    }

    private static FieldNames.Name name(MessageBytes name, FieldNames names) {
        if (name.getType() == MessageBytes.T_BYTES) {
            ByteChunk b = name.getByteChunk();
            return b.getLength() == 0 ? null : names.name(b.getBuffer(), b.getStart(), b.getLength());
        }
        String text = name.toString();
        return text == null || text.isEmpty() ? null : names.name(text);
    }

    /** False when {@code headers} is full. */
    private static boolean add(KeyValues headers, FieldNames.Name name, MessageBytes value) {
        if (name.sensitive) {
            return headers.add(name.text, UrlSanitizer.REDACTED);
        }
        if (value.getType() == MessageBytes.T_BYTES) {
            ByteChunk b = value.getByteChunk();
            return headers.addLatin1(name.text, b.getBuffer(), b.getStart(), b.getLength());
        }
        return headers.add(name.text, value.toString()); // a String the application set, or Tomcat made: a reference
    }

    private static void addCookies(MessageBytes value, KeyValues cookies, FieldNames names) {
        if (value.getType() == MessageBytes.T_BYTES) {
            ByteChunk b = value.getByteChunk();
            addCookies(b.getBuffer(), b.getStart(), b.getEnd(), cookies, names);
        } else {
            String text = value.toString(); // not read from the wire: rare
            if (text != null) {
                byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
                addCookies(bytes, 0, bytes.length, cookies, names);
            }
        }
    }

    /** The {@code name=value} pairs of one {@code Cookie} header in {@code bytes[from, to)}, until {@code cookies} is full. */
    static void addCookies(byte[] bytes, int from, int to, KeyValues cookies, FieldNames names) {
        int i = from;
        while (i < to) {
            int end = i;
            while (end < to && bytes[end] != ';') {
                end++;
            }
            int nameStart = skipSpace(bytes, i, end);
            int eq = nameStart;
            while (eq < end && bytes[eq] != '=') {
                eq++;
            }
            int nameEnd = trimEnd(bytes, nameStart, eq);
            if (nameEnd > nameStart) {
                FieldNames.Name name = names.name(bytes, nameStart, nameEnd - nameStart);
                boolean added;
                if (name.sensitive) {
                    added = cookies.add(name.text, UrlSanitizer.REDACTED);
                } else {
                    int valueStart = eq < end ? skipSpace(bytes, eq + 1, end) : end;
                    added = cookies.addLatin1(name.text, bytes, valueStart, trimEnd(bytes, valueStart, end) - valueStart);
                }
                if (!added) {
                    return;
                }
            }
            i = end + 1;
        }
    }

    private static int skipSpace(byte[] bytes, int from, int to) {
        while (from < to && (bytes[from] == ' ' || bytes[from] == '\t')) {
            from++;
        }
        return from;
    }

    private static int trimEnd(byte[] bytes, int from, int to) {
        while (to > from && (bytes[to - 1] == ' ' || bytes[to - 1] == '\t')) {
            to--;
        }
        return to;
    }
}
