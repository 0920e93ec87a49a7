"""smartmat on MQTT: one ``TablePublisher`` per table over a transport (paho for real, a fake for tests).

Topic names live only in :mod:`service.publish.topics`; the contract for subscribers is ``docs/mqtt.md``.
"""

from service.publish.broker_url import BrokerUrl, BrokerUrlError
from service.publish.commands import (
    Command,
    CommandResult,
    MalformedCommandError,
    parse_command,
)
from service.publish.fake import FakeBroker, FakeMqttClient
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import CommandHandler, TablePublisher
from service.publish.transport import InboundMessage, MqttTransport, Will

__all__ = [
    "BrokerUrl",
    "BrokerUrlError",
    "Command",
    "CommandHandler",
    "CommandResult",
    "FakeBroker",
    "FakeMqttClient",
    "InboundMessage",
    "MalformedCommandError",
    "MqttTransport",
    "PahoTransport",
    "TablePublisher",
    "Will",
    "parse_command",
]
