"""The API's shape and every argument error: sizes, buffer-protocol inputs
of every kind, caller buffers, the limits (checked before any byte is read),
and the GIL released while a long message is processed."""

import array
import ctypes
import inspect
import mmap
import threading
import time

import pytest

import elephant_aead
from elephant_aead import Delirium, Dumbo, InvalidTag, Jumbo

KEY = bytes(range(16))
NONCE = bytes(range(12))


def test_sizes_are_class_attributes():
    for cls, tag in [(Dumbo, 8), (Jumbo, 8), (Delirium, 16)]:
        assert (cls.KEY_SIZE, cls.NONCE_SIZE, cls.TAG_SIZE) == (16, 12, tag)
        cipher = cls(KEY)
        assert cipher.TAG_SIZE == tag
        assert len(cipher.encrypt(NONCE, b"abc", None)) == 3 + tag


def test_invalid_tag_is_the_modules_documented_exception():
    assert issubclass(InvalidTag, Exception)
    assert InvalidTag.__module__ == "elephant_aead"
    assert "tag does not match" in InvalidTag.__doc__
    assert "InvalidTag" in Dumbo.decrypt.__doc__


def test_everything_is_documented(instance):
    assert elephant_aead.__doc__
    assert instance.__doc__.startswith(instance.__name__ + ": Elephant v2")
    for name in [
        "generate_key",
        "encrypt",
        "decrypt",
        "encrypt_into",
        "decrypt_into",
        "seal_many",
        "open_many",
    ]:
        assert len(getattr(instance, name).__doc__) > 60, name


def test_signatures():
    assert str(inspect.signature(Dumbo)) == "(key)"
    for name in ["encrypt", "decrypt"]:
        assert str(inspect.signature(getattr(Dumbo, name))) == (
            "(self, /, nonce, data, associated_data)"
        )
    for name in ["encrypt_into", "decrypt_into"]:
        assert str(inspect.signature(getattr(Dumbo, name))) == (
            "(self, /, nonce, data, associated_data, buf)"
        )
    assert isinstance(inspect.getattr_static(Dumbo, "generate_key"), staticmethod)
    # Keyword arguments too, as pyca.
    cipher = Dumbo(key=KEY)
    assert cipher.decrypt(
        nonce=NONCE, data=cipher.encrypt(NONCE, b"x", b"a"), associated_data=b"a"
    ) == b"x"


def test_generate_key(instance):
    keys = {instance.generate_key() for _ in range(64)}
    assert len(keys) == 64
    assert all(isinstance(k, bytes) and len(k) == 16 for k in keys)
    cipher = instance(keys.pop())
    assert cipher.decrypt(NONCE, cipher.encrypt(NONCE, b"m", None), None) == b"m"


def test_ciphers_are_immutable(instance):
    cipher = instance(KEY)
    with pytest.raises(AttributeError):
        cipher.key = KEY


def test_associated_data_none_is_empty(instance):
    cipher = instance(KEY)
    assert cipher.encrypt(NONCE, b"m", None) == cipher.encrypt(NONCE, b"m", b"")
    assert cipher.decrypt(NONCE, cipher.encrypt(NONCE, b"m", b""), None) == b"m"


def buffers(data):
    """``data`` as every kind of bytes-like object."""
    ctypes_array = (ctypes.c_ubyte * len(data)).from_buffer_copy(data)
    kinds = [
        data,
        bytearray(data),
        memoryview(data),
        memoryview(bytearray(data)),
        memoryview(b"--" + data + b"--")[2:-2],
        array.array("B", data),
        ctypes_array,
    ]
    if len(data) % 4 == 0:
        # Any format: the buffer's bytes count, as for hashlib.
        kinds.append(array.array("I", data))
    if data:
        mapped = mmap.mmap(-1, len(data))
        mapped.write(data)
        kinds.append(mapped)
    return kinds


