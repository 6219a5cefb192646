"""
The JSON renderer of services: compact, UTF-8, as a Feathers server writes it.

    class ReportService(Service):
        renderer_classes = [JSONRenderer, BrowsableAPIRenderer]

Unlike DRF's own renderer, it does not depend on the `REST_FRAMEWORK` JSON settings, so a
project's other APIs keep theirs: the output is always `application/json; charset=utf-8`,
without spaces, with non-ASCII characters as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import renderers

__all__ = ["JSONRenderer"]


class JSONRenderer(renderers.JSONRenderer):
    """Render compact JSON, declared as `application/json; charset=utf-8`."""

    charset = "utf-8"
    compact = True
    ensure_ascii = False
    strict = True

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        """Return the JSON bytes of `data`."""
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            # A lone surrogate ("\ud800" in a JSON body) is a valid JavaScript string but has
            # no UTF-8 form: escape it, as JavaScript's JSON.stringify does.
            return _ASCIIJSONRenderer().render(data, accepted_media_type, renderer_context)


class _ASCIIJSONRenderer(JSONRenderer):
    ensure_ascii = True
