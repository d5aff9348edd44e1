"""A passkey authenticator in software, for tests: it answers WebAuthn options as a browser and a
platform authenticator would (ES256, ``none`` attestation), and can be told to lie: another origin,
another RP id, no user verification, a sign counter set back (a clone)."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


UP, UV, AT = 0x01, 0x04, 0x40


@dataclass
class SoftAuthenticator:
    """One discoverable credential, made by :meth:`create` and used by :meth:`get`."""

    origin: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    credential_id: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    user_handle: bytes | None = None
    rp_id: str | None = None
    counter: int = 0

    def _public_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        return cbor2.dumps(cose)

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def create(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        verified: bool = True,
    ) -> dict[str, Any]:
        """Answer ``navigator.credentials.create`` options (``publicKey``) with a new credential."""
        self.rp_id = rp_id or options["rp"]["id"]
        self.user_handle = unb64url(options["user"]["id"])
        flags = UP | AT | (UV if verified else 0)
        attested = (
            b"\0" * 16 + struct.pack(">H", len(self.credential_id)) + self.credential_id + self._public_key()
        )
        data = hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", self.counter)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data + attested})
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64url(self._client_data("webauthn.create", options["challenge"], origin)),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
        }

    def get(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        verified: bool = True,
        counter: int | None = None,
    ) -> dict[str, Any]:
        """Answer ``navigator.credentials.get`` options with this credential (its counter one up, or
        ``counter``)."""
        self.counter = self.counter + 1 if counter is None else counter
        party = rp_id or self.rp_id or options["rpId"]
        flags = UP | (UV if verified else 0)
        data = hashlib.sha256(party.encode()).digest() + bytes([flags]) + struct.pack(">I", self.counter)
        client = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64url(client),
                "authenticatorData": b64url(data),
                "signature": b64url(signature),
                "userHandle": b64url(self.user_handle or b""),
            },
        }
