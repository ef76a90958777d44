//! A request's query parameters: each endpoint's own and the registry's
//! settings, checked against what the endpoint takes, each error naming
//! the parameter and the values it takes.

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;

use dtype_lattice::design::table::Question;
use dtype_lattice::registry::{self, Settings, SETTINGS};
use dtype_lattice::{OpForm, Operation, Policy, TypeSpec};

use super::error::ApiError;

/// `text` quoted and cut, for a message, as the library quotes.
pub(super) fn quote(text: &str) -> String {
    dtype_lattice::text::quote(text, '\'')
}

/// A request's query parameters, checked against the ones its endpoint
/// takes.
pub struct Params(Vec<(String, String)>);

impl Params {
    /// The parameters of `query`; an unknown or repeated name is refused,
    /// naming the known ones. Every endpoint but the static files takes
    /// the settings.
    pub(super) fn read(
        query: Result<Query<Vec<(String, String)>>, QueryRejection>,
        known: &[&str],
    ) -> Result<Params, ApiError> {
        let Query(pairs) =
            query.map_err(|err| ApiError::bad(format!("cannot read the query: {err}")))?;
        let mut seen: Vec<&str> = Vec::new();
        for (name, _) in &pairs {
            let allowed = known.contains(&name.as_str()) || SETTINGS.iter().any(|s| s.name == name);
            if !allowed {
                let mut all: Vec<&str> = known.to_vec();
                all.extend(SETTINGS.iter().map(|s| s.name));
                return Err(ApiError::bad(format!(
                    "unknown parameter {} (this endpoint takes {})",
                    quote(name),
                    all.join(", ")
                )));
            }
            if seen.contains(&name.as_str()) {
                return Err(ApiError::bad(format!("{} is given twice", quote(name))));
            }
            seen.push(name);
        }
        Ok(Params(pairs))
    }

    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub(super) fn settings(&self) -> Result<Settings, ApiError> {
        let mut settings = Settings::default();
        for setting in SETTINGS {
            if let Some(value) = self.get(setting.name) {
                setting
                    .set(&mut settings, value)
                    .map_err(|err| ApiError::bad(err.to_string()))?;
            }
        }
        Ok(settings)
    }

    /// `types`: `docs` (the documentation's 18, the default) or `all`.
    pub(super) fn all_types(&self) -> Result<bool, ApiError> {
        match self.get("types") {
            None | Some("docs") => Ok(false),
            Some("all") => Ok(true),
            Some(other) => Err(ApiError::bad(format!(
                "types={} is not a choice: give docs (the documentation's 18 types) or all",
                quote(other)
            ))),
        }
    }

    /// `op` (an operation by NumPy's name or an alias) and `form` (as
    /// `--form` takes it), as the command line's `--op` and `--form` make
    /// one question: promotion without either.
    pub(super) fn question(&self) -> Result<Question, ApiError> {
        let bad = |err: &dyn std::fmt::Display| ApiError::bad(err.to_string());
        let asked = self
            .get("op")
            .map(|name| {
                let op = name.parse::<Operation>().map_err(|err| bad(&err))?;
                op.asked(None, None).map_err(|err| bad(&err))
            })
            .transpose()?;
        let form = self
            .get("form")
            .map(|name| name.parse::<OpForm>().map_err(|err| bad(&err)))
            .transpose()?;
        Question::asked(asked, form).map_err(|err| bad(&err))
    }

    pub(super) fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| ApiError::bad(format!("give the parameter {name}")))
    }

    /// `highlight=A,B`, if given.
    pub(super) fn highlight(&self) -> Result<Option<[String; 2]>, ApiError> {
        let Some(text) = self.get("highlight") else {
            return Ok(None);
        };
        let pair = dtype_lattice::design::graph::pair(text)
            .map_err(|err| ApiError::bad(format!("highlight: {err}")))?;
        Ok(Some(pair.map(str::to_owned)))
    }
}

/// The policy called `name` (or an alias) under `settings`.
pub fn policy(name: &str, settings: Settings) -> Result<Box<dyn Policy>, ApiError> {
    registry::by_name(name, settings).map_err(|err| ApiError::bad(err.to_string()))
}

/// A type as the table names it: a dtype name or alias, or `int`,
/// `float`, `complex`.
pub(super) fn type_spec(text: &str) -> Result<TypeSpec, ApiError> {
    text.parse::<TypeSpec>()
        .map_err(|err| ApiError::bad(err.to_string()))
}
pub(super) type QueryPairs = Result<Query<Vec<(String, String)>>, QueryRejection>;
