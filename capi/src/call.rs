//! The calls behind every exported function, generic over the instance:
//! check the arguments (see [`crate::check`]), make the references, call
//! the library's public API, turn its answer into a return code.
//!
//! Invariant: no output is written unless every check passed, and a
//! rejected decryption exposes no plaintext (the library verifies the tag
//! before it writes any: in place the ciphertext stays, out of place the
//! output holds the zeros written before the call).

use crate::check::{Region, disjoint};
use crate::{
    ELEPHANT_ERR_ALIGNMENT, ELEPHANT_ERR_LENGTH, ELEPHANT_ERR_VERIFY, ELEPHANT_NONCE_BYTES,
    ELEPHANT_OK,
};
use arrayvec::ArrayVec;
use core::ffi::c_int;
use core::mem::{align_of, size_of};
use elephant_aead::aead::inout::InOutBuf;
use elephant_aead::batch::{self, Outcome, Packet};
use elephant_aead::{AeadInOut, Elephant, Key, KeyInit, MAX_MESSAGE_LEN, Nonce, Permutation, Tag};

/// One call's result, with `?` for the checks.
pub(crate) type Code = Result<(), c_int>;

/// The return code of a call.
pub(crate) fn code(result: Code) -> c_int {
    match result {
        Ok(()) => ELEPHANT_OK,
        Err(code) => code,
    }
}

/// Where a call's cipher comes from.
pub(crate) enum Cipher<P: Permutation> {
    /// A 16-byte key, expanded for this call.
    Key(*const u8),
    /// A context set by `init`.
    Context(*const Elephant<P>),
}

impl<P: Permutation> Cipher<P> {
    /// The memory the cipher is read from.
    fn region(&self) -> Result<Region, c_int> {
        match *self {
            Self::Key(key) => Region::new(key, size_of::<Key<Elephant<P>>>()),
            Self::Context(context) => context_region(context),
        }
    }

    /// Runs `f` on the cipher: the key expanded, or the context read.
    ///
    /// # Safety
    ///
    /// `self.region()` was `Ok`, the memory is readable (a context set by
    /// `init` and not wiped since), and no output of the call overlaps it.
    unsafe fn with<R>(&self, f: impl FnOnce(&Elephant<P>) -> R) -> Result<R, c_int> {
        let region = self.region()?;
        match *self {
            Self::Key(_) => {
                // SAFETY: the caller's contract.
                let key = <&Key<Elephant<P>>>::try_from(unsafe { region.bytes() })
                    .map_err(|_| ELEPHANT_ERR_LENGTH)?;
                Ok(f(&Elephant::new(key)))
            }
            // SAFETY: `context_region` checked non-NULL and alignment; the
            // caller's contract: initialised by `init`, not written meanwhile.
            Self::Context(context) => Ok(f(unsafe { &*context })),
        }
    }
}

/// The region of a context, checked for NULL and alignment.
fn context_region<P: Permutation>(context: *const Elephant<P>) -> Result<Region, c_int> {
    let region = Region::new(context.cast(), size_of::<Elephant<P>>())?;
    if region.address().checked_rem(align_of::<Elephant<P>>()) == Some(0) {
        Ok(region)
    } else {
        Err(ELEPHANT_ERR_ALIGNMENT)
    }
}

/// Where a tag is: right after the message (combined) or at its own address.
pub(crate) enum TagAt<T> {
    /// Combined: the message's buffer is `len + tag` long.
    After,
    /// Detached.
    At(T),
}

/// The library's per-call limit on the message and the associated data.
fn within_limits(len: usize) -> Code {
    if u64::try_from(len).is_ok_and(|len| len <= MAX_MESSAGE_LEN) {
        Ok(())
    } else {
        Err(ELEPHANT_ERR_LENGTH)
    }
}

/// The message and the tag of a buffer: the `len` bytes at `at` and the
/// tag after them, or the tag at its own address.
fn message_and_tag(
    at: *const u8,
    len: usize,
    tag: TagAt<*const u8>,
    tag_len: usize,
) -> Result<(Region, Region), c_int> {
    match tag {
        TagAt::After => {
            let whole = Region::new(at, len.checked_add(tag_len).ok_or(ELEPHANT_ERR_LENGTH)?)?;
            let message = whole.part(0, len).ok_or(ELEPHANT_ERR_LENGTH)?;
            let tag = whole.part(len, tag_len).ok_or(ELEPHANT_ERR_LENGTH)?;
            Ok((message, tag))
        }
        TagAt::At(tag) => Ok((Region::new(at, len)?, Region::new(tag, tag_len)?)),
    }
}

