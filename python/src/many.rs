//! Many messages in one call (`seal_many`, `open_many`): a gateway's
//! packets, each with its own cipher (key), nonce and associated data,
//! through the library's `batch::seal` and `batch::open`, whose
//! permutations of all packets run in shared batches.
//!
//! Every argument of every packet is checked first, so a bad packet fails
//! the call before anything is computed (the error names its index). The
//! messages are copied into one buffer the call owns, processed there with
//! the GIL released for large batches, and returned as new `bytes`
//! objects; a packet whose tag does not match (or that is shorter than a
//! tag) gives `None`, and its plaintext never leaves the scratch buffer,
//! which is wiped.

use crate::buffers::Input;
use crate::single::{Nonce, Tag, associated_data, check_lengths, nonce, tag_size, too_long};
use crate::unlocked;
use elephant_aead::batch::{self, Outcome, Packet};
use elephant_aead::{Elephant, Permutation};
use pyo3::PyClass;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pyclass::boolean_struct::True;
use pyo3::types::{PyBytes, PyList, PyTuple};
use std::borrow::Cow;
use zeroize::Zeroizing;

/// A Python class of an instance: how the packets' ciphers are reached.
pub(crate) trait Class: PyClass<Frozen = True> + Sync {
    /// The instance's permutation.
    type P: Permutation;

    /// The cipher (expanded key) the object holds.
    fn cipher(&self) -> &Elephant<Self::P>;
}

/// What each packet adds to its bytes in the work compared with
/// [`RELEASE_GIL_FROM`](crate::RELEASE_GIL_FROM): its fixed cost (tag and
/// masks) is that of a few blocks, so 32 empty packets release the GIL.
const PACKET_WORK: usize = 64;

/// The packets of one call, checked, and their data in one owned buffer.
struct Packets<'py, C: Class> {
    ciphers: Vec<Bound<'py, C>>,
    nonces: Vec<Nonce<C::P>>,
    associated_data: Vec<Option<Input<'py>>>,
    /// Each packet's message length in `messages`, or `None` for a packet
    /// to open that is shorter than a tag (rejected without a call).
    lengths: Vec<Option<usize>>,
    /// The messages one after the other; plaintext before sealing or after
    /// opening, so wiped when dropped.
    messages: Zeroizing<Vec<u8>>,
    /// Each packet's tag: written when sealing, read when opening.
    tags: Vec<Tag<C::P>>,
}

impl<'py, C: Class> Packets<'py, C> {
    /// Reads `packets`, an iterable of `(cipher, nonce, data,
    /// associated_data)` tuples; `data` holds the tag at its end when
    /// `opening`.
    fn extract(packets: &Bound<'py, PyAny>, opening: bool) -> PyResult<Self> {
        let py = packets.py();
        let items: PyResult<Vec<Bound<'py, PyAny>>> =
            packets.try_iter().and_then(|items| items.collect());
        let items = items.map_err(|error| in_argument(py, "packets", &error))?;
        let count = items.len();
        let mut parsed = Self {
            ciphers: Vec::with_capacity(count),
            nonces: Vec::with_capacity(count),
            associated_data: Vec::with_capacity(count),
            lengths: Vec::with_capacity(count),
            messages: Zeroizing::new(Vec::new()),
            tags: vec![Tag::<C::P>::default(); count],
        };
        let mut data = Vec::with_capacity(count);
        for (index, item) in items.iter().enumerate() {
            let packet = parsed
                .push(item, opening, &mut data)
                .map_err(|error| in_argument(py, &format!("packets[{index}]"), &error));
            packet?;
        }
        let total = parsed.lengths.iter().flatten().sum();
        parsed.messages = Zeroizing::new(vec![0; total]);
        let mut at = 0;
        for ((input, len), tag) in data.iter().zip(&parsed.lengths).zip(&mut parsed.tags) {
            if let Some(len) = *len {
                let message = &mut parsed.messages[at..at + len];
                input.copy_to(0, message);
                if opening {
                    input.copy_to(len, tag);
                }
                at += len;
            }
        }
        Ok(parsed)
    }

