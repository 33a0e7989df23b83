"""The boxes (sets, deals, which set each table plays) move from the scoring app to events,
the layer the movement writes: the tables keep their names (scoring_boardset,
scoring_deal, scoring_tableplay) and their rows; only Django's idea of which app
holds them changes, so the database is not touched."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0006_entry_pin"),
        ("scoring", "0004_sheet_proof"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="BoardSet",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("family", models.PositiveSmallIntegerField(default=1)),
                        ("number", models.PositiveIntegerField(verbose_name="set")),
                        (
                            "players",
                            models.PositiveSmallIntegerField(verbose_name="players at the table"),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="board_sets",
                                to="events.session",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "scoring_boardset",
                        "ordering": ["session", "family", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="Deal",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField(verbose_name="deal")),
                        (
                            "dealer",
                            models.CharField(
                                blank=True,
                                choices=[("W", "W"), ("N", "N"), ("E", "E"), ("S", "S")],
                                max_length=1,
                            ),
                        ),
                        (
                            "first_hand",
                            models.CharField(
                                choices=[("W", "W"), ("N", "N"), ("E", "E"), ("S", "S")],
                                max_length=1,
                            ),
                        ),
                        (
                            "talon_pocket",
                            models.CharField(
                                choices=[("W", "W"), ("N", "N"), ("E", "E"), ("S", "S")],
                                max_length=1,
                            ),
                        ),
                        ("active_seats", models.CharField(max_length=3)),
                        ("scores_stale", models.BooleanField(default=False)),
                        (
                            "board_set",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="deals",
                                to="events.boardset",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "scoring_deal",
                        "ordering": ["board_set", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="TablePlay",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("late", models.BooleanField(default=False)),
                        (
                            "players_access",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("", "by the clock"),
                                    ("open", "opened by the director"),
                                    ("closed", "closed by the director"),
                                ],
                                default="",
                                max_length=6,
                            ),
                        ),
                        (
                            "board_set",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="plays",
                                to="events.boardset",
                            ),
                        ),
                        (
                            "round",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="plays",
                                to="events.round",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="plays",
                                to="events.table",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "scoring_tableplay",
                        "ordering": ["round", "table__number"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="boardset",
                    constraint=models.UniqueConstraint(
                        fields=("session", "family", "number"), name="set_number_unique_in_family"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="boardset",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("players__in", [3, 4])), name="set_players_3_or_4"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="deal",
                    constraint=models.UniqueConstraint(
                        fields=("board_set", "number"), name="deal_number_unique_in_set"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="tableplay",
                    constraint=models.UniqueConstraint(
                        fields=("round", "table"), name="one_set_per_table_per_round"
                    ),
                ),
            ],
        ),
    ]
