"""``python -m scorekeeper``: serve the app with waitress (what ``make run`` starts)."""

from __future__ import annotations

import argparse
import logging

from waitress import serve

from scorekeeper import create_app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve scorekeeper with waitress.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
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
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    app = create_app()
    print(f"scorekeeper is running at http://{args.host}:{args.port}/  (Ctrl+C stops it)")
    serve(
        app,
        host=args.host,
        port=args.port,
        threads=args.threads,
        connection_limit=args.connection_limit,
        ident="scorekeeper",
    )


if __name__ == "__main__":
    main()
