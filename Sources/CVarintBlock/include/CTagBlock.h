#ifndef GRATICULE_CTAGBLOCK_H
#define GRATICULE_CTAGBLOCK_H

// The validator's check of a vector tile feature's tags (MVT 2.1 B6, B7) when the layer's
// key or value table has more than 128 entries (OSM QA tiles have thousands of values, and
// value indices of two and three bytes): 16 bytes of the packed tags record at a time, with
// SSE2, which every x86-64 CPU has. `VectorTile.Feature._checkTagBlocks` calls it; the
// pairs it does not take go on the scalar loops, which report any error.
//
// `static inline`, like CVarintBlock.h (see there why, and why a clean build is needed
// after editing this header).

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>

/// How indices into one table of `count` entries (1 ... 2^21) are compared. Its largest
/// index m = count - 1 takes `length` bytes as a varint. An index of fewer bytes is below
/// 2^(7 (length - 1)) <= m and passes; one of more bytes fails (it is out of range or an
/// overlong form, which the scalar loops tell apart); one of `length` bytes is compared by
/// its top digit (the 7 bits of its last byte) and, when that digit equals m's, by the
/// digit before it.
typedef struct {
    /// In every byte: m's top digit, and that digit minus one (a digit is above, or at
    /// least, m's top digit when it is greater than these, compared as signed bytes).
    __m128i top, top_minus_one;
    /// In every byte, the digit that the digit before the top must not pass: for two
    /// bytes, m's low digit (exact); for three bytes, m's middle digit minus one (a
    /// conservative test: an index whose two upper digits equal m's fails, and the scalar
    /// loops judge it); for one byte, 127 (never passed).
    __m128i before_top;
} gr_tag_bound;

/// The bounds of a layer's key and value tables, made once per layer (`gr_tag_bounds_make`).
typedef struct {
    gr_tag_bound keys, values;
    /// The index lengths, key_length * 4 + value_length; 0 when a table is empty or has
    /// more than 2^21 entries (nothing is checked then).
    int lengths;
} gr_tag_bounds;

static inline int gr_tag_index_length(uint32_t count) {
    uint32_t m = count - 1;
    return m < (1u << 7) ? 1 : m < (1u << 14) ? 2 : m < (1u << 21) ? 3 : 0;
}

static inline gr_tag_bound gr_tag_bound_make(uint32_t count, int length) {
    uint32_t m = count - 1;
    int top = (int)(m >> (7 * (length - 1)));
    int before = length == 1 ? 127 : length == 2 ? (int)(m & 127) : (int)((m >> 7) & 127) - 1;
    gr_tag_bound t;
    t.top = _mm_set1_epi8((char)top);
    t.top_minus_one = _mm_set1_epi8((char)(top - 1));
    t.before_top = _mm_set1_epi8((char)before);
    return t;
}

static inline gr_tag_bounds gr_tag_bounds_make(uint32_t key_count, uint32_t value_count) {
    gr_tag_bounds b;
    int kl = gr_tag_index_length(key_count), vl = gr_tag_index_length(value_count);
    b.lengths = kl && vl ? kl * 4 + vl : 0;
    b.keys = gr_tag_bound_make(b.lengths ? key_count : 1, b.lengths ? kl : 1);
    b.values = gr_tag_bound_make(b.lengths ? value_count : 1, b.lengths ? vl : 1);
    return b;
}

