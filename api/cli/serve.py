"""`mjscan serve`: the HTTP API and the web page for use at the table.

mjscan serve                                  # http://127.0.0.1:8000, this computer only
mjscan serve --host 0.0.0.0 --port 8000       # reachable from a phone on the same network (no login!)
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--max-upload-mb", type=float, default=20.0, help="largest upload accepted, in MB (default 20)")
    p.add_argument(
        "--max-pixels",
        type=int,
        help="largest picture decoded, in pixels (default: the photo reader's limit, 50 million); "
        "guards against decompression bombs",
    )
    p.add_argument("--workers", type=int, help="photos recognised at the same time (default 2)")
    p.add_argument("--model-dir", type=Path, help="folder of the tile model (default: the models/ that ships)")
    p.add_argument(
        "--ssl-certfile", type=Path, help="TLS certificate (PEM): serve https, needed for offline use on a phone"
    )
    p.add_argument("--ssl-keyfile", type=Path, help="TLS private key (PEM) of --ssl-certfile")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])


def run(args: argparse.Namespace) -> int:
    problem = _check(args)
    if problem:
        print(f"mjscan serve: {problem}", file=sys.stderr)
        return 2
    import uvicorn

    from api.app import create_app
    from api.routers.deps import Settings

    given = {"max_pixels": args.max_pixels, "workers": args.workers, "model_dir": args.model_dir}
    settings = Settings(
        max_upload_bytes=int(args.max_upload_mb * 2**20), **{k: v for k, v in given.items() if v is not None}
    )
    if not is_loopback(args.host):
        print(
            f"mjscan serve: listening on {args.host}: anyone who can reach this computer on port {args.port} can "
            "use the API (there is no login). Use it on a network you trust only.",
            file=sys.stderr,
        )
    scheme = "https" if args.ssl_certfile else "http"
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"mjscan serve: the page is at {scheme}://{shown}:{args.port}/  (Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ssl_certfile=str(args.ssl_certfile) if args.ssl_certfile else None,
        ssl_keyfile=str(args.ssl_keyfile) if args.ssl_keyfile else None,
    )
    return 0


def _check(args: argparse.Namespace) -> str | None:
    """What is wrong with the options, in words, or None."""
    if not 0 < args.port < 65536:
        return f"--port must be 1-65535, not {args.port}"
    if args.max_upload_mb <= 0:
        return "--max-upload-mb must be more than 0"
    if args.max_pixels is not None and args.max_pixels <= 0:
        return "--max-pixels must be more than 0"
    if args.workers is not None and args.workers < 1:
        return "--workers must be at least 1"
    if bool(args.ssl_certfile) != bool(args.ssl_keyfile):
        return "--ssl-certfile and --ssl-keyfile go together"
    for path in (args.ssl_certfile, args.ssl_keyfile, args.model_dir):
        if path is not None and not path.exists():
            return f"{path}: no such file or folder"
    try:
        with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((args.host, args.port))
    except OSError as exc:
        return f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}"
    return None


def is_loopback(host: str) -> bool:
    """True for an address (or the name localhost) that only this computer can reach."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
