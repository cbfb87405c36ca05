<?php

declare(strict_types=1);

namespace Agentpay;

use stdClass;

/**
 * The canonical string a signature covers, and RFC 8785 (JCS) JSON, rendered exactly as the platform
 * (ECMAScript) renders them: numbers in String(n) form (5, never 5.0; 1e-7, never 1.0E-7), strings as
 * they are at the top level, nested keys in UTF-16 order.
 *
 * Values are what json_decode gives: a PHP list is a JSON array, any other array or a stdClass is an
 * object (an empty array is an empty JSON array; use new stdClass() for an empty object).
 */
final class Canonical
{
    /**
     * The text a signature covers: every key but `sign` whose value is not null or "", sorted by code
     * point, rendered as key=value and joined with &.
     *
     * @param array<string|int, mixed>|stdClass $object
     */
    public static function string(array|stdClass $object): string
    {
        $pairs = [];
        foreach (self::members($object) as $key => $value) {
            $key = (string) $key; // PHP turns a key such as "12" into an int
            if ($key === 'sign' || $value === null || $value === '') {
                continue;
            }
            $pairs[] = [$key, $value];
        }
        // UTF-8 byte order is code point order.
        usort($pairs, static fn (array $a, array $b): int => strcmp($a[0], $b[0]));
        $out = [];
        foreach ($pairs as [$key, $value]) {
            $out[] = $key . '=' . self::render($value, $key);
        }
        return implode('&', $out);
    }

    /** RFC 8785 canonical JSON text of a value. */
    public static function jcs(mixed $value): string
    {
        if ($value === null) {
            return 'null';
        }
        if (is_bool($value)) {
            return $value ? 'true' : 'false';
        }
        if (is_int($value) || is_float($value)) {
            return self::number($value);
        }
        if (is_string($value)) {
            return self::quote($value);
        }
        if (is_array($value) && array_is_list($value)) {
            return '[' . implode(',', array_map([self::class, 'jcs'], $value)) . ']';
        }
        if (is_array($value) || $value instanceof stdClass) {
            $members = [];
            foreach (self::members($value) as $key => $item) {
                $members[] = [(string) $key, $item];
            }
            usort($members, static fn (array $a, array $b): int => self::compareUtf16($a[0], $b[0]));
            $out = [];
            foreach ($members as [$key, $item]) {
                $out[] = self::quote($key) . ':' . self::jcs($item);
            }
            return '{' . implode(',', $out) . '}';
        }
        if ($value instanceof \JsonSerializable) {
            return self::jcs($value->jsonSerialize());
        }
        throw new \InvalidArgumentException('canonical: a ' . get_debug_type($value) . ' has no JSON form');
    }

    /**
     * A number as ECMAScript's String(n) writes it, which is how the platform reads the JSON number:
     * an int beyond 2^53 is the nearest double, as it is once the platform has parsed it.
     */
    public static function number(int|float $n): string
    {
        if (is_int($n)) {
            if ($n > -9007199254740992 && $n < 9007199254740992) {
                return (string) $n;
            }
            $n = (float) $n;
        }
        if (!is_finite($n)) {
            throw new \InvalidArgumentException("canonical: $n is not a JSON number");
        }
        if ($n == 0.0) {
            return '0'; // -0 included
        }
        $sign = $n < 0 ? '-' : '';
        $abs = abs($n);
        // The fewest significant digits that read back as the same double; %.*e rounds correctly, so the
        // first precision that round-trips gives the digits closest to the value, as ECMAScript requires.
        for ($precision = 0; $precision < 17; $precision++) {
            $text = sprintf('%.' . $precision . 'e', $abs);
            if ((float) $text === $abs) {
                break;
            }
        }
        [$mantissa, $exponent] = explode('e', $text);
        $digits = rtrim(str_replace('.', '', $mantissa), '0');
        $k = strlen($digits);
        $point = (int) $exponent + 1; // the value is 0.<digits> × 10^point
        if ($k <= $point && $point <= 21) {
            return $sign . $digits . str_repeat('0', $point - $k);
        }
        if (0 < $point && $point <= 21) {
            return $sign . substr($digits, 0, $point) . '.' . substr($digits, $point);
        }
        if (-6 < $point && $point <= 0) {
            return $sign . '0.' . str_repeat('0', -$point) . $digits;
        }
        $e = $point - 1;
        $fraction = $k === 1 ? '' : '.' . substr($digits, 1);
        return $sign . $digits[0] . $fraction . 'e' . ($e < 0 ? '-' : '+') . abs($e);
    }

