"""
The server's layers: a module imports from its own layer or the ones below, never from one
above, at any depth of its code (an import inside a function counts too).

From the top: the adapters (`rest/`, `socketio/`) turn what arrives into a call and the
result into what leaves; the application (`registry`, `authentication/`) holds the services
of a project, their routes and its logins; the service classes (`services/`) route their own
Python calls through the pipeline, which takes any service by its interface
(`service.get_permissions()`, `service._get_hooks()`...) and so never imports one; the
foundations (`encoding`, `telemetry`, `database_errors`) import nothing of the server. The
service classes are DRF views that know no transport: the REST adapter composes the view
class of each (`rest.views.view_class`).
"""

from __future__ import annotations

import pytest

from tests.package.test_layout import import_graph

SERVER = "django_services.server"

#: The layers, from the top: the packages and modules of `django_services.server` each holds.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("rest", "socketio"),
    ("registry", "authentication"),
    ("services",),
    ("pipeline",),
    ("encoding", "telemetry", "database_errors"),
)

#: Imports still made across the order, each with what keeps it: the list only shrinks.
EXCEPTIONS: dict[tuple[str, str], str] = {}


def layer_of(module: str) -> int | None:
    """The index of the layer of a module of the server (0 is the top), or None."""
    if not module.startswith(SERVER + "."):
        return None
    first = module[len(SERVER) + 1 :].split(".")[0]
    for index, names in enumerate(LAYERS):
        if first in names:
            return index
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def upward_imports() -> list[str]:
    found = []
    for module, imported in import_graph().items():
        # The package's public names, imported on first access, stand above every layer.
        if module == SERVER:
            continue
        layer = layer_of(module)
        if layer is None:
            continue
        for target in sorted(imported):
            target_layer = layer_of(target)
            if target_layer is None or target_layer >= layer:
                continue
            if (module, target) not in EXCEPTIONS:
                found.append(f"{module} imports {target}")
    return found


def test_every_server_module_is_in_a_layer():
    for module in import_graph():
        layer_of(module)


def test_no_server_module_imports_from_a_layer_above_its_own():
    assert upward_imports() == []


def test_an_upward_import_is_found(monkeypatch):
    # The check reads the real graph: the pipeline importing a service class fails it.
    graph = import_graph()
    graph[SERVER + ".pipeline.calls"].add(SERVER + ".services.base_service")
    monkeypatch.setattr(f"{__name__}.import_graph", lambda: graph)
    assert upward_imports() == [f"{SERVER}.pipeline.calls imports {SERVER}.services.base_service"]


@pytest.mark.parametrize(("module", "target"), sorted(EXCEPTIONS))
def test_each_allowed_upward_import_is_still_made(module, target):
    assert target in import_graph()[module], f"{module} no longer imports {target}: drop it"
