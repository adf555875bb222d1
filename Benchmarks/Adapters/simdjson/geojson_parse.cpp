// External implementation of `geojson.parse` with simdjson's On-Demand API (Debian
// libsimdjson-dev), for graticule's runner (protocol in ../protozero/protocol.hpp).
//
// Modes (first argument):
//   geometry-only  every coordinate of every geometry read as a double into one flat
//                  vector (as graticule's flat coordinates), properties skipped;
//   whole          the same, plus every property value materialised (strings copied,
//                  numbers converted, nested values kept as raw JSON text), like a model.
// The parser and the output buffers are reused across runs; the padded input is built once.
// `digest` answers with the digest of what was read (../digest.hpp): every feature and
// position, and in `whole` mode every property with its value.
#include <simdjson.h>

#include <string>
#include <vector>

#include "../protozero/protocol.hpp"
#include "../digest.hpp"

using namespace simdjson;

struct Model {
    std::vector<double> coords;
    std::vector<std::string> keys;
    std::vector<std::string> strings;
    std::vector<double> numbers;
    std::size_t features = 0;
    void clear() {
        coords.clear();
        keys.clear();
        strings.clear();
        numbers.clear();
        features = 0;
    }
};

static void walk_coordinates(ondemand::value v, Model& m) {
    if (v.type() == ondemand::json_type::array) {
        for (auto child : v.get_array()) walk_coordinates(child.value(), m);
    } else {
        m.coords.push_back(double(v.get_double()));
    }
}

static void walk_geometry(ondemand::object geometry, Model& m) {
    for (auto field : geometry) {
        std::string_view key = field.unescaped_key();
        if (key == "coordinates") {
            walk_coordinates(field.value(), m);
        } else if (key == "geometries") {
            for (auto g : field.value().get_array()) walk_geometry(g.get_object(), m);
        }
    }
}

static void read_value(ondemand::value v, Model& m) {
    switch (v.type()) {
        case ondemand::json_type::string: m.strings.emplace_back(std::string_view(v.get_string())); break;
        case ondemand::json_type::number: m.numbers.push_back(double(v.get_double())); break;
        case ondemand::json_type::boolean: m.numbers.push_back(bool(v.get_bool()) ? 1 : 0); break;
        case ondemand::json_type::null: (void)v.is_null(); break;
        case ondemand::json_type::array:
            for (auto item : v.get_array()) read_value(item.value(), m);
            break;
        case ondemand::json_type::object:
            for (auto field : v.get_object()) {
                m.keys.emplace_back(std::string_view(field.unescaped_key()));
                read_value(field.value(), m);
            }
            break;
    }
}

static void read_properties(ondemand::object props, Model& m) {
    for (auto field : props) {
        m.keys.emplace_back(std::string_view(field.unescaped_key()));
        read_value(field.value(), m);
    }
}

// The digest's side: values built as the digest sees them, positions in pairs.
static graticule_digest::Value digest_value(ondemand::value v) {
    using graticule_digest::Value;
    switch (v.type()) {
        case ondemand::json_type::string: return Value::of_string(std::string(std::string_view(v.get_string())));
        case ondemand::json_type::number: return Value::of_number(double(v.get_double()));
        case ondemand::json_type::boolean: return Value::of_bool(bool(v.get_bool()));
        case ondemand::json_type::null: (void)v.is_null(); return Value::of_null();
        case ondemand::json_type::array: {
            Value a;
            a.kind = Value::array;
            for (auto item : v.get_array()) a.items.push_back(digest_value(item.value()));
            return a;
        }
        case ondemand::json_type::object: {
            Value o;
            o.kind = Value::object;
            for (auto field : v.get_object()) {
                std::string key(std::string_view(field.unescaped_key()));
                o.members.emplace_back(std::move(key), digest_value(field.value()));
            }
            return o;
        }
    }
    return Value::of_null();
}

static void digest_coordinates(ondemand::value v, graticule_digest::GeoJSONDigest& d) {
    if (v.type() != ondemand::json_type::array) return;
    std::vector<double> numbers;
    for (auto child : v.get_array()) {
        ondemand::value c = child.value();
        if (c.type() == ondemand::json_type::number) numbers.push_back(double(c.get_double()));
        else digest_coordinates(c, d);
    }
    if (numbers.size() >= 2) d.position(numbers[0], numbers[1]);
}

static void digest_geometry(ondemand::object geometry, graticule_digest::GeoJSONDigest& d) {
    for (auto field : geometry) {
        std::string_view key = field.unescaped_key();
        if (key == "coordinates") {
            digest_coordinates(field.value(), d);
        } else if (key == "geometries") {
            for (auto g : field.value().get_array()) digest_geometry(g.get_object(), d);
        }
    }
}

static std::string digest_document(ondemand::parser& parser, padded_string& json, bool properties) {
    graticule_digest::GeoJSONDigest d;
    ondemand::document doc = parser.iterate(json);
    for (auto field : doc.get_object()) {
        std::string_view key = field.unescaped_key();
        if (key != "features") continue;
        for (auto feature : field.value().get_array()) {
            d.feature();
            for (auto member : feature.get_object()) {
                std::string_view k = member.unescaped_key();
                if (k == "geometry") {
                    ondemand::value g = member.value();
                    if (!g.is_null()) digest_geometry(g.get_object(), d);
                } else if (k == "properties" && properties) {
                    ondemand::value p = member.value();
                    if (p.is_null()) continue;
                    for (auto prop : p.get_object()) {
                        std::string name(std::string_view(prop.unescaped_key()));
                        d.property(name, digest_value(prop.value()));
                    }
                }
            }
        }
    }
    return d.text();
}

int main(int argc, char** argv) {
    if (argc >= 2 && std::string(argv[1]) == "--implementation") {
        std::cout << SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION) << std::endl;
        return 0;
    }
    if (argc < 2) {
        std::cout << "error usage: geojson_parse geometry-only|whole --dataset PATH" << std::endl;
        return 2;
    }
    const std::string mode = argv[1];
    const bool properties = mode == "whole";
    if (!properties && mode != "geometry-only") {
        std::cout << "error unknown mode " << mode << std::endl;
        return 2;
    }
    std::string bytes;
    if (!graticule_adapter::read_dataset(argc, argv, bytes)) return 2;
    padded_string json(bytes);
    ondemand::parser parser;
    Model model;
    auto parse = [&]() {
        model.clear();
        ondemand::document doc = parser.iterate(json);
        for (auto field : doc.get_object()) {
            std::string_view key = field.unescaped_key();
            if (key != "features") continue;
            for (auto feature : field.value().get_array()) {
                model.features++;
                for (auto member : feature.get_object()) {
                    std::string_view k = member.unescaped_key();
                    if (k == "geometry") {
                        ondemand::value g = member.value();
                        if (!g.is_null()) walk_geometry(g.get_object(), model);
                    } else if (k == "properties" && properties) {
                        ondemand::value p = member.value();
                        if (!p.is_null()) read_properties(p.get_object(), model);
                    }
                }
            }
        }
    };
    try {
        parse();  // fail at setup, not while timing
    } catch (const simdjson_error& e) {
        std::cout << "error simdjson: " << e.what() << std::endl;
        return 2;
    }
    return graticule_adapter::serve(parse, [&] { return digest_document(parser, json, properties); });
}
