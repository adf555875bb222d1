#ifndef GRATICULE_CJSONSTRUCTURAL_H
#define GRATICULE_CJSONSTRUCTURAL_H

// A structural index of JSON text, 64 bytes at a time: where the structural characters
// ({ } [ ] : ,) outside strings and the opening quotes of strings are, with backslash
// escapes resolved and the in-string state carried from block to block. It checks what
// the structural skip contract checks: strings closed, no control byte (below 0x20) inside
// a string, no backslash outside one, and well-formed UTF-8 (RFC 3629) over the whole input. It does not check the
// grammar of scalars (numbers, literals) or the order of tokens: that is the reader's.
//
// Three implementations of the block step give the same masks on every input: a scalar
// one, byte by byte; on x86-64 an SSE2 one (every x86-64 CPU has SSE2) that builds the masks
// with compares and movemask over four 16-byte lanes; and an AVX2 one over two 32-byte
// lanes, compiled for AVX2 alone (`target("avx2")`) and run only where `gr_simd_level`
// finds the CPU and the OS support it. All three resolve escapes by walking the backslash
// bits (rare in map data) and compute the in-string mask by prefix XOR. UTF-8 is validated
// with an ASCII fast path of the level's width and a scalar decoder for the rest.
//
// A `simd` argument names the level: 0 scalar, 1 SSE2, 2 AVX2. A level the CPU lacks is
// lowered to the best it has, so no caller can run an instruction the CPU does not have.
//
// `static inline`, like CJSONSkip.h beside it: build from a clean `.build` after editing it.

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define GR_AVX2 __attribute__((target("avx2")))
#endif

#define GR_STRUCT_INLINE static inline __attribute__((always_inline))

/// The widest block step this CPU and OS can run: 2 AVX2, 1 SSE2 (x86-64), 0 scalar.
/// AVX2 needs the CPUID feature bit (leaf 7, EBX bit 5) and the OS saving the YMM registers
/// (CPUID leaf 1 ECX bit 27, OSXSAVE, then XCR0 bits 1 and 2).
static inline int gr_simd_level(void) {
#if defined(__x86_64__)
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 1;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6u) != 6u) return 1;
    if (__get_cpuid_max(0, 0) < 7) return 1;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 5)) ? 2 : 1;
#else
    return 0;
#endif
}

/// `level` lowered to what this CPU runs (computed once).
static inline int gr_usable_level(int level) {
    static int best = -1;
    int b = __atomic_load_n(&best, __ATOMIC_RELAXED);
    if (b < 0) {
        b = gr_simd_level();
        __atomic_store_n(&best, b, __ATOMIC_RELAXED);
    }
    return level < b ? level : b;
}

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

/// The block step, byte by byte. Every step also gives the block's opening and closing
/// brackets (`{` `[`, and `}` `]`, strings not considered), which the skipper needs.
GR_STRUCT_INLINE gr_structural_masks gr_structural_block_scalar(const uint8_t *b, gr_structural_state *s,
                                                                uint64_t *open, uint64_t *close) {
    uint64_t quote = 0, backslash = 0, ops = 0, control = 0, o = 0, c = 0;
    for (int i = 0; i < 64; i++) {
        uint8_t ch = b[i];
        uint64_t bit = (uint64_t)1 << i;
        if (ch == '"') quote |= bit;
        else if (ch == '\\') backslash |= bit;
        else if (ch == '{' || ch == '[') o |= bit;
        else if (ch == '}' || ch == ']') c |= bit;
        else if (ch == ':' || ch == ',') ops |= bit;
        else if (ch < 0x20) control |= bit;
    }
    *open = o;
    *close = c;
    return gr_masks_from_bits(quote, backslash, ops | o | c, control, s);
}

#if defined(__x86_64__)
/// The block step with SSE2 compares, four 16-byte lanes.
GR_STRUCT_INLINE gr_structural_masks gr_structural_block_sse2(const uint8_t *b, gr_structural_state *s,
                                                              uint64_t *open, uint64_t *close) {
    uint64_t quote = 0, backslash = 0, ops = 0, control = 0, o = 0, c = 0;
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
        __m128i opening = _mm_or_si128(_mm_cmpeq_epi8(v, lbrace), _mm_cmpeq_epi8(v, lbracket));
        __m128i closing = _mm_or_si128(_mm_cmpeq_epi8(v, rbrace), _mm_cmpeq_epi8(v, rbracket));
        o |= (uint64_t)(uint16_t)_mm_movemask_epi8(opening) << sh;
        c |= (uint64_t)(uint16_t)_mm_movemask_epi8(closing) << sh;
        ops |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, comma))) << sh;
        // Unsigned v < 0x20, as a signed compare of both sides biased by 0x80.
        control |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmplt_epi8(_mm_xor_si128(v, bias), limit)) << sh;
    }
    *open = o;
    *close = c;
    return gr_masks_from_bits(quote, backslash, ops | o | c, control, s);
}

