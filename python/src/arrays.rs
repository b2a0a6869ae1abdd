//! numpy arrays from bytes filled in Rust, without a compile-time numpy dependency (the
//! extension stays one abi3 wheel): the bytes are written straight into a Python
//! `bytearray`, which `numpy.ndarray(shape, dtype, buffer)` wraps without copying.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyTuple};
use pyo3::Py;

/// `numpy.ndarray` and the dtypes made so far, by name: looked up once, since an import
/// or a dtype parsed from its name costs more than the rest of making a small array.
struct Numpy {
    ndarray: Py<PyAny>,
    dtypes: Py<PyDict>,
}

fn numpy(py: Python<'_>) -> PyResult<&Numpy> {
    static NUMPY: PyOnceLock<Numpy> = PyOnceLock::new();
    NUMPY.get_or_try_init(py, || {
        Ok(Numpy {
            ndarray: py.import("numpy")?.getattr("ndarray")?.unbind(),
            dtypes: PyDict::new(py).unbind(),
        })
    })
}

/// A numpy array of `dtype` (a numpy dtype name such as `"uint8"` or `"<f4"`) and
/// `shape` over `buf`'s bytes from `offset`, without copying them.
pub fn view<'py>(
    buf: &Bound<'py, PyByteArray>,
    dtype: &str,
    offset: usize,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let py = buf.py();
    let np = numpy(py)?;
    let dtypes = np.dtypes.bind(py);
    let dt = match dtypes.get_item(dtype)? {
        Some(dt) => dt,
        None => {
            let dt = py.import("numpy")?.getattr("dtype")?.call1((dtype,))?;
            dtypes.set_item(dtype, &dt)?;
            dt
        }
    };
    np.ndarray
        .bind(py)
        .call1((PyTuple::new(py, shape)?, dt, buf, offset))
}

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
    view(&buf, dtype, 0, shape)
}

/// A uint8 array of `shape` filled by `fill`.
pub fn u8_array<'py>(
    py: Python<'py>,
    shape: &[usize],
    fill: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    array(py, "uint8", shape, shape.iter().product(), fill)
}
