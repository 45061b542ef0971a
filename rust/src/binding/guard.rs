//! No panic crosses into Python. Every entry point of the core runs its body inside
//! [`catch`]; a panic there becomes `remis.InternalError` (a `RuntimeError`) naming the
//! entry point and where its input stood (the game and byte, the ply and position),
//! never pyo3's `PanicException`, which `except Exception` does not catch.
//!
//! Methods get the guard from [`guarded!`], which wraps a whole `#[pymethods]` block:
//! each method's body is caught, and its class says where it stands ([`Located`]).
//! Free functions call [`guard`] with the place of their input.
//!
//! A test can make any entry point panic on its next call ([`panic_at`]), to see that
//! the panic comes out as the library's exception.

use std::any::Any;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

pyo3::create_exception!(
    _core,
    InternalError,
    PyRuntimeError,
    "A bug in remis's compiled core (a panic), with where its input stood: please report it."
);

/// What an object of the core says about where its input stands, for the error a panic
/// in one of its methods becomes.
pub(crate) trait Located {
    fn place(&self) -> String;
}

thread_local! {
    /// The entry point that is to panic on its next call (tests only).
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Make the entry point `name` (`History.push_uci`, `GameReader.__next__`,
/// `rule_text`, ...) panic on its next call in this thread, inside its guard: the test
/// hook that shows every entry point turns a panic into [`InternalError`].
#[pyfunction]
pub fn _panic_at(name: String) {
    PANIC_AT.with(|p| *p.borrow_mut() = Some(name));
}

/// The test hook's panic, where one was asked for `name`.
pub(crate) fn hook(name: &str) {
    let armed = PANIC_AT.with(|p| {
        let mut p = p.borrow_mut();
        let hit = p.as_deref() == Some(name);
        if hit {
            *p = None;
        }
        hit
    });
    assert!(!armed, "a panic asked for by a test in {name}");
}

/// The message of a caught panic.
pub(crate) fn panic_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned())
}

/// Run `body` (the entry point `name`), a panic coming back as its payload.
pub(crate) fn catch<T>(name: &str, body: impl FnOnce() -> T) -> Result<T, Box<dyn Any + Send>> {
    catch_unwind(AssertUnwindSafe(|| {
        hook(name);
        body()
    }))
}

/// The [`InternalError`] of a panic in `name`, its input standing at `place` (asked
/// only now, and itself guarded: the state a panic left may be torn).
pub(crate) fn internal_error(
    name: &str,
    place: impl FnOnce() -> String,
    payload: &(dyn Any + Send),
) -> PyErr {
    let place = catch_unwind(AssertUnwindSafe(place)).unwrap_or_default();
    let at = if place.is_empty() {
        String::new()
    } else {
        format!(" {place}")
    };
    InternalError::new_err(format!(
        "internal error in the core (please report it) in {name}{at}: {}",
        panic_text(payload)
    ))
}

/// Run the entry point `name`, a panic becoming [`InternalError`] at `place`.
pub(crate) fn guard<T>(
    name: &str,
    place: impl FnOnce() -> String,
    body: impl FnOnce() -> PyResult<T>,
) -> PyResult<T> {
    catch(name, body).unwrap_or_else(|p| Err(internal_error(name, place, &*p)))
}

