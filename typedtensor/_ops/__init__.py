"""The ops on arrays: elementwise, shaping, linalg, indexing and axis ops, each checked by the
shared shape rules before the array's namespace computes.

Arrays (and Python scalars) in, arrays out: ``Tensor``'s methods and the public functions unwrap
their tensors and wrap the result; nothing here imports ``typedtensor._tensor``."""
