package com.agentpay.merchant;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON this SDK needs, on the JDK alone: a reader that gives {@code Map<String,Object>} (insertion
 * order, a JSON null as a null value), {@code List<Object>}, {@code String}, {@code Double} (every number,
 * as JavaScript's JSON.parse reads it) and {@code Boolean}; and a writer whose numbers are ECMAScript text.
 */
public final class Json {
  private Json() {}

  /** Parses one JSON text; throws IllegalArgumentException when it is not JSON. */
  public static Object parse(String text) {
    Reader reader = new Reader(text);
    reader.skipSpace();
    Object value = reader.value(0);
    reader.skipSpace();
    if (reader.pos != text.length()) throw reader.error("trailing characters");
    return value;
  }

  /** Parses a JSON text that must be an object. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parseObject(String text) {
    Object value = parse(text);
    if (!(value instanceof Map)) throw new IllegalArgumentException("not a JSON object");
    return (Map<String, Object>) value;
  }

  /** Writes a value as JSON text, as JavaScript's JSON.stringify would (no spaces, numbers as String(n)). */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, false);
    return out.toString();
  }

  /** RFC 8785 (JCS) canonical JSON: object keys sorted by UTF-16 code units, numbers as ECMAScript text. */
  public static String canonical(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, true);
    return out.toString();
  }

  @SuppressWarnings("unchecked")
  private static void write(Object value, StringBuilder out, boolean sorted) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String) {
      quote((String) value, out);
    } else if (value instanceof Boolean) {
      out.append(value.toString());
    } else if (value instanceof Number) {
      out.append(EcmaNumber.toString((Number) value));
    } else if (value instanceof Map) {
      Map<String, Object> map = (Map<String, Object>) value;
      List<String> keys = new ArrayList<>(map.keySet());
      // String.compareTo orders by UTF-16 code units: RFC 8785 section 3.2.3.
      if (sorted) keys.sort(String::compareTo);
      out.append('{');
      boolean first = true;
      for (String key : keys) {
        if (!first) out.append(',');
        first = false;
        quote(key, out);
        out.append(':');
        write(map.get(key), out, sorted);
      }
      out.append('}');
    } else if (value instanceof List) {
      out.append('[');
      boolean first = true;
      for (Object item : (List<Object>) value) {
        if (!first) out.append(',');
        first = false;
        write(item, out, sorted);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("a " + value.getClass().getName() + " has no JSON form");
    }
  }

  /** A string as JSON.stringify quotes it: only quote, backslash and control characters escaped. */
  static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
          if (c < 0x20 || (Character.isSurrogate(c) && !pairedAt(s, i))) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }

  private static boolean pairedAt(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  private static final class Reader {
    private static final int MAX_DEPTH = 512;
    final String text;
    int pos;

    Reader(String text) {
      this.text = text;
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("invalid JSON at " + pos + ": " + what);
    }

    void skipSpace() {
      while (pos < text.length()) {
        char c = text.charAt(pos);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') pos++;
        else break;
      }
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) throw error("too deep");
      if (pos >= text.length()) throw error("unexpected end");
      char c = text.charAt(pos);
      switch (c) {
        case '{': return object(depth);
        case '[': return array(depth);
        case '"': return string();
        case 't': return literal("true", Boolean.TRUE);
        case 'f': return literal("false", Boolean.FALSE);
        case 'n': return literal("null", null);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) return number();
          throw error("unexpected '" + c + "'");
      }
    }

    Object literal(String word, Object value) {
      if (!text.startsWith(word, pos)) throw error("expected " + word);
      pos += word.length();
      return value;
    }

    Map<String, Object> object(int depth) {
      Map<String, Object> map = new LinkedHashMap<>();
      pos++;
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == '}') {
        pos++;
        return map;
      }
      while (true) {
        skipSpace();
        if (pos >= text.length() || text.charAt(pos) != '"') throw error("expected a key");
        String key = string();
        skipSpace();
        if (pos >= text.length() || text.charAt(pos) != ':') throw error("expected ':'");
        pos++;
        skipSpace();
        map.put(key, value(depth + 1)); // a repeated key keeps the last value, as JSON.parse does
        skipSpace();
        if (pos >= text.length()) throw error("unexpected end");
        char c = text.charAt(pos++);
        if (c == '}') return map;
        if (c != ',') throw error("expected ',' or '}'");
      }
    }

    List<Object> array(int depth) {
      List<Object> list = new ArrayList<>();
      pos++;
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == ']') {
        pos++;
        return list;
      }
      while (true) {
        skipSpace();
        list.add(value(depth + 1));
        skipSpace();
        if (pos >= text.length()) throw error("unexpected end");
        char c = text.charAt(pos++);
        if (c == ']') return list;
        if (c != ',') throw error("expected ',' or ']'");
      }
    }

    String string() {
      pos++;
      StringBuilder out = new StringBuilder();
      while (true) {
        if (pos >= text.length()) throw error("unterminated string");
        char c = text.charAt(pos++);
        if (c == '"') return out.toString();
        if (c < 0x20) throw error("control character in string");
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (pos >= text.length()) throw error("unterminated escape");
        char e = text.charAt(pos++);
        switch (e) {
          case '"': out.append('"'); break;
          case '\\': out.append('\\'); break;
          case '/': out.append('/'); break;
          case 'b': out.append('\b'); break;
          case 'f': out.append('\f'); break;
          case 'n': out.append('\n'); break;
          case 'r': out.append('\r'); break;
          case 't': out.append('\t'); break;
          case 'u':
            if (pos + 4 > text.length()) throw error("short \\u escape");
            try {
              out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("bad \\u escape");
            }
            pos += 4;
            break;
          default:
            throw error("bad escape");
        }
      }
    }

    Double number() {
      int start = pos;
      if (text.charAt(pos) == '-') pos++;
      if (pos < text.length() && text.charAt(pos) == '0') {
        pos++;
      } else {
        if (!digits()) throw error("expected a digit");
      }
      if (pos < text.length() && text.charAt(pos) == '.') {
        pos++;
        if (!digits()) throw error("expected a digit");
      }
      if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
        pos++;
        if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) pos++;
        if (!digits()) throw error("expected a digit");
      }
      return Double.parseDouble(text.substring(start, pos));
    }

    boolean digits() {
      int start = pos;
      while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
      return pos > start;
    }
  }
}
