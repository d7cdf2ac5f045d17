"""Named dimensions."""


class Dim:
    """Base of named, symbolic dimensions: ``class Batch(Dim): ...``.

    A named dim is nominal: in ``Tensor[float32, Batch, L[784]]`` the first dim matches only
    ``Batch``, and within one checked call every ``Batch`` has the same size.
    """

    def __new__(cls) -> "Dim":
        raise TypeError(f"{cls.__name__} names a dimension; use it in a type such as Tensor[float32, {cls.__name__}]")
