"""The ops on arrays: elementwise, shaping, linalg, indexing and axis ops, each checked by the
shared shape rules before the array's namespace computes."""
