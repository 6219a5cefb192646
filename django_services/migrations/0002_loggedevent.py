from django.db import migrations, models

import django_services.models


class Migration(migrations.Migration):
    dependencies = [("django_services", "0001_initial")]

    operations = [
        migrations.CreateModel(
            name="LoggedEvent",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("logged_at", models.DateTimeField(db_index=True)),
                ("path", models.CharField(max_length=255)),
                ("event", models.CharField(max_length=255)),
                ("data", django_services.models.JSONTextField(null=True)),
                ("channels", django_services.models.JSONTextField()),
                ("read", django_services.models.JSONTextField(null=True)),
            ],
            options={"verbose_name": "logged event", "ordering": ["id"]},
        ),
    ]