/// The nonce, as the library's type.
///
/// # Safety
///
/// As [`Region::bytes`].
unsafe fn nonce_ref<'a, P: Permutation>(region: Region) -> Result<&'a Nonce<Elephant<P>>, c_int> {
    // SAFETY: the caller's contract.
    <&Nonce<Elephant<P>>>::try_from(unsafe { region.bytes() }).map_err(|_| ELEPHANT_ERR_LENGTH)
}

/// A call's nonce, associated data and message buffer.
type Views<'a, P> = (&'a Nonce<Elephant<P>>, &'a [u8], InOutBuf<'a, 'a, u8>);

/// The references of one call: the nonce, the associated data, and the
/// message's input and output (one buffer when in place).
///
/// # Safety
///
/// As [`Region::bytes`] for `nonce`, `ad` and `input` (unless in place),
/// [`Region::bytes_mut`] for `output`.
unsafe fn views<'a, P: Permutation>(
    nonce: Region,
    ad: Region,
    input: Region,
    output: Region,
    in_place: bool,
) -> Result<Views<'a, P>, c_int> {
    // SAFETY: the caller's contract, for each region.
    unsafe {
        let nonce = nonce_ref::<P>(nonce)?;
        let buffer = if in_place {
            InOutBuf::from(output.bytes_mut())
        } else {
            InOutBuf::new(input.bytes(), output.bytes_mut()).map_err(|_| ELEPHANT_ERR_LENGTH)?
        };
        Ok((nonce, ad.bytes(), buffer))
    }
}

/// The inputs every call reads besides its message.
#[derive(Clone, Copy)]
pub(crate) struct Inputs {
    /// Associated data and its length.
    pub(crate) ad: *const u8,
    pub(crate) ad_len: usize,
    /// The 12-byte nonce.
    pub(crate) nonce: *const u8,
}

/// Encrypts `len` bytes at `message` into `out` (in place if they are the
/// same address) and writes the tag: after the ciphertext, or at its own
/// address.
///
/// # Safety
///
/// Every non-NULL pointer points to memory valid for its length (`len`,
/// plus the tag after `out` when combined), readable, and writable for the
/// outputs.
pub(crate) unsafe fn seal<P: Permutation>(
    cipher: &Cipher<P>,
    out: *mut u8,
    tag: TagAt<*mut u8>,
    message: *const u8,
    len: usize,
    inputs: Inputs,
) -> Code {
    let tag = match tag {
        TagAt::After => TagAt::After,
        TagAt::At(tag) => TagAt::At(tag.cast_const()),
    };
    let (out, tag) = message_and_tag(out, len, tag, size_of::<Tag<Elephant<P>>>())?;
    let message = Region::new(message, len)?;
    let ad = Region::new(inputs.ad, inputs.ad_len)?;
    let nonce = Region::new(inputs.nonce, ELEPHANT_NONCE_BYTES)?;
    let key = cipher.region()?;
    within_limits(len)?;
    within_limits(inputs.ad_len)?;
    let in_place = message.same(out);
    let message_input = if in_place { Region::EMPTY } else { message };
    disjoint(&mut [out, tag], &[ad, nonce, key, message_input])?;
    // SAFETY: each region was checked by `Region::new` and is valid by the
    // caller's contract; the outputs (`out`, `tag`) overlap neither each
    // other nor any input (`disjoint`), the message being either the output
    // itself (in place, one `&mut`) or disjoint from it.
    let (nonce, ad, buffer) = unsafe { views::<P>(nonce, ad, message, out, in_place) }?;
    // SAFETY: the key or context region was checked and is disjoint from
    // the outputs.
    let computed =
        unsafe { cipher.with(|cipher| cipher.encrypt_inout_detached(nonce, ad, buffer)) }?
            .map_err(|_| ELEPHANT_ERR_LENGTH)?;
    // SAFETY: as above; the tag region is `Tag`'s length.
    for (to, from) in unsafe { tag.bytes_mut() }.iter_mut().zip(&computed) {
        *to = *from;
    }
    Ok(())
}

