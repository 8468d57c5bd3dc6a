"""This machine's address on the local network, found without sending anything off it.

Connecting a UDP socket sends no packet: the kernel only picks the route, and with it the
source address it would use, which ``getsockname`` reports. The destinations asked about are
private-range addresses, so the answer is the address of the interface towards the local
network (or the default route). When no route answers, the interfaces are listed instead
(Linux). No DNS lookup, no packet: nothing leaves the machine.
"""

from __future__ import annotations

import ipaddress
import socket
import struct

# Private ranges (RFC 1918): connect() to them only consults the routing table.
PROBES = ("10.255.255.254", "172.31.255.254", "192.168.255.254")
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0"})


def usable(address: str) -> bool:
    """An IPv4 address phones on the same network could reach: not loopback, link-local or unspecified."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def route_address(probe: str) -> str | None:
    """The source address the kernel would use towards ``probe`` (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            return s.getsockname()[0]
    except OSError:
        return None


def interface_addresses() -> list[str]:
    """Every interface's IPv4 address (Linux: SIOCGIFADDR); empty elsewhere."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not Unix
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
            except OSError:
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network, or None when it has only loopback."""
    for probe in PROBES:
        address = route_address(probe)
        if address and usable(address):
            return address
    return next((a for a in interface_addresses() if usable(a)), None)


def is_loopback_host(name: str) -> bool:
    """Whether a request's host name (no port) means this machine only: localhost, 127.x, ::1."""
    name = name.lower().rstrip(".")
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


if __name__ == "__main__":  # pragma: no cover - `python -m config.lan`
    print(lan_address() or "")
