"""The API's shape against pyca/cryptography's ``ChaCha20Poly1305``: the
same methods with the same signatures, and the same exception types for
the same mistakes. Runs where ``cryptography`` is installed; CI installs it
and sets ELEPHANT_REQUIRE_PYCA=1, so that there it fails rather than skips."""

import inspect
import os

import pytest

try:
    from cryptography.exceptions import InvalidTag as PycaInvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
except ImportError:
    if os.environ.get("ELEPHANT_REQUIRE_PYCA") == "1":
        raise
    pytest.skip("cryptography is not installed", allow_module_level=True)

import elephant_aead

PUBLIC = ["generate_key", "encrypt", "decrypt", "encrypt_into", "decrypt_into"]


def test_pycas_methods_all_exist_with_its_signatures(instance):
    pyca = {name for name in dir(ChaCha20Poly1305) if not name.startswith("_")}
    assert pyca == set(PUBLIC), "pyca's API changed: review this package's"
    for name in PUBLIC:
        assert str(inspect.signature(getattr(instance, name))) == str(
            inspect.signature(getattr(ChaCha20Poly1305, name))
        ), name
        assert type(inspect.getattr_static(instance, name)) is type(
            inspect.getattr_static(ChaCha20Poly1305, name)
        ), name


def mistakes(cls, key_size):
    """Calls that misuse the API the same way for either class."""
    key = bytes(key_size)
    cipher = cls(key)
    nonce = bytes(12)
    sealed = cipher.encrypt(nonce, b"abc", b"ad")
    tag = len(sealed) - 3
    forged = bytes([sealed[0] ^ 1]) + sealed[1:]
    return {
        "short key": lambda: cls(key[:-1]),
        "long key": lambda: cls(key + b"\0"),
        "str key": lambda: cls("k" * key_size),
        "no key": lambda: cls(None),
        "short nonce": lambda: cipher.encrypt(nonce[:-1], b"", None),
        "long nonce": lambda: cipher.decrypt(nonce + b"\0", sealed, b"ad"),
        "str nonce": lambda: cipher.encrypt("n" * 12, b"", None),
        "str data": lambda: cipher.encrypt(nonce, "abc", None),
        "None data": lambda: cipher.encrypt(nonce, None, None),
        "int associated data": lambda: cipher.encrypt(nonce, b"", 5),
        "missing associated data": lambda: cipher.encrypt(nonce, b""),
        "strided data": lambda: cipher.encrypt(nonce, memoryview(b"abcdef")[::2], None),
        "forged": lambda: cipher.decrypt(nonce, forged, b"ad"),
        "wrong associated data": lambda: cipher.decrypt(nonce, sealed, b"AD"),
        "shorter than a tag": lambda: cipher.decrypt(nonce, bytes(tag - 1), None),
        "read-only buf": lambda: cipher.encrypt_into(nonce, b"abc", None, bytes(3 + tag)),
        "short buf": lambda: cipher.encrypt_into(nonce, b"abc", None, bytearray(2 + tag)),
        "long buf": lambda: cipher.decrypt_into(nonce, sealed, b"ad", bytearray(4)),
        "strided buf": lambda: cipher.decrypt_into(
            nonce, sealed, b"ad", memoryview(bytearray(6))[::2]
        ),
        "forged into": lambda: cipher.decrypt_into(nonce, forged, b"ad", bytearray(3)),
    }


def raised(call):
    try:
        call()
    except PycaInvalidTag:
        return "InvalidTag"
    except elephant_aead.InvalidTag:
        return "InvalidTag"
    except Exception as error:
        return type(error).__name__
    return None


def test_same_mistakes_raise_the_same_exceptions(instance):
    ours = mistakes(instance, 16)
    theirs = mistakes(ChaCha20Poly1305, 32)
    assert ours.keys() == theirs.keys()
    for name in ours:
        expected = raised(theirs[name])
        assert expected is not None, name
        assert raised(ours[name]) == expected, name


def test_same_output_layout_and_inputs(instance):
    # Ciphertext then tag, one output size rule, the same accepted inputs.
    for cls, key_size in [(instance, 16), (ChaCha20Poly1305, 32)]:
        cipher = cls(cls.generate_key())
        assert len(cls.generate_key()) == key_size
        for data in [b"", b"x" * 33, bytearray(b"y" * 7), memoryview(b"z" * 5)]:
            sealed = cipher.encrypt(bytearray(12), data, None)
            assert sealed[: len(data)] != bytes(data) or not data
            assert cipher.decrypt(memoryview(bytes(12)), sealed, None) == bytes(data)


def test_a_rejected_decrypt_into_leaves_buf_alone_unlike_pycas():
    # python/README.md documents this difference; if pyca changes, so must it.
    for cls, key_size in [(elephant_aead.Dumbo, 16), (ChaCha20Poly1305, 32)]:
        cipher = cls(bytes(key_size))
        sealed = bytearray(cipher.encrypt(bytes(12), b"abc", None))
        sealed[-1] ^= 1
        buf = bytearray(3)
        with pytest.raises((PycaInvalidTag, elephant_aead.InvalidTag)):
            cipher.decrypt_into(bytes(12), sealed, None, buf)
        if cls is elephant_aead.Dumbo:
            assert buf == bytes(3)
        else:
            assert buf == b"abc"
