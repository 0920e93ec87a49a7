"""``smartmat hub serve``: the hub's tournament (``service.hub``) with its pages on the web server.

The command is declared with the hub's other commands (``service/hub/cli.py``); it is put together here,
in the composition root, because it starts the web server (``web_dashboard``), which nothing below the root
imports. The hub's pages are served alone, without a table, on their own port.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

from service.hub import cli as hub_cli
from service.hub.address import ANY, AddressError, public_url, table_links
from service.hub.feed import HubFeed
from service.hub.hub import Hub
from service.hub.store import HubStore, HubStoreError
from service.publish.broker_url import BrokerUrlError
from service.publish.paho_transport import PahoTransport, unguessable_client_id
from web_dashboard.hub import create_hub_app
from web_dashboard.server import serve_hub


def register_cli(subparsers: Any) -> None:
    """``smartmat hub …``: the hub's commands, `serve` among them."""
    hub_cli.register_cli(subparsers, serve=serve)


def serve(args: argparse.Namespace) -> int:
    try:
        public = public_url(args.host, args.port, args.public_url or None)
        links = table_links(args.table_link)
        hub = Hub(HubStore(args.db))
        transport = PahoTransport(args.broker, unguessable_client_id("smartmat-hub"), keepalive_s=15)
    except (HubStoreError, BrokerUrlError, AddressError) as exc:
        print(f"smartmat hub: {exc}", file=sys.stderr)
        return 1
    feed = HubFeed(hub, transport)
    app = create_hub_app(hub, table_urls=links, table_url_template=args.table_url or None, public_url=public)
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    feed.start()
    server = serve_hub(app, args.host, args.port)
    if not args.port:  # a port the system chose: the address says which
        public = public_url(args.host, server.port, args.public_url or None)
        app.config["HUB_PUBLIC_URL"] = public
    print(f"hub: overview {public}/hub/  standings {public}/hub/standings  (Ctrl-C stops)")
    if args.host in ANY:
        print(f"     listening on every interface, port {server.port}")
    try:
        stop.wait()
    finally:
        server.stop()
        feed.stop()
        hub.store.close()
    return 0
