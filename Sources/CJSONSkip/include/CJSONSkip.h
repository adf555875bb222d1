#ifndef GRATICULE_CJSONSKIP_H
#define GRATICULE_CJSONSKIP_H

// The GeoJSON reader's fast path for JSON values it skips (`properties` when reading
// geometry only, foreign members of geometries and collections): one function that checks
// a whole array or object against RFC 8259 and finds its end, with no call per token and,
// on x86-64, string bodies scanned 16 bytes at a time with SSE2 (which every x86-64 CPU
// has).
//
// It answers only "valid, and it ends here" or "not sure". Anything it does not accept
// (bad JSON, a value that runs to the end of the bytes it was given, an exponent that
// could take a number out of range, nesting deeper than 64 or than the reader allows) is
// skipped again by the reader's own scanner, which decides, and on bad input reports the
// error with its byte offset, line, column and member path as it always has. So the fast
// path must never accept what the scanner rejects, and may refuse anything.
//
// What it accepts is what the scanner (`_Tokenizer.skipValueScalar`) accepts:
// - whitespace: space, tab, line feed, carriage return (RFC 8259 §2);
// - strings: no byte below 0x20, escapes \" \\ \/ \b \f \n \r \t and \uXXXX, where a high
//   surrogate must be followed by an escaped low one and a lone low one is refused (§7);
//   well-formed UTF-8 only, as RFC 3629 §4's table (no overlongs, no surrogates, nothing
//   above U+10FFFF);
// - numbers: §6's grammar; with an exponent only when the number cannot round to infinity
//   (integer digits plus exponent at most 300, at most four exponent digits), and with at
//   most 300 integer digits;
// - true, false, null (§3).
//
// `static inline`, like ../CVarintBlock (see there why: valgrind and DWARF 5). SwiftPM does
// not always rebuild the Swift modules that inline a header when it changes: after editing
// it, build from a clean `.build`.

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#define GR_JSON_INLINE static inline __attribute__((always_inline))

GR_JSON_INLINE int gr_json_digit(uint8_t b) { return (uint8_t)(b - '0') < 10; }

/// The first index at or after `i` that is not JSON whitespace (`end` if none).
GR_JSON_INLINE intptr_t gr_json_ws(const uint8_t *p, intptr_t i, intptr_t end) {
    // Most tokens follow the last directly or after one space.
    if (i < end && p[i] > 0x20) return i;
    if (i + 1 < end && p[i] == 0x20 && p[i + 1] > 0x20) return i + 1;
    while (i < end) {
        uint8_t b = p[i];
        if (b > 0x20 || !(b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09)) break;
        i++;
    }
    return i;
}

/// Four hex digits at `p` as a value, or -1.
GR_JSON_INLINE int32_t gr_json_hex4(const uint8_t *p) {
    int32_t v = 0;
    for (int k = 0; k < 4; k++) {
        uint8_t c = p[k], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        v = v << 4 | d;
    }
    return v;
}

/// A string body from `i` (after its opening quote): the index after its closing quote,
/// or -1.
GR_JSON_INLINE intptr_t gr_json_string(const uint8_t *p, intptr_t i, intptr_t end) {
    for (;;) {
#if defined(__x86_64__)
        const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
        const __m128i space = _mm_set1_epi8(0x20);
        while (i + 16 <= end) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
            // Signed compare: bytes below 0x20 and bytes of 0x80 and above (UTF-8 to check).
            __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                        _mm_cmplt_epi8(v, space));
            unsigned m = (unsigned)_mm_movemask_epi8(stop);
            if (m != 0) {
                i += __builtin_ctz(m);
                goto stop;
            }
            i += 16;
        }
#endif
        for (;;) {
            if (i >= end) return -1;
            uint8_t b = p[i];
            if (b == '"' || b == '\\' || b < 0x20 || b >= 0x80) break;
            i++;
        }
    stop:;
        uint8_t b = p[i];
        if (b == '"') return i + 1;
        if (b == '\\') {
            if (i + 1 >= end) return -1;
            switch (p[i + 1]) {
                case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                    i += 2;
                    continue;
                case 'u': {
                    if (i + 6 > end) return -1;
                    int32_t u = gr_json_hex4(p + i + 2);
                    if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF)) return -1;
                    if (u >= 0xD800 && u <= 0xDBFF) {
                        if (i + 12 > end || p[i + 6] != '\\' || p[i + 7] != 'u') return -1;
                        int32_t l = gr_json_hex4(p + i + 8);
                        if (l < 0xDC00 || l > 0xDFFF) return -1;
                        i += 12;
                    } else {
                        i += 6;
                    }
                    continue;
                }
                default:
                    return -1;
            }
        }
        if (b < 0x80) return -1;                 // a control character
        // Multi-byte UTF-8 (RFC 3629 §4).
        int need;
        uint8_t lo = 0x80, hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) need = 1;
        else if (b == 0xE0) { need = 2; lo = 0xA0; }
        else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) need = 2;
        else if (b == 0xED) { need = 2; hi = 0x9F; }
        else if (b == 0xF0) { need = 3; lo = 0x90; }
        else if (b >= 0xF1 && b <= 0xF3) need = 3;
        else if (b == 0xF4) { need = 3; hi = 0x8F; }
        else return -1;
        if (i + need >= end) return -1;
        uint8_t c1 = p[i + 1];
        if (c1 < lo || c1 > hi) return -1;
        if (need >= 2 && (p[i + 2] & 0xC0) != 0x80) return -1;
        if (need == 3 && (p[i + 3] & 0xC0) != 0x80) return -1;
        i += need + 1;
    }
}

