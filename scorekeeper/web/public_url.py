"""Where phones reach the app: the address every absolute link and QR code carries.

A share link, a members' link or a QR code is read on another phone, so it must carry an
address that phone can open, and never one an outsider chose. The ``Host`` header is the
client's word, so it is used only when it names this server:

1. ``PUBLIC_URL`` when set (``https://scores.example.org``; ``python -m scorekeeper --lan`` sets
   it to this machine's address on the local network), as Flask's ``SERVER_NAME`` and
   ``PREFERRED_URL_SCHEME``;
2. otherwise the request's host when it is trusted: one of ``TRUSTED_HOSTS`` (Flask's own
   setting: it refuses every other ``Host`` with 400), or, without that list, a loopback name or
   address, one of this machine's own addresses, or its host name;
3. otherwise this machine's address on the local network (or 127.0.0.1) with the port the
   server listens on, and a warning in the log once, saying which setting to make.

Everything else is Flask's ``url_for`` (and werkzeug's ProxyFix behind TRUSTED_PROXIES); the
request itself keeps its Host.
"""

from __future__ import annotations

import fcntl
import ipaddress
import logging
import re
import socket
import struct
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from flask import Flask
from werkzeug.routing import Map, MapAdapter
from werkzeug.wsgi import get_host

log = logging.getLogger(__name__)

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
# Interfaces of containers and virtual machines: an address there is not on the club's Wi-Fi.
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "lxcbr", "cni", "tun")


class Interface(NamedTuple):
    """One IPv4 address of this machine, on the interface ``name``; ``default_route`` when the
    machine's default route leaves through that interface (the way to the Wi-Fi's router)."""

    name: str
    address: str
    default_route: bool = False


def choose_lan_address(interfaces: Iterable[Interface]) -> str | None:
    """The address other phones on the local network should open, or None.

    Loopback, link-local (169.254.x.x: no router gave an address) and unspecified addresses are
    never chosen. Among the rest, the interface of the default route first, then private
    addresses (192.168/16, 10/8, 172.16/12), then interfaces that are not a container's or a
    virtual machine's bridge; ties keep the order given."""
    candidates = []
    for position, interface in enumerate(interfaces):
        try:
            address = ipaddress.IPv4Address(interface.address)
        except ValueError:
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        if address.is_multicast:
            continue
        virtual = interface.name.startswith(VIRTUAL_PREFIXES)
        rank = (not interface.default_route, not address.is_private, virtual, position)
        candidates.append((rank, str(address)))
    return min(candidates)[1] if candidates else None


def _default_route_interfaces() -> set[str]:
    """Interfaces the default route leaves through (Linux: /proc/net/route)."""
    try:
        lines = Path("/proc/net/route").read_text().splitlines()[1:]
    except OSError:
        return set()
    return {fields[0] for fields in (line.split() for line in lines) if fields[1:2] == ["00000000"]}


def _interface_address(name: str) -> str | None:
    """The IPv4 address of interface ``name`` (Linux ioctl SIOCGIFADDR), or None."""
    siocgifaddr = 0x8915
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            request_buffer = struct.pack("256s", name[:15].encode())
            packed = fcntl.ioctl(probe.fileno(), siocgifaddr, request_buffer)
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def _routed_address() -> str | None:
    """The source address the system would use towards the internet. Connecting a UDP socket
    only looks up the route: no packet is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            return probe.getsockname()[0]
        except OSError:
            return None


def local_interfaces() -> list[Interface]:
    """This machine's IPv4 addresses, with the interface of the default route marked."""
    defaults = _default_route_interfaces()
    found: list[Interface] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        names = []
    for name in names:
        address = _interface_address(name)
        if address:
            found.append(Interface(name, address, name in defaults))
    if not found:  # not Linux: ask the routing table which address leads out
        routed = _routed_address()
        if routed:
            found.append(Interface("routed", routed, True))
    return found


@cache
def own_host_names() -> frozenset[str]:
    """Names and addresses that always mean this machine: loopback, its interfaces' addresses
    and its host name (also as ``name.local``, how phones find it by mDNS)."""
    names = set(LOOPBACK_NAMES)
    names.update(interface.address for interface in local_interfaces())
    hostname = socket.gethostname().lower()
    if hostname:
        names.update({hostname, f"{hostname}.local"})
    return frozenset(names)


