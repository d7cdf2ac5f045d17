"""What every hook does with a call: read tensors, build result types, report problems, fall back.

A hook computes its result inside ``guarded``: whatever it does not understand raises
``NotUnderstood`` (or fails outright) and the call keeps its declared type, which is never wrong,
only less exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from mypy.erasetype import remove_instance_last_known_values
from mypy.nodes import Context, TypeInfo
from mypy.plugin import CheckerPluginInterface, FunctionContext, FunctionSigContext, MethodContext, MethodSigContext
from mypy.types import AnyType, FunctionLike, Instance, LiteralType, Type, TypeOfAny, UnpackType

from typing_plugins._codes import ERROR_CODES
from typing_plugins._dim_expressions import Algebra
from typing_plugins._names import PACKAGE
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import MypyShape, TensorType, declared_dim, int_literal, named_dim_text, tensor_text, type_text

CallContext: TypeAlias = FunctionContext | MethodContext
#: Hooks of the plugin's tables: the call's context in, its result type out.
FunctionHook: TypeAlias = Callable[[FunctionContext], Type]
MethodHook: TypeAlias = Callable[[MethodContext], Type]
#: Hooks that adjust a signature before mypy checks a call against it.
FunctionSignatureHook: TypeAlias = Callable[[FunctionSigContext], FunctionLike]
MethodSignatureHook: TypeAlias = Callable[[MethodSigContext], FunctionLike]
#: An operand: a tensor, or a Python scalar by the name of its type (``float``), as messages name it.
Operand: TypeAlias = TensorType | str


class NotUnderstood(Exception):
    """A call the plugin does not model; it keeps its declared type."""


def guarded(ctx: CallContext, infer: Callable[[], Type]) -> Type:
    """``infer()``, or the declared type when the call is outside what the plugin models."""
    try:
        return infer()
    except NotUnderstood:
        return ctx.default_return_type
    except Exception as error:  # a plugin bug must not stop the user's mypy run
        note_failure(ctx.api, ctx.context, error)
        return ctx.default_return_type


def note_failure(api: CheckerPluginInterface, context: Context, error: Exception) -> None:
    """Say at the call that a hook failed and the call kept its declared type.

    Said rather than hidden: the project's tests fail on this note.
    """
    api.msg.note(f"typedtensor's mypy plugin failed here and kept the declared type ({error!r}); please report it", context)


class _ProblemCount:
    """How many problems ``report`` reported: ``tensor-unknown`` says nothing about a call that had
    one, even under a disabled code, which leaves no trace in mypy's errors."""

    reported = 0


def problems_reported() -> int:
    return _ProblemCount.reported


def report(ctx: CallContext, problem: shape_rules.Problem, op: str, operands: Sequence[Operand], where: Context | None = None) -> None:
    """Report ``problem`` of ``op`` at ``where`` (the call by default), worded as the runtime words it."""
    _ProblemCount.reported += 1
    texts = [operand if isinstance(operand, str) else tensor_text(operand, ctx.api.options) for operand in operands]
    ctx.api.fail(problem.message(op, texts), where or ctx.context, code=ERROR_CODES[problem.code])


def int_type(api: CheckerPluginInterface) -> Instance:
    return api.named_generic_type("builtins.int", [])


def mypy_dims(api: CheckerPluginInterface) -> shape_rules.Dims[Type]:
    """Dims as mypy types: ``Literal[n]`` has size n; Dim classes, TypeVars and dim expressions
    have none, and are named (rigid); the rules compute with their normal forms and get back
    ``Mul[B, T]`` and the like."""
    builtin_int = int_type(api)
    algebra = Algebra(lambda name, args: api.named_generic_type(f"{PACKAGE}.{name}", args), builtin_int)
    return shape_rules.Dims(
        int_literal,
        lambda n: LiteralType(n, builtin_int),
        lambda dim: named_dim_text(dim, api.options),
        algebra.form,
        algebra.spell,
        lambda atom: type_text(algebra.atoms[atom], api.options),
    )


def dtype_type(api: CheckerPluginInterface, name: str) -> Instance:
    """The marker class called ``name`` (by its public name: mypy resolves names through packages)."""
    return api.named_generic_type(f"{PACKAGE}.{name}", [])


def new_tensor(api: CheckerPluginInterface, dtype: Type, shape: MypyShape, tensor_class: TypeInfo | None = None) -> Instance:
    """``Tensor[dtype, *shape]``; unknown dims are ``Any``, an unknown run ``*tuple[Any, ...]``.

    ``tensor_class`` is ``Tensor``'s TypeInfo where the caller has it at hand: by name mypy finds
    it only once the package is analysed, which is after ``Tensor``'s own module is checked."""
    any_type = AnyType(TypeOfAny.special_form)

    def dim(value: Type | shape_rules.Unknown) -> Type:
        return any_type if isinstance(value, shape_rules.Unknown) else declared_dim(value)  # a dim solved from ``x.shape`` too

    run: list[Type] = []
    if shape.variadic is shape_rules.UNKNOWN:
        run = [UnpackType(api.named_generic_type("builtins.tuple", [any_type]))]
    elif shape.variadic is not None:
        run = [shape.variadic]
    args = [dtype, *map(dim, shape.prefix), *run, *map(dim, shape.suffix)]
    if tensor_class is not None:
        return Instance(tensor_class, [remove_instance_last_known_values(arg) for arg in args])  # as named_generic_type
    return api.named_generic_type(f"{PACKAGE}.Tensor", args)


def unknown_tensor(api: CheckerPluginInterface, dtype: Type) -> Instance:
    """``Tensor[dtype, *tuple[Any, ...]]``: the result after an error, so one bug gives one error."""
    return new_tensor(api, dtype, shape_rules.Shape((), shape_rules.UNKNOWN))
