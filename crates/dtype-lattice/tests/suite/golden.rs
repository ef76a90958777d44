//! Every case of the golden data generated from real JAX
//! (`conformance/generate_jax.py`), answered through the batch interface and
//! compared with what JAX said.
//!
//! The comparison, exact but for a few stated allowances and the
//! deviations the files record, is `dtype_lattice_testkit::golden::judge`, shared with the test of
//! the explorer's `POST /api/batch` and, a whole file at a time
//! (`dtype_lattice_testkit::golden_file`), with the no-std core's.

use dtype_lattice::registry::Settings;
use dtype_lattice_testkit::golden_file;
use serde_json::Value;

/// Checks a file through the batch protocol
/// ([`golden_file::check`](dtype_lattice_testkit::golden_file::check)).
fn check(name: &str) {
    golden_file::check(name, protocol_answer);
}

macro_rules! golden {
    ($($test:ident => $file:literal;)*) => {
        $(
            #[test]
            fn $test() {
                check($file);
            }
        )*
    };
}

golden! {
    promote_types => "promote_types.jsonl";
    lattice_result_type => "lattice_result_type.jsonl";
    result_type => "result_type.jsonl";
    asarray => "asarray.jsonl";
    canonicalize_dtype => "canonicalize_dtype.jsonl";
    safe_to_cast => "safe_to_cast.jsonl";
    isdtype => "isdtype.jsonl";
    issubdtype => "issubdtype.jsonl";
    finfo => "finfo.jsonl";
    iinfo => "iinfo.jsonl";
    itemsize_bits => "itemsize_bits.jsonl";
    names => "names.jsonl";
    numpy_promote_types => "numpy_promote_types.jsonl";
    numpy_result_type => "numpy_result_type.jsonl";
    array_api_promote_types => "array_api_promote_types.jsonl";
    array_api_result_type => "array_api_result_type.jsonl";
    numpy_can_cast => "numpy_can_cast.jsonl";
    torch_promote_types => "torch_promote_types.jsonl";
    torch_result_type => "torch_result_type.jsonl";
    ops_torch => "ops_torch.jsonl";
    array_ops_torch => "array_ops_torch.jsonl";
    array_ops_paddle => "array_ops_paddle.jsonl";
    tensorflow_safe_result_type => "tensorflow_safe_result_type.jsonl";
    tensorflow_all_result_type => "tensorflow_all_result_type.jsonl";
    tensorflow_safe_promote_types => "tensorflow_safe_promote_types.jsonl";
    tensorflow_all_promote_types => "tensorflow_all_promote_types.jsonl";
    ops_tensorflow => "ops_tensorflow.jsonl";
    ops_tensorflow_tnp => "ops_tensorflow_tnp.jsonl";
    result_type_nary => "result_type_nary.jsonl";
    jax_explicit_x64 => "jax_explicit_x64.jsonl";
    keras_result_type => "keras_result_type.jsonl";
    tinygrad_promote_types => "tinygrad_promote_types.jsonl";
    tinygrad_result_type => "tinygrad_result_type.jsonl";
    ops_tinygrad => "ops_tinygrad.jsonl";
    mlx_promote_types => "mlx_promote_types.jsonl";
    mlx_result_type => "mlx_result_type.jsonl";
    ops_mlx => "ops_mlx.jsonl";
    paddle_promote_types => "paddle_promote_types.jsonl";
    paddle_result_type => "paddle_result_type.jsonl";
    ops_jax => "ops_jax.jsonl";
    ops_jax_lax => "ops_jax_lax.jsonl";
    array_ops_jax => "array_ops_jax.jsonl";
    array_ops_jax_lax => "array_ops_jax_lax.jsonl";
    ops_numpy => "ops_numpy.jsonl";
    forms_numpy => "forms_numpy.jsonl";
    forms_array_api => "forms_array_api.jsonl";
    forms_jax => "forms_jax.jsonl";
    forms_torch => "forms_torch.jsonl";
    ops_array_api => "ops_array_api.jsonl";
    ops_keras => "ops_keras.jsonl";
    ops_paddle => "ops_paddle.jsonl";
    ops_numpy_ml_dtypes => "ops_numpy_ml_dtypes.jsonl";
    array_ops_numpy => "array_ops_numpy.jsonl";
    array_ops_array_api => "array_ops_array_api.jsonl";
    forms_numpy_ml_dtypes => "forms_numpy_ml_dtypes.jsonl";
    forms_tinygrad => "forms_tinygrad.jsonl";
    forms_mlx => "forms_mlx.jsonl";
    forms_paddle => "forms_paddle.jsonl";
    forms_tensorflow => "forms_tensorflow.jsonl";
    forms_tensorflow_legacy => "forms_tensorflow_legacy.jsonl";
    forms_tensorflow_numpy => "forms_tensorflow_numpy.jsonl";
    ops_tensorflow_legacy => "ops_tensorflow_legacy.jsonl";
    ops_tensorflow_tnp_float32 => "ops_tensorflow_tnp_float32.jsonl";
    tensorflow_legacy_promote_types => "tensorflow_legacy_promote_types.jsonl";
    array_ops_tensorflow => "array_ops_tensorflow.jsonl";
    array_ops_tensorflow_numpy => "array_ops_tensorflow_numpy.jsonl";
    array_ops_keras => "array_ops_keras.jsonl";
    array_ops_mlx => "array_ops_mlx.jsonl";
    array_ops_tinygrad => "array_ops_tinygrad.jsonl";
    numpy1_promote_types => "numpy1_promote_types.jsonl";
    numpy1_result_type => "numpy1_result_type.jsonl";
    numpy1_can_cast => "numpy1_can_cast.jsonl";
    ops_numpy1 => "ops_numpy1.jsonl";
    forms_numpy1 => "forms_numpy1.jsonl";
    array_ops_numpy1 => "array_ops_numpy1.jsonl";
}

/// The batch protocol's answer to one request, as the CLI's `batch` gives it.
fn protocol_answer(request: &Value) -> Value {
    let line = dtype_lattice::protocol::answer_line(&request.to_string(), Settings::default());
    serde_json::from_str(&line).expect("an answer is JSON")
}
