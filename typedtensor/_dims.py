"""Named dimensions, and dims computed from them (``Add``, ``Sub``, ``Mul``, ``Div``)."""

from typing import Generic, TypeVar


class Dim(int):
    """Base of named, symbolic dimensions: ``class Batch(Dim): ...``.

    A named dim is nominal: in ``Tensor[float32, Batch, L[784]]`` the first dim matches only
    ``Batch``, and within one checked call every ``Batch`` has the same size. It is an ``int``
    subclass so that a size read from a shape (``x.shape[0]``, typed ``Batch``) is accepted
    wherever an ``int`` is (``np.arange(x.shape[0])``); a ``Literal`` size is still not a ``Batch``.
    """

    def __new__(cls) -> "Dim":
        raise TypeError(f"{cls.__name__} names a dimension; use it in a type such as Tensor[float32, {cls.__name__}]")


class DimSize(int):
    """The size of a dim at run time: an ``int``. Static typing only, never built.

    ``T = TypeVar("T")`` is bounded by ``object``, so ``x.shape[0] // 2`` on a dim ``T`` would be
    a type error on code that runs; the mypy plugin types ``x.shape`` with such a TypeVar bounded
    by this class instead (an int, and a bound no annotation writes, so the plugin can tell the
    two apart and give back the ``T`` of the annotations). Write ``TypeVar("T", bound=int)`` for
    the same without the plugin.
    """


_Left = TypeVar("_Left")
_Right = TypeVar("_Right")


class _DimExpression(int, Generic[_Left, _Right]):
    """A dim computed from two dims (``Literal[n]``, ``Dim`` classes, TypeVars or expressions).

    A type only, never built: an ``int`` subclass for the reason ``Dim`` is one. The mypy plugin
    keeps it in a normal form (``Mul[T, B]`` is ``Mul[B, T]``); the runtime checks compute it from
    the dims the call has bound.
    """

    def __new__(cls) -> "_DimExpression[_Left, _Right]":
        raise TypeError(f"{cls.__name__} is a dim of a type such as Tensor[float32, {cls.__name__}[N, Literal[2]]]")


class Add(_DimExpression[_Left, _Right]):
    """The dim ``A + B``: ``Tensor[float32, Add[N, M]]`` after a concat."""


class Sub(_DimExpression[_Left, _Right]):
    """The dim ``A - B``: ``Tensor[float32, Sub[N, Literal[3]]]`` after ``x[3:]``."""


class Mul(_DimExpression[_Left, _Right]):
    """The dim ``A * B``: ``Tensor[float32, Mul[B, T], C]`` after flattening the first two dims."""


class Div(_DimExpression[_Left, _Right]):
    """The dim ``A // B``, a claim that ``B`` divides ``A``, which the runtime checks:
    ``Tensor[float32, B, H, T, Div[C, H]]``."""
