#ifndef GRATICULE_CJSONSTRUCTURAL_H
#define GRATICULE_CJSONSTRUCTURAL_H

// A structural index of JSON text, 64 bytes at a time: where the structural characters
// ({ } [ ] : ,) outside strings and the opening quotes of strings are, with backslash
// escapes resolved and the in-string state carried from block to block. It checks what
// the structural skip contract checks: strings closed, no control byte (below 0x20) inside
// a string, no backslash outside one, and well-formed UTF-8 (RFC 3629) over the whole input. It does not check the
// grammar of scalars (numbers, literals) or the order of tokens: that is the reader's.
//
// Two implementations of the block step give the same masks on every input: a scalar one,
// byte by byte, and on x86-64 an SSE2 one (every x86-64 CPU has SSE2) that builds the masks
// with compares and movemask, resolves escapes by walking the backslash bits (rare in map
// data), and computes the in-string mask by prefix XOR. UTF-8 is validated with a 16-byte
// ASCII fast path and a scalar decoder for the rest.
//
// `static inline`, like CJSONSkip.h beside it: build from a clean `.build` after editing it.

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#define GR_STRUCT_INLINE static inline __attribute__((always_inline))

/// What a block step carries to the next block.
typedef struct {
    /// 1 when the previous block ended with a backslash that escapes this block's first byte.
    uint64_t escape_carry;
    /// All ones when the previous block ended inside a string.
    uint64_t in_string_carry;
} gr_structural_state;

/// A block's masks (bit i is byte i of the block).
typedef struct {
    /// Quotes that open or close a string (escaped quotes left out).
    uint64_t quotes;
    /// Bytes inside strings: an opening quote and the string's body, not its closing quote.
    uint64_t in_string;
    /// Structural characters outside strings, and opening quotes.
    uint64_t structurals;
    /// Bytes below 0x20 inside strings (an error).
    uint64_t control_in_string;
    /// Backslashes outside strings (an error: JSON has escapes only in strings). With it
    /// flagged, reading every backslash as an escape, as the bit-parallel step must before
    /// it knows the strings, gives the same strings as reading them inside strings only.
    uint64_t backslash_outside;
} gr_structural_masks;

/// x with each bit the XOR of itself and every bit below it.
GR_STRUCT_INLINE uint64_t gr_prefix_xor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/// The bytes a backslash escapes, from the backslash bits of a block and the carry.
GR_STRUCT_INLINE uint64_t gr_escaped(uint64_t backslash, gr_structural_state *s) {
    uint64_t escaped = 0;
    if (s->escape_carry) {
        escaped = 1;
        backslash &= ~(uint64_t)1;
    }
    s->escape_carry = 0;
    while (backslash) {
        int i = __builtin_ctzll(backslash);
        if (i == 63) {
            s->escape_carry = 1;
            break;
        }
        escaped |= (uint64_t)1 << (i + 1);
        // This backslash, and the byte it escapes (a backslash too, perhaps), are done.
        backslash &= ~((uint64_t)3 << i);
    }
    return escaped;
}

/// The masks from the raw byte masks of a block (shared by both implementations).
GR_STRUCT_INLINE gr_structural_masks gr_masks_from_bits(uint64_t quote, uint64_t backslash, uint64_t ops, uint64_t control,
                                                        gr_structural_state *s) {
    gr_structural_masks m;
    uint64_t escaped = gr_escaped(backslash, s);
    m.quotes = quote & ~escaped;
    m.in_string = gr_prefix_xor(m.quotes) ^ s->in_string_carry;
    s->in_string_carry = (uint64_t)((int64_t)m.in_string >> 63);
    m.structurals = (ops & ~m.in_string) | (m.quotes & m.in_string);
    m.control_in_string = control & m.in_string & ~m.quotes;
    m.backslash_outside = backslash & ~escaped & ~m.in_string;
    return m;
}

/// The block step, byte by byte.
GR_STRUCT_INLINE gr_structural_masks gr_structural_block_scalar(const uint8_t *b, gr_structural_state *s) {
    uint64_t quote = 0, backslash = 0, ops = 0, control = 0;
    for (int i = 0; i < 64; i++) {
        uint8_t c = b[i];
        uint64_t bit = (uint64_t)1 << i;
        if (c == '"') quote |= bit;
        else if (c == '\\') backslash |= bit;
        else if (c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',') ops |= bit;
        else if (c < 0x20) control |= bit;
    }
    return gr_masks_from_bits(quote, backslash, ops, control, s);
}

