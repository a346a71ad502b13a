//! Bytes-like arguments in, results out: any object with the buffer
//! protocol, taken as its bytes (as `hashlib` takes them), C-contiguous.
//!
//! Invariant: no Rust reference points into memory that Python code can
//! change. A `bytes` object is immutable, so it is borrowed; any other
//! buffer (`bytearray`, `memoryview`, `array`, NumPy, ctypes) is copied,
//! with the GIL held, into memory the call owns before any of it is used,
//! and a result is copied into a caller's buffer only once it is complete
//! (for decryption, after the tag is verified). Another thread writing to
//! those buffers meanwhile, with or without the GIL, can neither race with
//! the cipher nor make it decrypt other bytes than those it verified.

use pyo3::exceptions::{PyBufferError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::borrow::Cow;

/// A bytes-like argument.
pub(crate) enum Input<'py> {
    /// A `bytes` object (or a subclass): immutable, read in place.
    Immutable(Bound<'py, PyBytes>),
    /// Any other exporter: read only by copying ([`Input::copy_to`]).
    Buffer(Buffer<'py>),
}

impl<'py> Input<'py> {
    /// The argument `name` as a bytes-like input: `TypeError` without the
    /// buffer protocol, `BufferError` if not C-contiguous.
    pub(crate) fn extract(object: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        if let Ok(bytes) = object.cast::<PyBytes>() {
            return Ok(Self::Immutable(bytes.clone()));
        }
        Ok(Self::Buffer(Buffer::get(object, name)?))
    }

    /// The number of bytes.
    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Immutable(bytes) => bytes.as_bytes().len(),
            Self::Buffer(buffer) => buffer.len(),
        }
    }

    /// Copies the bytes from `start` on into `out`, filling it.
    ///
    /// # Panics
    ///
    /// If `start + out.len()` is beyond [`Input::len`] (a caller's bug;
    /// PyO3 turns it into a `PanicException`, never an out-of-bounds read).
    pub(crate) fn copy_to(&self, start: usize, out: &mut [u8]) {
        let end = start
            .checked_add(out.len())
            .filter(|&end| end <= self.len());
        let Some(end) = end else {
            panic!("reading past the end of an argument");
        };
        match self {
            Self::Immutable(bytes) => out.copy_from_slice(&bytes.as_bytes()[start..end]),
            Self::Buffer(_) if out.is_empty() => {}
            Self::Buffer(buffer) => {
                // SAFETY: the buffer is held (`Buffer`'s invariant) and
                // `start..end` is within its `len()` bytes (checked
                // above). `out` is memory of this call, so the two cannot
                // overlap. Read as raw bytes, with the GIL held (the
                // buffer's lifetime is a GIL token's): no reference into
                // the caller's memory is created.
                unsafe {
                    let from = buffer.view.buf.cast::<u8>().cast_const().add(start);
                    std::ptr::copy_nonoverlapping(from, out.as_mut_ptr(), out.len());
                }
            }
        }
    }

    /// All the bytes: borrowed from a `bytes` object, copied from any
    /// other buffer.
    pub(crate) fn read(&self) -> Cow<'_, [u8]> {
        match self {
            Self::Immutable(bytes) => Cow::Borrowed(bytes.as_bytes()),
            Self::Buffer(_) => {
                let mut copy = vec![0; self.len()];
                self.copy_to(0, &mut copy);
                Cow::Owned(copy)
            }
        }
    }
}

/// A caller's writable buffer for a result (`buf` of the `*_into` methods).
pub(crate) struct Output<'py>(Buffer<'py>);

impl<'py> Output<'py> {
    /// The argument `name` as an output of exactly `len` bytes, as pyca
    /// checks it: `TypeError` if it has no buffer or a read-only one,
    /// `BufferError` if not C-contiguous, `ValueError` for another size.
    pub(crate) fn extract(object: &Bound<'py, PyAny>, name: &str, len: usize) -> PyResult<Self> {
        let buffer = Buffer::get(object, name)?;
        if buffer.view.readonly != 0 {
            return Err(PyTypeError::new_err(format!(
                "argument '{name}': Buffer is not writable."
            )));
        }
        if buffer.len() != len {
            return Err(PyValueError::new_err(format!("buffer must be {len} bytes")));
        }
        Ok(Self(buffer))
    }

    /// Writes `result` over the whole buffer.
    ///
    /// # Panics
    ///
    /// If `result` is not as long as the buffer (a caller's bug).
    pub(crate) fn write(&self, result: &[u8]) {
        assert_eq!(result.len(), self.0.len(), "result and buffer sizes");
        if result.is_empty() {
            return;
        }
        // SAFETY: the buffer is held (`Buffer`'s invariant), writable
        // (`extract` checked `readonly`) and exactly `result.len()` bytes
        // long (asserted above). `result` is memory of this call, so the
        // two cannot overlap. Written as raw bytes with the GIL held: no
        // reference into the caller's memory.
        unsafe {
            std::ptr::copy_nonoverlapping(
                result.as_ptr(),
                self.0.view.buf.cast::<u8>(),
                result.len(),
            );
        }
    }
}

/// An object's buffer, requested as plain contiguous bytes
/// (`PyBUF_SIMPLE`, as `hashlib` does: any format, no strides), held until
/// dropped.
///
/// Invariant: `view` was filled by a successful `PyObject_GetBuffer` and
/// is released exactly once, on drop; until then its `len` bytes at `buf`
/// stay valid and the exporter cannot resize them. The GIL token's
/// lifetime keeps it to the thread and the time the GIL is held (it is
/// not `Send`), so it is never read with the GIL released.
pub(crate) struct Buffer<'py> {
    /// Boxed: exporters may point into the view itself.
    view: Box<ffi::Py_buffer>,
    _py: Python<'py>,
}

impl<'py> Buffer<'py> {
    /// The buffer of `object` (argument `name`): `TypeError` naming the
    /// argument if it has none, `BufferError` if it is not contiguous.
    fn get(object: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        let py = object.py();
        let mut view = Box::new(ffi::Py_buffer::new());
        // SAFETY: `object` is a live object (a `Bound`, GIL held) and
        // `view` points to a writable `Py_buffer`; on failure the call
        // sets an exception and leaves nothing to release.
        let status =
            unsafe { ffi::PyObject_GetBuffer(object.as_ptr(), &raw mut *view, ffi::PyBUF_SIMPLE) };
        if status != 0 {
            let error = PyErr::fetch(py);
            return Err(if error.is_instance_of::<PyTypeError>(py) {
                let kind = object
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_owned(), |name| name.to_string());
                PyTypeError::new_err(format!(
                    "argument '{name}': a bytes-like object is required, not '{kind}'"
                ))
            } else if error.is_instance_of::<PyBufferError>(py) {
                // Exporters refuse `PyBUF_SIMPLE` for non-contiguous data.
                PyBufferError::new_err(format!("argument '{name}': {}", error.value(py)))
            } else {
                error
            });
        }
        Ok(Self { view, _py: py })
    }

    /// The number of bytes.
    fn len(&self) -> usize {
        // Never negative for a filled view.
        usize::try_from(self.view.len).unwrap_or(0)
    }
}

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        // SAFETY: `view` was filled by `PyObject_GetBuffer` and is released
        // here only (the invariant); the GIL is held (`_py`).
        unsafe { ffi::PyBuffer_Release(&raw mut *self.view) };
    }
}
