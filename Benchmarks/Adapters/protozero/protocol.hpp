// The runner's external protocol (version 1), shared by the protozero adapters: read the
// dataset named by --dataset, let the caller prepare, print `ready`, then answer each
// `run N` with `ns T` (the nanoseconds N calls of `operation` took), until `quit`.
#pragma once

#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>

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

// Serves `run N` requests until `quit`; returns the process exit status.
inline int serve(const std::function<void()>& operation) {
    std::cout << "ready" << std::endl;
    std::string line;
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
        for (long long i = 0; i < n; ++i) operation();
        const auto t1 = std::chrono::steady_clock::now();
        std::cout << "ns " << std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count() << std::endl;
    }
    return 0;
}

}  // namespace graticule_adapter
