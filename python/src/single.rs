//! One message per call: the work of the classes' methods, generic over
//! the permutation, on the library's `AeadInOut` (detached tags, in place).
//!
//! Each call checks every argument before it copies anything (so a wrong
//! size fails at once, whatever the buffer), builds its result in memory it
//! owns (a new `bytes` object, or for `*_into` a scratch buffer copied into
//! the caller's when complete), and releases the GIL around the cipher for
//! long messages ([`unlocked`]).

use crate::buffers::{Input, Output};
use crate::{InvalidTag, unlocked};
use elephant_aead::aead::Generate;
use elephant_aead::aead::array::typenum::Unsigned;
use elephant_aead::{
    AeadCore, AeadInOut, Elephant, KeyInit, MAX_ASSOCIATED_DATA_LEN, MAX_MESSAGE_LEN, Permutation,
};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeroize::{Zeroize, Zeroizing};

/// Key bytes, the same for every instance.
pub(crate) const KEY_SIZE: usize = 16;

/// Nonce bytes, the same for every instance.
pub(crate) const NONCE_SIZE: usize = 12;

/// The tag size of the instance over `P`.
pub(crate) const fn tag_size<P: Permutation>() -> usize {
    <<Elephant<P> as AeadCore>::TagSize as Unsigned>::USIZE
}

/// The library's nonce type for the instance over `P`.
pub(crate) type Nonce<P> = elephant_aead::Nonce<Elephant<P>>;

/// The library's tag type for the instance over `P`.
pub(crate) type Tag<P> = elephant_aead::Tag<Elephant<P>>;

/// The cipher for the bytes-like `key`: `ValueError` unless 16 bytes long
/// (`class` names the instance in the message, as pyca's do).
pub(crate) fn new<P: Permutation>(key: &Bound<'_, PyAny>, class: &str) -> PyResult<Elephant<P>> {
    let input = Input::extract(key, "key")?;
    if input.len() != KEY_SIZE {
        return Err(PyValueError::new_err(format!(
            "{class} key must be {KEY_SIZE} bytes."
        )));
    }
    let mut key = [0u8; KEY_SIZE];
    input.copy_to(0, &mut key);
    let cipher = Elephant::<P>::new((&key).into());
    key.zeroize();
    Ok(cipher)
}

/// A new random key from the operating system's generator.
pub(crate) fn generate_key(py: Python<'_>) -> Bound<'_, PyBytes> {
    // One key type for every instance.
    let mut key = elephant_aead::Key::<elephant_aead::Dumbo>::generate();
    let bytes = PyBytes::new(py, &key);
    key.as_mut_slice().zeroize();
    bytes
}

/// The bytes-like `nonce`: `ValueError` unless 12 bytes long.
pub(crate) fn nonce<P: Permutation>(nonce: &Bound<'_, PyAny>) -> PyResult<Nonce<P>> {
    let input = Input::extract(nonce, "nonce")?;
    if input.len() != NONCE_SIZE {
        return Err(PyValueError::new_err(format!(
            "Nonce must be {NONCE_SIZE} bytes"
        )));
    }
    let mut nonce = Nonce::<P>::default();
    input.copy_to(0, &mut nonce);
    Ok(nonce)
}

/// The associated data, which may be `None` (no associated data).
pub(crate) fn associated_data<'py>(
    associated_data: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Input<'py>>> {
    associated_data
        .map(|object| Input::extract(object, "associated_data"))
        .transpose()
}

/// `OverflowError` unless a message of `message` bytes with `associated`
/// bytes of associated data is within the library's limits (2^50 − 1
/// bytes each, far above pyca's 2^31 − 1).
pub(crate) fn check_lengths(message: usize, associated: usize) -> PyResult<()> {
    let within = |len: usize, max: u64| u64::try_from(len).is_ok_and(|len| len <= max);
    if within(message, MAX_MESSAGE_LEN) && within(associated, MAX_ASSOCIATED_DATA_LEN) {
        Ok(())
    } else {
        Err(too_long())
    }
}

/// The error for lengths above the limits.
pub(crate) fn too_long() -> PyErr {
    PyOverflowError::new_err("Data or associated data too long. Max 2**50 - 1 bytes")
}

/// The parsed arguments of one call.
struct Call<'py, P: Permutation> {
    nonce: Nonce<P>,
    data: Input<'py>,
    associated_data: Option<Input<'py>>,
}

