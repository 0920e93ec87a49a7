"""The console of ``smartmat`` stays readable: chatty libraries are quiet unless ``-v`` is given."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from service.cli import main


@pytest.fixture
def transitions_logger() -> Iterator[logging.Logger]:
    logger = logging.getLogger("transitions")
    level = logger.level
    yield logger
    logger.setLevel(level)


def test_the_embedded_brokers_state_changes_are_not_logged_at_info(
    transitions_logger: logging.Logger, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([]) == 2  # no command: help, after logging is set up
    core = logging.getLogger("transitions.core")
    assert core.getEffectiveLevel() == logging.WARNING
    assert not core.isEnabledFor(logging.INFO)
    assert core.isEnabledFor(logging.WARNING)


def test_verbose_shows_them_again(
    transitions_logger: logging.Logger, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-v"]) == 2
    assert logging.getLogger("transitions.core").isEnabledFor(logging.DEBUG)
