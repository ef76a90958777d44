//! What a request asks: its function, the policy and settings it names,
//! and the answer, every policy through the [`Policy`] trait alike.

use serde_json::{Map, Value};

use super::args::{
    dtype, exactly, finfo, iinfo, kind_spec, operand, operands, outcome, scalar, short_name, show,
    type_spec, typed, Answer,
};
use super::{Defaults, ErrorAnswer};
use crate::policy::Policy;
use crate::prelude::*;
use crate::registry::{self, Setting, Settings, SETTINGS};
use crate::text::{nearest, quote};
use crate::types::hierarchy::{isdtype, issubdtype};
use crate::types::{ArrayOp, Asked, Call, Op, OpForm, Operation, Warning};

/// The functions a policy answers: every policy `promote_types` and
/// `result_type`, the rest where its framework has them; so are the
/// operations ([`Operation`]) by name (`"add"`, `"sum"`), with the
/// keywords `"dtype"`, `"promote_integers"` and `"initial"`.
const POLICY_FNS: &[&str] = &[
    "promote_types",
    "result_type",
    "lattice_result_type",
    "can_cast",
    "asarray",
    "canonicalize_dtype",
    "safe_to_cast",
];

/// The dtype facts, NumPy's and JAX's alike, the same whatever the policy.
const FACT_FNS: &[&str] = &[
    "dtype",
    "isdtype",
    "issubdtype",
    "finfo",
    "iinfo",
    "itemsize_bits",
];

/// The keys a request may have besides the settings.
const KEYS: &[&str] = &[
    "fn",
    "args",
    "policy",
    "form",
    "dtype",
    "promote_integers",
    "initial",
];

/// Keys a request once had, refused with what to write instead rather
/// than mapped: `tf.experimental.numpy` became a policy of its own, and a
/// request that still says `"api"` would otherwise be read under a
/// vocabulary it was not written in.
const RETIRED_KEYS: &[(&str, &str)] = &[
    ("api", TNP_IS_A_POLICY),
    ("tensorflow_api", TNP_IS_A_POLICY),
];

const TNP_IS_A_POLICY: &str = "tf.experimental.numpy is the policy \"tensorflow-numpy\" and \
     TensorFlow's NumPy behaviour the setting \"tensorflow_numpy_behavior\" (write \
     {\"policy\": \"tensorflow-numpy\", \"tensorflow_numpy_behavior\": \"safe\"} for \
     {\"policy\": \"tensorflow-safe\", \"api\": \"tnp\"}; \"tf\" is the policy \"tensorflow\")";

