"""Many messages in one call: ``seal_many`` and ``open_many`` give every
packet exactly what ``encrypt`` and ``decrypt`` give it one at a time, for
short packets (in lockstep), long ones and mixtures; forged packets alone
are rejected; a bad argument in any packet fails the call."""

import random

import pytest

from elephant_aead import Dumbo, InvalidTag, Jumbo

# Lengths on both sides of the library's short-packet path and across
# several blocks; 0 included.
LENGTHS = [0, 1, 7, 16, 19, 20, 40, 41, 64, 200, 1500, 5000]


def random_packets(cls, count, rng, lengths=LENGTHS):
    keys = [rng.randbytes(16) for _ in range(max(1, count // 3))]
    ciphers = [cls(k) for k in keys]
    packets = []
    for _ in range(count):
        ad = rng.choice([None, b"", rng.randbytes(rng.choice(LENGTHS))])
        packets.append(
            (
                rng.choice(ciphers),
                rng.randbytes(12),
                rng.randbytes(rng.choice(lengths)),
                ad,
            )
        )
    return packets


@pytest.mark.parametrize("count", [0, 1, 2, 15, 16, 17, 256, 300])
def test_seal_many_matches_one_at_a_time(instance, count):
    rng = random.Random(count)
    packets = random_packets(instance, count, rng)
    sealed = instance.seal_many(packets)
    assert sealed == [c.encrypt(n, d, a) for c, n, d, a in packets]
    opened = instance.open_many(
        [(c, n, s, a) for (c, n, _, a), s in zip(packets, sealed)]
    )
    assert opened == [d for _, _, d, _ in packets]


def test_only_short_packets(instance):
    rng = random.Random(1)
    packets = random_packets(instance, 256, rng, lengths=[16])
    sealed = instance.seal_many(packets)
    assert sealed == [c.encrypt(n, d, a) for c, n, d, a in packets]


def test_forged_packets_alone_are_rejected(instance):
    rng = random.Random(7)
    packets = random_packets(instance, 64, rng)
    sealed = instance.seal_many(packets)
    forged = {3, 10, 11, 63}
    to_open = []
    for i, ((c, n, d, a), s) in enumerate(zip(packets, sealed)):
        if i in forged:
            s = bytearray(s)
            s[rng.randrange(len(s))] ^= 1 << rng.randrange(8)
        to_open.append((c, n, s, a))
    # One packet too short to hold a tag: rejected too.
    to_open.append((packets[0][0], packets[0][1], bytes(instance.TAG_SIZE - 1), None))
    opened = instance.open_many(to_open)
    assert len(opened) == 65
    for i, (c, n, s, a) in enumerate(to_open):
        if i in forged or i == 64:
            assert opened[i] is None
            with pytest.raises(InvalidTag):
                c.decrypt(n, s, a)
        else:
            assert opened[i] == packets[i][2]


def test_any_iterable_and_buffer(instance):
    cipher = instance(bytes(16))
    packets = [(cipher, bytes([i]) * 12, bytes([i]) * i, b"ad") for i in range(5)]
    expected = [cipher.encrypt(n, d, a) for _, n, d, a in packets]
    assert instance.seal_many(iter(packets)) == expected
    assert instance.seal_many(
        (c, bytearray(n), memoryview(d), bytearray(a)) for c, n, d, a in packets
    ) == expected


def test_errors_name_the_packet():
    cipher = Dumbo(bytes(16))
    good = (cipher, bytes(12), b"data", None)
    cases = [
        (5, TypeError, "packets: 'int' object is not iterable"),
        ([good, [cipher, bytes(12), b"", None]], TypeError, "packets[1]: a packet is a (cipher, nonce, data, associated_data) tuple"),
        ([good, (cipher, bytes(12), b"")], TypeError, "packets[1]: a packet is a (cipher, nonce, data, associated_data) tuple, not 3 items"),
        ([good, good, (Jumbo(bytes(16)), bytes(12), b"", None)], TypeError, "packets[2]: argument 'cipher': expected Dumbo, not 'Jumbo'"),
        ([(b"key", bytes(12), b"", None)], TypeError, "packets[0]: argument 'cipher'"),
        ([good, (cipher, bytes(11), b"", None)], ValueError, "packets[1]: Nonce must be 12 bytes"),
        ([(cipher, bytes(12), "text", None)], TypeError, "packets[0]: argument 'data': a bytes-like object is required, not 'str'"),
        ([(cipher, bytes(12), b"", 3)], TypeError, "packets[0]: argument 'associated_data'"),
    ]
    for packets, kind, message in cases:
        for call in (Dumbo.seal_many, Dumbo.open_many):
            with pytest.raises(kind) as info:
                call(packets)
            assert message in str(info.value), (message, str(info.value))
