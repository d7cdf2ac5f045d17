"""Runtime shape checks: ``@shapechecked`` and ``check`` (decorator), the specs they check
against (annotations translated from ``Tensor[...]`` and jaxtyping), what a checked call has
bound so far (bindings), and the mismatch report."""
