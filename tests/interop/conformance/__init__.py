"""
The conformance fixture: the service set Feathers interoperability tests run against.

    DJANGO_SETTINGS_MODULE=tests.interop.conformance.settings \
        python -m tests.interop.conformance.serve

It is a separate settings module, so no other configuration serves these services.
"""
