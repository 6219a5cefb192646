"""
The bridges are tested as remotes use them: with the remotes' `harness` and live server
(`tests.remotes.fixtures`), not the client tests' own of the same names.
"""

from tests.remotes.fixtures import _drain_live_server, harness  # noqa: F401 - fixtures
