"""``@shapechecked`` on annotations around tensors: ``Annotated``, lists, tuples, ``Tensor``
subclasses and jaxtyping's own array annotations, with one set of bindings per call; and the
annotations that name a tensor but cannot be checked, refused when the decorator runs."""

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated, Any, Generic, Literal as L, Optional, TypeVar, TypeVarTuple, Unpack

import numpy as np
import pytest
from jaxtyping import Float, Int, Shaped

import typedtensor as tt
from typedtensor import AnnotationError, Dim, ShapeError, Tensor

pytestmark = pytest.mark.floors

N = TypeVar("N")
M = TypeVar("M")
DT = TypeVar("DT", bound=tt.generic)
Ts = TypeVarTuple("Ts")
TensorT = TypeVar("TensorT", bound=Tensor[tt.float32, N])


class Batch(Dim): ...


def f32(*shape: int) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    return tt.zeros(shape, tt.float32)


def i64(*shape: int) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    return tt.zeros(shape, tt.int64)


# --- Annotated -----------------------------------------------------------------------------


def test_annotated_is_checked_as_what_it_annotates() -> None:
    @tt.shapechecked
    def f(x: Annotated[Tensor[tt.float32, N], "metadata"], y: Tensor[tt.float32, N]) -> Annotated[Tensor[tt.float32, N], 1]:
        return x

    assert f(f32(3), f32(3)).shape == (3,)
    with pytest.raises(ShapeError, match=r'^parameter "x" of f\(\) .*\n  expected: Tensor\[float32, N\]\n.*\n  reason:   dtype int64'):
        f(i64(3), f32(3))
    with pytest.raises(ShapeError, match=r'^parameter "y" of f\(\) .*\n(.*\n){2}  reason:   the size of dimension N is 4 .* of 3'):
        f(f32(3), f32(4))


# --- lists and tuples ------------------------------------------------------------------------


@tt.shapechecked
def stack(xs: list[Tensor[tt.float32, N]]) -> Tensor[tt.float32, Any, N]:
    return tt.Tensor(np.stack([x.numpy() for x in xs]))


def test_each_item_of_a_list_is_checked_and_binds_for_the_others() -> None:
    assert stack([f32(3), f32(3), f32(3)]).shape == (3, 3)
    with pytest.raises(ShapeError, match=r'^item 2 of parameter "xs" of stack\(\) does not match its annotation\n'
                                         r"  expected: Tensor\[float32, N\]\n  got:      Tensor\[float32, 4\]\n"
                                         r"  reason:   the size of dimension N is 4 which does not equal the existing value of 3\n"
                                         r"  bound:    N=3$"):
        stack([f32(3), f32(3), f32(4)])


def test_a_list_annotation_takes_a_list_only() -> None:
    @tt.shapechecked
    def count(xs: list[Tensor[tt.float32, N]]) -> int:
        return len(xs)

    assert count([]) == 0
    with pytest.raises(ShapeError, match=r"expected: list\[Tensor\[float32, N\]\]\n  got:      tuple\n  reason:   a tuple is not a list"):
        stack((f32(3),))  # type: ignore[arg-type]
    with pytest.raises(ShapeError, match=r"expected: list\[Tensor\[float32, N\]\]\n  got:      Tensor\[float32, 3\]\n"):
        stack(f32(3))  # type: ignore[arg-type]


@tt.shapechecked
def split(x: Tensor[tt.float32, N, L[2]]) -> tuple[Tensor[tt.float32, N], Tensor[tt.int64, N], str]:
    halves = x.numpy()
    return tt.Tensor(halves[:, 0]), tt.Tensor(halves[:, 1].astype(np.int64)), "unchecked"


def test_each_position_of_a_tuple_is_checked() -> None:
    first, second, label = split(f32(5, 2))
    assert (first.shape, second.dtype, label) == ((5,), tt.int64, "unchecked")

    @tt.shapechecked
    def wrong(x: Tensor[tt.float32, N]) -> tuple[Tensor[tt.float32, N], Tensor[tt.int64, N]]:
        return x, tt.Tensor(np.zeros(4, np.int64))

    with pytest.raises(ShapeError, match=r"^item 1 of return value of wrong\(\) \(defined at .*\) does not match its annotation\n"
                                         r"  expected: Tensor\[int64, N\]\n.*\n  reason:   the size of dimension N is 4"):
        wrong(f32(3))


