#ifndef GRATICULE_CJEMALLOC_SHIM_H
#define GRATICULE_CJEMALLOC_SHIM_H
// jemalloc's public API: mallctl() reads the allocator's counters.
#include <jemalloc/jemalloc.h>
#endif
