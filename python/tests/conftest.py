"""Shared fixtures: the three instances, and the official KAT files read
from the repository's ``kats/`` folder (a missing file fails the tests)."""

import pathlib

import pytest

import elephant_aead

#: The three classes with the name of their KAT file.
INSTANCES = {
    "dumbo": elephant_aead.Dumbo,
    "jumbo": elephant_aead.Jumbo,
    "delirium": elephant_aead.Delirium,
}

KATS = pathlib.Path(__file__).resolve().parents[2] / "kats"


def read_kats(name):
    """The entries of ``kats/<name>.txt`` as dicts of bytes (and Count)."""
    text = (KATS / f"{name}.txt").read_text()
    entries = []
    for chunk in text.split("\n\n"):
        if not chunk.strip():
            continue
        fields = {}
        for line in chunk.splitlines():
            key, _, value = line.partition("=")
            fields[key.strip()] = value.strip()
        entries.append(
            {
                "count": int(fields["Count"]),
                **{
                    name: bytes.fromhex(fields[field])
                    for name, field in [
                        ("key", "Key"),
                        ("nonce", "Nonce"),
                        ("plaintext", "PT"),
                        ("associated_data", "AD"),
                        ("ciphertext", "CT"),
                    ]
                },
            }
        )
    assert len(entries) == 1089, f"{name}.txt must hold 1089 entries"
    assert [e["count"] for e in entries] == list(range(1, 1090))
    return entries


@pytest.fixture(params=sorted(INSTANCES), ids=sorted(INSTANCES))
def instance(request):
    """Each class in turn."""
    return INSTANCES[request.param]
