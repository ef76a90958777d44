//! The toy framework: DESIGN.md's add-a-framework checklist followed to
//! the letter, and nothing else, by a framework small enough to read whole
//! (`toy.py` beside this file, three dtypes in a chain, no Python
//! scalars). It is compiled for the crate's tests only: its tests passing
//! (the registry's checks of every entry, its golden data through the
//! batch protocol) show that the checklist is complete.
//!
//! Like every framework: a lattice as data, errors in the library's own
//! words, the operations as an [`OpTable`](crate::frameworks::common::OpTable)
//! in `ops.rs`, and one registry entry ([`ENTRY`]).

use crate::once::Once;

use crate::frameworks::common::DTypeSet;
use crate::policy::{Policy, TypedLattice};
use crate::registry::PolicyInfo;
use crate::types::{DType, ErrorKind, Op, Operand, OperandKind, PromotionError, TypeSpec, Typed};

mod ops;

/// toy's lattice, as "dtype -> dtypes it promotes to".
const LATTICE: &[(&str, &[&str])] = &[
    ("bool", &["int32"]),
    ("int32", &["float32"]),
    ("float32", &[]),
];

/// The dtypes toy has: the lattice's nodes.
const DTYPES: DTypeSet = DTypeSet::of(&[DType::Bool, DType::Int32, DType::Float32]);

/// The registry entry, as `POLICIES` would hold it.
pub(crate) const ENTRY: PolicyInfo = PolicyInfo {
    name: "toy",
    framework: "toy",
    aliases: &["toy1"],
    settings: &[],
    build: |_| Box::new(Toy),
};

/// toy 1.0's promotion.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Toy;

impl Toy {
    fn join(&self, a: DType, b: DType) -> Result<DType, PromotionError> {
        let (a, b) = (known(a)?, known(b)?);
        let joined = lattice().join_types(Typed::strong(a), Typed::strong(b));
        Ok(joined.expect("a chain has every join").dtype)
    }
}

impl Policy for Toy {
    fn name(&self) -> String {
        "toy".to_owned()
    }

    fn promote_types(&self, a: TypeSpec, b: TypeSpec) -> Result<DType, PromotionError> {
        match (a, b) {
            (TypeSpec::DType(a), TypeSpec::DType(b)) => self.join(a, b),
            (TypeSpec::DType(_), other) | (other, _) => Err(not_a_dtype(other.to_string())),
        }
    }

    fn result_type(&self, operands: &[Operand]) -> Result<Typed, PromotionError> {
        let mut dtypes = operands.iter().map(|operand| match operand.kind() {
            OperandKind::DType(dtype) => Ok(dtype),
            OperandKind::PyInt(_) => Err(not_a_dtype("int".to_owned())),
            _ => Err(not_a_dtype(operand.to_string())),
        });
        let Some(first) = dtypes.next() else {
            return Err(PromotionError::framework(
                ErrorKind::Value,
                "toy.result_type() needs at least one dtype",
            ));
        };
        // toy checks every operand before it promotes.
        let dtypes: Vec<DType> = core::iter::once(first)
            .chain(dtypes)
            .collect::<Result<_, _>>()?;
        let first = known(dtypes[0])?;
        let result = dtypes[1..]
            .iter()
            .try_fold(first, |so_far, &dtype| self.join(so_far, dtype))?;
        Ok(Typed::strong(result))
    }

    fn operation(&self, op: Op, operands: &[Operand]) -> Option<Result<Typed, PromotionError>> {
        ops::operation(self, op, operands)
    }

    fn describe_operation(&self, op: Op) -> Option<String> {
        ops::describe(op)
    }

    fn lattice(&self) -> Option<&TypedLattice> {
        Some(lattice())
    }

    fn is_native(&self, dtype: DType) -> bool {
        DTYPES.contains(dtype)
    }
}

fn known(dtype: DType) -> Result<DType, PromotionError> {
    if DTYPES.contains(dtype) {
        Ok(dtype)
    } else {
        Err(PromotionError::framework(
            ErrorKind::Type,
            format!("toy has no dtype '{dtype}'"),
        ))
    }
}

fn not_a_dtype(what: String) -> PromotionError {
    PromotionError::framework(ErrorKind::Type, format!("toy takes dtypes, not {what}"))
}

fn lattice() -> &'static TypedLattice {
    static LATTICE_ONCE: Once<TypedLattice> = Once::new();
    LATTICE_ONCE.get_or_init(|| TypedLattice::of_dtypes(LATTICE).expect("toy's chain is a lattice"))
}

#[cfg(test)]
mod tests {
    use crate::protocol::answer_line;
    use crate::registry::{self, PolicySpec, Settings};
    use crate::{DType, Op, Operand};
    use serde_json::Value;

    /// The registry's readers find the toy by its entry alone: by name and
    /// alias, in a policy spec, among the policies drawn as a graph, with
    /// its operations described and its diff against another policy.
    #[test]
    fn every_reader_of_the_registry_finds_the_toy() {
        let toy = registry::by_name("toy1", Settings::default()).unwrap();
        assert_eq!(toy.name(), "toy");
        let spec: PolicySpec = "toy".parse().unwrap();
        assert_eq!(spec.build(Settings::default()).name(), "toy");
        assert!(registry::names().any(|name| name == "toy"));
        assert!(registry::with_graph().contains(&"toy"));
        assert!(toy.describe_operation(Op::Less).is_some());
        let (bool_, int8) = (Operand::dtype(DType::Bool), Operand::dtype(DType::Int8));
        assert!(toy.add(&[bool_, bool_]).unwrap().is_ok());
        assert!(toy.add(&[bool_, int8]).unwrap().is_err());
        let numpy = registry::by_name("numpy", Settings::default()).unwrap();
        let types = [DType::Bool.into(), DType::Int32.into()];
        let differences = crate::design::diff::differences(&*toy, &*numpy, &types);
        // NumPy's bool + bool is bool as toy's is; they differ nowhere here.
        assert!(differences.is_empty(), "{differences:?}");
    }

    /// Every line of the golden data `generate.py` wrote by running
    /// `toy.py`, asked through the batch protocol as any framework's is.
    #[test]
    fn the_toy_answers_its_golden_data_through_the_batch_protocol() {
        let golden = include_str!("golden.jsonl");
        let mut checked = 0;
        for (i, line) in golden.lines().enumerate().skip(1) {
            let mut case: Value = serde_json::from_str(line).unwrap();
            let expected = case.as_object_mut().unwrap().remove("answer").unwrap();
            let ours: Value =
                serde_json::from_str(&answer_line(&case.to_string(), Settings::default())).unwrap();
            assert_eq!(ours, expected, "golden.jsonl:{}: {case}", i + 1);
            checked += 1;
        }
        assert_eq!(checked, golden.lines().count() - 1);
        assert!(checked > 100);
    }
}
