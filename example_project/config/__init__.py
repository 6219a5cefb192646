"""The example project's settings, URLs and server entry points."""
