//! The promotions report of a program as JSON.

use serde_json::{json, Value};

use super::{answer_json, typed_json};
use crate::design::promotions::{Entry, Promotions, Refusal};

impl Entry {
    /// One entry of [`Promotions::to_json`].
    fn to_json(&self) -> Value {
        let call = &self.call;
        let result = match &call.result {
            Ok(typed) => typed_json(typed),
            Err(Refusal { error, message }) => {
                json!({ "error": { "type": error, "message": message } })
            }
        };
        let compared: Vec<Value> = self
            .compared
            .iter()
            .map(|a| {
                json!({
                    "spec": a.spec,
                    "policy": a.policy,
                    "question": a.question.name(),
                    "answer": answer_json(&a.answer),
                    "reference": answer_json(&a.reference),
                    "differs": a.differs,
                    "fails": a.fails(),
                })
            })
            .collect();
        json!({
            "site": {
                "file": call.site.file,
                "line": call.site.line,
                "function": call.site.function,
                "code": call.site.code,
            },
            "framework": call.framework.name,
            "operation": call.operation,
            "op": self.op.map(|op| op.name()),
            "operands": (call.operands.iter().enumerate())
                .map(|(i, t)| {
                    let mut operand = typed_json(t);
                    if let Some(value) = call.value(i) {
                        operand["value"] = value.to_string().into();
                    }
                    operand
                })
                .collect::<Vec<_>>(),
            "zero_dim": call.zero_dim,
            "configuration": self.configuration,
            "count": call.count,
            "result": result,
            "gives": self.gives.as_ref().map(answer_json),
            "computes_in": self.computes_in.map(|d| d.name()),
            "keywords": {
                "dtype": call.dtype.map(|d| d.name()),
                "promote_integers": call.promote_integers,
            },
            "promotes": self.promotes,
            "implicit": self.implicit,
            "criteria": self.criteria.iter().map(|c| c.name()).collect::<Vec<_>>(),
            "differs": self.differs(),
            "compared": compared,
        })
    }
}

impl Promotions {
    /// The report as JSON: `calls` (the entries' calls), `hidden` (entries
    /// the filters left out), `compiled` (calls `torch.compile` traced,
    /// not recorded), `frameworks` (the registry names of the
    /// frameworks that made the calls: `jax`, `torch`), `configurations`
    /// (the recording frameworks' policies' names), `compared` (the
    /// compared policies as specs), and the `entries`, riskiest first, each
    /// with its `site` (`{"file", "line", "function", "code"}`), its
    /// `framework`, `operation` (JAX's name) and `op` (the library's, or
    /// `null`), `operands` (`{"dtype", "weak"}`, and `"value"`, a Python
    /// literal, for a Python scalar whose value was read: weak is a Python scalar
    /// outside JAX), `zero_dim` (the positions of the operands that were
    /// PyTorch 0-d tensors), its
    /// `configuration`, `count`, JAX's `result` (`{"dtype", "weak"}` or
    /// `{"error": {"type", "message"}}`), what the operation `gives` (an
    /// answer as `result`, or `null` where the library does not model the
    /// operation), the type the running JAX `computes_in` where it differs
    /// from the result (`null` elsewhere), a reduction's `keywords`
    /// (`{"dtype", "promote_integers"}`, `null` where not given), whether
    /// it `promotes`, is
    /// `implicit` and `differs`, its `criteria` by name, and per compared
    /// policy `{"spec", "policy", "question" (an operation or
    /// "result_type"), "answer", "reference" (the recording framework's
    /// answer to the question), "differs", "fails"}`.
    ///
    /// ```
    /// use dtype_lattice::design::promotions::{Call, Promotions, Site};
    /// use dtype_lattice::registry::{PolicySpec, Settings};
    /// use dtype_lattice::{DType, Typed};
    ///
    /// let [int32, float32] = [DType::Int32, DType::Float32].map(Typed::strong);
    /// let site = Site::new("m.py", 2, "f", "x / y");
    /// let call = Call::new(site, "true_divide", vec![int32, int32], Ok(int32), Settings::default());
    /// let json = Promotions::new([call], &PolicySpec::parse_list("numpy").unwrap()).to_json();
    /// let entry = &json["entries"][0];
    /// assert_eq!(entry["op"], "true_divide");
    /// assert_eq!(entry["promotes"], false);
    /// assert_eq!((entry["result"]["dtype"].as_str(), entry["gives"]["dtype"].as_str()), (Some("int32"), Some("float32")));
    /// // JAX divides two int32 in float32, NumPy in float64.
    /// let numpy = &entry["compared"][0];
    /// assert_eq!(numpy["question"], "true_divide");
    /// assert_eq!(numpy["answer"]["dtype"], "float64");
    /// assert_eq!(numpy["reference"]["dtype"], "float32");
    /// assert_eq!(numpy["differs"], true);
    /// ```
    #[doc(hidden)]
    pub fn to_json(&self) -> Value {
        json!({
            "calls": self.calls(),
            "hidden": self.hidden,
            "compiled": self.compiled,
            "frameworks": self.frameworks(),
            "configurations": self.configurations(),
            "compared": self.compared,
            "entries": self.entries.iter().map(Entry::to_json).collect::<Vec<_>>(),
        })
    }
}