/// A `#[pymethods]` block whose every method is guarded: a panic in its body becomes
/// [`InternalError`] naming `Class.method` and, for a method of an object, where the
/// object stands ([`Located::place`]). A method that returns a plain value returns it as
/// `PyResult` (the same to Python).
#[macro_export]
macro_rules! guarded {
    // `name = "History";`: the class's name in Python, when it is not the struct's
    (name = $py:literal; $(#[$iattr:meta])* impl $class:ident { $($items:tt)* }) => {
        $crate::guarded!(@each ($(#[$iattr])*) ($class $py) [] $($items)*);
    };
    ($(#[$iattr:meta])* impl $class:ident { $($items:tt)* }) => {
        $crate::guarded!(@each ($(#[$iattr])*) ($class $class) [] $($items)*);
    };
    // the whole block at once: `#[pymethods]` sees the methods guarded
    (@each ($($iattr:tt)*) ($class:ident $py:tt) [$($done:tt)*]) => {
        $($iattr)* impl $class { $($done)* }
    };
    // a method of the object, by `&mut self` or `&self`, returning PyResult or a value
    (@each $i:tt $class:tt [$($done:tt)*] $(#[$a:meta])* fn $name:ident $(<$($lt:lifetime),+>)?
        (&mut $s:ident $($args:tt)*) -> PyResult<$ok:ty> $body:block $($rest:tt)*) => {
        $crate::guarded!(@each $i $class [$($done)* $(#[$a])* fn $name $(<$($lt),+>)?
            (&mut $s $($args)*) -> PyResult<$ok> {
                $crate::guarded!(@run $class $name $s, $body)
            }] $($rest)*);
    };
    (@each $i:tt $class:tt [$($done:tt)*] $(#[$a:meta])* fn $name:ident $(<$($lt:lifetime),+>)?
        (&mut $s:ident $($args:tt)*) $(-> $ret:ty)? $body:block $($rest:tt)*) => {
        $crate::guarded!(@each $i $class [$($done)* $(#[$a])* fn $name $(<$($lt),+>)?
            (&mut $s $($args)*) -> PyResult<$crate::guarded!(@ty $($ret)?)> {
                $crate::guarded!(@run $class $name $s, { Ok($body) })
            }] $($rest)*);
    };
    (@each $i:tt $class:tt [$($done:tt)*] $(#[$a:meta])* fn $name:ident $(<$($lt:lifetime),+>)?
        (&$s:ident $($args:tt)*) -> PyResult<$ok:ty> $body:block $($rest:tt)*) => {
        $crate::guarded!(@each $i $class [$($done)* $(#[$a])* fn $name $(<$($lt),+>)?
            (&$s $($args)*) -> PyResult<$ok> {
                $crate::guarded!(@run $class $name $s, $body)
            }] $($rest)*);
    };
    (@each $i:tt $class:tt [$($done:tt)*] $(#[$a:meta])* fn $name:ident $(<$($lt:lifetime),+>)?
        (&$s:ident $($args:tt)*) $(-> $ret:ty)? $body:block $($rest:tt)*) => {
        $crate::guarded!(@each $i $class [$($done)* $(#[$a])* fn $name $(<$($lt),+>)?
            (&$s $($args)*) -> PyResult<$crate::guarded!(@ty $($ret)?)> {
                $crate::guarded!(@run $class $name $s, { Ok($body) })
            }] $($rest)*);
    };
    // a constructor or a method without a receiver: no object to say where it stands
    (@each $i:tt $class:tt [$($done:tt)*] $(#[$a:meta])* fn $name:ident $(<$($lt:lifetime),+>)?
        ($($args:tt)*) -> PyResult<$ok:ty> $body:block $($rest:tt)*) => {
        $crate::guarded!(@each $i $class [$($done)* $(#[$a])* fn $name $(<$($lt),+>)?
            ($($args)*) -> PyResult<$ok> {
                $crate::binding::guard::guard(
                    $crate::guarded!(@name $class $name), String::new, || $body)
            }] $($rest)*);
    };
    (@each $i:tt $class:tt [$($done:tt)*] $(#[$a:meta])* fn $name:ident $(<$($lt:lifetime),+>)?
        ($($args:tt)*) $(-> $ret:ty)? $body:block $($rest:tt)*) => {
        $crate::guarded!(@each $i $class [$($done)* $(#[$a])* fn $name $(<$($lt),+>)?
            ($($args)*) -> PyResult<$crate::guarded!(@ty $($ret)?)> {
                $crate::binding::guard::guard(
                    $crate::guarded!(@name $class $name), String::new, || Ok($body))
            }] $($rest)*);
    };
    (@ty) => { () };
    (@ty $ret:ty) => { $ret };
    (@name ($class:ident $py:literal) $name:ident) => { concat!($py, ".", stringify!($name)) };
    (@name ($class:ident $py:ident) $name:ident) => {
        concat!(stringify!($py), ".", stringify!($name))
    };
    (@run $class:tt $name:ident $s:ident, $body:block) => {{
        const NAME: &str = $crate::guarded!(@name $class $name);
        match $crate::binding::guard::catch(NAME, || $body) {
            Ok(out) => out,
            Err(p) => Err($crate::binding::guard::internal_error(
                NAME,
                || $crate::binding::guard::Located::place(&*$s),
                &*p,
            )),
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counter(u32);

    impl Located for Counter {
        fn place(&self) -> String {
            format!("at {}", self.0)
        }
    }

    // the macro without `#[pymethods]`: the same methods, callable from Rust
    guarded! {
    impl Counter {
        fn bump(&mut self, by: u32) -> PyResult<u32> { self.0 += by; Ok(self.0) }
        fn get(&self) -> u32 { assert!(self.0 < 100, "too many"); self.0 }
        fn fresh() -> Self { Counter(0) }
    }
    }

    #[test]
    fn a_panic_in_a_guarded_method_is_an_internal_error_saying_where() {
        Python::initialize();
        let mut c = Counter::fresh().unwrap();
        assert_eq!(c.bump(2).unwrap(), 2);
        assert_eq!(c.get().unwrap(), 2);
        c.bump(200).unwrap();
        let e = c.get().unwrap_err();
        Python::attach(|py| {
            assert!(e.is_instance_of::<InternalError>(py));
            assert!(e.is_instance_of::<PyRuntimeError>(py));
            let text = e.value(py).to_string();
            assert!(text.contains("in Counter.get at 202: too many"), "{text}");
        });
        _panic_at("Counter.bump".into());
        let e = c.bump(1).unwrap_err();
        Python::attach(|py| {
            let text = e.value(py).to_string();
            assert!(text.contains("Counter.bump at 202: a panic asked for by a test"));
        });
        assert_eq!(c.bump(1).unwrap(), 203, "the hook fires once");
    }
}
