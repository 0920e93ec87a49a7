"""Mosquitto files for a tournament: each table's broker bridges its own topics into one central broker.

``smartmat hub bridge-config --tables t1,t2 --central-host hub.local --out DIR`` writes

    DIR/central/smartmat-hub.conf     listener, accounts, ACL, persistence (conf.d file for the hub machine)
    DIR/central/acl                   a table's account writes only under its own prefix; the hub reads all
    DIR/central/passwords             hashed (mosquitto_passwd -U): the hub's account and one per table
    DIR/tables/<t>/smartmat-bridge.conf   the table side: what is bridged, where to, with which account
    DIR/tables/<t>/acl-logship        lines to append to the table's ACL: the log shipper's account
    DIR/tables/<t>/passwords-logship  its hashed password line, to append to the table's password file
    DIR/secrets.json                  the plain passwords (mode 600), kept when the files are made again

Only what a table publishes goes out, and only the hub's catch-up requests and match offers come back:
commands never cross the bridge. The central ACL is what enforces the prefixes, so a table's bridge that was
edited by hand still cannot write another table's topics.
"""

from __future__ import annotations

import json
import os
import secrets as random_secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from service.common import schema_check
from service.hub.topics import (
    BRIDGE,
    BRIDGED_IN,
    BRIDGED_OUT,
    LOG,
    LOG_HEAD,
    LOG_REQUEST,
    MATCH,
    table_topic,
)
from service.publish.topics import ROOT, check_id

HUB_USER = "hub"
LOGSHIP_USER = "logship"


class BridgeConfigError(ValueError):
    """A table id, host or port that cannot go into the files, or mosquitto_passwd missing."""


def bridge_user(table: str) -> str:
    """The central broker's account for one table's bridge."""
    return f"bridge-{check_id(table, 'table id')}"


@dataclass(frozen=True)
class BridgePlan:
    tables: tuple[str, ...]
    central_host: str
    central_port: int = 1883
    central_bind: str | None = None  # None: every interface
    persistence_dir: str | None = None  # None: Debian's main mosquitto.conf already names it

    def __post_init__(self) -> None:
        if not self.tables:
            raise BridgeConfigError("name at least one table (--tables t1,t2,…)")
        for table in self.tables:
            check_id(table, "table id")
        if len(set(self.tables)) != len(self.tables):
            raise BridgeConfigError(f"a table is named twice in {', '.join(self.tables)}")
        if not self.central_host or any(c.isspace() for c in self.central_host):
            raise BridgeConfigError(f"central host {self.central_host!r} is empty or has a space")
        if not 0 < self.central_port < 65536:
            raise BridgeConfigError(f"central port {self.central_port} is not a TCP port")


def central_acl(tables: tuple[str, ...]) -> str:
    lines = [
        "# smartmat tournament hub: the central broker's ACL (smartmat hub bridge-config).",
        "# The hub reads every table and may only ask a table's log shipper for records it missed and",
        "# offer a table its next match (which the table's referee accepts or not).",
        f"user {HUB_USER}",
        f"topic read {ROOT}/#",
        f"topic write {ROOT}/+/{LOG_REQUEST}",
        f"topic write {ROOT}/+/{MATCH}",
        "",
    ]
    for table in tables:
        lines.append(f"# Table {table}: its bridge writes only under its own prefix.")
        lines.append(f"user {bridge_user(table)}")
        lines += [f"topic write {table_topic(table, word)}" for word in BRIDGED_OUT]
        lines.append(f"topic write {table_topic(table, BRIDGE)}")
        lines += [f"topic read {table_topic(table, word)}" for word in BRIDGED_IN]
        lines.append("")
    return "\n".join(lines)


def central_conf(plan: BridgePlan, directory: str) -> str:
    bind = f" {plan.central_bind}" if plan.central_bind else ""
    return "\n".join(
        [
            "# smartmat tournament hub: the central Mosquitto (smartmat hub bridge-config).",
            "# Install as /etc/mosquitto/conf.d/smartmat-hub.conf; docs/tournaments.md.",
            f"listener {plan.central_port}{bind}",
            "protocol mqtt",
            "allow_anonymous false",
            f"password_file {directory}/passwords",
            f"acl_file {directory}/acl",
            "# Retained table state survives a restart of the central broker. Debian's main mosquitto.conf",
            "# names persistence_location itself (Mosquitto refuses a second one).",
            "persistence true",
            *([f"persistence_location {plan.persistence_dir}"] if plan.persistence_dir else []),
            "# A table that was cut off catches up in one burst; let the hub's queue hold it.",
            "max_queued_messages 20000",
            "",
        ]
    )


