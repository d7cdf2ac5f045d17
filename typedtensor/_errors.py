"""The exceptions typedtensor raises. Each is also the builtin a caller would catch without us."""


class TypedTensorError(Exception):
    """Root of every typedtensor error."""


class AxisError(TypedTensorError, ValueError, IndexError):
    """An axis outside ``-rank <= k < rank``; the message names every such axis and the shape."""


class SelectionError(TypedTensorError, ValueError):
    """A Selection string (``"^v^"``) whose length is not the rank or with a foreign character."""


class ShapeError(TypedTensorError, TypeError):
    """A tensor whose dtype or shape does not match its annotation."""


class AnnotationError(TypedTensorError, TypeError):
    """A ``Tensor[...]`` annotation that cannot be checked: not a valid shape, or unresolvable."""