/// Verifies the tag of the `len`-byte ciphertext at `ciphertext` (after it,
/// or at its own address) and, if it matches, decrypts into `out` (in place
/// if the same address). A rejected tag leaves the ciphertext in place, or
/// zeros out of place; other failures write nothing.
///
/// # Safety
///
/// As [`seal`].
pub(crate) unsafe fn open<P: Permutation>(
    cipher: &Cipher<P>,
    out: *mut u8,
    ciphertext: *const u8,
    len: usize,
    tag: TagAt<*const u8>,
    inputs: Inputs,
) -> Code {
    let (ciphertext, tag) = message_and_tag(ciphertext, len, tag, size_of::<Tag<Elephant<P>>>())?;
    let out = Region::new(out, len)?;
    let ad = Region::new(inputs.ad, inputs.ad_len)?;
    let nonce = Region::new(inputs.nonce, ELEPHANT_NONCE_BYTES)?;
    let key = cipher.region()?;
    within_limits(len)?;
    within_limits(inputs.ad_len)?;
    let in_place = ciphertext.same(out);
    let ciphertext_input = if in_place { Region::EMPTY } else { ciphertext };
    disjoint(&mut [out], &[ad, nonce, key, tag, ciphertext_input])?;
    if !in_place {
        // The library chooses each output byte between the old one and
        // the plaintext without a branch on the verdict, so it reads the
        // output: zeros make it initialised memory, as a `&mut [u8]` needs,
        // and are what a rejected decryption leaves there.
        // SAFETY: the output region was checked and is writable by the
        // caller's contract; no reference to it exists yet.
        unsafe { out.zero() };
    }
    // SAFETY: as in `seal`: checked regions, valid by the caller's
    // contract, the one output disjoint from every input except the
    // ciphertext it replaces in place.
    let (nonce, ad, buffer) = unsafe { views::<P>(nonce, ad, ciphertext, out, in_place) }?;
    // SAFETY: as above (the tag is an input).
    let tag =
        <&Tag<Elephant<P>>>::try_from(unsafe { tag.bytes() }).map_err(|_| ELEPHANT_ERR_LENGTH)?;
    // SAFETY: as in `seal`.
    unsafe { cipher.with(|cipher| cipher.decrypt_inout_detached(nonce, ad, buffer, tag)) }?
        .map_err(|_| ELEPHANT_ERR_VERIFY)
}

/// Expands `key` into the caller's context.
///
/// # Safety
///
/// `context` points to writable memory of `ELEPHANT_CTX_SIZE` bytes, `key`
/// to 16 readable bytes.
pub(crate) unsafe fn init<P: Permutation>(context: *mut Elephant<P>, key: *const u8) -> Code {
    let region = context_region(context.cast_const())?;
    let key = Region::new(key, size_of::<Key<Elephant<P>>>())?;
    disjoint(&mut [region], &[key])?;
    // SAFETY: the key region is checked and the context does not overlap it.
    let key =
        <&Key<Elephant<P>>>::try_from(unsafe { key.bytes() }).map_err(|_| ELEPHANT_ERR_LENGTH)?;
    // SAFETY: `context` is non-NULL and aligned (`context_region`) and
    // writable for the cipher's size (the header's size, checked in
    // `lib.rs` to hold it). `write` does not read or drop what was there.
    unsafe { context.write(Elephant::new(key)) };
    Ok(())
}

/// Wipes the caller's context (the library's destructor: zeros).
///
/// # Safety
///
/// `context` was set by [`init`] and not wiped since.
pub(crate) unsafe fn wipe<P: Permutation>(context: *mut Elephant<P>) -> Code {
    context_region(context.cast_const())?;
    // SAFETY: non-NULL and aligned (checked); a cipher by the caller's
    // contract. Its destructor overwrites the expanded key with zeros.
    unsafe { core::ptr::drop_in_place(context) };
    Ok(())
}

/// One packet of a multi-message call, as the C struct gives it.
#[derive(Clone, Copy)]
pub(crate) struct RawPacket<P: Permutation> {
    pub(crate) context: *const Elephant<P>,
    pub(crate) inputs: Inputs,
    pub(crate) buffer: *mut u8,
    pub(crate) len: usize,
    pub(crate) tag: *mut u8,
}

/// The C packet structs of the three instances.
pub(crate) trait CPacket {
    /// The instance.
    type P: Permutation;
    /// The packet's fields.
    fn fields(&self) -> RawPacket<Self::P>;
    /// Where the packet's status goes.
    fn status(this: *mut Self) -> *mut c_int;
}

/// Packets per group handed to the library at once: enough to fill its
/// widest batches on 64-bit targets; on 32-bit ones it seals one message
/// at a time, so a small group saves stack.
const GROUP: usize = if cfg!(target_pointer_width = "64") {
    64
} else {
    2
};

/// Which way a multi-message call goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Seal,
    Open,
}