@pytest.mark.parametrize("length", [0, 5, 8, 64])
def test_any_buffer_protocol_object(instance, length):
    key, data, ad = bytes(range(16)), bytes(range(length)), b"ad" * (length // 2)
    cipher = instance(key)
    sealed = cipher.encrypt(NONCE, data, ad)
    for k in buffers(key):
        assert instance(k).encrypt(NONCE, data, ad) == sealed
    for n in buffers(NONCE):
        assert cipher.encrypt(n, data, ad) == sealed
    for d in buffers(data):
        assert cipher.encrypt(NONCE, d, ad) == sealed
    for a in buffers(ad):
        assert cipher.encrypt(NONCE, data, a) == sealed
    for s in buffers(sealed):
        assert cipher.decrypt(NONCE, s, ad) == data
    for out in buffers(bytes(len(sealed)))[1:]:
        if isinstance(out, (bytes, memoryview)) and memoryview(out).readonly:
            continue
        assert cipher.encrypt_into(NONCE, data, ad, out) == len(sealed)
        assert bytes(out) == sealed


def test_in_place_through_aliasing_buffers(instance):
    cipher = instance(KEY)
    message = b"in place, one buffer"
    buf = bytearray(message) + bytearray(instance.TAG_SIZE)
    view = memoryview(buf)
    cipher.encrypt_into(NONCE, view[: len(message)], b"", view)
    assert bytes(buf) == cipher.encrypt(NONCE, message, b"")
    cipher.decrypt_into(NONCE, view, b"", view[: len(message)])
    assert bytes(buf[: len(message)]) == message


def test_decrypt_into_leaves_the_buffer_untouched_on_rejection(instance):
    cipher = instance(KEY)
    sealed = bytearray(cipher.encrypt(NONCE, b"secret message", b"ad"))
    sealed[0] ^= 1
    buf = bytearray(b"\xaa" * 14)
    with pytest.raises(InvalidTag):
        cipher.decrypt_into(NONCE, sealed, b"ad", buf)
    assert buf == b"\xaa" * 14
    with pytest.raises(InvalidTag):
        cipher.decrypt_into(NONCE, bytes(instance.TAG_SIZE - 1), b"", bytearray(0))


def error(call):
    """The exception type ``call`` raises, and its message."""
    with pytest.raises(Exception) as info:
        call()
    return info.type, str(info.value)


def test_argument_errors(instance):
    cipher = instance(KEY)
    tag = instance.TAG_SIZE
    sealed = cipher.encrypt(NONCE, b"abc", None)
    name = instance.__name__
    cases = [
        # Keys: size, then type.
        (lambda: instance(bytes(15)), ValueError, f"{name} key must be 16 bytes."),
        (lambda: instance(bytes(17)), ValueError, f"{name} key must be 16 bytes."),
        (lambda: instance("k" * 16), TypeError, "argument 'key': a bytes-like"),
        (lambda: instance(None), TypeError, "not 'NoneType'"),
        (lambda: instance(), TypeError, "key"),
        # Nonces.
        (lambda: cipher.encrypt(bytes(11), b"", None), ValueError, "Nonce must be 12 bytes"),
        (lambda: cipher.encrypt(bytes(13), b"", None), ValueError, "Nonce must be 12 bytes"),
        (lambda: cipher.decrypt(bytes(11), sealed, None), ValueError, "Nonce must be 12"),
        (lambda: cipher.encrypt_into(bytes(0), b"", None, bytearray(tag)), ValueError, "Nonce"),
        (lambda: cipher.decrypt_into(bytes(1), sealed, None, bytearray(3)), ValueError, "Nonce"),
        (lambda: cipher.encrypt(12, b"", None), TypeError, "argument 'nonce': a bytes-like"),
        # Data and associated data: types (None only for the AD).
        (lambda: cipher.encrypt(NONCE, "abc", None), TypeError, "argument 'data': a bytes-like object is required, not 'str'"),
        (lambda: cipher.encrypt(NONCE, None, None), TypeError, "argument 'data'"),
        (lambda: cipher.decrypt(NONCE, [1, 2], None), TypeError, "argument 'data'"),
        (lambda: cipher.encrypt(NONCE, b"", "ad"), TypeError, "argument 'associated_data'"),
        (lambda: cipher.decrypt(NONCE, sealed, 5), TypeError, "argument 'associated_data'"),
        (lambda: cipher.encrypt(NONCE, b""), TypeError, "associated_data"),
        (lambda: cipher.encrypt(NONCE, b"", None, None), TypeError, "arguments"),
        # Not contiguous.
        (lambda: cipher.encrypt(NONCE, memoryview(b"abcdef")[::2], None), BufferError, "not C-contiguous"),
        # Caller buffers: read-only, wrong size, not contiguous, no buffer.
        (lambda: cipher.encrypt_into(NONCE, b"abc", None, bytes(3 + tag)), TypeError, "argument 'buf': Buffer is not writable."),
        (lambda: cipher.decrypt_into(NONCE, sealed, None, memoryview(b"xyz")), TypeError, "not writable"),
        (lambda: cipher.encrypt_into(NONCE, b"abc", None, bytearray(2 + tag)), ValueError, f"buffer must be {3 + tag} bytes"),
        (lambda: cipher.encrypt_into(NONCE, b"abc", None, bytearray(4 + tag)), ValueError, f"buffer must be {3 + tag} bytes"),
        (lambda: cipher.decrypt_into(NONCE, sealed, None, bytearray(4)), ValueError, "buffer must be 3 bytes"),
        (lambda: cipher.decrypt_into(NONCE, sealed, None, memoryview(bytearray(6))[::2]), BufferError, "not C-contiguous"),
        (lambda: cipher.encrypt_into(NONCE, b"abc", None, None), TypeError, "argument 'buf'"),
        # Too short to hold a tag: a rejection, as pyca.
        (lambda: cipher.decrypt(NONCE, bytes(tag - 1), None), InvalidTag, ""),
        (lambda: cipher.decrypt(NONCE, b"", None), InvalidTag, ""),
    ]
    for call, kind, message in cases:
        raised, text = error(call)
        assert raised is kind, (kind, message, raised, text)
        assert message in text, (message, text)


def huge(length):
    """A bytes-like object claiming ``length`` bytes at an address that
    must never be read: only a length check before any copy survives."""
    return (ctypes.c_ubyte * length).from_address(4096)


def test_limits_are_checked_before_any_byte_is_read(instance):
    cipher = instance(KEY)
    tag = instance.TAG_SIZE
    limit = 2**50 - 1
    message = "Data or associated data too long. Max 2**50 - 1 bytes"
    cases = [
        lambda: cipher.encrypt(NONCE, huge(limit + 1), None),
        lambda: cipher.encrypt(NONCE, b"", huge(limit + 1)),
        lambda: cipher.decrypt(NONCE, huge(limit + 1 + tag), None),
        lambda: cipher.decrypt(NONCE, bytes(tag), huge(limit + 1)),
        lambda: cipher.encrypt_into(NONCE, huge(limit + 1), None, bytearray(1)),
        lambda: cipher.decrypt_into(NONCE, huge(limit + 1 + tag), None, bytearray(1)),
        lambda: instance.seal_many([(cipher, NONCE, huge(limit + 1), None)]),
        lambda: instance.open_many([(cipher, NONCE, bytes(tag), huge(limit + 1))]),
    ]
    for call in cases:
        raised, text = error(call)
        assert raised is OverflowError and message in text, (raised, text)
    # At the limit, the sizes are checked next: the buffer's, before any
    # byte of the data is read.
    raised, text = error(
        lambda: cipher.encrypt_into(NONCE, huge(limit), None, bytearray(1))
    )
    assert raised is ValueError and f"buffer must be {limit + tag} bytes" in text


def progress_during(call):
    """Runs ``call`` in a thread; returns how many times this thread ran
    Python code strictly between the call's start and its end."""
    window, stamps = [], []
    started = threading.Event()

    def run():
        started.set()
        window.append(time.perf_counter())
        call()
        window.append(time.perf_counter())

    thread = threading.Thread(target=run)
    thread.start()
    started.wait()
    while thread.is_alive():
        stamps.append(time.perf_counter())
    thread.join()
    start, end = window
    return sum(start < stamp < end for stamp in stamps)


def released(call, attempts=5):
    """Whether this thread ran Python code during some call of ``call``.
    While the GIL is held that never happens, so one attempt with progress
    proves it released; several, because on a loaded machine the OS may
    not run this thread within one call's window."""
    return any(progress_during(call) > 0 for _ in range(attempts))


def test_gil_is_released_for_long_messages():
    cipher = Dumbo(KEY)
    long = bytes(8 << 20)
    sealed = cipher.encrypt(NONCE, long, None)
    assert released(lambda: cipher.encrypt(NONCE, long, None))
    assert released(lambda: cipher.decrypt(NONCE, sealed, None))
    buf = bytearray(len(long))
    assert released(lambda: cipher.decrypt_into(NONCE, sealed, None, buf))
    assert buf == long
    packets = [(cipher, NONCE, bytes(4096), None)] * 2048
    assert released(lambda: Dumbo.seal_many(packets))
