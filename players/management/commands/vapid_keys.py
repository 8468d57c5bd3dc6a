"""Print a new VAPID key pair for Web Push turn notices, in the environment's form:

    JUNCTION_VAPID_PRIVATE_KEY=...   (the raw 32-byte P-256 private key, base64url: keep it secret)
    JUNCTION_VAPID_PUBLIC_KEY=...    (the uncompressed public point, base64url: what browsers subscribe with)

Changing the keys later makes every device subscribed under the old ones stop getting notices
until its player allows them again."""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


class Command(BaseCommand):
    help = "Print a new VAPID key pair (Web Push turn notices) as environment lines."

    def handle(self, *args, **options) -> None:
        vapid = Vapid()
        vapid.generate_keys()
        private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
        public = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.stdout.write(f"JUNCTION_VAPID_PRIVATE_KEY={b64urlencode(private)}")
        self.stdout.write(f"JUNCTION_VAPID_PUBLIC_KEY={b64urlencode(public)}")
