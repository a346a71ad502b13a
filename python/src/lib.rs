//! The Python module `elephant_aead`: Dumbo, Jumbo and Delirium as classes
//! shaped like pyca/cryptography's AEADs (`ChaCha20Poly1305`), plus
//! `seal_many`/`open_many` for many packets in one call.
//!
//! A layer over the library's public API only: the classes hold an
//! `Elephant<P>`, each method checks its arguments as pyca does
//! ([`single`], [`many`]), reads bytes-like arguments without ever pointing
//! into memory Python can change ([`buffers`]), and raises what Python
//! code expects: `ValueError`, `TypeError`, `OverflowError`, and the
//! module's own `InvalidTag`. No panic crosses into Python (PyO3 turns one
//! into an exception), and no unverified plaintext reaches Python.

#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(
    missing_docs,
    unused_qualifications,
    clippy::semicolon_if_nothing_returned
)]

mod buffers;
mod many;
mod single;

use elephant_aead::{Elephant, Keccak200, Spongent160, Spongent176};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

pyo3::create_exception!(
    elephant_aead,
    InvalidTag,
    pyo3::exceptions::PyException,
    "Raised by ``decrypt`` and ``decrypt_into`` when the tag does not match \
     the nonce, data and associated data (a forged or corrupted message, or \
     the wrong key), or the data is shorter than a tag. Nothing is decrypted \
     then. The counterpart of ``cryptography.exceptions.InvalidTag``."
);

/// Messages (with their associated data) from this many bytes on are
/// processed with the GIL released, so that other Python threads run
/// meanwhile: `hashlib`'s threshold. Releasing and taking back a free GIL
/// measured about 35 ns (Delirium sealing 5 B: 461 ns, 493 ns with it
/// released), under 1 % of a 2 KiB call of the fastest instance; for
/// shorter calls, waiting to get a busy GIL back would cost more than the
/// call.
pub const RELEASE_GIL_FROM: usize = 2048;

/// Runs `work`, with the GIL released if it covers `bytes` bytes of at
/// least [`RELEASE_GIL_FROM`]. `work` can only reach memory the call
/// owns or immutable `bytes` (the `Send` bound and [`buffers`]' invariant).
fn unlocked<T: Send>(py: Python<'_>, bytes: usize, work: impl FnOnce() -> T + Send) -> T {
    if bytes >= RELEASE_GIL_FROM {
        py.detach(work)
    } else {
        work()
    }
}

