"""
How wide `ModelService` is: the public names the package's own classes in its method
resolution order define, what a reader of the class meets besides DRF's.
"""

from __future__ import annotations

import pytest

from django_services.contract import STANDARD_METHODS
from django_services.server import ModelService, Service, service_method
from django_services.server.services.methods import RESERVED_NAMES
from tests.server.conftest import _clear_cache  # noqa: F401 - the fixture

#: The most public names of ours (101 before the helpers of the model service went private,
#: 76 before the call's state left the service for its context). DRF's `generics.py` and
#: `mixins.py` add about 30.
MOST_NAMES = 50
#: The model service's own classes (not the pipeline's `BaseService`).
MOST_MODEL_NAMES = 20


def public_names_of_ours(cls: type) -> dict[str, set[str]]:
    """The public names each class of this package in `cls.__mro__` defines, by class."""
    return {
        base.__qualname__: {name for name in vars(base) if not name.startswith("_")}
        for base in cls.__mro__
        if base.__module__.startswith("django_services.")
    }


def test_model_service_stays_narrow():
    by_class = public_names_of_ours(ModelService)
    names = set().union(*by_class.values())

    assert len(names) <= MOST_NAMES, by_class
    model_names = set().union(
        *(by_class[name] for name in ("ModelService", "ModelDataMixin", "ModelOptionsMixin"))
    )
    assert len(model_names) <= MOST_MODEL_NAMES, sorted(model_names)


@pytest.mark.parametrize("service_class", [Service, ModelService])
def test_every_public_name_of_a_service_class_is_reserved(service_class):
    public = {
        name
        for base in service_class.__mro__
        if base is not object
        for name in vars(base)
        if not name.startswith("_")
    }

    assert public - set(STANDARD_METHODS) - RESERVED_NAMES == set()


@pytest.mark.parametrize("name", ["get_queryset", "paginator", "call", "represent", "kwargs"])
def test_a_custom_method_cannot_take_a_reserved_name(name):
    with pytest.raises(TypeError, match=f"{name!r} cannot be a custom method name"):
        type("Clash", (ModelService,), {name: service_method(lambda self, data, params: None)})


def test_a_custom_method_may_take_a_name_a_project_s_own_base_class_defines():
    class Reporting(ModelService):
        def summary(self):
            return "a helper of the project's base class"

    class Sales(Reporting):
        @service_method
        def summary(self, data, params):
            return {"total": 3}

    assert Sales._custom_methods == {"summary": "summary"}
