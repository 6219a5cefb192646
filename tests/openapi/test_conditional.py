"""
The conditional requests in the OpenAPI schema: the validators of answers, the preconditions
of reads (304) and of writes by id (412, and 428 where the service requires them).
"""

from __future__ import annotations

from typing import Any


def parameter_names(operation: dict[str, Any], location: str) -> list[str]:
    return [p["name"] for p in operation.get("parameters", []) if p["in"] == location]


def test_conditional_requests_are_described_where_they_apply(schema):
    samples, todos = schema["paths"]["/samples/{id}"], schema["paths"]["/users/{userId}/todos/{id}"]
    validators = {"ETag", "Last-Modified"}

    assert set(samples["get"]["responses"]["200"]["headers"]) == validators
    assert set(samples["get"]["responses"]["304"]["headers"]) == validators
    assert "content" not in samples["get"]["responses"]["304"]
    assert {"If-None-Match", "If-Modified-Since"} <= set(parameter_names(samples["get"], "header"))
    assert "304" in schema["paths"]["/samples"]["get"]["responses"]
    for verb in ("put", "patch", "delete"):
        assert "If-Match" in parameter_names(samples[verb], "header")
        assert "412" in samples[verb]["responses"]
        assert "428" not in samples[verb]["responses"]
        required = {p["name"]: p["required"] for p in todos[verb]["parameters"]}
        assert required["If-Match"] is True
        assert {"412", "428"} <= set(todos[verb]["responses"])
    assert set(samples["patch"]["responses"]["200"]["headers"]) == validators
    assert set(todos["get"]["responses"]["200"]["headers"]) == {"ETag"}
    # Multi writes take no precondition.
    assert "If-Match" not in parameter_names(schema["paths"]["/samples"]["patch"], "header")
    # A plain service's reads carry the ETag of their body too.
    assert "ETag" in schema["paths"]["/echo/{id}"]["get"]["responses"]["200"]["headers"]
    assert "If-Match" not in parameter_names(schema["paths"]["/echo/{id}"]["get"], "header")