def table_bridge_conf(plan: BridgePlan, table: str, password: str) -> str:
    if "\n" in password or " " in password:
        raise BridgeConfigError("a bridge password must be one word")
    lines = [
        f"# smartmat table {table}: bridge to the tournament hub (smartmat hub bridge-config).",
        "# Install as /etc/mosquitto/conf.d/smartmat-bridge.conf (mode 640, group mosquitto).",
        f"connection smartmat-hub-{table}",
        f"address {plan.central_host}:{plan.central_port}",
        "bridge_protocol_version mqttv311",
        f"remote_clientid smartmat-bridge-{table}",
        f"remote_username {bridge_user(table)}",
        f"remote_password {password}",
        "# A persistent session on both ends: what the table publishes while the hub is away is queued",
        "# and sent when the link returns (the hub fills any gap from the table's log).",
        "cleansession false",
        "try_private true",
        "restart_timeout 1 10",
        "keepalive_interval 15",
        "start_type automatic",
        "# The hub learns from these whether the link is up: 1 on connect, 0 as the bridge's will.",
        "notifications true",
        f"notification_topic {table_topic(table, BRIDGE)}",
    ]
    lines += [f"topic {table_topic(table, word)} out 1" for word in BRIDGED_OUT]
    lines += [f"topic {table_topic(table, word)} in 1" for word in BRIDGED_IN]
    return "\n".join(lines) + "\n"


def table_acl_addition() -> str:
    return "\n".join(
        [
            "",
            "# The tournament log shipper (smartmat hub ship-log): publishes the event log for the hub and",
            "# reads the hub's catch-up requests. Appended by the organiser; docs/tournaments.md.",
            f"user {LOGSHIP_USER}",
            f"topic write {ROOT}/+/{LOG}",
            f"topic write {ROOT}/+/{LOG_HEAD}",
            f"topic read {ROOT}/+/{LOG_REQUEST}",
            "",
        ]
    )


def hashed_password_lines(users: dict[str, str]) -> str:
    """``user:hash`` lines from mosquitto_passwd -U, which hashes a private file in place (no password in
    ``ps``)."""
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not Path(tool).exists():
        raise BridgeConfigError("mosquitto_passwd not found: apt-get install mosquitto")
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "passwords"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write("".join(f"{user}:{password}\n" for user, password in users.items()))
        subprocess.run([tool, "-U", str(path)], check=True, capture_output=True)
        return path.read_text(encoding="utf-8")


def _load_secrets(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BridgeConfigError(f"{path} cannot be read as the earlier passwords: {exc}") from None
    schema_check.check(
        schema_check.validator("service.hub.schemas", "bridge_secrets"), data, str(path), BridgeConfigError
    )
    secrets: dict[str, str] = data
    return secrets


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)


def write_bundle(
    plan: BridgePlan, out: Path, central_dir: str = "/etc/mosquitto/smartmat-hub"
) -> dict[str, str]:
    """Write every file under ``out``; returns the accounts' plain passwords (new ones generated, earlier
    ones kept from ``out/secrets.json`` so that tables already set up stay valid)."""
    out = Path(out)
    secrets_path = out / "secrets.json"
    passwords = _load_secrets(secrets_path)
    accounts = [HUB_USER, LOGSHIP_USER] + [bridge_user(table) for table in plan.tables]
    for account in accounts:
        passwords.setdefault(account, random_secrets.token_urlsafe(18))
    _write_private(secrets_path, json.dumps(passwords, indent=2, sort_keys=True) + "\n")

    central = out / "central"
    central.mkdir(parents=True, exist_ok=True)
    (central / "smartmat-hub.conf").write_text(central_conf(plan, central_dir), encoding="utf-8")
    (central / "acl").write_text(central_acl(plan.tables), encoding="utf-8")
    central_users = {account: passwords[account] for account in accounts if account != LOGSHIP_USER}
    _write_private(central / "passwords", hashed_password_lines(central_users))
    logship_line = hashed_password_lines({LOGSHIP_USER: passwords[LOGSHIP_USER]})
    for table in plan.tables:
        side = out / "tables" / table
        _write_private(
            side / "smartmat-bridge.conf", table_bridge_conf(plan, table, passwords[bridge_user(table)])
        )
        (side / "acl-logship").write_text(table_acl_addition(), encoding="utf-8")
        _write_private(side / "passwords-logship", logship_line)
    return {account: passwords[account] for account in accounts}
