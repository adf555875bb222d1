# Shared by the fuzz scripts: builds the package's modules from their sources with the
# fuzzer and address sanitizer (SwiftPM cannot build a libFuzzer target), in the order the
# caller gives, as Package.swift's graph has them. One package name, so that `package`
# declarations (PBF's kernels) are visible across the modules.
out=.build/fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name graticule -I "$out" -I Sources/CVarintBlock/include -I Sources/CJSONSkip/include)

# build_module NAME [SWIFTC ARGS...]: every Swift file under Sources/NAME into
# $out/libNAME.a and $out/NAME.swiftmodule.
build_module() {
  local name=$1; shift
  # A static library is appended to, so objects of renamed files would linger: start afresh.
  rm -f "$out/lib$name.a"
  swiftc "${flags[@]}" "$@" -emit-library -static -emit-module -module-name "$name" \
    -emit-module-path "$out/$name.swiftmodule" $(find "Sources/$name" -name '*.swift') -o "$out/lib$name.a"
}