/// The ends (one bit per byte) of indices of `length` bytes into table `t` that fail, among
/// the varint ends of a block whose digits are `digit` and whose digits one byte earlier
/// are `digit_before`; `more1`, `more2`, `more3` mark the bytes one, two and three places
/// after a continuation byte (shifted by `shift` like every mask of the block).
static inline __attribute__((always_inline)) uint32_t gr_tag_failing(
    const gr_tag_bound *t, int length, __m128i digit, __m128i digit_before, unsigned shift,
    uint32_t more1, uint32_t more2, uint32_t more3) {
    __m128i above = _mm_cmpgt_epi8(digit, t->top);
    if (length == 1) return more1 | ((uint32_t)_mm_movemask_epi8(above) >> shift);
    __m128i fails = _mm_or_si128(above, _mm_and_si128(_mm_cmpgt_epi8(digit, t->top_minus_one),
                                                      _mm_cmpgt_epi8(digit_before, t->before_top)));
    uint32_t f = (uint32_t)_mm_movemask_epi8(fails) >> shift;
    return length == 2 ? more1 & (more2 | f) : more1 & more2 & (more3 | f);
}

/// One block of `gr_check_tags`: the bytes of `v` from position `shift` on, `valid` (a mask
/// of them, from bit 0) holding the record's bytes; `before` holds in each byte the byte
/// before it in the record. `carry` is the continuation bits of the 16 bytes before the
/// block, `parity` 0xFFFF when an odd number of varints ended before it. Returns the bits
/// of the ends that fail (nonzero: the block stops the walk); sets the block's
/// continuation bits, its value indices' ends and the parity after it.
static inline __attribute__((always_inline)) uint32_t gr_tag_block(
    __m128i v, __m128i before, unsigned shift, uint32_t valid, uint32_t carry, uint32_t parity,
    const gr_tag_bounds *bounds, int key_length, int value_length,
    uint32_t *cont_out, uint32_t *value_ends_out, uint32_t *parity_out) {
    const __m128i low7 = _mm_set1_epi8(0x7F);
    uint32_t cont = ((uint32_t)_mm_movemask_epi8(v) >> shift) & valid;
    uint32_t ends = ~cont & valid;
    uint32_t more1 = ((cont << 1) | (carry >> 15)) & 0xFFFF;
    uint32_t more2 = ((cont << 2) | (carry >> 14)) & 0xFFFF;
    uint32_t more3 = ((cont << 3) | (carry >> 13)) & 0xFFFF;
    // Bit i of `odd`: the varints ending in bytes 0 ... i are odd in number. An end is a key
    // index's when those before the block and those up to it, it included, are odd.
    uint32_t odd = ends;
    odd ^= odd << 1;
    odd ^= odd << 2;
    odd ^= odd << 4;
    odd ^= odd << 8;
    uint32_t key_ends = ends & (odd ^ parity);
    uint32_t value_ends = ends ^ key_ends;
    __m128i digit = _mm_and_si128(v, low7), digit_before = _mm_and_si128(before, low7);
    uint32_t bad = (key_ends & gr_tag_failing(&bounds->keys, key_length, digit, digit_before, shift, more1, more2, more3))
        | (value_ends & gr_tag_failing(&bounds->values, value_length, digit, digit_before, shift, more1, more2, more3))
        // Three bytes in a row that continue a varint: four bytes or more, which no index
        // below 2^21 takes.
        | (cont & more1 & more2);
    *cont_out = cont;
    *value_ends_out = value_ends;
    *parity_out = parity ^ (0u - ((odd >> 15) & 1)) & 0xFFFF;
    return bad;
}

/// Offset after the last value index that ends in the block at `q` - 16 (`value_ends`), or
/// 0 when `q` is 0. Every block taken holds at least five varint ends (no three bytes in a
/// row continue a varint), so one of them is a value index's.
static inline long gr_tag_blocks_before(long q, uint32_t value_ends) {
    return q == 0 ? 0 : q - 16 + (31 - __builtin_clz(value_ends)) + 1;
}

