"""Runtime shape checks: ``@shapechecked`` and ``check()``."""

import functools
import threading
from collections.abc import Iterator
from typing import Any, Generic, Literal as L, TypeVar, TypeVarTuple, Unpack

import numpy as np
import pytest
import typing_extensions

import typedtensor as tt
from typedtensor import AnnotationError, Dim, ShapeError, Tensor

pytestmark = pytest.mark.floors

N = TypeVar("N")
M = TypeVar("M")
_P = TypeVar("_P")
Ts = TypeVarTuple("Ts")
FloatT = TypeVar("FloatT", bound=tt.floating)


class Batch(Dim): ...


class Channels(Dim): ...


def f32(*shape: int) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    return tt.zeros(shape, tt.float32)


@tt.shapechecked
def add(x: Tensor[tt.float32, Batch, N], y: Tensor[tt.float32, Batch, N]) -> Tensor[tt.float32, Batch, N]:
    return tt.Tensor(x.numpy() + y.numpy())


@tt.shapechecked
def flatten(x: Tensor[tt.float32, Batch, N, M]) -> Tensor[tt.float32, Batch, L[12]]:
    return tt.Tensor(x.numpy().reshape(x.shape[0], -1))


# --- binding -------------------------------------------------------------------------------


def test_matching_call_returns_the_result() -> None:
    assert add(f32(4, 3), f32(4, 3)).shape == (4, 3)


def test_a_dim_class_binds_across_parameters() -> None:
    with pytest.raises(ShapeError, match="size of dimension Batch is 5 which does not equal the existing value of 4"):
        add(f32(4, 3), f32(5, 3))


def test_a_typevar_binds_across_parameters() -> None:
    with pytest.raises(ShapeError, match="size of dimension N is 2 which does not equal the existing value of 3"):
        add(f32(4, 3), f32(4, 2))


def test_bindings_reach_the_return_value() -> None:
    @tt.shapechecked
    def wrong(x: Tensor[tt.float32, Batch, N]) -> Tensor[tt.float32, N, Batch]:
        return x

    with pytest.raises(ShapeError, match="^return value of wrong"):
        wrong(f32(4, 3))
    assert wrong(f32(3, 3)).shape == (3, 3)


def test_a_literal_size_must_match() -> None:
    assert flatten(f32(2, 3, 4)).shape == (2, 12)
    with pytest.raises(ShapeError, match="^return value of flatten"):
        flatten(f32(2, 3, 5))


def test_each_call_binds_afresh() -> None:
    assert add(f32(4, 3), f32(4, 3)).shape == (4, 3)
    assert add(f32(7, 1), f32(7, 1)).shape == (7, 1)


def test_any_matches_every_size() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, Any, Any], y: Tensor[tt.float32, Any, Any]) -> None: ...

    f(f32(1, 2), f32(3, 4))


def test_rank_zero() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32]) -> None: ...

    f(f32())
    with pytest.raises(ShapeError, match="this array has 1 dimensions, not the 0 expected"):
        f(f32(1))


def test_a_typevartuple_binds_a_run_of_dims() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, Unpack[Ts], L[2]], y: Tensor[tt.float32, Unpack[Ts]]) -> None: ...

    f(f32(3, 4, 2), f32(3, 4))
    f(f32(2), f32())
    with pytest.raises(ShapeError, match=r"\*Ts' is \(3, 5\), which does not equal the existing value of \(3, 4\)"):
        f(f32(3, 4, 2), f32(3, 5))


def test_typing_extensions_unpack_is_a_run_of_dims() -> None:
    """The spelling of libraries that support Pythons before 3.11 (a different object on 3.11)."""

    @tt.shapechecked
    def f(x: Tensor[tt.float32, typing_extensions.Unpack[Ts]], y: Tensor[tt.float32, L[2], typing_extensions.Unpack[tuple[Any, ...]]]) -> Tensor[tt.float32, typing_extensions.Unpack[Ts]]:
        return x

    assert f(f32(3, 4), f32(2, 5, 6)).shape == (3, 4)
    with pytest.raises(ShapeError, match=r'^parameter "y" of f\(\) .*\n  expected: Tensor\[float32, 2, \*tuple\[Any, ...\]\]'):
        f(f32(3, 4), f32(3))


