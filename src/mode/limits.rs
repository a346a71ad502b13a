//! What one call accepts: the length limits of the API and the nonce size.

use aead::{Error, Result};

/// Longest message (plaintext or ciphertext without tag) one call accepts,
/// in bytes: 2^50 − 1, the NIST lightweight call's minimum. Longer input is
/// an [`aead::Error`].
pub const MAX_MESSAGE_LEN: u64 = (1 << 50) - 1;

/// Longest associated data one call accepts, in bytes: 2^50 − 1. Longer
/// input is an [`aead::Error`].
pub const MAX_ASSOCIATED_DATA_LEN: u64 = (1 << 50) - 1;

/// Length of an Elephant nonce in bytes.
pub(crate) const NONCE_SIZE: usize = 12;

/// Checks the documented per-call limits.
pub(crate) fn check_lengths(associated_data_len: usize, message_len: usize) -> Result<()> {
    let within = |len: usize, max: u64| u64::try_from(len).is_ok_and(|len| len <= max);
    if within(associated_data_len, MAX_ASSOCIATED_DATA_LEN) && within(message_len, MAX_MESSAGE_LEN)
    {
        Ok(())
    } else {
        Err(Error)
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_truncation)] // Only run where usize is 64 bits.
mod tests {
    use super::*;

    /// Lengths above the documented limits cannot be allocated in a test, so
    /// the check that turns them into errors is tested on its own.
    #[test]
    fn lengths_above_the_limits_are_errors() {
        if usize::BITS < 64 {
            return;
        }
        let max_msg = MAX_MESSAGE_LEN as usize;
        let max_ad = MAX_ASSOCIATED_DATA_LEN as usize;
        assert!(check_lengths(0, 0).is_ok());
        assert!(check_lengths(max_ad, max_msg).is_ok());
        assert!(check_lengths(max_ad.wrapping_add(1), 0).is_err());
        assert!(check_lengths(0, max_msg.wrapping_add(1)).is_err());
        assert!(check_lengths(usize::MAX, usize::MAX).is_err());
    }
}