    /// Checks one packet and records it; its data is copied later, once
    /// the total length is known.
    fn push(
        &mut self,
        item: &Bound<'py, PyAny>,
        opening: bool,
        data: &mut Vec<Input<'py>>,
    ) -> PyResult<()> {
        let tuple = item.cast::<PyTuple>().map_err(|_| {
            PyTypeError::new_err("a packet is a (cipher, nonce, data, associated_data) tuple")
        })?;
        if tuple.len() != 4 {
            return Err(PyTypeError::new_err(format!(
                "a packet is a (cipher, nonce, data, associated_data) tuple, not {} items",
                tuple.len()
            )));
        }
        let cipher = tuple.get_item(0)?;
        let cipher = cipher.cast::<C>().map_err(|_| {
            PyTypeError::new_err(format!(
                "argument 'cipher': expected {}, not '{}'",
                C::NAME,
                cipher
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_owned(), |name| name.to_string())
            ))
        })?;
        let nonce = nonce::<C::P>(&tuple.get_item(1)?)?;
        let input = Input::extract(&tuple.get_item(2)?, "data")?;
        let associated = tuple.get_item(3)?;
        let associated = associated_data((!associated.is_none()).then_some(&associated))?;
        let associated_len = associated.as_ref().map_or(0, Input::len);
        let len = if opening {
            input.len().checked_sub(tag_size::<C::P>())
        } else {
            Some(input.len())
        };
        check_lengths(len.unwrap_or(0), associated_len)?;
        self.ciphers.push(cipher.clone());
        self.nonces.push(nonce);
        self.associated_data.push(associated);
        self.lengths.push(len);
        data.push(input);
        Ok(())
    }

    /// Seals or opens (`opening`) every packet with a length in one batch
    /// call; returns whether each was done (sealed, or its tag matched).
    fn run(&mut self, py: Python<'py>, opening: bool) -> Vec<bool> {
        let associated: Vec<Cow<'_, [u8]>> = self
            .associated_data
            .iter()
            .map(|ad| ad.as_ref().map_or(Cow::Borrowed(&[][..]), |ad| ad.read()))
            .collect();
        let mut ciphers = Vec::with_capacity(self.ciphers.len());
        let mut nonces = Vec::with_capacity(self.ciphers.len());
        let mut ads = Vec::with_capacity(self.ciphers.len());
        let mut buffers = Vec::with_capacity(self.ciphers.len());
        let mut tags = Vec::with_capacity(self.ciphers.len());
        let mut rest: &mut [u8] = &mut self.messages;
        let mut work = 0usize;
        let packets = self
            .ciphers
            .iter()
            .zip(&self.nonces)
            .zip(&associated)
            .zip(&self.lengths)
            .zip(&mut self.tags);
        for ((((cipher, nonce), ad), len), tag) in packets {
            if let Some(len) = *len {
                let (buffer, after) = std::mem::take(&mut rest).split_at_mut(len);
                rest = after;
                ciphers.push(cipher.get().cipher());
                nonces.push(nonce);
                ads.push(&**ad);
                buffers.push(buffer);
                tags.push(tag);
                work = work
                    .saturating_add(len)
                    .saturating_add(ad.len())
                    .saturating_add(PACKET_WORK);
            }
        }
        let done = unlocked(py, work, || {
            if opening {
                open(&ciphers, &nonces, &ads, buffers, &tags)
            } else {
                seal(&ciphers, &nonces, &ads, buffers, tags)
            }
        });
        // Back to one entry per packet: those not in the call were not done.
        let mut done = done.into_iter();
        self.lengths
            .iter()
            .map(|len| len.is_some() && done.next().unwrap_or(false))
            .collect()
    }
}

/// `error` with its message prefixed by the argument it is about.
fn in_argument(py: Python<'_>, argument: &str, error: &PyErr) -> PyErr {
    let message = format!("{argument}: {}", error.value(py));
    let kind = error.get_type(py);
    PyErr::from_type(kind, message)
}

