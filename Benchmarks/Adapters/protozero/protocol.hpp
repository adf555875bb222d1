// The runner's external protocol (version 1), shared by the C++ adapters: read the dataset
// named by --dataset, let the caller prepare, print `ready`, answer `digest` with
// `digest TEXT` (the result's digest, ../digest.hpp), then each `run N` with `ns T` (the
// nanoseconds N calls of `operation` took, at least 1), until `quit`.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace graticule_adapter {

inline bool read_dataset(int argc, char** argv, std::string& bytes) {
    std::string path;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) == "--dataset") path = argv[i + 1];
    }
    std::ifstream in(path, std::ios::binary);
    if (path.empty() || !in) {
        std::cout << "error cannot read dataset '" << path << "'" << std::endl;
        return false;
    }
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

// Splits graticule's tile container (each tile preceded by its length as a varint) into
// the tiles' bytes; false, with `error ...` printed, when it is malformed.
inline bool split_tiles(const std::string& bytes, std::vector<std::pair<const char*, std::size_t>>& tiles) {
    const char* p = bytes.data();
    const char* const end = p + bytes.size();
    while (p < end) {
        uint64_t len = 0;
        int shift = 0;
        for (;;) {
            if (p == end || shift > 63) {
                std::cout << "error bad container" << std::endl;
                return false;
            }
            const auto c = static_cast<unsigned char>(*p++);
            len |= static_cast<uint64_t>(c & 0x7Fu) << shift;
            shift += 7;
            if (c < 0x80u) break;
        }
        if (len > static_cast<uint64_t>(end - p)) {
            std::cout << "error bad container" << std::endl;
            return false;
        }
        tiles.emplace_back(p, static_cast<std::size_t>(len));
        p += len;
    }
    return true;
}

// Serves `digest` and `run N` requests until `quit`; returns the process exit status.
// `digest` gives the text of the result's digest (performing the operation once).
inline int serve(const std::function<void()>& operation, const std::function<std::string()>& digest = nullptr) {
    std::cout << "ready" << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream cmd(line);
        std::string verb;
        long long n = 0;
        cmd >> verb >> n;
        if (verb == "quit") return 0;
        if (verb == "digest") {
            if (!digest) {
                std::cout << "error this adapter gives no result digest" << std::endl;
                return 2;
            }
            std::cout << "digest " << digest() << std::endl;
            continue;
        }
        if (verb != "run") {
            std::cout << "error unexpected command " << line << std::endl;
            return 2;
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (long long i = 0; i < n; ++i) operation();
        const auto t1 = std::chrono::steady_clock::now();
        const long long ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
        std::cout << "ns " << (ns > 0 ? ns : 1) << std::endl;
    }
    return 0;
}

// The whole adapter for a tile dataset: reads and splits it, then on each `run N` calls
// `decode(data, size)` on every tile N times, adding what it returns (a checksum; 1 for a
// tile it rejects) into a volatile sink so that no decode can be left out. On `digest`,
// `digest(tiles)` gives the digest text of every tile's decoded content.
template <typename Decode, typename DigestTiles>
int serve_tiles(int argc, char** argv, Decode decode, DigestTiles digest) {
    std::string bytes;
    if (!read_dataset(argc, argv, bytes)) return 2;
    std::vector<std::pair<const char*, std::size_t>> tiles;
    if (!split_tiles(bytes, tiles)) return 2;
    volatile int64_t sink = 0;
    return serve([&] {
        for (const auto& t : tiles) sink = sink + decode(t.first, t.second);
    }, [&] { return digest(tiles); });
}

}  // namespace graticule_adapter
