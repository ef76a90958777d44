"""What the Python API takes, checked against the real libraries in the test
environment: every pair of a set of input objects (NumPy dtypes, scalar
types, arrays and scalars, JAX arrays weak and strong, Python types and
values, strings) gives what JAX's and NumPy's own functions give, errors
included."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import dtype_lattice as dl

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")


INPUTS = re.compile(r"Input dtypes \((.*)\) have no")


def answer(call):
    """The call's result, or its exception's class and message with the
    input tuple sorted (JAX lists it in Python set order, which varies)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call()
        return ("ok", result)
    except Exception as e:  # noqa: BLE001 - compared as data
        message = INPUTS.sub(lambda m: "Input dtypes ({}) have no".format(
            ", ".join(sorted(m.group(1).split(", ")))), str(e))
        return ("error", type(e).__name__, message)


def jax_inputs():
    return [
        np.dtype("int8"), np.dtype("uint32"), np.dtype("float64"), np.int16,
        np.float32, ml_dtypes.bfloat16, np.dtype(ml_dtypes.float8_e4m3fn),
        jnp.int8, jnp.bfloat16, "int64", "float16", int, float, complex, bool,
        2, -3, 2.5, 1j, 2 + 3j, True, 2**40,
        np.zeros(2, np.int64), np.zeros(2, np.float16), np.float64(1.5),
        np.int8(3), jnp.asarray(2), jnp.asarray(2.0), jnp.asarray(1j),
        jnp.zeros(2, jnp.int8), jnp.zeros(2, jnp.bfloat16),
        jnp.zeros(2, jnp.uint8),
    ]


def set_x64(on: bool) -> None:
    jax.config.update("jax_enable_x64", on)


@pytest.mark.parametrize("x64", [False, True])
def test_result_type_takes_what_jax_takes(x64: bool) -> None:
    set_x64(x64)
    try:
        inputs = jax_inputs()
        ours = dl.policy("jax", x64=x64)
        mismatches = []
        for a in inputs:
            for b in inputs:
                theirs = answer(lambda: jax.numpy.result_type(a, b))
                mine = answer(lambda: ours.result_type(a, b))
                if theirs != mine:
                    mismatches.append(f"{a!r} {b!r}: jax {theirs}, ours {mine}")
                weak_theirs = answer(lambda: jax._src.dtypes.result_type(
                    a, b, return_weak_type_flag=True))
                weak_mine = answer(lambda: ours.result_type(a, b, return_weak_type_flag=True))
                if weak_theirs != weak_mine:
                    mismatches.append(f"{a!r} {b!r} (weak): jax {weak_theirs}, ours {weak_mine}")
        assert not mismatches, f"{len(mismatches)} differ:\n" + "\n".join(mismatches[:10])
    finally:
        set_x64(False)


def test_promote_types_takes_what_jax_takes() -> None:
    types = [np.dtype("int8"), np.int16, ml_dtypes.bfloat16, jnp.float16,
             "uint8", int, float, complex, np.dtype("complex64")]
    for a in types:
        for b in types:
            assert answer(lambda: dl.promote_types(a, b)) == \
                answer(lambda: jnp.promote_types(a, b)), (a, b)


def test_numpy_policy_takes_what_numpy_takes() -> None:
    inputs = [np.dtype("int8"), np.uint16, np.zeros(2, np.float32),
              np.float16(1), np.zeros(2, np.int64), 2, 2.5, 1j, True]
    numpy = dl.policy("numpy")
    for a in inputs:
        for b in inputs:
            assert answer(lambda: numpy.result_type(a, b)) == \
                answer(lambda: np.result_type(a, b)), (a, b)


def test_bad_inputs_are_named_with_a_suggestion() -> None:
    with pytest.raises(TypeError, match="did you mean 'int8'"):
        dl.promote_types("Int8", np.int8)
    with pytest.raises(TypeError, match="cannot read <object object"):
        dl.result_type(object())
    with pytest.raises(ValueError, match="unknown policy|nump"):
        dl.policy("nump")
    with pytest.raises(ValueError, match="explicit_x64_dtypes"):
        dl.policy("jax", explicit_x64_dtypes="sometimes")


def test_operand_notation() -> None:
    weak = dl.operand("weak:int32")
    assert (weak.dtype, weak.weak_type) == (np.dtype("int32"), True)
    assert dl.operand("2+3j") == 2 + 3j
    assert dl.operand("int") is int
    # A stand-in is read as JAX reads an array with that flag.
    assert dl.result_type(weak, np.int8, return_weak_type_flag=True) == \
        jax._src.dtypes.result_type(jnp.asarray(2), np.int8, return_weak_type_flag=True)