/// A number from `i` (which holds `-` or a digit): the index after it, or -1.
GR_JSON_INLINE intptr_t gr_json_number(const uint8_t *p, intptr_t i, intptr_t end) {
    if (p[i] == '-') {
        i++;
        if (i >= end) return -1;
    }
    intptr_t integer_start = i;
    if (p[i] == '0') {
        i++;
    } else if (gr_json_digit(p[i])) {
        while (i < end && gr_json_digit(p[i])) i++;
    } else {
        return -1;
    }
    intptr_t integer_digits = i - integer_start;
    if (integer_digits > 300) return -1;
    if (i < end && p[i] == '.') {
        i++;
        if (i >= end || !gr_json_digit(p[i])) return -1;
        while (i < end && gr_json_digit(p[i])) i++;
    }
    if (i < end && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i >= end) return -1;
        int negative = 0;
        if (p[i] == '+' || p[i] == '-') {
            negative = p[i] == '-';
            i++;
        }
        intptr_t exponent_start = i;
        intptr_t exponent = 0;
        while (i < end && gr_json_digit(p[i]) && i - exponent_start < 4) {
            exponent = exponent * 10 + (p[i] - '0');
            i++;
        }
        if (i == exponent_start || (i < end && gr_json_digit(p[i]))) return -1;
        // Below 10^(integer digits + exponent) <= 10^300: finite. (A negative exponent
        // can only underflow, which reads as zero.)
        if (!negative && integer_digits + exponent > 300) return -1;
    }
    if (i >= end) return -1;                     // the scanner decides where a number ends
    return i;
}

/// The JSON array or object whose opening bracket is at `start`: the index after its
/// closing bracket when it is valid and complete in `p[start..<end]`, -1 when the reader's
/// scanner must decide. `max_nesting`: how many levels of arrays and objects the value
/// may hold, itself included (the reader's limit minus the depth it sits at).
static inline intptr_t gr_json_skip(const uint8_t *p, intptr_t start, intptr_t end, intptr_t max_nesting) {
    uint64_t objects = 0;                        // bit k: level k + 1 is an object
    intptr_t n = 0;                              // levels open
    intptr_t i = start;
    if (i >= end || (p[i] != '[' && p[i] != '{')) return -1;
    if (max_nesting > 64) max_nesting = 64;
value:
    if (i >= end) return -1;
    switch (p[i]) {
        case '"':
            i = gr_json_string(p, i + 1, end);
            if (i < 0) return -1;
            goto after;
        case '-': case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
            i = gr_json_number(p, i, end);
            if (i < 0) return -1;
            goto after;
        case 't':
            if (i + 4 > end || p[i + 1] != 'r' || p[i + 2] != 'u' || p[i + 3] != 'e') return -1;
            i += 4;
            goto after;
        case 'f':
            if (i + 5 > end || p[i + 1] != 'a' || p[i + 2] != 'l' || p[i + 3] != 's' || p[i + 4] != 'e') return -1;
            i += 5;
            goto after;
        case 'n':
            if (i + 4 > end || p[i + 1] != 'u' || p[i + 2] != 'l' || p[i + 3] != 'l') return -1;
            i += 4;
            goto after;
        // `[` and `{` (and the two sides of `after`) are kept apart: one branch testing
        // which bracket it holds measured 5.6% more instructions on points-20k.
        case '[':
            if (n >= max_nesting) return -1;
            objects &= ~((uint64_t)1 << n);
            n++;
            i = gr_json_ws(p, i + 1, end);
            if (i >= end) return -1;
            if (p[i] == ']') {
                i++;
                n--;
                goto after;
            }
            goto value;
        case '{':
            if (n >= max_nesting) return -1;
            objects |= (uint64_t)1 << n;
            n++;
            i = gr_json_ws(p, i + 1, end);
            if (i >= end) return -1;
            if (p[i] == '}') {
                i++;
                n--;
                goto after;
            }
            goto member;
        default:
            return -1;
    }
member:                                          // at a non-whitespace byte
    if (p[i] != '"') return -1;
    i = gr_json_string(p, i + 1, end);
    if (i < 0) return -1;
    i = gr_json_ws(p, i, end);
    if (i >= end || p[i] != ':') return -1;
    i = gr_json_ws(p, i + 1, end);
    goto value;
after:
    if (n == 0) return i;
    i = gr_json_ws(p, i, end);
    if (i >= end) return -1;
    if ((objects >> (n - 1)) & 1) {
        if (p[i] == ',') {
            i = gr_json_ws(p, i + 1, end);
            if (i >= end) return -1;
            goto member;
        }
        if (p[i] != '}') return -1;
    } else {
        if (p[i] == ',') {
            i = gr_json_ws(p, i + 1, end);
            goto value;
        }
        if (p[i] != ']') return -1;
    }
    i++;
    n--;
    goto after;
}

#endif
