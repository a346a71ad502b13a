//! The public API as a user meets it: trait bounds, `Debug` without key
//! material, `Clone`, and wrong or hostile input through every public path
//! giving `aead::Error` (or a refused conversion), never a panic.

use elephant_aead::aead::inout::InOutBuf;
use elephant_aead::aead::{AeadCore, AeadInOut, Key, KeyInit, Nonce, Tag};
use elephant_aead::{Delirium, Dumbo, Elephant, Jumbo, Permutation};
use zeroize::ZeroizeOnDrop;

const KEY: [u8; 16] = *b"0123456789abcdef";
const NONCE: [u8; 12] = *b"unique nonce";

fn assert_traits<T: Send + Sync + Clone + core::fmt::Debug + ZeroizeOnDrop + Unpin>() {}

#[test]
fn ciphers_are_send_sync_clone_debug_and_zeroize_on_drop() {
    assert_traits::<Dumbo>();
    assert_traits::<Jumbo>();
    assert_traits::<Delirium>();
}

#[test]
fn sizes_are_the_specified_ones() {
    fn sizes<C: AeadCore + KeyInit>() -> (usize, usize, usize) {
        (
            Key::<C>::default().len(),
            Nonce::<C>::default().len(),
            Tag::<C>::default().len(),
        )
    }
    assert_eq!(sizes::<Dumbo>(), (16, 12, 8));
    assert_eq!(sizes::<Jumbo>(), (16, 12, 8));
    assert_eq!(sizes::<Delirium>(), (16, 12, 16));
}

fn debug_hides_the_key<P: Permutation>(name: &str) {
    let cipher = Elephant::<P>::new(&KEY.into());
    let shown = format!("{cipher:?} {cipher:#?}");
    assert!(shown.contains(name), "{shown}");
    // Neither the key nor any byte list (the expanded key) is printed.
    assert!(!shown.contains("0123"), "{shown}");
    assert!(!shown.contains('['), "{shown}");
    assert!(!shown.chars().any(|c| c.is_ascii_digit()), "{shown}");
}

#[test]
fn debug_never_prints_key_material() {
    debug_hides_the_key::<elephant_aead::Spongent160>("Dumbo");
    debug_hides_the_key::<elephant_aead::Spongent176>("Jumbo");
    debug_hides_the_key::<elephant_aead::Keccak200>("Delirium");
}

fn clone_behaves_the_same<C: AeadInOut + KeyInit + Clone>() {
    let cipher = C::new_from_slice(&KEY).unwrap();
    let copy = cipher.clone();
    drop(cipher);
    let nonce = Nonce::<C>::try_from(&NONCE[..]).unwrap();
    let original = C::new_from_slice(&KEY).unwrap();
    let mut a = *b"some message";
    let mut b = a;
    let tag_a = original
        .encrypt_inout_detached(&nonce, b"ad", (&mut a[..]).into())
        .unwrap();
    let tag_b = copy
        .encrypt_inout_detached(&nonce, b"ad", (&mut b[..]).into())
        .unwrap();
    assert_eq!((a, tag_a), (b, tag_b));
}

#[test]
fn a_clone_encrypts_like_the_original() {
    clone_behaves_the_same::<Dumbo>();
    clone_behaves_the_same::<Jumbo>();
    clone_behaves_the_same::<Delirium>();
}

fn wrong_input_is_an_error<C: AeadInOut + KeyInit>() {
    // Keys, nonces and tags of the wrong length, given as slices.
    for len in [0, 15, 17, 32] {
        assert!(C::new_from_slice(&vec![7; len]).is_err(), "key of {len} B");
    }
    for len in [0, 11, 13, 16] {
        assert!(
            Nonce::<C>::try_from(&vec![7; len][..]).is_err(),
            "nonce of {len} B"
        );
    }
    let tag_len = Tag::<C>::default().len();
    for len in [0, tag_len - 1, tag_len + 1] {
        assert!(
            Tag::<C>::try_from(&vec![7; len][..]).is_err(),
            "tag of {len} B"
        );
    }

    let cipher = C::new_from_slice(&KEY).unwrap();
    let nonce = Nonce::<C>::try_from(&NONCE[..]).unwrap();

    // Ciphertext shorter than the tag, through the postfix-tag path.
    for len in 0..tag_len {
        let mut short = vec![0u8; len];
        assert!(cipher.decrypt_in_place(&nonce, b"", &mut short).is_err());
        assert_eq!(
            short,
            vec![0u8; len],
            "a failed decryption changed the buffer"
        );
    }

    // Empty everything works and roundtrips.
    let tag = cipher
        .encrypt_inout_detached(&nonce, &[], InOutBuf::from(&mut [][..]))
        .unwrap();
    cipher
        .decrypt_inout_detached(&nonce, &[], InOutBuf::from(&mut [][..]), &tag)
        .unwrap();
    // ... and an all-zero tag for empty input is rejected.
    let zero_tag = Tag::<C>::default();
    if tag != zero_tag {
        assert!(
            cipher
                .decrypt_inout_detached(&nonce, &[], InOutBuf::from(&mut [][..]), &zero_tag)
                .is_err()
        );
    }

    // Separate input and output of different lengths cannot even be paired.
    let input = [1u8; 10];
    let mut output = [0u8; 9];
    assert!(InOutBuf::new(&input, &mut output).is_err());
}

