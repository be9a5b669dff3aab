"""Fixtures of the authorities' tests: the ROSS 1000 web-service double on loopback."""

from tests.authorities.ross1000_double import ross1000_double  # noqa: F401 - a fixture