def test_a_fixed_tuple_must_have_its_length() -> None:
    @tt.shapechecked
    def f(pair: tuple[Tensor[tt.float32, N], Tensor[tt.float32, N]]) -> None: ...

    f((f32(2), f32(2)))
    with pytest.raises(ShapeError, match=r"expected: tuple\[Tensor\[float32, N\], Tensor\[float32, N\]\]\n"
                                         r"  got:      tuple of 3 items\n  reason:   a tuple of 3 items, not 2\n"):
        f((f32(2), f32(2), f32(2)))  # type: ignore[arg-type]
    with pytest.raises(ShapeError, match=r"reason:   a list is not a tuple"):
        f([f32(2), f32(2)])  # type: ignore[arg-type]


def test_a_tuple_of_any_length_checks_every_item() -> None:
    @tt.shapechecked
    def f(xs: tuple[Tensor[tt.float32, Batch, *Ts], ...]) -> None: ...

    f(())
    f((f32(2, 3, 4), f32(2, 3, 4)))
    with pytest.raises(ShapeError, match=r"^item 1 of parameter \"xs\" .*\n(.*\n){2}  reason:   the shape of its variadic dimensions '\*Ts' is \(5,\)"):
        f((f32(2, 3), f32(2, 5)))


def test_check_takes_a_list_whose_items_share_their_dims() -> None:
    assert len(tt.check([f32(2), f32(2)], list[Tensor[tt.float32, N]])) == 2
    with pytest.raises(ShapeError, match=r"^item 1 of value passed to check\(\) .*\n(.*\n){2}  reason:   the size of dimension N is 3"):
        tt.check([f32(2), f32(3)], list[Tensor[tt.float32, N]])


def test_containers_nest_and_may_be_optional() -> None:
    @tt.shapechecked
    def f(pairs: Optional[list[tuple[Tensor[tt.float32, N], Annotated[Tensor[tt.float32, M], "m"]]]]) -> None: ...

    f(None)
    f([(f32(2), f32(5)), (f32(2), f32(5))])
    with pytest.raises(ShapeError, match=r'^item 1 of item 1 of parameter "pairs" of f\(\) .*\n'
                                         r"  expected: Tensor\[float32, M\]\n(.*\n){2}  bound:    N=2, M=5$"):
        f([(f32(2), f32(5)), (f32(2), f32(6))])


# --- Tensor subclasses -----------------------------------------------------------------------


class Images(Tensor[tt.uint8, Batch, L[28], L[28]]):
    """A subclass that fixes dtype and shape."""


class Sequence_(Tensor[DT, Unpack[Ts]]):
    """A generic subclass, parametrized like Tensor."""


class Labelled(Sequence_[tt.int32, L[5], N], Generic[N]):
    """Two levels down, with a type parameter of its own."""


def test_a_tensor_subclass_is_checked_as_its_class_and_its_tensor_type() -> None:
    @tt.shapechecked
    def f(x: Images, y: Sequence_[tt.float32, Batch, N], z: Labelled[N]) -> None: ...

    images = Images(np.zeros((4, 28, 28), np.uint8))
    f(images, Sequence_(np.zeros((4, 3), np.float32)), Labelled(np.zeros((5, 3), np.int32)))
    with pytest.raises(ShapeError, match=r'^parameter "x" .*\n  expected: Images \(a Tensor\[uint8, Batch, 28, 28\]\)\n'
                                         r"  got:      Tensor\[uint8, 4, 28, 28\]\n  reason:   a Tensor is not an Images\n"):
        f(tt.Tensor(np.zeros((4, 28, 28), np.uint8)), Sequence_(np.zeros((4, 3), np.float32)), Labelled(np.zeros((5, 3), np.int32)))
    with pytest.raises(ShapeError, match=r'^parameter "y" .*\n  expected: Sequence_ \(a Tensor\[float32, Batch, N\]\)\n(.*\n)  reason:   dtype float64'):
        f(images, Sequence_(np.zeros((4, 3))), Labelled(np.zeros((5, 3), np.int32)))
    with pytest.raises(ShapeError, match=r'^parameter "z" .*\n  expected: Labelled \(a Tensor\[int32, 5, N\]\)\n(.*\n){2}  bound:    Batch=4, N=3$'):
        f(images, Sequence_(np.zeros((4, 3), np.float32)), Labelled(np.zeros((5, 2), np.int32)))


