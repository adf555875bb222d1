// External implementation of `geojson.write` with RapidJSON's Writer (Debian rapidjson-dev),
// for graticule's runner (protocol in ../protozero/protocol.hpp).
//
// At setup the dataset is parsed once into a RapidJSON document with full-precision
// numbers; each run writes that whole document to a reused string buffer. Doubles are
// written by RapidJSON's Grisu2, which always reads back to the same double. Before the
// timing starts the adapter parses its own output again and refuses to run unless it is
// equal to the document, so the figures are those of a writer that loses nothing.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>

#include "../protozero/protocol.hpp"

using namespace rapidjson;

static const unsigned parse_flags = kParseFullPrecisionFlag | kParseStopWhenDoneFlag;

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
    return graticule_adapter::serve(write);
}
