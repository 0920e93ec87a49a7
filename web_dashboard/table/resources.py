"""The per-app resources every blueprint uses, kept at ``app.extensions["smartmat"]``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, cast

from flask import Flask, current_app

from web_dashboard.security import LoginLimiter
from web_dashboard.table.commands import CommandChannel
from web_dashboard.table.table_feed import TableFeed

if TYPE_CHECKING:
    from web_dashboard.table.camera_views import CameraViews


class Closable(Protocol):
    def close(self) -> None: ...


@dataclass
class Dashboard:
    table: str
    feed: TableFeed
    commands: CommandChannel
    limiter: LoginLimiter
    pin_hash: str | None
    closers: list[Closable] = field(default_factory=list)
    camera_views: CameraViews | None = None  # the calibrate page's camera step (camera_view.py)

    def close(self) -> None:
        self.feed.close()
        for closer in self.closers:
            closer.close()


def dashboard_of(app: Flask) -> Dashboard:
    return cast(Dashboard, app.extensions["smartmat"])


def current_dashboard() -> Dashboard:
    return dashboard_of(current_app)
