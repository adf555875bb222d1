// External implementation of `mvt.decode` (full decode, no validation) with protozero,
// for graticule's runner. Speaks the external protocol: load the dataset, print `ready`,
// answer `run N` with `ns T`, stop at `quit`.
//
// The dataset is graticule's tile container: each tile preceded by its length as a varint.
// Every layer, key, value, feature, tag and geometry command is decoded; geometry commands
// move a cursor exactly as MVT 2.1 §4.3 describes, and every number read goes into a
// checksum so nothing can be skipped by the optimiser.
//
// Build: g++ -O3 -DNDEBUG -std=c++14 mvt_decode.cpp -o mvt_decode   (needs libprotozero-dev)
#include "protocol.hpp"

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

}  // namespace

int main(int argc, char** argv) {
    return graticule_adapter::serve_tiles(argc, argv, [](const char* data, std::size_t size) -> int64_t {
        try {
            return decode_tile(data, size);
        } catch (const protozero::exception&) {
            return 1;
        }
    });
}
