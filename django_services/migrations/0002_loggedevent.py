import rest_framework.utils.encoders
from django.db import migrations, models


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
                (
                    "data",
                    models.JSONField(encoder=rest_framework.utils.encoders.JSONEncoder, null=True),
                ),
                (
                    "channels",
                    models.JSONField(encoder=rest_framework.utils.encoders.JSONEncoder),
                ),
                (
                    "read",
                    models.JSONField(encoder=rest_framework.utils.encoders.JSONEncoder, null=True),
                ),
            ],
            options={"verbose_name": "logged event", "ordering": ["id"]},
        ),
    ]