def _hostname(host: str) -> str:
    """``host`` without its port; an IPv6 literal without its brackets."""
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0].lower() if host.count(":") == 1 else host.lower()


_PLAIN_HOST = re.compile(r"([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?")


def host_is_own(host: str) -> bool:
    """Whether the ``Host`` ``host`` names this machine (see :func:`own_host_names`); only a
    plain name or address with a port qualifies (no path, no user, nothing else)."""
    if not _PLAIN_HOST.fullmatch(host):
        return False
    name = _hostname(host)
    try:
        if ipaddress.ip_address(name).is_loopback:
            return True
    except ValueError:
        pass
    return name in own_host_names()


@lru_cache(maxsize=64)  # bounded: anyone can send any Host
def _warn_once(host: str) -> None:
    log.warning(
        "Links are not built on the Host %r (not one of this machine's names): set PUBLIC_URL "
        "(or TRUSTED_HOSTS) to the address phones open.",
        host,
    )


def configure(app: Flask) -> None:
    """TRUSTED_HOSTS from a comma-separated value, with loopback added: the machine itself
    (a health check, a backup script) can always ask ``localhost``. PUBLIC_URL becomes Flask's
    SERVER_NAME and PREFERRED_URL_SCHEME (:func:`use_public_url`)."""
    trusted = app.config.get("TRUSTED_HOSTS")
    if isinstance(trusted, str):
        trusted = [name.strip() for name in trusted.split(",") if name.strip()]
    if trusted:
        app.config["TRUSTED_HOSTS"] = list(dict.fromkeys([*trusted, "localhost", "127.0.0.1"]))
    else:
        app.config["TRUSTED_HOSTS"] = None
    use_public_url(app, app.config.get("PUBLIC_URL"))
    if isinstance(app.url_map, LinkMap):
        app.url_map.config = app.config


def use_public_url(app: Flask, public: str | None) -> None:
    """Set PUBLIC_URL (``https://scores.example.org``, or None): Flask builds every absolute
    link (``url_for(..., _external=True)``) with its host as ``SERVER_NAME``, and its scheme
    as ``PREFERRED_URL_SCHEME``. It must be an http(s) address without a path: a mistyped
    one would put a dead link on every printed QR code."""
    public = str(public or "").strip().rstrip("/")
    if public and not re.fullmatch(r"https?://[^/?#\s]+", public):
        raise ValueError(
            f"PUBLIC_URL must be an address like https://scores.example.org, not {public!r}"
        )
    app.config["PUBLIC_URL"] = public or None
    if public:
        scheme, host = public.split("://", 1)
        app.config.update(SERVER_NAME=host.lower(), PREFERRED_URL_SCHEME=scheme)


class LinkMap(Map):
    """werkzeug's URL map (Flask's ``url_map_class``) whose adapter for a request builds
    absolute links on an address this server may give out; routing and the request itself
    (its Host, which the CSRF check compares with the Referer) are left as they are.

    - With PUBLIC_URL, Flask passes its host (``SERVER_NAME``); links take its scheme too.
    - With TRUSTED_HOSTS, Flask has refused every other ``Host`` with 400 already.
    - Otherwise a ``Host`` that does not name this machine (:func:`host_is_own`) gives way to
      this machine's address on the local network (or 127.0.0.1) with the port the server
      listens on, and the log says once which setting to make."""

    config: Any = {}

    def bind_to_environ(  # type: ignore[override]
        self, environ: Any, server_name: str | None = None, subdomain: str | None = None
    ) -> MapAdapter:
        config = self.config
        if server_name is None and not config.get("TRUSTED_HOSTS"):
            host = get_host(environ)
            if not host_is_own(host):
                _warn_once(host[:200])
                server_name = _own_address(environ)
        adapter = super().bind_to_environ(environ, server_name=server_name, subdomain=subdomain)
        if config.get("PUBLIC_URL"):
            adapter.url_scheme = config["PREFERRED_URL_SCHEME"]
        return adapter


class App(Flask):
    """Flask with :class:`LinkMap` as its URL map (Flask's documented ``url_map_class``)."""

    url_map_class = LinkMap


def _own_address(environ: Any) -> str:
    address = choose_lan_address(local_interfaces()) or "127.0.0.1"
    port = str(environ.get("SERVER_PORT") or "")
    default_port = {"http": "80", "https": "443"}.get(environ.get("wsgi.url_scheme", "http"))
    return f"{address}:{port}" if port.isdigit() and port != default_port else address