def test_a_failing_tensor_reports_what_it_bound_before_failing() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, Batch], y: Tensor[tt.float32, Batch, *Ts, M, L[4], N, N]) -> None: ...

    # jaxtyping binds Batch and M, passes 4, binds N=2, fails on N=3 and never reaches *Ts
    with pytest.raises(ShapeError, match=r"bound:    Batch=1, M=7, N=2$"):
        f(f32(1), f32(1, 9, 7, 4, 2, 3))
    with pytest.raises(ShapeError, match=r"reason:   the dimension size 5 does not equal 4 .*\n  bound:    Batch=1, M=7$"):
        f(f32(1), f32(1, 9, 7, 5, 2, 3))
    with pytest.raises(ShapeError, match=r"reason:   this array has 2 dimensions, which is fewer .*\n  bound:    Batch=1$"):
        f(f32(1), f32(1, 9))


def test_star_syntax_and_anonymous_runs() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, Batch, *Ts], y: Tensor[tt.float32, *tuple[Any, ...], Batch]) -> None: ...

    f(f32(2, 3, 4), f32(9, 9, 2))
    with pytest.raises(ShapeError, match='parameter "y"'):
        f(f32(2, 3, 4), f32(3))


def test_an_unpacked_fixed_tuple_stands_for_its_dims() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, Batch, *tuple[L[2], N]], y: Tensor[tt.float32, Unpack[tuple[N]], *tuple[()]]) -> None: ...

    f(f32(5, 2, 3), f32(3))
    with pytest.raises(ShapeError, match=r"expected: Tensor\[float32, Batch, 2, N\]\n  got:      Tensor\[float32, 5, 3, 3\]"):
        f(f32(5, 3, 3), f32(3))
    with pytest.raises(ShapeError, match=r"size of dimension N is 4 which does not equal the existing value of 3"):
        f(f32(5, 2, 3), f32(4))


def test_a_dtype_category_accepts_its_members() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.floating, N], y: Tensor[tt.integer, N], z: Tensor[tt.generic, N]) -> None: ...

    f(tt.zeros((2,), tt.float64), tt.zeros((2,), tt.uint8), tt.zeros((2,), tt.bool_))
    with pytest.raises(ShapeError, match="dtype int32 is not one of the floating dtypes"):
        f(tt.zeros((2,), tt.int32), tt.zeros((2,), tt.uint8), f32(2))


def test_a_dtype_typevar_accepts_its_bound() -> None:
    @tt.shapechecked
    def f(x: Tensor[FloatT, N]) -> None: ...

    f(tt.zeros((2,), tt.float16))
    with pytest.raises(ShapeError, match="dtype bool_ is not one of the floating dtypes"):
        f(tt.zeros((2,), tt.bool_))


IntT = TypeVar("IntT", tt.int32, tt.int64)
NumT = TypeVar("NumT", tt.floating, tt.integer)


def test_a_constrained_dtype_typevar_accepts_only_its_constraints() -> None:
    @tt.shapechecked
    def f(x: Tensor[IntT, N]) -> None: ...

    f(tt.zeros((2,), tt.int32))
    f(tt.zeros((2,), tt.int64))
    with pytest.raises(ShapeError, match=r"expected: Tensor\[IntT, N\]\n.*\n  reason:   dtype float32 is not one of the IntT dtypes \(int32, int64\)"):
        f(f32(2))


def test_a_constrained_dtype_typevar_binds_one_constraint_per_call() -> None:
    @tt.shapechecked
    def f(x: Tensor[NumT, N], y: Tensor[NumT, N]) -> Tensor[NumT, N]:
        return y

    f(f32(2), tt.zeros((2,), tt.float64))  # both floating
    with pytest.raises(ShapeError, match=r'^parameter "y"(.|\n)*reason:   dtype int32 is not floating, which NumT is bound to in this call\n  bound:    N=2, NumT=floating$'):
        f(f32(2), tt.zeros((2,), tt.int32))


def test_a_leading_underscore_name_still_binds() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, _P], y: Tensor[tt.float32, _P]) -> None: ...

    with pytest.raises(ShapeError, match="bound:    _P=2$"):
        f(f32(2), f32(3))


