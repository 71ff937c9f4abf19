package dev.apmagent.plugin.jdbc;

/**
 * A hand-written SQL scanner for span names: it splits a statement into tokens (keywords, identifiers, literals,
 * punctuation, comments) in one pass, without regular expressions and without allocating. A token is described by
 * its kind and a {@code [start, end)} range into the input; quoted identifiers report the range inside the quotes.
 *
 * <p>Work is linear in the input length: every character is examined a bounded number of times. The only construct
 * that may look ahead beyond the current token is a dollar-quoted string ({@code $tag$ ... $tag$}); its search for the
 * closing tag is charged to a budget of {@link #LOOKAHEAD_BUDGET_FACTOR} times the input length, after which dollar
 * quotes are no longer recognised. {@link #steps()} counts characters examined so tests can prove the bound.
 *
 * <p>Not thread-safe; reuse one instance per thread via {@link #reset(CharSequence)}.
 */
public final class SqlLexer {

    /** Token kinds; the keyword kinds are recognised case-insensitively from unquoted words. */
    public enum Kind {
        EOF, OTHER, COMMENT, IDENT, NUMBER, STRING, PERIOD, COMMA, LPAREN, RPAREN,
        AS, CALL, DELETE, FROM, INSERT, INTO, OR, REPLACE, SELECT, SET, TABLE, TRUNCATE, UPDATE, MERGE, WITH
    }

    /** How many input lengths of extra look-ahead dollar-quote searches may spend in total. */
    static final int LOOKAHEAD_BUDGET_FACTOR = 2;

    private static final Kind[] KEYWORDS = {
        Kind.AS, Kind.CALL, Kind.DELETE, Kind.FROM, Kind.INSERT, Kind.INTO, Kind.OR, Kind.REPLACE, Kind.SELECT,
        Kind.SET, Kind.TABLE, Kind.TRUNCATE, Kind.UPDATE, Kind.MERGE, Kind.WITH
    };
    private static final String[] KEYWORD_NAMES = new String[KEYWORDS.length];

    static {
        for (int i = 0; i < KEYWORDS.length; i++) {
            KEYWORD_NAMES[i] = KEYWORDS[i].name();
        }
    }

    private CharSequence input = "";
    private int length;
    private int pos;
    private Kind kind = Kind.EOF;
    private int start;
    private int end;
    private boolean quoted;
    private long steps;
    private long lookaheadBudget;

    /** Starts scanning {@code sql} (null is treated as empty) from its beginning. */
    public SqlLexer reset(CharSequence sql) {
        input = sql == null ? "" : sql;
        length = input.length();
        pos = 0;
        kind = Kind.EOF;
        start = 0;
        end = 0;
        quoted = false;
        steps = 0;
        lookaheadBudget = (long) LOOKAHEAD_BUDGET_FACTOR * length;
        return this;
    }

    /** Drops the reference to the last input so a pooled lexer does not retain application strings. */
    public void clear() {
        input = "";
        length = 0;
        pos = 0;
        kind = Kind.EOF;
    }

    /** The kind of the current token. */
    public Kind kind() {
        return kind;
    }

    /** Start (inclusive) of the current token's text; for quoted identifiers, just inside the opening quote. */
    public int start() {
        return start;
    }

    /** End (exclusive) of the current token's text; for quoted identifiers, just before the closing quote. */
    public int end() {
        return end;
    }

    /** Whether the current IDENT token was quoted ({@code "x"}, {@code `x`}, {@code [x]}). */
    public boolean quoted() {
        return quoted;
    }

    /** The input being scanned. */
    public CharSequence input() {
        return input;
    }

    /** Characters examined since {@link #reset(CharSequence)}; at most a small constant times the input length. */
    public long steps() {
        return steps;
    }

    /** Appends the current token's text to {@code out}. */
    public void appendText(StringBuilder out) {
        for (int i = start; i < end; i++) {
            out.append(input.charAt(i));
        }
    }

    /** The current token's text as a new String (for tests and diagnostics; allocates). */
    public String text() {
        return input.subSequence(start, end).toString();
    }