#[test]
fn wrong_input_is_an_error_not_a_panic() {
    wrong_input_is_an_error::<Dumbo>();
    wrong_input_is_an_error::<Jumbo>();
    wrong_input_is_an_error::<Delirium>();
}

/// Encryption and decryption with a detached tag on plain slices: no
/// allocation involved.
#[test]
fn detached_tags_on_plain_slices() {
    let cipher = Dumbo::new(&KEY.into());
    let nonce = Nonce::<Dumbo>::from(NONCE);
    let mut buffer = *b"firmware telemetry frame";
    let tag = cipher
        .encrypt_inout_detached(&nonce, b"hdr", (&mut buffer[..]).into())
        .unwrap();
    assert_ne!(&buffer, b"firmware telemetry frame");
    cipher
        .decrypt_inout_detached(&nonce, b"hdr", (&mut buffer[..]).into(), &tag)
        .unwrap();
    assert_eq!(&buffer, b"firmware telemetry frame");
}

/// With the `arrayvec` feature, a fixed-capacity `ArrayVec` is an
/// `aead::Buffer`: ciphertext and tag are appended in place without a heap.
#[cfg(feature = "arrayvec")]
#[test]
fn in_place_into_a_fixed_capacity_arrayvec() {
    use elephant_aead::aead::arrayvec::ArrayVec;
    let cipher = Delirium::new(&KEY.into());
    let nonce = Nonce::<Delirium>::from(NONCE);
    let mut buffer: ArrayVec<u8, 64> = ArrayVec::new();
    buffer.try_extend_from_slice(b"sensor reading 42").unwrap();
    cipher.encrypt_in_place(&nonce, b"", &mut buffer).unwrap();
    assert_eq!(buffer.len(), 17 + 16);
    cipher.decrypt_in_place(&nonce, b"", &mut buffer).unwrap();
    assert_eq!(&buffer[..], b"sensor reading 42");

    // No room for the tag: an error, and the message is left as it was.
    let mut full: ArrayVec<u8, 20> = ArrayVec::new();
    full.try_extend_from_slice(b"twenty bytes exactly").unwrap();
    assert!(cipher.encrypt_in_place(&nonce, b"", &mut full).is_err());
    assert_eq!(&full[..], b"twenty bytes exactly");
}

/// An `aead::Buffer` that misbehaves when asked to grow: it either says
/// `Ok` without growing (`Lie`), drops its last bytes (`Shrink`), or grows
/// and then reports a failure (`GrowThenFail`, as a capped buffer might).
struct HostileBuffer {
    data: Vec<u8>,
    growth: Growth,
}

#[derive(Clone, Copy, Debug)]
enum Growth {
    Lie,
    Shrink,
    GrowThenFail,
}

impl AsRef<[u8]> for HostileBuffer {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

impl AsMut<[u8]> for HostileBuffer {
    fn as_mut(&mut self) -> &mut [u8] {
        &mut self.data
    }
}

impl aead::Buffer for HostileBuffer {
    fn extend_from_slice(&mut self, other: &[u8]) -> aead::Result<()> {
        match self.growth {
            Growth::Lie => {}
            Growth::Shrink => {
                let len = self.data.len().saturating_sub(3);
                self.data.truncate(len);
            }
            Growth::GrowThenFail => {
                self.data.extend_from_slice(other);
                return Err(aead::Error);
            }
        }
        Ok(())
    }

