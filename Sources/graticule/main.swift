import GraticuleTool

// The command line lives in the GraticuleTool library, so that other packages can run it
// with their own implementations added (see Benchmarks/Examples).
GraticuleTool.main()