impl<'py, P: Permutation> Call<'py, P> {
    fn extract(
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
        associated: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Self> {
        Ok(Self {
            nonce: self::nonce::<P>(nonce)?,
            data: Input::extract(data, "data")?,
            associated_data: associated_data(associated)?,
        })
    }

    fn associated_len(&self) -> usize {
        self.associated_data.as_ref().map_or(0, Input::len)
    }

    /// The message length of a ciphertext (`data` less its tag), checked:
    /// `InvalidTag` if `data` is shorter than a tag (as pyca), then the
    /// limits.
    fn message_len_to_open(&self) -> PyResult<usize> {
        let len = self
            .data
            .len()
            .checked_sub(tag_size::<P>())
            .ok_or_else(|| InvalidTag::new_err(()))?;
        check_lengths(len, self.associated_len())?;
        Ok(len)
    }

    /// Encrypts `data` (copied to `out`'s start) in place and writes the
    /// tag after it.
    fn seal(&self, py: Python<'py>, cipher: &Elephant<P>, out: &mut [u8]) -> PyResult<()> {
        let len = self.data.len();
        let (message, tag_out) = out.split_at_mut(len);
        self.data.copy_to(0, message);
        let associated_data = self.associated_data.as_ref().map(|ad| ad.read());
        let associated_data = associated_data.as_deref().unwrap_or_default();
        let nonce = &self.nonce;
        let tag = unlocked(py, len.saturating_add(associated_data.len()), || {
            cipher.encrypt_inout_detached(nonce, associated_data, message.into())
        });
        // The only error is a length above the limits, checked already.
        let tag = tag.map_err(|_| too_long())?;
        tag_out.copy_from_slice(&tag);
        Ok(())
    }

    /// Verifies `data`'s tag and decrypts its message (copied to `out`,
    /// exactly as long) in place; `InvalidTag` if the tag does not match,
    /// `out` then holding only the ciphertext.
    fn open(&self, py: Python<'py>, cipher: &Elephant<P>, out: &mut [u8]) -> PyResult<()> {
        let len = out.len();
        let mut tag = Tag::<P>::default();
        self.data.copy_to(len, &mut tag);
        self.data.copy_to(0, out);
        let associated_data = self.associated_data.as_ref().map(|ad| ad.read());
        let associated_data = associated_data.as_deref().unwrap_or_default();
        let nonce = &self.nonce;
        let verdict = unlocked(py, len.saturating_add(associated_data.len()), || {
            cipher.decrypt_inout_detached(nonce, associated_data, out.into(), &tag)
        });
        verdict.map_err(|_| InvalidTag::new_err(()))
    }
}

/// `encrypt(nonce, data, associated_data)`: the ciphertext, then the tag.
pub(crate) fn encrypt<'py, P: Permutation>(
    cipher: &Elephant<P>,
    nonce: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    associated: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let py = nonce.py();
    let call = Call::<P>::extract(nonce, data, associated)?;
    check_lengths(call.data.len(), call.associated_len())?;
    let len = call.data.len().saturating_add(tag_size::<P>());
    PyBytes::new_with(py, len, |out| call.seal(py, cipher, out))
}

/// `decrypt(nonce, data, associated_data)`: the plaintext, or `InvalidTag`.
pub(crate) fn decrypt<'py, P: Permutation>(
    cipher: &Elephant<P>,
    nonce: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    associated: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let py = nonce.py();
    let call = Call::<P>::extract(nonce, data, associated)?;
    let len = call.message_len_to_open()?;
    // A rejected object is discarded unseen (it holds the ciphertext).
    PyBytes::new_with(py, len, |out| call.open(py, cipher, out))
}

/// `encrypt_into(nonce, data, associated_data, buf)`: the ciphertext and
/// tag written into `buf`, which must be exactly that long; returns the
/// bytes written.
pub(crate) fn encrypt_into<'py, P: Permutation>(
    cipher: &Elephant<P>,
    nonce: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    associated: Option<&Bound<'py, PyAny>>,
    buf: &Bound<'py, PyAny>,
) -> PyResult<usize> {
    let py = nonce.py();
    let call = Call::<P>::extract(nonce, data, associated)?;
    check_lengths(call.data.len(), call.associated_len())?;
    let len = call.data.len().saturating_add(tag_size::<P>());
    let output = Output::extract(buf, "buf", len)?;
    // Plaintext until sealed: wiped if sealing failed.
    let mut work = Zeroizing::new(vec![0; len]);
    call.seal(py, cipher, &mut work)?;
    output.write(&work);
    Ok(len)
}

/// `decrypt_into(nonce, data, associated_data, buf)`: the plaintext
/// written into `buf`, which must be exactly that long, or `InvalidTag`
/// with `buf` untouched; returns the bytes written.
pub(crate) fn decrypt_into<'py, P: Permutation>(
    cipher: &Elephant<P>,
    nonce: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    associated: Option<&Bound<'py, PyAny>>,
    buf: &Bound<'py, PyAny>,
) -> PyResult<usize> {
    let py = nonce.py();
    let call = Call::<P>::extract(nonce, data, associated)?;
    let len = call.message_len_to_open()?;
    let output = Output::extract(buf, "buf", len)?;
    // The plaintext, once verified: wiped when dropped.
    let mut work = Zeroizing::new(vec![0; len]);
    call.open(py, cipher, &mut work)?;
    output.write(&work);
    Ok(len)
}
