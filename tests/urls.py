"""URLs of the test project."""

urlpatterns: list = []
