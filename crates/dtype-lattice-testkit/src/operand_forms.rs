//! Every form of operand the library takes, for tests that sweep them.

use dtype_lattice::{DType, Operand, PyScalar};

/// Every operand form: each dtype as a specifier, a zero-dimensional array
/// and a strong and a weak array; the Python types; Python values; `None`.
pub fn operand_forms() -> Vec<Operand> {
    let mut forms: Vec<Operand> = DType::ALL
        .into_iter()
        .flat_map(|dtype| {
            [
                Operand::dtype(dtype),
                Operand::zero_dim(dtype),
                Operand::array(dtype, false),
                Operand::array(dtype, true),
            ]
        })
        .collect();
    forms.extend(PyScalar::ALL.map(Operand::py_type));
    forms.extend([
        Operand::py_int(2),
        Operand::py_int(1 << 100),
        Operand::py_float(1.5),
        Operand::py_bool(true),
        Operand::NONE,
    ]);
    forms
}
