"""
The REST adapter: an HTTP request to a call context, the call's result to an HTTP response.

Views, body parsers, renderers, content negotiation and the HTTP error answers; what decides
whether a call is allowed, well-formed or visible lives below, in the pipeline.
"""
