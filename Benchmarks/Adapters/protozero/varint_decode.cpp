// External implementation of `pbf.varint.decode` with protozero's varint decoder, for
// graticule's runner (external protocol: `ready`, `digest`, `run N` -> `ns T`, `quit`).
// Decodes every varint of the dataset and sums them, like the in-process implementations;
// its digest holds every value decoded (../digest.hpp).
//
// Build: g++ -O3 -DNDEBUG -std=c++14 varint_decode.cpp -o varint_decode   (needs libprotozero-dev)
#include "protocol.hpp"
#include "../digest.hpp"

#include <protozero/varint.hpp>

#include <cstdint>
#include <string>

int main(int argc, char** argv) {
    std::string bytes;
    if (!graticule_adapter::read_dataset(argc, argv, bytes)) return 2;
    volatile uint64_t sink = 0;
    bool malformed = false;
    const int status = graticule_adapter::serve([&] {
        const char* p = bytes.data();
        const char* end = p + bytes.size();
        uint64_t sum = 0;
        try {
            while (p < end) sum += protozero::decode_varint(&p, end);
        } catch (const std::exception&) {
            malformed = true;
        }
        sink = sink + sum;
    }, [&] {
        graticule_digest::VarintDigest digest;
        const char* p = bytes.data();
        const char* end = p + bytes.size();
        try {
            while (p < end) digest.value(protozero::decode_varint(&p, end));
        } catch (const std::exception&) {
            malformed = true;
        }
        return digest.text();
    });
    if (malformed) {
        std::cout << "error malformed varint" << std::endl;
        return 2;
    }
    return status;
}
