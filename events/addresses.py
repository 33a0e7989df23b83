"""The addresses at which phones in the hall can reach this computer: its non-loopback IPv4
addresses, read from its own network interfaces. Nothing is sent to find them.

Three readers, merged, each allowed to find nothing: ``ip -4 -o addr`` (Linux), ``ifconfig``
(macOS, BSD) and the address the system would send from towards the outside world — a UDP
socket that is only ``connect()``-ed, never written to, so the kernel picks a route and a
source address and no packet leaves (Windows has neither command). The host name is not
resolved: that could ask a DNS server.
"""

import ipaddress
import re
import shutil
import socket
import subprocess
import time
from urllib.parse import urlsplit

#: Interfaces of containers and virtual machines on this computer: a phone cannot reach them.
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "cni", "flannel")
#: A documentation address (TEST-NET-2, RFC 5737): only a route is looked up towards it.
_ROUTE_PROBE = ("198.51.100.1", 9)
_TIMEOUT_S = 2.0
#: The pages that warn read the interfaces once in this long (the Wi-Fi may change).
CACHE_S = 30.0

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def usable(address: str) -> bool:
    """An IPv4 address a phone on the same network could use: not loopback, link-local
    (169.254.*: no DHCP answered), unspecified, multicast or reserved."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (
        ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast or ip.is_reserved
    )


def _run(cmd: list[str]) -> str:
    if shutil.which(cmd[0]) is None:
        return ""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def _from_ip() -> list[str]:
    # «2: wlan0    inet 192.168.1.5/24 brd 192.168.1.255 scope global dynamic wlan0 …»
    found = []
    for line in _run(["ip", "-4", "-o", "addr", "show", "up"]).splitlines():
        match = re.match(r"\s*\d+:\s+(\S+)\s+inet\s+([\d.]+)/", line)
        if match and not match.group(1).startswith(VIRTUAL_PREFIXES):
            found.append(match.group(2))
    return found


def _from_ifconfig() -> list[str]:
    # «en0: flags=8863<UP,…> mtu 1500» then «\tinet 192.168.1.5 netmask 0xffffff00 …»
    found, name = [], ""
    for line in _run(["ifconfig"]).splitlines():
        head = re.match(r"(\S+?):?\s", line)
        if head and not line[:1].isspace():
            name = head.group(1)
        match = re.match(r"\s+inet\s+(?:addr:)?([\d.]+)", line)
        if match and not name.startswith(VIRTUAL_PREFIXES):
            found.append(match.group(1))
    return found


def _from_route() -> list[str]:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)  # UDP: a route is chosen, nothing is sent
            return [probe.getsockname()[0]]
    except OSError:  # no network at all
        return []


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses a phone on its network may use, the one of the default
    route first, each once; empty when it is on no network."""
    route = _from_route()
    listed = _from_ip() or _from_ifconfig()
    if listed:  # an interface the lists leave out (a virtual one) is not the hall's
        route = [address for address in route if address in listed]
    found = []
    for address in route + listed:
        if usable(address) and address not in found:
            found.append(address)
    return found


_cache: tuple[float, list[str]] = (0.0, [])


def lan_addresses_cached() -> list[str]:
    """:func:`lan_addresses`, read again at most every :data:`CACHE_S` seconds."""
    global _cache
    now = time.monotonic()
    if not _cache[0] or now - _cache[0] > CACHE_S:
        _cache = (now, lan_addresses())
    return list(_cache[1])


def is_loopback(host: str) -> bool:
    """Whether an address (a host name or IP, with or without IPv6 brackets) is one only this
    computer can open: 127.*, ::1, localhost, or the unspecified 0.0.0.0 / ::."""
    host = (host or "").strip().strip("[]").lower().rstrip(".")
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def is_ip_or_localhost(host: str) -> bool:
    host = host.strip().strip("[]")
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def listens_everywhere(host: str) -> bool:
    return host.strip().strip("[]") in ("0.0.0.0", "::")  # noqa: S104 - a host to listen on


def url_host(url: str) -> str:
    """The host of an absolute address, IPv6 without its brackets."""
    return urlsplit(url).hostname or ""


def host_name(address: str) -> str:
    """The address as a request's Host names it (and ALLOWED_HOSTS lists it): IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def hall_url(address: str, port: int | None, path: str = "/") -> str:
    """«http://192.168.1.5:8000/» — the address as the director types it on a phone (no
    port: 80)."""
    return f"http://{host_name(address)}{f':{port}' if port and port != 80 else ''}{path}"
