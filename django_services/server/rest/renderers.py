"""
The renderer of services and how it is chosen: JSON for every client, as a Feathers server
writes it.

    class ReportService(Service):
        renderer_classes = [JSONRenderer, BrowsableAPIRenderer]   # chosen by Accept

Unlike DRF's own renderer, `JSONRenderer` does not depend on the `REST_FRAMEWORK` JSON
settings, so a project's other APIs keep theirs: the output is always
`application/json; charset=utf-8`, without spaces, with non-ASCII characters as they are.

A Feathers server answers JSON whatever the `Accept` header says, so a service never answers
406 (`ServiceContentNegotiation`): the first renderer matching `Accept` is used, else the
first renderer. The query string belongs to the query language, so DRF's `?format=` override
is not read (`format` may be a field), and the query string is not parsed by Django (our codec
enforces its own limits).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rest_framework import renderers
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.utils.mediatypes import media_type_matches, order_by_precedence

from ..._drf_compat import django_request
from ..encoding import json_bytes

__all__ = ["JSONRenderer", "ServiceContentNegotiation"]


class JSONRenderer(renderers.JSONRenderer):
    """Render compact JSON, declared as `application/json; charset=utf-8`."""

    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        """Return the JSON bytes of `data` (`encoding.json_bytes`); none for None."""
        if data is None:
            return b""
        media_type = accepted_media_type or ""
        if ";" in media_type:  # `application/json; indent=4`
            indent = self.get_indent(media_type, renderer_context or {})
        else:  # what DRF's `get_indent` reads then, without its failed parameter lookup
            indent = (renderer_context or {}).get("indent")
        return json_bytes(data, indent=indent, encoder=self.encoder_class)


class ServiceContentNegotiation(DefaultContentNegotiation):
    """Choose the renderer by `Accept` only, falling back to the first one instead of 406."""

    def select_renderer(
        self,
        request: Any,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        """Return the renderer and the media type of the answer."""
        choices = list(renderers)
        media_types = tuple(renderer.media_type for renderer in choices)
        # Clients send the same few Accept headers again and again: the choice for each
        # short header is kept, keyed by the header as sent, so that a repeated header costs
        # neither DRF's reading of it (which builds `request.headers`) nor the matching. A
        # long header, which no common client sends, is read and matched every time.
        header = _accept_header(request)
        reads_as_drf = type(self).get_accept_list is DefaultContentNegotiation.get_accept_list
        if header is not None and len(header) <= _CACHED_LENGTH and reads_as_drf:
            key = (header, media_types)
            index = _choices_by_header.get(key)
            if index is None:
                index = _choose(tuple(self.get_accept_list(request)), media_types)
                if len(_choices_by_header) >= _CACHED_CHOICES:
                    _choices_by_header.clear()
                _choices_by_header[key] = index
        else:
            index = _choose(tuple(self.get_accept_list(request)), media_types)
        renderer = choices[index]
        return renderer, renderer.media_type


#: The longest `Accept` header (in characters) whose choice is kept.
_CACHED_LENGTH = 512


def _choose(accept_list: tuple[str, ...], media_types: tuple[str, ...]) -> int:
    """The index of the first media type matching the most precise accepted types, else 0."""
    for accepted_set in order_by_precedence(list(accept_list)):
        for index, media_type in enumerate(media_types):
            if any(media_type_matches(media_type, accepted) for accepted in accepted_set):
                return index
    return 0


#: The most headers whose choice is kept at once.
_CACHED_CHOICES = 256
#: (Accept header, the renderers' media types) -> the index of the renderer chosen.
_choices_by_header: dict[tuple[str, tuple[str, ...]], int] = {}


def _accept_header(request: Any) -> str | None:
    """The `Accept` header as sent (DRF reads `*/*` when there is none)."""
    meta = getattr(django_request(request), "META", None)
    return meta.get("HTTP_ACCEPT", "*/*") if meta is not None else None
