from tests.helpers.broker import mosquitto_broker  # noqa: F401  (the fixture, for these tests)