#if defined(__x86_64__)
/// The block step with SSE2 compares, four 16-byte lanes.
GR_STRUCT_INLINE gr_structural_masks gr_structural_block_sse2(const uint8_t *b, gr_structural_state *s) {
    uint64_t quote = 0, backslash = 0, ops = 0, control = 0;
    const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
    const __m128i colon = _mm_set1_epi8(':'), comma = _mm_set1_epi8(',');
    const __m128i lbrace = _mm_set1_epi8('{'), rbrace = _mm_set1_epi8('}');
    const __m128i lbracket = _mm_set1_epi8('['), rbracket = _mm_set1_epi8(']');
    const __m128i bias = _mm_set1_epi8((char)0x80), limit = _mm_set1_epi8((char)(0x20 ^ 0x80));
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + 16 * k));
        uint64_t sh = 16 * (uint64_t)k;
        quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, q)) << sh;
        backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, bs)) << sh;
        __m128i o = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, comma)),
                                 _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lbrace), _mm_cmpeq_epi8(v, rbrace)),
                                              _mm_or_si128(_mm_cmpeq_epi8(v, lbracket), _mm_cmpeq_epi8(v, rbracket))));
        ops |= (uint64_t)(uint16_t)_mm_movemask_epi8(o) << sh;
        // Unsigned v < 0x20, as a signed compare of both sides biased by 0x80.
        control |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmplt_epi8(_mm_xor_si128(v, bias), limit)) << sh;
    }
    return gr_masks_from_bits(quote, backslash, ops, control, s);
}
#endif

/// Whether `p[0..<n]` is well-formed UTF-8 (RFC 3629 §4); on failure `*at` is the offset of
/// the first byte of the bad sequence.
GR_STRUCT_INLINE int gr_utf8_valid(const uint8_t *p, size_t n, size_t *at) {
    size_t i = 0;
    while (i < n) {
#if defined(__x86_64__)
        while (i + 16 <= n && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i))) == 0) i += 16;
        if (i >= n) break;
#endif
        uint8_t c = p[i];
        if (c < 0x80) { i++; continue; }
        size_t len;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c == 0xE0) { len = 3; lo = 0xA0; }
        else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) len = 3;
        else if (c == 0xED) { len = 3; hi = 0x9F; }
        else if (c == 0xF0) { len = 4; lo = 0x90; }
        else if (c >= 0xF1 && c <= 0xF3) len = 4;
        else if (c == 0xF4) { len = 4; hi = 0x8F; }
        else { *at = i; return 0; }
        if (i + len > n || p[i + 1] < lo || p[i + 1] > hi) { *at = i; return 0; }
        for (size_t k = 2; k < len; k++) {
            if (p[i + k] < 0x80 || p[i + k] > 0xBF) { *at = i; return 0; }
        }
        i += len;
    }
    return 1;
}

/// The outcome of indexing: `count` positions written (or needed, when more than `cap`),
/// and an error with the byte offset it is at.
typedef struct {
    size_t count;
    /// 0 none; 1 a string is not closed; 2 a control byte inside a string; 3 bad UTF-8;
    /// 4 a backslash outside a string.
    int error;
    size_t error_offset;
} gr_structural_result;

/// Writes the offsets of the structural characters outside strings and of the opening
/// quotes of `p[0..<n]`, in order, to `out` (at most `cap`; the count says how many there
/// are). `simd` chooses the SSE2 block step where the CPU is x86-64, else the scalar one.
GR_STRUCT_INLINE gr_structural_result gr_structural_index(const uint8_t *p, size_t n, uint32_t *out, size_t cap, int simd) {
    gr_structural_result r = {0, 0, 0};
    size_t bad;
    if (!gr_utf8_valid(p, n, &bad)) {
        r.error = 3;
        r.error_offset = bad;
        return r;
    }
    gr_structural_state s = {0, 0};
    uint8_t tail[64];
    size_t last_quote = 0;
    for (size_t base = 0; base < n; base += 64) {
        const uint8_t *b = p + base;
        if (base + 64 > n) {
            // The last block, padded with spaces (no structure, no string).
            size_t rest = n - base;
            for (size_t k = 0; k < 64; k++) tail[k] = k < rest ? p[base + k] : ' ';
            b = tail;
        }
        gr_structural_masks m;
#if defined(__x86_64__)
        m = simd ? gr_structural_block_sse2(b, &s) : gr_structural_block_scalar(b, &s);
#else
        (void)simd;
        m = gr_structural_block_scalar(b, &s);
#endif
        uint64_t bad = m.control_in_string | m.backslash_outside;
        if (bad) {
            uint64_t first = bad & (~bad + 1);
            r.error = (first & m.control_in_string) ? 2 : 4;
            r.error_offset = base + (size_t)__builtin_ctzll(bad);
            return r;
        }
        if (m.quotes & m.in_string) last_quote = base + 63 - (size_t)__builtin_clzll(m.quotes & m.in_string);
        uint64_t bits = m.structurals;
        while (bits) {
            if (r.count < cap) out[r.count] = (uint32_t)(base + (size_t)__builtin_ctzll(bits));
            r.count++;
            bits &= bits - 1;
        }
    }
    if (s.in_string_carry) {
        r.error = 1;
        r.error_offset = last_quote;
    }
    return r;
}