/// Seals every packet with `batch::seal`: its buffer encrypted in place,
/// its tag written. Returns whether each was sealed. (The one place that
/// builds sealing packets.)
fn seal<P: Permutation>(
    ciphers: &[&Elephant<P>],
    nonces: &[&Nonce<P>],
    associated_data: &[&[u8]],
    buffers: Vec<&mut [u8]>,
    tags: Vec<&mut Tag<P>>,
) -> Vec<bool> {
    let mut packets: Vec<Packet<'_, Elephant<P>>> = ciphers
        .iter()
        .zip(nonces)
        .zip(associated_data)
        .zip(buffers.into_iter().zip(tags))
        .map(|(((cipher, nonce), ad), (buffer, tag))| Packet::new(cipher, nonce, ad, buffer, tag))
        .collect();
    // Each packet's outcome says what the summary error would.
    let _ = batch::seal(&mut packets);
    packets
        .iter()
        .map(|packet| packet.outcome() == Outcome::Done)
        .collect()
}

/// Opens every packet with `batch::open`: its tag verified, its buffer
/// decrypted in place if it matched and left as it was if not. Returns
/// whether each was opened. (The one place that builds opening packets.)
fn open<P: Permutation>(
    ciphers: &[&Elephant<P>],
    nonces: &[&Nonce<P>],
    associated_data: &[&[u8]],
    buffers: Vec<&mut [u8]>,
    tags: &[&mut Tag<P>],
) -> Vec<bool> {
    let mut packets: Vec<Packet<'_, Elephant<P>, &Tag<P>>> = ciphers
        .iter()
        .zip(nonces)
        .zip(associated_data)
        .zip(buffers.into_iter().zip(tags))
        .map(|(((cipher, nonce), ad), (buffer, tag))| {
            Packet::new(cipher, nonce, ad, buffer, &**tag)
        })
        .collect();
    // Each packet's outcome says which were rejected.
    let _ = batch::open(&mut packets);
    packets
        .iter()
        .map(|packet| packet.outcome() == Outcome::Done)
        .collect()
}

/// `seal_many(packets)`: for each `(cipher, nonce, data,
/// associated_data)`, the ciphertext then the tag, as `encrypt` gives it.
pub(crate) fn seal_many<'py, C: Class>(
    packets: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let py = packets.py();
    let mut parsed = Packets::<C>::extract(packets, false)?;
    let done = parsed.run(py, false);
    let tag_len = tag_size::<C::P>();
    let mut at = 0;
    let mut sealed = Vec::with_capacity(done.len());
    for ((len, tag), done) in parsed.lengths.iter().zip(&parsed.tags).zip(done) {
        let len = len.unwrap_or(0);
        let ciphertext = &parsed.messages[at..at + len];
        at += len;
        if !done {
            // Only lengths above the limits make sealing fail, and those
            // were refused already.
            return Err(too_long());
        }
        sealed.push(PyBytes::new_with(py, len + tag_len, |out| {
            out[..len].copy_from_slice(ciphertext);
            out[len..].copy_from_slice(tag);
            Ok(())
        })?);
    }
    PyList::new(py, sealed)
}

/// `open_many(packets)`: for each `(cipher, nonce, data,
/// associated_data)`, the plaintext as `decrypt` gives it, or `None` if
/// the packet was rejected (its tag did not match).
pub(crate) fn open_many<'py, C: Class>(
    packets: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let py = packets.py();
    let mut parsed = Packets::<C>::extract(packets, true)?;
    let done = parsed.run(py, true);
    let mut at = 0;
    let mut opened: Vec<Option<Bound<'py, PyBytes>>> = Vec::with_capacity(done.len());
    for (len, done) in parsed.lengths.iter().zip(done) {
        let len = len.unwrap_or(0);
        let plaintext = &parsed.messages[at..at + len];
        at += len;
        opened.push(done.then(|| PyBytes::new(py, plaintext)));
    }
    PyList::new(py, opened)
}