def test_errors_are_the_frameworks_classes() -> None:
    with pytest.raises(dl.TypePromotionError) as caught:
        dl.promote_types(ml_dtypes.float8_e4m3fn, np.float32)
    with pytest.raises(Exception) as real:
        jnp.promote_types(ml_dtypes.float8_e4m3fn, np.float32)
    assert type(real.value).__name__ == "TypePromotionError"
    assert str(caught.value) == str(real.value)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(np.exceptions.DTypePromotionError) as real:
        np.promote_types(ml_dtypes.uint1, ml_dtypes.int1)
    with pytest.raises(np.exceptions.DTypePromotionError) as caught:
        dl.policy("numpy").promote_types(ml_dtypes.uint1, ml_dtypes.int1)
    assert str(caught.value) == str(real.value)


class _Printed:
    """An object that prints as another framework's dtype does."""

    def __init__(self, text: str, repr_text: str | None = None) -> None:
        self.text = text
        self.repr_text = repr_text or text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.repr_text


def test_other_frameworks_dtypes_by_the_name_they_print() -> None:
    # str(torch.uint8) is 'torch.uint8'; str(tf.int32) is "<dtype: 'int32'>"
    # (PyTorch 2.15, TensorFlow 2.21; checked with the real objects by hand).
    torch = dl.policy("torch")
    assert torch.promote_types(_Printed("torch.uint8"), _Printed("torch.int8")) == \
        torch.promote_types("uint8", "int8")
    tf = dl.policy("tensorflow-all")
    assert tf.promote_types(_Printed("<dtype: 'int32'>"), _Printed("<dtype: 'float16'>")) == \
        tf.promote_types("int32", "float16")
    # str(mx.int8) is 'mlx.core.int8' (MLX 0.32.4); Paddle 3.3.1 prints
    # paddle.uint16 as 'paddle.bfloat16', and its repr tells them apart.
    mlx = dl.policy("mlx")
    assert mlx.promote_types(_Printed("mlx.core.uint64"), _Printed("mlx.core.int8")) == \
        np.dtype("float32")
    paddle = dl.policy("paddle")
    uint16 = _Printed("paddle.bfloat16", "<DataType.UINT16: 4>")
    bfloat16 = _Printed("paddle.bfloat16", "<DataType.BFLOAT16: 16>")
    assert paddle.promote_types(uint16, uint16) == np.dtype("uint16")
    assert paddle.promote_types(bfloat16, _Printed("paddle.float16", "<DataType.FLOAT16: 10>")) \
        == np.dtype("float32")


def test_tinygrad_and_keras_dtypes_by_the_name_they_print() -> None:
    # The golden headers record how the real libraries print their dtypes
    # (conformance/generate_tinygrad.py: str(dtypes.int8) is 'dtypes.char';
    # generate_keras.py: str of each backend's array dtype).
    golden = Path(__file__).resolve().parents[2] / "conformance" / "golden"

    def header(name: str) -> dict:
        with (golden / name).open(encoding="utf-8") as f:
            return json.loads(f.readline())["header"]

    tinygrad = dl.policy("tinygrad")
    printed = header("tinygrad_promote_types.jsonl")["printed"]
    assert len(printed) == 17
    for ours, spellings in printed.items():
        for spelling in spellings:
            assert tinygrad.promote_types(_Printed(spelling), _Printed(spelling)) == \
                tinygrad.promote_types(ours, ours), spelling
    def outcome(call):
        try:
            return call()
        except ValueError as e:  # float8: Keras promotes it with nothing
            return str(e)

    for backend, printed in header("keras_result_type.jsonl")["printed"].items():
        keras = dl.policy("keras", keras_backend=backend)
        for ours, spelling in printed.items():
            assert outcome(lambda: keras.result_type(_Printed(spelling))) == \
                outcome(lambda: keras.result_type(ours)), spelling


class _Tensor:
    """A tensor as PyTorch and Paddle make one: a dtype that prints as the
    framework's, and a number of dimensions."""

    def __init__(self, dtype: str, ndim: int) -> None:
        self.dtype = _Printed(dtype)
        self.ndim = ndim


def test_zero_dimensional_tensors_promote_as_such() -> None:
    # torch.ones((), dtype=torch.int64) beside an int8 tensor leaves it
    # int8 (the golden torch_result_type case ["int8", "0d:int64"]); a
    # tensor with dimensions widens it.
    torch = dl.policy("torch")
    x = _Tensor("torch.int8", 1)
    assert torch.result_type(x, _Tensor("torch.int64", 0)) == np.dtype("int8")
    assert torch.result_type(x, _Tensor("torch.int64", 1)) == np.dtype("int64")
    paddle = dl.policy("paddle")
    x = _Tensor("paddle.int8", 2)
    assert paddle.result_type(x, _Tensor("paddle.int64", 0)) == np.dtype("int8")
