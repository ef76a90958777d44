//! The report as text for a terminal: a heading, then each entry as its
//! site, its source line, the promotion and its judgement, and the compared
//! policies' answers.

use std::fmt;

use super::{Answer, Call, Entry, Promotions};
use crate::types::{Kind, Operand, PromotionError, Typed};

/// An operand or result as the command line's notation writes it:
/// `float32`, or `weak:float32` for a weakly-typed one.
fn operand(t: &Typed) -> String {
    if t.weak {
        format!("weak:{}", t.dtype)
    } else {
        t.dtype.to_string()
    }
}

/// A call's operand in the command line's notation, as its framework held
/// it: JAX's as [`operand`]; elsewhere a weak operand is a Python scalar
/// (`py:float`) and a 0-d tensor `0d:int64`.
fn held(call: &Call, index: usize, t: &Typed) -> String {
    let zero_dim = !t.weak && call.is_zero_dim(index);
    if let Some(value) = call.value(index) {
        // A value as the command line writes one: a Python scalar's, or
        // that a 0-d array holds (`0d:int64=300`).
        if zero_dim {
            Operand::zero_dim_holding(t.dtype, value).to_string()
        } else {
            value.to_string()
        }
    } else if call.framework.name == "jax" {
        operand(t)
    } else if t.weak {
        let kind = match t.dtype.kind() {
            Kind::Bool => "bool",
            Kind::Unsigned | Kind::Signed => "int",
            Kind::Float => "float",
            Kind::Complex => "complex",
        };
        format!("py:{kind}")
    } else if zero_dim {
        format!("0d:{}", t.dtype)
    } else {
        t.dtype.to_string()
    }
}

fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// A message's first sentence: the rest (advice, where to read more) is in
/// the JSON.
fn first_sentence(message: &str) -> &str {
    let end = [". ", "; "]
        .iter()
        .filter_map(|stop| message.find(stop))
        .min()
        .unwrap_or(message.len());
    message[..end].trim_end_matches('.')
}

/// `refused (CLASS: first sentence)`: the sentence says whether the
/// framework refuses or the library does not model the case.
fn refused(class: &str, message: &str) -> String {
    format!("refused ({class}: {})", first_sentence(message))
}

/// An answer as [`operand`] writes it, or [`refused`].
fn answer(answer: &Result<Typed, PromotionError>) -> String {
    match answer {
        Ok(typed) => operand(typed),
        Err(err) => refused(err.python_type(), &err.to_string()),
    }
}

fn compared(a: &Answer, framework: &str) -> String {
    let mut text = format!("{}: {}", a.spec, answer(&a.answer));
    if a.differs {
        text.push_str(&format!(
            ", differs ({framework}: {})",
            answer(&a.reference)
        ));
    }
    text
}

impl Entry {
    /// What the entry's judgement says in words: `implicit` and the
    /// criteria, or nothing.
    fn verdict(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.implicit {
            parts.push("implicit (strict JAX refuses it)".to_owned());
        }
        parts.extend(self.criteria.iter().map(|c| c.name().to_owned()));
        parts.join("; ")
    }
}

impl fmt::Display for Entry {
    /// The entry in four lines at most: site, source, promotion, answers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let call = &self.call;
        let site = &call.site;
        write!(f, "{}:{} in {}", site.file, site.line, site.function)?;
        if call.count > 1 {
            write!(f, ", {}", plural(call.count, "call", "calls"))?;
        }
        writeln!(f)?;
        if !site.code.is_empty() {
            writeln!(f, "    {}", site.code)?;
        }
        let mut operands: Vec<String> = (call.operands.iter().enumerate())
            .map(|(i, t)| held(call, i, t))
            .collect();
        operands.extend(call.dtype.map(|d| format!("dtype={d}")));
        operands.extend(
            call.promote_integers
                .map(|on| format!("promote_integers={}", if on { "True" } else { "False" })),
        );
        let result = match &call.result {
            Ok(typed) => operand(typed),
            Err(refusal) => refused(&refusal.error, &refusal.message),
        };
        write!(
            f,
            "  {}({}) -> {result}",
            call.operation,
            operands.join(", ")
        )?;
        if let (Ok(promoted), Some(gives)) = (&call.result, &self.gives) {
            if gives.as_ref().map_or(true, |g| g.dtype != promoted.dtype) {
                write!(f, " ({} gives {})", call.operation, answer(gives))?;
            }
        }
        if let Some(computes) = self.computes_in {
            write!(f, " (computes in {computes})")?;
        }
        let verdict = self.verdict();
        if !verdict.is_empty() {
            write!(f, ": {verdict}")?;
        }
        if !self.compared.is_empty() {
            let framework = call.framework.name;
            let answers: Vec<String> = (self.compared.iter())
                .map(|a| compared(a, framework))
                .collect();
            write!(f, "\n  {}", answers.join("; "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Promotions {
    /// A heading (the configurations, the compared policies, the counts),
    /// then the entries, riskiest first, separated by blank lines.
    ///
    /// ```
    /// use dtype_lattice::design::promotions::{Call, Promotions, Site};
    /// use dtype_lattice::registry::{PolicySpec, Settings};
    /// use dtype_lattice::{DType, Typed};
    ///
    /// let [int32, float32] = [DType::Int32, DType::Float32].map(Typed::strong);
    /// let site = Site::new("model.py", 7, "embed", "y = idx * scale");
    /// let call = Call::new(site, "multiply", vec![int32, float32], Ok(float32), Settings::default());
    /// let report = Promotions::new([call], &PolicySpec::parse_list("numpy").unwrap());
    /// assert_eq!(
    ///     report.to_string(),
    ///     "1 entry, 1 call, under jax (x64 off, standard), compared with numpy\n\
    ///      \n\
    ///      model.py:7 in embed\n    \
    ///          y = idx * scale\n  \
    ///        multiply(int32, float32) -> float32: implicit (strict JAX refuses it); precision_loss\n  \
    ///        numpy: float64, differs (jax: float32)"
    /// );
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries = self.entries.len() as u64;
        write!(
            f,
            "{}, {}",
            plural(entries, "entry", "entries"),
            plural(self.calls(), "call", "calls")
        )?;
        let configurations = self.configurations();
        if !configurations.is_empty() {
            write!(f, ", under {}", configurations.join(" and "))?;
        }
        if !self.compared.is_empty() {
            write!(f, ", compared with {}", self.compared.join(", "))?;
        }
        if entries > 1 {
            write!(f, ", riskiest first")?;
        }
        if self.hidden > 0 {
            let hidden = plural(self.hidden as u64, "entry", "entries");
            write!(f, " ({hidden} left out by the filter)")?;
        }
        if self.compiled > 0 {
            let traced = plural(self.compiled, "call", "calls");
            write!(
                f,
                "; {traced} made under torch.compile were not recorded (compiled code \
                 promotes as its compiler decides: run it eagerly, or under \
                 torch.compiler.disable, to record them)"
            )?;
        }
        for entry in &self.entries {
            write!(f, "\n\n{entry}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::first_sentence;

    #[test]
    fn a_message_is_cut_at_its_first_sentence() {
        assert_eq!(first_sentence("No path. Try astype."), "No path");
        assert_eq!(
            first_sentence("not modelled; use result_type"),
            "not modelled"
        );
        assert_eq!(first_sentence("one sentence."), "one sentence");
        assert_eq!(first_sentence("version 2.5 differs"), "version 2.5 differs");
    }
}
