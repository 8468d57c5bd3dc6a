"""A local fake Web Push service for turn-notice tests: an HTTP server on 127.0.0.1 in a thread
that records what it is sent, and browser-side subscriptions with real P-256 and auth keys, so
pywebpush encrypts for real and the test decrypts what arrived (http_ece, as a browser would)."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def vapid_pair() -> tuple[str, str]:
    """(private, public) as JUNCTION_VAPID_PRIVATE_KEY / _PUBLIC_KEY hold them."""
    vapid = Vapid()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    public = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(private), b64url(public)


@dataclass
class Device:
    """A browser's push subscription: its endpoint on the fake service and its keys."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    @property
    def keys(self) -> dict[str, str]:
        return {"p256dh": self.p256dh, "auth": b64url(self.auth)}

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class FakePushService:
    """``status[path]`` answers a path (201 by default; 410 for a device the service forgot)."""

    received: list[Received] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)

    def start(self) -> FakePushService:
        service = self
        self.lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with service.lock:
                    service.received.append(Received(self.path, dict(self.headers), body))
                self.send_response(service.status.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True, name="fake-push").start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def device(self, name: str) -> Device:
        return Device(f"{self.url}/push/{name}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    def to(self, device: Device) -> list[Received]:
        with self.lock:
            return [r for r in self.received if self.url + r.path == device.endpoint]
