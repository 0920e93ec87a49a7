"""What the table publishes, and when: the state snapshot, the game's events, the board, the last shot.

The state goes out after every record and whenever something the pages show beside the game changes (a set-up
desk's view, the mat's link, a tag no disc carries); the board after every record and every scan at rest; the
last shot's status only when the fold's ``last_shot`` changes. The daemon calls these from the game thread.
"""

from __future__ import annotations

from typing import Any

from service.daemon.camera_link import CameraLink
from service.daemon.mat_link import MatLink
from service.daemon.shots import Pieces
from service.mat.geometry import MatConfig
from service.publish.publisher import TablePublisher
from service.table.board_view import board_payload, obstacles_for_pages
from service.table.commands.wizard import tracker_view
from service.table.config import TableConfig
from service.table.session import TableSession
from service.table.trackers import TrackerConfig


class TableView:
    def __init__(
        self,
        publisher: TablePublisher,
        table: TableConfig,
        session: TableSession,
        mat: MatConfig,
        link: MatLink,
        pieces: Pieces,
        trackers: tuple[TrackerConfig, ...],
    ) -> None:
        self.publisher, self.table, self.session, self.mat = publisher, table, session, mat
        self.link, self.pieces, self.trackers = link, pieces, trackers
        self._unknown_published: frozenset[bytes] = frozenset()
        self._link_published: bool | None = None
        self._shot_published = session.last_shot
        self.camera: CameraLink | None = None  # the overhead camera, when the table has one
        self._camera_published = -1

    def all(self) -> None:
        self.state()
        self.board()

    def after_record(self, events: list[dict[str, Any]], seq: int) -> None:
        for event in events:
            self.publisher.publish_event(event, seq)
        self.state()
        self.board()
        self.shot(seq)

    def state(self) -> None:
        snapshot = self.session.snapshot()
        snapshot["calibration"] = self.link.calibration_desk.view()
        snapshot["enrolment"] = self.link.enrolment_desk.view()
        # Tags seen on the mat that no disc carries: what the referee picks from when a disc was swapped.
        self._unknown_published = self.table.registry.unknown_uids
        self._link_published = self.link.read
        snapshot["health"] = {
            "serial_link": self._link_published,
            "mqtt": self.publisher.connected,
            "journal": self.link.refused is None,
        }
        tracker_view(self.trackers, self.session, snapshot)
        if self.camera is not None:
            self._camera_published = self.camera.changed
            snapshot["camera"] = self.camera.view(sorted(p.piece for p in self.table.registry.pieces))
        snapshot["unknown_tags"] = sorted(uid.hex() for uid in self._unknown_published)
        self.publisher.publish_state(snapshot, self.session.seq)

    def link_changed(self) -> bool:
        """The mat's link came or went since the state was last published (the set-up health check)."""
        camera = self.camera is not None and self.camera.changed != self._camera_published
        return camera or self.link.read != self._link_published

    def board_updated(self) -> None:
        """A scan at rest: the board, and the state too when a tag no disc carries appeared or went."""
        self.board()
        if self.table.registry.unknown_uids != self._unknown_published:
            self.state()  # the referee may swap it in

    def shot(self, seq: int) -> None:
        """The last shot's status follows the log's fold (TableSession.last_shot): sent when it changes."""
        shot = self.session.last_shot
        if shot is not None and shot != self._shot_published:
            self.publisher.publish_shot(shot, seq)
        self._shot_published = shot

    def board(self) -> None:
        board = board_payload(
            self.link.last_board,
            self.table.registry,
            self.session.discs,
            self.pieces.side_of,
            self.pieces.radius,
            self.link.capabilities,
            (self.mat.width_mm, self.mat.height_mm),
            obstacles_for_pages(self.table.obstacles, self.mat.obstacles),
        )
        self.publisher.publish_board(board, self.session.seq)
