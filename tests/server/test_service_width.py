"""
How wide `ModelService` is: the public names the package's own classes in its method
resolution order define, what a reader of the class meets besides DRF's.
"""

from __future__ import annotations

from django_services.server import ModelService

#: The most public names of ours (101 before the helpers of the model service went private).
#: DRF's `generics.py` and `mixins.py` add about 30; 50 is the aim once the call's state
#: (`call`, `action`, `params`, `request`) leaves the service for its context.
MOST_NAMES = 76
#: The model service's own classes (not the pipeline's `BaseService` and `ServiceMixin`).
MOST_MODEL_NAMES = 31


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
