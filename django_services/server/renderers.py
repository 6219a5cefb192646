"""
The JSON renderer of services: compact, UTF-8, as a Feathers server writes it.

    class ReportService(Service):
        renderer_classes = [JSONRenderer, BrowsableAPIRenderer]

Unlike DRF's own renderer, it does not depend on the `REST_FRAMEWORK` JSON settings, so a
project's other APIs keep theirs: the output is always `application/json; charset=utf-8`,
without spaces, with non-ASCII characters as they are.
"""

from __future__ import annotations

from rest_framework import renderers

__all__ = ["JSONRenderer"]


class JSONRenderer(renderers.JSONRenderer):
    """Render compact JSON, declared as `application/json; charset=utf-8`."""

    charset = "utf-8"
    compact = True
    ensure_ascii = False
    strict = True