/// Seals or opens `count` packets at `packets`, writing each status; the
/// return code is the first packet's failure in order, or success.
///
/// # Safety
///
/// `packets` points to `count` packets, each of whose pointers is valid as
/// in [`seal`] and [`open`] (the buffer in place, `len` bytes; the tag,
/// the context, the nonce, the associated data).
pub(crate) unsafe fn many<C: CPacket>(direction: Direction, packets: *mut C, count: usize) -> Code {
    let bytes = count
        .checked_mul(size_of::<C>())
        .ok_or(ELEPHANT_ERR_LENGTH)?;
    let array = Region::new(packets.cast_const().cast(), bytes)?;
    if array.address().checked_rem(align_of::<C>()) != Some(0) {
        return Err(ELEPHANT_ERR_ALIGNMENT);
    }
    let mut first_failure = Ok(());
    let mut start = 0;
    while start < count {
        let group = GROUP.min(count.wrapping_sub(start));
        // SAFETY: `start + group <= count` packets lie in the checked array.
        let group_packets = unsafe { packets.add(start) };
        // SAFETY: the caller's contract, passed on.
        let codes = unsafe { many_group(direction, group_packets, group, array) };
        for (i, result) in codes.iter().enumerate() {
            // SAFETY: packet `start + i` is in the array, aligned (checked);
            // no reference into the array or any buffer is alive now.
            unsafe { C::status(group_packets.add(i)).write(code(*result)) };
            if first_failure.is_ok() {
                first_failure = *result;
            }
        }
        start = start.wrapping_add(group);
    }
    first_failure
}

/// One group of [`many`]: the checks of each packet, one check that the
/// group's outputs are disjoint from each other and from every input (the
/// packet array included), then one library call. Returns each packet's
/// result.
///
/// # Safety
///
/// As [`many`], for the `count <= GROUP` packets at `packets`.
unsafe fn many_group<C: CPacket>(
    direction: Direction,
    packets: *mut C,
    count: usize,
    array: Region,
) -> ArrayVec<Code, GROUP> {
    let tag_len = size_of::<Tag<Elephant<C::P>>>();
    let mut results = ArrayVec::<Code, GROUP>::new();
    let mut fields = ArrayVec::<[Region; 5], GROUP>::new();
    let mut outputs = ArrayVec::<Region, { 2 * GROUP }>::new();
    let mut inputs = ArrayVec::<Region, { 4 * GROUP + 1 }>::new();
    let _ = inputs.try_push(array);
    for i in 0..count.min(GROUP) {
        // SAFETY: packet `i` of the group is in the caller's array (aligned,
        // checked by `many`); read by value, no reference kept.
        let packet = unsafe { &*packets.add(i) }.fields();
        let checked = (|| {
            let buffer = Region::new(packet.buffer, packet.len)?;
            let tag = Region::new(packet.tag, tag_len)?;
            let ad = Region::new(packet.inputs.ad, packet.inputs.ad_len)?;
            let nonce = Region::new(packet.inputs.nonce, ELEPHANT_NONCE_BYTES)?;
            let context = context_region(packet.context)?;
            within_limits(packet.len)?;
            within_limits(packet.inputs.ad_len)?;
            Ok([buffer, tag, ad, nonce, context])
        })();
        // The lists hold a group's regions (`count <= GROUP`), so they
        // never fill; were one full, the packet would be refused.
        let listed = checked.and_then(|regions @ [buffer, tag, ad, nonce, context]| {
            let (written, read) = match direction {
                Direction::Seal => ([buffer, tag], [Region::EMPTY, ad, nonce, context]),
                Direction::Open => ([buffer, Region::EMPTY], [tag, ad, nonce, context]),
            };
            let room = outputs.remaining_capacity() >= written.len()
                && inputs.remaining_capacity() >= read.len()
                && !fields.is_full();
            if !room {
                return Err(ELEPHANT_ERR_LENGTH);
            }
            for region in written {
                let _ = outputs.try_push(region);
            }
            for region in read {
                let _ = inputs.try_push(region);
            }
            let _ = fields.try_push(regions);
            Ok(())
        });
        let _ = results.try_push(listed);
    }
    if let Err(overlap) = disjoint(&mut outputs, &inputs) {
        for result in results.iter_mut().filter(|result| result.is_ok()) {
            *result = Err(overlap);
        }
        return results;
    }
    let parts = fields.into_iter().map(|regions| {
        // SAFETY: every region was checked; the outputs (buffers, and the
        // tags when sealing) are pairwise disjoint and disjoint from every
        // input, so the references made alias only shared ones. The
        // contexts were set by `init` (the caller's contract).
        unsafe { parts::<C::P>(regions) }
    });
    let verdicts = match direction {
        Direction::Seal => seal_group(parts),
        Direction::Open => open_group(parts),
    };
    let mut verdicts = verdicts.into_iter();
    for result in results.iter_mut().filter(|result| result.is_ok()) {
        *result = match verdicts.next() {
            Some(Outcome::Done) => Ok(()),
            Some(_) if direction == Direction::Open => Err(ELEPHANT_ERR_VERIFY),
            _ => Err(ELEPHANT_ERR_LENGTH),
        };
    }
    results
}

