"""Named dimensions."""


class Dim(int):
    """Base of named, symbolic dimensions: ``class Batch(Dim): ...``.

    A named dim is nominal: in ``Tensor[float32, Batch, L[784]]`` the first dim matches only
    ``Batch``, and within one checked call every ``Batch`` has the same size. It is an ``int``
    subclass so that a size read from a shape (``x.shape[0]``, typed ``Batch``) is accepted
    wherever an ``int`` is (``np.arange(x.shape[0])``); a ``Literal`` size is still not a ``Batch``.
    """

    def __new__(cls) -> "Dim":
        raise TypeError(f"{cls.__name__} names a dimension; use it in a type such as Tensor[float32, {cls.__name__}]")
