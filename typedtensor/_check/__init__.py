"""Runtime shape checks: ``@shapechecked`` and ``check`` (decorator), the specs they check
against (annotations translated from ``Tensor[...]`` and jaxtyping), and the mismatch report."""
