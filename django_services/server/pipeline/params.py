"""
`Params`: what a service method receives besides the id and the data, as in Feathers.

    def find(self, params):
        params.query      # {"done": "false", "$limit": "10"}: the parsed query string
        params.route      # {"userId": "42"} for "users/:userId/todos"
        params.headers    # lower-case header names
        params.provider   # "rest" over HTTP, None for calls made in Python
        params.user       # the authenticated user, or None
        params.authentication   # what the authenticator returned (request.auth), or None

Internal calls build their own: `service.find(Params(query={"email": email}))`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["Params"]


@dataclasses.dataclass
class Params:
    """
    The Feathers `params` of a service call.

    **Parameters:**

    * **query** - the query, as parsed from the query string (values are strings).
    * **route** - the values of the `:placeholders` of the service path, as strings.
    * **headers** - the request headers, names in lower case.
    * **provider** - `"rest"` for HTTP requests, `None` for internal calls.
    * **user** - the authenticated user (`request.user`), or `None`.
    * **authentication** - the authentication details (`request.auth`), or `None`.
    * **request** - the DRF request of an HTTP call (or the one a socket call's
      authentication read), or `None`.
    * **connection** - the socket connection a socket call came on (Feathers'
      `params.connection`), or `None`.
    """

    query: dict[str, Any] = dataclasses.field(default_factory=dict)
    route: dict[str, str] = dataclasses.field(default_factory=dict)
    headers: dict[str, str] = dataclasses.field(default_factory=dict)
    provider: str | None = None
    user: Any = None
    authentication: Any = None
    request: Any = dataclasses.field(default=None, repr=False, compare=False)
    connection: Any = dataclasses.field(default=None, repr=False, compare=False)

    def copy(self, **changes: Any) -> Params:
        """A copy with some attributes replaced (`params.copy(provider=None)`)."""
        return dataclasses.replace(self, **changes)