/// The block step with AVX2 compares, two 32-byte lanes.
GR_AVX2 GR_STRUCT_INLINE gr_structural_masks gr_structural_block_avx2(const uint8_t *b, gr_structural_state *s,
                                                                     uint64_t *open, uint64_t *close) {
    uint64_t quote = 0, backslash = 0, ops = 0, control = 0, o = 0, c = 0;
    const __m256i q = _mm256_set1_epi8('"'), bs = _mm256_set1_epi8('\\');
    const __m256i colon = _mm256_set1_epi8(':'), comma = _mm256_set1_epi8(',');
    const __m256i lbrace = _mm256_set1_epi8('{'), rbrace = _mm256_set1_epi8('}');
    const __m256i lbracket = _mm256_set1_epi8('['), rbracket = _mm256_set1_epi8(']');
    const __m256i bias = _mm256_set1_epi8((char)0x80), limit = _mm256_set1_epi8((char)(0x20 ^ 0x80));
    for (int k = 0; k < 2; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(b + 32 * k));
        uint64_t sh = 32 * (uint64_t)k;
        quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, q)) << sh;
        backslash |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, bs)) << sh;
        __m256i opening = _mm256_or_si256(_mm256_cmpeq_epi8(v, lbrace), _mm256_cmpeq_epi8(v, lbracket));
        __m256i closing = _mm256_or_si256(_mm256_cmpeq_epi8(v, rbrace), _mm256_cmpeq_epi8(v, rbracket));
        o |= (uint64_t)(uint32_t)_mm256_movemask_epi8(opening) << sh;
        c |= (uint64_t)(uint32_t)_mm256_movemask_epi8(closing) << sh;
        ops |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(v, colon), _mm256_cmpeq_epi8(v, comma))) << sh;
        // Unsigned v < 0x20, as a signed compare of both sides biased by 0x80.
        control |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(limit, _mm256_xor_si256(v, bias))) << sh;
    }
    *open = o;
    *close = c;
    return gr_masks_from_bits(quote, backslash, ops | o | c, control, s);
}
#endif

/// The length of the well-formed UTF-8 sequence (RFC 3629 §4) that starts with the non-ASCII
/// byte `p[i]`, or 0 when it is not one.
GR_STRUCT_INLINE size_t gr_utf8_sequence(const uint8_t *p, size_t i, size_t n) {
    uint8_t c = p[i];
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) len = 3;
    else if (c == 0xED) { len = 3; hi = 0x9F; }
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) { len = 4; hi = 0x8F; }
    else return 0;
    if (i + len > n || p[i + 1] < lo || p[i + 1] > hi) return 0;
    for (size_t k = 2; k < len; k++) {
        if (p[i + k] < 0x80 || p[i + k] > 0xBF) return 0;
    }
    return len;
}

/// Past the ASCII bytes from `i`, byte by byte.
GR_STRUCT_INLINE size_t gr_ascii_run_scalar(const uint8_t *p, size_t i, size_t n) {
    while (i < n && p[i] < 0x80) i++;
    return i;
}

#if defined(__x86_64__)
/// Past the ASCII bytes from `i`, 16 at a time where it can.
GR_STRUCT_INLINE size_t gr_ascii_run_sse2(const uint8_t *p, size_t i, size_t n) {
    while (i + 16 <= n && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i))) == 0) i += 16;
    return gr_ascii_run_scalar(p, i, n);
}

/// Past the ASCII bytes from `i`, 32 at a time where it can.
GR_AVX2 GR_STRUCT_INLINE size_t gr_ascii_run_avx2(const uint8_t *p, size_t i, size_t n) {
    while (i + 32 <= n && _mm256_movemask_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + i))) == 0) i += 32;
    return gr_ascii_run_sse2(p, i, n);
}

#endif

// One body per level for the loops below, each compiled with its level's block step and
// ASCII run inlined (an AVX2 step can only be inlined into a function compiled for AVX2,
// so the levels cannot share one function).

