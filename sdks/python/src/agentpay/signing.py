"""RSA keys and RSASSA-PKCS1-v1_5 SHA-256 signatures over the canonical string (``cryptography``)."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any, Mapping, Union

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from .canonical import canonical_string

__all__ = ["load_private_key", "load_public_key", "sign", "verify", "KeyInput"]

KeyInput = Union[str, bytes, rsa.RSAPrivateKey, rsa.RSAPublicKey]

_MIN_RSA_BITS = 2048
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")


def load_private_key(pem: KeyInput, what: str = "private_key") -> rsa.RSAPrivateKey:
    """The merchant's RSA private key (PKCS#8 or PKCS#1 PEM), checked to be RSA of 2048 bits or more."""
    if isinstance(pem, rsa.RSAPrivateKey):
        return _check(pem, what)
    data = pem.encode() if isinstance(pem, str) else pem
    if not isinstance(data, bytes) or b"PRIVATE KEY-----" not in data:
        raise ValueError(f"{what}: expected a PEM private key")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as e:
        raise ValueError(f"{what}: the PEM private key could not be read ({e})") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValueError(f"{what}: expected an RSA key")
    return _check(key, what)


def load_public_key(pem: KeyInput, what: str = "platform_public_key") -> rsa.RSAPublicKey:
    """An RSA public key (SPKI or PKCS#1 PEM), checked to be RSA of 2048 bits or more."""
    if isinstance(pem, rsa.RSAPublicKey):
        return _check(pem, what)
    data = pem.encode() if isinstance(pem, str) else pem
    if not isinstance(data, bytes) or b"PRIVATE KEY-----" in data:
        # Deriving the public half would hide a mix-up of the two keys.
        raise ValueError(f"{what}: expected a public key, got a private key")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as e:
        raise ValueError(f"{what}: the PEM public key could not be read ({e})") from None
    if not isinstance(key, rsa.RSAPublicKey):
        raise ValueError(f"{what}: expected an RSA key")
    return _check(key, what)


def sign(obj: Mapping[str, Any], private_key: rsa.RSAPrivateKey) -> str:
    """Base64 signature of the canonical string of ``obj``."""
    signature = private_key.sign(canonical_string(obj).encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
    return base64.b64encode(signature).decode("ascii")


def verify(obj: Mapping[str, Any], signature: Any, public_key: rsa.RSAPublicKey) -> bool:
    """Whether ``signature`` is a valid signature of ``obj``'s canonical string; never raises."""
    if not isinstance(signature, str) or signature == "" or not _BASE64.match(signature):
        return False
    try:
        data = canonical_string(obj).encode("utf-8")
        public_key.verify(base64.b64decode(signature, validate=True), data, padding.PKCS1v15(), hashes.SHA256())
        return True
    except (InvalidSignature, ValueError, TypeError, binascii.Error, UnicodeEncodeError):
        return False


def _check(key, what: str):
    if key.key_size < _MIN_RSA_BITS:
        raise ValueError(f"{what}: RSA-{key.key_size} is too short, at least 2048 bits")
    return key