    fn truncate(&mut self, len: usize) {
        self.data.truncate(len);
    }
}

fn hostile_buffers_are_an_error<C: AeadInOut + KeyInit>() {
    let cipher = C::new_from_slice(&KEY).unwrap();
    let nonce = Nonce::<C>::try_from(&NONCE[..]).unwrap();
    for growth in [Growth::Lie, Growth::Shrink, Growth::GrowThenFail] {
        for len in [0, 1, 16, 40, 100] {
            let message: Vec<u8> = (0..len).map(|i: u8| i).map(|i| i ^ 0x5c).collect();
            let mut buffer = HostileBuffer {
                data: message.clone(),
                growth,
            };
            let result = cipher.encrypt_in_place(&nonce, b"ad", &mut buffer);
            assert!(result.is_err(), "{growth:?}, {len} B: accepted");
            // Nothing was encrypted: what is left is a prefix of the message
            // (all of it for a buffer that did not shrink: no tag space left
            // behind either).
            assert!(
                message.starts_with(&buffer.data),
                "{growth:?}, {len} B: the buffer was changed"
            );
            if let Growth::Lie | Growth::GrowThenFail = growth {
                assert_eq!(buffer.data, message, "{growth:?}, {len} B");
            }
        }
    }
}

/// A buffer whose `extend_from_slice` says `Ok` without growing, shrinks,
/// or grows and fails, gives an error (aead's default does not panic
/// either), with the message not encrypted and no tag space left appended.
#[test]
fn encrypt_in_place_into_a_hostile_buffer_is_an_error_not_a_panic() {
    hostile_buffers_are_an_error::<Dumbo>();
    hostile_buffers_are_an_error::<Jumbo>();
    hostile_buffers_are_an_error::<Delirium>();
}

/// An `aead::Buffer` whose `len()` disagrees with its slice from the
/// start: it reports more bytes than it has, fewer, or hands out a slice
/// shorter than its contents.
struct LyingBuffer {
    data: Vec<u8>,
    lie: Lie,
}

/// What the buffer misreports, by how many bytes.
#[derive(Clone, Copy, Debug)]
enum Lie {
    Longer(usize),
    Shorter(usize),
    SliceShort(usize),
}

impl AsRef<[u8]> for LyingBuffer {
    fn as_ref(&self) -> &[u8] {
        match self.lie {
            Lie::SliceShort(n) => &self.data[..self.data.len().saturating_sub(n)],
            _ => &self.data,
        }
    }
}

impl AsMut<[u8]> for LyingBuffer {
    fn as_mut(&mut self) -> &mut [u8] {
        let len = self.data.len();
        match self.lie {
            Lie::SliceShort(n) => &mut self.data[..len.saturating_sub(n)],
            _ => &mut self.data,
        }
    }
}

impl aead::Buffer for LyingBuffer {
    fn len(&self) -> usize {
        match self.lie {
            Lie::Longer(n) => self.data.len() + n,
            Lie::Shorter(n) => self.data.len().saturating_sub(n),
            Lie::SliceShort(_) => self.data.len(),
        }
    }

    fn extend_from_slice(&mut self, other: &[u8]) -> aead::Result<()> {
        self.data.extend_from_slice(other);
        Ok(())
    }

    fn truncate(&mut self, len: usize) {
        self.data.truncate(len);
    }
}

const LIES: [Lie; 3] = [Lie::Longer(5), Lie::Shorter(2), Lie::SliceShort(3)];

fn lying_buffers_are_refused_untouched<C: AeadInOut + KeyInit>() {
    let cipher = C::new_from_slice(&KEY).unwrap();
    let nonce = Nonce::<C>::try_from(&NONCE[..]).unwrap();
    for lie in LIES {
        for len in [0, 1, 16, 40, 100] {
            let message: Vec<u8> = (0..len).map(|i: u8| i ^ 0x5c).collect();
            let mut buffer = LyingBuffer {
                data: message.clone(),
                lie,
            };
            let result = cipher.encrypt_in_place(&nonce, b"ad", &mut buffer);
            assert!(result.is_err(), "encrypt, {lie:?}, {len} B: accepted");
            assert_eq!(buffer.data, message, "encrypt, {lie:?}, {len} B: changed");

            // A sealed message, whose tag would verify: only the lie fails.
            let mut sealed = message.clone();
            cipher.encrypt_in_place(&nonce, b"ad", &mut sealed).unwrap();
            let mut buffer = LyingBuffer {
                data: sealed.clone(),
                lie,
            };
            let result = cipher.decrypt_in_place(&nonce, b"ad", &mut buffer);
            assert!(result.is_err(), "decrypt, {lie:?}, {len} B: accepted");
            assert_eq!(buffer.data, sealed, "decrypt, {lie:?}, {len} B: changed");
        }
    }
}

/// A buffer whose `len()` disagrees with its slice is an error for
/// encryption and decryption alike, not a panic, and is left as it was.
#[test]
fn lying_buffers_are_an_error_not_a_panic() {
    lying_buffers_are_refused_untouched::<Dumbo>();
    lying_buffers_are_refused_untouched::<Jumbo>();
    lying_buffers_are_refused_untouched::<Delirium>();
}

/// `decrypt_in_place` on a buffer shorter than a tag is an error, and a
/// well-behaved buffer round-trips.
#[test]
fn decrypt_in_place_checks_the_length() {
    let cipher = Dumbo::new_from_slice(&KEY).unwrap();
    let nonce = Nonce::<Dumbo>::try_from(&NONCE[..]).unwrap();
    let mut short = vec![0u8; 7];
    assert!(cipher.decrypt_in_place(&nonce, b"", &mut short).is_err());
    assert_eq!(short, [0; 7]);
    let mut buffer = b"a message".to_vec();
    cipher.encrypt_in_place(&nonce, b"ad", &mut buffer).unwrap();
    assert_eq!(buffer.len(), 9 + 8);
    cipher.decrypt_in_place(&nonce, b"ad", &mut buffer).unwrap();
    assert_eq!(buffer, b"a message");
}
