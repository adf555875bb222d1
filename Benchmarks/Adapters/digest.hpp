// Result digests for the C++ adapters: the counts and order-independent checksum that the
// runner compares with graticule's before it times an implementation (see `ResultDigest`
// in Sources/BenchKit/ResultDigest.swift and the ResultDigests article of the Workloads
// module; Benchmarks/Adapters/result_digest.py is the same in Python).
//
// An element's hash is FNV-1a (64 bit) of its byte encoding, finished with the SplitMix64
// mixer; the checksum is the wrapping sum of the element hashes. Text form:
// `features=2 positions=10 properties=4 checksum=00ff12ab34cd56ef`.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace graticule_digest {

inline uint64_t element_hash(const std::string& bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char b : bytes) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    uint64_t z = h + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Little-endian appends (the machines these adapters run on are little-endian; checked).
inline void put_u32(std::string& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}
inline void put_u64(std::string& out, uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}
// A double's IEEE 754 bits; -0 is written as +0.
inline void put_double(std::string& out, double d) {
    if (d == 0) d = 0;
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    put_u64(out, bits);
}
// A string as its UTF-8 length (4 bytes) and bytes.
inline void put_string(std::string& out, const char* data, std::size_t size) {
    put_u32(out, static_cast<uint32_t>(size));
    out.append(data, size);
}
inline void put_string(std::string& out, const std::string& s) { put_string(out, s.data(), s.size()); }

// A JSON value as the digest sees it: numbers are doubles, objects are unordered (their
// members are encoded sorted by key bytes).
struct Value {
    enum Kind { null, boolean, number, string, array, object } kind = null;
    bool b = false;
    double n = 0;
    std::string s;
    std::vector<Value> items;
    std::vector<std::pair<std::string, Value>> members;

    static Value of_null() { return Value(); }
    static Value of_bool(bool v) { Value x; x.kind = boolean; x.b = v; return x; }
    static Value of_number(double v) { Value x; x.kind = number; x.n = v; return x; }
    static Value of_string(std::string v) { Value x; x.kind = string; x.s = std::move(v); return x; }

    void encode(std::string& out) const {
        switch (kind) {
        case null: out.push_back('n'); break;
        case boolean: out.push_back(b ? 't' : 'f'); break;
        case number: out.push_back('d'); put_double(out, n); break;
        case string: out.push_back('s'); put_string(out, s); break;
        case array:
            out.push_back('a');
            put_u32(out, static_cast<uint32_t>(items.size()));
            for (const auto& v : items) v.encode(out);
            break;
        case object: {
            out.push_back('o');
            put_u32(out, static_cast<uint32_t>(members.size()));
            std::vector<const std::pair<std::string, Value>*> sorted;
            for (const auto& m : members) sorted.push_back(&m);
            std::sort(sorted.begin(), sorted.end(), [](const std::pair<std::string, Value>* a, const std::pair<std::string, Value>* b) {
                return std::lexicographical_compare(a->first.begin(), a->first.end(), b->first.begin(), b->first.end(),
                                                    [](char x, char y) { return static_cast<unsigned char>(x) < static_cast<unsigned char>(y); });
            });
            for (const auto* m : sorted) {
                put_string(out, m->first);
                m->second.encode(out);
            }
            break;
        }
        }
    }
};

// Counts in a fixed order and the checksum of the elements added.
class Digest {
public:
    explicit Digest(std::vector<std::string> names) : names_(std::move(names)), counts_(names_.size(), 0) {}
    void count(std::size_t index, uint64_t by = 1) { counts_[index] += by; }
    void add(const std::string& element) { checksum_ += element_hash(element); }
    std::string text() const {
        std::string out;
        char buf[64];
        for (std::size_t i = 0; i < names_.size(); ++i) {
            std::snprintf(buf, sizeof buf, "%" PRIu64 " ", counts_[i]);
            out += names_[i] + "=" + buf;
        }
        std::snprintf(buf, sizeof buf, "checksum=%016" PRIx64, checksum_);
        return out + buf;
    }

private:
    std::vector<std::string> names_;
    std::vector<uint64_t> counts_;
    uint64_t checksum_ = 0;
};

// `geojson.parse`: counts features, positions and properties; each position is `c`, x, y
// and each member of a feature's properties `p`, key, value.
class GeoJSONDigest {
public:
    void feature() { d_.count(0); }
    void position(double x, double y) {
        d_.count(1);
        scratch_.clear();
        scratch_.push_back('c');
        put_double(scratch_, x);
        put_double(scratch_, y);
        d_.add(scratch_);
    }
    void property(const std::string& key, const Value& value) {
        d_.count(2);
        scratch_.clear();
        scratch_.push_back('p');
        put_string(scratch_, key);
        value.encode(scratch_);
        d_.add(scratch_);
    }
    std::string text() const { return d_.text(); }

private:
    Digest d_{{"features", "positions", "properties"}};
    std::string scratch_;
};

// `mvt.decode`: counts layers, features, vertices and properties; each feature is `f`,
// layer name, whether it has an id (1 byte) and the id (8 bytes), geometry type (1 byte),
// vertex count (4 bytes); each vertex `v`, x and y (8 bytes each, two's complement); each
// tag `p`, layer name, key, value (integers and floats as doubles).
// With `validating`, also counts `rejected` tiles (mode validating).
class MVTDigest {
public:
    explicit MVTDigest(bool validating = false)
        : d_(validating ? std::vector<std::string>{"layers", "features", "vertices", "properties", "rejected"}
                        : std::vector<std::string>{"layers", "features", "vertices", "properties"}) {}
    void layer() { d_.count(0); }
    void rejected() { d_.count(4); }
    void feature(const std::string& layer, bool has_id, uint64_t id, uint8_t type, uint32_t vertices) {
        d_.count(1);
        scratch_.clear();
        scratch_.push_back('f');
        put_string(scratch_, layer);
        scratch_.push_back(has_id ? 1 : 0);
        put_u64(scratch_, has_id ? id : 0);
        scratch_.push_back(static_cast<char>(type));
        put_u32(scratch_, vertices);
        d_.add(scratch_);
    }
    void vertex(int64_t x, int64_t y) {
        d_.count(2);
        scratch_.clear();
        scratch_.push_back('v');
        put_u64(scratch_, static_cast<uint64_t>(x));
        put_u64(scratch_, static_cast<uint64_t>(y));
        d_.add(scratch_);
    }
    void property(const std::string& layer, const std::string& key, const Value& value) {
        d_.count(3);
        scratch_.clear();
        scratch_.push_back('p');
        put_string(scratch_, layer);
        put_string(scratch_, key);
        value.encode(scratch_);
        d_.add(scratch_);
    }
    std::string text() const { return d_.text(); }

private:
    Digest d_;
    std::string scratch_;
};

// `pbf.varint.decode`: counts values; each value is `v` and its 8 bytes.
class VarintDigest {
public:
    void value(uint64_t v) {
        d_.count(0);
        scratch_.clear();
        scratch_.push_back('v');
        put_u64(scratch_, v);
        d_.add(scratch_);
    }
    std::string text() const { return d_.text(); }

private:
    Digest d_{{"values"}};
    std::string scratch_;
};

}  // namespace graticule_digest
