"""`make host`: serve a table to the phones on this local network.

Prints the address phones open and its QR code in the terminal, then runs Daphne on every
interface with JUNCTION_HOST=1 (config/settings.py: DEBUG off, compressed static files, the LAN
address and localhost as allowed hosts, join links at the LAN address). The LAN address is found
without sending anything off this machine (config/lan.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config.lan import lan_address  # noqa: E402


def table_url(port: int, address: str | None, public: str = "") -> str | None:
    """The address phones at the table open: JUNCTION_PUBLIC_URL, else this machine's LAN address."""
    if public:
        return public.rstrip("/") + "/"
    if address is None:
        return None
    return f"http://{address}:{port}/" if port != 80 else f"http://{address}/"


def banner(url: str | None, port: int) -> str:
    if url is None:
        return (f"Junction on port {port}, but this machine has no address on a local network (only loopback):\n"
                "connect it to the table's Wi-Fi and run `make host` again.\n")
    import segno

    qr = segno.make(url, error="m")
    lines = [f"Junction is hosting on {url}  (Ctrl-C stops it)",
             "Phones on the same Wi-Fi open that address, or scan:"]
    from io import StringIO

    out = StringIO()
    qr.terminal(out=out, compact=True)
    return "\n".join(lines) + "\n" + out.getvalue() + (
        f"On this laptop: http://localhost:{port}/ (join links and QR codes still carry {url})\n"
        "Game master: /admin/ (manage.py createsuperuser once)\n")


def main() -> None:
    port = int(os.environ.get("PORT", "8000") or "8000")
    bind = os.environ.get("HOST_BIND", "0.0.0.0")
    url = table_url(port, lan_address(), os.environ.get("JUNCTION_PUBLIC_URL", ""))
    print(banner(url, port), flush=True)
    os.environ["JUNCTION_HOST"] = "1"
    daphne = str(Path(sys.executable).with_name("daphne"))
    os.execv(daphne, [daphne, "-b", bind, "-p", str(port), "config.asgi:application"])


if __name__ == "__main__":
    main()