def test_a_leading_underscore_is_reported_as_written() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, _P], y: Tensor[tt.float32, _P]) -> None: ...

    with pytest.raises(ShapeError, match="reason:   the size of dimension _P is 3 which does not equal the existing value of 2"):
        f(f32(2), f32(3))


def other_batch() -> type[Dim]:
    class Batch(Dim): ...  # another module's Batch: same name, another dim

    return Batch


@pytest.mark.parametrize(
    ("first", "second"),
    [(TypeVar("_Q"), TypeVar("Q_")), (Batch, other_batch()), (Batch, TypeVar("Batch")), (Ts, TypeVar("Ts"))],
    ids=["underscores", "two-dim-classes", "dim-and-typevar", "typevartuple-and-typevar"],
)
def test_dims_with_colliding_names_are_distinct(first: Any, second: Any) -> None:
    first_dim = Unpack[first] if isinstance(first, TypeVarTuple) else first

    @tt.shapechecked
    def f(x: Tensor[tt.float32, first_dim, second], y: Tensor[tt.float32, second]) -> None: ...

    f(f32(2, 3), f32(3))
    with pytest.raises(ShapeError, match=f"reason:   the size of dimension {second.__name__} is 4 .* of 3\n  bound:    .*\\b{second.__name__}=3\\b"):
        f(f32(2, 3), f32(4))


def test_bare_tensor_accepts_any_tensor() -> None:
    @tt.shapechecked
    def f(x: Tensor) -> None: ...

    f(tt.zeros((2, 3), tt.int8))
    with pytest.raises(ShapeError, match="a list is not a Tensor"):
        f([1, 2])


def test_unannotated_and_other_parameters_are_not_checked() -> None:
    @tt.shapechecked
    def f(x, n: int, x2: Tensor[tt.float32, N]) -> int:
        return n

    assert f("anything", "not an int", f32(2)) == "not an int"


# --- how arguments arrive ------------------------------------------------------------------


def test_keyword_and_keyword_only_arguments() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, N], *, y: Tensor[tt.float32, N]) -> None: ...

    f(y=f32(2), x=f32(2))
    with pytest.raises(ShapeError, match='^parameter "y" of f'):
        f(f32(2), y=f32(3))


def test_a_default_is_checked_too() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, N], y: Tensor[tt.float32, N] = f32(2)) -> None: ...

    f(f32(2))
    with pytest.raises(ShapeError, match='^parameter "y" of f'):
        f(f32(3))


def test_a_missing_argument_is_the_calls_own_type_error() -> None:
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'y'"):
        add(f32(2, 2))


def test_the_wrapper_keeps_the_name_and_docstring() -> None:
    @tt.shapechecked
    def documented(x: Tensor[tt.float32, N]) -> None:
        """Documented."""

    assert (documented.__name__, documented.__doc__) == ("documented", "Documented.")


# --- methods -------------------------------------------------------------------------------


class Layer(Generic[N]):
    def __init__(self, width: int) -> None:
        self.width = width

    @tt.shapechecked
    def forward(self, x: Tensor[tt.float32, Batch, N]) -> Tensor[tt.float32, Batch]:
        return tt.Tensor(x.numpy().sum(axis=1))

    @staticmethod
    @tt.shapechecked
    def static_inner(x: Tensor[tt.float32, L[2]]) -> None: ...

    @tt.shapechecked
    @staticmethod
    def static_outer(x: Tensor[tt.float32, L[2]]) -> None: ...

    @classmethod
    @tt.shapechecked
    def class_inner(cls, x: Tensor[tt.float32, L[2]]) -> type["Layer[Any]"]:
        return cls

    @tt.shapechecked
    @classmethod
    def class_outer(cls, x: Tensor[tt.float32, L[2]]) -> type["Layer[Any]"]:
        return cls


def test_a_method_skips_self_and_names_its_class() -> None:
    layer: Layer[Any] = Layer(3)
    assert layer.forward(f32(4, 3)).shape == (4,)
    with pytest.raises(ShapeError, match='^parameter "x" of Layer.forward\\(\\)'):
        layer.forward(f32(4))


@pytest.mark.parametrize("name", ["static_inner", "static_outer"])
def test_static_methods_either_order(name: str) -> None:
    method = getattr(Layer, name)
    method(f32(2))
    with pytest.raises(ShapeError, match=f"of Layer.{name}"):
        method(f32(3))


