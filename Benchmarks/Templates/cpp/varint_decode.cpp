// Template: a C++ implementation of `pbf.varint.decode` for graticule's runner.
//
// Copy this file, replace `decode_all` with your decoder, build it (run.sh does, with g++),
// and point a manifest (manifest.json beside this file) at it. The runner starts
// `PROGRAM --dataset PATH` and speaks the external protocol on stdin/stdout: `ready`;
// `digest` -> `digest values=N checksum=HEX`; `elements` (after a digest that differs)
// -> `element value NNNNNNNN<tab>V` lines, then `end`; `run N` -> `ns T`; `quit`.
// See Benchmarks/Templates/README.md.
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

// ---- The result digest (Workloads' ResultDigests article) -------------------------------
static uint64_t element_hash(const uint8_t* p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ULL; }
    uint64_t z = h + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// ---- The implementation under test: decode every varint, call `out` with each value ------
// Returns false on a malformed stream (truncated, or longer than 10 bytes).
template <typename F>
static bool decode_all(const std::vector<uint8_t>& bytes, F&& out) {
    size_t i = 0, n = bytes.size();
    while (i < n) {
        uint64_t v = 0;
        int shift = 0;
        for (;;) {
            if (i >= n || shift > 63) return false;
            uint8_t b = bytes[i++];
            v |= uint64_t(b & 0x7f) << shift;
            if (!(b & 0x80)) break;
            shift += 7;
        }
        out(v);
    }
    return true;
}

int main(int argc, char** argv) {
    if (argc != 3 || std::string(argv[1]) != "--dataset") {
        std::printf("error usage: varint_decode --dataset PATH\n");
        return 2;
    }
    std::ifstream file(argv[2], std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!decode_all(bytes, [](uint64_t) {})) {
        std::printf("error malformed varint stream\n");
        return 2;
    }
    std::printf("ready\n");
    std::fflush(stdout);
    uint64_t sink = 0;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line == "quit") break;
        if (line == "digest") {
            uint64_t count = 0, sum = 0;
            decode_all(bytes, [&](uint64_t v) {
                uint8_t e[9] = {'v'};
                for (int k = 0; k < 8; k++) e[1 + k] = uint8_t(v >> (8 * k));
                sum += element_hash(e, 9);
                count++;
            });
            std::printf("digest values=%" PRIu64 " checksum=%016" PRIx64 "\n", count, sum);
        } else if (line == "elements") {
            // Asked only when the digest differs: each value with its place, as Graticule
            // writes it (`value NNNNNNNN<tab>V`), so the runner names the first that differs.
            uint64_t index = 0;
            decode_all(bytes, [&](uint64_t v) { std::printf("element value %08" PRIu64 "\t%" PRIu64 "\n", index++, v); });
            std::printf("end\n");
        } else if (line.rfind("run ", 0) == 0) {
            long n = std::stol(line.substr(4));
            auto t0 = std::chrono::steady_clock::now();
            for (long k = 0; k < n; k++) decode_all(bytes, [&](uint64_t v) { sink += v; });
            auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
            std::printf("ns %lld\n", (long long)(ns > 0 ? ns : 1));
        } else {
            std::printf("error unexpected command '%s'\n", line.c_str());
            return 2;
        }
        std::fflush(stdout);
    }
    volatile uint64_t keep = sink;  // keeps the timed loop from being optimised away
    (void)keep;
    return 0;
}
