//! numpy arrays from bytes filled in Rust, without a compile-time numpy dependency (the
//! extension stays one abi3 wheel): the bytes are written straight into a Python
//! `bytearray`, which `numpy.frombuffer` wraps without copying.

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyTuple};

/// A writable numpy array of `dtype` and `shape` whose `len` bytes `fill` writes.
pub fn array<'py>(
    py: Python<'py>,
    dtype: &str,
    shape: &[usize],
    len: usize,
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    let mut fill = Some(fill);
    let buf = PyByteArray::new_with(py, len, |b| {
        if let Some(f) = fill.take() {
            f(b);
        }
        Ok(())
    })?;
    let np = py.import("numpy")?;
    let a = np.call_method1("frombuffer", (buf, dtype))?;
    a.call_method1("reshape", (PyTuple::new(py, shape)?,))
}

/// A uint8 array of `shape` filled by `fill`.
pub fn u8_array<'py>(
    py: Python<'py>,
    shape: &[usize],
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    array(py, "uint8", shape, shape.iter().product(), fill)
}
