"""Elephant v2 authenticated encryption (Dumbo, Jumbo, Delirium), shaped
like pyca/cryptography's AEAD classes."""

import sys
from collections.abc import Iterable
from typing import ClassVar, Final, Generic, Optional, TypeVar

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

__version__: Final[str]

#: Messages (with their associated data) from this many bytes on are
#: processed with the GIL released.
RELEASE_GIL_FROM: Final[int]

class InvalidTag(Exception):
    """Raised by ``decrypt`` and ``decrypt_into`` when the tag does not
    match the nonce, data and associated data (a forged or corrupted
    message, or the wrong key), or the data is shorter than a tag. Nothing
    is decrypted then."""

_C = TypeVar("_C", "Dumbo", "Jumbo", "Delirium")

#: One packet of ``seal_many``/``open_many``: ``(cipher, nonce, data,
#: associated_data)``.
Packet = tuple[_C, Buffer, Buffer, Optional[Buffer]]

class _Elephant(Generic[_C]):
    KEY_SIZE: ClassVar[int]
    """Key size in bytes: 16."""
    NONCE_SIZE: ClassVar[int]
    """Nonce size in bytes: 12."""
    TAG_SIZE: ClassVar[int]
    """Tag size in bytes: 8 for Dumbo and Jumbo, 16 for Delirium."""

    def __init__(self, key: Buffer) -> None:
        """The cipher for ``key``, 16 bytes (``ValueError`` otherwise)."""

    @staticmethod
    def generate_key() -> bytes:
        """A new random 16-byte key from the operating system."""

    def encrypt(
        self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]
    ) -> bytes:
        """The ciphertext of ``data`` followed by its ``TAG_SIZE``-byte tag.
        ``nonce`` is 12 bytes and must never repeat under one key."""

    def decrypt(
        self, nonce: Buffer, data: Buffer, associated_data: Optional[Buffer]
    ) -> bytes:
        """The plaintext of ``data`` (ciphertext then tag); raises
        ``InvalidTag`` if the tag does not match."""

    def encrypt_into(
        self,
        nonce: Buffer,
        data: Buffer,
        associated_data: Optional[Buffer],
        buf: Buffer,
    ) -> int:
        """As ``encrypt``, into ``buf`` (writable, exactly
        ``len(data) + TAG_SIZE`` bytes); returns the bytes written."""

    def decrypt_into(
        self,
        nonce: Buffer,
        data: Buffer,
        associated_data: Optional[Buffer],
        buf: Buffer,
    ) -> int:
        """As ``decrypt``, into ``buf`` (writable, exactly
        ``len(data) - TAG_SIZE`` bytes); returns the bytes written. On
        ``InvalidTag``, ``buf`` is left as it was."""

    @staticmethod
    def seal_many(packets: Iterable[Packet[_C]]) -> list[bytes]:
        """``encrypt`` for every ``(cipher, nonce, data, associated_data)``
        packet, in one call whose permutations run in shared batches."""

    @staticmethod
    def open_many(packets: Iterable[Packet[_C]]) -> list[Optional[bytes]]:
        """``decrypt`` for every packet in one call: each plaintext, or
        ``None`` for a packet whose tag does not match."""

class Dumbo(_Elephant["Dumbo"]):
    """Dumbo: Elephant v2 over Spongent-π[160], the primary member; 8-byte
    tags."""

class Jumbo(_Elephant["Jumbo"]):
    """Jumbo: Elephant v2 over Spongent-π[176]; 8-byte tags."""

class Delirium(_Elephant["Delirium"]):
    """Delirium: Elephant v2 over Keccak-f[200], the fastest; 16-byte tags."""