/// The answer to a request; the warnings its call issues (even if it then
/// fails) go to `warnings`.
pub(super) fn evaluate(
    request: &Value,
    defaults: &Defaults,
    warnings: &mut Vec<Warning>,
) -> Answer {
    let request = request.as_object().ok_or_else(|| {
        ErrorAnswer::type_error("a request must be a JSON object with \"fn\" and \"args\"")
    })?;
    if let Some((key, why)) = RETIRED_KEYS
        .iter()
        .find(|(key, _)| request.contains_key(*key))
    {
        return Err(ErrorAnswer::type_error(format!(
            "the request key '{key}' is retired: {why}"
        )));
    }
    let known = known_keys();
    if let Some(key) = request.keys().find(|key| !known.contains(&key.as_str())) {
        let suggestion = nearest(key, known.iter().copied())
            .map(|known| format!(": did you mean '{known}'?"))
            .unwrap_or_default();
        return Err(ErrorAnswer::type_error(format!(
            "unknown request key {}{suggestion} (known: {})",
            quote(key, '\''),
            known.join(", ")
        )));
    }
    let form = match request.get("form") {
        None | Some(Value::Null) => None,
        Some(Value::String(form)) => Some(
            form.parse::<OpForm>()
                .map_err(|err| ErrorAnswer::value(err.to_string()))?,
        ),
        Some(other) => {
            return Err(ErrorAnswer::type_error(format!(
                "\"form\" must be a form's name, not {}",
                show(other)
            )))
        }
    };
    // An assignment names no function: `{"form": "setitem", "args": [x, v]}`.
    let name = match (request.get("fn"), form) {
        (None, Some(OpForm::SetItem)) => "setitem",
        (Some(Value::String(name)), _) => name.as_str(),
        _ => {
            return Err(ErrorAnswer::type_error(
                "\"fn\" must be a string naming the function",
            ))
        }
    };
    let args = match request.get("args") {
        Some(Value::Array(args)) => args.as_slice(),
        None => &[],
        Some(_) => return Err(ErrorAnswer::type_error("\"args\" must be a list")),
    };
    let settings = settings(request, defaults.settings)?;
    let policy = match request.get("policy") {
        None | Some(Value::Null) => defaults.policy.as_deref(),
        Some(Value::String(policy)) => Some(short_name(policy, "policy")?),
        Some(other) => {
            return Err(ErrorAnswer::type_error(format!(
                "\"policy\" must be a policy name, not {}",
                show(other)
            )))
        }
    };
    let named = match policy {
        None => registry::listing()
            .next()
            .expect("the registry lists JAX first"),
        Some(name) => registry::resolve(name).map_err(|err| ErrorAnswer::value(err.to_string()))?,
    };
    if let Some(form) = form {
        let op = match name {
            "setitem" => None,
            name => Some(name.parse::<Op>().map_err(|_| {
                ErrorAnswer::value(format!(
                    "\"form\" is asked of an operation ({}), not of fn {}",
                    Op::ALL.map(Op::name).join(", "),
                    quote(name, '"')
                ))
            })?),
        };
        let call = Call::new(op, form).map_err(|err| ErrorAnswer::value(err.to_string()))?;
        let policy = named
            .build(settings)
            .map_err(|err| ErrorAnswer::value(err.to_string()))?;
        let answer = policy
            .call(call, &operands(args)?)
            .ok_or_else(|| ErrorAnswer::value(policy.unanswered(call).to_string()))?;
        return typed(answer?);
    }
    if let Ok(operation) = name.parse::<Operation>() {
        let asked = keywords(operation, request)?;
        let policy = named
            .build(settings)
            .map_err(|err| ErrorAnswer::value(err.to_string()))?;
        let answer = policy
            .ask(asked, &operands(args)?)
            .ok_or_else(|| ErrorAnswer::value(policy.not_modelled(operation).to_string()))?;
        return outcome(answer?);
    }
    if let Some(key) = ["dtype", "promote_integers", "initial"]
        .into_iter()
        .find(|key| request.contains_key(*key))
    {
        return Err(ErrorAnswer::type_error(format!(
            "\"{key}\" is a keyword of the operations on whole arrays ({}), not of fn {}",
            ArrayOp::ALL.map(ArrayOp::name).join(", "),
            quote(name, '"')
        )));
    }
    if FACT_FNS.contains(&name) {
        return fact(name, args);
    }
    if !POLICY_FNS.contains(&name) {
        return Err(unknown_fn(name));
    }
    let policy = named
        .build(settings)
        .map_err(|err| ErrorAnswer::value(err.to_string()))?;
    ask(policy.as_ref(), name, args, warnings)
}

/// `operation` with the request's keywords: `"dtype"` a dtype's name,
/// `"promote_integers"` a bool, `"initial"` a Python number as an
/// argument is written.
fn keywords(operation: Operation, request: &Map<String, Value>) -> Result<Asked, ErrorAnswer> {
    let dtype = match request.get("dtype") {
        None | Some(Value::Null) => None,
        Some(d) => Some(dtype(d)?),
    };
    let promote_integers = match request.get("promote_integers") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(on)) => Some(*on),
        Some(other) => {
            return Err(ErrorAnswer::type_error(format!(
                "\"promote_integers\" must be true or false, not {}",
                show(other)
            )))
        }
    };
    let asked = operation
        .asked(dtype, promote_integers)
        .map_err(|err| ErrorAnswer::type_error(err.to_string()))?;
    let initial = match request.get("initial") {
        None | Some(Value::Null) => return Ok(asked),
        Some(value) => operand(value)?,
    };
    asked
        .with_initial(initial)
        .map_err(|err| ErrorAnswer::type_error(err.to_string()))
}

/// Every key a request may have: [`KEYS`], the settings, and their batch
/// aliases.
fn known_keys() -> Vec<&'static str> {
    let settings = SETTINGS.iter().flat_map(|s| {
        core::iter::once(s.name).chain(s.batch_aliases.iter().map(|(alias, _)| *alias))
    });
    KEYS.iter().copied().chain(settings).collect()
}

