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
// adds 1 and the next tile follows.
//
// Build: see run.sh (vtzero's headers are fetched from the PyPI source package `vtzero`,
// which vendors them; protozero from Debian's libprotozero-dev).
#include "../protozero/protocol.hpp"

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
    });
}