def test_a_bare_generic_subclass_accepts_any_of_its_instances() -> None:
    @tt.shapechecked
    def f(x: Sequence_, y: Sequence_) -> None: ...  # type: ignore[type-arg]

    f(Sequence_(np.zeros((2,), np.int8)), Sequence_(np.zeros((3, 4))))  # no dims shared
    with pytest.raises(ShapeError, match="reason:   a Tensor is not a Sequence_"):
        f(f32(2), f32(2))


class Reordered(Tensor[DT, Unpack[Ts]], Generic[Unpack[Ts], DT]):
    """Its type parameters are Tensor's in another order: which argument is the dtype?"""


def test_a_subclass_whose_parameters_are_not_its_bases_is_refused() -> None:
    def f(x: Reordered[L[2], tt.float32]) -> None: ...

    with pytest.raises(AnnotationError, match=r"^parameter \"x\" of f\(\): Reordered\[.*\] cannot be checked: the type parameters "
                                              r"of Reordered are not those of its base Tensor\[DT, \*Ts\], in order$"):
        tt.shapechecked(f)


def test_a_typevar_bound_to_a_tensor_is_checked_as_its_bound() -> None:
    @tt.shapechecked
    def f(x: TensorT, y: Tensor[tt.float32, N]) -> TensorT:
        return x

    f(f32(2), f32(2))
    with pytest.raises(ShapeError, match=r'^parameter "y" .*\n(.*\n){2}  reason:   the size of dimension N is 3'):
        f(f32(2), f32(3))


# --- jaxtyping's own annotations ---------------------------------------------------------------


@tt.shapechecked
def project(x: Tensor[tt.float32, Batch, N], w: Float[np.ndarray, "N M"]) -> Float[np.ndarray, "Batch M"]:
    return x.numpy() @ w


def test_jaxtyping_dims_share_the_bindings_of_the_dims_they_are_named_after() -> None:
    assert project(f32(4, 3), np.zeros((3, 2), np.float32)).shape == (4, 2)
    with pytest.raises(ShapeError, match=r'^parameter "w" of project\(\) does not match its annotation\n'
                                         r"  expected: Float\[ndarray, 'N M'\]\n  got:      numpy.ndarray of float32, shape \(5, 2\)\n"
                                         r"  reason:   the size of dimension N is 5 which does not equal the existing value of 3\n"
                                         r"  bound:    Batch=4, N=3$"):
        project(f32(4, 3), np.zeros((5, 2), np.float32))


def test_a_jaxtyping_annotation_checks_its_array_type_and_dtype() -> None:
    with pytest.raises(ShapeError, match=r"  got:      numpy.ndarray of int64, shape \(3, 2\)\n  reason:   this array has dtype int64"):
        project(f32(4, 3), np.zeros((3, 2), np.int64))
    with pytest.raises(ShapeError, match=r"  got:      list\n  reason:   .*ndarray"):
        project(f32(4, 3), [[0.0, 0.0]] * 3)  # type: ignore[arg-type]


def test_a_jaxtyping_return_value_binds_with_the_rest() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, Batch]) -> tuple[Int[np.ndarray, "Batch"], Shaped[np.ndarray, "*rest"]]:
        return np.zeros(3, np.int64), np.zeros((1, 2))

    assert f(f32(3))[1].shape == (1, 2)
    with pytest.raises(ShapeError, match=r"^item 0 of return value of f\(\) .*\n(.*\n){2}  reason:   the size of dimension Batch is 3 .* of 4"):
        f(f32(4))


def test_names_only_jaxtyping_uses_bind_among_jaxtyping_annotations() -> None:
    @tt.shapechecked
    def f(a: Float[np.ndarray, "rows 2"], b: Float[np.ndarray, "rows"], n: Tensor[tt.float32, N]) -> None: ...

    f(np.zeros((3, 2)), np.zeros(3), f32(7))
    with pytest.raises(ShapeError, match=r"reason:   the size of dimension rows is 4 which does not equal the existing value of 3\n"):
        f(np.zeros((3, 2)), np.zeros(4), f32(7))


