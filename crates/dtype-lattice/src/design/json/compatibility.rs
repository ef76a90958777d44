//! `compatibility --format json`.

use serde_json::{json, Map, Value};

use crate::design::compatibility::{Compatibility, Count, Example, ProbeAnswer};
use crate::types::Op;

impl Compatibility {
    /// `compatibility --format json`: the `policies` (names), one entry
    /// per two of them in `pairs` (`left`, `right`, `table` and `add` as
    /// `{"compared", "differing"}`, and the `themes` the differences fall
    /// on, most first, each with its `table` and `add` counts and an
    /// `example` cell), and the `probes`, each with its `label`, its two
    /// `operands` in the batch notation and every policy's `answers`: a
    /// dtype name, `{"error": CLASS}`, or `{"missing": DTYPE}` where
    /// the framework lacks an operand's dtype; and the `operations`: the
    /// `reference` policy, per operation its `rows` (each other policy's
    /// count against the reference, `null` where one does not model it)
    /// and the operation `probes`, answered as the others (`null`: not
    /// modelled); the `forms` likewise; and the `array_ops` as the
    /// `operations`, an answer that computes in another type
    /// `{"dtype", "computes_in"}`.
    #[doc(hidden)]
    pub fn to_json(&self) -> Value {
        let count = |c: &Count| json!({ "compared": c.compared, "differing": c.differing });
        let dtype = |d: Option<crate::DType>| d.map(|d| d.name());
        let example = |e: &Example| {
            json!({
                "operation": if e.add { "add" } else { "promote_types" },
                "operands": [e.operands[0].to_string(), e.operands[1].to_string()],
                "left": dtype(e.left),
                "right": dtype(e.right),
            })
        };
        let pairs: Vec<Value> = self
            .pairs
            .iter()
            .map(|pair| {
                let themes: Vec<Value> = pair
                    .themes
                    .iter()
                    .map(|t| {
                        json!({
                            "theme": t.theme.describe(),
                            "table": t.table,
                            "add": t.add,
                            "example": example(&t.example),
                        })
                    })
                    .collect();
                json!({
                    "left": self.names[pair.left],
                    "right": self.names[pair.right],
                    "table": count(&pair.table),
                    "add": count(&pair.add),
                    "themes": themes,
                })
            })
            .collect();
        // Every policy's answer by its name: a dtype, the error's class, the
        // dtype it lacks, or null where it does not model the operation.
        let answers = |answers: &[ProbeAnswer]| -> Map<String, Value> {
            self.names
                .iter()
                .zip(answers)
                .map(|(name, answer)| {
                    let value = match answer {
                        ProbeAnswer::DType(d) => json!(d.name()),
                        ProbeAnswer::Error(class) => json!({ "error": class }),
                        ProbeAnswer::Missing(d) => json!({ "missing": d.name() }),
                        ProbeAnswer::NotModelled => Value::Null,
                        ProbeAnswer::ComputesIn(d, c) => {
                            json!({ "dtype": d.name(), "computes_in": c.name() })
                        }
                    };
                    (name.clone(), value)
                })
                .collect()
        };
        let probes: Vec<Value> = self
            .probes
            .iter()
            .map(|p| {
                let answers = answers(&p.answers);
                json!({
                    "label": p.probe.label,
                    "operands": [p.probe.operands[0].to_string(), p.probe.operands[1].to_string()],
                    "answers": answers,
                })
            })
            .collect();
        // An operation's counts against the reference, by each other
        // policy's name (`null` where either does not model it).
        let against = |op: &str, counts: &[Option<Count>]| -> Value {
            let by_name: Map<String, Value> = self
                .names
                .iter()
                .zip(counts)
                .skip(1)
                .map(|(name, c)| (name.clone(), c.as_ref().map_or(Value::Null, count)))
                .collect();
            json!({ "op": op, "against_reference": by_name })
        };
        let rows: Vec<Value> = self
            .operations
            .rows
            .iter()
            .map(|row| against(row.op.name(), &row.against_reference))
            .collect();
        let op_probes: Vec<Value> = self
            .operations
            .probes
            .iter()
            .map(|p| {
                let answers = answers(&p.answers);
                let operands: Vec<String> = p.probe.operands[..p.probe.op.arity()]
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                json!({
                    "label": p.probe.label,
                    "op": p.probe.op.name(),
                    "operands": operands,
                    "answers": answers,
                })
            })
            .collect();
        let form_rows: Vec<Value> = self
            .forms
            .rows
            .iter()
            .map(|row| {
                let by_policy: Map<String, Value> = self
                    .names
                    .iter()
                    .zip(&row.operator_against_function)
                    .map(|(name, c)| (name.clone(), c.as_ref().map_or(Value::Null, count)))
                    .collect();
                json!({ "op": row.op.name(), "operator_against_function": by_policy })
            })
            .collect();
        let form_probes: Vec<Value> = self
            .forms
            .probes
            .iter()
            .map(|p| {
                json!({
                    "label": p.probe.label,
                    "op": p.probe.op.map(Op::name),
                    "form": p.probe.form.name(),
                    "operands": [p.probe.operands[0].to_string(), p.probe.operands[1].to_string()],
                    "answers": answers(&p.answers),
                })
            })
            .collect();
        let array_rows: Vec<Value> = self
            .array_ops
            .rows
            .iter()
            .map(|row| against(row.op.name(), &row.against_reference))
            .collect();
        let array_probes: Vec<Value> = self
            .array_ops
            .probes
            .iter()
            .map(|p| {
                let operands: Vec<String> =
                    p.probe.operands.iter().map(ToString::to_string).collect();
                json!({
                    "label": p.probe.label,
                    "call": p.probe.call.to_string(),
                    "operands": operands,
                    "answers": answers(&p.answers),
                })
            })
            .collect();
        json!({
            "policies": self.names,
            "pairs": pairs,
            "probes": probes,
            "operations": { "reference": self.names.first(), "rows": rows, "probes": op_probes },
            "forms": { "rows": form_rows, "probes": form_probes },
            "array_ops": { "reference": self.names.first(), "rows": array_rows, "probes": array_probes },
        })
    }
}
