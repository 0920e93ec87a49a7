"""Setups and logs naming ``content: sample`` play with the hand-made cards of tests/helpers.

The service ships no such cards (a real table can only play the shipped ones); the tests register theirs.
"""

from __future__ import annotations

from service.gamelog.replay import register_fixture_content
from tests.helpers.sample_content import sample_content

register_fixture_content("sample", sample_content)
