// External implementation of `mvt.decode` (full decode, no validation) with protozero,
// for graticule's runner. Speaks the external protocol: load the dataset, print `ready`,
// answer `digest` with the digest of every tile's content (../digest.hpp), answer `run N`
// with `ns T`, stop at `quit`.
//
// The dataset is graticule's tile container: each tile preceded by its length as a varint.
// Every layer, key, value, feature, tag and geometry command is decoded; geometry commands
// move a cursor exactly as MVT 2.1 §4.3 describes, and every number read goes into a
// checksum so nothing can be skipped by the optimiser.
//
// Build: g++ -O3 -DNDEBUG -std=c++14 mvt_decode.cpp -o mvt_decode   (needs libprotozero-dev)
#include "protocol.hpp"
#include "../digest.hpp"

#include <protozero/pbf_reader.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace {

int64_t decode_feature(protozero::pbf_reader feature) {
    int64_t sum = 0;
    while (feature.next()) {
        switch (feature.tag()) {
        case 1: sum += static_cast<int64_t>(feature.get_uint64()); break;
        case 2: {
            auto tags = feature.get_packed_uint32();
            for (auto t : tags) sum += t;
            break;
        }
        case 3: sum += feature.get_enum(); break;
        case 4: {
            auto geometry = feature.get_packed_uint32();
            int64_t x = 0, y = 0;
            auto it = geometry.begin();
            auto end = geometry.end();
            while (it != end) {
                const uint32_t command = *it++;
                const uint32_t id = command & 7u;
                uint32_t count = command >> 3u;
                if (id == 1 || id == 2) {
                    while (count-- > 0) {
                        if (it == end) return sum;  // truncated
                        x += protozero::decode_zigzag32(*it++);
                        if (it == end) return sum;
                        y += protozero::decode_zigzag32(*it++);
                        sum += x ^ y;
                    }
                } else if (id == 7) {
                    sum += 1;
                } else {
                    return sum;  // unknown command: the rest cannot be interpreted
                }
            }
            break;
        }
        default: feature.skip();
        }
    }
    return sum;
}

int64_t decode_value(protozero::pbf_reader value) {
    int64_t sum = 0;
    while (value.next()) {
        switch (value.tag()) {
        case 1: sum += static_cast<int64_t>(value.get_view().size()); break;
        case 2: sum += static_cast<int64_t>(value.get_float()); break;
        case 3: sum += static_cast<int64_t>(value.get_double()); break;
        case 4: sum += value.get_int64(); break;
        case 5: sum += static_cast<int64_t>(value.get_uint64()); break;
        case 6: sum += value.get_sint64(); break;
        case 7: sum += value.get_bool() ? 1 : 0; break;
        default: value.skip();
        }
    }
    return sum;
}

int64_t decode_tile(const char* data, std::size_t size) {
    int64_t sum = 0;
    protozero::pbf_reader tile{data, size};
    while (tile.next(3)) {
        protozero::pbf_reader layer = tile.get_message();
        while (layer.next()) {
            switch (layer.tag()) {
            case 1: sum += static_cast<int64_t>(layer.get_view().size()); break;
            case 2: sum += decode_feature(layer.get_message()); break;
            case 3: sum += static_cast<int64_t>(layer.get_view().size()); break;
            case 4: sum += decode_value(layer.get_message()); break;
            case 5: sum += layer.get_uint32(); break;
            case 15: sum += layer.get_uint32(); break;
            default: layer.skip();
            }
        }
    }
    return sum;
}

// The digest of one tile as protozero reads it: every layer; every feature with its id,
// type and vertices (MoveTo and LineTo points; ClosePath adds none); every tag whose
// indexes fall inside the layer's tables, its value as the digest defines it.
void digest_tile(const char* data, std::size_t size, graticule_digest::MVTDigest& digest) {
    using graticule_digest::Value;
    protozero::pbf_reader tile{data, size};
    while (tile.next(3)) {
        protozero::pbf_reader layer = tile.get_message();
        std::string name;
        std::vector<std::string> keys;
        std::vector<Value> values;
        std::vector<protozero::data_view> features;
        while (layer.next()) {
            switch (layer.tag()) {
            case 1: name = layer.get_string(); break;
            case 2: features.push_back(layer.get_view()); break;
            case 3: keys.push_back(layer.get_string()); break;
            case 4: {
                protozero::pbf_reader value = layer.get_message();
                Value v;
                while (value.next()) {
                    switch (value.tag()) {
                    case 1: v = Value::of_string(value.get_string()); break;
                    case 2: v = Value::of_number(value.get_float()); break;
                    case 3: v = Value::of_number(value.get_double()); break;
                    case 4: v = Value::of_number(static_cast<double>(value.get_int64())); break;
                    case 5: v = Value::of_number(static_cast<double>(value.get_uint64())); break;
                    case 6: v = Value::of_number(static_cast<double>(value.get_sint64())); break;
                    case 7: v = Value::of_bool(value.get_bool()); break;
                    default: value.skip();
                    }
                }
                values.push_back(v);
                break;
            }
            default: layer.skip();
            }
        }
        digest.layer();
        for (const auto& view : features) {
            protozero::pbf_reader feature{view};
            bool has_id = false;
            uint64_t id = 0;
            uint8_t type = 0;
            std::vector<uint32_t> tags;
            std::vector<std::pair<int64_t, int64_t>> xy;
            while (feature.next()) {
                switch (feature.tag()) {
                case 1: has_id = true; id = feature.get_uint64(); break;
                case 2: for (auto t : feature.get_packed_uint32()) tags.push_back(t); break;
                case 3: type = static_cast<uint8_t>(feature.get_enum()); break;
                case 4: {
                    auto geometry = feature.get_packed_uint32();
                    int64_t x = 0, y = 0;
                    auto it = geometry.begin();
                    auto end = geometry.end();
                    while (it != end) {
                        const uint32_t command = *it++;
                        const uint32_t cid = command & 7u;
                        uint32_t count = command >> 3u;
                        if (cid == 1 || cid == 2) {
                            while (count-- > 0 && it != end) {
                                const int64_t dx = protozero::decode_zigzag32(*it++);
                                if (it == end) break;
                                x += dx;
                                y += protozero::decode_zigzag32(*it++);
                                xy.emplace_back(x, y);
                            }
                        } else if (cid != 7) {
                            break;
                        }
                    }
                    break;
                }
                default: feature.skip();
                }
            }
            digest.feature(name, has_id, id, type, static_cast<uint32_t>(xy.size()));
            for (const auto& p : xy) digest.vertex(p.first, p.second);
            for (std::size_t k = 0; k + 1 < tags.size(); k += 2) {
                if (tags[k] < keys.size() && tags[k + 1] < values.size()) digest.property(name, keys[tags[k]], values[tags[k + 1]]);
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    return graticule_adapter::serve_tiles(argc, argv, [](const char* data, std::size_t size) -> int64_t {
        try {
            return decode_tile(data, size);
        } catch (const protozero::exception&) {
            return 1;
        }
    }, [](const std::vector<std::pair<const char*, std::size_t>>& tiles) {
        graticule_digest::MVTDigest digest;
        for (const auto& t : tiles) {
            try {
                digest_tile(t.first, t.second, digest);
            } catch (const protozero::exception&) {
            }
        }
        return digest.text();
    });
}
