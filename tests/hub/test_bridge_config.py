"""The generated Mosquitto files, run by real brokers: a table publishes only under its own prefix, the hub
reads every table, commands never cross the bridge, and the bridge says when it is up or down."""

from __future__ import annotations

import json

import pytest

from service.hub.bridge_config import BridgeConfigError, BridgePlan, bridge_user, central_acl, write_bundle
from tests.helpers.mqtt_probe import MqttProbe
from tests.hub.network import TABLE_ROLES, start_network

pytestmark = pytest.mark.broker


def test_plan_refuses_a_table_id_that_cannot_be_a_topic_word() -> None:
    with pytest.raises(ValueError, match="table id 'Table 1'"):
        BridgePlan(("Table 1",), "hub.local")
    with pytest.raises(BridgeConfigError, match="named twice"):
        BridgePlan(("t1", "t1"), "hub.local")


def test_central_acl_confines_each_table_to_its_prefix() -> None:
    acl = central_acl(("t1", "t2"))
    block = acl.split("user bridge-t1\n")[1].split("\n\n")[0]
    assert "topic write smartmat/t1/state" in block
    assert "smartmat/t2" not in block and "#" not in block.replace("# ", "")
    assert "cmd/request" not in acl


def test_passwords_are_kept_when_the_files_are_made_again(tmp_path) -> None:
    plan = BridgePlan(("t1",), "hub.local")
    first = write_bundle(plan, tmp_path)
    again = write_bundle(BridgePlan(("t1", "t2"), "hub.local"), tmp_path)
    assert again[bridge_user("t1")] == first[bridge_user("t1")]
    assert bridge_user("t2") in again
    assert (tmp_path / "secrets.json").stat().st_mode & 0o077 == 0
    assert first[bridge_user("t1")] not in (tmp_path / "central" / "passwords").read_text()


def test_two_tables_bridge_into_the_hub_and_stay_in_their_lanes(tmp_path) -> None:
    network = start_network(tmp_path, ["t1", "t2"])
    try:
        with MqttProbe("127.0.0.1", network.central.port, "hub", network.passwords["hub"]) as hub:
            hub.subscribe("smartmat/#")
            hub.wait_for(
                lambda seen: sum(s.topic.endswith("/bridge") and s.payload == b"1" for s in seen) >= 2
            )
            with MqttProbe("127.0.0.1", network.tables["t1"].port, "daemon", TABLE_ROLES["daemon"]) as daemon:
                daemon.publish("smartmat/t1/state", {"phase": "battle", "seq": 3}, retain=True)
                daemon.publish("smartmat/t1/cmd/response", {"txn": "x", "ok": True})
            hub.wait_for(lambda seen: any(s.topic == "smartmat/t1/state" for s in seen))
            assert json.loads(hub.latest("smartmat/t1/state").payload)["seq"] == 3

            # A table's bridge account cannot write under another table's prefix on the central broker.
            intruder = MqttProbe(
                "127.0.0.1", network.central.port, "bridge-t2", network.passwords["bridge-t2"]
            )
            with intruder:
                intruder.publish("smartmat/t1/state", {"phase": "game_over", "seq": 99}, retain=True)
                intruder.publish("smartmat/t2/state", {"phase": "battle", "seq": 1}, retain=True)
            hub.wait_for(lambda seen: any(s.topic == "smartmat/t2/state" for s in seen))
            assert json.loads(hub.latest("smartmat/t1/state").payload)["seq"] == 3

            # The hub cannot command a table, even through the bridge.
            with MqttProbe("127.0.0.1", network.tables["t1"].port, "daemon", TABLE_ROLES["daemon"]) as daemon:
                daemon.subscribe("smartmat/t1/cmd/request")
                hub.publish(
                    "smartmat/t1/cmd/request", {"txn": "evil", "actor": "referee:x", "command": "undo"}
                )
                hub.publish("smartmat/t1/log/request", {"game": None, "after": 0})
                with MqttProbe(
                    "127.0.0.1", network.tables["t1"].port, "logship", network.passwords["logship"]
                ) as ship:
                    ship.subscribe("smartmat/t1/log/request")
                    hub.publish("smartmat/t1/log/request", {"game": None, "after": 5})
                    ship.wait_for(lambda seen: any(b'"after": 5' in s.payload for s in seen))
                assert daemon.on("smartmat/t1/cmd/request") == []
            # Nothing from the table but its published topics reaches the hub.
            assert hub.on("smartmat/t1/cmd/response") == []

            # The bridge reports a lost link: the central broker publishes the bridge's will.
            network.tables["t2"].stop()
            hub.wait_for(lambda seen: (hub.latest("smartmat/t2/bridge") or seen[0]).payload == b"0")
    finally:
        network.stop()
