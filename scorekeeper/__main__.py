"""``python -m scorekeeper``: serve the app with waitress (what ``make run`` starts).

``--lan`` serves every phone on the local network (``make lan``): it listens on all of this
machine's addresses, finds the one phones on the same Wi-Fi can open, makes it the address
links and QR codes carry (``PUBLIC_URL``, unless one is set) and prints it, also as a QR code
to scan from the terminal.

Behind a reverse proxy (``TRUSTED_PROXIES``, docs/deploying.md) waitress hands the proxy's
``X-Forwarded-*`` headers on to the app, whose ProxyFix believes as many proxies as the setting
says; without it waitress drops them, as it does by default."""

from __future__ import annotations

import argparse
import logging
import os
import sys

import segno
from waitress import serve

from scorekeeper import create_app, serving
from scorekeeper.web import public_url


def announce_lan(url: str | None, port: int) -> None:
    """Print the address phones open, and its QR code (drawn with half blocks)."""
    if url is None:
        print(
            "No network address found for this machine: is it connected to the Wi-Fi?\n"
            f"scorekeeper is listening on all its addresses, port {port}; on this machine "
            f"open http://127.0.0.1:{port}/  (Ctrl+C stops it)",
            flush=True,
        )
        return
    print(f"Phones on this network open:\n\n    {url}\n\nor scan this code:", flush=True)
    try:
        segno.make(url).terminal(compact=True)
    except UnicodeEncodeError:  # a terminal without Unicode: the address above is enough
        print("(this terminal cannot draw the code)")
    print(f"On this machine: http://127.0.0.1:{port}/  (Ctrl+C stops it)", flush=True)
    sys.stdout.flush()


def default_port() -> int:
    """SCOREKEEPER_PORT when it is set (the one port setting Caddy's files read too), else 5000."""
    value = os.environ.get("SCOREKEEPER_PORT", "")
    return int(value) if value.isdigit() else 5000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve scorekeeper with waitress.")
    parser.add_argument(
        "--lan",
        action="store_true",
        help="serve the phones on the local network: listen on every address, print the "
        "address phones open and its QR code, and put that address in share links",
    )
    parser.add_argument(
        "--host", default=None, help="address to listen on (default 127.0.0.1; 0.0.0.0 with --lan)"
    )
    parser.add_argument(
        "--port",
        type=int,
        default=default_port(),
        help="port to listen on (default 5000, or SCOREKEEPER_PORT when set); "
        "make run PORT=8080 passes it on",
    )
    parser.add_argument(
        "--threads", type=int, default=8, help="requests served at once (default 8)"
    )
    parser.add_argument(
        "--connection-limit",
        type=int,
        default=100,
        help="open connections accepted before new ones wait (default 100; polling phones "
        "each keep one)",
    )
    args = parser.parse_args(argv)
    if args.threads < 1 or args.connection_limit < 1:
        parser.error("--threads and --connection-limit take a number of at least 1")
    host = args.host or ("0.0.0.0" if args.lan else "127.0.0.1")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    app = create_app()
    if args.lan:
        if not app.config.get("PUBLIC_URL"):
            address = public_url.choose_lan_address(public_url.local_interfaces())
            if address:
                public_url.use_public_url(app, f"http://{address}:{args.port}")
        public = app.config.get("PUBLIC_URL")
        announce_lan(f"{public}/" if public else None, args.port)
    else:
        print(f"scorekeeper is running at http://{host}:{args.port}/  (Ctrl+C stops it)")
    serving.keep_for_good()
    serve(
        app,
        host=host,
        port=args.port,
        threads=args.threads,
        connection_limit=args.connection_limit,
        ident="scorekeeper",
        # Behind a trusted proxy the app's ProxyFix reads X-Forwarded-*: waitress keeps them.
        clear_untrusted_proxy_headers=not app.config.get("TRUSTED_PROXIES"),
    )


if __name__ == "__main__":
    main()
