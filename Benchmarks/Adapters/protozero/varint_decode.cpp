// External implementation of `pbf.varint.decode` with protozero's varint decoder, for
// graticule's runner (external protocol: `ready`, `run N` -> `ns T`, `quit`). Decodes every
// varint of the dataset and sums them, like the in-process implementations.
//
// Build: g++ -O2 -std=c++14 varint_decode.cpp -o varint_decode   (needs libprotozero-dev)
#include <protozero/varint.hpp>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
    std::string path;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) == "--dataset") path = argv[i + 1];
    }
    std::ifstream in(path, std::ios::binary);
    if (path.empty() || !in) {
        std::cout << "error cannot read dataset '" << path << "'" << std::endl;
        return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::cout << "ready" << std::endl;
    std::string line;
    volatile uint64_t sink = 0;
    while (std::getline(std::cin, line)) {
        std::istringstream cmd(line);
        std::string verb;
        long long n = 0;
        cmd >> verb >> n;
        if (verb == "quit") return 0;
        if (verb != "run") {
            std::cout << "error unexpected command " << line << std::endl;
            return 2;
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (long long i = 0; i < n; ++i) {
            const char* p = bytes.data();
            const char* end = p + bytes.size();
            uint64_t sum = 0;
            try {
                while (p < end) sum += protozero::decode_varint(&p, end);
            } catch (const std::exception&) {
                std::cout << "error malformed varint" << std::endl;
                return 2;
            }
            sink = sink + sum;
        }
        const auto t1 = std::chrono::steady_clock::now();
        std::cout << "ns " << std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count() << std::endl;
    }
    return 0;
}