fn unknown_fn(name: &str) -> ErrorAnswer {
    ErrorAnswer::value(format!(
        "unknown fn {}: expected one of {}, or an operation ({})",
        quote(name, '"'),
        POLICY_FNS
            .iter()
            .chain(FACT_FNS)
            .copied()
            .collect::<Vec<_>>()
            .join(", "),
        Operation::all()
            .map(Operation::name)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// A function of [`POLICY_FNS`], as `policy` answers it.
fn ask(policy: &dyn Policy, name: &str, args: &[Value], warnings: &mut Vec<Warning>) -> Answer {
    let not_modelled = || {
        ErrorAnswer::value(format!(
            "policy {} does not model fn {}; every policy answers promote_types and \
             result_type, and the rest where its framework has them (docs/policies.md)",
            policy.name(),
            quote(name, '"')
        ))
    };
    match name {
        "promote_types" => {
            let [a, b] = exactly(args)?;
            let dtype = policy.promote_types(type_spec(a)?, type_spec(b)?)?;
            Ok(Value::from(dtype.name()))
        }
        "result_type" => {
            let operands = operands(args)?;
            if let Some(jax) = policy.jax() {
                *warnings = jax.result_type_warnings(&operands);
            }
            typed(policy.result_type(&operands)?)
        }
        "lattice_result_type" => {
            let operands = operands(args)?;
            let jax = policy.jax().ok_or_else(not_modelled)?;
            *warnings = jax.lattice_result_type_warnings(&operands);
            typed(jax.lattice_result_type(&operands)?)
        }
        "can_cast" => {
            let [from, to] = exactly(args)?;
            let answer = policy.can_cast(dtype(from)?, dtype(to)?);
            Ok(Value::Bool(answer.ok_or_else(not_modelled)?))
        }
        "asarray" => {
            let [value] = exactly(args)?;
            let value = operand(value)?;
            typed(policy.jax().ok_or_else(not_modelled)?.asarray(value)?)
        }
        "canonicalize_dtype" => {
            let [d] = exactly(args)?;
            let d = dtype(d)?;
            let jax = policy.jax().ok_or_else(not_modelled)?;
            Ok(Value::from(jax.canonicalize_dtype(d).name()))
        }
        "safe_to_cast" => {
            let [input, output] = exactly(args)?;
            let (input, output) = (operand(input)?, dtype(output)?);
            let jax = policy.jax().ok_or_else(not_modelled)?;
            *warnings = jax.safe_to_cast_warnings(input, output);
            Ok(Value::Bool(jax.safe_to_cast(input, output)?))
        }
        other => Err(unknown_fn(other)),
    }
}

/// A function of [`FACT_FNS`].
fn fact(name: &str, args: &[Value]) -> Answer {
    match name {
        "dtype" => {
            let [d] = exactly(args)?;
            Ok(Value::from(dtype(d)?.name()))
        }
        "isdtype" => {
            let [d, kinds] = exactly(args)?;
            let kinds = match kinds {
                Value::Array(list) => list.iter().map(kind_spec).collect::<Result<Vec<_>, _>>()?,
                single => vec![kind_spec(single)?],
            };
            Ok(Value::Bool(isdtype(dtype(d)?, &kinds)))
        }
        "issubdtype" => {
            let [a, b] = exactly(args)?;
            Ok(Value::Bool(issubdtype(scalar(a)?, scalar(b)?)))
        }
        "finfo" => {
            let [d] = exactly(args)?;
            finfo(dtype(d)?)
        }
        "iinfo" => {
            let [d] = exactly(args)?;
            iinfo(dtype(d)?)
        }
        "itemsize_bits" => {
            let [d] = exactly(args)?;
            Ok(Value::from(dtype(d)?.itemsize_bits()))
        }
        other => Err(unknown_fn(other)),
    }
}

/// The request's settings: each [setting](SETTINGS) by its name (a JSON
/// bool for a flag, a string of its values otherwise) or by a batch
/// alias (a string of the alias's values); `defaults` for the rest.
fn settings(request: &Map<String, Value>, defaults: Settings) -> Result<Settings, ErrorAnswer> {
    let mut settings = defaults;
    for setting in SETTINGS {
        let spellings = core::iter::once((setting.name, setting.values))
            .chain(setting.batch_aliases.iter().copied());
        for (key, values) in spellings {
            let index = match request.get(key) {
                None | Some(Value::Null) => continue,
                Some(value) => value_index(setting, key, values, value)?,
            };
            setting
                .set(&mut settings, setting.values[index])
                .expect("a value of the table");
        }
    }
    Ok(settings)
}

/// Which of `values` the request's `value` for `key` is.
fn value_index(
    setting: &Setting,
    key: &str,
    values: &[&str],
    value: &Value,
) -> Result<usize, ErrorAnswer> {
    let flag = setting.is_flag() && key == setting.name;
    let found = match value {
        Value::Bool(on) if flag => Some(usize::from(*on)),
        Value::String(text) if !flag => values.iter().position(|v| v == text),
        _ => None,
    };
    found.ok_or_else(|| {
        if flag {
            return ErrorAnswer::type_error(format!(
                "\"{key}\" must be true or false, not {}",
                show(value)
            ));
        }
        let near = value
            .as_str()
            .and_then(|text| nearest(text, values.iter().copied()))
            .map(|near| format!(": did you mean \"{near}\"?"))
            .unwrap_or_default();
        let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
        let choices = match quoted.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        ErrorAnswer::value(format!(
            "\"{key}\" must be {choices}, not {}{near}",
            show(value)
        ))
    })
}