    /** Whether the current token's text equals {@code word}, ignoring ASCII case. */
    public boolean textEqualsIgnoreCase(String word) {
        int n = word.length();
        if (end - start != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (upper(input.charAt(start + i)) != upper(word.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Scans the next token, comments included; returns its kind ({@link Kind#EOF} at the end). */
    public Kind next() {
        quoted = false;
        while (pos < length && isSpace(input.charAt(pos))) {
            pos++;
            steps++;
        }
        if (pos >= length) {
            start = end = length;
            return kind = Kind.EOF;
        }
        start = pos;
        char c = input.charAt(pos);
        char n = pos + 1 < length ? input.charAt(pos + 1) : 0;
        steps++;
        switch (c) {
            case '(':
                return single(Kind.LPAREN);
            case ')':
                return single(Kind.RPAREN);
            case ',':
                return single(Kind.COMMA);
            case '.':
                return single(Kind.PERIOD);
            case '\'':
                return stringLiteral();
            case '"':
                return quotedIdent('"', '"');
            case '`':
                return quotedIdent('`', '`');
            case '[':
                return quotedIdent('[', ']');
            case '$':
                return dollar();
            case '-':
                if (n == '-') {
                    return lineComment();
                }
                return single(Kind.OTHER);
            case '/':
                if (n == '*') {
                    return blockComment();
                }
                if (n == '/') {
                    return lineComment();
                }
                return single(Kind.OTHER);
            default:
                if (c >= '0' && c <= '9') {
                    return number();
                }
                if (isIdentStart(c)) {
                    return word();
                }
                return single(Kind.OTHER);
        }
    }

    /** Scans forward to the next token that is not a comment. */
    public Kind nextNonComment() {
        Kind k;
        do {
            k = next();
        } while (k == Kind.COMMENT);
        return k;
    }

    /** Scans forward (skipping everything) until a token of kind {@code wanted} or EOF; true when found. */
    public boolean scanUntil(Kind wanted) {
        Kind k;
        do {
            k = next();
            if (k == wanted) {
                return true;
            }
        } while (k != Kind.EOF);
        return false;
    }

    private Kind single(Kind k) {
        pos++;
        end = pos;
        return kind = k;
    }

    private Kind lineComment() {
        pos += 2;
        while (pos < length) {
            steps++;
            char c = input.charAt(pos);
            if (c == '\n' || c == '\r') {
                break;
            }
            pos++;
        }
        end = pos;
        return kind = Kind.COMMENT;
    }

    /** Block comments nest, as in PostgreSQL and the shared token vectors; unterminated ones run to the end. */
    private Kind blockComment() {
        pos += 2;
        int depth = 1;
        while (pos < length) {
            steps++;
            char c = input.charAt(pos);
            char n = pos + 1 < length ? input.charAt(pos + 1) : 0;
            if (c == '*' && n == '/') {
                pos += 2;
                if (--depth == 0) {
                    break;
                }
            } else if (c == '/' && n == '*') {
                pos += 2;
                depth++;
            } else {
                pos++;
            }
        }
        end = pos;
        return kind = Kind.COMMENT;
    }

    /** 'abc', with '' and backslash escapes; unterminated literals run to the end. */
    private Kind stringLiteral() {
        pos++;
        while (pos < length) {
            steps++;
            char c = input.charAt(pos);
            if (c == '\\') {
                pos += 2;
            } else if (c == '\'') {
                if (pos + 1 < length && input.charAt(pos + 1) == '\'') {
                    pos += 2;
                } else {
                    pos++;
                    break;
                }
            } else {
                pos++;
            }
        }
        if (pos > length) {
            pos = length;
        }
        end = pos;
        return kind = Kind.STRING;
    }

    /** "x", `x` or [x]; a doubled closing quote is an escaped quote. Text excludes the quotes, escapes kept as-is. */
    private Kind quotedIdent(char open, char close) {
        pos++;
        start = pos;
        while (pos < length) {
            steps++;
            char c = input.charAt(pos);
            if (c == close) {
                if (close != ']' && pos + 1 < length && input.charAt(pos + 1) == close) {
                    pos += 2;
                    continue;
                }
                end = pos;
                pos++;
                quoted = true;
                return kind = Kind.IDENT;
            }
            pos++;
        }
        end = pos;
        quoted = true;
        return kind = Kind.IDENT;
    }

    private Kind number() {
        pos++;
        digits();
        if (pos + 1 < length && input.charAt(pos) == '.' && isDigit(input.charAt(pos + 1))) {
            pos++;
            digits();
        }
        if (pos < length && (input.charAt(pos) == 'e' || input.charAt(pos) == 'E')) {
            int p = pos + 1;
            if (p < length && (input.charAt(p) == '+' || input.charAt(p) == '-')) {
                p++;
            }
            if (p < length && isDigit(input.charAt(p))) {
                pos = p;
                digits();
            }
        }
        end = pos;
        return kind = Kind.NUMBER;
    }

    private void digits() {
        while (pos < length && isDigit(input.charAt(pos))) {
            pos++;
            steps++;
        }
    }

    private Kind word() {
        pos++;
        while (pos < length && isIdentPart(input.charAt(pos))) {
            pos++;
            steps++;
        }
        end = pos;
        int len = end - start;
        if (len >= 2 && len <= 8) {
            char first = upper(input.charAt(start));
            for (int i = 0; i < KEYWORDS.length; i++) {
                if (KEYWORD_NAMES[i].charAt(0) == first && textEqualsIgnoreCase(KEYWORD_NAMES[i])) {
                    return kind = KEYWORDS[i];
                }
            }
        }
        return kind = Kind.IDENT;
    }

    /**
     * {@code $1} positional parameter (OTHER), {@code $tag$...$tag$} or {@code $$...$$} string (STRING). When no
     * closing tag follows, the token is OTHER and runs to the next whitespace, on the assumption that the input is
     * valid and was misread.
     */
    private Kind dollar() {
        int p = pos + 1;
        if (p < length && isDigit(input.charAt(p))) {
            pos = p;
            digits();
            end = pos;
            return kind = Kind.OTHER;
        }
        // tag: $ [identifier chars except $] $
        while (p < length && input.charAt(p) != '$' && isIdentPart(input.charAt(p))) {
            p++;
            steps++;
        }
        if (p < length && input.charAt(p) == '$' && lookaheadBudget > 0) {
            int tagStart = pos;
            int tagLen = p + 1 - tagStart;
            int closing = findClosingTag(tagStart, tagLen, p + 1);
            if (closing >= 0) {
                pos = closing + tagLen;
                end = pos;
                return kind = Kind.STRING;
            }
        }
        // not a dollar-quoted string: OTHER up to the next whitespace
        pos++;
        while (pos < length && !isSpace(input.charAt(pos))) {
            pos++;
            steps++;
        }
        end = pos;
        return kind = Kind.OTHER;
    }

    /** Index of the next occurrence of the tag {@code input[tagStart, tagStart+tagLen)} from {@code from}, or -1. */
    private int findClosingTag(int tagStart, int tagLen, int from) {
        for (int i = from; i + tagLen <= length; i++) {
            if (--lookaheadBudget < 0) {
                return -1;
            }
            steps++;
            if (input.charAt(i) != '$') {
                continue;
            }
            int j = 1;
            while (j < tagLen && input.charAt(i + j) == input.charAt(tagStart + j)) {
                j++;
                steps++;
                lookaheadBudget--;
            }
            if (j == tagLen) {
                return i;
            }
        }
        return -1;
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B
            || (c >= 0x80 && Character.isWhitespace(c)) || c == '\u00a0';
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isIdentStart(char c) {
        if (c < 0x80) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        }
        // any non-ASCII, non-space character (letters, CJK, surrogate halves) is part of a word
        return !isSpace(c);
    }

    static boolean isIdentPart(char c) {
        return isIdentStart(c) || isDigit(c) || c == '$';
    }

    private static char upper(char c) {
        return c >= 'a' && c <= 'z' ? (char) (c - 32) : c;
    }
}
