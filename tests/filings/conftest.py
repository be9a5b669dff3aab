"""The engine's tests take the police tests' set-up: settings with a loopback Alloggiati double,
an Italian property, bookings made through the service."""

from tests.police.conftest import (double, italian_property, make_booking,  # noqa: F401
                                   police_env, settings)