    /** A JSON string as ECMAScript's JSON.stringify writes it: only ", \ and control characters escaped. */
    public static function quote(string $text): string
    {
        if (!preg_match('//u', $text)) {
            throw new \InvalidArgumentException('canonical: a string is not valid UTF-8');
        }
        $escaped = preg_replace_callback(
            '/[\x00-\x1f"\\\\]/',
            static function (array $m): string {
                return match ($m[0]) {
                    '"' => '\\"',
                    '\\' => '\\\\',
                    "\x08" => '\\b',
                    "\t" => '\\t',
                    "\n" => '\\n',
                    "\x0c" => '\\f',
                    "\r" => '\\r',
                    default => sprintf('\\u%04x', ord($m[0])),
                };
            },
            $text,
        );
        return '"' . $escaped . '"';
    }

    /**
     * Orders two UTF-8 strings by their UTF-16 code units (RFC 8785 §3.2.3). Byte order is code point
     * order, which differs from UTF-16 order only where a character above U+FFFF (a surrogate pair,
     * D800..DFFF) meets one in U+E000..U+FFFF.
     */
    public static function compareUtf16(string $a, string $b): int
    {
        $n = min(strlen($a), strlen($b));
        $i = 0;
        while ($i < $n && $a[$i] === $b[$i]) {
            $i++;
        }
        if ($i === $n) {
            return strlen($a) <=> strlen($b);
        }
        // Back up to the start of the differing characters (continuation bytes are 10xxxxxx).
        while ($i > 0 && (ord($a[$i]) & 0xc0) === 0x80) {
            $i--;
        }
        return self::utf16Rank(self::codePointAt($a, $i)) <=> self::utf16Rank(self::codePointAt($b, $i));
    }

    private static function utf16Rank(int $codePoint): int
    {
        // Characters above U+FFFF start with a high surrogate (0xD800 + …), below U+E000.
        return $codePoint > 0xffff ? 0xd800 + (($codePoint - 0x10000) >> 10) : $codePoint;
    }

    private static function codePointAt(string $s, int $i): int
    {
        $b = ord($s[$i]);
        if ($b < 0x80) {
            return $b;
        }
        $length = $b >= 0xf0 ? 4 : ($b >= 0xe0 ? 3 : 2);
        $cp = $b & (0xff >> ($length + 1));
        for ($j = 1; $j < $length; $j++) {
            $cp = ($cp << 6) | (ord($s[$i + $j]) & 0x3f);
        }
        return $cp;
    }

    private static function render(mixed $value, string $key): string
    {
        if (is_string($value)) {
            return $value;
        }
        if (is_bool($value)) {
            return $value ? 'true' : 'false';
        }
        if (is_int($value) || is_float($value)) {
            return self::number($value);
        }
        if (is_array($value) || is_object($value)) {
            return self::jcs($value);
        }
        throw new \InvalidArgumentException("canonical: \"$key\" holds a " . get_debug_type($value) . ', not a JSON value');
    }

    /**
     * @param array<string|int, mixed>|stdClass $object
     * @return array<string|int, mixed>
     */
    private static function members(array|stdClass $object): array
    {
        return is_array($object) ? $object : get_object_vars($object);
    }
}
