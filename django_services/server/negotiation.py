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
        renderers: list[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        """Return the renderer and the media type of the answer."""
        for accepted_set in order_by_precedence(self.get_accept_list(request)):
            for renderer in renderers:
                if any(
                    media_type_matches(renderer.media_type, accepted) for accepted in accepted_set
                ):
                    return renderer, renderer.media_type
        return renderers[0], renderers[0].media_type
