import rest_framework.utils.encoders
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("django_services", "0002_loggedevent")]

    operations = [
        migrations.CreateModel(
            name="SocketSession",
            fields=[
                (
                    "pid_hash",
                    models.CharField(max_length=64, primary_key=True, serialize=False),
                ),
                ("offsets", models.TextField()),
                (
                    "channels",
                    models.JSONField(encoder=rest_framework.utils.encoders.JSONEncoder),
                ),
                ("subject", models.CharField(blank=True, max_length=255, null=True)),
                (
                    "authentication",
                    models.JSONField(encoder=rest_framework.utils.encoders.JSONEncoder, null=True),
                ),
                ("session_key", models.CharField(blank=True, max_length=255, null=True)),
                ("seen_at", models.DateTimeField(db_index=True)),
                ("lost_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={"verbose_name": "socket session"},
        ),
    ]
