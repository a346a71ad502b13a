"""The official Elephant v2 known-answer files, every entry through the
Python API: one message at a time, into caller buffers, and all 1089 in one
``seal_many``/``open_many`` call; tampering with the tag, ciphertext,
associated data or nonce is rejected."""

import pytest

from conftest import INSTANCES, read_kats
from elephant_aead import InvalidTag


def flip(data, bit):
    """``data`` with bit ``bit`` inverted."""
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


@pytest.mark.parametrize("name", sorted(INSTANCES))
def test_every_entry_one_at_a_time(name):
    cls = INSTANCES[name]
    for entry in read_kats(name):
        cipher = cls(entry["key"])
        nonce, pt, ad, ct = (
            entry["nonce"],
            entry["plaintext"],
            entry["associated_data"],
            entry["ciphertext"],
        )
        assert len(ct) == len(pt) + cls.TAG_SIZE, entry["count"]
        assert cipher.encrypt(nonce, pt, ad) == ct, entry["count"]
        assert cipher.decrypt(nonce, ct, ad) == pt, entry["count"]
        buf = bytearray(len(ct))
        assert cipher.encrypt_into(nonce, pt, ad, buf) == len(ct)
        assert buf == ct, entry["count"]
        buf = bytearray(len(pt))
        assert cipher.decrypt_into(nonce, ct, ad, buf) == len(pt)
        assert buf == pt, entry["count"]
        # One bit of the tag, of the ciphertext, of the AD and of the nonce.
        forgeries = [(nonce, flip(ct, 8 * len(ct) - 1), ad)]
        if pt:
            forgeries.append((nonce, flip(ct, 0), ad))
        if ad:
            forgeries.append((nonce, ct, flip(ad, 8 * len(ad) - 1)))
        forgeries.append((flip(nonce, entry["count"] % 96), ct, ad))
        for forged in forgeries:
            with pytest.raises(InvalidTag):
                cipher.decrypt(*forged)


@pytest.mark.parametrize("name", sorted(INSTANCES))
def test_every_entry_in_one_call(name):
    cls = INSTANCES[name]
    entries = read_kats(name)
    ciphers = [cls(e["key"]) for e in entries]
    sealed = cls.seal_many(
        [
            (c, e["nonce"], e["plaintext"], e["associated_data"])
            for c, e in zip(ciphers, entries)
        ]
    )
    assert sealed == [e["ciphertext"] for e in entries]
    # Every seventh entry's tag forged: those alone are rejected.
    packets = [
        (
            c,
            e["nonce"],
            flip(e["ciphertext"], 8 * len(e["ciphertext"]) - 1)
            if i % 7 == 3
            else e["ciphertext"],
            e["associated_data"],
        )
        for i, (c, e) in enumerate(zip(ciphers, entries))
    ]
    opened = cls.open_many(packets)
    assert opened == [
        None if i % 7 == 3 else e["plaintext"] for i, e in enumerate(entries)
    ]
