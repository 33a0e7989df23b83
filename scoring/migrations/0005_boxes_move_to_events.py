"""The boxes (sets, deals, which set each table plays) move from the scoring app to events,
the layer the movement writes: the tables keep their names (scoring_boardset,
scoring_deal, scoring_tableplay) and their rows; only Django's idea of which app
holds them changes, so the database is not touched."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0007_boxes_move_to_events"),
        ("scoring", "0004_sheet_proof"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name="tableplay",
                    name="board_set",
                ),
                migrations.RemoveField(
                    model_name="deal",
                    name="board_set",
                ),
                migrations.AlterField(
                    model_name="adjustment",
                    name="deal",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="adjustments",
                        to="events.deal",
                    ),
                ),
                migrations.AlterField(
                    model_name="scoresheet",
                    name="deal",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sheets",
                        to="events.deal",
                    ),
                ),
                migrations.AlterField(
                    model_name="dealscore",
                    name="deal",
                    field=models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="scores",
                        to="events.deal",
                    ),
                ),
                migrations.RemoveField(
                    model_name="tableplay",
                    name="round",
                ),
                migrations.RemoveField(
                    model_name="tableplay",
                    name="table",
                ),
                migrations.AlterField(
                    model_name="scoresheet",
                    name="play",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sheets",
                        to="events.tableplay",
                    ),
                ),
                migrations.AlterField(
                    model_name="dealscore",
                    name="play",
                    field=models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="scores",
                        to="events.tableplay",
                    ),
                ),
                migrations.AlterField(
                    model_name="adjustment",
                    name="play",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="adjustments",
                        to="events.tableplay",
                    ),
                ),
                migrations.DeleteModel(
                    name="BoardSet",
                ),
                migrations.DeleteModel(
                    name="Deal",
                ),
                migrations.DeleteModel(
                    name="TablePlay",
                ),
            ],
        ),
    ]
