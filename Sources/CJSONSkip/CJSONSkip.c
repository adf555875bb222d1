// The skipper lives in include/CJSONSkip.h as inline functions, compiled into the module
// that imports it (see there). SwiftPM needs a source file in a C target; this one is it.
