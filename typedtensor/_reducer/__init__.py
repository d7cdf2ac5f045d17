"""The reducer: plans a reduction (axes normalised, dims folded by layout), caches the plan, then runs
the C loops, numpy, or parallel parts as measurement chose. Arrays in, arrays out."""
