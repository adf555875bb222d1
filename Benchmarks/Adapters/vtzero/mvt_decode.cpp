// External implementation of `mvt.decode` in validating mode with vtzero (Mapbox's C++
// vector tile reader, which checks the tile as it reads it and throws on what it rejects),
// for graticule's runner. Speaks the external protocol (../protozero/protocol.hpp).
//
// The dataset is graticule's tile container: each tile preceded by its length as a varint.
// Every layer, key, value, feature, tag and geometry command is decoded through vtzero's
// own API: each layer's value table is read once and every value decoded by its type, each
// feature's tags through `next_property_indexes` (which checks both indices against the
// tables), and its geometry through `decode_geometry` with a handler (which checks the
// command grammar and classifies rings by area, as graticule does). Every number read
// goes into a checksum so nothing can be skipped by the optimiser; a tile vtzero rejects
// adds 1 and the next tile follows. `digest` answers with the digest of every accepted
// tile's layers, features, vertices and properties, and the count of rejected tiles
// (../digest.hpp, mode validating).
//
// Build: see run.sh (vtzero's headers are fetched from the PyPI source package `vtzero`,
// which vendors them; protozero from Debian's libprotozero-dev).
#include "../protozero/protocol.hpp"
#include "../digest.hpp"

#include <vtzero/vector_tile.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace {

struct Checksum {
    int64_t sum = 0;
    void points_begin(uint32_t) noexcept {}
    void points_point(vtzero::point p) noexcept { sum += static_cast<int64_t>(p.x) ^ p.y; }
    void points_end() noexcept {}
    void linestring_begin(uint32_t) noexcept {}
    void linestring_point(vtzero::point p) noexcept { sum += static_cast<int64_t>(p.x) ^ p.y; }
    void linestring_end() noexcept {}
    void ring_begin(uint32_t) noexcept {}
    void ring_point(vtzero::point p) noexcept { sum += static_cast<int64_t>(p.x) ^ p.y; }
    void ring_end(vtzero::ring_type t) noexcept { sum += t == vtzero::ring_type::outer ? 1 : 2; }
};

int64_t decode_value(const vtzero::property_value& v) {
    switch (v.type()) {
    case vtzero::property_value_type::string_value: return static_cast<int64_t>(v.string_value().size());
    case vtzero::property_value_type::float_value: return static_cast<int64_t>(v.float_value());
    case vtzero::property_value_type::double_value: return static_cast<int64_t>(v.double_value());
    case vtzero::property_value_type::int_value: return v.int_value();
    case vtzero::property_value_type::uint_value: return static_cast<int64_t>(v.uint_value());
    case vtzero::property_value_type::sint_value: return v.sint_value();
    case vtzero::property_value_type::bool_value: return v.bool_value() ? 1 : 0;
    }
    return 0;
}

int64_t decode_tile(const char* data, std::size_t size) {
    Checksum c;
    vtzero::vector_tile tile{data, size};
    while (auto layer = tile.next_layer()) {
        c.sum += static_cast<int64_t>(layer.name().size()) + layer.version() + layer.extent();
        for (const auto& key : layer.key_table()) c.sum += static_cast<int64_t>(key.size());
        for (const auto& value : layer.value_table()) c.sum += decode_value(value);
        while (auto feature = layer.next_feature()) {
            c.sum += static_cast<int64_t>(feature.id());
            while (auto idxs = feature.next_property_indexes()) {
                c.sum += static_cast<int64_t>(idxs.key().value()) * 31 + idxs.value().value();
            }
            vtzero::decode_geometry(feature.geometry(), c);
        }
    }
    return c.sum;
}

// Vertices as the digest counts them: vtzero repeats a ring's first point at its
// ClosePath, which the digest leaves out.
struct Vertices {
    std::vector<std::pair<int64_t, int64_t>> xy;
    void points_begin(uint32_t) {}
    void points_point(vtzero::point p) { xy.emplace_back(p.x, p.y); }
    void points_end() {}
    void linestring_begin(uint32_t) {}
    void linestring_point(vtzero::point p) { xy.emplace_back(p.x, p.y); }
    void linestring_end() {}
    void ring_begin(uint32_t) {}
    void ring_point(vtzero::point p) { xy.emplace_back(p.x, p.y); }
    void ring_end(vtzero::ring_type) { xy.pop_back(); }
};

graticule_digest::Value digest_value(const vtzero::property_value& v) {
    using graticule_digest::Value;
    switch (v.type()) {
    case vtzero::property_value_type::string_value: return Value::of_string(std::string(v.string_value()));
    case vtzero::property_value_type::float_value: return Value::of_number(v.float_value());
    case vtzero::property_value_type::double_value: return Value::of_number(v.double_value());
    case vtzero::property_value_type::int_value: return Value::of_number(static_cast<double>(v.int_value()));
    case vtzero::property_value_type::uint_value: return Value::of_number(static_cast<double>(v.uint_value()));
    case vtzero::property_value_type::sint_value: return Value::of_number(static_cast<double>(v.sint_value()));
    case vtzero::property_value_type::bool_value: return Value::of_bool(v.bool_value());
    }
    return Value::of_null();
}

// One tile's digest into a scratch digest: nothing is added to the run's digest unless the
// whole tile reads (a tile vtzero rejects half-way is counted rejected, its content not).
struct TileContent {
    struct Feature {
        bool has_id;
        uint64_t id;
        uint8_t type;
        std::vector<std::pair<int64_t, int64_t>> xy;
        std::vector<std::pair<std::string, graticule_digest::Value>> properties;
    };
    std::vector<std::pair<std::string, std::vector<Feature>>> layers;
};

TileContent read_tile(const char* data, std::size_t size) {
    TileContent out;
    vtzero::vector_tile tile{data, size};
    while (auto layer = tile.next_layer()) {
        std::string name(layer.name());
        std::vector<TileContent::Feature> features;
        while (auto feature = layer.next_feature()) {
            TileContent::Feature f;
            f.has_id = feature.has_id();
            f.id = feature.id();
            f.type = static_cast<uint8_t>(feature.geometry_type());
            while (auto p = feature.next_property()) {
                f.properties.emplace_back(std::string(p.key()), digest_value(p.value()));
            }
            Vertices v;
            vtzero::decode_geometry(feature.geometry(), v);
            f.xy = std::move(v.xy);
            features.push_back(std::move(f));
        }
        out.layers.emplace_back(std::move(name), std::move(features));
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    return graticule_adapter::serve_tiles(argc, argv, [](const char* data, std::size_t size) -> int64_t {
        try {
            return decode_tile(data, size);
        } catch (const vtzero::exception&) {
            return 1;
        } catch (const protozero::exception&) {
            return 1;
        }
    }, [](const std::vector<std::pair<const char*, std::size_t>>& tiles) {
        graticule_digest::MVTDigest digest(true);
        for (const auto& t : tiles) {
            TileContent content;
            try {
                content = read_tile(t.first, t.second);
            } catch (const vtzero::exception&) {
                digest.rejected();
                continue;
            } catch (const protozero::exception&) {
                digest.rejected();
                continue;
            }
            for (const auto& layer : content.layers) {
                digest.layer();
                for (const auto& f : layer.second) {
                    digest.feature(layer.first, f.has_id, f.id, f.type, static_cast<uint32_t>(f.xy.size()));
                    for (const auto& p : f.xy) digest.vertex(p.first, p.second);
                    for (const auto& p : f.properties) digest.property(layer.first, p.first, p.second);
                }
            }
        }
        return digest.text();
    });
}