/// The opening and closing brackets of a block (`{` `[`, and `}` `]`), strings not
/// considered.
GR_STRUCT_INLINE void gr_bracket_masks(const uint8_t *b, uint64_t *open, uint64_t *close, int simd) {
    uint64_t o = 0, c = 0;
#if defined(__x86_64__)
    if (simd) {
        const __m128i lbrace = _mm_set1_epi8('{'), rbrace = _mm_set1_epi8('}');
        const __m128i lbracket = _mm_set1_epi8('['), rbracket = _mm_set1_epi8(']');
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + 16 * k));
            uint64_t sh = 16 * (uint64_t)k;
            o |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, lbrace), _mm_cmpeq_epi8(v, lbracket))) << sh;
            c |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, rbrace), _mm_cmpeq_epi8(v, rbracket))) << sh;
        }
        *open = o;
        *close = c;
        return;
    }
#endif
    (void)simd;
    for (int i = 0; i < 64; i++) {
        if (b[i] == '{' || b[i] == '[') o |= (uint64_t)1 << i;
        else if (b[i] == '}' || b[i] == ']') c |= (uint64_t)1 << i;
    }
    *open = o;
    *close = c;
}

/// Skips the array or object whose opening bracket is at `p[start]`, under the structural
/// contract: strings closed, no control byte in a string, no backslash outside one,
/// brackets matched, nesting within `max_nesting` levels and the value's bytes well-formed
/// UTF-8 are checked; the grammar of numbers and literals and the order of tokens are not.
/// Returns the offset after the closing bracket, or -1 when the value breaks one of those
/// rules, is deeper than `max_nesting` (or 512) or does not end before `end`: the caller's
/// validating skipper then reads it and reports what is wrong where.
GR_STRUCT_INLINE intptr_t gr_skip_structural(const uint8_t *p, intptr_t start, intptr_t end, intptr_t max_nesting, int simd) {
    gr_structural_state s = {0, 0};
    uint64_t square[8] = {0, 0, 0, 0, 0, 0, 0, 0};   // bit d: the bracket opened at depth d is '['
    intptr_t depth = 0;
    uint8_t tail[64];
    if (max_nesting > 512) max_nesting = 512;
    for (intptr_t base = start; base < end; base += 64) {
        const uint8_t *b = p + base;
        if (end - base < 64) {
            intptr_t rest = end - base;
            for (intptr_t k = 0; k < 64; k++) tail[k] = k < rest ? b[k] : ' ';
            b = tail;
        }
        gr_structural_masks m;
#if defined(__x86_64__)
        m = simd ? gr_structural_block_sse2(b, &s) : gr_structural_block_scalar(b, &s);
#else
        m = gr_structural_block_scalar(b, &s);
#endif
        uint64_t open, close;
        gr_bracket_masks(b, &open, &close, simd);
        open &= ~m.in_string;
        close &= ~m.in_string;
        uint64_t bad = m.control_in_string | m.backslash_outside;
        uint64_t bits = open | close;
        while (bits) {
            int i = __builtin_ctzll(bits);
            uint64_t bit = bits & (~bits + 1);
            bits &= bits - 1;
            if (bad & (bit - 1)) return -1;          // an error before this bracket
            int is_square = b[i] == '[' || b[i] == ']';
            if (open & bit) {
                if (depth >= max_nesting) return -1;
                uint64_t w = (uint64_t)1 << (depth & 63);
                if (is_square) square[depth >> 6] |= w; else square[depth >> 6] &= ~w;
                depth++;
            } else {
                if (depth == 0) return -1;
                depth--;
                int opened_square = (square[depth >> 6] >> (depth & 63)) & 1;
                if (opened_square != is_square) return -1;
                if (depth == 0) {
                    intptr_t e = base + i + 1;
                    size_t at;
                    if (!gr_utf8_valid(p + start, (size_t)(e - start), &at)) return -1;
                    return e;
                }
            }
        }
        if (bad) return -1;
    }
    return -1;
}

#endif
