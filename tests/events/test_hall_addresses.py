"""Phones in the hall (issue 21, finding 3): this computer's addresses are read from its own
interfaces without sending anything; `manage.py serve` with HOST prints them as the phones'
addresses (or says that 127.0.0.1 is out of their reach) and lets its web server allow them;
SITE_URL's host is an allowed host (settings read in a fresh process)."""

import ipaddress
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from events import addresses
from events.management.commands import serve

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def nothing_sent(monkeypatch):
    """Any packet sent, any TCP connection and any name looked up fails the test; the
    commands run are recorded."""

    def refuse(*args, **kwargs):
        raise AssertionError("the address listing sent something")

    real_connect = socket.socket.connect

    def connect(sock, address):
        assert sock.type == socket.SOCK_DGRAM, "a TCP connect sends a packet"
        return real_connect(sock, address)

    for name in ("send", "sendto", "sendall", "sendmsg"):
        monkeypatch.setattr(socket.socket, name, refuse)
    monkeypatch.setattr(socket.socket, "connect", connect)
    for name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr"):
        monkeypatch.setattr(socket, name, refuse)
    commands = []
    real_run = subprocess.run

    def run(cmd, *args, **kwargs):
        commands.append(cmd[0])
        assert cmd[0] in ("ip", "ifconfig"), cmd
        return real_run(cmd, *args, **kwargs)

    monkeypatch.setattr(subprocess, "run", run)
    return commands


def test_the_listing_reads_the_interfaces_and_gives_non_loopback_ipv4_or_nothing(nothing_sent):
    found = addresses.lan_addresses()
    assert isinstance(found, list) and len(found) == len(set(found))
    for address in found:
        ip = ipaddress.IPv4Address(address)  # a well-formed IPv4 address
        assert str(ip) == address
        assert not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified
    # What `ip` (or `ifconfig`) lists of this machine is found, virtual bridges aside.
    listed = [a for a in addresses._from_ip() or addresses._from_ifconfig() if addresses.usable(a)]
    assert set(listed) <= set(found)


def test_the_listing_parses_ip_and_ifconfig_and_leaves_out_loopback_and_containers(monkeypatch):
    ip_out = (
        "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever\n"
        "3: wlan0    inet 192.168.1.5/24 brd 192.168.1.255 scope global dynamic wlan0\\ x\n"
        "4: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\ x\n"
        "5: eth1    inet 169.254.3.4/16 scope link eth1\\ x\n"
    )
    ifconfig_out = (
        "lo0: flags=8049<UP,LOOPBACK,RUNNING,MULTICAST> mtu 16384\n"
        "\tinet 127.0.0.1 netmask 0xff000000\n"
        "en0: flags=8863<UP,BROADCAST,SMART,RUNNING> mtu 1500\n"
        "\tinet 10.0.0.7 netmask 0xffffff00 broadcast 10.0.0.255\n"
        "vboxnet0: flags=8943<UP> mtu 1500\n\tinet 192.168.56.1 netmask 0xffffff00\n"
    )
    outputs = {"ip": ip_out, "ifconfig": ifconfig_out}
    monkeypatch.setattr(addresses, "_run", lambda cmd: outputs[cmd[0]])
    monkeypatch.setattr(addresses, "_from_route", lambda: ["192.168.1.5"])
    assert addresses.lan_addresses() == ["192.168.1.5"]
    outputs["ip"] = ""  # macOS: no `ip`
    monkeypatch.setattr(addresses, "_from_route", lambda: ["10.0.0.7"])
    assert addresses.lan_addresses() == ["10.0.0.7"]
    outputs["ifconfig"] = ""  # Windows: only the default route's address
    assert addresses.lan_addresses() == ["10.0.0.7"]
    monkeypatch.setattr(addresses, "_from_route", lambda: [])  # on no network at all
    assert addresses.lan_addresses() == []


@pytest.mark.parametrize(
    "host, loopback",
    [("127.0.0.1", True), ("127.0.1.1", True), ("localhost", True), ("[::1]", True)]
    + [("::1", True), ("0.0.0.0", True), ("192.168.1.5", False), ("preference.example", False)],
)
def test_loopback_addresses_are_told_apart(host, loopback):
    assert addresses.is_loopback(host) is loopback


