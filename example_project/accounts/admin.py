from __future__ import annotations

from django.contrib import admin

from .models import User


@admin.register(User)
class UserAdmin(admin.ModelAdmin):
    """Accounts in the admin; passwords are set through the users service or `changepassword`."""

    list_display = ["email", "is_staff", "is_active", "date_joined"]
    list_filter = ["is_staff", "is_active"]
    search_fields = ["email"]
    fields = ["email", "is_active", "is_staff", "is_superuser", "last_login", "date_joined"]
    readonly_fields = ["last_login", "date_joined"]
