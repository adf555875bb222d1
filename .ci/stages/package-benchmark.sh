# The package-benchmark bridge (Benchmarks/PackageBenchmark): one Graticule case through
# swift package benchmark.
source "$(dirname "$0")/../lib.sh"
Benchmarks/PackageBenchmark/check.sh
