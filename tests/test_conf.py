import pytest
from django.core.checks import run_checks
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from django_services.conf import DEFAULTS, ServicesSettings, import_from_string, services_settings


def test_defaults_when_nothing_is_set():
    assert services_settings.PAGINATE is None
    assert services_settings.MULTI is False
    assert services_settings.QUERY_DEPTH_LIMIT == 5
    assert services_settings.AUTHENTICATION["JWT"]["ALGORITHM"] == "HS256"


def test_override_settings_reloads_and_restores():
    with override_settings(DJANGO_SERVICES={"PAGINATE": {"default": 5, "max": 10}}):
        assert services_settings.PAGINATE == {"default": 5, "max": 10}
    assert services_settings.PAGINATE is None


def test_nested_settings_merge_key_by_key_with_their_defaults():
    user = {"AUTHENTICATION": {"ENTITY": "account", "JWT": {"AUDIENCE": "https://x.test"}}}
    with override_settings(DJANGO_SERVICES=user):
        auth = services_settings.AUTHENTICATION
        assert auth["ENTITY"] == "account"
        assert auth["JWT"]["AUDIENCE"] == "https://x.test"
        assert auth["JWT"]["ALGORITHM"] == "HS256", "the other JWT defaults are kept"
        assert auth["LOCAL"]["USERNAME_FIELD"] is None, "the user model's own"


def test_defaults_are_not_mutated_through_the_settings_object():
    services_settings.AUTHENTICATION["JWT"]["ALGORITHM"] = "HS512"
    services_settings.reload()
    assert DEFAULTS["AUTHENTICATION"]["JWT"]["ALGORITHM"] == "HS256"
    assert services_settings.AUTHENTICATION["JWT"]["ALGORITHM"] == "HS256"


def test_unknown_setting_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="Invalid DJANGO_SERVICES setting: 'NOPE'"):
        services_settings.NOPE  # noqa: B018


def test_import_strings_are_resolved_lazily_with_the_key_named_in_errors():
    lazy = ServicesSettings(
        user_settings={"PAGINATE": "no.such.module.Thing"},
        import_strings=("PAGINATE",),
    )
    with pytest.raises(ImproperlyConfigured) as info:
        lazy.PAGINATE  # noqa: B018
    assert "DJANGO_SERVICES['PAGINATE']" in str(info.value)
    assert "no.such.module.Thing" in str(info.value)

    ok = ServicesSettings(
        user_settings={"PAGINATE": "django_services.errors.NotFound"},
        import_strings=("PAGINATE",),
    )
    from django_services.errors import NotFound

    assert ok.PAGINATE is NotFound


def test_import_from_string_passes_objects_through():
    assert import_from_string(int, "['X']") is int


def test_a_non_dict_setting_is_reported():
    with override_settings(DJANGO_SERVICES=["todos"]):
        with pytest.raises(ImproperlyConfigured, match="must be a dict"):
            services_settings.PAGINATE  # noqa: B018
        ids = [message.id for message in run_checks()]
    assert "django_services.E001" in ids


def test_unknown_keys_are_reported_by_a_system_check():
    with override_settings(DJANGO_SERVICES={"PAGINATES": {"default": 1}}):
        errors = [m for m in run_checks() if m.id == "django_services.E002"]
    assert len(errors) == 1
    assert "'PAGINATES'" in errors[0].msg
    assert "Did you mean 'PAGINATE'?" in errors[0].msg
    assert "PAGINATE" in errors[0].hint


def test_a_service_that_cannot_be_imported_is_reported_by_a_system_check():
    with override_settings(DJANGO_SERVICES={"SERVICES": {"todos": "no.such.module.TodoService"}}):
        errors = [m for m in run_checks() if m.id == "django_services.E010"]
    assert len(errors) == 1
    assert "no.such.module.TodoService" in errors[0].msg


ECHO = "tests.server.echo_services.EchoService"
PERSON = "tests.server.model_services.PersonService"


def test_every_broken_service_is_reported_in_one_run():
    declared = {
        "a": "tests.server.echo_services.EchoServise",
        "b": {"class": PERSON, "paginte": {"default": 10}},
        "c": {"class": PERSON, "multi": ["create", "explode"]},
        "d": {"class": PERSON, "paginate": {"default": 100, "max": 10}},
        "e": ECHO,
    }
    with override_settings(DJANGO_SERVICES={"SERVICES": declared}):
        messages = run_checks()
    errors = [m.msg for m in messages if m.id == "django_services.E010"]
    warnings = [m.msg for m in messages if m.id == "django_services.W013"]

    assert len(errors) == 3, errors
    assert "EchoServise" in errors[0]
    assert "no option 'paginte'" in errors[1] and "Did you mean 'paginate'?" in errors[1]
    assert "'c'" in errors[2] and "'explode'" in errors[2]
    assert warnings == [
        "The service at 'd' pages 100 records by default but at most 10: every page holds 10 "
        "at most."
    ]


def test_two_services_at_one_path_are_reported_beside_other_problems():
    declared = {"a": ECHO, "/a/": ECHO, "b": {"class": ECHO, "methodz": ["find"]}}
    with override_settings(DJANGO_SERVICES={"SERVICES": declared}):
        errors = [m.msg for m in run_checks() if m.id == "django_services.E010"]

    assert len(errors) == 2, errors
    assert "Did you mean 'methods'?" in errors[0]
    assert "Two services" in errors[1]


def test_misspelt_authentication_keys_are_named_with_the_key_meant():
    misspelt = {"SECERT": "x" * 32, "JWT": {"EXPIRES": 60}, "LOCAL": {"USERNAME_FEILD": "email"}}
    with override_settings(DJANGO_SERVICES={"AUTHENTICATION": misspelt}):
        errors = [m.msg for m in run_checks() if m.id == "django_services.E003"]

    assert errors == [
        "Unknown key 'SECERT' in DJANGO_SERVICES['AUTHENTICATION']. Did you mean 'SECRET'?",
        "Unknown key 'EXPIRES' in DJANGO_SERVICES['AUTHENTICATION']['JWT']. "
        "Did you mean 'EXPIRES_IN'?",
        "Unknown key 'USERNAME_FEILD' in DJANGO_SERVICES['AUTHENTICATION']['LOCAL']. "
        "Did you mean 'USERNAME_FIELD'?",
    ]


def test_a_misspelt_remote_option_is_named_with_the_option_meant():
    remote = {"BASE_URL": "https://billing.example.com", "TIMEOUTS": 5}
    with override_settings(DJANGO_SERVICES={"REMOTES": {"billing": remote}}):
        errors = [m.msg for m in run_checks() if m.id == "django_services.E202"]

    assert errors == [
        "Unknown key 'TIMEOUTS' in DJANGO_SERVICES['REMOTES']['billing']. Did you mean 'TIMEOUT'?"
    ]
