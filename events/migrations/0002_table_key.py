import secrets

from django.db import migrations, models

import events.models


def give_keys(apps, schema_editor):
    Table = apps.get_model("events", "Table")
    for table in Table.objects.filter(key__isnull=True).only("pk"):
        table.key = secrets.token_urlsafe(16)
        table.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [("events", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="table", name="key", field=models.CharField(max_length=32, null=True)
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="key",
            field=models.CharField(
                default=events.models.new_private_key, editable=False, max_length=32, unique=True
            ),
        ),
    ]
