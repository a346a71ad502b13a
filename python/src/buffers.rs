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

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyBufferError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::borrow::Cow;

/// A bytes-like argument.
pub(crate) enum Input<'py> {
    /// A `bytes` object (or a subclass): immutable, read in place.
    Immutable(Bound<'py, PyBytes>),
    /// Any other exporter: read only by copying ([`Input::copy_to`]).
    Buffer(PyUntypedBuffer),
}

impl<'py> Input<'py> {
    /// The argument `name` as a bytes-like input: `TypeError` without the
    /// buffer protocol, `BufferError` if not C-contiguous.
    pub(crate) fn extract(object: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        if let Ok(bytes) = object.cast::<PyBytes>() {
            return Ok(Self::Immutable(bytes.clone()));
        }
        let buffer = get_buffer(object, name)?;
        Ok(Self::Buffer(buffer))
    }

    /// The number of bytes.
    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Immutable(bytes) => bytes.as_bytes().len(),
            Self::Buffer(buffer) => buffer.len_bytes(),
        }
    }

    /// Copies the bytes from `start` on into `out`, filling it. The GIL
    /// token: a buffer is only read while it is held.
    ///
    /// # Panics
    ///
    /// If `start + out.len()` is beyond [`Input::len`] (a caller's bug;
    /// PyO3 turns it into a `PanicException`, never an out-of-bounds read).
    pub(crate) fn copy_to(&self, _py: Python<'py>, start: usize, out: &mut [u8]) {
        let end = start.checked_add(out.len()).filter(|&end| end <= self.len());
        let Some(end) = end else {
            panic!("reading past the end of an argument");
        };
        match self {
            Self::Immutable(bytes) => out.copy_from_slice(&bytes.as_bytes()[start..end]),
            Self::Buffer(_) if out.is_empty() => {}
            Self::Buffer(buffer) => {
                // SAFETY: the buffer is held (its exporter keeps the memory
                // valid and its size fixed until it is released), it is
                // C-contiguous (`get_buffer`), so its `len_bytes()` bytes
                // start at `buf_ptr()`, and `start..end` is within them
                // (checked above). `out` is memory of this call, so the
                // two cannot overlap. Read as raw bytes, with the GIL held,
                // no reference into the caller's memory is created.
                unsafe {
                    let from = buffer.buf_ptr().cast::<u8>().cast_const().add(start);
                    std::ptr::copy_nonoverlapping(from, out.as_mut_ptr(), out.len());
                }
            }
        }
    }

    /// All the bytes: borrowed from a `bytes` object, copied from any
    /// other buffer.
    pub(crate) fn read(&self, py: Python<'py>) -> Cow<'_, [u8]> {
        match self {
            Self::Immutable(bytes) => Cow::Borrowed(bytes.as_bytes()),
            Self::Buffer(_) => {
                let mut copy = vec![0; self.len()];
                self.copy_to(py, 0, &mut copy);
                Cow::Owned(copy)
            }
        }
    }
}

/// A caller's writable buffer for a result (`buf` of the `*_into` methods).
pub(crate) struct Output(PyUntypedBuffer);

impl Output {
    /// The argument `name` as an output of exactly `len` bytes, as pyca
    /// checks it: `TypeError` if it has no buffer or a read-only one,
    /// `BufferError` if not C-contiguous, `ValueError` for another size.
    pub(crate) fn extract(object: &Bound<'_, PyAny>, name: &str, len: usize) -> PyResult<Self> {
        let buffer = get_buffer(object, name)?;
        if buffer.readonly() {
            return Err(PyTypeError::new_err(format!(
                "argument '{name}': Buffer is not writable."
            )));
        }
        if buffer.len_bytes() != len {
            return Err(PyValueError::new_err(format!("buffer must be {len} bytes")));
        }
        Ok(Self(buffer))
    }

    /// Writes `result` over the whole buffer, with the GIL held.
    ///
    /// # Panics
    ///
    /// If `result` is not as long as the buffer (a caller's bug).
    pub(crate) fn write(&self, _py: Python<'_>, result: &[u8]) {
        assert_eq!(result.len(), self.0.len_bytes(), "result and buffer sizes");
        if result.is_empty() {
            return;
        }
        // SAFETY: the buffer is held, writable (`extract` checked
        // `readonly`), C-contiguous (`get_buffer`) and exactly
        // `result.len()` bytes long (asserted above). `result` is memory
        // of this call, so the two cannot overlap. Written as raw bytes
        // with the GIL held: no reference into the caller's memory.
        unsafe {
            std::ptr::copy_nonoverlapping(
                result.as_ptr(),
                self.0.buf_ptr().cast::<u8>(),
                result.len(),
            );
        }
    }
}

/// The buffer of `object` (argument `name`): `TypeError` naming the
/// argument if it has none, `BufferError` unless C-contiguous.
fn get_buffer(object: &Bound<'_, PyAny>, name: &str) -> PyResult<PyUntypedBuffer> {
    let py = object.py();
    let buffer = PyUntypedBuffer::get(object).map_err(|error| {
        if error.is_instance_of::<PyTypeError>(py) {
            let kind = object
                .get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |name| name.to_string());
            PyTypeError::new_err(format!(
                "argument '{name}': a bytes-like object is required, not '{kind}'"
            ))
        } else {
            error
        }
    })?;
    if !buffer.is_c_contiguous() {
        return Err(PyBufferError::new_err(format!(
            "argument '{name}': Buffer is not contiguous."
        )));
    }
    Ok(buffer)
}