/// One class per instance; the methods' work is generic ([`single`],
/// [`many`]).
macro_rules! instance {
    ($class:ident, $permutation:ty, $doc:literal) => {
        #[doc = $doc]
        #[doc = ""]
        #[doc = "Create one with ``Class(key)`` (16 bytes; ``generate_key()`` makes one)."]
        #[doc = "Nonces are 12 bytes and must never repeat under one key."]
        #[doc = "``encrypt`` returns the ciphertext followed by the tag; ``decrypt``"]
        #[doc = "raises ``elephant_aead.InvalidTag`` if the tag does not match."]
        #[doc = "Arguments are any bytes-like objects; ``associated_data`` may be ``None``."]
        #[pyclass(frozen, module = "elephant_aead")]
        pub struct $class {
            cipher: Elephant<$permutation>,
        }

        impl many::Class for $class {
            type P = $permutation;

            fn cipher(&self) -> &Elephant<$permutation> {
                &self.cipher
            }
        }

        #[pymethods]
        impl $class {
            /// Key size in bytes.
            #[classattr]
            const KEY_SIZE: usize = single::KEY_SIZE;

            /// Nonce size in bytes.
            #[classattr]
            const NONCE_SIZE: usize = single::NONCE_SIZE;

            /// Tag size in bytes: ``encrypt``'s output is this much longer
            /// than its input.
            #[classattr]
            const TAG_SIZE: usize = single::tag_size::<$permutation>();

            /// The cipher for ``key``, a 16-byte bytes-like object
            /// (``ValueError`` for another size, ``TypeError`` for an
            /// object without the buffer protocol).
            #[new]
            fn new(key: &Bound<'_, PyAny>) -> PyResult<Self> {
                let cipher = single::new::<$permutation>(key, stringify!($class))?;
                Ok(Self { cipher })
            }

            /// A new random 16-byte key from the operating system's
            /// generator.
            #[staticmethod]
            fn generate_key(py: Python<'_>) -> Bound<'_, PyBytes> {
                single::generate_key(py)
            }

            /// Encrypts ``data`` and authenticates it with
            /// ``associated_data`` (or nothing, for ``None``) under the
            /// 12-byte ``nonce``. Returns the ciphertext followed by the
            /// ``TAG_SIZE``-byte tag. ``ValueError`` for a nonce of another
            /// size, ``OverflowError`` above 2**50 - 1 bytes.
            #[pyo3(signature = (nonce, data, associated_data))]
            fn encrypt<'py>(
                &self,
                nonce: &Bound<'py, PyAny>,
                data: &Bound<'py, PyAny>,
                associated_data: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                single::encrypt(&self.cipher, nonce, data, associated_data)
            }

            /// Verifies and decrypts ``data`` (a ciphertext followed by its
            /// tag, as ``encrypt`` returns it) with ``associated_data`` (or
            /// nothing, for ``None``) under ``nonce``. Returns the
            /// plaintext, or raises ``InvalidTag``: the tag is checked
            /// before anything is decrypted.
            #[pyo3(signature = (nonce, data, associated_data))]
            fn decrypt<'py>(
                &self,
                nonce: &Bound<'py, PyAny>,
                data: &Bound<'py, PyAny>,
                associated_data: Option<&Bound<'py, PyAny>>,
            ) -> PyResult<Bound<'py, PyBytes>> {
                single::decrypt(&self.cipher, nonce, data, associated_data)
            }

            /// As ``encrypt``, writing the ciphertext and tag into ``buf``
            /// (a writable bytes-like object of exactly
            /// ``len(data) + TAG_SIZE`` bytes, else ``ValueError``).
            /// Returns the number of bytes written.
            #[pyo3(signature = (nonce, data, associated_data, buf))]
            fn encrypt_into<'py>(
                &self,
                nonce: &Bound<'py, PyAny>,
                data: &Bound<'py, PyAny>,
                associated_data: Option<&Bound<'py, PyAny>>,
                buf: &Bound<'py, PyAny>,
            ) -> PyResult<usize> {
                single::encrypt_into(&self.cipher, nonce, data, associated_data, buf)
            }

            /// As ``decrypt``, writing the plaintext into ``buf`` (a
            /// writable bytes-like object of exactly
            /// ``len(data) - TAG_SIZE`` bytes, else ``ValueError``).
            /// Returns the number of bytes written. On ``InvalidTag``,
            /// ``buf`` is left exactly as it was.
            #[pyo3(signature = (nonce, data, associated_data, buf))]
            fn decrypt_into<'py>(
                &self,
                nonce: &Bound<'py, PyAny>,
                data: &Bound<'py, PyAny>,
                associated_data: Option<&Bound<'py, PyAny>>,
                buf: &Bound<'py, PyAny>,
            ) -> PyResult<usize> {
                single::decrypt_into(&self.cipher, nonce, data, associated_data, buf)
            }

            /// Encrypts many packets in one call, their permutations run in
            /// shared batches. ``packets`` is an iterable of
            /// ``(cipher, nonce, data, associated_data)`` tuples, each
            /// ``cipher`` an instance of this class (its own key). Returns
            /// a list with, for each packet, what ``cipher.encrypt(nonce,
            /// data, associated_data)`` returns. A bad argument in any
            /// packet raises before anything is encrypted.
            #[staticmethod]
            fn seal_many<'py>(packets: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
                many::seal_many::<Self>(packets)
            }

            /// Verifies and decrypts many packets in one call, their
            /// permutations run in shared batches. ``packets`` is an
            /// iterable of ``(cipher, nonce, data, associated_data)``
            /// tuples as for ``seal_many`` (``data`` with its tag). Returns
            /// a list with, for each packet, its plaintext, or ``None`` if
            /// it was rejected (where ``decrypt`` raises ``InvalidTag``).
            /// A bad argument in any packet raises before anything is
            /// decrypted.
            #[staticmethod]
            fn open_many<'py>(packets: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
                many::open_many::<Self>(packets)
            }
        }
    };
}

instance!(
    Dumbo,
    Spongent160,
    "Dumbo: Elephant v2 over Spongent-π[160], the primary member; 8-byte tags."
);
instance!(
    Jumbo,
    Spongent176,
    "Jumbo: Elephant v2 over Spongent-π[176]; 8-byte tags."
);
instance!(
    Delirium,
    Keccak200,
    "Delirium: Elephant v2 over Keccak-f[200], the fastest; 16-byte tags."
);

/// Elephant v2 authenticated encryption (Dumbo, Jumbo, Delirium), shaped
/// like pyca/cryptography's AEAD classes.
#[pymodule]
#[pyo3(name = "elephant_aead")]
fn elephant_aead_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Dumbo>()?;
    m.add_class::<Jumbo>()?;
    m.add_class::<Delirium>()?;
    m.add("InvalidTag", m.py().get_type::<InvalidTag>())?;
    m.add("RELEASE_GIL_FROM", RELEASE_GIL_FROM)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