/// A packet's references: cipher, nonce, associated data, buffer, and the
/// tag's region (written when sealing, read when opening).
type Parts<'a, P> = (
    &'a Elephant<P>,
    &'a Nonce<Elephant<P>>,
    &'a [u8],
    &'a mut [u8],
    Region,
);

/// The references of a packet's checked regions (buffer, tag, associated
/// data, nonce, context); `None` only if a length were not the type's,
/// which the checks rule out.
///
/// # Safety
///
/// As [`Region::bytes`] and [`Region::bytes_mut`] for each, the context
/// set by `init`.
unsafe fn parts<'a, P: Permutation>(
    [buffer, tag, ad, nonce, context]: [Region; 5],
) -> Option<Parts<'a, P>> {
    // SAFETY: the caller's contract; `context_region` checked alignment.
    let cipher = unsafe { &*context.address_as::<Elephant<P>>() };
    // SAFETY: the caller's contract.
    let nonce = unsafe { nonce_ref::<P>(nonce) }.ok()?;
    // SAFETY: the caller's contract.
    let (ad, buffer) = unsafe { (ad.bytes(), buffer.bytes_mut()) };
    Some((cipher, nonce, ad, buffer, tag))
}

/// The library's multi-message sealing over checked packets (the only
/// place that names its `Packet` for sealing). One outcome per item, in
/// order.
fn seal_group<'a, P: Permutation>(
    parts: impl Iterator<Item = Option<Parts<'a, P>>>,
) -> ArrayVec<Outcome, GROUP> {
    let mut packets = ArrayVec::<Packet<'a, Elephant<P>>, GROUP>::new();
    let mut taken = ArrayVec::<bool, GROUP>::new();
    for part in parts {
        let packet = part.and_then(|(cipher, nonce, ad, buffer, tag)| {
            // SAFETY: the tag region is an output disjoint from everything
            // else (checked by `many_group`).
            let tag = <&mut Tag<Elephant<P>>>::try_from(unsafe { tag.bytes_mut() }).ok()?;
            Some(Packet::new(cipher, nonce, ad, buffer, tag))
        });
        let _ = taken.try_push(packet.is_some());
        if let Some(packet) = packet {
            let _ = packets.try_push(packet);
        }
    }
    // Each packet's outcome is read below; the summary adds nothing.
    let _ = batch::seal(&mut packets);
    in_order(&taken, packets.iter().map(Packet::outcome))
}

/// The library's multi-message opening, as [`seal_group`].
fn open_group<'a, P: Permutation>(
    parts: impl Iterator<Item = Option<Parts<'a, P>>>,
) -> ArrayVec<Outcome, GROUP> {
    let mut packets = ArrayVec::<Packet<'a, Elephant<P>, &'a Tag<Elephant<P>>>, GROUP>::new();
    let mut taken = ArrayVec::<bool, GROUP>::new();
    for part in parts {
        let packet = part.and_then(|(cipher, nonce, ad, buffer, tag)| {
            // SAFETY: the tag region is an input that no output overlaps
            // (checked by `many_group`).
            let tag = <&Tag<Elephant<P>>>::try_from(unsafe { tag.bytes() }).ok()?;
            Some(Packet::new(cipher, nonce, ad, buffer, tag))
        });
        let _ = taken.try_push(packet.is_some());
        if let Some(packet) = packet {
            let _ = packets.try_push(packet);
        }
    }
    let _ = batch::open(&mut packets);
    in_order(&taken, packets.iter().map(Packet::outcome))
}

/// One outcome per item: the library's for the items it was given,
/// `Rejected` for the others.
fn in_order(
    taken: &[bool],
    mut outcomes: impl Iterator<Item = Outcome>,
) -> ArrayVec<Outcome, GROUP> {
    let mut in_order = ArrayVec::new();
    for &taken in taken {
        let outcome = taken.then(|| outcomes.next()).flatten();
        let _ = in_order.try_push(outcome.unwrap_or(Outcome::Rejected));
    }
    in_order
}
