"""Every table-round gets its own private key: the round link (/t/<key>/) that shows that
one round of the table, so that the table's link (its QR code, known to everyone who ever sat
there) no longer shows its later rounds (issue 26)."""

import secrets

from django.db import migrations, models

import events.models


def give_keys(apps, schema_editor):
    TablePlay = apps.get_model("events", "TablePlay")
    plays = list(TablePlay.objects.filter(key__isnull=True).only("pk"))
    for play in plays:
        play.key = secrets.token_urlsafe(16)
    TablePlay.objects.bulk_update(plays, ["key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("events", "0008_cards_of_the_deals")]

    operations = [
        migrations.AddField(
            model_name="tableplay", name="key", field=models.CharField(max_length=32, null=True)
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tableplay",
            name="key",
            field=models.CharField(
                default=events.models.new_private_key, editable=False, max_length=32, unique=True
            ),
        ),
    ]
