"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest
from helpers.network import Children


@pytest.fixture
def children(tmp_path):
    """Starts `briscola` processes (helpers/network.py) and kills every one of them at the end."""
    kids = Children(tmp_path)
    try:
        yield kids
    finally:
        kids.close()
