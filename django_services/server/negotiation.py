"""
Content negotiation for services: JSON for every client.

    class ReportService(Service):
        renderer_classes = [JSONRenderer, BrowsableAPIRenderer]   # chosen by Accept

A Feathers server answers JSON whatever the `Accept` header says, so a service never answers
406: the first renderer matching `Accept` is used, else the first renderer. The query string
belongs to the query language, so DRF's `?format=` override is not read (`format` may be a
field), and the query string is not parsed by Django (our codec enforces its own limits).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.utils.mediatypes import media_type_matches, order_by_precedence

__all__ = ["ServiceContentNegotiation"]


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
        # The request itself goes to `get_accept_list` (how DRF reads it differs across
        # versions). Clients send the same few Accept headers again and again, so the choice
        # for each short list is kept; a long one, which no common client sends, is not.
        accept_list = tuple(self.get_accept_list(request))
        if sum(map(len, accept_list)) <= _CACHED_LENGTH:
            index = _cached_choice(accept_list, media_types)
        else:
            index = _choose(accept_list, media_types)
        renderer = choices[index]
        return renderer, renderer.media_type


#: The longest accepted list (in characters) whose choice is kept.
_CACHED_LENGTH = 512


def _choose(accept_list: tuple[str, ...], media_types: tuple[str, ...]) -> int:
    """The index of the first media type matching the most precise accepted types, else 0."""
    for accepted_set in order_by_precedence(list(accept_list)):
        for index, media_type in enumerate(media_types):
            if any(media_type_matches(media_type, accepted) for accepted in accepted_set):
                return index
    return 0


_cached_choice = functools.lru_cache(maxsize=256)(_choose)