def _serve_addresses(**env) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("HOST", "SITE_URL", "ALLOWED_HOSTS", "SERVE_HOSTS")
    }
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "manage.py", "serve", "--addresses", "--port", "8123"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_serve_on_every_interface_prints_the_phones_addresses():
    result = _serve_addresses(HOST="0.0.0.0")
    assert result.returncode == 0, result.stderr
    found = addresses.lan_addresses()
    if found:
        assert "Phones on the same Wi-Fi open it at:" in result.stdout
        for address in found:
            assert f"http://{address}:8123/" in result.stdout
        assert "sudo ufw allow 8123/tcp" in result.stdout
    else:
        assert "this computer has no network address" in result.stdout
    assert "127.0.0.1:8123" not in result.stdout.split("open it at:")[-1]


def test_serve_on_loopback_says_phones_cannot_reach_it_and_how_to_open_it():
    result = _serve_addresses(HOST="127.0.0.1")
    assert result.returncode == 0, result.stderr
    assert "Phones cannot reach http://127.0.0.1:8123/" in result.stdout
    assert "HOST=0.0.0.0 make run" in result.stdout
    assert "Phones on the same Wi-Fi" not in result.stdout


def test_serve_refuses_a_host_that_is_not_an_address():
    result = _serve_addresses(HOST="my-laptop")
    assert result.returncode != 0 and "HOST must be an IP address" in result.stderr


def test_serve_lets_its_web_server_allow_the_addresses_it_printed_unless_allowed_hosts_is_set():
    assert serve.phone_addresses("0.0.0.0") == addresses.lan_addresses()
    assert serve.phone_addresses("127.0.0.1") == []
    assert serve.phone_addresses("192.168.1.5") == ["192.168.1.5"]
    environ = {}
    serve.allow_phones(["192.168.1.5", "10.0.0.7"], environ)
    assert environ == {"SERVE_HOSTS": "192.168.1.5,10.0.0.7"}
    environ = {"ALLOWED_HOSTS": "preference.example", "SERVE_HOSTS": "stale"}
    serve.allow_phones(["192.168.1.5"], environ)
    assert environ == {"ALLOWED_HOSTS": "preference.example"}


DUMP = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({"hosts": s.ALLOWED_HOSTS, "site_url": getattr(s, "SITE_URL", "unset")}))
"""


def _settings(**env) -> subprocess.CompletedProcess:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("SITE_URL", "ALLOWED_HOSTS", "SERVE_HOSTS")
    }
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", DUMP], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_site_url_is_an_allowed_host_beside_the_defaults_or_the_set_ones():
    found = json.loads(_settings(SITE_URL="http://192.168.1.5:8000/").stdout)
    assert found["site_url"] == "http://192.168.1.5:8000"
    assert {"127.0.0.1", "localhost", "192.168.1.5"} <= set(found["hosts"])
    found = json.loads(
        _settings(SITE_URL="https://preference.example", ALLOWED_HOSTS="10.0.0.7").stdout
    )
    assert found["hosts"] == ["10.0.0.7", "preference.example"]
    assert json.loads(_settings().stdout) == {
        "hosts": ["127.0.0.1", "localhost", "[::1]"],
        "site_url": None,
    }


def test_the_addresses_serve_passes_on_are_allowed_unless_allowed_hosts_is_set():
    hosts = json.loads(_settings(SERVE_HOSTS="192.168.1.5,10.0.0.7").stdout)["hosts"]
    assert {"127.0.0.1", "192.168.1.5", "10.0.0.7"} <= set(hosts)
    found = json.loads(_settings(SERVE_HOSTS="192.168.1.5", ALLOWED_HOSTS="a.example").stdout)
    assert found["hosts"] == ["a.example"]


@pytest.mark.parametrize("bad", ["ftp://192.168.1.5", "http://192.168.1.5:8000/p/", "http://"])
def test_a_bad_site_url_stops_the_start_naming_it(bad):
    result = _settings(SITE_URL=bad)
    assert result.returncode != 0
    assert "ImproperlyConfiguredEnv: SITE_URL" in result.stderr  # the settings' own error
