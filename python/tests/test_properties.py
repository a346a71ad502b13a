"""Property tests (hypothesis): round trips of random keys, nonces, data
and associated data, through every method, with any single bit flipped
rejected."""

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from conftest import INSTANCES
from elephant_aead import InvalidTag

classes = st.sampled_from(sorted(INSTANCES)).map(INSTANCES.get)
keys = st.binary(min_size=16, max_size=16)
nonces = st.binary(min_size=12, max_size=12)
messages = st.binary(max_size=600)
associated = st.one_of(st.none(), st.binary(max_size=100))


@settings(max_examples=150, deadline=None)
@given(classes, keys, nonces, messages, associated)
def test_round_trip(cls, key, nonce, data, ad):
    cipher = cls(key)
    sealed = cipher.encrypt(nonce, data, ad)
    assert len(sealed) == len(data) + cls.TAG_SIZE
    assert cipher.decrypt(nonce, sealed, ad) == data
    into = bytearray(len(sealed))
    cipher.encrypt_into(nonce, bytearray(data), ad, into)
    assert into == sealed
    plain = bytearray(len(data))
    cipher.decrypt_into(nonce, memoryview(sealed), ad, plain)
    assert plain == data


@settings(max_examples=150, deadline=None)
@given(classes, keys, nonces, messages, associated, st.data())
def test_any_flipped_bit_is_rejected(cls, key, nonce, data, ad, draw):
    cipher = cls(key)
    sealed = bytearray(cipher.encrypt(nonce, data, ad))
    where = draw.draw(st.sampled_from(["data", "ad", "nonce"] if ad else ["data", "nonce"]))
    target = {"data": sealed, "ad": bytearray(ad or b""), "nonce": bytearray(nonce)}[where]
    bit = draw.draw(st.integers(0, 8 * len(target) - 1))
    target[bit // 8] ^= 1 << (bit % 8)
    args = {
        "nonce": bytes(target) if where == "nonce" else nonce,
        "data": sealed,
        "associated_data": bytes(target) if where == "ad" else ad,
    }
    with pytest.raises(InvalidTag):
        cipher.decrypt(**args)
    buf = bytearray(b"\x55" * len(data))
    with pytest.raises(InvalidTag):
        cipher.decrypt_into(**args, buf=buf)
    assert buf == b"\x55" * len(data)


@settings(max_examples=60, deadline=None)
@given(classes, keys, st.lists(nonces, min_size=2, max_size=2, unique=True), messages)
def test_nonce_and_key_change_the_output(cls, key, two, data):
    cipher = cls(key)
    assert cipher.encrypt(two[0], data, None) != cipher.encrypt(two[1], data, None)
    other = bytes([key[0] ^ 1]) + key[1:]
    assert cls(other).encrypt(two[0], data, None) != cipher.encrypt(two[0], data, None)