@pytest.mark.parametrize("name", ["class_inner", "class_outer"])
def test_class_methods_either_order(name: str) -> None:
    method = getattr(Layer(1), name)
    assert method(f32(2)) is Layer
    with pytest.raises(ShapeError, match=f"of Layer.{name}"):
        method(f32(3))


# --- other callables -----------------------------------------------------------------------


def test_a_cached_function_is_checked() -> None:
    # Tensors are unhashable (== is elementwise), so the cached function takes a size.
    @tt.shapechecked
    @functools.cache
    def f(n: int) -> Tensor[tt.float32, L[2]]:
        return f32(n)

    assert f(2).shape == (2,)
    with pytest.raises(ShapeError, match=r"^return value of f\(\)"):
        f(3)


def test_a_partial_checks_the_arguments_it_holds_and_those_it_gets() -> None:
    def f(x: Tensor[tt.float32, N], y: Tensor[tt.float32, N]) -> None: ...

    checked = tt.shapechecked(functools.partial(f, f32(2)))
    checked(f32(2))
    with pytest.raises(ShapeError, match=r'^parameter "x" of f\(\)'):
        tt.shapechecked(functools.partial(f, f32(2, 2)))(f32(2))
    with pytest.raises(ShapeError, match=r'^parameter "y" of f\(\)(.|\n)*bound:    N=2$'):
        checked(y=f32(3))


def test_a_callable_object_is_checked_as_its_call_method() -> None:
    class Scale:
        def __call__(self, x: Tensor[tt.float32, L[2]]) -> None: ...

    checked = tt.shapechecked(Scale())
    checked(f32(2))
    with pytest.raises(ShapeError, match=r'^parameter "x" of Scale.__call__\(\)'):
        checked(f32(3))


@pytest.mark.parametrize("fn", [len, Layer], ids=["builtin", "class"])
def test_a_callable_without_python_annotations_is_refused(fn: object) -> None:
    with pytest.raises(TypeError, match=f"^shapechecked decorates a function or method, got {type(fn).__name__}$"):
        tt.shapechecked(fn)


# --- nesting and check() -------------------------------------------------------------------


def test_nested_calls_bind_their_own_dims() -> None:
    @tt.shapechecked
    def inner(x: Tensor[tt.float32, Batch]) -> Tensor[tt.float32, Batch]:
        return x

    @tt.shapechecked
    def outer(x: Tensor[tt.float32, Batch, N]) -> Tensor[tt.float32, Batch]:
        inner(f32(7))  # its own Batch=7, not outer's
        return x.sum(axis=1)

    assert outer(f32(4, 3)).shape == (4,)


def test_check_returns_its_value() -> None:
    x = f32(2, 3)
    assert tt.check(x, Tensor[tt.float32, L[2], L[3]]) is x


def test_check_outside_a_call_binds_nothing_lasting() -> None:
    tt.check(f32(2), Tensor[tt.float32, Batch])
    tt.check(f32(3), Tensor[tt.float32, Batch])


def test_check_shares_the_bindings_of_its_call() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, Batch, N]) -> None:
        tt.check(f32(int(x.shape[0])), Tensor[tt.float32, Batch])
        tt.check(f32(5), Tensor[tt.float32, N])

    with pytest.raises(ShapeError, match="^value passed to check\\(\\) in f\\(\\)") as caught:
        f(f32(4, 3))
    assert str(caught.value).endswith("bound:    Batch=4, N=3")


def test_check_binds_for_the_return_value() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, Any]) -> Tensor[tt.float32, N]:
        tt.check(x, Tensor[tt.float32, N])
        return f32(2)

    f(f32(2))
    with pytest.raises(ShapeError, match="^return value of f"):
        f(f32(3))


# --- bad use -------------------------------------------------------------------------------


def test_an_ndarray_is_not_a_tensor() -> None:
    with pytest.raises(ShapeError, match=r"a numpy.ndarray is not a Tensor; wrap it with typedtensor.Tensor\(array\)"):
        add(np.zeros((2, 2), np.float32), f32(2, 2))