def test_jaxtyping_symbolic_broadcast_and_anonymous_dims_keep_their_meaning() -> None:
    tt.check(f32(1), Tensor[tt.float32, N])  # the TypeVar N takes its symbol first
    other_n = type("N", (Dim,), {})  # so this N's symbol is not N: messages still say N

    @tt.shapechecked
    def f(x: Tensor[tt.float32, other_n], y: Float[np.ndarray, "#N _ ..."], rows: int) -> Float[np.ndarray, "N+1 rows=2"]:  # type: ignore[valid-type]
        return np.zeros((rows, 2))

    assert f(f32(3), np.zeros((1, 7)), 4).shape == (4, 2)  # #N: a size 1 broadcasts
    assert f(f32(3), np.zeros((3, 7, 5, 5)), 4).shape == (4, 2)
    with pytest.raises(ShapeError, match=r"reason:   the size of dimension N is 2 which does not equal the existing value of 3\n"):
        f(f32(3), np.zeros((2, 7)), 4)
    with pytest.raises(ShapeError, match=r"reason:   the dimension size 5 does not equal the existing value of N\+1=4\n"):
        f(f32(3), np.zeros((3, 7)), 5)


def test_jaxtyping_dims_that_need_its_own_decorator_are_refused() -> None:
    def f(x: Float[np.ndarray, "?N"]) -> None: ...

    with pytest.raises(AnnotationError, match=r"""^parameter "x" of f\(\): '\?N': tree-path and f-string dims need jaxtyping's own decorator"""):
        tt.shapechecked(f)


def test_a_jaxtyping_name_of_two_different_dims_is_ambiguous() -> None:
    other_n = type("N", (Dim,), {})  # a Dim class named N, beside the TypeVar N

    def f(x: Tensor[tt.float32, N, other_n], y: Float[np.ndarray, "N"]) -> None: ...  # type: ignore[valid-type]

    with pytest.raises(AnnotationError, match=r"""^parameter "y" of f\(\): the dim N of Float\[ndarray, 'N'\] could be any of 2 dims named N"""):
        tt.shapechecked(f)


# --- what is refused ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "shown"),
    [
        (dict[str, Tensor[tt.float32, N]], "dict[str, Tensor[float32, N]]"),
        (Sequence[Tensor[tt.float32, N]], "Sequence[Tensor[float32, N]]"),
        (Iterable[Images], "Iterable[Images]"),
        (Callable[[Tensor[tt.float32, N]], None], "Callable[[Tensor[float32, N]], None]"),
        (type[Images], "type[Images]"),
        (set[Float[np.ndarray, "N"]], "set[Float[ndarray, 'N']]"),
        (list[Tensor[tt.float32, N]] | tuple[Tensor[tt.float32, N]], "list[Tensor[float32, N]] | tuple[Tensor[float32, N]]"),
        (tuple[Tensor[tt.float32, N], *tuple[Tensor[tt.float32, N], ...]], "tuple[Tensor[float32, N], *tuple[Tensor[float32, N], ...]]"),
    ],
)
def test_an_annotation_that_names_a_tensor_but_cannot_be_checked_is_refused(annotation: Any, shown: str) -> None:
    def f(x: annotation) -> None: ...

    with pytest.raises(AnnotationError, match=rf'^parameter "x" of f\(\): {re.escape(shown)} cannot be checked: '):
        tt.shapechecked(f)


Row = Tensor[tt.float32, N]


def test_a_string_inside_a_builtin_list_is_resolved_and_checked() -> None:
    # ``list["Row"]`` keeps "Row" as a plain string (``typing.List`` would make a ForwardRef): it
    # was once left unchecked
    @tt.shapechecked
    def rows(xs: list["Row"]) -> int:
        return len(xs)

    assert rows([f32(3), f32(3)]) == 2
    with pytest.raises(ShapeError, match=r'^item 1 of parameter "xs" of .*rows\(\) does not match its annotation\n'):
        rows([f32(3), f32(4)])