/// `gr_check_tags` for key and value indices of `key_length` and `value_length` bytes
/// (constants in each call, so each pair compiles to its own loop).
static inline __attribute__((always_inline)) long gr_check_tags_of(
    const uint8_t *b, long n, long before, long loadable, const gr_tag_bounds *bounds,
    int key_length, int value_length) {
    __m128i previous = _mm_setzero_si128();
    uint32_t carry = 0, parity = 0, value_ends = 0;
    long q = 0;
    for (; q + 16 <= n; q += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(b + q));
        __m128i prior = _mm_or_si128(_mm_slli_si128(v, 1), _mm_srli_si128(previous, 15));
        uint32_t cont, ends, after;
        if (gr_tag_block(v, prior, 0, 0xFFFF, carry, parity, bounds, key_length, value_length,
                         &cont, &ends, &after) != 0)
            return gr_tag_blocks_before(q, value_ends);
        previous = v;
        carry = cont;
        parity = after;
        value_ends = ends;
    }
    long left = n - q;
    if (left == 0) return q == 0 || (value_ends & 0x8000) ? n : gr_tag_blocks_before(q, value_ends);
    uint32_t valid = (1u << left) - 1;
    __m128i v, prior;
    unsigned shift;
    if (q + 16 <= loadable) {
        v = _mm_loadu_si128((const __m128i *)(b + q));
        prior = _mm_or_si128(_mm_slli_si128(v, 1), _mm_srli_si128(previous, 15));
        shift = 0;
    } else if (n + before >= 16) {
        // The 16 bytes that end at the record's end: the last `left` are the block's, and
        // the byte before each of them is in the same load (the first one's is read only
        // when a varint continues into it, which the carry tells).
        v = _mm_loadu_si128((const __m128i *)(b + n - 16));
        prior = _mm_slli_si128(v, 1);
        shift = (unsigned)(16 - left);
    } else {
        return gr_tag_blocks_before(q, value_ends);
    }
    uint32_t cont, ends, after;
    uint32_t bad = gr_tag_block(v, prior, shift, valid, carry, parity, bounds, key_length, value_length,
                                &cont, &ends, &after);
    return bad == 0 && ((ends >> (left - 1)) & 1) ? n : gr_tag_blocks_before(q, value_ends);
}

/// How far the tag pairs of a packed tags record, `n` bytes at `b`, are known to be valid
/// (B6: whole pairs; B7: indices below the counts of the tables that `bounds` was made
/// for): `n` when they all are, else the offset after the last pair taken (the scalar
/// loops go on from there and report any error); 0 for tables without bounds, or with key
/// indices of three bytes. Bytes may be loaded from `before` bytes before `b` to
/// `loadable` bytes after it.
///
/// The record is read 16 bytes at a time at a fixed stride, so no load waits for the one
/// before. In each block the varints' ends are the bytes below 0x80; a running parity of
/// the ends (carried from block to block) tells a key index's end from a value index's.
/// At each end the varint's length comes from the continuation bits of the three bytes
/// before it, and its last digit and the one before it are compared with its table's bound
/// (`gr_tag_bound`), all ends at once. A block stops the walk when an end fails or when
/// three bytes in a row continue a varint; the pairs before the block are taken. The last
/// bytes are read in a block that starts at the last block's place (when 16 bytes can be
/// loaded there) or ends at the record's end, with the rest of the block masked off, and
/// the record's last byte must end a value index.
static inline long gr_check_tags(const uint8_t *b, long n, long before, long loadable, const gr_tag_bounds *bounds) {
    switch (bounds->lengths) {
    case 1 * 4 + 1: return gr_check_tags_of(b, n, before, loadable, bounds, 1, 1);
    case 1 * 4 + 2: return gr_check_tags_of(b, n, before, loadable, bounds, 1, 2);
    case 1 * 4 + 3: return gr_check_tags_of(b, n, before, loadable, bounds, 1, 3);
    case 2 * 4 + 1: return gr_check_tags_of(b, n, before, loadable, bounds, 2, 1);
    case 2 * 4 + 2: return gr_check_tags_of(b, n, before, loadable, bounds, 2, 2);
    case 2 * 4 + 3: return gr_check_tags_of(b, n, before, loadable, bounds, 2, 3);
    default: return 0;
    }
}

#endif

#endif
