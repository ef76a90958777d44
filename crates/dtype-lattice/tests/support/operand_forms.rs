//! Every form of operand the library takes, for tests that sweep them.

use dtype_lattice::{DType, Operand, PyScalar};

/// Every operand form: each dtype as a specifier, a zero-dimensional array
/// and a strong and a weak array; the Python types; Python values; `None`.
pub fn operand_forms() -> Vec<Operand> {
    let mut forms: Vec<Operand> = DType::ALL
        .into_iter()
        .flat_map(|dtype| {
            [
                Operand::DType(dtype),
                Operand::ZeroDim(dtype),
                Operand::Array { dtype, weak: false },
                Operand::Array { dtype, weak: true },
            ]
        })
        .collect();
    forms.extend(PyScalar::ALL.map(Operand::PyType));
    forms.extend([
        Operand::PyInt(2),
        Operand::PyInt(1 << 100),
        Operand::PyFloat(1.5),
        Operand::PyBool(true),
        Operand::None,
    ]);
    forms
}
