"""The commands reuse the remotes tests' live server, remotes and users."""

from tests.remotes.conftest import (  # noqa: F401 - fixtures
    _drain_live_server,
    configure_remotes,
    environment,
    harness,
    kind,
    live_remotes,
    users,
)
