//! The compiled core of remis, exposed to Python as `remis._core`.
//!
//! Python calls the core with whole questions ("rule on this game", "can White still
//! mate here?"), never move by move. The core returns facts (plies, articles, lines,
//! reason codes); Python turns them into rulings and sentences.

use pyo3::prelude::*;

pub mod binding;
pub mod board;
pub mod game;
pub mod game_json;
pub mod history;
pub mod identity;
pub mod pgn;
pub mod rules;
pub mod unwinnable;

/// The crate's version, to check that the extension matches the Python package.
#[pyfunction]
fn core_version() -> PyResult<&'static str> {
    binding::guard::guard("core_version", String::new, || {
        Ok(env!("CARGO_PKG_VERSION"))
    })
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(core_version, m)?)?;
    binding::register(m)?;
    unwinnable::py::register(m)?;
    Ok(())
}