def test_errors_are_type_errors() -> None:
    assert issubclass(ShapeError, TypeError) and issubclass(AnnotationError, TypeError)
    assert issubclass(AnnotationError, tt.TypedTensorError)


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        (Tensor[tt.float32, 3.5], "3.5 is not a valid dim; a dim is Literal"),
        (Tensor[tt.float32, 3], r"3 is not a valid dim \(write Literal\[3\]\)"),
        (Tensor[tt.float32, L["a"]], r"Literal\['a'\] is not a valid dim; a Literal dim is one size"),
        (Tensor[tt.float32, L[2, 3]], r"Literal\[2, 3\] is not a valid dim"),
        (Tensor[tt.float32, Dim], "Dim is not a valid dim"),
        (Tensor[float, N], "float is not a typedtensor dtype"),
        (Tensor[tt.float32, *Ts, *tuple[Any, ...]], "a shape may contain only one unpacked"),
        (Tensor[tt.float32, *tuple[Batch, ...]], r"\*tuple\[.*Batch, ...\] is not a valid run of dims"),
    ],
)
def test_an_invalid_annotation_fails_at_decoration(annotation: Any, message: str) -> None:
    def f(x: annotation) -> None: ...

    with pytest.raises(AnnotationError, match=f'^parameter "x" of f\\(\\): {message}'):
        tt.shapechecked(f)


def test_an_undefined_dim_name_fails_at_the_first_call() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, "abc"]) -> None: ...  # noqa: F821

    with pytest.raises(AnnotationError, match=r"""^parameter "x" of f\(\): cannot resolve the forward reference 'abc'"""):
        f(f32(2))


def test_a_string_dim_resolves_in_the_defining_scope() -> None:
    class Local(Dim): ...

    @tt.shapechecked
    def f(x: Tensor[tt.float32, "Local"], y: Tensor[tt.float32, "Local"]) -> None: ...

    with pytest.raises(ShapeError, match="size of dimension Local is 3"):
        f(f32(2), f32(3))


def test_check_rejects_a_non_tensor_annotation() -> None:
    with pytest.raises(AnnotationError, match="^check\\(\\) takes a Tensor\\[...\\] annotation, got <class 'int'>"):
        tt.check(f32(2), int)


@pytest.mark.parametrize("annotation", [[0, 1], {"shape": (2,)}])
def test_check_rejects_an_unhashable_non_annotation(annotation: Any) -> None:
    with pytest.raises(AnnotationError) as raised:
        tt.check(f32(2), annotation)
    assert str(raised.value) == f"check() takes a Tensor[...] annotation, got {annotation!r}"
    assert raised.value.__context__ is None


def test_shapechecked_rejects_a_non_function() -> None:
    with pytest.raises(TypeError, match="shapechecked decorates a function or method, got int"):
        tt.shapechecked(3)


def test_an_optional_tensor_accepts_none() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, N], mask: Tensor[tt.bool_, N] | None = None) -> Tensor[tt.float32, N] | None:
        return x if mask is None else None

    assert f(f32(2)) is not None and f(f32(2), tt.zeros((2,), tt.bool_)) is None
    with pytest.raises(ShapeError, match=r"expected: Tensor\[bool_, N\] \| None\n  got:      Tensor\[bool_, 3\]"):
        f(f32(2), tt.zeros((3,), tt.bool_))


def test_a_wider_union_with_a_tensor_is_refused() -> None:
    def f(x: Tensor[tt.float32, N] | int) -> None: ...

    with pytest.raises(AnnotationError, match=r"Tensor\[float32, N\] \| int cannot be checked: of a union, only X \| None is$"):
        tt.shapechecked(f)


def test_async_functions_are_refused() -> None:
    async def f(x: Tensor[tt.float32, N]) -> None: ...

    with pytest.raises(TypeError, match=r"^shapechecked does not support async functions such as f\(\)$"):
        tt.shapechecked(f)


def test_generator_functions_are_refused() -> None:
    def f(x: Tensor[tt.float32, N]) -> Iterator[int]:
        yield 1

    with pytest.raises(TypeError, match=r"^shapechecked does not support generator functions such as f\(\): "):
        tt.shapechecked(f)


def test_threads_bind_independently() -> None:
    failures: list[BaseException] = []

    def work(size: int) -> None:
        try:
            for _ in range(200):
                add(f32(size, 2), f32(size, 2))
        except ShapeError as error:
            failures.append(error)

    threads = [threading.Thread(target=work, args=(size,)) for size in (1, 2, 3, 4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
