// External implementation of `geojson.write` with RapidJSON's Writer (Debian rapidjson-dev),
// for graticule's runner (protocol in ../protozero/protocol.hpp).
//
// At setup the dataset is parsed once into a RapidJSON document with full-precision
// numbers; each run writes that whole document to a reused string buffer. Doubles are
// written by RapidJSON's Grisu2, which always reads back to the same double. Before the
// timing starts the adapter parses its own output again and refuses to run unless it is
// equal to the document, so the figures are those of a writer that loses nothing. Its
// digest (../digest.hpp) is that of the text it wrote, read back: every feature, position
// and property.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>

#include "../protozero/protocol.hpp"
#include "../digest.hpp"

using namespace rapidjson;

static const unsigned parse_flags = kParseFullPrecisionFlag | kParseStopWhenDoneFlag;

static graticule_digest::Value digest_value(const Value& v) {
    using D = graticule_digest::Value;
    if (v.IsNull()) return D::of_null();
    if (v.IsBool()) return D::of_bool(v.GetBool());
    if (v.IsNumber()) return D::of_number(v.GetDouble());
    if (v.IsString()) return D::of_string(std::string(v.GetString(), v.GetStringLength()));
    D out;
    if (v.IsArray()) {
        out.kind = D::array;
        for (const auto& item : v.GetArray()) out.items.push_back(digest_value(item));
    } else {
        out.kind = D::object;
        for (const auto& m : v.GetObject()) {
            out.members.emplace_back(std::string(m.name.GetString(), m.name.GetStringLength()), digest_value(m.value));
        }
    }
    return out;
}

static void digest_coordinates(const Value& c, graticule_digest::GeoJSONDigest& d) {
    if (!c.IsArray()) return;
    if (c.Size() >= 2 && c[0].IsNumber() && c[1].IsNumber()) {
        d.position(c[0].GetDouble(), c[1].GetDouble());
        return;
    }
    for (const auto& x : c.GetArray()) digest_coordinates(x, d);
}

static void digest_geometry(const Value& g, graticule_digest::GeoJSONDigest& d) {
    if (!g.IsObject()) return;
    auto members = g.FindMember("geometries");
    if (members != g.MemberEnd() && members->value.IsArray()) {
        for (const auto& m : members->value.GetArray()) digest_geometry(m, d);
    }
    auto c = g.FindMember("coordinates");
    if (c != g.MemberEnd()) digest_coordinates(c->value, d);
}

static void digest_feature(const Value& f, graticule_digest::GeoJSONDigest& d) {
    if (!f.IsObject()) return;
    d.feature();
    auto g = f.FindMember("geometry");
    if (g != f.MemberEnd()) digest_geometry(g->value, d);
    auto p = f.FindMember("properties");
    if (p != f.MemberEnd() && p->value.IsObject()) {
        for (const auto& m : p->value.GetObject()) {
            d.property(std::string(m.name.GetString(), m.name.GetStringLength()), digest_value(m.value));
        }
    }
}

static std::string digest_text(const char* text, std::size_t size) {
    Document doc;
    doc.Parse<parse_flags>(text, size);
    graticule_digest::GeoJSONDigest d;
    if (doc.IsObject()) {
        auto type = doc.FindMember("type");
        const std::string t = type != doc.MemberEnd() && type->value.IsString() ? type->value.GetString() : "";
        if (t == "FeatureCollection") {
            auto fs = doc.FindMember("features");
            if (fs != doc.MemberEnd() && fs->value.IsArray()) {
                for (const auto& f : fs->value.GetArray()) digest_feature(f, d);
            }
        } else if (t == "Feature") {
            digest_feature(doc, d);
        } else {
            digest_geometry(doc, d);
        }
    }
    return d.text();
}

int main(int argc, char** argv) {
    std::string bytes;
    if (!graticule_adapter::read_dataset(argc, argv, bytes)) return 2;
    Document doc;
    doc.Parse<parse_flags>(bytes.c_str(), bytes.size());
    if (doc.HasParseError()) {
        std::cout << "error rapidjson cannot parse the dataset (offset " << doc.GetErrorOffset() << ")" << std::endl;
        return 2;
    }
    StringBuffer buffer;
    buffer.Reserve(bytes.size() + bytes.size() / 4);
    auto write = [&]() {
        buffer.Clear();
        Writer<StringBuffer> writer(buffer);
        doc.Accept(writer);
    };
    write();
    Document again;
    again.Parse<parse_flags>(buffer.GetString(), buffer.GetSize());
    if (again.HasParseError() || again != doc) {
        std::cout << "error rapidjson's output does not read back equal to its input" << std::endl;
        return 2;
    }
    return graticule_adapter::serve(write, [&] {
        write();
        return digest_text(buffer.GetString(), buffer.GetSize());
    });
}
