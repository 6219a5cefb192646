"""
JSON as services send it: compact, UTF-8, non-ASCII characters as they are.

    json_bytes({"text": "été", "at": now})     # b'{"text":"\xc3\xa9t\xc3\xa9","at":"2026-..."}'

What the REST renderer sends (`rest.renderers.JSONRenderer`), what a representation's ETag
hashes on every transport (`services.conditional`), and the body of Feathers' 404. Values
are encoded as DRF encodes them (dates in ISO 8601, decimals, UUIDs, lazy strings); NaN and
infinities are refused; U+2028 and U+2029 are escaped, so the text is valid JavaScript too.
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework.utils.encoders import JSONEncoder

__all__ = ["json_bytes"]

_COMPACT = (",", ":")
_INDENTED = (",", ": ")


def json_bytes(data: Any, *, indent: int | None = None, encoder: type = JSONEncoder) -> bytes:
    """The JSON of `data` as UTF-8 bytes: compact, or indented by `indent` spaces."""
    try:
        return _dumps(data, indent, encoder, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        # A lone surrogate ("\ud800" in a JSON body) is a valid JavaScript string but has no
        # UTF-8 form: escape it, as JavaScript's JSON.stringify does.
        return _dumps(data, indent, encoder, ensure_ascii=True).encode()


def _dumps(data: Any, indent: int | None, encoder: type, *, ensure_ascii: bool) -> str:
    text = json.dumps(
        data,
        cls=encoder,
        indent=indent,
        ensure_ascii=ensure_ascii,
        allow_nan=False,
        separators=_COMPACT if indent is None else _INDENTED,
    )
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