/// Defines `NAME(p, n, at)`: whether `p[0..<n]` is well-formed UTF-8 (RFC 3629 §4); on
/// failure `*at` is the offset of the first byte of the bad sequence.
#define GR_DEFINE_UTF8_VALID(NAME, ATTR, ASCII_RUN)                                  \
    ATTR static inline int NAME(const uint8_t *p, size_t n, size_t *at) {           \
        size_t i = 0;                                                               \
        while (i < n) {                                                             \
            i = ASCII_RUN(p, i, n);                                                 \
            if (i >= n) break;                                                      \
            size_t len = gr_utf8_sequence(p, i, n);                                 \
            if (len == 0) {                                                         \
                *at = i;                                                            \
                return 0;                                                           \
            }                                                                       \
            i += len;                                                               \
        }                                                                           \
        return 1;                                                                   \
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

/// Defines `NAME(p, n, out, cap)`: writes the offsets of the structural characters outside
/// strings and of the opening quotes of `p[0..<n]`, in order, to `out` (at most `cap`; the
/// count says how many there are).
#define GR_DEFINE_STRUCTURAL_INDEX(NAME, ATTR, STEP, UTF8_VALID)                              \
    ATTR static inline gr_structural_result NAME(const uint8_t *p, size_t n, uint32_t *out, size_t cap) { \
        gr_structural_result r = {0, 0, 0};                                                  \
        size_t bad;                                                                          \
        if (!UTF8_VALID(p, n, &bad)) {                                                       \
            r.error = 3;                                                                     \
            r.error_offset = bad;                                                            \
            return r;                                                                        \
        }                                                                                    \
        gr_structural_state s = {0, 0};                                                      \
        uint8_t tail[64];                                                                    \
        size_t last_quote = 0;                                                               \
        for (size_t base = 0; base < n; base += 64) {                                        \
            const uint8_t *b = p + base;                                                     \
            if (base + 64 > n) {                                                             \
                /* The last block, padded with spaces (no structure, no string). */          \
                size_t rest = n - base;                                                      \
                for (size_t k = 0; k < 64; k++) tail[k] = k < rest ? p[base + k] : ' ';      \
                b = tail;                                                                    \
            }                                                                                \
            uint64_t open, close;                                                            \
            gr_structural_masks m = STEP(b, &s, &open, &close);                              \
            uint64_t wrong = m.control_in_string | m.backslash_outside;                      \
            if (wrong) {                                                                     \
                uint64_t first = wrong & (~wrong + 1);                                       \
                r.error = (first & m.control_in_string) ? 2 : 4;                             \
                r.error_offset = base + (size_t)__builtin_ctzll(wrong);                      \
                return r;                                                                    \
            }                                                                                \
            if (m.quotes & m.in_string)                                                      \
                last_quote = base + 63 - (size_t)__builtin_clzll(m.quotes & m.in_string);    \
            uint64_t bits = m.structurals;                                                   \
            while (bits) {                                                                   \
                if (r.count < cap) out[r.count] = (uint32_t)(base + (size_t)__builtin_ctzll(bits)); \
                r.count++;                                                                   \
                bits &= bits - 1;                                                            \
            }                                                                                \
        }                                                                                    \
        if (s.in_string_carry) {                                                             \
            r.error = 1;                                                                     \
            r.error_offset = last_quote;                                                     \
        }                                                                                    \
        return r;                                                                            \
    }

/// Defines `NAME(p, start, end, max_nesting)`: the structural skip (see `gr_skip_structural`).
#define GR_DEFINE_SKIP_STRUCTURAL(NAME, ATTR, STEP, UTF8_VALID)                               \
    ATTR static inline intptr_t NAME(const uint8_t *p, intptr_t start, intptr_t end, intptr_t max_nesting) { \
        gr_structural_state s = {0, 0};                                                      \
        uint64_t square[8] = {0, 0, 0, 0, 0, 0, 0, 0}; /* bit d: depth d opened with '[' */  \
        intptr_t depth = 0;                                                                  \
        uint8_t tail[64];                                                                    \
        if (max_nesting > 512) max_nesting = 512;                                            \
        for (intptr_t base = start; base < end; base += 64) {                                \
            const uint8_t *b = p + base;                                                     \
            if (end - base < 64) {                                                           \
                intptr_t rest = end - base;                                                  \
                for (intptr_t k = 0; k < 64; k++) tail[k] = k < rest ? b[k] : ' ';           \
                b = tail;                                                                    \
            }                                                                                \
            uint64_t open, close;                                                            \
            gr_structural_masks m = STEP(b, &s, &open, &close);                              \
            open &= ~m.in_string;                                                            \
            close &= ~m.in_string;                                                           \
            uint64_t wrong = m.control_in_string | m.backslash_outside;                      \
            uint64_t bits = open | close;                                                    \
            while (bits) {                                                                   \
                int i = __builtin_ctzll(bits);                                               \
                uint64_t bit = bits & (~bits + 1);                                           \
                bits &= bits - 1;                                                            \
                if (wrong & (bit - 1)) return -1; /* an error before this bracket */         \
                int is_square = b[i] == '[' || b[i] == ']';                                  \
                if (open & bit) {                                                            \
                    if (depth >= max_nesting) return -1;                                     \
                    uint64_t w = (uint64_t)1 << (depth & 63);                                \
                    if (is_square) square[depth >> 6] |= w; else square[depth >> 6] &= ~w;  \
                    depth++;                                                                 \
                } else {                                                                     \
                    if (depth == 0) return -1;                                               \
                    depth--;                                                                 \
                    int opened_square = (square[depth >> 6] >> (depth & 63)) & 1;            \
                    if (opened_square != is_square) return -1;                               \
                    if (depth == 0) {                                                        \
                        intptr_t e = base + i + 1;                                           \
                        size_t at;                                                           \
                        if (!UTF8_VALID(p + start, (size_t)(e - start), &at)) return -1;     \
                        return e;                                                            \
                    }                                                                        \
                }                                                                            \
            }                                                                                \
            if (wrong) return -1;                                                            \
        }                                                                                    \
        return -1;                                                                           \
    }

GR_DEFINE_UTF8_VALID(gr_utf8_valid_scalar, , gr_ascii_run_scalar)
GR_DEFINE_STRUCTURAL_INDEX(gr_structural_index_scalar, , gr_structural_block_scalar, gr_utf8_valid_scalar)
GR_DEFINE_SKIP_STRUCTURAL(gr_skip_structural_scalar, , gr_structural_block_scalar, gr_utf8_valid_scalar)

#if defined(__x86_64__)
GR_DEFINE_UTF8_VALID(gr_utf8_valid_sse2, , gr_ascii_run_sse2)
GR_DEFINE_STRUCTURAL_INDEX(gr_structural_index_sse2, , gr_structural_block_sse2, gr_utf8_valid_sse2)
GR_DEFINE_SKIP_STRUCTURAL(gr_skip_structural_sse2, , gr_structural_block_sse2, gr_utf8_valid_sse2)

GR_DEFINE_UTF8_VALID(gr_utf8_valid_avx2, GR_AVX2, gr_ascii_run_avx2)
GR_DEFINE_STRUCTURAL_INDEX(gr_structural_index_avx2, GR_AVX2, gr_structural_block_avx2, gr_utf8_valid_avx2)
GR_DEFINE_SKIP_STRUCTURAL(gr_skip_structural_avx2, GR_AVX2, gr_structural_block_avx2, gr_utf8_valid_avx2)
#endif

/// Whether `p[0..<n]` is well-formed UTF-8 (RFC 3629 §4); on failure `*at` is the offset of
/// the first byte of the bad sequence.
static inline int gr_utf8_valid(const uint8_t *p, size_t n, size_t *at, int simd) {
#if defined(__x86_64__)
    switch (gr_usable_level(simd)) {
    case 2: return gr_utf8_valid_avx2(p, n, at);
    case 1: return gr_utf8_valid_sse2(p, n, at);
    default: break;
    }
#else
    (void)simd;
#endif
    return gr_utf8_valid_scalar(p, n, at);
}

/// Writes the offsets of the structural characters outside strings and of the opening
/// quotes of `p[0..<n]`, in order, to `out` (at most `cap`; the count says how many there
/// are), with the block step of level `simd` (see the top of this file).
static inline gr_structural_result gr_structural_index(const uint8_t *p, size_t n, uint32_t *out, size_t cap, int simd) {
#if defined(__x86_64__)
    switch (gr_usable_level(simd)) {
    case 2: return gr_structural_index_avx2(p, n, out, cap);
    case 1: return gr_structural_index_sse2(p, n, out, cap);
    default: break;
    }
#else
    (void)simd;
#endif
    return gr_structural_index_scalar(p, n, out, cap);
}

/// Skips the array or object whose opening bracket is at `p[start]`, under the structural
/// contract: strings closed, no control byte in a string, no backslash outside one,
/// brackets matched, nesting within `max_nesting` levels and the value's bytes well-formed
/// UTF-8 are checked; the grammar of numbers and literals and the order of tokens are not.
/// Returns the offset after the closing bracket, or -1 when the value breaks one of those
/// rules, is deeper than `max_nesting` (or 512) or does not end before `end`: the caller's
/// validating skipper then reads it and reports what is wrong where. `simd` is the level of
/// the block step (see the top of this file).
static inline intptr_t gr_skip_structural(const uint8_t *p, intptr_t start, intptr_t end, intptr_t max_nesting, int simd) {
#if defined(__x86_64__)
    switch (gr_usable_level(simd)) {
    case 2: return gr_skip_structural_avx2(p, start, end, max_nesting);
    case 1: return gr_skip_structural_sse2(p, start, end, max_nesting);
    default: break;
    }
#else
    (void)simd;
#endif
    return gr_skip_structural_scalar(p, start, end, max_nesting);
}

#endif
