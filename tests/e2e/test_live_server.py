"""The browser tests' live server closes every response body, even one whose connection the
browser reset just after the last byte (werkzeug's own handler then skips the close, and the open
static file failed a later test with its ResourceWarning)."""

from __future__ import annotations

import socket
import struct
import threading
from pathlib import Path
from typing import Any

from werkzeug.wsgi import wrap_file

from tests.e2e.conftest import LiveServer

ATTEMPTS = 20


def _file_app(path: Path, opened: list[Any]) -> Any:
    def app(environ: dict[str, Any], start_response: Any) -> Any:
        handle = path.open("rb")
        opened.append(handle)
        start_response("200 OK", [("Content-Length", str(path.stat().st_size))])
        return wrap_file(environ, handle)

    return app


def _get_then_reset(port: int) -> None:
    """Ask, read the answer's first bytes, then close with a reset (SO_LINGER 0), as Chromium
    does when a page goes away while it still holds a connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        client.sendall(b"GET /icon.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert client.recv(64).startswith(b"HTTP/1.1 200")
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def test_a_body_is_closed_when_the_browser_resets_the_connection(tmp_path: Path) -> None:
    icon = tmp_path / "icon.png"
    icon.write_bytes(b"\x89PNG" + b"\0" * 2000)
    opened: list[Any] = []
    server = LiveServer(_file_app(icon, opened))
    try:
        for _ in range(ATTEMPTS):
            _get_then_reset(server.port)
        settled = threading.Event()
        for _ in range(100):  # up to 5 s for the last handler thread to finish
            if len(opened) == ATTEMPTS and all(handle.closed for handle in opened):
                break
            settled.wait(0.05)
        unclosed = sum(not handle.closed for handle in opened)
        assert len(opened) == ATTEMPTS
        assert unclosed == 0, f"{unclosed} of {ATTEMPTS} response files left open"
    finally:
        server.stop()
        for handle in opened:
            handle.close()


def test_a_body_being_sent_keeps_the_server_busy(tmp_path: Path) -> None:
    """stop() waits while the server is answering: that must last until the body is closed, not
    end when the app returns the body it has yet to send."""
    release = threading.Event()

    def slow_body() -> Any:
        yield b"first"
        release.wait(30)
        yield b"last"

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        start_response("200 OK", [("Content-Length", "9")])
        return slow_body()

    server = LiveServer(app)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as client:
            client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            received = b""
            while b"first" not in received:
                chunk = client.recv(256)
                assert chunk, "the connection closed before the body's first part"
                received += chunk
            assert server.answering == 1
            release.set()
            while not received.endswith(b"last"):
                chunk = client.recv(256)
                assert chunk, "the connection closed before the body's end"
                received += chunk
    finally:
        release.set()
        server.stop()
    assert server.answering == 0
